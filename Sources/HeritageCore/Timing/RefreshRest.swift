/// How long live refresh searches wait after one lands, so that on a slow core they do not run
/// back to back.
///
/// A refresh (a search for new faces or cards while some are tracked) that took n frames to land
/// is followed by none for `share` × n frames: refreshes take at most 1 / (1 + `share`) of the idle
/// time. A core fast enough to search within a few frames never reaches its refresh interval this
/// way. On a quarter of a core, back-to-back refreshes left no idle CPU at all, and frames then
/// waited for CPU quota that detection had already used rather than on their own work
/// (docs/performance.md, "A slower core"). Inline results land on their own frame (n = 0), so
/// `process` is unaffected.
public struct RefreshRest: Sendable {
    public var share: Double
    /// The share while a face or card has just come into view (`holdsBack(..., settling:)`), after
    /// a search that landed within `settlingWithin` frames: who comes with it is found within the
    /// time a new one is given. Only on a core that fast: where searches land later, half the idle
    /// time would leave frames short of CPU, and searches that slow cannot come every few frames.
    public var settlingShare: Double
    public var settlingWithin: Int
    private var landed = Int.min
    private var took = 0

    public init(share: Double, settlingShare: Double? = nil, settlingWithin: Int = 0) {
        self.share = share
        self.settlingShare = settlingShare ?? share
        self.settlingWithin = settlingWithin
    }

    /// A search handed out at frame `submitted` was taken in at frame `landed`.
    public mutating func searchLanded(submitted: Int, landed: Int) {
        self.landed = landed
        took = max(0, landed - submitted)
    }

    /// Whether a refresh due at `frame` waits. A first search (nothing tracked) and one asked for
    /// at once (a cut, a lost track) never do.
    public func holdsBack(at frame: Int, tracking: Bool, requested: Bool, settling: Bool = false) -> Bool {
        guard tracking, !requested, landed != Int.min else { return false }
        let quick = settling && took <= settlingWithin
        return frame < landed + Int((Double(took) * (quick ? settlingShare : share)).rounded(.up))
    }
}
