/// Reads a server's text messages off a raw connection as a browser's WebSocket hands them on:
/// pings and pongs are skipped, and bytes that arrive beyond one frame are kept for the next. The
/// server pings every 10 s, and a test slowed by a busy core can still be reading then.
final class WebSocketTextReader {
    private let client: RawHTTPClient
    private var bytes: [UInt8]

    /// `buffered`: what arrived after the upgrade's response head.
    init(_ client: RawHTTPClient, buffered: [UInt8]) {
        self.client = client
        bytes = buffered
    }

    /// The next whole unfragmented text frame's payload; nil when the connection ends, times out
    /// or sends anything else.
    func next() async -> String? {
        while true {
            guard await need(2) else { return nil }
            let final = bytes[0] & 0x80 != 0, opcode = bytes[0] & 0x0f
            var length = Int(bytes[1] & 0x7f), offset = 2
            // Server frames are never masked, and none here needs the 64-bit length.
            guard bytes[1] & 0x80 == 0, length != 127 else { return nil }
            if length == 126 {
                guard await need(4) else { return nil }
                length = Int(bytes[2]) << 8 | Int(bytes[3])
                offset = 4
            }
            guard await need(offset + length) else { return nil }
            let payload = Array(bytes[offset..<(offset + length)])
            bytes.removeFirst(offset + length)
            switch opcode {
            case 0x9, 0xA: continue
            case 0x1 where final: return String(decoding: payload, as: UTF8.self)
            default: return nil
            }
        }
    }

    private func need(_ count: Int) async -> Bool {
        if bytes.count < count { bytes += await client.read(atLeast: count - bytes.count) }
        return bytes.count >= count
    }
}
