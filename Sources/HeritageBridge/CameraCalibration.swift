import CBridge
import HeritageCore

/// OpenCV's chessboard detection and camera calibration.
public enum CameraCalibration {
    /// The board's `columns` x `rows` inner corners in an 8-bit gray image, refined to sub-pixel;
    /// nil when the whole board is not found.
    public static func chessboardCorners(in gray: Image, columns: Int, rows: Int) throws(BridgeError) -> [Point2]? {
        var corners = [cb_point2f](repeating: cb_point2f(), count: columns * rows)
        let n = try check(cb_find_chessboard(gray.raw, Int32(columns), Int32(rows), &corners), "find chessboard")
        return n == columns * rows ? corners.map(\.point) : nil
    }

    /// calibrateCamera over views of the same board points (metres, z = 0): the 3x3 camera matrix
    /// (row-major), five distortion terms, the overall RMS and each view's.
    public static func calibrate(board: [Vector3], views: [[Point2]], imageSize: Size) throws(BridgeError)
        -> (cameraMatrix: [Double], distortion: [Double], rms: Double, viewErrors: [Double]) {
        let object = Array(repeating: board.map(cb_point3d.init), count: views.count).flatMap { $0 }
        let image = views.flatMap { $0.map(cb_point2f.init) }
        var k = [Double](repeating: 0, count: 9), d = [Double](repeating: 0, count: 5)
        var errors = [Double](repeating: 0, count: views.count)
        let rms = cb_calibrate_camera(object, image, Int32(views.count), Int32(board.count), Int32(imageSize.width),
                                      Int32(imageSize.height), &k, &d, &errors)
        if rms < 0 { throw BridgeError.last("calibrate camera") }
        return (k, d, rms, errors)
    }

    /// What a camera with `distortion` sees of the ideal (pinhole) image `source`, into `destination`.
    public static func distort(_ source: Image, into destination: Image, cameraMatrix: [Double],
                               distortion: [Double]) throws(BridgeError) {
        try check(cb_distort_image(source.raw, destination.raw, cameraMatrix, distortion), "distort view")
    }
}
