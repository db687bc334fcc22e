import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A TCP client that writes exactly the bytes a test gives it, so that malformed, oversized and
/// hostile requests reach the server as a real attacker's would (URLSession would fix them up).
final class RawHTTPClient {
    let fd: Int32

    init(port: Int, receiveBuffer: Int32? = nil) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        if var size = receiveBuffer {
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard status == 0 else {
            close(fd)
            throw POSIXError(.ECONNREFUSED)
        }
    }

    deinit { close(fd) }

    func send(_ text: String) async { await send(Array(text.utf8)) }

    func send(_ bytes: [UInt8]) async {
        var offset = 0
        let deadline = Date().addingTimeInterval(Self.timeout)
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
            if n > 0 { offset += n; continue }
            guard n < 0, errno == EAGAIN || errno == EWOULDBLOCK, Date() < deadline else { return }
            await Self.pause()
        }
    }

    /// Reads until `count` bytes, the peer closes, or the timeout.
    func read(atLeast count: Int) async -> [UInt8] {
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while out.count < count {
            let n = await receive(into: &chunk)
            if n <= 0 { break }
            out += chunk[0..<n]
        }
        return out
    }

    /// Reads until the response head is complete (or the connection ends).
    func readHead() async -> (status: Int, head: String, rest: [UInt8]) {
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            if let end = Self.headEnd(out) {
                let head = String(decoding: out[..<end], as: UTF8.self)
                let status = Int(head.split(separator: " ").dropFirst().first ?? "") ?? 0
                return (status, head, Array(out[(end + 4)...]))
            }
            let n = await receive(into: &chunk)
            if n <= 0 { return (0, String(decoding: out, as: UTF8.self), []) }
            out += chunk[0..<n]
        }
    }

    /// Whether the server has closed the connection (a read returns end of file).
    func isClosedByPeer() async -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = await receive(into: &chunk)
            if n == 0 { return true }
            if n < 0 { return receiveError == ECONNRESET }
        }
    }

    /// Longest wait for the server, seconds.
    static let timeout = 30.0
    private var receiveError: Int32 = 0

    /// One recv that waits by suspending, not blocking: a test blocked in recv holds one of
    /// Swift's cooperative threads, and inside the whole suite (the others busy with CPU-bound
    /// tests) the server's async handling then waited for it until its idle timeout closed the
    /// connection. Returns the byte count, 0 at end of file, -1 on an error or the timeout.
    private func receive(into chunk: inout [UInt8]) async -> Int {
        let deadline = Date().addingTimeInterval(Self.timeout)
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if n >= 0 { return n }
            receiveError = errno
            guard receiveError == EAGAIN || receiveError == EWOULDBLOCK, Date() < deadline else { return -1 }
            await Self.pause()
        }
    }

    private static func pause() async { try? await Task.sleep(nanoseconds: 2_000_000) }

    static func headEnd(_ b: [UInt8]) -> Int? {
        guard b.count >= 4 else { return nil }
        for i in 0...(b.count - 4) where b[i] == 13 && b[i + 1] == 10 && b[i + 2] == 13 && b[i + 3] == 10 { return i }
        return nil
    }

    /// A full GET: status and body (the server closes or sends Content-Length).
    static func get(_ path: String, port: Int) async throws -> (status: Int, head: String, body: String) {
        let c = try RawHTTPClient(port: port)
        await c.send("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        let (status, head, rest) = await c.readHead()
        let body = rest + (await c.read(atLeast: Int.max))
        return (status, head, String(decoding: body, as: UTF8.self))
    }
}
