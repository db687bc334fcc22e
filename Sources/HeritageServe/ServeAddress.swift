import HeritageLens

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
        guard let address = HostPort.parse(text, defaultHost: Self.defaultHost), (0...65535).contains(address.port) else {
            throw .badAddress(text)
        }
        self.init(host: address.host, port: address.port)
    }

    public var description: String { HostPort(host: host, port: port).description }
}

/// Why the live server could not start, phrased for the person who asked for it.
public enum ServeError: Error, CustomStringConvertible, Equatable {
    case badAddress(String)
    case cannotResolve(String, reason: String)
    case cannotListen(String, reason: String, why: ListenFailure)

    /// What stood in the way of listening, for the advice that goes with it.
    public enum ListenFailure: Equatable, Sendable {
        case portInUse, notAnAddressOfThisMachine, portNeedsRoot, other
    }

    public var description: String {
        switch self {
        case .badAddress(let text):
            return "--serve \(text): write PORT or HOST:PORT (port 0-65535; IPv6 as [::1]:PORT)"
        case .cannotResolve(let address, let reason):
            return "--serve \(address): cannot resolve the host (\(reason)); check the name or use an IP address"
        case .cannotListen(let address, let reason, let why):
            let advice = switch why {
            case .portInUse: "choose another port or stop the program using it"
            case .notAnAddressOfThisMachine: "name an address of this machine, or 0.0.0.0 for all of them"
            case .portNeedsRoot: "ports under 1024 need root; choose one from 1024 up"
            case .other: "check the host and port"
            }
            return "--serve \(address): cannot listen (\(reason)); \(advice)"
        }
    }
}
