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

    /// Whether the cascade finds a face in the rotated square (`centre`, `side`, `roll`), seen
    /// upright at `window` pixels with its histogram equalized (see `cb_cascade_confirm`).
    public func confirms(centre: Point2, side: Double, roll: Double, window: Double,
                         minimumNeighbours: Int, in gray: Image) throws(BridgeError) -> Bool {
        try check(cb_cascade_confirm(raw, gray.raw, centre.x, centre.y, side, roll, window, Int32(minimumNeighbours)),
                  "cascade confirmation") == 1
    }
}
