import Testing
@testable import HeritageCore

@Suite struct OneEuroFilterTests {
    @Test func firstSamplePassesThrough() {
        var f = OneEuroFilter(options: .init(minCutoff: 1, beta: 0))
        #expect(f.filter(5, at: 0) == 5)
    }

    @Test func stillNoisySignalIsSmoothed() {
        var f = OneEuroFilter(options: .init(minCutoff: 1, beta: 0.5))
        var rng = SplitMixForTests(seed: 3)
        var rawSquares = 0.0, filteredSquares = 0.0
        for i in 0..<600 {
            let noise = rng.uniform() - 0.5
            let out = f.filter(10 + noise, at: Double(i) / 30)
            if i > 30 {
                rawSquares += noise * noise
                filteredSquares += (out - 10) * (out - 10)
            }
        }
        // At 1 Hz cutoff and 30 Hz sampling, white noise power drops by far more than 4x.
        #expect(filteredSquares < rawSquares / 4)
    }

    @Test func betaCutsLagOnFastMotion() {
        func lag(beta: Double) -> Double {
            var f = OneEuroFilter(options: .init(minCutoff: 1, beta: beta))
            var last = 0.0
            for i in 0..<60 { last = f.filter(Double(i) * 2, at: Double(i) / 30) }
            return 118 - last
        }
        // A plain low-pass filter lags a ramp by speed x tau: 60 units/s x 1/(2 pi 1 Hz) ≈ 9.5.
        #expect(abs(lag(beta: 0) - 60 / (2 * Double.pi)) < 0.5)
        #expect(lag(beta: 1) < lag(beta: 0) / 4)
    }

    /// A face turning back at 25 px a frame: the speed estimate still says "the other way", the
    /// cutoff drops and the output stays a pixel or more behind for two frames.
    @Test func aStepFasterThanThePassThroughSpeedIsNotHeldBack() {
        func output(passThrough: Double) -> [Double] {
            var f = OneEuroFilter(options: .init(minCutoff: 1.2, beta: 20, derivativeCutoff: 3, passThroughSpeed: passThrough))
            let there: [Double] = (0..<20).map { 25.0 * Double($0) }
            let back: [Double] = (1...5).map { 475 - 25.0 * Double($0) }
            var out: [Double] = []
            for (i, x) in (there + back).enumerated() { out.append(f.filter(x, at: Double(i) / 30, unit: 60)) }
            return out
        }
        let turned = Array(output(passThrough: 4.5).suffix(5)), held = Array(output(passThrough: .infinity).suffix(5))
        let truth: [Double] = (1...5).map { 475 - 25.0 * Double($0) }
        #expect(turned == truth)
        #expect(abs(held[0] - truth[0]) > 1)
        // A still face's jitter (a pixel a frame at 60 px between the eyes is 0.5 a second) is
        // smoothed as before.
        var a = OneEuroFilter(options: .init(minCutoff: 1.2, beta: 20, derivativeCutoff: 3, passThroughSpeed: 4.5))
        var b = OneEuroFilter(options: .init(minCutoff: 1.2, beta: 20, derivativeCutoff: 3))
        for i in 0..<60 {
            let x = 100 + (i % 2 == 0 ? 0.5 : -0.5)
            #expect(a.filter(x, at: Double(i) / 30, unit: 60) == b.filter(x, at: Double(i) / 30, unit: 60))
        }
    }

    @Test func smoothingFactorMatchesThePaper() {
        // alpha = 1 / (1 + tau / Te), tau = 1 / (2 pi fc)
        let a = OneEuroFilter.smoothingFactor(cutoff: 1, interval: 1.0 / 30)
        #expect(abs(a - 1 / (1 + (1 / (2 * Double.pi)) * 30)) < 1e-12)
    }

    @Test func repeatedTimestampDoesNotDivideByZero() {
        var f = OneEuroFilter(options: .init(minCutoff: 1, beta: 1))
        _ = f.filter(1, at: 1)
        let out = f.filter(2, at: 1)
        #expect(out.isFinite)
    }

    @Test func vectorFilterFiltersEachComponentIndependently() {
        var v = OneEuroVectorFilter(count: 2, options: .init(minCutoff: 1, beta: 0))
        _ = v.filter([0, 100], at: 0)
        let out = v.filter([1, 100], at: 1.0 / 30)
        #expect(out[1] == 100)
        #expect(out[0] > 0 && out[0] < 1)
    }
}

struct SplitMixForTests {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func uniform() -> Double {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Double((z ^ (z >> 31)) >> 11) / Double(1 << 53)
    }
}
