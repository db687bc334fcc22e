import HeritageCore

/// A card found by full recognition on one frame.
public struct CardDetection: Sendable {
    public var cardIndex: Int
    /// Reference pixels -> frame pixels.
    public var homography: Homography
    public var inliers: Int
    /// Normalised cross-correlation of the warped frame patch with the reference.
    public var correlation: Double
}

/// A card followed already, where it is in the frame a recognition runs on.
public struct TrackedCard: Sendable {
    public var cardIndex: Int
    public var corners: [Point2]

    public init(cardIndex: Int, corners: [Point2]) {
        self.cardIndex = cardIndex
        self.corners = corners
    }
}

/// Finds cards in a frame: ORB features matched to each card's, Lowe's ratio test, a RANSAC
/// homography, a check that the quad is one a flat card can make, and a photometric check of the
/// warped patch against the reference, so that clutter, other pictures and look-alike matches
/// never become an anchor.
public final class CardRecognizer {
    public struct Options: Sendable {
        public var frameFeatures = 1500
        public var ratio = 0.8
        public var minimumMatches = 14
        public var minimumInliers = 12
        public var ransacPixels = 4.0
        /// Least correlation of the warped frame with the reference (look-alikes score near 0).
        public var minimumCorrelation = 0.35
        public var quad = CardQuad.Options()
        /// Pixels around a tracked card left out of the frame's features as well (ORB's patches
        /// are 31 px: features just outside a card describe it partly).
        public var trackedMargin = 8
        /// The frame's features come to this many pixels of its edge (on each pyramid level).
        /// OpenCV's default, 31, leaves a card entering the frame few features until most of it
        /// shows; 16 keeps each feature's orientation circle (radius 15) inside the frame, and only
        /// the outer samples of the nearest ones fall on OpenCV's mirrored border.
        public var frameEdge = 16
        /// The camera, when known: quads it cannot see a rectangle as are rejected.
        public var view: RectangleView?

        public init() {}
    }

    /// Overlap (IoU of the bounding boxes) over which two cards are taken to lie on one spot.
    static let sameSpotOverlap = 0.3

    public let cards: CardSet
    public let options: Options
    private let orb: ORBExtractor
    private let quad: CardQuad
    private let scratch = Image()

    public init(cards: CardSet, options: Options = Options()) throws {
        self.cards = cards
        self.options = options
        orb = try Self.frameExtractor(options)
        quad = CardQuad(options: options.quad)
    }

    /// The ORB detector recognition runs on a frame with `options` (also what `kernels` times).
    public static func frameExtractor(_ options: Options = Options()) throws -> ORBExtractor {
        try ORBExtractor(features: options.frameFeatures, levels: 6, edgeThreshold: options.frameEdge)
    }

    /// Every card found in `gray`, at most one per card. `tracked`: cards already followed there
    /// (card index and corners): neither looked for nor given any of the frame's features, which
    /// all go to the rest of the frame (among six cards, each gets a share; see `eval-cards`
    /// six-cards).
    public func recognize(in gray: Image, tracked: [TrackedCard] = []) throws -> [CardDetection] {
        let frame = try orb.detect(in: gray, outside: tracked.map(\.corners), margin: options.trackedMargin)
        guard frame.count >= options.minimumMatches else { return [] }
        let skipped = Set(tracked.map(\.cardIndex))
        var found: [CardDetection] = []
        for (index, card) in cards.cards.enumerated() where !skipped.contains(index) {
            let pairs = try ratioMatches(query: card.features, train: frame, ratio: options.ratio)
            guard pairs.count >= options.minimumMatches else { continue }
            let src = pairs.map { card.features.points[$0.0] }, dst = pairs.map { frame.points[$0.1] }
            // Samples enough to find a model this recognition would take: among a card's few
            // look-alike matches RANSAC would otherwise spend its full 2000 (2-11 ms a card).
            let budget = RANSACBudget.samples(toFind: options.minimumInliers, among: pairs.count)
            guard budget > 0, let (h, mask) = robustHomography(from: src, to: dst, threshold: options.ransacPixels,
                                                               maximumIterations: budget) else { continue }
            let inliers = mask.filter { $0 }.count
            guard inliers >= options.minimumInliers, let detection = try verify(index, h, inliers: inliers, gray: gray)
            else { continue }
            found.append(detection)
        }
        // Two cards cannot lie on the same spot: keep the better-supported one.
        var kept: [CardDetection] = []
        for d in found.sorted(by: { $0.inliers > $1.inliers }) {
            let box = Rect(bounding: cards.cards[d.cardIndex].corners(under: d.homography))
            if !kept.contains(where: { Rect(bounding: cards.cards[$0.cardIndex].corners(under: $0.homography)).iou(box) > Self.sameSpotOverlap }) {
                kept.append(d)
            }
        }
        return kept
    }

    /// The quad and photometric checks for a candidate homography of card `index`.
    public func verify(_ index: Int, _ h: Homography, inliers: Int, gray: Image) throws -> CardDetection? {
        let card = cards.cards[index]
        let corners = card.corners.map(h.apply)
        guard quad.isPlausible(corners, aspect: card.aspect),
              options.view?.isConsistent(corners, aspect: card.aspect) ?? true else { return nil }
        let score = Self.correlation(of: card, homography: h, in: gray, scratch: scratch)
        guard score >= options.minimumCorrelation else { return nil }
        return CardDetection(cardIndex: index, homography: h, inliers: inliers, correlation: score)
    }

    /// How much the frame under `h` looks like `card` (−1...1), over the part of the card in view;
    /// with `cells` > 1, over the better half of a cells × cells grid (a partly covered card).
    /// `scratch` is the caller's buffer.
    public static func correlation(of card: CardReference, homography h: Homography, in gray: Image,
                                   scratch: Image, cells: Int = 1) -> Double {
        // The patch is a scaled-down reference: fold that scale into the homography.
        let s = Double(card.size.width) / Double(card.patchSize.width)
        let toPatch = h.composed(after: Homography([s, 0, 0, 0, s, 0, 0, 0, 1]))
        // Too little of the card in view, or a failure: no likeness at all.
        let score = try? CardImaging.warpedCorrelation(frame: gray, homography: toPatch.m, reference: card.patch,
                                                       scratch: scratch, cells: cells)
        return (score ?? nil) ?? -1
    }
}
