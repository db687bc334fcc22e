import CBridge
import HeritageCore

/// An OpenCV cascade classifier (LBP or Haar XML) as a handle.
public final class OpenCVCascade {
    public struct Settings: Sendable {
        public var scaleFactor: Double
        public var minimumNeighbours: Int
        public var minimumSize: Int

        public init(scaleFactor: Double, minimumNeighbours: Int, minimumSize: Int) {
            self.scaleFactor = scaleFactor
            self.minimumNeighbours = minimumNeighbours
            self.minimumSize = minimumSize
        }
    }

    private let raw: OpaquePointer
    private var rects = [cb_rect](repeating: cb_rect(), count: 64)

    public init(path: String) throws(BridgeError) {
        guard let p = cb_cascade_load(path) else { throw BridgeError.last("load cascade \(path)") }
        raw = p
    }

    deinit { cb_cascade_free(raw) }

    /// Objects in `region` (nil: the whole image) of an 8-bit gray image scaled by `scale`, as
    /// boxes in image pixels, at most 64.
    public func detect(in gray: Image, region: Rect?, scale: Double, settings: Settings) throws(BridgeError) -> [Rect] {
        let n = try check(cb_cascade_detect(raw, gray.raw, cb_rect(covering: region), scale, settings.scaleFactor,
                                            Int32(settings.minimumNeighbours), Int32(settings.minimumSize), &rects,
                                            Int32(rects.count)), "cascade detection")
        return rects.prefix(Int(n)).map(\.rect)
    }
}
