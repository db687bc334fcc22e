import HeritageCore
import Logging

/// Frames from a source, through the stages, into the sinks.
///
/// ```
///   FrameSource ──Frame──▶ convert ─▶ faces ─▶ cards ─▶ pose ─▶ render ──ProcessedFrame──▶ sinks
///                              (each stage: FrameWork in, FrameWork out)                 └─▶ metrics
/// ```
/// Time is recorded at every stage boundary; `total_ms` runs from the frame being available to
/// its output being ready, before it is written out. Sinks are finished exactly once, whether the
/// run ends at the end of the input, on an error, on a quit key or on SIGINT/SIGTERM.
public final class Pipeline {
    public struct Options {
        public var clock: any MonotonicClock = SystemClock()
        /// The tier each frame starts at (a governor stage may change it).
        public var tier: Tier = .low
        /// Stop after this many frames (nil: the whole input).
        public var frameLimit: Int?
        /// Above 1, every stage is stretched to this many times its measured cost by busy-waiting
        /// (`--emulate-slow`): the frame path then occupies the core as it would on a machine that
        /// much slower, so pacing, drops, idle time for detection and the auto tier all respond
        /// as they would there.
        public var slowdown = 1.0

        public init(tier: Tier = .low, frameLimit: Int? = nil) {
            self.tier = tier
            self.frameLimit = frameLimit
        }
    }

    /// How a run ended.
    public struct Summary: Sendable {
        public var framesProcessed = 0
        public var framesDropped = 0
        public var expectedFrames: Int?
        public var interrupted = false
        public var wallSeconds = 0.0
    }

    public let source: FrameSource
    public let stages: [FrameStage]
    public private(set) var sinks: [FrameSink]
    public let metrics: MetricsSink?
    public var options: Options
    /// When set (`--tier auto`), picks each frame's tier from the measured frame times.
    public var governor: TierGovernor?
    /// Called after each frame with its metrics (progress lines, bench histograms, the overlay).
    public var onFrame: ((FrameMetrics) -> Void)?
    /// Interrupts the run before its next frame (`Summary.interrupted`); shared with the run's
    /// sources and workers.
    public let stopRequest: StopRequest
    /// A normal end asked for by the user (the quit key): not an interruption.
    private var quitRequested = false
    private let logger: Logger

    public init(source: FrameSource, stages: [FrameStage], sinks: [FrameSink], metrics: MetricsSink? = nil,
                options: Options = Options(), stopRequest: StopRequest = StopRequest(followingProcessSignals: false),
                logger: Logger = Logger(label: "heritage-lens.pipeline")) {
        self.source = source
        self.stopRequest = stopRequest
        self.logger = logger
        self.stages = stages
        self.sinks = sinks
        self.metrics = metrics
        self.options = options
    }

    /// Ends the run after the current frame (a quit key).
    public func stop() { quitRequested = true }

    /// Changes the tier from the next frame on (the preview's tier key): low, high, or auto with
    /// a governor for `budgetMilliseconds`.
    public func setTier(_ setting: TierSetting, budgetMilliseconds: Double) {
        switch setting {
        case .low, .high:
            governor = nil
            options.tier = setting == .low ? .low : .high
        case .auto:
            governor = TierGovernor(options: .init(budgetMilliseconds: budgetMilliseconds))
        }
    }

    /// Processes frames until the input ends, `stop()` is called, or the stop request is made
    /// (by its owner, or by a stop signal when it follows them).
    /// Sinks are finished before this returns or throws.
    public func run() throws -> Summary {
        var summary = Summary()
        summary.expectedFrames = source.expectedFrameCount
        let clock = options.clock
        let started = clock.nanoseconds()
        let gray = Image()
        var runError: Error?
        do {
            try StageOrder.check(stages)
            while !quitRequested && !stopRequest.isRequested {
                if let limit = options.frameLimit, summary.framesProcessed >= limit { break }
                guard let frame = try source.nextFrame() else { break }
                FrameGate.frameBegan()
                defer { FrameGate.frameEnded() }
                var timer = StageTimer(clock: clock, availableAt: frame.availableAt)
                timer.mark("capture")
                var work = FrameWork(frame: frame, gray: gray,
                                     anchors: FrameAnchors(frame: frame.index, time: frame.time, size: frame.size),
                                     tier: governor?.tier ?? options.tier)
                for stage in stages {
                    let began = clock.nanoseconds()
                    try stage.process(&work)
                    if options.slowdown > 1 { Self.stretch(since: began, by: options.slowdown, clock: clock) }
                    timer.mark(stage.name)
                    FrameGate.stageEnded()
                }
                let total = timer.elapsedMilliseconds
                if var g = governor {
                    if let change = g.record(milliseconds: total, renderedAt: work.tier) {
                        work.events.append(("tier_switch", "\(change.from.rawValue)->\(change.to.rawValue)"))
                    }
                    governor = g
                }
                let processed = ProcessedFrame(frame: frame, output: frame.image, anchors: work.anchors)
                for sink in sinks { try sink.write(processed) }
                timer.mark("sinks")
                let line = FrameMetrics(frame: frame.index, time: frame.time, tier: work.tier.rawValue,
                                        totalMilliseconds: total, stages: timer.stages, events: work.events,
                                        background: work.background)
                try metrics?.write(line)
                summary.framesProcessed += 1
                onFrame?(line)
            }
        } catch {
            runError = error
        }
        summary.interrupted = stopRequest.isRequested
        summary.framesDropped = source.droppedFrameCount
        summary.wallSeconds = Double(clock.nanoseconds() - started) / 1e9
        stages.forEach { $0.finish() }
        source.close()
        var finishError: Error?
        for sink in sinks {
            do { try sink.finish() } catch { finishError = finishError ?? error }
        }
        do { try metrics?.finish() } catch { finishError = finishError ?? error }
        if let error = runError ?? finishError { throw PipelineError(underlying: error, summary: summary) }
        return summary
    }
}

extension Pipeline {
    /// Busy-waits until the time since `began` is `factor` times what it was: a slower core would
    /// be busy, not asleep, for that long.
    static func stretch(since began: UInt64, by factor: Double, clock: any MonotonicClock) {
        let spent = clock.nanoseconds() &- began
        let until = clock.nanoseconds() &+ UInt64(Double(spent) * (factor - 1))
        while clock.nanoseconds() < until {}
    }
}

/// A run that failed, with what was done (and finalized) before the failure.
public struct PipelineError: Error, CustomStringConvertible {
    public let underlying: Error
    public let summary: Pipeline.Summary

    public var description: String { "\(underlying)" }
}
