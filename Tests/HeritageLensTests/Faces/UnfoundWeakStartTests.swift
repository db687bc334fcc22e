import Testing
@testable import HeritageLens

/// Whether a published weak start that no detection has found again is kept at its drop: the
/// counts are the traces of held-out rows (docs/faces.md, Kept while the cascade agrees).
struct UnfoundWeakStartTests {
    let options = FaceTracker.Options()

    func kept(fits: Int, agreements: Int, warmFits: Int) -> Bool {
        FaceTracker.keepsUnfound(fits: fits, agreements: agreements, warmFits: warmFits, options: options)
    }

    @Test func aNoisyOrDarkFaceTheCascadeKeepsAgreeingWithIsKept() {
        #expect(kept(fits: 19, agreements: 10, warmFits: 19))  // seed 610's noise-defocus
        #expect(kept(fits: 21, agreements: 16, warmFits: 21))  // seed 635's gamma-2.2
    }

    @Test func grayGravelOrAPosterTheCascadeSeldomAgreesWithIsDropped() {
        #expect(!kept(fits: 20, agreements: 17, warmFits: 0))  // seed 466's gravel
        #expect(!kept(fits: 18, agreements: 2, warmFits: 18))  // seed 449's poster
    }

    @Test func tooFewFitsKeepNothing() {
        #expect(!kept(fits: options.weakStartKeptFits - 1, agreements: 5, warmFits: 5))
    }
}
