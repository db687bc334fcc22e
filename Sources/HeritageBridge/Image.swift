import CBridge
import Foundation
import HeritageCore

/// An image in a native OpenCV buffer (a cv::Mat), freed with this object.
///
/// Frames live in these from capture to output: Swift never copies pixels into arrays. Functions
/// that write into an `Image` reuse its buffer when the shape already fits.
// Unchecked because an image is handed over, never shared while written: a frame's image and gray
// are written by one stage at a time on the frame thread; a worker gets its own copy of the gray
// (IdleTimeWorker copies it under its lock) and a read-ahead buffer is not refilled until the
// pipeline hands it back. Images only read after loading (cards, masks) are shared freely.
public final class Image: @unchecked Sendable {
    let raw: OpaquePointer

    public init() {
        guard let p = cb_image_create() else { fatalError("out of memory allocating an image header") }
        raw = p
    }

    /// A w x h image of 8-bit channels (1 gray, 3 BGR, 4 BGRA), filled with zeros.
    public convenience init(width: Int, height: Int, channels: Int = 3) throws {
        self.init()
        try allocate(width: width, height: height, channels: channels)
        try fill(blue: 0, green: 0, red: 0)
    }

    /// Reads an image file; any depth and channel count, as stored.
    public convenience init(contentsOf path: String) throws(BridgeError) {
        self.init()
        try load(contentsOf: path)
    }

    /// Reads an image file into this image's buffer, as stored.
    public func load(contentsOf path: String) throws(BridgeError) {
        try check(cb_image_read(raw, path), path)
    }

    deinit { cb_image_free(raw) }

    public var width: Int { Int(cb_image_width(raw)) }
    public var height: Int { Int(cb_image_height(raw)) }
    public var channels: Int { Int(cb_image_channels(raw)) }
    public var size: Size { Size(width: width, height: height) }
    public var isEmpty: Bool { width == 0 || height == 0 }
    /// True for 8-bit samples.
    public var is8Bit: Bool { cb_image_depth(raw) == Int32(CB_U8) }

    public func allocate(width: Int, height: Int, channels: Int) throws {
        try check(cb_image_allocate(raw, Int32(width), Int32(height), Int32(channels)), "allocate image")
    }

    public func fill(blue: Double, green: Double, red: Double, alpha: Double = 255) throws {
        try check(cb_image_fill(raw, blue, green, red, alpha), "fill image")
    }

    public func copy(to other: Image) throws {
        try check(cb_image_copy(raw, other.raw), "copy image")
    }

    public func copy() throws -> Image {
        let other = Image()
        try copy(to: other)
        return other
    }

    /// Converts in place to 8-bit BGR (from gray, BGRA, 16-bit or float).
    public func normalizeToBGR() throws(BridgeError) {
        try check(cb_image_normalize_bgr(raw), "convert image to 8-bit BGR")
    }

    /// The bytes of an image file of the format `fileExtension` (".png") names.
    public func encoded(as fileExtension: String) throws -> [UInt8] {
        var size = 0
        guard let bytes = cb_image_encode(raw, fileExtension, &size) else { throw BridgeError.last("encode \(fileExtension)") }
        return Array(UnsafeBufferPointer(start: bytes, count: size))
    }

    public func convertToGray(into gray: Image) throws {
        try check(cb_image_to_gray(raw, gray.raw), "convert to gray")
    }

    public enum Interpolation: Int32 { case nearest = 0, linear = 1, area = 3 }

    public func resize(into other: Image, width: Int, height: Int, interpolation: Interpolation = .linear) throws {
        try check(cb_image_resize(raw, other.raw, Int32(width), Int32(height), interpolation.rawValue), "resize image")
    }

    /// This image turned about its centre so that a line at `angle` radians (image coordinates,
    /// y down) is horizontal in `other`: a point p of `other` shows this image's
    /// `p.rotated(by: angle, about: centre)`. Same size; borders replicated.
    public func derotate(by angle: Double, into other: Image) throws(BridgeError) {
        try check(cb_image_derotate(raw, other.raw, angle), "derotate image")
    }

    /// A copy of the rectangle `rect` (clipped to the image).
    public func cropped(to rect: Rect) throws -> Image {
        let out = Image()
        try check(cb_image_crop(raw, out.raw, Int32(rect.x.rounded(.down)), Int32(rect.y.rounded(.down)),
                                Int32(rect.width.rounded(.up)), Int32(rect.height.rounded(.up))), "crop image")
        return out
    }

    /// Multiplies values by a gain that runs from `gainLeft` to `gainRight` across the image, then
    /// adds `offset` (dim, bright and side-lit test scenes).
    public func applyLight(gainLeft: Double, gainRight: Double, offset: Double = 0) throws {
        try check(cb_image_apply_light(raw, gainLeft, gainRight, offset), "apply light")
    }

    /// JPEG-compresses and decompresses in place.
    public func jpegRoundTrip(quality: Int) throws {
        try check(cb_image_jpeg_roundtrip(raw, Int32(quality)), "JPEG round trip")
    }

    /// Mean absolute difference per sample with another image of the same shape.
    public func meanAbsoluteDifference(to other: Image) throws -> Double {
        let d = cb_image_mean_abs_diff(raw, other.raw)
        if d < 0 { throw BridgeError.last("compare images") }
        return d
    }

    /// The difference left once both gray images have the same mean and contrast and are shifted by up
    /// to `shift` pixels against each other (the best shift), over their overlap.
    public func difference(to other: Image, matchingMeansAndShiftingUpTo shift: Int) throws -> Double {
        let d = cb_image_mean_abs_diff_matched(raw, other.raw, Int32(shift))
        if d < 0 { throw BridgeError.last("compare images") }
        return d
    }

    /// Mean of one channel inside a rectangle.
    public func mean(channel: Int, in rect: Rect) throws -> Double {
        let m = cb_image_mean_in_rect(raw, Int32(channel), Int32(rect.x), Int32(rect.y),
                                      Int32(rect.width), Int32(rect.height))
        if m < 0 { throw BridgeError.last("mean of image region") }
        return m
    }

    /// How warm an 8-bit BGR image is (mean Cr - Cb: 0 for gray, about 35 for skin in daylight,
    /// below 0 for blue) inside the polygon `inner`, and inside `outer` around it; nil when either
    /// covers under 8 pixels of the image.
    public func warmth(inside inner: [Point2], around outer: [Point2]) throws -> (inside: Double, around: Double)? {
        var inside = 0.0, around = 0.0
        let a = inner.map(cb_point2f.init), b = outer.map(cb_point2f.init)
        let n = cb_image_warmth_in_polygons(raw, a, Int32(a.count), b, Int32(b.count), &inside, &around)
        if n < 0 { throw BridgeError.last("warmth of image region") }
        return n == 1 ? (inside, around) : nil
    }
}

extension Image {
    /// An 8-bit image of `channels` from `samples`, row by row without padding (as `samples()` gives them).
    public convenience init(samples: [UInt8], width: Int, height: Int, channels: Int = 1) throws {
        precondition(samples.count == width * height * channels, "samples do not fill \(width)x\(height)x\(channels)")
        try self.init(width: width, height: height, channels: channels)
        let rowBytes = width * channels
        let step = cb_image_step(raw)
        guard let base = cb_image_data(raw) else { return }
        samples.withUnsafeBufferPointer { src in
            for y in 0..<height {
                (base + y * step).update(from: src.baseAddress! + y * rowBytes, count: rowBytes)
            }
        }
    }

    /// The samples of a small 8-bit image, row by row without padding (thumbnails; frames stay native).
    public func samples() -> [UInt8] {
        guard is8Bit, !isEmpty else { return [] }
        let rowBytes = width * channels
        let step = cb_image_step(raw)
        guard let base = cb_image_data(raw) else { return [] }
        var out = [UInt8](repeating: 0, count: rowBytes * height)
        out.withUnsafeMutableBufferPointer { dst in
            for y in 0..<height {
                (dst.baseAddress! + y * rowBytes).update(from: base + y * step, count: rowBytes)
            }
        }
        return out
    }
}
