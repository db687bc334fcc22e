import CBridge
import HeritageCore

/// A card's pose from its four corners and physical size, by IPPE (the planar PnP solver, which
/// returns the right one of the two mirror-image poses of a plane by reprojection error).
public struct CardPoseSolver {
    public let intrinsics: Intrinsics
    private let cameraMatrix: [Double]
    private let noDistortion = [Double](repeating: 0, count: 5)

    public init(intrinsics: Intrinsics) {
        self.intrinsics = intrinsics
        cameraMatrix = intrinsics.cameraMatrix
    }

    public func pose(corners: [Point2], plane: CardPlane) -> Pose? {
        var image = corners.map { cb_point2f(x: Float($0.x), y: Float($0.y)) }
        if intrinsics.hasDistortion {
            guard cb_undistort_points(&image, 4, cameraMatrix, intrinsics.distortion) == 0 else { return nil }
        }
        let object = plane.corners.map { cb_point3d(x: $0.x, y: $0.y, z: $0.z) }
        var r = [0.0, 0, 0], t = [0.0, 0, 0]
        guard cb_solve_pnp(object, image, 4, cameraMatrix, noDistortion, 6 /* IPPE */, 0, &r, &t) == 0, t[2] > 0 else {
            return nil
        }
        return Pose(rotation: Vector3(r[0], r[1], r[2]), translation: Vector3(t[0], t[1], t[2]))
    }
}
