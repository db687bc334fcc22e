/// A V4L2 pixel format code (four characters, packed little-endian as the kernel does).
public struct FourCC: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt32

    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public init(_ text: String) {
        var v: UInt32 = 0
        for (i, b) in text.utf8.prefix(4).enumerated() { v |= UInt32(b) << (8 * UInt32(i)) }
        rawValue = v
    }

    public var description: String {
        var s = ""
        for i in 0..<4 {
            let b = UInt8((rawValue >> (8 * UInt32(i))) & 0xff)
            s.unicodeScalars.append(Unicode.Scalar(b >= 32 && b < 127 ? b : UInt8(ascii: "?")))
        }
        return s
    }

    public static let mjpeg = FourCC("MJPG")
    public static let jpeg = FourCC("JPEG")
    public static let yuyv = FourCC("YUYV")
    public static let grey = FourCC("GREY")
    public static let bgr24 = FourCC("BGR3")

    /// Formats the bridge can decode.
    public static let decodable: Set<FourCC> = [.mjpeg, .jpeg, .yuyv, .grey, .bgr24]
}

/// One way a camera can deliver frames.
public struct CameraMode: Hashable, Sendable, CustomStringConvertible {
    public var pixelFormat: FourCC
    public var size: Size
    /// Frames per second; 0 when the driver does not say.
    public var framesPerSecond: Double

    public init(pixelFormat: FourCC, size: Size, framesPerSecond: Double) {
        self.pixelFormat = pixelFormat
        self.size = size
        self.framesPerSecond = framesPerSecond
    }

    public var description: String {
        let fps = framesPerSecond == framesPerSecond.rounded() ? String(Int(framesPerSecond))
            : String(framesPerSecond)
        return "\(pixelFormat) \(size) @ \(fps) fps"
    }
}
