/// `--serve [HOST:]PORT`: where the live server listens. Loopback unless a host is named, so a
/// kiosk's viewer is not on the network by accident.
public struct ServeAddress: Equatable, Sendable, CustomStringConvertible {
    public var host: String
    /// 0 picks a free port (tests).
    public var port: Int

    public static let defaultHost = "127.0.0.1"

    public init(host: String = defaultHost, port: Int) {
        self.host = host
        self.port = port
    }

    public init(_ text: String) throws(ServeError) {
        var host = Self.defaultHost
        var portText = Substring(text)
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else {
                throw .badAddress(text)
            }
            host = String(text[text.index(after: text.startIndex)..<close])
            portText = text[text.index(close, offsetBy: 2)...]
        } else if let colon = text.lastIndex(of: ":") {
            guard !text[..<colon].contains(":") else { throw .badAddress(text) }
            if colon > text.startIndex { host = String(text[..<colon]) }
            portText = text[text.index(after: colon)...]
        }
        guard let port = Int(portText), (0...65535).contains(port) else { throw .badAddress(text) }
        self.init(host: host, port: port)
    }

    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}

/// Why the live server could not start, phrased for the person who asked for it.
public enum ServeError: Error, CustomStringConvertible, Equatable {
    case badAddress(String)
    case cannotListen(String, reason: String)

    public var description: String {
        switch self {
        case .badAddress(let text):
            return "--serve \(text): write PORT or HOST:PORT (port 0-65535; IPv6 as [::1]:PORT)"
        case .cannotListen(let address, let reason):
            return "--serve \(address): cannot listen (\(reason)); choose another port or stop the program using it"
        }
    }
}
