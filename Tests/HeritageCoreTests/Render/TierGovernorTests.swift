import Testing
@testable import HeritageCore

@Suite struct TierGovernorTests {
    /// Frame times of a machine where the high tier costs `high` ms and the low tier `low` ms,
    /// plus `load` ms of injected load.
    func run(_ g: inout TierGovernor, frames: Int, high: Double, low: Double, load: Double = 0) -> [Tier] {
        var tiers: [Tier] = []
        for _ in 0..<frames {
            let tier = g.tier
            tiers.append(tier)
            _ = g.record(milliseconds: (tier == .high ? high : low) + load, renderedAt: tier)
        }
        return tiers
    }

    /// Frame times that repeat `pattern` (ms), at whichever tier the governor picks: `high` while
    /// high, `low` while low.
    func run(_ g: inout TierGovernor, frames: Int, high: [Double], low: [Double]) -> [Tier] {
        var tiers: [Tier] = []
        for i in 0..<frames {
            let tier = g.tier
            tiers.append(tier)
            let pattern = tier == .high ? high : low
            _ = g.record(milliseconds: pattern[i % pattern.count], renderedAt: tier)
        }
        return tiers
    }

    func switches(_ tiers: [Tier]) -> Int {
        zip(tiers, tiers.dropFirst()).filter { $0 != $1 }.count
    }

    @Test func stepsDownAtOnceWhenHighCannotHoldTheBudget() {
        var g = TierGovernor(options: .init(budgetMilliseconds: 33))
        let tiers = run(&g, frames: 200, high: 40, low: 12)
        #expect(tiers[0] == .high)
        #expect(tiers[1] == .low)
        // It tries high again only when low + the high tier's extra fits: 12 + 28 > 0.3 x 33.
        #expect(tiers.dropFirst().allSatisfy { $0 == .low })
    }

    /// A quarter of a current core, as `cpu-share 0.25 -- bench --tier high` measures the sample:
    /// no frame over budget, but one in four over 40 % of it. Low within a second, and it stays.
    @Test func stepsDownWithinASecondWhenHighLeavesTooLittleIdleTime() throws {
        var g = TierGovernor(options: .init(budgetMilliseconds: 33.3))
        let tiers = run(&g, frames: 900, high: [7, 9, 18, 6, 8, 22, 12, 5], low: [5, 4, 14, 5, 6, 9, 4, 5])
        let firstLow = try #require(tiers.firstIndex(of: .low))
        #expect(firstLow <= 30)
        #expect(tiers[firstLow...].allSatisfy { $0 == .low })
    }

    /// A current core (`bench --tier high`: 4-7 ms a frame, an odd 10) keeps high.
    @Test func aFastCoreStaysHigh() {
        var g = TierGovernor(options: .init(budgetMilliseconds: 33.3))
        let tiers = run(&g, frames: 900, high: [4, 4.3, 5, 4, 6, 4.2, 10, 4, 7, 4], low: [3])
        #expect(tiers.allSatisfy { $0 == .high })
    }

    @Test func returnsToHighWhenTheLoadDropsWithoutFlapping() throws {
        var g = TierGovernor(options: .init(budgetMilliseconds: 33, upAfterFrames: 90))
        // High costs 8, low 5; 30 ms of injected load pushes high over budget.
        let loaded = run(&g, frames: 100, high: 8, low: 5, load: 30)
        #expect(loaded.filter { $0 == .high }.count == 1)
        let relieved = run(&g, frames: 300, high: 8, low: 5)
        let firstHigh = try #require(relieved.firstIndex(of: .high))
        #expect(firstHigh == 90)
        #expect(relieved[firstHigh...].allSatisfy { $0 == .high })
        #expect(switches(loaded + relieved) == 2)
    }

    /// One slow frame on a fast core costs 90 frames of low, not the high tier for good: what high
    /// adds is measured on medians, not on that frame.
    @Test func oneSlowFrameDoesNotKeepItLow() {
        var g = TierGovernor(options: .init(budgetMilliseconds: 33.3))
        var high = [Double](repeating: 4.5, count: 300)
        high[9] = 45
        let tiers = run(&g, frames: 300, high: high, low: [3])
        #expect(switches(tiers) == 2)
        #expect(tiers.last == .high)
    }

    @Test func aBorderlineMachineDoesNotFlap() {
        // High just over budget, or often just over the busy share; low comfortably under the
        // budget: one step down, never back up.
        for (high, low) in [(34.0, 20.0), (14.0, 9.0)] {
            var g = TierGovernor(options: .init(budgetMilliseconds: 33))
            #expect(switches(run(&g, frames: 500, high: high, low: low)) == 1, "\(high) / \(low)")
        }
    }

    @Test func switchesAreReportedAsFromTo() {
        var g = TierGovernor(options: .init(budgetMilliseconds: 10))
        let change = g.record(milliseconds: 20, renderedAt: .high)
        #expect(change?.from == .high && change?.to == .low)
    }
}
