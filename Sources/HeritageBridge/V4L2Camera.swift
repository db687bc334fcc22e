import CBridge
import HeritageCore

/// A V4L2 camera streaming through mmap buffers (libv4l2 converts formats it cannot give).
public final class V4L2Camera {
    private var raw: OpaquePointer?
    /// The mode the driver settled on (it may adjust the asked one).
    public let mode: CameraMode

    public init(path: String, mode asked: CameraMode, bufferCount: Int) throws(V4L2Error) {
        var code: Int32 = 0
        guard let cam = cb_v4l2_camera_open(path, cb_v4l2_mode(asked), Int32(bufferCount), &code) else {
            throw V4L2Error(code: code, message: String(cString: cb_last_error()))
        }
        raw = cam
        mode = cb_v4l2_camera_mode(cam).cameraMode
    }

    deinit { close() }

    /// One frame the driver delivered: its monotonic capture time and the driver's frame count.
    public struct Delivery: Sendable {
        public var timestampSeconds: Double
        public var sequence: UInt32
    }

    /// Waits up to `timeoutMilliseconds` and decodes the newest frame into `image` (and its luma
    /// into `gray` when given and the format carries luma); nil when no frame came or a corrupt one
    /// was skipped.
    public func read(into image: Image, gray: Image?, timeoutMilliseconds: Int) throws(V4L2Error) -> Delivery? {
        guard let cam = raw else { throw V4L2Error(code: 19, message: "the camera is closed") }
        var timestamp = 0.0, sequence: UInt32 = 0, code: Int32 = 0
        let status = cb_v4l2_camera_read(cam, image.raw, gray?.raw, Int32(timeoutMilliseconds), &timestamp, &sequence, &code)
        if status < 0 { throw V4L2Error(code: code, message: String(cString: cb_last_error())) }
        return status == 0 ? nil : Delivery(timestampSeconds: timestamp, sequence: sequence)
    }

    /// Stops streaming and closes the device; closing twice does nothing.
    public func close() {
        if let cam = raw { cb_v4l2_camera_close(cam) }
        raw = nil
    }
}

extension cb_v4l2_mode {
    init(_ m: CameraMode) {
        let fps = m.framesPerSecond
        self.init(pixel_format: m.pixelFormat.rawValue, width: UInt32(m.size.width), height: UInt32(m.size.height),
                  fps_numerator: UInt32((fps * 1000).rounded()), fps_denominator: fps > 0 ? 1000 : 1, compressed: 0)
    }

    var cameraMode: CameraMode {
        CameraMode(pixelFormat: FourCC(rawValue: pixel_format), size: Size(width: Int(width), height: Int(height)),
                   framesPerSecond: fps_denominator > 0 ? Double(fps_numerator) / Double(fps_denominator) : 0)
    }
}
