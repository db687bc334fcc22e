import CBridge
import HeritageCore

/// OpenCV's ORB detector and descriptor as a handle with fixed settings.
public final class OpenCVORB {
    public let maximumFeatures: Int
    private let raw: OpaquePointer
    private var keypoints: [cb_keypoint]
    private var descriptors: [UInt8]

    public init(features: Int, scaleFactor: Double, levels: Int, fastThreshold: Int) throws(BridgeError) {
        guard let p = cb_orb_create(Int32(features), scaleFactor, Int32(levels), Int32(fastThreshold)) else {
            throw BridgeError.last("create ORB")
        }
        raw = p
        maximumFeatures = features
        keypoints = [cb_keypoint](repeating: cb_keypoint(), count: features + 16)
        descriptors = [UInt8](repeating: 0, count: (features + 16) * 32)
    }

    deinit { cb_orb_free(raw) }

    /// Keypoints in `region` (nil: the whole image) of an 8-bit gray image and their 32-byte
    /// descriptors, row after row.
    public func detect(in gray: Image, region: Rect?) throws(BridgeError) -> (points: [Point2], descriptors: [UInt8]) {
        let n = Int(try check(cb_orb_detect(raw, gray.raw, cb_rect(covering: region), &keypoints, &descriptors,
                                            Int32(keypoints.count)), "ORB"))
        return (keypoints.prefix(n).map { Point2(Double($0.x), Double($0.y)) }, Array(descriptors.prefix(n * 32)))
    }
}

/// A query descriptor's two nearest train descriptors and their Hamming distances.
public struct NearestTwo: Hashable, Sendable {
    public var query: Int
    public var train: Int
    public var best: Int
    public var second: Int
}

public enum DescriptorMatching {
    /// Each of `queryCount` 32-byte query descriptors' two nearest among `trainCount` train
    /// descriptors (brute force, Hamming).
    public static func nearestTwo(query: [UInt8], queryCount: Int, train: [UInt8],
                                  trainCount: Int) throws(BridgeError) -> [NearestTwo] {
        guard queryCount > 0, trainCount >= 2 else { return [] }
        var out = [cb_match2](repeating: cb_match2(), count: queryCount)
        let n = Int(try check(cb_match_knn2(query, Int32(queryCount), train, Int32(trainCount), &out), "match descriptors"))
        return out.prefix(n).map { NearestTwo(query: Int($0.query), train: Int($0.train), best: Int($0.best), second: Int($0.second)) }
    }
}
