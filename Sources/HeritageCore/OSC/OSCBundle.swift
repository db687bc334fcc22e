/// An OSC time tag: NTP format, seconds since 1900-01-01 in the high 32 bits and a binary
/// fraction of a second in the low 32. The value 1 means "immediately".
public struct OSCTimeTag: Hashable, Sendable {
    public var raw: UInt64

    public init(raw: UInt64) { self.raw = raw }

    public static let immediately = OSCTimeTag(raw: 1)

    /// Seconds between the NTP epoch (1900) and the Unix epoch (1970).
    public static let unixEpochOffset: UInt64 = 2_208_988_800

    /// The tag for a Unix time in seconds (as `Date().timeIntervalSince1970` gives).
    public init(unixSeconds: Double) {
        let whole = unixSeconds.rounded(.down)
        let fraction = UInt64(((unixSeconds - whole) * 4_294_967_296).rounded(.down))
        raw = (UInt64(whole) + Self.unixEpochOffset) << 32 | min(fraction, 0xFFFF_FFFF)
    }

    public var unixSeconds: Double {
        Double(raw >> 32) - Double(Self.unixEpochOffset) + Double(raw & 0xFFFF_FFFF) / 4_294_967_296
    }
}

/// An OSC bundle: a time tag and messages, sent as one datagram so a receiver gets them together.
public struct OSCBundle: Hashable, Sendable {
    public var timeTag: OSCTimeTag
    public var messages: [OSCMessage]

    public init(timeTag: OSCTimeTag = .immediately, messages: [OSCMessage]) {
        self.timeTag = timeTag
        self.messages = messages
    }

    /// "#bundle\0" (8) + time tag (8) + per element a 4-byte size and the message.
    public var encodedSize: Int { 16 + messages.reduce(0) { $0 + 4 + $1.encodedSize } }

    public func encoded() -> [UInt8] {
        var w = OSCWriter(capacity: encodedSize)
        w.string("#bundle")
        w.uint64(timeTag.raw)
        for message in messages {
            w.uint32(UInt32(message.encodedSize))
            message.write(into: &w)
        }
        return w.bytes
    }
}
