import CBridge
import HeritageCore

/// What a V4L2 device says about itself and the modes it streams.
public struct V4L2DeviceReport: Sendable {
    public var card: String
    public var driver: String
    public var busInfo: String
    public var isCapture: Bool
    public var modes: [CameraMode]

    /// Queries the device at `path` through libv4l2.
    public init(path: String) throws(V4L2Error) {
        var info = cb_v4l2_device_info()
        var modes = [cb_v4l2_mode](repeating: cb_v4l2_mode(), count: 512)
        var code: Int32 = 0
        let n = cb_v4l2_query(path, &info, &modes, Int32(modes.count), &code)
        if n < 0 { throw V4L2Error(code: code, message: String(cString: cb_last_error())) }
        func text<T>(_ tuple: T) -> String {
            withUnsafeBytes(of: tuple) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        }
        card = text(info.card)
        driver = text(info.driver)
        busInfo = text(info.bus_info)
        isCapture = info.is_capture != 0
        self.modes = modes.prefix(Int(min(n, Int32(modes.count)))).map(\.cameraMode)
    }
}
