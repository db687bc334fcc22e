/// Picks the quality tier from measured frame times against a frame budget.
///
/// High is kept only while it leaves the core room: detection runs in the time between frames, and
/// a frame path that takes most of the period starves it even when no frame is late. So the
/// governor steps down at once when a high-tier frame goes over budget, and also when
/// `busyFrames` of the last `window` high-tier frames took more than `busyShare` of it (a core
/// four times slower than a current one shows that within a second; a current one never does on
/// the sample). It steps back up only after `upAfterFrames` consecutive low-tier frames whose time,
/// plus what the high tier was seen to add, stays under `upShare` of the budget. The gap between
/// the two thresholds and the long run needed to go up are what keep it from flapping.
public struct TierGovernor: Sendable {
    public struct Options: Hashable, Sendable {
        /// The frame budget in milliseconds (one frame period by default: 33.3 at 30 fps).
        public var budgetMilliseconds: Double
        /// A high-tier frame over this share of the budget counts as busy.
        public var busyShare = 0.4
        /// Busy frames among the last `window` high-tier frames that step down.
        public var busyFrames = 3
        public var window = 15
        /// Share of the budget the predicted high-tier time must stay under to step up.
        public var upShare = 0.3
        /// Consecutive frames of margin needed to step up.
        public var upAfterFrames = 90

        public init(budgetMilliseconds: Double, busyShare: Double = 0.4, busyFrames: Int = 3, window: Int = 15,
                    upShare: Double = 0.3, upAfterFrames: Int = 90) {
            self.budgetMilliseconds = budgetMilliseconds
            self.busyShare = busyShare
            self.busyFrames = busyFrames
            self.window = window
            self.upShare = upShare
            self.upAfterFrames = upAfterFrames
        }
    }

    public let options: Options
    public private(set) var tier: Tier = .high
    private var marginFrames = 0
    /// The last `window` high-tier frame times.
    private var recentHigh: [Double] = []
    /// The first low-tier frame times after a step down, under the load the last high ones saw.
    private var firstLow: [Double] = []
    /// What the high tier adds over the low one (ms): the median of the last high frames against
    /// the median of the first low frames after them, so one slow frame does not set it.
    private var highExtra: Double?

    /// Frames on each side of a switch that measure what the high tier adds.
    static let extraFrames = 5

    public init(options: Options) {
        self.options = options
    }

    /// Records a finished frame's end-to-end time at `tier`; returns the switch, if any, as
    /// (from, to), and the tier to use next.
    public mutating func record(milliseconds: Double, renderedAt frameTier: Tier) -> (from: Tier, to: Tier)? {
        switch frameTier {
        case .high:
            recentHigh.append(milliseconds)
            if recentHigh.count > options.window { recentHigh.removeFirst(recentHigh.count - options.window) }
        case .low:
            if firstLow.count < Self.extraFrames {
                firstLow.append(milliseconds)
                if let high = Self.median(recentHigh.suffix(Self.extraFrames)), let low = Self.median(firstLow[...]) {
                    highExtra = max(0, high - low)
                }
            }
        }
        switch tier {
        case .high:
            let busy = recentHigh.filter { $0 > options.budgetMilliseconds * options.busyShare }.count
            if milliseconds > options.budgetMilliseconds || busy >= options.busyFrames {
                tier = .low
                marginFrames = 0
                firstLow = []
                return (.high, .low)
            }
        case .low:
            let predicted = milliseconds + (highExtra ?? 0)
            if predicted < options.budgetMilliseconds * options.upShare {
                marginFrames += 1
                if marginFrames >= options.upAfterFrames {
                    tier = .high
                    marginFrames = 0
                    recentHigh = []
                    return (.low, .high)
                }
            } else {
                marginFrames = 0
            }
        }
        return nil
    }

    static func median(_ values: ArraySlice<Double>) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        return sorted[sorted.count / 2]
    }
}
