import CBridge
import HeritageCore

/// dlib's HOG + linear SVM frontal face detector (`get_frontal_face_detector`) as a handle: a
/// search over an image, or one window scored at a known place. Not shareable between threads
/// (dlib's scanner keeps its feature pyramid inside).
public final class DlibFaceScanner {
    /// A window the filters scored: where (a detector-style box) and dlib's confidence.
    public struct Window: Hashable, Sendable {
        public var box: Rect
        public var score: Double
    }

    /// How dlib's search and features are compiled. Debian's x86-64 build targets the SSE2
    /// baseline; the AVX2 copy runs eight floats at a time where the CPU has it. The same filters
    /// and windows: scores differ in the last float bits, so runs that must match byte for byte
    /// across machines use one kernel on all of them.
    public enum Kernel: String, CaseIterable, Sendable {
        case baseline
        case avx2

        /// What this build and this CPU can run.
        public static var available: [Kernel] {
            let bits = cb_hog_kernels_available()
            return allCases.filter { bits & (1 << $0.code) != 0 }
        }

        /// The fastest of `available`.
        public static var fastest: Kernel { available.contains(.avx2) ? .avx2 : .baseline }

        var code: Int32 {
            switch self {
            case .baseline: Int32(CB_HOG_KERNEL_BASELINE)
            case .avx2: Int32(CB_HOG_KERNEL_AVX2)
            }
        }
    }

    private let raw: OpaquePointer
    private var rects = [cb_rect](repeating: cb_rect(), count: 64)
    private var scores = [Double](repeating: 0, count: 64)
    public let kernel: Kernel

    /// `cacheFolder`: where the unpacked detector is kept between runs (the first scanner of a
    /// process decides it); nil unpacks from dlib's headers each time. `kernel` must be one of
    /// `Kernel.available`.
    public init(cacheFolder: String?, kernel: Kernel = .fastest) throws(BridgeError) {
        guard let p = cb_hog_detector_create(cacheFolder, kernel.code) else {
            throw BridgeError.last("create dlib HOG detector (\(kernel.rawValue))")
        }
        raw = p
        self.kernel = kernel
    }

    deinit { cb_hog_detector_free(raw) }

    /// Faces in `region` (nil: the whole image) of an 8-bit gray image scaled by `scale` first,
    /// as upright boxes in image pixels, at most 64.
    /// `levels` above 0: only that many pyramid levels from the scaled image down (each 5/6 of the
    /// one before), that is the smallest faces alone. `skippingLevels` above 0: all but that many
    /// of the finest levels, the same level images a whole search scores, that is the larger
    /// faces alone.
    public func detect(in gray: Image, region: Rect?, scale: Double, levels: Int = 0,
                       skippingLevels: Int = 0) throws(BridgeError) -> [Window] {
        let n = try check(cb_hog_detect(raw, gray.raw, cb_rect(covering: region), scale, Int32(levels),
                                        Int32(skippingLevels), &rects, &scores, Int32(rects.count)), "dlib HOG detection")
        return (0..<Int(n)).map { Window(box: rects[$0].rect, score: scores[$0]) }
    }

    /// The best window near the square centred at `centre` with side `side`, rolled by `roll`
    /// radians, at most `reach` cells off its centre at its own scale; the window's box is a
    /// square (centre, side) in the de-rolled frame. nil when no window was scored.
    public func bestWindow(in gray: Image, centre: Point2, side: Double, roll: Double,
                           reach: Int) throws(BridgeError) -> (score: Double, centre: Point2, side: Double)? {
        var score = 0.0, x = 0.0, y = 0.0, s = 0.0
        let n = try check(cb_hog_score_window(raw, gray.raw, centre.x, centre.y, side, roll, Int32(reach),
                                              &score, &x, &y, &s), "face check")
        return n == 1 ? (score, Point2(x, y), s) : nil
    }
}
