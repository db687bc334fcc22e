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

    @Test func stepsDownAtOnceWhenHighCannotHoldTheBudget() {
        var g = TierGovernor(options: .init(budgetMilliseconds: 33))
        let tiers = run(&g, frames: 200, high: 40, low: 12)
        #expect(tiers[0] == .high)
        #expect(tiers[1] == .low)
        // It tries high again only when low + the high tier's known extra fits: 12 + 28 > 0.75 x 33.
        #expect(tiers.dropFirst().allSatisfy { $0 == .low })
    }

    @Test func returnsToHighWhenTheLoadDropsWithoutFlapping() {
        var g = TierGovernor(options: .init(budgetMilliseconds: 33, upAfterFrames: 45))
        // High costs 15, low 8; 25 ms of injected load pushes high over budget.
        let loaded = run(&g, frames: 100, high: 15, low: 8, load: 25)
        #expect(loaded.filter { $0 == .high }.count == 1)
        let relieved = run(&g, frames: 200, high: 15, low: 8)
        let firstHigh = relieved.firstIndex(of: .high)!
        #expect(firstHigh == 45)
        #expect(relieved[firstHigh...].allSatisfy { $0 == .high })
        var switches = 0
        for (a, b) in zip(loaded + relieved, (loaded + relieved).dropFirst()) where a != b { switches += 1 }
        #expect(switches == 2)
    }

    @Test func aBorderlineMachineDoesNotFlap() {
        var g = TierGovernor(options: .init(budgetMilliseconds: 33))
        // High just over budget, low comfortably under: one step down, never back up.
        let tiers = run(&g, frames: 500, high: 34, low: 20)
        var switches = 0
        for (a, b) in zip(tiers, tiers.dropFirst()) where a != b { switches += 1 }
        #expect(switches == 1)
    }

    @Test func switchesAreReportedAsFromTo() {
        var g = TierGovernor(options: .init(budgetMilliseconds: 10))
        let change = g.record(milliseconds: 20, renderedAt: .high)
        #expect(change?.from == .high && change?.to == .low)
    }
}
