import Foundation
import HeritageCore
import Logging

/// Finds the intrinsics for a camera at a resolution in a folder of calibration files named
/// `<camera>-<W>x<H>.yml`.
///
/// Lookup order: an exact camera and size match; the same camera at another size of the same
/// aspect ratio, scaled; else the documented default (`Intrinsics.assumed`), said once in the log.
public struct CalibrationStore {
    public let folder: String

    public init(folder: String) {
        self.folder = folder
    }

    /// The project's folder: `Calibration/` beside the working directory, or
    /// `HERITAGE_LENS_CALIBRATION` when set.
    public static var standard: CalibrationStore {
        CalibrationStore(folder: ProcessInfo.processInfo.environment["HERITAGE_LENS_CALIBRATION"]
                            ?? ProjectAssets.path("Calibration"))
    }

    /// A file-name-safe camera identity: "HD Pro Webcam C920" → "hd-pro-webcam-c920".
    public static func identity(of cameraName: String) -> String {
        var out = ""
        for ch in cameraName.lowercased() {
            if ch.isLetter && ch.isASCII || ch.isNumber && ch.isASCII { out.append(ch) }
            else if !out.isEmpty && out.last != "-" { out.append("-") }
        }
        while out.last == "-" { out.removeLast() }
        return out.isEmpty ? "camera" : out
    }

    public static func fileName(camera: String, size: Size) -> String {
        "\(identity(of: camera))-\(size.width)x\(size.height).yml"
    }

    public func intrinsics(camera: String, size: Size, logger: Logger) throws -> Intrinsics {
        let id = Self.identity(of: camera)
        let exact = (folder as NSString).appendingPathComponent(Self.fileName(camera: camera, size: size))
        if FileManager.default.fileExists(atPath: exact) {
            let found = try CalibrationFile.read(exact).intrinsics
            if found.size == size { return found }
            throw CalibrationError.invalidField(exact, field: "image_width/image_height",
                                                reason: "says \(found.size) but the file name says \(size)")
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        for name in names.sorted() where name.hasPrefix(id + "-") && name.hasSuffix(".yml") {
            let path = (folder as NSString).appendingPathComponent(name)
            let found = try CalibrationFile.read(path).intrinsics
            let aspect = Double(found.size.width) / Double(found.size.height)
            if abs(aspect - Double(size.width) / Double(size.height)) < 0.01 {
                logger.info("calibration: \(path) scaled from \(found.size) to \(size)")
                return found.scaled(to: size)
            }
        }
        let assumed = Intrinsics.assumed(for: size)
        logger.notice("calibration: none for '\(camera)' at \(size) in \(folder)/; \(assumed.origin) (run 'heritage-lens calibrate' for metric poses)")
        return assumed
    }
}
