import Foundation
import HeritageCore
import Testing
@testable import HeritageLens

/// The gate is process-wide; pipelines of other suites running at the same time can only hold
/// background work longer, so these tests bound the waits from below, never from above.
@Suite(.serialized) struct FrameGateTests {
    let clock = SystemClock()

    /// Background work that spends `milliseconds` of wall time in OpenCV's image code, as
    /// detection does (where the gate may pause it), and reports when it started and how much
    /// CPU it got. `started` is set as it starts.
    func spinningWorker(started: StartFlag? = nil) throws -> IdleTimeWorker<Double, (startedAt: UInt64, cpuMilliseconds: Double)> {
        let picture = try Image(width: 640, height: 480)
        try picture.fill(blue: 40, green: 120, red: 200)
        let small = Image()
        return IdleTimeWorker(name: "gate test", background: true) { _, _, milliseconds in
            started?.set()
            let clock = SystemClock()
            let start = clock.nanoseconds()
            let cpu = threadCPUNanoseconds()
            while Double(clock.nanoseconds() - start) / 1e6 < milliseconds {
                try picture.resize(into: small, width: 317, height: 233, interpolation: .area)
            }
            return (start, Double(threadCPUNanoseconds() - cpu) / 1e6)
        }
    }

    func result<J, O>(of worker: IdleTimeWorker<J, O>, within seconds: Double = 5) throws -> O {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if let done = worker.collect().first { return done.output }
            usleep(2_000)
        }
        throw CancellationError()
    }

    /// Polls `condition` for up to two seconds.
    func waitUntil(_ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(2)
        while !condition() && Date() < deadline { usleep(500) }
        return condition()
    }

    final class StartFlag: @unchecked Sendable {
        private let lock = NSLock()
        private var value = false
        var isSet: Bool { lock.withLock { value } }
        func set() { lock.withLock { value = true } }
    }

    func tinyGray() throws -> Image {
        let gray = try Image(width: 8, height: 8, channels: 1)
        try gray.fill(blue: 0, green: 0, red: 0)
        return gray
    }

    @Test func aRunningJobHoldsStillWhileAFrameIsInProgress() throws {
        let started = StartFlag()
        let worker = try spinningWorker(started: started)
        defer { worker.finish() }
        let pausesBefore = FrameGate.pauses
        try worker.submit(60, on: try tinyGray(), frameIndex: 0)
        // On a busy machine (other tests' programs running) the nice-10 worker may get no CPU for
        // a while: the frame begins once the job runs, and lasts until the job has been held.
        #expect(waitUntil { started.isSet })
        FrameGate.frameBegan()
        #expect(waitUntil { FrameGate.pauses > pausesBefore })
        usleep(15_000)
        FrameGate.stageEnded()
        usleep(15_000)
        FrameGate.frameEnded()
        let done = try result(of: worker)
        #expect(FrameGate.pauses > pausesBefore)
        // 60 ms of wall time with 30 of them inside the frame: without the gate the thread would
        // have spun for all 60 (the test thread sleeps; on two cores it has one of its own).
        #expect(done.cpuMilliseconds < 48, "the job got \(done.cpuMilliseconds) ms of CPU through a 30 ms frame")
    }

    @Test func aJobDueDuringAFrameStartsAfterIt() throws {
        let worker = try spinningWorker()
        defer { worker.finish() }
        FrameGate.frameBegan()
        try worker.submit(1, on: try tinyGray(), frameIndex: 0)
        usleep(25_000)
        let endedAt = clock.nanoseconds()
        FrameGate.frameEnded()
        let done = try result(of: worker)
        #expect(done.startedAt >= endedAt)
    }

    @Test func anAnnouncedFrameQuietsBackgroundWorkUntilItIsDue() throws {
        let worker = try spinningWorker()
        defer { worker.finish() }
        let announcedAt = clock.nanoseconds()
        FrameGate.frameExpected(in: 15_000_000)
        try worker.submit(1, on: try tinyGray(), frameIndex: 0)
        let done = try result(of: worker)
        let waited = Double(done.startedAt - announcedAt) / 1e6
        #expect(waited >= 14, "started \(waited) ms after the announcement of a frame due in 15 ms")
    }
}
