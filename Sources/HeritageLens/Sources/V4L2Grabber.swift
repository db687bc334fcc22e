import CBridge
import Foundation
import HeritageCore

/// A camera through libv4l2 directly: negotiated mode, mmap buffers, driver timestamps.
public final class V4L2Grabber: FrameGrabber {
    public let name: String
    public let mode: CameraMode
    public var size: Size { mode.size }
    public var framesPerSecond: Double { mode.framesPerSecond > 0 ? mode.framesPerSecond : 30 }
    private var camera: OpaquePointer?
    /// Driver timestamps are CLOCK_MONOTONIC on every current driver (uvcvideo included); this
    /// offset maps them onto SystemClock should a driver use another clock base.
    private var clockOffset: Int64?
    private var lastSequence: UInt32?
    /// Frames the camera sent that were not delivered: gaps in the driver's sequence numbers
    /// (dropped in the driver, passed over for a newer one, or corrupt).
    public private(set) var skippedFrameCount = 0

    /// Opens `path`, choosing a mode with `negotiator`.
    public init(path: String, negotiator: CameraModeNegotiator, bufferCount: Int = 4) throws {
        let device = try CameraDevices.query(path)
        guard device.isCapture else {
            throw SourceError.notACaptureDevice(path, detail: "\(device.driver) '\(device.card)' does not stream video")
        }
        let chosen: CameraMode
        do {
            chosen = try negotiator.choose(from: device.modes)
        } catch {
            throw SourceError.cameraFailed(path, reason: "\(error)")
        }
        let fps = chosen.framesPerSecond
        var asked = cb_v4l2_mode(pixel_format: chosen.pixelFormat.rawValue, width: UInt32(chosen.size.width),
                                 height: UInt32(chosen.size.height), fps_numerator: UInt32((fps * 1000).rounded()),
                                 fps_denominator: fps > 0 ? 1000 : 1, compressed: 0)
        var code: Int32 = 0
        guard let cam = cb_v4l2_camera_open(path, asked, Int32(bufferCount), &code) else {
            throw CameraDevices.error(for: path, code: code)
        }
        asked = cb_v4l2_camera_mode(cam)
        camera = cam
        name = path
        mode = CameraMode(pixelFormat: FourCC(rawValue: asked.pixel_format),
                          size: Size(width: Int(asked.width), height: Int(asked.height)),
                          framesPerSecond: asked.fps_denominator > 0
                              ? Double(asked.fps_numerator) / Double(asked.fps_denominator) : 0)
    }

    deinit { close() }

    public func grab(into image: Image, gray: Image, timeoutMilliseconds: Int) throws -> (capturedAt: UInt64, hasGray: Bool)? {
        guard let cam = camera else { throw SourceError.cameraLost(name) }
        var timestamp = 0.0
        var sequence: UInt32 = 0
        var code: Int32 = 0
        let wantsGray = mode.pixelFormat == .yuyv || mode.pixelFormat == .grey
        let status = cb_v4l2_camera_read(cam, image.raw, wantsGray ? gray.raw : nil, Int32(timeoutMilliseconds),
                                         &timestamp, &sequence, &code)
        if status == 0 { return nil }  // no frame yet, or a corrupt one skipped (counted by the next gap)
        if status < 0 {
            if code == ENODEV || code == EIO { throw SourceError.cameraLost(name) }
            throw SourceError.cameraFailed(name, reason: String(cString: cb_last_error()))
        }
        // A stream that restarts numbers from 0 again; otherwise the gap is what was not delivered.
        if let last = lastSequence, sequence > last { skippedFrameCount += Int(sequence - last - 1) }
        lastSequence = sequence
        let now = SystemClock().nanoseconds()
        let stamp = Int64(timestamp * 1e9)
        if clockOffset == nil {
            // Within a second of now: the same clock. Otherwise align the first frame to now.
            clockOffset = abs(Int64(now) - stamp) < 1_000_000_000 ? 0 : Int64(now) - stamp
        }
        let captured = UInt64(max(0, stamp + clockOffset!))
        return (min(captured, now), wantsGray)
    }

    public func close() {
        if let cam = camera { cb_v4l2_camera_close(cam) }
        camera = nil
    }
}

/// A camera through OpenCV's VideoCapture (its own V4L2 backend): the fallback when the direct
/// path cannot drive a device. It has no driver timestamps; frames are stamped on arrival.
public final class OpenCVCameraGrabber: FrameGrabber {
    public let name: String
    public let size: Size
    public let framesPerSecond: Double
    private var reader: OpaquePointer?

    public init(path: String, requestedSize: Size, framesPerSecond: Double) throws {
        var isCharacterDevice = false
        var st = stat()
        if stat(path, &st) == 0 { isCharacterDevice = (st.st_mode & S_IFMT) == S_IFCHR }
        guard FileManager.default.fileExists(atPath: path) else { throw SourceError.cameraNotFound(path) }
        guard isCharacterDevice else { throw SourceError.notACaptureDevice(path, detail: "not a device file") }
        guard let r = cb_video_reader_open_camera(path, Int32(requestedSize.width), Int32(requestedSize.height),
                                                  framesPerSecond) else {
            throw SourceError.cameraFailed(path, reason: String(cString: cb_last_error()))
        }
        var info = cb_video_info()
        cb_video_reader_info(r, &info)
        reader = r
        name = path
        size = Size(width: Int(info.width), height: Int(info.height))
        self.framesPerSecond = info.fps > 0 ? info.fps : framesPerSecond
    }

    deinit { close() }

    public func grab(into image: Image, gray: Image, timeoutMilliseconds: Int) throws -> (capturedAt: UInt64, hasGray: Bool)? {
        guard let r = reader else { throw SourceError.cameraLost(name) }
        var pts = 0.0
        let status = cb_video_reader_read(r, image.raw, &pts)
        if status <= 0 { throw SourceError.cameraLost(name) }
        return (SystemClock().nanoseconds(), false)
    }

    public func close() {
        if let r = reader { cb_video_reader_free(r) }
        reader = nil
    }
}
