/// A generic adult head: 3D positions of the landmarks that pose is solved from, in metres, in
/// the face's own frame (x toward the image's right for a face looking at the camera, y down,
/// z away from the camera; origin between the eyes at the eye corners' depth).
///
/// Values are rounded anthropometric averages (eye-corner width 90 mm, nose tip 28 mm in front of
/// the eye corners, chin 112 mm below the eye line); they only need to be right in proportion for
/// the rotation, while `tvec` inherits their absolute scale (a head 10 % larger reads 10 % closer).
public enum HeadModel {
    /// Landmark index and its 3D position in millimetres.
    static let pointsMillimetres: [(Int, Vector3)] = [
        (36, Vector3(-45, 0, 8)), (39, Vector3(-15, 1, 2)), (42, Vector3(15, 1, 2)), (45, Vector3(45, 0, 8)),
        (17, Vector3(-58, -22, 12)), (21, Vector3(-12, -28, -6)), (22, Vector3(12, -28, -6)), (26, Vector3(58, -22, 12)),
        (27, Vector3(0, -3, -12)), (30, Vector3(0, 40, -28)), (31, Vector3(-13, 47, -10)), (33, Vector3(0, 50, -16)),
        (35, Vector3(13, 47, -10)),
        (48, Vector3(-26, 76, -2)), (51, Vector3(0, 68, -14)), (54, Vector3(26, 76, -2)), (57, Vector3(0, 88, -10)),
        (8, Vector3(0, 112, -4)), (0, Vector3(-72, 8, 66)), (16, Vector3(72, 8, 66)), (4, Vector3(-62, 72, 48)),
        (12, Vector3(62, 72, 48)),
    ]

    /// The landmark indices used for pose.
    public static let landmarkIndices: [Int] = pointsMillimetres.map(\.0)

    /// Their 3D positions in metres, in `landmarkIndices` order.
    public static let points: [Vector3] = pointsMillimetres.map { $0.1 * 0.001 }
}
