import HeritageCore
import Logging

/// Cards from frame to frame: recognition finds them, optical flow follows them.
///
/// Each tracked card's reference points are carried into the new frame by pyramidal Lucas-Kanade
/// from where its homography put them in the previous frame, and a RANSAC homography from the
/// reference to the moved points becomes the card's new pose in the image: partly occluded or
/// partly out-of-frame cards keep the points that are still seen. Because every frame's model is
/// fitted from the reference (not chained from frame to frame) and full recognition re-runs
/// every `refreshInterval` frames to correct the result against the reference, the track does
/// not drift. Recognition runs through an `IdleTimeWorker`: inline in `process`, in idle time live.
public final class CardTracker {
    public struct Options {
        /// Frames between recognitions when no card is tracked.
        public var searchInterval = 3
        /// Frames between recognitions while cards are tracked (new cards, drift correction).
        public var refreshInterval = 10
        /// Inline (`process`), after the first `warmUpFrames`: while the frame away from tracked
        /// faces and cards has not changed since the last recognition (fewer than
        /// `changedCellsForSearch` cells of a `RegionChangeMeter`), recognition waits up to these
        /// intervals instead. A card that comes into view changes the cells it covers, so it is
        /// still looked for within `searchInterval`; a still scene is not searched again and again.
        public var quietSearchInterval = 90
        public var quietRefreshInterval = 30
        public var changedCellsForSearch = 6
        public var warmUpFrames = 15
        /// Failed flow updates in a row that lose a card.
        public var maximumMisses = 2
        /// Correlation below which a tracked card is taken to have slid off the card.
        public var minimumCorrelation = 0.4
        /// Frames between photometric checks of each track.
        public var checkInterval = 1
        /// Flow steps a late recognition's cards are brought forward by in one frame (each a
        /// frame of the trail): above one, they catch up with the present.
        public var catchUpSteps = 3
        /// In the low tier, the scale of the copy a tracked card is aligned with its reference on
        /// each frame (frame pixels to its pixels): at half size the alignment costs about half
        /// and the corners stay sub-pixel (median 0.4 px against 0.2 in `eval-cards`).
        /// Recognition, the photometric check and the frame-to-frame fallback stay at full size.
        public var lowTierAlignmentScale = 0.5
        /// Live, while cards are tracked: a recognition that took n frames to land is followed by
        /// none for `restShare` × n frames (`RefreshRest`), so refreshes take at most a sixth of
        /// the idle time. At full speed a recognition lands a frame after it starts, and the
        /// rest ends before the refresh interval does.
        public var restShare = 5.0
        /// Corner smoothing; beta is per tenth of the card's width per second.
        public var smoothing = OneEuroFilter.Options(minCutoff: 2.0, beta: 10.0, derivativeCutoff: 1.0)

        public init() {}
    }

    struct Track {
        let cardIndex: Int
        var homography: Homography
        var misses = 0
        var smoother: AnchorSmoother
        var corners: [Point2] = []
        var visible = true
    }

    public let cards: CardSet
    public let options: Options
    private let view: RectangleView?
    private let worker: IdleTimeWorker<[TrackedCard], [CardDetection]>
    /// Live only: the frames since the pending recognition's, for its result to catch up along.
    private let trail: CardTrail?
    private var awaitingRecognition = false
    private var catchUps: [CatchUp] = []
    private let quad = CardQuad()
    private var tracks: [Track] = []
    private var lastSearch: Int?
    private var rest: RefreshRest
    /// Inline only: what changed since the last recognition (nil live, where the idle time decides).
    private let changeMeter: RegionChangeMeter?
    /// A card was just lost: look again at once, whatever the meter says.
    private var searchRequested = false
    /// The last recognition found a card not tracked before: cards come in sets, and one
    /// recognition among several cards can miss some (each gets a share of the frame's features),
    /// so the next looks again after `searchInterval` rather than `refreshInterval`.
    private var foundNewCard = false
    private var previousGray: Image?
    private var spareGray = Image()
    private let scratch = Image()
    private let rendered = Image()
    /// This frame at `lowTierAlignmentScale`, and the references at it (by card index, made when first needed).
    private let smallGray = Image()
    private var smallReferences: [Int: Image] = [:]
    private let logger: Logger
    /// CPU ms of recognition whose results arrived this frame.
    public private(set) var recognitionMilliseconds = 0.0

    /// `intrinsics`: the camera, so that quads no camera like it could see as a card are rejected
    /// in recognition and tracking (nil: no such check).
    /// `beside`: recognition on a second core while the faces are followed, its result taken on
    /// its own frame as inline.
    public init(cards: CardSet, background: Bool, beside: Bool = false, intrinsics: Intrinsics? = nil,
                options: Options = Options(), recognizer: CardRecognizer.Options = .init(),
                logger: Logger = Logger(label: "heritage-lens.cards")) throws {
        self.logger = logger
        var recognizer = recognizer
        if let intrinsics { recognizer.view = RectangleView(intrinsics: intrinsics) }
        view = recognizer.view
        self.cards = cards
        self.options = options
        rest = RefreshRest(share: options.restShare)
        let engine = try CardRecognizer(cards: cards, options: recognizer)
        // Below face detection: a face waiting on its search or verification is seen at once, a
        // card recognition that takes a few frames longer costs less.
        worker = IdleTimeWorker(name: "hl-cards",
                                mode: background ? .idleTime : beside ? .beside : .inline, niceness: 13) { gray, _, tracked in
            try engine.recognize(in: gray, tracked: tracked)
        }
        // Inline, a recognition lands on its own frame; live, frames late (seconds on a slow core).
        trail = background ? CardTrail() : nil
        changeMeter = background ? nil : RegionChangeMeter()
        recognizesInBackground = background
    }

    /// Recognition runs in idle time off the frame path (live); its cost is reported apart.
    public let recognizesInBackground: Bool

    /// Where faces were on the last frame (gray pixels): their motion explains the change there.
    /// Recognition runs before the faces of its frame are known, so that it can run beside them.
    public var faceRegions: [Rect] = []

    /// Hands a recognition to the worker when one is due. `busy`: regions (gray pixels) whose
    /// change is explained by something else tracked there (faces).
    public func scheduleRecognition(on gray: Image, frameIndex: Int, busy: [Rect]? = nil) throws {
        let busy = busy ?? faceRegions
        let interval = tracks.isEmpty || foundNewCard ? options.searchInterval : options.refreshInterval
        if let last = lastSearch, frameIndex - last < interval { return }
        // A recognition that found a new card is followed without rest: more cards are coming
        // into view (six held up together are found a few at a time).
        if rest.holdsBack(at: frameIndex, tracking: !tracks.isEmpty, requested: searchRequested || foundNewCard) { return }
        // Cards still catching up are what a new recognition would find; a result not yet taken
        // in needs the trail as it is.
        guard catchUps.isEmpty, !awaitingRecognition, !worker.isBusy else { return }
        if let changeMeter {
            try changeMeter.observe(gray)
            let explained = busy + trackedRegions()
            if let last = lastSearch, !searchRequested, frameIndex >= options.warmUpFrames {
                let quiet = tracks.isEmpty ? options.quietSearchInterval : options.quietRefreshInterval
                let changed = changeMeter.changedCells(busy: explained)
                logger.trace("frame \(frameIndex): \(changed) cells changed since recognition at \(last)")
                if frameIndex - last < quiet && changed < options.changedCellsForSearch { return }
            }
            changeMeter.markReference(busy: explained)
        }
        lastSearch = frameIndex
        searchRequested = false
        foundNewCard = false
        // Cards shown on the last frame are not looked for: their tracks align them with their
        // references every frame, and the frame's features go to the cards not found yet.
        let tracked = tracks.filter(\.visible).map {
            TrackedCard(cardIndex: $0.cardIndex, corners: cards.cards[$0.cardIndex].corners(under: $0.homography))
        }
        try worker.submit(tracked, on: gray, frameIndex: frameIndex)
        if let trail {
            trail.clear()
            try trail.append(gray, frameIndex: frameIndex)
            awaitingRecognition = true
        }
    }

    /// A recognition is running (tests wait on it to make a result land a known number of frames late).
    var isRecognizing: Bool { worker.isBusy }

    /// Follows tracked cards into this frame, takes in recognitions, returns the visible cards.
    /// `tier`: the frame's; the low tier aligns cards on a smaller copy (`lowTierAlignmentScale`).
    public func update(with gray: Image, frameIndex: Int, time: Double, tier: Tier = .high) throws -> [CardAnchor] {
        if let previousGray {
            let scale = tier == .low ? options.lowTierAlignmentScale : 1
            var aligned = gray
            if scale < 1, !tracks.isEmpty {
                try gray.resize(into: smallGray, width: max(1, Int((Double(gray.width) * scale).rounded())),
                                height: max(1, Int((Double(gray.height) * scale).rounded())), interpolation: .area)
                aligned = smallGray
            }
            for i in tracks.indices {
                tracks[i].visible = try follow(&tracks[i], from: previousGray, to: gray, alignedOn: aligned,
                                               frameIndex: frameIndex)
            }
        }
        try remember(gray)
        if let trail, awaitingRecognition || !catchUps.isEmpty { try trail.append(gray, frameIndex: frameIndex) }
        recognitionMilliseconds = 0
        for result in worker.collect() {
            awaitingRecognition = false
            recognitionMilliseconds += result.milliseconds
            rest.searchLanded(submitted: result.frameIndex, landed: frameIndex)
            var late: [CatchUp.Card] = []
            for detection in result.output where !isTracked(detection.cardIndex) && !liesOnATrackedCard(detection) {
                if result.frameIndex == frameIndex {
                    try takeCard(detection.cardIndex, homography: detection.homography, gray: gray, inliers: detection.inliers)
                } else {
                    // Live results are late; the trail holds every frame since theirs.
                    late.append(CatchUp.Card(cardIndex: detection.cardIndex, homography: detection.homography))
                }
            }
            if let from = trail?.entry(at: result.frameIndex), !late.isEmpty {
                catchUps.append(CatchUp(cards: late, at: from.frameIndex, gray: from.gray))
            }
        }
        try catchUp(to: frameIndex, gray: gray)
        if let trail, !awaitingRecognition, catchUps.isEmpty, !trail.isEmpty { trail.clear() }
        let before = tracks.count
        tracks.removeAll { $0.misses > options.maximumMisses }
        if tracks.count < before { searchRequested = true }
        var anchors: [CardAnchor] = []
        for i in tracks.indices where tracks[i].visible {
            let card = cards.cards[tracks[i].cardIndex]
            let raw = card.corners.map(tracks[i].homography.apply)
            let unit = max(1, raw[0].distance(to: raw[1]) / 10)
            tracks[i].corners = tracks[i].smoother.smooth(raw, at: time, unit: unit)
            anchors.append(CardAnchor(id: card.id, corners: tracks[i].corners, pose: nil))
        }
        return anchors.sorted { $0.id < $1.id }
    }

    /// Keeps this frame as the next one's previous, in the buffer of the one before.
    private func remember(_ gray: Image) throws {
        let copy = spareGray
        try gray.copy(to: copy)
        spareGray = previousGray ?? Image()
        previousGray = copy
    }

    /// One optical-flow step; returns whether the card was seen in `next`. `alignedOn`: `next`, or
    /// a shrunk copy of it to align the card with its reference on.
    private func follow(_ t: inout Track, from prev: Image, to next: Image, alignedOn small: Image,
                        frameIndex: Int) throws -> Bool {
        let card = cards.cards[t.cardIndex]
        // Most frames: the reference, rendered where the card was, aligned with this frame by one
        // pyramidal flow pass; it measures the motion and the position at once (half the work of
        // following the frame's motion first). A fast move or an occlusion that this cannot
        // follow falls back to frame-to-frame flow.
        if let aligned = try? refine(card: card, homography: t.homography, in: small, frame: next.size,
                                     levels: 2, largestCorrection: 28, pointStride: 2),
           isStillTheCard(card, aligned, in: next, frameIndex: frameIndex) {
            t.homography = aligned
            t.misses = 0
            return true
        }
        guard let moved = try flow(card: card, homography: t.homography, from: prev, to: next, light: true) else {
            t.misses += 1
            return false
        }
        if !isStillTheCard(card, moved, in: next, frameIndex: frameIndex) {
            // The quad no longer shows the card: let go at once rather than publish a wrong pose.
            t.misses = options.maximumMisses + 1
            return false
        }
        t.homography = (try? refine(card: card, homography: moved, in: next)) ?? moved
        t.misses = 0
        return true
    }

    /// The photometric check: judged on the better half of the card, so a hand over the rest does
    /// not lose it.
    private func isStillTheCard(_ card: CardReference, _ h: Homography, in gray: Image, frameIndex: Int) -> Bool {
        guard frameIndex % options.checkInterval == 0 else { return true }
        return shows(card, at: h, in: gray)
    }

    private func shows(_ card: CardReference, at h: Homography, in gray: Image) -> Bool {
        CardRecognizer.correlation(of: card, homography: h, in: gray, scratch: scratch, cells: 4) >= options.minimumCorrelation
    }

    /// The card's homography in `next`, from its homography in `prev`, or nil when too few of its
    /// points could be followed.
    /// `light`: half the points and a smaller window, for one frame's motion when refinement
    /// follows (it measures the position itself); the full set to bring a recognition forward over
    /// several frames.
    /// `scale`: image pixels per frame pixel, for images smaller than the frame (the trail's); the
    /// homography stays in frame pixels.
    private func flow(card: CardReference, homography h: Homography, from prev: Image, to next: Image,
                      light: Bool = false, scale: Double = 1) throws -> Homography? {
        let (refs, starts) = pointsInView(of: card, homography: h, in: prev, every: light ? 2 : 1, margin: 4, scale: scale)
        // A card mostly out of the frame is let go: its few remaining points cannot hold a homography.
        guard refs.count >= max(8, card.trackPoints.count / (light ? 10 : 5)) else { return nil }
        let ends = try ImageGeometry.opticalFlow(from: prev, to: next, points: starts, window: light ? 15 : 21, levels: 3)
        let (src, dst) = followed(refs, from: starts, to: ends, scale: scale) { _, _ in true }
        guard src.count >= 8, let (moved, mask) = robustHomography(from: src, to: dst, threshold: 2.5 / scale) else { return nil }
        let inliers = mask.filter { $0 }.count
        let corners = card.corners.map(moved.apply)
        guard inliers >= 8, Double(inliers) >= 0.4 * Double(refs.count), isPossible(corners, card: card) else { return nil }
        return moved
    }

    /// Aligns the track with the reference itself: the reference rendered where the homography
    /// puts it, then optical flow from that rendering to the frame. Frame-to-frame flow measures
    /// motion; this measures where the card is, so errors do not add up from frame to frame.
    /// `levels` and `largestCorrection` (px): pyramid levels of the flow and the largest move it may
    /// report; a larger one means the rendering and the frame disagree. `pointStride` 2 follows
    /// every other point (the flow is most of tracking's cost; 60 points still pin a homography).
    /// `frame`: the size of the frame `h` maps into, when `gray` is a shrunk copy of it (the
    /// reference is then rendered shrunk alike); the homography and `largestCorrection` stay in
    /// frame pixels.
    private func refine(card: CardReference, homography h: Homography, in gray: Image, frame: Size? = nil,
                        levels: Int = 0, largestCorrection: Double = 6, pointStride: Int = 1) throws -> Homography? {
        let frame = frame ?? gray.size
        var reference = card.gray, drawn = h, toImage = Homography.identity, fromImage = Homography.identity
        if frame != gray.size {
            reference = try smallReference(of: card, scale: Double(gray.width) / Double(frame.width))
            toImage = Self.resampling(from: frame, to: gray.size)
            fromImage = Self.resampling(from: gray.size, to: frame)
            drawn = toImage.composed(after: h.composed(after: Self.resampling(from: reference.size, to: card.gray.size)))
        }
        guard try CardImaging.renderReference(reference, homography: drawn.m, frame: gray, into: rendered) != nil
        else { return nil }
        let (refs, starts) = pointsInView(of: card, homography: toImage.composed(after: h), in: gray, every: pointStride,
                                          margin: 6, scale: 1)
        guard refs.count >= 8 else { return nil }
        let ends = try ImageGeometry.opticalFlow(from: rendered, to: gray, points: starts, window: 15, levels: levels)
        let reach = largestCorrection * Double(gray.width) / Double(frame.width)
        var (src, dst) = followed(refs, from: starts, to: ends, scale: 1) { start, end in end.distance(to: start) < reach }
        if frame != gray.size { dst = dst.map(fromImage.apply) }
        guard src.count >= 8, let (refined, mask) = robustHomography(from: src, to: dst, threshold: 1.5),
              Double(mask.filter { $0 }.count) >= max(12, 0.3 * Double(refs.count)),
              isPossible(card.corners.map(refined.apply), card: card) else { return nil }
        return refined
    }

    /// Pixels of an image of size `a` to those of its copy resized to `b` (OpenCV's resize: pixel
    /// centres line up, so a half-size copy is shifted by a quarter of its pixel, not only scaled).
    static func resampling(from a: Size, to b: Size) -> Homography {
        let sx = Double(b.width) / Double(a.width), sy = Double(b.height) / Double(a.height)
        return Homography([sx, 0, 0.5 * sx - 0.5, 0, sy, 0.5 * sy - 0.5, 0, 0, 1])
    }

    /// `card`'s reference shrunk by `scale` (area averaging, as the frame's copy is).
    private func smallReference(of card: CardReference, scale: Double) throws -> Image {
        let index = cards.cards.firstIndex { $0 === card } ?? -1
        if let made = smallReferences[index] { return made }
        let small = Image()
        try card.gray.resize(into: small, width: max(1, Int((Double(card.gray.width) * scale).rounded())),
                             height: max(1, Int((Double(card.gray.height) * scale).rounded())), interpolation: .area)
        smallReferences[index] = small
        return small
    }

    /// Every `stride`-th track point of `card` with where `h` puts it in `image` (scaled by
    /// `scale`), for the points at least `margin` px inside it: the starts of a flow.
    private func pointsInView(of card: CardReference, homography h: Homography, in image: Image, every stride: Int,
                              margin: Double, scale: Double) -> (refs: [Point2], starts: [Point2]) {
        let w = Double(image.width), ht = Double(image.height)
        var refs: [Point2] = [], starts: [Point2] = []
        for (k, p) in card.trackPoints.enumerated() where k % stride == 0 {
            let q = h.apply(p) * scale
            if q.x > margin, q.y > margin, q.x < w - margin, q.y < ht - margin {
                refs.append(p)
                starts.append(q)
            }
        }
        return (refs, starts)
    }

    /// The reference points the flow followed and where they went, back in frame pixels; a
    /// point is kept when the flow found it and `keep(start, end)` agrees.
    private func followed(_ refs: [Point2], from starts: [Point2], to ends: [Point2?], scale: Double,
                          keep: (Point2, Point2) -> Bool) -> (src: [Point2], dst: [Point2]) {
        var src: [Point2] = [], dst: [Point2] = []
        for i in refs.indices {
            guard let end = ends[i], keep(starts[i], end) else { continue }
            src.append(refs[i])
            dst.append(end * (1 / scale))
        }
        return (src, dst)
    }

    /// A quad a camera could see the card as (and, with the camera known, this camera).
    private func isPossible(_ corners: [Point2], card: CardReference) -> Bool {
        quad.isPlausible(corners, aspect: card.aspect) && (view?.isConsistent(corners, aspect: card.aspect) ?? true)
    }

    /// A card tracked in this frame has just been aligned with its reference and checked: a
    /// recognition would only repeat that, at the price of two more flow passes.
    /// Where the tracked cards are (gray pixels).
    private func trackedRegions() -> [Rect] {
        tracks.map { Rect(bounding: cards.cards[$0.cardIndex].corners(under: $0.homography)) }
    }

    /// Two cards cannot lie on the same spot: a detection over a card tracked there is a
    /// look-alike (recognition no longer sees tracked cards to compare it with).
    private func liesOnATrackedCard(_ detection: CardDetection) -> Bool {
        let box = Rect(bounding: cards.cards[detection.cardIndex].corners(under: detection.homography))
        return trackedRegions().contains { $0.iou(box) > CardRecognizer.sameSpotOverlap }
    }

    private func isTracked(_ cardIndex: Int) -> Bool {
        tracks.contains { $0.cardIndex == cardIndex && $0.visible }
    }

    /// Moves late recognitions' cards along the trail, `catchUpSteps` frames at a time, and takes
    /// them in when they reach this frame; a card the flow loses on the way is let go.
    private func catchUp(to now: Int, gray: Image) throws {
        guard let trail else { return }
        for i in catchUps.indices {
            for _ in 0..<options.catchUpSteps {
                guard let next = trail.entry(after: catchUps[i].at) else { break }
                catchUps[i].cards = try catchUps[i].cards.compactMap { c in
                    try flow(card: cards.cards[c.cardIndex], homography: c.homography, from: catchUps[i].gray,
                             to: next.gray, scale: CardTrail.scale).map { CatchUp.Card(cardIndex: c.cardIndex, homography: $0) }
                }
                catchUps[i].at = next.frameIndex
                catchUps[i].gray = next.gray
            }
            guard catchUps[i].at >= now else { continue }
            for c in catchUps[i].cards where !isTracked(c.cardIndex) {
                // Long steps along a thinned trail can land a little off, or on something else:
                // aligned with the reference here, and taken only where the frame shows the card.
                let card = cards.cards[c.cardIndex]
                guard let aligned = try? refine(card: card, homography: c.homography, in: gray, levels: 2, largestCorrection: 28),
                      shows(card, at: aligned, in: gray) else { continue }
                try takeCard(c.cardIndex, homography: aligned, gray: gray, inliers: nil)
            }
            catchUps[i].cards = []
        }
        catchUps.removeAll { $0.cards.isEmpty }
    }

    /// A recognised card at `homography` in this frame: aligned with its reference, then a new
    /// track, or the correction of its track.
    private func takeCard(_ cardIndex: Int, homography: Homography, gray: Image, inliers: Int?) throws {
        let card = cards.cards[cardIndex]
        let current = (try? refine(card: card, homography: homography, in: gray)) ?? homography
        if let i = tracks.firstIndex(where: { $0.cardIndex == cardIndex }) {
            // Correct the track against the reference: recognition is the ground truth it drifts from.
            tracks[i].homography = current
            tracks[i].misses = 0
            tracks[i].visible = true
            return
        }
        logger.debug("card \(card.id) found\(inliers.map { " with \($0) inliers" } ?? " (late, brought forward)")")
        foundNewCard = true
        tracks.append(Track(cardIndex: cardIndex, homography: current,
                            smoother: AnchorSmoother(points: 4, options: options.smoothing)))
    }

    public func finish() { worker.finish() }
}

/// A late recognition's cards on their way along the trail.
struct CatchUp {
    struct Card {
        var cardIndex: Int
        var homography: Homography
    }

    var cards: [Card]
    /// The trail frame they are aligned with, and its image.
    var at: Int
    var gray: Image
}
