import CBridge
import HeritageCore

/// Head pose from 68 landmarks against the generic head model (`HeadModel`).
///
/// The first pose of a track comes from SQPnP, which returns the global minimum and so never the
/// mirrored solution behind the camera that the iterative solver can fall into without a guess;
/// later poses refine the previous one iteratively (cheap, and continuous from frame to frame).
public struct FacePoseSolver {
    public let intrinsics: Intrinsics
    private let objectPoints: [cb_point3d]
    private let cameraMatrix: [Double]
    private let noDistortion = [Double](repeating: 0, count: 5)

    public init(intrinsics: Intrinsics) {
        self.intrinsics = intrinsics
        objectPoints = HeadModel.points.map { cb_point3d(x: $0.x, y: $0.y, z: $0.z) }
        cameraMatrix = intrinsics.cameraMatrix
    }

    /// The pose, or nil when no solution puts the head in front of the camera.
    public func pose(landmarks: [Point2], previous: Pose?) -> Pose? {
        var image = HeadModel.landmarkIndices.map { cb_point2f(x: Float(landmarks[$0].x), y: Float(landmarks[$0].y)) }
        if intrinsics.hasDistortion {
            // Undistort the points, not the frame: a few dozen points instead of every pixel.
            let d = intrinsics.distortion
            guard cb_undistort_points(&image, Int32(image.count), cameraMatrix, d) == 0 else { return nil }
        }
        var r = previous.map { $0.rotation.array } ?? [0, 0, 0]
        var t = previous.map { $0.translation.array } ?? [0, 0, 0]
        let n = Int32(image.count)
        if previous == nil {
            guard cb_solve_pnp(objectPoints, image, n, cameraMatrix, noDistortion, 8 /* SQPNP */, 0, &r, &t) == 0 else {
                return nil
            }
        }
        guard cb_solve_pnp(objectPoints, image, n, cameraMatrix, noDistortion, 0 /* ITERATIVE */, 1, &r, &t) == 0,
              t[2] > 0
        else { return nil }
        return Pose(rotation: Vector3(r[0], r[1], r[2]), translation: Vector3(t[0], t[1], t[2]))
    }
}
