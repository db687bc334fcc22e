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
        return try CameraCalibration.chessboardCorners(in: gray, columns: board.columns, rows: board.rows)
    }

    /// Keeps a view's corners.
    public func add(_ corners: [Point2]) {
        views.append(corners)
        coverage.add(corners: corners, board: board)
    }

    public func solve() throws -> CalibrationResult {
        guard views.count >= Self.minimumViews else { throw Failure.notEnoughViews(views.count) }
        let (k, d, rms, errors) = try CameraCalibration.calibrate(board: board.objectPoints, views: views, imageSize: imageSize)
        let intrinsics = Intrinsics(fx: k[0], fy: k[4], cx: k[2], cy: k[5], distortion: d, size: imageSize, origin: "calibration")
        return CalibrationResult(intrinsics: intrinsics, rms: rms, viewErrors: errors)
    }
}
