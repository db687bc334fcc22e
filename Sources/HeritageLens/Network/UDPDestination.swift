import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A receiver's address, `HOST:PORT` (`[v6]:PORT` for IPv6 literals), resolved once at start.
public struct UDPDestination: CustomStringConvertible, Sendable {
    public let host: String
    public let port: UInt16
    let family: Int32
    let address: sockaddr_storage
    let length: socklen_t

    public var description: String { HostPort(host: host, port: Int(port)).description }

    /// Parses `HOST:PORT` without resolving it (option validation).
    public static func split(_ text: String) throws(NetworkAddressError) -> (host: String, port: UInt16) {
        guard let address = HostPort.parse(text, defaultHost: nil) else { throw .malformed(text, expected: "HOST:PORT") }
        guard (1...65535).contains(address.port) else { throw .badPort(text) }
        return (address.host, UInt16(address.port))
    }

    /// Parses and resolves `HOST:PORT`.
    public init(_ text: String) throws(NetworkAddressError) {
        let (host, port) = try Self.split(text)
        let resolved: ResolvedHost
        do {
            resolved = try ResolvedHost(host: host, port: Int(port), socketType: Int32(SOCK_DGRAM.rawValue))
        } catch {
            throw .unresolved(text, reason: error.reason)
        }
        self.host = host
        self.port = port
        family = resolved.family
        address = resolved.address
        length = resolved.length
    }
}

/// A network address option that cannot be used, phrased for the person who typed it.
public enum NetworkAddressError: Error, CustomStringConvertible, Equatable {
    case malformed(String, expected: String)
    case badPort(String)
    case unresolved(String, reason: String)

    public var description: String {
        switch self {
        case .malformed(let text, let expected):
            return "\(text): not an address; write \(expected) (IPv6 as [::1]:PORT)"
        case .badPort(let text):
            return "\(text): the port must be a number from 1 to 65535"
        case .unresolved(let text, let reason):
            return "\(text): cannot resolve the host (\(reason)); check the name or use an IP address"
        }
    }
}

/// A UDP socket that sends datagrams to one destination; failures are counted, never thrown:
/// a receiver that is not running yet must not stop the run.
public final class UDPSender {
    public let destination: UDPDestination
    private let socketFD: Int32
    public private(set) var sent = 0
    public private(set) var failures = 0

    public init(destination: UDPDestination) throws(NetworkAddressError) {
        self.destination = destination
        socketFD = socket(destination.family, Int32(SOCK_DGRAM.rawValue), 0)
        guard socketFD >= 0 else {
            throw .unresolved(destination.description, reason: "socket: \(String(cString: strerror(errno)))")
        }
    }

    deinit { close(socketFD) }

    public func send(_ datagram: [UInt8]) {
        var address = destination.address
        let n = datagram.withUnsafeBytes { bytes in
            withUnsafePointer(to: &address) { p in
                p.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(socketFD, bytes.baseAddress, bytes.count, Int32(MSG_DONTWAIT), $0, destination.length)
                }
            }
        }
        if n == datagram.count { sent += 1 } else { failures += 1 }
    }
}
