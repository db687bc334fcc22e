import CBridge

/// JPEG encoding through libjpeg, into a buffer reused between frames (the MJPEG stream).
/// One encoder per thread.
public final class JPEGEncoder {
    private let buffer: OpaquePointer

    public init() {
        guard let b = cb_bytes_create() else { fatalError("out of memory allocating a byte buffer") }
        buffer = b
    }

    deinit { cb_bytes_free(buffer) }

    /// Encodes `image` (8-bit gray or BGR) at `quality` (1-100) and hands the bytes to `body`;
    /// they are valid only inside it.
    public func encode<R>(_ image: Image, quality: Int, _ body: (UnsafeRawBufferPointer) throws -> R) throws -> R {
        try check(cb_image_encode_jpeg(image.raw, Int32(max(1, min(100, quality))), buffer), "encode JPEG")
        return try body(UnsafeRawBufferPointer(start: cb_bytes_data(buffer), count: cb_bytes_size(buffer)))
    }

    /// The bytes of the last successful `encode`, valid only inside `body`.
    public func lastEncoded<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(start: cb_bytes_data(buffer), count: cb_bytes_size(buffer)))
    }

    /// Encodes `image` and returns a copy of the bytes.
    public func encode(_ image: Image, quality: Int) throws -> [UInt8] {
        try encode(image, quality: quality) { Array($0) }
    }
}
