import CBridge
import HeritageCore

/// ORB keypoints with their 32-byte descriptors, in image pixels.
public struct ORBFeatures: Sendable {
    public var points: [Point2]
    /// 32 bytes per point, row after row.
    public var descriptors: [UInt8]

    public init(points: [Point2], descriptors: [UInt8]) {
        self.points = points
        self.descriptors = descriptors
    }

    public var count: Int { points.count }
}

/// OpenCV's ORB detector with fixed settings.
public final class ORBExtractor {
    private let raw: OpaquePointer
    public let maximumFeatures: Int
    private var keypoints: [cb_keypoint]
    private var descriptors: [UInt8]

    public init(features: Int, scaleFactor: Double = 1.2, levels: Int = 8, fastThreshold: Int = 12) throws {
        guard let p = cb_orb_create(Int32(features), scaleFactor, Int32(levels), Int32(fastThreshold)) else {
            throw BridgeError.last("create ORB")
        }
        raw = p
        maximumFeatures = features
        keypoints = [cb_keypoint](repeating: cb_keypoint(), count: features + 16)
        descriptors = [UInt8](repeating: 0, count: (features + 16) * 32)
    }

    deinit { cb_orb_free(raw) }

    public func detect(in gray: Image, region: Rect? = nil) throws -> ORBFeatures {
        let n = Int(try check(cb_orb_detect(raw, gray.raw, bridgeRect(region), &keypoints, &descriptors,
                                            Int32(keypoints.count)), "ORB"))
        return ORBFeatures(points: keypoints.prefix(n).map { Point2(Double($0.x), Double($0.y)) },
                           descriptors: Array(descriptors.prefix(n * 32)))
    }
}

/// Each query descriptor's two nearest train descriptors (Hamming).
public func nearestTwo(_ query: ORBFeatures, _ train: ORBFeatures) throws -> ArraySlice<cb_match2> {
    guard query.count > 0, train.count >= 2 else { return [] }
    var out = [cb_match2](repeating: cb_match2(), count: query.count)
    let n = Int(try check(cb_match_knn2(query.descriptors, Int32(query.count), train.descriptors, Int32(train.count), &out),
                          "match descriptors"))
    return out.prefix(n)
}

/// Nearest-neighbour pairs that pass Lowe's ratio test, as (query index, train index).
func ratioMatches(query: ORBFeatures, train: ORBFeatures, ratio: Double, maximumDistance: Int = 64) throws -> [(Int, Int)] {
    try nearestTwo(query, train).filter { Double($0.best) < ratio * Double($0.second) && Int($0.best) <= maximumDistance }
        .map { (Int($0.query), Int($0.train)) }
}

/// RANSAC homography from point pairs; nil when fewer than 4 pairs or no model.
func robustHomography(from src: [Point2], to dst: [Point2], threshold: Double) -> (Homography, inliers: [Bool])? {
    guard src.count >= 4 else { return nil }
    let a = src.map { cb_point2f(x: Float($0.x), y: Float($0.y)) }
    let b = dst.map { cb_point2f(x: Float($0.x), y: Float($0.y)) }
    var h = [Double](repeating: 0, count: 9)
    var mask = [UInt8](repeating: 0, count: src.count)
    guard cb_find_homography(a, b, Int32(a.count), threshold, &h, &mask) >= 4 else { return nil }
    return (Homography(h), mask.map { $0 != 0 })
}
