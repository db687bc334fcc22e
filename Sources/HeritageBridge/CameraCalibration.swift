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

/// A calibration in OpenCV's FileStorage form (YAML, XML or JSON by extension).
public struct StoredCalibration: Sendable {
    /// 3x3, row-major.
    public var cameraMatrix: [Double]
    /// k1 k2 p1 p2 k3.
    public var distortion: [Double]
    public var size: Size
    public var rms: Double
    public var camera: String

    public init(cameraMatrix: [Double], distortion: [Double], size: Size, rms: Double, camera: String) {
        self.cameraMatrix = cameraMatrix
        self.distortion = distortion
        self.size = size
        self.rms = rms
        self.camera = camera
    }

    /// Reads a file; the error's message names the field at fault ("field camera_matrix: ...").
    public init(contentsOf path: String) throws(BridgeError) {
        var cal = cb_calibration()
        if cb_calibration_read(path, &cal) != 0 { throw BridgeError.last(path) }
        cameraMatrix = withUnsafeBytes(of: cal.camera_matrix) { Array($0.bindMemory(to: Double.self)) }
        distortion = withUnsafeBytes(of: cal.distortion) { Array($0.bindMemory(to: Double.self)) }
        camera = withUnsafeBytes(of: cal.camera) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        size = Size(width: Int(cal.width), height: Int(cal.height))
        rms = cal.rms
    }

    /// The text of a file at `path` (its extension picks the format), dated `date`.
    public func text(date: String, path: String) throws(BridgeError) -> String {
        var cal = cb_calibration()
        withUnsafeMutableBytes(of: &cal.camera_matrix) { raw in
            for (i, v) in cameraMatrix.prefix(9).enumerated() { raw.storeBytes(of: v, toByteOffset: i * 8, as: Double.self) }
        }
        withUnsafeMutableBytes(of: &cal.distortion) { raw in
            for (i, v) in distortion.prefix(5).enumerated() { raw.storeBytes(of: v, toByteOffset: i * 8, as: Double.self) }
        }
        withUnsafeMutableBytes(of: &cal.camera) { raw in
            for (i, b) in camera.utf8.prefix(raw.count - 1).enumerated() { raw[i] = b }
        }
        cal.width = Int32(size.width)
        cal.height = Int32(size.height)
        cal.rms = rms
        guard let text = cb_calibration_text(&cal, date, path) else { throw BridgeError.last("encode calibration for \(path)") }
        return String(cString: text)
    }
}
