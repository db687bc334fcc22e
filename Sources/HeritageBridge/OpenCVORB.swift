import CBridge
import HeritageCore

/// OpenCV's ORB detector and descriptor as a handle with fixed settings.
public final class OpenCVORB {
    public let maximumFeatures: Int
    private let raw: OpaquePointer
    private var keypoints: [cb_keypoint]
    private var descriptors: [UInt8]

    public init(features: Int, scaleFactor: Double, levels: Int, fastThreshold: Int, edgeThreshold: Int = 31) throws(BridgeError) {
        guard let p = cb_orb_create(Int32(features), scaleFactor, Int32(levels), Int32(fastThreshold),
                                    Int32(edgeThreshold)) else {
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
        return found(n)
    }

    /// Keypoints of the whole image but those inside `quads` (four corners each) or within
    /// `margin` pixels of one.
    public func detect(in gray: Image, outside quads: [[Point2]], margin: Int) throws(BridgeError) -> (points: [Point2], descriptors: [UInt8]) {
        let corners = quads.flatMap { $0.prefix(4) }.map(cb_point2f.init)
        let n = Int(try check(cb_orb_detect_outside(raw, gray.raw, corners, Int32(corners.count / 4), Int32(margin),
                                                    &keypoints, &descriptors, Int32(keypoints.count)), "ORB"))
        return found(n)
    }

    /// The first `n` keypoints and descriptors the last detection wrote.
    private func found(_ n: Int) -> (points: [Point2], descriptors: [UInt8]) {
        (keypoints.prefix(n).map { Point2(Double($0.x), Double($0.y)) }, Array(descriptors.prefix(n * 32)))
    }
}
