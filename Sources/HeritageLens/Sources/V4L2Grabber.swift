import Foundation
import HeritageCore

/// A camera through libv4l2 directly: negotiated mode, mmap buffers, driver timestamps.
public final class V4L2Grabber: FrameGrabber {
    public let name: String
    public let mode: CameraMode
    public var size: Size { mode.size }
    public var framesPerSecond: Double { mode.framesPerSecond > 0 ? mode.framesPerSecond : 30 }
    private var camera: V4L2Camera?
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
        let cam: V4L2Camera
        do {
            cam = try V4L2Camera(path: path, mode: chosen, bufferCount: bufferCount)
        } catch {
            throw CameraDevices.error(for: path, code: error.code)
        }
        camera = cam
        name = path
        mode = cam.mode
    }

    deinit { close() }

    public func grab(into image: Image, gray: Image, timeoutMilliseconds: Int) throws -> (capturedAt: UInt64, hasGray: Bool)? {
        guard let cam = camera else { throw SourceError.cameraLost(name) }
        let wantsGray = mode.pixelFormat == .yuyv || mode.pixelFormat == .grey
        let delivery: V4L2Camera.Delivery?
        do {
            delivery = try cam.read(into: image, gray: wantsGray ? gray : nil, timeoutMilliseconds: timeoutMilliseconds)
        } catch {
            if error.code == ENODEV || error.code == EIO { throw SourceError.cameraLost(name) }
            throw SourceError.cameraFailed(name, reason: error.message)
        }
        // No frame yet, or a corrupt one skipped (counted by the next gap).
        guard let delivery else { return nil }
        let timestamp = delivery.timestampSeconds, sequence = delivery.sequence
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
        camera?.close()
        camera = nil
    }
}

/// A camera through OpenCV's VideoCapture (its own V4L2 backend): the fallback when the direct
/// path cannot drive a device. It has no driver timestamps; frames are stamped on arrival.
public final class OpenCVCameraGrabber: FrameGrabber {
    public let name: String
    public let size: Size
    public let framesPerSecond: Double
    private var reader: VideoReader?

    public init(path: String, requestedSize: Size, framesPerSecond: Double) throws {
        var isCharacterDevice = false
        var st = stat()
        if stat(path, &st) == 0 { isCharacterDevice = (st.st_mode & S_IFMT) == S_IFCHR }
        guard FileManager.default.fileExists(atPath: path) else { throw SourceError.cameraNotFound(path) }
        guard isCharacterDevice else { throw SourceError.notACaptureDevice(path, detail: "not a device file") }
        let r: VideoReader
        do {
            r = try VideoReader(camera: path, size: requestedSize, framesPerSecond: framesPerSecond)
        } catch {
            throw SourceError.cameraFailed(path, reason: error.message)
        }
        reader = r
        name = path
        size = r.info.size
        self.framesPerSecond = r.info.framesPerSecond > 0 ? r.info.framesPerSecond : framesPerSecond
    }

    deinit { close() }

    public func grab(into image: Image, gray: Image, timeoutMilliseconds: Int) throws -> (capturedAt: UInt64, hasGray: Bool)? {
        guard let r = reader else { throw SourceError.cameraLost(name) }
        guard case .frame = r.read(into: image) else { throw SourceError.cameraLost(name) }
        return (SystemClock().nanoseconds(), false)
    }

    public func close() {
        reader = nil
    }
}
