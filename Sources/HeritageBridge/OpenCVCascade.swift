import CBridge
import HeritageCore

/// An OpenCV cascade classifier (LBP or Haar XML) as a handle.
public final class OpenCVCascade {
    private let raw: OpaquePointer
    private var rects = [cb_rect](repeating: cb_rect(), count: 64)

    public init(path: String) throws(BridgeError) {
        guard let p = cb_cascade_load(path) else { throw BridgeError.last("load cascade \(path)") }
        raw = p
    }

    deinit { cb_cascade_free(raw) }

    /// Objects in `region` (nil: the whole image) of an 8-bit gray image scaled by `scale`, as
    /// boxes in image pixels, at most 64; OpenCV's detectMultiScale with its pyramid step
    /// `scaleFactor`, `minimumNeighbours` and smallest object side `minimumSize`.
    public func detect(in gray: Image, region: Rect?, scale: Double, scaleFactor: Double, minimumNeighbours: Int,
                       minimumSize: Int) throws(BridgeError) -> [Rect] {
        let n = try check(cb_cascade_detect(raw, gray.raw, cb_rect(covering: region), scale, scaleFactor,
                                            Int32(minimumNeighbours), Int32(minimumSize), &rects, Int32(rects.count)),
                          "cascade detection")
        return rects.prefix(Int(n)).map(\.rect)
    }
}
