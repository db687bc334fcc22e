import CBridge
import HeritageCore

/// OpenCV's point geometry: homographies, optical flow, corners.
public enum ImageGeometry {
    /// RANSAC homography `src` -> `dst` and which pairs are inliers; nil under 4 pairs or no model.
    /// `maximumIterations`: RANSAC's samples at most (OpenCV's default 2000; fewer where a model
    /// with too few inliers would be refused anyway, see `CardRecognizer`).
    public static func robustHomography(from src: [Point2], to dst: [Point2], threshold: Double,
                                        maximumIterations: Int = 2000) -> (matrix: [Double], inliers: [Bool])? {
        guard src.count >= 4, src.count == dst.count else { return nil }
        let a = src.map(cb_point2f.init), b = dst.map(cb_point2f.init)
        var h = [Double](repeating: 0, count: 9)
        var mask = [UInt8](repeating: 0, count: src.count)
        guard cb_find_homography(a, b, Int32(a.count), threshold, Int32(clamping: maximumIterations), &h, &mask) >= 4 else { return nil }
        return (h, mask.map { $0 != 0 })
    }

    /// Pyramidal Lucas-Kanade from `previous` to `next`: where each point went, nil where lost.
    public static func opticalFlow(from previous: Image, to next: Image, points: [Point2], window: Int,
                                   levels: Int) throws(BridgeError) -> [Point2?] {
        guard !points.isEmpty else { return [] }
        let starts = points.map(cb_point2f.init)
        var ends = [cb_point2f](repeating: cb_point2f(), count: starts.count)
        var status = [UInt8](repeating: 0, count: starts.count)
        try check(cb_optical_flow(previous.raw, next.raw, starts, Int32(starts.count), &ends, &status, Int32(window),
                                  Int32(levels)), "optical flow")
        return zip(ends, status).map { $1 != 0 ? $0.point : nil }
    }

    /// How far `patch` of `previous` moved in `next`, looked for inside `area`, both shrunk by
    /// `scale` first, and the normalised cross-correlation there (-1...1); nil when the patch or
    /// the area is too small.
    public static func findPatch(_ patch: Rect, of previous: Image, in area: Rect, of next: Image,
                                 scale: Double) throws(BridgeError) -> (move: Point2, correlation: Double)? {
        var x = 0.0, y = 0.0, score = 0.0
        let n = try check(cb_find_patch(previous.raw, cb_rect(covering: patch), next.raw, cb_rect(covering: area), scale,
                                        &x, &y, &score), "patch matching")
        return n == 1 ? (Point2(x, y), score) : nil
    }

    /// The square (centre, side, turned by `roll` radians) of an 8-bit gray image upright and
    /// shrunk to `size` x `size` samples of zero mean and unit variance (all zero when flat).
    public static func uprightPatch(of gray: Image, centre: Point2, side: Double, roll: Double,
                                    size: Int) throws(BridgeError) -> [Float] {
        var samples = [Float](repeating: 0, count: size * size)
        _ = try check(cb_upright_patch(gray.raw, centre.x, centre.y, side, roll, Int32(size), &samples), "upright patch")
        return samples
    }

    /// Up to `maximum` Shi-Tomasi corners of an 8-bit gray image, best first.
    public static func goodFeatures(in gray: Image, maximum: Int, quality: Double,
                                    minimumDistance: Double) throws(BridgeError) -> [Point2] {
        var corners = [cb_point2f](repeating: cb_point2f(), count: maximum)
        let n = Int(try check(cb_good_features(gray.raw, Int32(maximum), quality, minimumDistance, &corners),
                              "good features"))
        return corners.prefix(n).map(\.point)
    }

    /// Delaunay triangles (index triples, flattened) of points inside a `size` rectangle.
    public static func delaunay(_ points: [Point2], in size: Size, maximumTriangles: Int) throws(BridgeError) -> [Int32] {
        let pts = points.map(cb_point2f.init)
        var triangles = [Int32](repeating: 0, count: maximumTriangles * 3)
        let n = Int(try check(cb_delaunay(pts, Int32(pts.count), Int32(size.width), Int32(size.height), &triangles,
                                          Int32(maximumTriangles)), "triangulate"))
        return Array(triangles.prefix(n * 3))
    }
}
