import Testing
@testable import HeritageCore

@Suite struct PercentilesTests {
    @Test func nearestRankOnOneToHundred() {
        let p = Percentiles((1...100).map(Double.init).shuffled())
        #expect(p.median == 50)
        #expect(p.value(at: 95) == 95)
        #expect(p.value(at: 99) == 99)
        #expect(p.value(at: 100) == 100)
        #expect(p.maximum == 100)
        #expect(p.mean == 50.5)
    }

    @Test func smallSamplesAndEdges() {
        #expect(Percentiles([7]).value(at: 99) == 7)
        #expect(Percentiles([1, 2]).median == 1)
        #expect(Percentiles([Double]()).median == nil)
        #expect(Percentiles([3, .nan, 1]).count == 2)
        #expect(Percentiles([5, 1, 9]).value(at: 0) == 1)
    }

    @Test func summaryAndRatios() throws {
        let a = try #require(LatencySummary((1...100).map(Double.init)))
        let b = try #require(LatencySummary((1...100).map { Double($0) * 2 }))
        #expect(a.p99 == 99 && a.max == 100 && a.count == 100)
        let r = b.ratio(to: a)
        #expect(r.p50 == 2 && r.p99 == 2 && r.max == 2 && r.mean == 2)
        #expect(LatencySummary([]) == nil)
    }
}
