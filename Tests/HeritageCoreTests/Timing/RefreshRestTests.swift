import HeritageCore
import Testing

@Suite struct RefreshRestTests {
    @Test func aSearchThatTookNFramesHoldsRefreshesBackForShareTimesN() {
        var rest = RefreshRest(share: 2)
        rest.searchLanded(submitted: 0, landed: 12)
        #expect(rest.holdsBack(at: 35, tracking: true, requested: false))
        #expect(!rest.holdsBack(at: 36, tracking: true, requested: false))
    }

    @Test func firstSearchesAndRequestedOnesAreNeverHeldBack() {
        var rest = RefreshRest(share: 2)
        rest.searchLanded(submitted: 0, landed: 12)
        #expect(!rest.holdsBack(at: 20, tracking: false, requested: false))
        #expect(!rest.holdsBack(at: 20, tracking: true, requested: true))
    }

    @Test func aResultOnItsOwnFrameHoldsNothingBack() {
        var rest = RefreshRest(share: 2)
        rest.searchLanded(submitted: 30, landed: 30)
        #expect(!rest.holdsBack(at: 30, tracking: true, requested: false))
    }
}
