import Foundation

/// A thread that handles values one at a time, always the newest: a value submitted while an
/// older one still waits replaces it (counted in `skipped`), so a slow consumer lags by at most
/// one value and never queues. The thread runs at background priority and starts each value
/// only once the frame in progress has ended (the frame gate), so it uses the time between frames.
///
/// The thread holds only the worker's core, never the worker itself, so a worker let go of without
/// `finish()` still stops and joins its thread.
public final class NewestOnlyWorker<Value> {
    private let core: Core
    private var thread: Thread?
    /// Signalled by the thread as it ends: `finish` joins it.
    private let exited = DispatchSemaphore(value: 0)

    public init(name: String, handle: @escaping (Value) -> Void) {
        core = Core(name: name, handle: handle)
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

    /// Values replaced before the thread got to them.
    public var skipped: Int { core.withState { $0.skipped } }

    public func submit(_ value: Value) { core.submit(value) }

    /// Waits until nothing is pending or being handled (tests, the end of a run).
    public func drain(timeoutSeconds: Double = 5) { core.drain(until: Date().addingTimeInterval(timeoutSeconds)) }

    /// Stops the thread after the value it is handling; a pending one is dropped. Calling it again
    /// does nothing.
    public func finish() {
        core.stop()
        if thread != nil { exited.wait() }
        thread = nil
    }

    private struct State {
        var pending: Value?
        var running = true
        var busy = false
        var skipped = 0
    }

    // Unchecked: `state` is read and written only under `condition`; `handle` runs only on the
    // worker's thread.
    private final class Core: @unchecked Sendable {
        private let handle: (Value) -> Void
        private let condition = NSCondition()
        private var state = State()
        /// Longest a value waits for a frame to end before it is handled anyway.
        private let gateLimitNanoseconds: Int64 = 20_000_000

        private let name: String

        init(name: String, handle: @escaping (Value) -> Void) {
            self.name = name
            self.handle = handle
        }

        func withState<R>(_ body: (inout State) -> R) -> R { condition.withLock { body(&state) } }

        func submit(_ value: Value) {
            condition.withLock {
                if state.pending != nil { state.skipped += 1 }
                state.pending = value
                condition.signal()
            }
        }

        func drain(until deadline: Date) {
            condition.withLock {
                while state.running && (state.pending != nil || state.busy) {
                    if !condition.wait(until: deadline) { break }
                }
            }
        }

        func stop() {
            condition.withLock {
                state.running = false
                condition.broadcast()
            }
        }

        func loop() {
            BackgroundThread.nameCurrent(name)
            BackgroundThread.lowerCurrentPriority()
            while true {
                condition.lock()
                while state.running && state.pending == nil { condition.wait() }
                guard state.running, let value = state.pending else {
                    condition.unlock()
                    return
                }
                state.pending = nil
                state.busy = true
                condition.unlock()
                BackgroundThread.waitForFrameEnd(limitNanoseconds: gateLimitNanoseconds)
                handle(value)
                condition.withLock {
                    state.busy = false
                    condition.broadcast()
                }
            }
        }
    }
}
