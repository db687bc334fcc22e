import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The first address `getaddrinfo` gives for a host and port, resolved once: what the OSC sender
/// sends to, and what the live server checks before it starts its loop.
public struct ResolvedHost: Sendable {
    /// Why a host has no address, in the resolver's words.
    public struct Failure: Error, Sendable {
        public let reason: String
    }

    public let family: Int32
    public let address: sockaddr_storage
    public let length: socklen_t

    public init(host: String, port: Int, socketType: Int32) throws(Failure) {
        var hints = addrinfo()
        hints.ai_socktype = socketType
        var result: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &result)
        guard status == 0, let first = result else { throw Failure(reason: String(cString: gai_strerror(status))) }
        defer { freeaddrinfo(result) }
        var storage = sockaddr_storage()
        withUnsafeMutableBytes(of: &storage) { dst in
            dst.copyMemory(from: UnsafeRawBufferPointer(start: first.pointee.ai_addr, count: Int(first.pointee.ai_addrlen)))
        }
        family = first.pointee.ai_family
        address = storage
        length = first.pointee.ai_addrlen
    }
}
