import Foundation
import Testing
@testable import HeritageCore

@Suite struct RANSACBudgetTests {
    /// 12 right pairs of 40: a sample of four is all right with probability
    /// 12·11·10·9 / (40·39·38·37) = 0.00542, so 976 samples find one 99.5 % of the time.
    @Test func matchesTheHypergeometricCount() {
        #expect(RANSACBudget.samples(toFind: 12, among: 40) == 976)
        #expect(RANSACBudget.samples(toFind: 12, among: 20) == 50)
    }

    @Test func fewerRightPairsNeedMoreSamplesUpToTheLimit() {
        let counts = [14, 20, 40, 80, 400].map { RANSACBudget.samples(toFind: 12, among: $0) }
        #expect(counts == counts.sorted())
        #expect(counts.last == 2000)
        #expect(RANSACBudget.samples(toFind: 12, among: 12) == 1)
    }

    @Test func noModelCanHaveMoreInliersThanPairs() {
        #expect(RANSACBudget.samples(toFind: 12, among: 11) == 0)
        #expect(RANSACBudget.samples(toFind: 3, among: 30) == 0)
    }

    /// The count holds what it says: drawn at random, that many samples find an all-right one
    /// about 99.5 % of the time.
    @Test func theBudgetFindsAnAllRightSampleAsOftenAsPromised() {
        var rng = SplitMix64(seed: 3)
        let pairs = 30, right = 12
        let budget = RANSACBudget.samples(toFind: right, among: pairs)
        var found = 0
        let trials = 3000
        for _ in 0..<trials {
            var hit = false
            for _ in 0..<budget where !hit {
                var picked = Set<Int>()
                while picked.count < 4 { picked.insert(Int(rng.next() % UInt64(pairs))) }
                hit = picked.allSatisfy { $0 < right }
            }
            if hit { found += 1 }
        }
        let rate = Double(found) / Double(trials)
        #expect(rate > 0.99 && rate < 0.999, "rate \(rate)")
    }
}
