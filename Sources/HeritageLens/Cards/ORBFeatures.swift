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
    private let orb: OpenCVORB
    public var maximumFeatures: Int { orb.maximumFeatures }

    /// `edgeThreshold`: no keypoint within this many pixels of the image's edge on any pyramid level.
    public init(features: Int, scaleFactor: Double = 1.2, levels: Int = 8, fastThreshold: Int = 12,
                edgeThreshold: Int = 31) throws {
        orb = try OpenCVORB(features: features, scaleFactor: scaleFactor, levels: levels, fastThreshold: fastThreshold,
                            edgeThreshold: edgeThreshold)
    }

    public func detect(in gray: Image, region: Rect? = nil) throws -> ORBFeatures {
        let found = try orb.detect(in: gray, region: region)
        return ORBFeatures(points: found.points, descriptors: found.descriptors)
    }

    /// Features of the whole frame but inside `quads` (four corners each) or within `margin` px.
    public func detect(in gray: Image, outside quads: [[Point2]], margin: Int) throws -> ORBFeatures {
        guard !quads.isEmpty else { return try detect(in: gray) }
        let found = try orb.detect(in: gray, outside: quads, margin: margin)
        return ORBFeatures(points: found.points, descriptors: found.descriptors)
    }
}

/// Each query descriptor's two nearest train descriptors (Hamming); `kernel`: nil for the best
/// this CPU has (they all give the same matches).
public func nearestTwo(_ query: ORBFeatures, _ train: ORBFeatures,
                       kernel: DescriptorMatching.Kernel? = nil) throws -> [NearestTwo] {
    try DescriptorMatching.nearestTwo(query: query.descriptors, queryCount: query.count, train: train.descriptors,
                                      trainCount: train.count, kernel: kernel)
}

/// Nearest-neighbour pairs that pass Lowe's ratio test, as (query index, train index).
func ratioMatches(query: ORBFeatures, train: ORBFeatures, ratio: Double, maximumDistance: Int = 64) throws -> [(Int, Int)] {
    try nearestTwo(query, train).filter { Double($0.best) < ratio * Double($0.second) && $0.best <= maximumDistance }
        .map { ($0.query, $0.train) }
}

/// RANSAC homography from point pairs; nil when fewer than 4 pairs or no model.
func robustHomography(from src: [Point2], to dst: [Point2], threshold: Double,
                      maximumIterations: Int = 2000) -> (Homography, inliers: [Bool])? {
    guard let (h, inliers) = ImageGeometry.robustHomography(from: src, to: dst, threshold: threshold,
                                                            maximumIterations: maximumIterations) else { return nil }
    return (Homography(h), inliers)
}
