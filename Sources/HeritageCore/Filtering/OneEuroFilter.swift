/// The One Euro filter (Casiez, Roussel, Vogel, CHI 2012): a low-pass filter whose cutoff rises
/// with speed, so a still signal is smoothed hard (no jitter) and a fast one barely (no lag).
///
/// Values are in whatever unit the caller chooses; the trackers feed face-size-normalised units so
/// that one setting works for near and far faces.
public struct OneEuroFilter: Sendable {
    /// Filter settings, with the paper's names.
    public struct Options: Hashable, Sendable {
        /// Cutoff (Hz) at zero speed: lower = less jitter when still.
        public var minCutoff: Double = 1.0
        /// How fast the cutoff rises with speed: higher = less lag when moving.
        public var beta: Double = 0.0
        /// Cutoff (Hz) of the speed estimate itself.
        public var derivativeCutoff: Double = 1.0
        /// A sample this far from the last output per second (in `unit`s) passes through as it is.
        /// The speed estimate lags a sudden move (a face turning back), and the filter then holds
        /// the output where the motion was going: a step no jitter makes is motion, not noise.
        public var passThroughSpeed: Double = .infinity

        public init(minCutoff: Double = 1.0, beta: Double = 0.0, derivativeCutoff: Double = 1.0,
                    passThroughSpeed: Double = .infinity) {
            self.minCutoff = minCutoff
            self.beta = beta
            self.derivativeCutoff = derivativeCutoff
            self.passThroughSpeed = passThroughSpeed
        }
    }

    public var options: Options
    private var previous: Double?
    private var previousDerivative: Double = 0
    private var previousTime: Double?

    public init(options: Options = Options()) {
        self.options = options
    }

    static func smoothingFactor(cutoff: Double, interval: Double) -> Double {
        let tau = 1 / (2 * Double.pi * cutoff)
        return 1 / (1 + tau / interval)
    }

    /// Filters `value` sampled at `time` seconds; the first sample passes through unchanged.
    ///
    /// `unit` is the size the speed is measured against (a face's eye distance in pixels): the
    /// cutoff rises with speed in units per second, so one setting behaves the same for a near
    /// and a far face.
    public mutating func filter(_ value: Double, at time: Double, unit: Double = 1) -> Double {
        guard let last = previous, let lastTime = previousTime, time > lastTime else {
            if previous == nil {
                previous = value
                previousTime = time
                return value
            }
            // A repeated or older timestamp carries no new information about speed.
            return previous!
        }
        let dt = time - lastTime
        let derivative = (value - last) / dt
        let aD = Self.smoothingFactor(cutoff: options.derivativeCutoff, interval: dt)
        let smoothedDerivative = previousDerivative + aD * (derivative - previousDerivative)
        let cutoff = options.minCutoff + options.beta * abs(smoothedDerivative) / unit
        let a = abs(derivative) / unit >= options.passThroughSpeed ? 1 : Self.smoothingFactor(cutoff: cutoff, interval: dt)
        let result = last + a * (value - last)
        previous = result
        previousDerivative = smoothedDerivative
        previousTime = time
        return result
    }

    /// Forgets the history (the next sample passes through).
    public mutating func reset() {
        previous = nil
        previousTime = nil
        previousDerivative = 0
    }
}

/// One Euro filters over a fixed-length vector (landmark coordinates, pose components).
public struct OneEuroVectorFilter: Sendable {
    private var filters: [OneEuroFilter]

    public init(count: Int, options: OneEuroFilter.Options) {
        filters = Array(repeating: OneEuroFilter(options: options), count: count)
    }

    public var count: Int { filters.count }

    public mutating func filter(_ values: [Double], at time: Double, unit: Double = 1) -> [Double] {
        precondition(values.count == filters.count, "vector length changed")
        var out = values
        for i in values.indices { out[i] = filters[i].filter(values[i], at: time, unit: unit) }
        return out
    }

    public mutating func reset() {
        for i in filters.indices { filters[i].reset() }
    }
}
