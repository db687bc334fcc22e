/// The period a live source delivers frames at, from the gaps between the frames it delivered:
/// the shortest of the last few. A paced source that skips a late frame leaves a gap of two
/// periods or more, and a wait sized from that gap would hold the next frame past its own due
/// time; the shortest recent gap is the source's period again on the next frame, and follows a
/// camera that changes its rate within a few frames.
struct FramePeriodEstimate {
    /// How many recent gaps are kept.
    let window: Int
    private var gaps: [Double] = []
    private var next = 0

    init(window: Int = 8) {
        precondition(window > 0, "a period needs at least one gap")
        self.window = window
    }

    /// Takes the gap, in seconds, between a frame and the one delivered before it. A gap of zero
    /// or less (a source that repeats a time) says nothing about the period.
    mutating func record(gap: Double) {
        guard gap > 0, gap.isFinite else { return }
        if gaps.count < window {
            gaps.append(gap)
        } else {
            gaps[next] = gap
            next = (next + 1) % window
        }
    }

    /// The period in seconds; nil before any gap.
    var period: Double? { gaps.min() }
}
