import Testing
@testable import HeritageLens

/// A skipped frame does not stretch the period a live frame waits by.
struct FramePeriodEstimateTests {
    @Test func noGapNoPeriod() {
        var estimate = FramePeriodEstimate()
        #expect(estimate.period == nil)
        estimate.record(gap: 0)
        estimate.record(gap: -0.01)
        #expect(estimate.period == nil)
    }

    @Test func aSkippedFramesDoubleGapIsNotThePeriod() {
        var estimate = FramePeriodEstimate()
        for _ in 0..<5 { estimate.record(gap: 1.0 / 30) }
        estimate.record(gap: 2.0 / 30)
        #expect(estimate.period == 1.0 / 30)
    }

    @Test func aRunThatStartsWithASkipFindsThePeriodOnTheNextFrame() {
        var estimate = FramePeriodEstimate()
        estimate.record(gap: 3.0 / 30)
        #expect(estimate.period == 3.0 / 30)
        estimate.record(gap: 1.0 / 30)
        #expect(estimate.period == 1.0 / 30)
    }

    @Test func aCameraThatSlowsDownIsFollowedWithinTheWindow() {
        var estimate = FramePeriodEstimate(window: 4)
        for _ in 0..<4 { estimate.record(gap: 1.0 / 30) }
        for _ in 0..<3 { estimate.record(gap: 1.0 / 15) }
        #expect(estimate.period == 1.0 / 30)
        estimate.record(gap: 1.0 / 15)
        #expect(estimate.period == 1.0 / 15)
    }
}
