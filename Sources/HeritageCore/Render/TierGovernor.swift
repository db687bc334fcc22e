/// Picks the quality tier from measured frame times against a frame budget.
///
/// Steps down at once when a high-tier frame goes over budget; steps back up only after
/// `upAfterFrames` consecutive low-tier frames whose time, plus what the high tier was last seen to
/// add, stays under `upMargin` of the budget. The asymmetry is what keeps it from flapping: one slow
/// frame costs one frame of high quality, but going back up needs a sustained margin.
public struct TierGovernor: Sendable {
    public struct Options: Hashable, Sendable {
        /// The frame budget in milliseconds (one frame period by default: 33.3 at 30 fps).
        public var budgetMilliseconds: Double
        /// Share of the budget the predicted high-tier time must stay under to step up.
        public var upMargin = 0.75
        /// Consecutive frames of margin needed to step up.
        public var upAfterFrames = 45

        public init(budgetMilliseconds: Double, upMargin: Double = 0.75, upAfterFrames: Int = 45) {
            self.budgetMilliseconds = budgetMilliseconds
            self.upMargin = upMargin
            self.upAfterFrames = upAfterFrames
        }
    }

    public let options: Options
    public private(set) var tier: Tier = .high
    private var marginFrames = 0
    /// What the high tier adds over the low one (ms): the last high frame against the low frame
    /// right after it, so both were measured under the same load.
    private var highExtra: Double?
    private var lastHigh: Double?

    public init(options: Options) {
        self.options = options
    }

    /// Records a finished frame's end-to-end time at `tier`; returns the switch, if any, as
    /// (from, to), and the tier to use next.
    public mutating func record(milliseconds: Double, renderedAt frameTier: Tier) -> (from: Tier, to: Tier)? {
        switch frameTier {
        case .high:
            lastHigh = milliseconds
        case .low:
            if let h = lastHigh { highExtra = max(0, h - milliseconds) }
            lastHigh = nil
        }
        switch tier {
        case .high:
            if milliseconds > options.budgetMilliseconds {
                tier = .low
                marginFrames = 0
                return (.high, .low)
            }
        case .low:
            let predicted = milliseconds + (highExtra ?? 0)
            if predicted < options.budgetMilliseconds * options.upMargin {
                marginFrames += 1
                if marginFrames >= options.upAfterFrames {
                    tier = .high
                    marginFrames = 0
                    return (.low, .high)
                }
            } else {
                marginFrames = 0
            }
        }
        return nil
    }
}
