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
    /// CPU it got.
    func spinningWorker(started: StartFlag = StartFlag()) throws -> IdleTimeWorker<Double, (startedAt: UInt64, cpuMilliseconds: Double)> {
        let picture = try Image(width: 640, height: 480)
        try picture.fill(blue: 40, green: 120, red: 200)
        let small = Image()
        return IdleTimeWorker(name: "gate test", background: true) { _, _, milliseconds in
            started.set()
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
        // The job must be running when the frame begins (a loaded machine can take a while to
        // give the nice-10 worker the core), or it is held at its start instead of paused.
        #expect(started.wait(seconds: 5))
        usleep(5_000)
        FrameGate.frameBegan()
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
        let submittedAt = clock.nanoseconds()
        try worker.submit(1, on: try tinyGray(), frameIndex: 0)
        usleep(25_000)
        let endedAt = clock.nanoseconds()
        FrameGate.frameEnded()
        let done = try result(of: worker)
        // A frame longer than the gate's 40 ms limit (a loaded machine can stretch the 25 ms sleep)
        // lets the job start inside it, by design; before the limit it must not.
        let waited = Double(done.startedAt &- submittedAt) / 1e6
        #expect(done.startedAt >= endedAt || waited >= 39, "started \(waited) ms after submission, inside the frame")
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

/// Set by a test job when it starts; waited for by the test thread (`condition` guards `isSet`).
final class StartFlag: @unchecked Sendable {
    private let condition = NSCondition()
    private var isSet = false

    func set() {
        condition.withLock {
            isSet = true
            condition.broadcast()
        }
    }

    func wait(seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        return condition.withLock {
            while !isSet { if !condition.wait(until: deadline) { break } }
            return isSet
        }
    }
}
