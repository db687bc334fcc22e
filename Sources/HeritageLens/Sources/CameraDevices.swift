import CBridge
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

    /// A camera named by index ("0") or path ("/dev/video0").
    public static func path(for name: String) -> String {
        if let index = Int(name), index >= 0 { return "/dev/video\(index)" }
        return name
    }

    public static func query(_ path: String) throws -> CameraDevice {
        var info = cb_v4l2_device_info()
        var modes = [cb_v4l2_mode](repeating: cb_v4l2_mode(), count: 512)
        var code: Int32 = 0
        let n = cb_v4l2_query(path, &info, &modes, Int32(modes.count), &code)
        if n < 0 { throw error(for: path, code: code) }
        func text<T>(_ tuple: T) -> String {
            withUnsafeBytes(of: tuple) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
        }
        let listed = modes.prefix(Int(min(n, Int32(modes.count)))).map { m in
            CameraMode(pixelFormat: FourCC(rawValue: m.pixel_format),
                       size: Size(width: Int(m.width), height: Int(m.height)),
                       framesPerSecond: m.fps_denominator > 0 ? Double(m.fps_numerator) / Double(m.fps_denominator) : 0)
        }
        return CameraDevice(path: path, card: text(info.card), driver: text(info.driver),
                            busInfo: text(info.bus_info), isCapture: info.is_capture != 0, modes: listed)
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
