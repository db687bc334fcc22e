import Testing
@testable import HeritageCore

@Suite struct OSCEncodingTests {
    /// The OSC 1.0 specification's first example message.
    @Test func floatMessageMatchesTheSpecificationsExample() {
        let bytes = OSCMessage("/oscillator/4/frequency", [.float32(440)]).encoded()
        let expected: [UInt8] = [
            0x2f, 0x6f, 0x73, 0x63, 0x69, 0x6c, 0x6c, 0x61, 0x74, 0x6f, 0x72, 0x2f, 0x34, 0x2f, 0x66, 0x72,
            0x65, 0x71, 0x75, 0x65, 0x6e, 0x63, 0x79, 0x00, 0x2c, 0x66, 0x00, 0x00, 0x43, 0xdc, 0x00, 0x00,
        ]
        #expect(bytes == expected)
    }

    /// The specification's second example: ints, a string and floats.
    @Test func mixedMessageMatchesTheSpecificationsExample() {
        let message = OSCMessage("/foo", [.int32(1000), .int32(-1), .string("hello"), .float32(1.234), .float32(5.678)])
        let expected: [UInt8] = [
            0x2f, 0x66, 0x6f, 0x6f, 0x00, 0x00, 0x00, 0x00, 0x2c, 0x69, 0x69, 0x73, 0x66, 0x66, 0x00, 0x00,
            0x00, 0x00, 0x03, 0xe8, 0xff, 0xff, 0xff, 0xff, 0x68, 0x65, 0x6c, 0x6c, 0x6f, 0x00, 0x00, 0x00,
            0x3f, 0x9d, 0xf3, 0xb6, 0x40, 0xb5, 0xb2, 0x2d,
        ]
        #expect(message.encoded() == expected)
        #expect(message.encodedSize == expected.count)
    }

    @Test func stringsOfAMultipleOfFourBytesStillGetATerminatingZero() {
        let bytes = OSCMessage("/abc", [.string("wxyz")]).encoded()
        // "/abc" + 4 NULs, ",s" + 2 NULs, "wxyz" + 4 NULs.
        #expect(bytes.count == 8 + 4 + 8)
        #expect(Array(bytes[4..<8]) == [0, 0, 0, 0])
        #expect(Array(bytes[16..<20]) == [0, 0, 0, 0])
    }

    @Test func blobIsSizePrefixedAndPadded() {
        let bytes = OSCMessage("/b", [.blob([1, 2, 3, 4, 5])]).encoded()
        #expect(Array(bytes[0..<8]) == [0x2f, 0x62, 0, 0, 0x2c, 0x62, 0, 0])
        #expect(Array(bytes[8...]) == [0, 0, 0, 5, 1, 2, 3, 4, 5, 0, 0, 0])
        #expect(OSCMessage("/b", [.blob([1, 2, 3, 4, 5])]).encodedSize == bytes.count)
    }

    @Test func messageWithoutArgumentsHasAnEmptyTypeTagString() {
        #expect(OSCMessage("/x").encoded() == [0x2f, 0x78, 0, 0, 0x2c, 0, 0, 0])
    }

    @Test func bundleHasHeaderTimeTagAndSizedElements() {
        let message = OSCMessage("/found", [.int32(1)])
        let bundle = OSCBundle(timeTag: .immediately, messages: [message, message])
        let bytes = bundle.encoded()
        #expect(Array(bytes[0..<8]) == Array("#bundle".utf8) + [0])
        #expect(Array(bytes[8..<16]) == [0, 0, 0, 0, 0, 0, 0, 1])
        let size = message.encodedSize
        #expect(Array(bytes[16..<20]) == [0, 0, 0, UInt8(size)])
        #expect(Array(bytes[20..<(20 + size)]) == message.encoded())
        #expect(bytes.count == 16 + 2 * (4 + size))
        #expect(bundle.encodedSize == bytes.count)
    }

    @Test func timeTagCountsFromNineteenHundredWithABinaryFraction() {
        let tag = OSCTimeTag(unixSeconds: 1.5)
        #expect(tag.raw >> 32 == 2_208_988_801)
        #expect(tag.raw & 0xFFFF_FFFF == 0x8000_0000)
        #expect(abs(OSCTimeTag(unixSeconds: 1_700_000_000.25).unixSeconds - 1_700_000_000.25) < 1e-6)
        let bytes = OSCBundle(timeTag: tag, messages: []).encoded()
        #expect(Array(bytes[8..<16]) == [0x83, 0xaa, 0x7e, 0x81, 0x80, 0, 0, 0])
    }
}
