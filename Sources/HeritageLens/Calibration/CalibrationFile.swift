import Foundation
import HeritageCore

/// Why a calibration file could not be used.
public enum CalibrationError: Error, CustomStringConvertible, Equatable {
    case unreadable(String, reason: String)
    case invalidField(String, field: String, reason: String)

    public var description: String {
        switch self {
        case .unreadable(let p, let reason):
            return "\(p): cannot read calibration (\(reason)); recreate it with 'heritage-lens calibrate'"
        case .invalidField(let p, let field, let reason):
            return "\(p): field \(field) \(reason); recreate it with 'heritage-lens calibrate'"
        }
    }
}

/// A camera calibration as stored on disk: OpenCV FileStorage YAML, readable by any OpenCV program.
///
/// Fields: `camera` (identity), `date`, `image_width`, `image_height`, `camera_matrix` (3x3),
/// `distortion_coefficients` (k1 k2 p1 p2 k3), `rms` (reprojection error in px).
public enum CalibrationFile {
    public static func read(_ path: String) throws -> (intrinsics: Intrinsics, camera: String, rms: Double) {
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw CalibrationError.unreadable(path, reason: "no such file or not readable")
        }
        let cal: StoredCalibration
        do {
            cal = try StoredCalibration(contentsOf: path)
        } catch {
            let message = error.message
            if message.hasPrefix("field"), let space = message.firstIndex(of: ":") {
                let field = message.dropFirst(6).prefix { $0 != ":" }
                throw CalibrationError.invalidField(path, field: String(field),
                                                    reason: String(message[space...].dropFirst(2)))
            }
            throw CalibrationError.unreadable(path, reason: message)
        }
        let k = cal.cameraMatrix, d = cal.distortion, camera = cal.camera
        guard cal.size.width > 0, cal.size.height > 0 else {
            throw CalibrationError.invalidField(path, field: "image_width/image_height", reason: "must be positive")
        }
        guard k.allSatisfy(\.isFinite), k[0] > 0, k[4] > 0, k[1] == 0 || abs(k[1]) < k[0],
              k[3] == 0, k[6] == 0, k[7] == 0, abs(k[8] - 1) < 1e-9
        else {
            throw CalibrationError.invalidField(path, field: "camera_matrix",
                                                reason: "is not a pinhole camera matrix [fx 0 cx; 0 fy cy; 0 0 1]")
        }
        // A focal length gives the field of view: 0.05 to 50 image widths is 1° to 170°; outside
        // that it is a broken file (fx = 1e-30 put 1.9e+29 m into the anchors).
        let width = Double(cal.size.width), height = Double(cal.size.height)
        for (name, f) in [("fx", k[0]), ("fy", k[4])] where !(f >= 0.05 * width && f <= 50 * width) {
            throw CalibrationError.invalidField(path, field: "camera_matrix",
                                                reason: "has \(name) = \(f), not a focal length for a \(cal.size.width) px wide image (expected \(Int(0.05 * width)) to \(Int(50 * width)) px)")
        }
        guard k[2] >= 0, k[2] <= width, k[5] >= 0, k[5] <= height else {
            throw CalibrationError.invalidField(path, field: "camera_matrix",
                                                reason: "puts the principal point (cx \(k[2]), cy \(k[5])) outside the \(cal.size.width)x\(cal.size.height) image")
        }
        guard d.allSatisfy(\.isFinite) else {
            throw CalibrationError.invalidField(path, field: "distortion_coefficients", reason: "has non-finite values")
        }
        let size = cal.size
        let intrinsics = Intrinsics(fx: k[0], fy: k[4], cx: k[2], cy: k[5], distortion: d, size: size, origin: path)
        return (intrinsics, camera, cal.rms)
    }

    public static func write(_ intrinsics: Intrinsics, camera: String, rms: Double, date: String, to path: String) throws {
        let cal = StoredCalibration(cameraMatrix: intrinsics.cameraMatrix, distortion: Array(intrinsics.distortion.prefix(5)),
                                    size: intrinsics.size, rms: rms, camera: camera)
        try WholeFile.write(cal.text(date: date, path: path), to: path)
    }
}
