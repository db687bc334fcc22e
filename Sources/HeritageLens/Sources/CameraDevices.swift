import Foundation
import HeritageCore

/// What a V4L2 device says about itself.
public struct CameraDevice: Sendable {
    public var path: String
    public var card: String
    public var driver: String
    public var busInfo: String
    public var isCapture: Bool
    public var modes: [CameraMode]
}

/// Lists and queries V4L2 devices through libv4l2.
public enum CameraDevices {
    /// `/dev/video0`… that exist, in numeric order.
    public static func paths() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/dev")) ?? []
        return names.filter { $0.hasPrefix("video") && Int($0.dropFirst(5)) != nil }
            .sorted { Int($0.dropFirst(5))! < Int($1.dropFirst(5))! }
            .map { "/dev/" + $0 }
    }

    /// What is wrong with `name` as the value of `--camera`, before any device is opened, or nil:
    /// an empty name, a negative index, or the next option taken as the value.
    public static func problem(naming name: String) -> String? {
        let advice = "give a camera's index (0) or its device (/dev/video0); 'heritage-lens cameras' lists them"
        if name.isEmpty { return "--camera is empty; \(advice)" }
        if let index = Int(name), index < 0 { return "--camera \(name): camera indexes start at 0; \(advice)" }
        if name.hasPrefix("-") { return "--camera needs a value before \(name); \(advice)" }
        return nil
    }

    /// A camera named by index ("0") or path ("/dev/video0").
    public static func path(for name: String) -> String {
        if let index = Int(name), index >= 0 { return "/dev/video\(index)" }
        return name
    }

    public static func query(_ path: String) throws -> CameraDevice {
        do {
            let report = try V4L2DeviceReport(path: path)
            return CameraDevice(path: path, card: report.card, driver: report.driver, busInfo: report.busInfo,
                                isCapture: report.isCapture, modes: report.modes)
        } catch {
            throw Self.error(for: path, code: error.code)
        }
    }

    static func error(for path: String, code: Int32) -> SourceError {
        switch code {
        case ENOENT, ENODEV, ENXIO: return .cameraNotFound(path)
        case EBUSY: return .cameraBusy(path)
        case ENOSPC: return .cameraBandwidth(path)  // uvcvideo: no alternate setting has the bandwidth
        case EACCES, EPERM: return .cameraPermissionDenied(path)
        case ENOTTY, EINVAL: return .notACaptureDevice(path, detail: "it does not answer V4L2 requests")
        default: return .cameraFailed(path, reason: String(cString: strerror(code)))
        }
    }
}
