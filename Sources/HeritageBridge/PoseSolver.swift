import CBridge
import HeritageCore

/// The pose of a known shape from where the camera saw its points, by OpenCV's solvePnP: one
/// solver for heads and cards, which differ only in the methods they run.
public struct PoseSolver {
    /// The solvePnP methods in use; raw values are OpenCV's `SolvePnPMethod`.
    public enum Method: Int32, Sendable {
        /// Levenberg-Marquardt from the pose so far: cheap and continuous from frame to frame,
        /// but from no start it can settle on the mirrored solution behind the camera.
        case iterative = 0
        /// Planar shapes: of a plane's two mirror-image poses, the one that reprojects better.
        case ippe = 6
        /// The global minimum, so never the mirrored solution; needs no start.
        case sqpnp = 8
    }

    public let intrinsics: Intrinsics
    private let cameraMatrix: [Double]
    // The points are undistorted first, so the solver sees an ideal pinhole camera.
    private let noDistortion = [Double](repeating: 0, count: 5)

    public init(intrinsics: Intrinsics) {
        self.intrinsics = intrinsics
        cameraMatrix = intrinsics.cameraMatrix
    }

    /// The pose of `object` (its own frame, metres) seen at `image` (pixels, as the camera saw
    /// them), or nil when a method fails or the result is behind the camera.
    ///
    /// `methods` run in turn, each from the pose the one before found (the first from `start`,
    /// when given), so `[.sqpnp, .iterative]` is a global solution refined.
    public func pose(of object: [Vector3], seenAt image: [Point2], methods: [Method], start: Pose? = nil) -> Pose? {
        var points = image.map(cb_point2f.init)
        if intrinsics.hasDistortion {
            // Undistort the points, not the frame: a few dozen points instead of every pixel.
            guard cb_undistort_points(&points, Int32(points.count), cameraMatrix, intrinsics.distortion) == 0 else {
                return nil
            }
        }
        let objectPoints = object.map(cb_point3d.init)
        var r = start.map { $0.rotation.array } ?? [0, 0, 0]
        var t = start.map { $0.translation.array } ?? [0, 0, 0]
        for (step, method) in methods.enumerated() {
            let useGuess: Int32 = step > 0 || start != nil ? 1 : 0
            guard cb_solve_pnp(objectPoints, points, Int32(points.count), cameraMatrix, noDistortion, method.rawValue,
                               useGuess, &r, &t) == 0
            else { return nil }
        }
        guard t[2] > 0 else { return nil }
        return Pose(rotation: Vector3(r[0], r[1], r[2]), translation: Vector3(t[0], t[1], t[2]))
    }

    /// Where OpenCV's camera model (projectPoints, with distortion) puts `object` seen at `pose`:
    /// the reference `Intrinsics.project` and the solver are checked against.
    public static func openCVProjection(of object: [Vector3], pose: Pose,
                                        intrinsics: Intrinsics) throws(BridgeError) -> [Point2] {
        let points = object.map(cb_point3d.init)
        var out = [cb_point2f](repeating: cb_point2f(), count: points.count)
        try check(cb_project_points(points, Int32(points.count), pose.rotation.array, pose.translation.array,
                                    intrinsics.cameraMatrix, intrinsics.distortion, &out), "project points")
        return out.map(\.point)
    }
}
