import Testing
@testable import HeritageCore

/// A clock the test moves by hand.
final class ManualClock: MonotonicClock, @unchecked Sendable {
    var now: UInt64 = 1_000_000_000
    func nanoseconds() -> UInt64 { now }
    func advance(milliseconds: Double) { now += UInt64(milliseconds * 1e6) }
}

@Suite struct StageTimerTests {
    @Test func stagesAreMeasuredBetweenMarksFromTheFramesArrival() {
        let clock = ManualClock()
        let arrived = clock.now
        clock.advance(milliseconds: 2)  // the frame waited 2 ms before the pipeline took it
        var timer = StageTimer(clock: clock, availableAt: arrived)
        clock.advance(milliseconds: 1)
        timer.mark("capture")
        clock.advance(milliseconds: 4)
        timer.mark("faces")
        #expect(timer.stages.map(\.name) == ["capture", "faces"])
        #expect(abs(timer.stages[0].milliseconds - 3) < 1e-9)
        #expect(abs(timer.stages[1].milliseconds - 4) < 1e-9)
        #expect(abs(timer.elapsedMilliseconds - 7) < 1e-9)
    }

    @Test func metricsLineCarriesStagesAndEvents() {
        let line = FrameMetrics(frame: 2, time: 0.0667, tier: "low", totalMilliseconds: 4.2104,
                                stages: [("capture", 0.35), ("faces", 2.1)], events: [("tier_switch", "high->low")])
            .jsonLine
        #expect(line == #"{"frame":2,"t":0.0667,"tier":"low","total_ms":4.21,"stages":{"capture":0.35,"faces":2.1},"tier_switch":"high->low"}"#)
    }
}
