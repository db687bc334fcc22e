/// Decides when face detection runs, by frame count: a full search for new faces, and a check of
/// each track against the detector (so a track that slid onto the background is dropped).
///
/// Counting frames rather than time keeps `process` deterministic; the live path runs the same
/// jobs on a background thread in idle time.
public struct DetectionSchedule: Sendable {
    public struct Options: Hashable, Sendable {
        /// Frames between full searches while no face is tracked.
        public var searchInterval = 2
        /// Frames between full searches while faces are tracked (to find new ones).
        public var refreshInterval = 15
        /// Frames between re-detections around each track.
        public var verifyInterval = 10
        /// Frames between full searches while faces are tracked and the frame away from them has
        /// not changed since the last search (a new face would have changed it).
        public var quietRefreshInterval = 45
        /// Frames between full searches in the `settlingFrames` after a face came into view: who
        /// comes with it (a second face a step behind in the same picture, the third of three
        /// small ones the first search missed) is found within the 150 ms a new face is given,
        /// not at the next refresh half a second later. Whatever the change meter says: a face
        /// beside the new one is inside the region it leaves out as the new face's own motion.
        public var settlingInterval = 3
        public var settlingFrames = 30

        public init(searchInterval: Int = 2, refreshInterval: Int = 15, verifyInterval: Int = 10,
                    quietRefreshInterval: Int = 45, settlingInterval: Int = 3, settlingFrames: Int = 30) {
            self.searchInterval = searchInterval
            self.refreshInterval = refreshInterval
            self.verifyInterval = verifyInterval
            self.quietRefreshInterval = quietRefreshInterval
            self.settlingInterval = settlingInterval
            self.settlingFrames = settlingFrames
        }
    }

    public var options: Options
    private var lastSearch: Int?
    private var searchRequested = false
    private var settlingUntil: Int?
    private var lastVerify: [Int: Int] = [:]

    public init(options: Options = Options()) {
        self.options = options
    }

    /// Whether a full-frame search is due at `frame` given how many faces are tracked.
    /// `sceneChanged` is asked only when a refresh is due: false stretches it to the quiet interval.
    public mutating func searchDue(at frame: Int, trackedFaces: Int, sceneChanged: () -> Bool = { true }) -> Bool {
        var interval = trackedFaces == 0 ? options.searchInterval : options.refreshInterval
        if trackedFaces > 0, !searchRequested, let last = lastSearch {
            let since = frame - last
            if let until = settlingUntil, frame < until {
                interval = min(interval, options.settlingInterval)
            } else if since >= interval, since < options.quietRefreshInterval, !sceneChanged() {
                interval = options.quietRefreshInterval
            }
        }
        if searchRequested {
            searchRequested = false
            lastSearch = frame
            return true
        }
        guard let last = lastSearch else {
            lastSearch = frame
            return true
        }
        if frame - last >= interval {
            lastSearch = frame
            return true
        }
        return false
    }

    /// A search was asked for (`searchSoon`) and has not been handed out yet.
    public var searchIsRequested: Bool { searchRequested }

    /// Makes the next `searchDue` true whatever the interval: the scene was cut or a face was just
    /// lost, and whoever is there now should be found at once.
    public mutating func searchSoon() {
        searchRequested = true
    }

    /// A face was shown at `frame` for the first time, or again after it was lost: the searches
    /// keep the settling interval for `settlingFrames`.
    public mutating func faceCameIntoView(at frame: Int) {
        settlingUntil = frame + options.settlingFrames
    }

    /// Whether `frame` is within the `settlingFrames` after a face came into view.
    public func isSettling(at frame: Int) -> Bool {
        settlingUntil.map { frame < $0 } ?? false
    }

    /// Tracks (by id) whose re-detection is due at `frame`. A new id is due at once: a track
    /// started from a late detection or from a face half in the frame may sit off its face, and
    /// the detector's box shows where it should be.
    public mutating func verificationsDue(at frame: Int, trackIDs: [Int]) -> [Int] {
        var due: [Int] = []
        let live = Set(trackIDs)
        lastVerify = lastVerify.filter { live.contains($0.key) }
        for id in trackIDs {
            guard let last = lastVerify[id] else {
                lastVerify[id] = frame
                due.append(id)
                continue
            }
            if frame - last >= options.verifyInterval {
                lastVerify[id] = frame
                due.append(id)
            }
        }
        return due
    }
}
