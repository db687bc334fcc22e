/// One argument of an OSC 1.0 message: the four core types every OSC implementation reads.
public enum OSCArgument: Hashable, Sendable {
    case int32(Int32)
    case float32(Float)
    case string(String)
    case blob([UInt8])

    /// The type tag character ("i", "f", "s", "b").
    public var typeTag: UInt8 {
        switch self {
        case .int32: return UInt8(ascii: "i")
        case .float32: return UInt8(ascii: "f")
        case .string: return UInt8(ascii: "s")
        case .blob: return UInt8(ascii: "b")
        }
    }
}

/// An OSC 1.0 message: an address pattern and typed arguments.
public struct OSCMessage: Hashable, Sendable {
    public var address: String
    public var arguments: [OSCArgument]

    public init(_ address: String, _ arguments: [OSCArgument] = []) {
        self.address = address
        self.arguments = arguments
    }

    /// A message of float arguments (the common case: coordinates, gestures).
    public init(_ address: String, floats: [Double]) {
        self.init(address, floats.map { .float32(Float($0)) })
    }

    /// Its encoded size in bytes, without encoding it.
    public var encodedSize: Int {
        var n = OSCWriter.paddedStringSize(address.utf8.count) + OSCWriter.paddedStringSize(1 + arguments.count)
        for argument in arguments {
            switch argument {
            case .int32, .float32: n += 4
            case .string(let s): n += OSCWriter.paddedStringSize(s.utf8.count)
            case .blob(let b): n += 4 + OSCWriter.padded(b.count)
            }
        }
        return n
    }

    /// The message as bytes: the address, the type tag string (",iif…") and the arguments, each
    /// big-endian and padded to a multiple of 4 bytes.
    public func encoded() -> [UInt8] {
        var w = OSCWriter(capacity: encodedSize)
        write(into: &w)
        return w.bytes
    }

    func write(into w: inout OSCWriter) {
        w.string(address)
        var tags = [UInt8(ascii: ",")]
        tags.reserveCapacity(1 + arguments.count)
        for argument in arguments { tags.append(argument.typeTag) }
        w.stringBytes(tags)
        for argument in arguments {
            switch argument {
            case .int32(let v): w.uint32(UInt32(bitPattern: v))
            case .float32(let v): w.uint32(v.bitPattern)
            case .string(let s): w.string(s)
            case .blob(let b): w.blob(b)
            }
        }
    }
}

/// Big-endian, 4-byte-aligned byte writing as OSC 1.0 lays data out.
struct OSCWriter {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int) { bytes.reserveCapacity(capacity) }

    static func padded(_ count: Int) -> Int { (count + 3) & ~3 }
    /// A string's size with its terminating NUL and padding (always at least one NUL).
    static func paddedStringSize(_ count: Int) -> Int { padded(count + 1) }

    mutating func uint32(_ v: UInt32) {
        bytes.append(UInt8(truncatingIfNeeded: v >> 24))
        bytes.append(UInt8(truncatingIfNeeded: v >> 16))
        bytes.append(UInt8(truncatingIfNeeded: v >> 8))
        bytes.append(UInt8(truncatingIfNeeded: v))
    }

    mutating func uint64(_ v: UInt64) {
        uint32(UInt32(truncatingIfNeeded: v >> 32))
        uint32(UInt32(truncatingIfNeeded: v))
    }

    mutating func string(_ s: String) { stringBytes(Array(s.utf8)) }

    mutating func stringBytes(_ b: [UInt8]) {
        bytes += b
        bytes += repeatElement(0, count: Self.paddedStringSize(b.count) - b.count)
    }

    mutating func blob(_ b: [UInt8]) {
        uint32(UInt32(b.count))
        bytes += b
        bytes += repeatElement(0, count: Self.padded(b.count) - b.count)
    }

    mutating func append(_ b: [UInt8]) { bytes += b }
}
