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

    /// A search that landed within `settlingWithin` frames rests once its time while settling
    /// (and five times otherwise); a slower one five times either way.
    @Test(arguments: [(landed: 12, settlingFreeFrom: 14), (landed: 18, settlingFreeFrom: 58)])
    func whileSettlingOnlyAQuickSearchRestsTheShorterShare(landed: Int, settlingFreeFrom: Int) {
        var rest = RefreshRest(share: 5, settlingShare: 1, settlingWithin: 3)
        rest.searchLanded(submitted: 10, landed: landed)
        #expect(rest.holdsBack(at: settlingFreeFrom - 1, tracking: true, requested: false, settling: true))
        #expect(!rest.holdsBack(at: settlingFreeFrom, tracking: true, requested: false, settling: true))
        let freeFrom = landed + 5 * (landed - 10)
        #expect(rest.holdsBack(at: freeFrom - 1, tracking: true, requested: false))
        #expect(!rest.holdsBack(at: freeFrom, tracking: true, requested: false))
    }
}
