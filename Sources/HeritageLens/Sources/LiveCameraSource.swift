import Foundation
import HeritageCore

/// A live camera read by a capture thread that keeps only the newest frame.
///
/// Queued frames are the usual source of webcam lag on Linux: if the pipeline is slower than the
/// camera, a FIFO of frames makes every frame older than the last. Here the capture thread always
/// decodes into a spare buffer and swaps it with the "ready" one (triple buffering), so the
/// pipeline gets the newest frame. Frames it never got, once it has started (older unread frames,
/// and frames the grabber skipped), are counted as dropped.
// Shared state is guarded by `condition`; the grabber is touched only by the capture thread
// (and by close() once that thread has ended).
public final class LiveCameraSource: FrameSource, @unchecked Sendable {
    public struct Options: Sendable {
        /// No frame for this long means the camera has stalled.
        public var stallTimeout: Double = 3.0
        /// Ends a wait for the next frame (the run's request).
        public var stopRequest: StopRequest

        public init(stallTimeout: Double = 3.0, stopRequest: StopRequest = StopRequest(followingProcessSignals: false)) {
            self.stallTimeout = stallTimeout
            self.stopRequest = stopRequest
        }
    }

    final class Slot {
        let image = Image()
        let gray = Image()
        var hasGray = false
        var capturedAt: UInt64 = 0
    }

    public var name: String { grabber.name }
    public var size: Size { grabber.size }
    public var framesPerSecond: Double { grabber.framesPerSecond }
    public let expectedFrameCount: Int? = nil
    public var droppedFrameCount: Int {
        condition.withLock { dropped + (skippedAtStart.map { skipped - $0 } ?? 0) }
    }

    private let grabber: FrameGrabber
    private let options: Options
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var writing = Slot(), ready = Slot(), reading = Slot()
    private var fresh = false
    private var dropped = 0
    /// The grabber's skipped frames, as of its last frame, and as of the first frame delivered.
    private var skipped = 0
    private var skippedAtStart: Int?
    private var failure: Error?
    private var running = true
    private var thread: Thread?
    /// Signalled by the capture thread as it ends: `close` joins it before closing the device.
    private let exited = DispatchSemaphore(value: 0)
    /// Touched by the capture thread, then by close() once that thread has ended.
    private var grabberClosed = false
    private var firstCapture: UInt64?
    private var delivered = 0
    private let clock = SystemClock()

    public init(grabber: FrameGrabber, options: Options = Options()) {
        self.grabber = grabber
        self.options = options
        let exited = self.exited
        let thread = Thread { [weak self] in
            self?.captureLoop()
            exited.signal()
        }
        thread.name = "heritage-lens capture"
        thread.qualityOfService = .userInteractive
        self.thread = thread
        thread.start()
    }

    deinit { close() }

    private func captureLoop() {
        var lastFrameAt = clock.nanoseconds()
        while true {
            let target: Slot = condition.withLock { running ? writing : Slot() }
            guard condition.withLock({ running }) else { return }
            do {
                if let grabbed = try grabber.grab(into: target.image, gray: target.gray, timeoutMilliseconds: 200) {
                    lastFrameAt = clock.nanoseconds()
                    // Detection holds still from now: the frame thread is about to be woken for it.
                    FrameGate.frameExpected(in: 0)
                    target.capturedAt = grabbed.capturedAt
                    target.hasGray = grabbed.hasGray
                    let skippedNow = grabber.skippedFrameCount
                    condition.withLock {
                        swap(&writing, &ready)
                        // Frames replaced before the pipeline took its first one were not dropped
                        // to keep up: it was still starting.
                        if fresh && skippedAtStart != nil { dropped += 1 }
                        skipped = skippedNow
                        fresh = true
                        condition.signal()
                    }
                } else if Double(clock.nanoseconds() - lastFrameAt) / 1e9 > options.stallTimeout {
                    fail(SourceError.cameraStalled(grabber.name, seconds: options.stallTimeout))
                    return
                }
            } catch {
                fail(error)
                return
            }
        }
    }

    /// Called on the capture thread, which then ends. The device is let go at once, not when the
    /// reader next asks for a frame (which may be seconds away while the program starts up or a
    /// slow frame finishes): a file handle left open on an unplugged camera makes it come back as
    /// another /dev/videoN, and the reconnection waits for the old one in vain.
    private func fail(_ error: Error) {
        grabber.close()
        grabberClosed = true
        condition.withLock {
            failure = error
            running = false
            condition.broadcast()
        }
    }

    public func nextFrame() throws -> Frame? {
        condition.lock()
        defer { condition.unlock() }
        while !fresh && failure == nil && running && !options.stopRequest.isRequested {
            _ = condition.wait(until: Date().addingTimeInterval(0.1))
        }
        if let failure { throw failure }
        guard fresh, !options.stopRequest.isRequested else { return nil }
        swap(&reading, &ready)
        fresh = false
        if skippedAtStart == nil { skippedAtStart = skipped }
        let slot = reading
        if firstCapture == nil { firstCapture = slot.capturedAt }
        let time = Double(slot.capturedAt &- firstCapture!) / 1e9
        defer { delivered += 1 }
        return Frame(index: delivered, time: time, availableAt: slot.capturedAt, image: slot.image,
                     gray: slot.hasGray ? slot.gray : nil)
    }

    public func close() {
        let wasRunning = condition.withLock { () -> Bool in
            let r = thread != nil
            running = false
            condition.broadcast()
            return r
        }
        guard wasRunning else { return }
        // The loop's grab wakes within its 200 ms timeout; wait for it before closing the device.
        exited.wait()
        thread = nil
        if !grabberClosed { grabber.close() }
        grabberClosed = true
    }
}
