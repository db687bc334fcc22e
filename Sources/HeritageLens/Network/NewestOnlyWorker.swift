import Foundation

/// A thread that handles values one at a time, always the newest: a value submitted while an
/// older one still waits replaces it (counted in `skipped`), so a slow consumer lags by at most
/// one value and never queues. The thread runs at background priority and starts each value
/// only once the frame in progress has ended (the frame gate), so it uses the time between frames.
// State shared with the thread is guarded by `condition`.
public final class NewestOnlyWorker<Value>: @unchecked Sendable {
    private let handle: (Value) -> Void
    private let condition = NSCondition()
    private var pending: Value?
    private var running = true
    private var busy = false
    private var skippedCount = 0
    private var thread: Thread?
    /// Signalled by the thread as it ends: `finish` joins it.
    private let exited = DispatchSemaphore(value: 0)
    /// Longest a value waits for a frame to end before it is handled anyway.
    private let gateLimitNanoseconds: Int64 = 20_000_000

    public init(name: String, handle: @escaping (Value) -> Void) {
        self.handle = handle
        let exited = self.exited
        let t = Thread { [weak self] in
            self?.loop()
            exited.signal()
        }
        t.name = name
        thread = t
        t.start()
    }

    deinit { finish() }

    /// Values replaced before the thread got to them.
    public var skipped: Int { condition.withLock { skippedCount } }

    public func submit(_ value: Value) {
        condition.withLock {
            if pending != nil { skippedCount += 1 }
            pending = value
            condition.signal()
        }
    }

    /// Waits until nothing is pending or being handled (tests, the end of a run).
    public func drain(timeoutSeconds: Double = 5) {
        let deadline = Date().addingTimeInterval(timeoutSeconds)
        condition.withLock {
            while running && (pending != nil || busy) {
                if !condition.wait(until: deadline) { break }
            }
        }
    }

    private func loop() {
        BackgroundThread.lowerCurrentPriority()
        while true {
            condition.lock()
            while running && pending == nil { condition.wait() }
            guard running, let value = pending else {
                condition.unlock()
                return
            }
            pending = nil
            busy = true
            condition.unlock()
            BackgroundThread.waitForFrameEnd(limitNanoseconds: gateLimitNanoseconds)
            handle(value)
            condition.withLock {
                busy = false
                condition.broadcast()
            }
        }
    }

    /// Stops the thread after the value it is handling; a pending one is dropped.
    public func finish() {
        condition.withLock {
            running = false
            condition.broadcast()
        }
        if thread != nil { exited.wait() }
        thread = nil
    }
}
