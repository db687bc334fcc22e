import Testing
@testable import HeritageLens

/// How long a weakly started track waits for the second detector: its frames run out at
/// `secondOpinionFrames` unless a third ask in its detector's boxes could still pass it.
struct SecondOpinionWaitTests {
    let options = FaceTracker.Options()

    func waits(asks: Int, agreements: Int, frames: Int) -> Bool {
        FaceTracker.waitsForAThirdBoxAsk(asks: asks, agreements: agreements, frames: frames, options: options)
    }

    @Test func oneAgreementInTwoAsksWaitsForTheThird() {
        #expect(waits(asks: 2, agreements: 1, frames: options.secondOpinionFrames))
        #expect(waits(asks: 1, agreements: 1, frames: options.secondOpinionFrames + 5))
    }

    @Test func noAgreementOrThreeAsksWaitNoLonger() {
        #expect(!waits(asks: 2, agreements: 0, frames: options.secondOpinionFrames))
        #expect(!waits(asks: 0, agreements: 0, frames: options.secondOpinionFrames))
        #expect(!waits(asks: 3, agreements: 1, frames: options.secondOpinionFrames))
    }

    @Test func theWaitEndsAtTwiceItsFrames() {
        #expect(!waits(asks: 2, agreements: 1, frames: 2 * options.secondOpinionFrames))
    }
}
