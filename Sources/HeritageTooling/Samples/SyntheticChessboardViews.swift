import HeritageLens
import Foundation
import HeritageCore

/// Chessboard views rendered through a known camera (pinhole, then lens distortion): ground truth
/// for testing calibration without a camera.
public struct SyntheticChessboardViews {
    public let board: ChessboardBoard
    public let intrinsics: Intrinsics
    /// Pixels per square in the board picture.
    let squarePixels = 40.0

    public init(board: ChessboardBoard, intrinsics: Intrinsics) {
        self.board = board
        self.intrinsics = intrinsics
    }

    /// The board picture: black and white squares with a one-square white margin.
    public func boardImage() throws -> Image {
        let s = squarePixels
        let image = try Image(width: Int(Double(board.columns + 3) * s), height: Int(Double(board.rows + 3) * s))
        try image.fill(blue: 255, green: 255, red: 255)
        for r in 0...board.rows {
            for c in 0...board.columns where (r + c) % 2 == 0 {
                image.drawRect(Rect(x: s + Double(c) * s, y: s + Double(r) * s, width: s, height: s), colour: .black, thickness: -1)
            }
        }
        return image
    }

    /// A pose that looks at the board's centre from `distance` metres, turned by the angles (radians).
    public func pose(distance: Double, pitch: Double, yaw: Double, roll: Double, shiftX: Double, shiftY: Double) -> Pose {
        let rx = Matrix3(rodrigues: Vector3(pitch, 0, 0)), ry = Matrix3(rodrigues: Vector3(0, yaw, 0))
        let rz = Matrix3(rodrigues: Vector3(0, 0, roll))
        let r = rz * ry * rx
        let centre = Vector3(Double(board.columns - 1) * board.square / 2, Double(board.rows - 1) * board.square / 2, 0)
        return Pose(rotation: r.rodrigues, translation: Vector3(shiftX, shiftY, distance) - r * centre)
    }

    /// Renders the view of the board at `pose` into a gray frame.
    public func render(_ pose: Pose, picture: Image) throws -> Image {
        let k = intrinsics, s = squarePixels
        let r = pose.rotationMatrix.m, t = pose.translation
        // Board picture pixels -> board metres (origin at the first inner corner, two squares in).
        let m = board.square / s
        let toMetres = Homography([m, 0, -2 * s * m, 0, m, -2 * s * m, 0, 0, 1])
        let kRt = Homography([
            k.fx * r[0] + k.cx * r[6], k.fx * r[1] + k.cx * r[7], k.fx * t.x + k.cx * t.z,
            k.fy * r[3] + k.cy * r[6], k.fy * r[4] + k.cy * r[7], k.fy * t.y + k.cy * t.z,
            r[6], r[7], t.z,
        ])
        let frame = try Image(width: k.size.width, height: k.size.height)
        try frame.fill(blue: 128, green: 128, red: 128)
        try frame.composite(picture, homography: kRt.composed(after: toMetres).m)
        let distorted = Image()
        try CameraCalibration.distort(frame, into: distorted, cameraMatrix: k.cameraMatrix, distortion: k.distortion)
        let gray = Image()
        try distorted.convertToGray(into: gray)
        return gray
    }
}
