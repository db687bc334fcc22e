import Foundation
import HeritageCore

/// Runs one kind of detection work on a frame's gray image: inline on the caller's thread
/// (deterministic, for `process`), or on a background thread at nice 10 that the `FrameGate` keeps
/// still while a frame is in progress, so that it works in the time between frames (live runs) and
/// delays no frame that does not ask to wait for it (`awaitJob`). Should a job wait longer than
/// `starvationLimit` while getting almost no CPU (the frame path itself busy all the time, on a
/// machine too slow for the input), it is let through the gate until it is done: late detection
/// beats none. A job that is slow but making progress in the gaps (a slow core's search takes
/// seconds) is not starved and stays out of the frames.
///
/// `work` may be paused anywhere in its own code, so it must not take a lock the frame thread
/// takes (no logging from it).
///
/// The thread holds only the worker's core, never the worker itself, so a worker let go of without
/// `finish()` still stops and joins its thread.
public final class IdleTimeWorker<Job, Output> {
    public struct Finished {
        public var frameIndex: Int
        public var output: Output
        /// Thread CPU time the work took.
        public var milliseconds: Double
    }

    /// Where the work runs.
    public enum Mode: Sendable {
        /// On the caller's thread inside `submit` (one core, deterministic).
        case inline
        /// On the worker's own thread at once, beside the frame's other stages; `collect` waits
        /// for it, so its result lands on the frame it was made on, exactly as inline (deterministic,
        /// on a second core).
        case beside
        /// On the worker's thread in the idle time between frames (live).
        case idleTime
    }

    /// Seconds a job may wait before it is let through the gate, when it got less than
    /// `starvedShare` of a core meanwhile.
    public var starvationLimit: Double {
        get { core.condition.withLock { core.starvationLimit } }
        set { core.condition.withLock { core.starvationLimit = newValue } }
    }
    public var starvedShare: Double {
        get { core.condition.withLock { core.starvedShare } }
        set { core.condition.withLock { core.starvedShare = newValue } }
    }

    private let core: Core
    private var thread: Thread?
    /// Signalled by the thread as it ends: `finish` joins it.
    private let exited = DispatchSemaphore(value: 0)

    public convenience init(name: String, background: Bool, niceness: Int32 = 10,
                            work: @escaping (Image, Int, Job) throws -> Output) {
        self.init(name: name, mode: background ? .idleTime : .inline, niceness: niceness, work: work)
    }

    public init(name: String, mode: Mode, niceness: Int32 = 10, work: @escaping (Image, Int, Job) throws -> Output) {
        core = Core(name: name, mode: mode, niceness: niceness, work: work)
        guard mode != .inline else { return }
        let core = self.core, exited = self.exited
        let t = Thread {
            core.loop()
            exited.signal()
        }
        t.name = name
        thread = t
        t.start()
    }

    deinit { finish() }

    /// True while a job runs. Asked every time work is due, so it is also where a starved job is
    /// let through the gate.
    public var isBusy: Bool { core.isBusy }

    /// Starts `job` on `frameGray` unless earlier work is still running (then nothing happens).
    public func submit(_ job: Job, on frameGray: Image, frameIndex: Int) throws {
        try core.submit(job, on: frameGray, frameIndex: frameIndex)
    }

    /// The jobs finished since the last call (in `beside` mode, after waiting for the one running).
    public func collect() -> [Finished] { core.collect() }

    /// Idle-time mode, from the frame thread: lets the job running through the frame in progress
    /// and waits for it until `deadline` (the system clock's nanoseconds). True when no job is
    /// left running. A job still running at the deadline stays let through to its end, as a
    /// starved one is.
    @discardableResult
    public func awaitJob(until deadline: UInt64) -> Bool { core.awaitJob(until: deadline) }

    /// Ends the thread and joins it; a job in progress is finished first. Calling it again does
    /// nothing.
    public func finish() {
        core.stop()
        if thread != nil { exited.wait() }
        thread = nil
    }

    /// The state the thread shares with the frame thread, and the thread's loop.
    // Unchecked: every field the two threads share is read and written under `condition`; `work`
    // and `gray` are used by one thread at a time (the frame thread inline, the worker's thread
    // otherwise, `gray` only between a submit and the job's end).
    private final class Core: @unchecked Sendable {
        private let work: (Image, Int, Job) throws -> Output
        private let mode: Mode
        private var background: Bool { mode == .idleTime }
        let condition = NSCondition()
        private let name: String
        private let gray = Image()
        private var pendingFrame: Int?
        private var pendingJob: Job?
        private var pendingSince: UInt64 = 0
        /// The thread's CPU time when the pending job was submitted, ns.
        private var pendingCPUStart: UInt64 = 0
        private var threadID: Int32 = 0
        /// The thread's CPU-time clock, readable from other threads.
        private var threadClock: clockid_t?
        /// The thread's frame-gate slot (-1: none).
        private var gateSlot: Int32 = -1
        /// The current job goes through the gate (it starved).
        private var letThrough = false
        /// Longest a job waits for a frame to end before it starts anyway.
        private let gateLimitNanoseconds: Int64 = 40_000_000
        /// See `IdleTimeWorker.starvationLimit`; guarded by `condition`.
        var starvationLimit = 1.0
        var starvedShare = 0.03
        private var finished: [Finished] = []
        private var running = true
        private var failure: Error?

        /// Nice value of the background thread: among workers sharing the idle time, the one with
        /// the lower value gets the larger share (CFS weights: nice 10 gets twice the share of nice 13).
        private let niceness: Int32

        init(name: String, mode: Mode, niceness: Int32, work: @escaping (Image, Int, Job) throws -> Output) {
            self.name = name
            self.work = work
            self.mode = mode
            self.niceness = niceness
        }

        /// True while a job runs. Asked every time work is due, so it is also where a starved job is
        /// let through the gate.
        var isBusy: Bool {
            condition.withLock {
                guard pendingFrame != nil else { return false }
                letThroughIfStarved()
                return true
            }
        }

        /// Call with `condition` held.
        private func letThroughIfStarved() {
            let waited = Double(SystemClock().nanoseconds() - pendingSince) / 1e9
            guard threadID != 0, waited > starvationLimit else { return }
            let progress = Double(threadCPU() &- pendingCPUStart) / 1e9
            if progress < starvedShare * waited {
                letThrough = true
                // Every time, not once: a job that had just started may have marked itself pausable
                // after the first call.
                BackgroundThread.setPausable(gateSlot, false)
            }
        }

        /// Starts `job` on `frameGray` unless earlier work is still running (then nothing happens).
        func submit(_ job: Job, on frameGray: Image, frameIndex: Int) throws {
            guard mode != .inline else {
                let start = threadCPUNanoseconds()
                let output = try work(frameGray, frameIndex, job)
                finished.append(Finished(frameIndex: frameIndex, output: output,
                                         milliseconds: Double(threadCPUNanoseconds() - start) / 1e6))
                return
            }
            try condition.withLock {
                if let failure { throw failure }
                if pendingFrame != nil {
                    letThroughIfStarved()
                    return
                }
                try frameGray.copy(to: gray)
                pendingFrame = frameIndex
                pendingJob = job
                pendingSince = SystemClock().nanoseconds()
                pendingCPUStart = threadCPU()
                condition.signal()
            }
        }

        /// The background thread's CPU time so far, ns (0 when it is not running). Call with
        /// `condition` held: the thread clears its clock under that lock before it ends, so the clock
        /// read is always a live thread's.
        private func threadCPU() -> UInt64 {
            guard let threadClock else { return 0 }
            var t = timespec()
            guard clock_gettime(threadClock, &t) == 0 else { return 0 }
            return UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_nsec)
        }

        func awaitJob(until deadline: UInt64) -> Bool {
            condition.withLock {
                guard background, pendingFrame != nil else { return pendingFrame == nil }
                letThrough = true
                BackgroundThread.letThroughFrames(gateSlot)
                while pendingFrame != nil && failure == nil {
                    let now = SystemClock().nanoseconds()
                    guard now < deadline else { break }
                    _ = condition.wait(until: Date(timeIntervalSinceNow: Double(deadline - now) / 1e9))
                }
                return pendingFrame == nil
            }
        }

        func collect() -> [Finished] {
            condition.withLock {
                if mode == .beside { while pendingFrame != nil && failure == nil { condition.wait() } }
                defer { finished.removeAll(keepingCapacity: true) }
                return finished
            }
        }

        func loop() {
            BackgroundThread.nameCurrent(name)
            let tid = BackgroundThread.currentID
            let idle = mode == .idleTime
            if idle { BackgroundThread.lowerCurrentPriority(niceness: niceness) }
            let slot = idle ? BackgroundThread.registerWithFrameGate() : -1
            defer { if idle { BackgroundThread.unregisterFromFrameGate(slot) } }
            var clock = clockid_t()
            let hasClock = pthread_getcpuclockid(pthread_self(), &clock) == 0
            condition.withLock {
                threadID = tid
                gateSlot = slot
                threadClock = hasClock ? clock : nil
            }
            while true {
                condition.lock()
                while running && pendingFrame == nil { condition.wait() }
                guard running, let frame = pendingFrame, let job = pendingJob else {
                    threadClock = nil
                    condition.unlock()
                    return
                }
                // Under the lock, so that a release `awaitJob` makes for this job comes after it.
                // Not pausable here: a frame cannot hold the thread still inside the lock.
                if idle { BackgroundThread.endLetThrough(slot) }
                let exempt = letThrough
                condition.unlock()
                // Woken by a frame's submit: wait for that frame to end rather than run inside it.
                if idle && !exempt { BackgroundThread.waitForFrameEnd(slot: slot, limitNanoseconds: gateLimitNanoseconds) }
                let start = threadCPUNanoseconds()
                // Pausable only inside the work: never while holding `condition`, which the frame
                // thread takes too.
                if idle { BackgroundThread.setPausable(slot, !exempt) }
                let result = Result { try work(gray, frame, job) }
                if idle { BackgroundThread.setPausable(slot, false) }
                let ms = Double(threadCPUNanoseconds() - start) / 1e6
                condition.withLock {
                    switch result {
                    case .success(let output):
                        finished.append(Finished(frameIndex: frame, output: output, milliseconds: ms))
                    case .failure(let error):
                        failure = error
                    }
                    pendingFrame = nil
                    pendingJob = nil
                    letThrough = false
                    // `collect` in beside mode and `awaitJob` wait for this.
                    condition.broadcast()
                }
            }
        }

        /// Tells the thread to end once its job (if any) is done.
        func stop() {
            condition.withLock {
                running = false
                condition.broadcast()
            }
        }
    }
}
