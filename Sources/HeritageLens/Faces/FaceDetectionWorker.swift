import CBridge
import Foundation
import HeritageCore

/// One piece of detection work.
public enum FaceDetectionJob: Hashable, Sendable {
    /// The whole frame, for new faces.
    case search
    /// Around one track, to confirm a face is still there.
    case verify(trackID: Int, region: Rect)
}

/// What a job found, on which frame, at what cost.
public struct FaceDetectionResult: Sendable {
    public var job: FaceDetectionJob
    public var frameIndex: Int
    public var detections: [FaceDetection]
    /// Thread CPU time the job took.
    public var milliseconds: Double
}

/// Runs detection jobs: inline on the frame's thread (deterministic: `process`), or on a
/// background thread in idle time (live: `run`, `--realtime`).
public protocol FaceDetectionWorker: AnyObject {
    /// True while earlier jobs are still running (new ones would be refused).
    var isBusy: Bool { get }
    /// Starts `jobs` on `gray` of frame `frameIndex` (the worker copies what it needs).
    func submit(_ jobs: [FaceDetectionJob], gray: Image, frameIndex: Int) throws
    /// Results finished since the last call.
    func collect() -> [FaceDetectionResult]
    func finish()
}

/// Turns a job into detector calls: search scale from the smallest face wanted, verification
/// regions scaled so the face fills the detector's window.
struct DetectionRunner {
    let detector: FaceDetector
    let predictor: LandmarkPredictor
    /// Search scale: above 1 lets the detector's 80 px window see faces this many px between the eyes.
    let searchScale: Double

    init(detector: FaceDetector, predictor: LandmarkPredictor, minimumEyeDistance: Double) {
        self.detector = detector
        self.predictor = predictor
        searchScale = min(2.5, max(0.25, 90 / (FaceFrame.detectorBoxWidth * minimumEyeDistance)))
    }

    func run(_ job: FaceDetectionJob, on gray: Image) throws -> [FaceDetection] {
        switch job {
        case .search:
            // New faces get their landmarks here, on the frame they were found in: exact dlib
            // boxes for the fit, and the cost stays with the worker.
            return try detector.detect(in: gray, region: nil, scale: searchScale).map { d in
                var d = d
                d.landmarks = try predictor.fit(in: gray, box: d.box)
                return d
            }
        case .verify(_, let region):
            // The face is about region/1.8 wide; bring it to ~110 px (the window is 80).
            let face = region.width / 1.8
            let scale = min(2.5, max(0.4, 110 / face))
            return try detector.detect(in: gray, region: region, scale: scale)
        }
    }
}

/// Runs jobs at once, on the caller's thread: the same input always gives the same results.
public final class InlineDetectionWorker: FaceDetectionWorker {
    private let runner: DetectionRunner
    private var finished: [FaceDetectionResult] = []
    public let isBusy = false

    public init(detector: FaceDetector, predictor: LandmarkPredictor, minimumEyeDistance: Double) {
        runner = DetectionRunner(detector: detector, predictor: predictor, minimumEyeDistance: minimumEyeDistance)
    }

    public func submit(_ jobs: [FaceDetectionJob], gray: Image, frameIndex: Int) throws {
        for job in jobs {
            let start = threadCPUNanoseconds()
            let found = try runner.run(job, on: gray)
            finished.append(FaceDetectionResult(job: job, frameIndex: frameIndex, detections: found,
                                                milliseconds: Double(threadCPUNanoseconds() - start) / 1e6))
        }
    }

    public func collect() -> [FaceDetectionResult] {
        defer { finished.removeAll(keepingCapacity: true) }
        return finished
    }

    public func finish() {}
}

/// Runs jobs on a thread scheduled SCHED_IDLE: it gets the CPU only while the frame path waits
/// for the next frame, so detection never delays a frame, even on one core.
// State shared with the thread is guarded by `condition`; the detector is used only by the thread.
public final class BackgroundDetectionWorker: FaceDetectionWorker, @unchecked Sendable {
    private let runner: DetectionRunner
    private let condition = NSCondition()
    private let gray = Image()
    private var pending: [FaceDetectionJob] = []
    private var pendingFrame = 0
    private var finished: [FaceDetectionResult] = []
    private var running = true
    private var busy = false
    private var failure: Error?
    private var thread: Thread?

    public init(detector: FaceDetector, predictor: LandmarkPredictor, minimumEyeDistance: Double) {
        runner = DetectionRunner(detector: detector, predictor: predictor, minimumEyeDistance: minimumEyeDistance)
        let t = Thread { [weak self] in self?.loop() }
        t.name = "heritage-lens face detection"
        thread = t
        t.start()
    }

    deinit { finish() }

    public var isBusy: Bool { condition.withLock { busy } }

    public func submit(_ jobs: [FaceDetectionJob], gray frameGray: Image, frameIndex: Int) throws {
        guard !jobs.isEmpty else { return }
        try condition.withLock {
            if let failure { throw failure }
            guard !busy else { return }
            try frameGray.copy(to: gray)
            pending = jobs
            pendingFrame = frameIndex
            busy = true
            condition.signal()
        }
    }

    public func collect() -> [FaceDetectionResult] {
        condition.withLock {
            defer { finished.removeAll(keepingCapacity: true) }
            return finished
        }
    }

    private func loop() {
        _ = cb_set_current_thread_idle()
        while true {
            condition.lock()
            while running && !busy { condition.wait() }
            if !running {
                condition.unlock()
                return
            }
            let jobs = pending, frame = pendingFrame
            condition.unlock()
            var results: [FaceDetectionResult] = []
            var error: Error?
            for job in jobs {
                let start = threadCPUNanoseconds()
                do {
                    let found = try runner.run(job, on: gray)
                    results.append(FaceDetectionResult(job: job, frameIndex: frame, detections: found,
                                                       milliseconds: Double(threadCPUNanoseconds() - start) / 1e6))
                } catch let e {
                    error = e
                    break
                }
            }
            condition.withLock {
                finished.append(contentsOf: results)
                failure = failure ?? error
                busy = false
            }
        }
    }

    public func finish() {
        condition.withLock {
            running = false
            condition.broadcast()
        }
        // A detection in progress finishes first (tens of ms).
        while let t = thread, !t.isFinished { usleep(2_000) }
        thread = nil
    }
}
