/// A network address as typed: `HOST:PORT`, `[IPv6]:PORT`, or `PORT` alone where a default host
/// applies. Only the syntax; the caller checks the port's range and resolves the host.
public struct HostPort: Equatable, Sendable {
    public var host: String
    public var port: Int

    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// nil when `text` is not such an address. An empty host (`:PORT`) is `defaultHost`, or
    /// loopback when there is none; `PORT` alone is accepted only with a default host.
    public static func parse(_ text: String, defaultHost: String?) -> HostPort? {
        var host: Substring
        let portText: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else { return nil }
            host = text[text.index(after: text.startIndex)..<close]
            portText = text[text.index(close, offsetBy: 2)...]
        } else if let colon = text.lastIndex(of: ":") {
            guard !text[..<colon].contains(":") else { return nil }
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
        } else {
            guard let defaultHost else { return nil }
            host = Substring(defaultHost)
            portText = Substring(text)
        }
        if host.isEmpty { host = Substring(defaultHost ?? "127.0.0.1") }
        guard !portText.isEmpty, portText.allSatisfy(\.isASCII), let port = Int(portText) else { return nil }
        return HostPort(host: String(host), port: port)
    }

    /// `host:port`, with IPv6 hosts in brackets.
    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}
