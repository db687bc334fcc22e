import CBridge
import Foundation
import HeritageCore

/// What a calibration found.
public struct CalibrationResult: Sendable {
    public var intrinsics: Intrinsics
    /// Overall RMS reprojection error, pixels.
    public var rms: Double
    /// Each view's RMS reprojection error, pixels, in the order the views were added.
    public var viewErrors: [Double]
}

/// Collects chessboard views and solves for the camera's intrinsics (OpenCV's calibrateCamera).
public final class ChessboardCalibrator {
    public let board: ChessboardBoard
    public let imageSize: Size
    public private(set) var views: [[Point2]] = []
    public private(set) var coverage: CalibrationCoverage
    /// Fewest views that give a trustworthy solution.
    public static let minimumViews = 6

    public enum Failure: Error, CustomStringConvertible {
        case wrongSize(Size, expected: Size)
        case notEnoughViews(Int)

        public var description: String {
            switch self {
            case .wrongSize(let s, let e): return "a view is \(s) but the calibration is for \(e); use images of one size"
            case .notEnoughViews(let n):
                return "only \(n) views with the whole board found; \(ChessboardCalibrator.minimumViews) are needed (more, tilted and reaching the image's corners, give a better result)"
            }
        }
    }

    public init(board: ChessboardBoard, imageSize: Size) {
        self.board = board
        self.imageSize = imageSize
        coverage = CalibrationCoverage(imageSize: imageSize)
    }

    /// Looks for the board in `gray`; nil when the whole board is not found.
    public func findBoard(in gray: Image) throws -> [Point2]? {
        guard gray.size == imageSize else { throw Failure.wrongSize(gray.size, expected: imageSize) }
        var corners = [cb_point2f](repeating: cb_point2f(), count: board.cornerCount)
        let n = try check(cb_find_chessboard(gray.raw, Int32(board.columns), Int32(board.rows), &corners), "find chessboard")
        guard n == board.cornerCount else { return nil }
        return corners.map { Point2(Double($0.x), Double($0.y)) }
    }

    /// Keeps a view's corners.
    public func add(_ corners: [Point2]) {
        views.append(corners)
        coverage.add(corners: corners, board: board)
    }

    public func solve() throws -> CalibrationResult {
        guard views.count >= Self.minimumViews else { throw Failure.notEnoughViews(views.count) }
        let object = Array(repeating: board.objectPoints.map { cb_point3d(x: $0.x, y: $0.y, z: $0.z) }, count: views.count).flatMap { $0 }
        let image = views.flatMap { $0.map { cb_point2f(x: Float($0.x), y: Float($0.y)) } }
        var k = [Double](repeating: 0, count: 9), d = [Double](repeating: 0, count: 5)
        var errors = [Double](repeating: 0, count: views.count)
        let rms = cb_calibrate_camera(object, image, Int32(views.count), Int32(board.cornerCount), Int32(imageSize.width),
                                      Int32(imageSize.height), &k, &d, &errors)
        if rms < 0 { throw BridgeError.last("calibrate camera") }
        let intrinsics = Intrinsics(fx: k[0], fy: k[4], cx: k[2], cy: k[5], distortion: d, size: imageSize, origin: "calibration")
        return CalibrationResult(intrinsics: intrinsics, rms: rms, viewErrors: errors)
    }
}
