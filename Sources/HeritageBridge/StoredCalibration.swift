import CBridge
import HeritageCore

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
