import HeritageLens
import Foundation
import HeritageCore

/// A card test sequence with ground truth: where each card's corners are in every frame and how
/// much of it can be seen.
public struct CardSequence {
    public struct Truth: Sendable {
        public var corners: [Point2]
        /// Share of the card inside the frame and not under the occluder (0...1).
        public var visibleFraction: Double
    }

    public var name: String
    public var scene: SyntheticScene
    public var frameCount: Int
    public var truth: (Int) -> [String: Truth]
}

/// Builds card sequences rendered through a pinhole camera (the assumed 62° webcam): a still card;
/// motion with tilt up to 60°, a full in-plane turn and 10-60 % of the frame width; blur, noise and
/// JPEG; dim, bright and side light; a moving occluder over up to half the card; two and three
/// cards at once; a card swept fast with motion blur and two crossing fast; other pictures and no
/// card; a card crossing the frame from the left, from the right and from the top.
public struct CardSequenceBuilder {
    /// A picture of the `no-card` sequence is not there.
    public struct MissingPicture: Error, CustomStringConvertible {
        public let path: String
        public var description: String {
            "\(path): no such picture for the no-card sequence; run scripts/fetch-debian-assets.sh"
        }
    }

    public var cardFolder: String
    public var distractors: [String]
    public var size = Size(width: 640, height: 480)
    public var frameCount = 90

    public init(cardFolder: String, distractors: [String] = []) {
        self.cardFolder = cardFolder
        self.distractors = distractors
    }

    struct CardArt {
        let id: String
        let image: Image
        let plane: CardPlane
    }

    func loadCards() throws -> [CardArt] {
        let set = try CardSet(folder: cardFolder, cacheFolder: nil)
        return try set.cards.map { ref in
            let path = (cardFolder as NSString).appendingPathComponent("\(ref.id).png")
            let image = try Image(contentsOf: path)
            try image.normalizeToBGR()
            return CardArt(id: ref.id, image: image, plane: ref.plane)
        }
    }

    /// A card moving by `pose(t)`; its layer and ground truth (occluder: a frame rect at t or nil).
    func moving(_ card: CardArt, frames: Int, intrinsics k: Intrinsics, occluder: ((Double) -> Rect?)? = nil,
                pose: @escaping (Double) -> Pose) -> (SyntheticScene.Layer, (Int) -> (String, CardSequence.Truth)) {
        let ref = card.image.size
        let n = Double(frames - 1)
        let h: (Int) -> Homography = { card.plane.homography(referenceSize: ref, pose: pose(Double($0) / n), intrinsics: k) }
        let layer = SyntheticScene.Layer(name: card.id, image: card.image) { h($0) }
        let size = self.size
        return (layer, { i in
            let hi = h(i)
            let corners = [Point2(0, 0), Point2(Double(ref.width), 0), Point2(Double(ref.width), Double(ref.height)),
                           Point2(0, Double(ref.height))].map(hi.apply)
            let block = occluder?(Double(i) / n)
            var seen = 0
            for gx in 0..<10 {
                for gy in 0..<14 {
                    let p = hi.apply(Point2((Double(gx) + 0.5) / 10 * Double(ref.width), (Double(gy) + 0.5) / 14 * Double(ref.height)))
                    let inside = p.x >= 0 && p.y >= 0 && p.x < Double(size.width) && p.y < Double(size.height)
                    let hidden = block.map { p.x >= $0.x && p.y >= $0.y && p.x < $0.x + $0.width && p.y < $0.y + $0.height } ?? false
                    if inside && !hidden { seen += 1 }
                }
            }
            return (card.id, CardSequence.Truth(corners: corners, visibleFraction: Double(seen) / 140))
        })
    }

    static func pose(distance z: Double, yaw: Double = 0, pitch: Double = 0, roll: Double = 0, x: Double = 0, y: Double = 0,
                     plane: CardPlane) -> Pose {
        // Rotate about the card's centre: R = Rz Ry Rx, centre placed at (x, y, z).
        let rx = Matrix3(rodrigues: Vector3(pitch, 0, 0)), ry = Matrix3(rodrigues: Vector3(0, yaw, 0))
        let rz = Matrix3(rodrigues: Vector3(0, 0, roll))
        let r = rz * ry * rx
        let centre = Vector3(plane.width / 2, plane.height / 2, 0)
        let t = Vector3(x, y, z) - r * centre
        return Pose(rotation: r.rodrigues, translation: t)
    }

    func sequence(_ name: String, frames: Int? = nil, parts: [(SyntheticScene.Layer, (Int) -> (String, CardSequence.Truth))],
                  extra: [SyntheticScene.Layer] = [], effects: SyntheticScene.Effects = .init(noiseSigma: 2),
                  light: (Double, Double, Double)? = nil) throws -> CardSequence {
        let scene = try SyntheticScene(size: size, layers: extra + parts.map(\.0), effects: effects,
                                       seed: UInt64(name.utf8.reduce(7) { $0 &* 31 &+ Int($1) }.magnitude))
        if let light { scene.lighting = light }
        let truths = parts.map(\.1)
        return CardSequence(name: name, scene: scene, frameCount: frames ?? frameCount,
                            truth: { i in Dictionary(uniqueKeysWithValues: truths.map { $0(i) }) })
    }

    public func build() throws -> [CardSequence] {
        let cards = try loadCards()
        precondition(!cards.isEmpty)
        func card(_ k: Int) -> CardArt { cards[k % cards.count] }
        let k = Intrinsics.assumed(for: size)
        let f = frameCount
        let sine: (Double, Double) -> Double = { t, c in Foundation.sin(2 * Double.pi * c * t) }
        func p(_ c: CardArt, _ z: Double, yaw: Double = 0, pitch: Double = 0, roll: Double = 0, x: Double = 0, y: Double = 0) -> Pose {
            Self.pose(distance: z, yaw: yaw, pitch: pitch, roll: roll, x: x, y: y, plane: c.plane)
        }
        var out: [CardSequence] = []
        out.append(try sequence("still", parts: [moving(card(0), frames: f, intrinsics: k) { _ in p(card(0), 0.4, yaw: 0.15) }]))
        out.append(try sequence("motion", frames: 180, parts: [
            moving(card(1), frames: 180, intrinsics: k) { t in
                p(card(1), 0.5 + 0.3 * sine(t, 1), yaw: 1.0 * sine(t, 1.5), pitch: 0.8 * sine(t, 0.7),
                  roll: 2 * Double.pi * t, x: 0.05 * sine(t, 1), y: 0.03 * sine(t, 2))
            },
        ]))
        out.append(try sequence("near-far", parts: [
            moving(card(2), frames: f, intrinsics: k) { t in p(card(2), 0.16 + 0.6 * (0.5 + 0.5 * sine(t, 1)), yaw: 0.3, roll: 0.4) },
        ]))
        out.append(try sequence("degraded", parts: [
            moving(card(3), frames: f, intrinsics: k) { t in p(card(3), 0.45, yaw: 0.5 * sine(t, 1), roll: 0.3 * sine(t, 1)) },
        ], effects: .init(noiseSigma: 8, blurSigma: 1.6, jpegQuality: 30)))
        out.append(try sequence("dim", parts: [
            moving(card(4), frames: f, intrinsics: k) { t in p(card(4), 0.4, yaw: 0.4 * sine(t, 1)) },
        ], effects: .init(noiseSigma: 4), light: (0.35, 0.35, 0)))
        out.append(try sequence("bright", parts: [
            moving(card(5), frames: f, intrinsics: k) { t in p(card(5), 0.4, pitch: 0.4 * sine(t, 1)) },
        ], light: (1.3, 1.3, 45)))
        out.append(try sequence("side-light", parts: [
            moving(card(0), frames: f, intrinsics: k) { t in p(card(0), 0.4, roll: 0.5 * sine(t, 1)) },
        ], light: (1.3, 0.35, 0)))
        let occluder = try Image(width: 180, height: 300)
        try occluder.fill(blue: 70, green: 80, red: 90)
        let occ: (Double) -> Rect = { t in Rect(x: 180 + 200 * t, y: 90, width: 180, height: 300) }
        out.append(try sequence("occluded", parts: [
            moving(card(1), frames: f, intrinsics: k, occluder: occ) { _ in p(card(1), 0.38, yaw: 0.2) },
        ], extra: [], effects: .init(noiseSigma: 2)).withOccluder(occluder, at: occ, frames: f))
        out.append(try sequence("three-cards", parts: [
            moving(card(2), frames: f, intrinsics: k) { t in p(card(2), 0.42, yaw: 0.3, roll: 0.2 * sine(t, 1), x: -0.12) },
            moving(card(3), frames: f, intrinsics: k) { t in p(card(3), 0.42, pitch: 0.3, x: 0.0, y: 0.02 * sine(t, 1)) },
            moving(card(4), frames: f, intrinsics: k) { t in p(card(4), 0.42, yaw: -0.4, roll: -0.2, x: 0.12) },
        ]))
        // All six at once, in a 3 x 2 grid, each just over a sixth of the frame wide.
        out.append(try sequence("six-cards", parts: (0..<6).map { i in
            let c = card(i)
            return moving(c, frames: f, intrinsics: k) { t in
                p(c, 0.5, yaw: 0.1 * sine(t, 1), roll: 0.05 * Double(i - 3),
                  x: -0.13 + 0.13 * Double(i % 3), y: i < 3 ? -0.085 : 0.085)
            }
        }))
        // Fast: a card swept back and forth at up to 23 px a frame while it tilts, blurred by
        // half a frame's motion (a hand waving a card at a webcam); and two cards crossing at
        // up to 17 px a frame. The motion sequence above turns fast but moves little.
        do {
            let frames = 120
            let fast = card(3)
            let sweep: (Double) -> Pose = { t in
                p(fast, 0.45, yaw: 0.35 * sine(t, 1.3), pitch: 0.2 * sine(t, 0.9), roll: 0.25 * sine(t, 2.5),
                  x: 0.15 * sine(t, 2.5), y: 0.03 * sine(t, 1.1))
            }
            let part = moving(fast, frames: frames, intrinsics: k, pose: sweep)
            out.append(try sequence("fast", frames: frames, parts: [part],
                                    effects: .init(noiseSigma: 2, motionBlur: Self.blur(of: fast, frames: frames, intrinsics: k, pose: sweep))))
            let a = card(4), b = card(5)
            // One above the other (apart by more than a card's height), crossing sideways.
            let left: (Double) -> Pose = { t in p(a, 0.5, yaw: 0.3, roll: 0.1 * sine(t, 1), x: 0.12 * sine(t, 2.5), y: -0.082) }
            let right: (Double) -> Pose = { t in p(b, 0.5, yaw: -0.3, roll: -0.1 * sine(t, 1), x: -0.12 * sine(t, 2.5), y: 0.082) }
            out.append(try sequence("fast-two", frames: frames, parts: [
                moving(a, frames: frames, intrinsics: k, pose: left), moving(b, frames: frames, intrinsics: k, pose: right),
            ], effects: .init(noiseSigma: 2, motionBlur: Self.blur(of: a, frames: frames, intrinsics: k, pose: left))))
        }
        var pictures: [SyntheticScene.Layer] = []
        for (i, path) in distractors.enumerated() {
            // A missing picture would score an easier `no-card` than the one asked for.
            guard FileManager.default.fileExists(atPath: path) else {
                throw MissingPicture(path: path)
            }
            let img = try Image(contentsOf: path)
            try img.normalizeToBGR()
            pictures.append(.init(name: "picture\(i)", image: img) { j in
                .similarity(pivot: Point2(Double(img.width) / 2, Double(img.height) / 2), scale: 0.6,
                            angle: 0.01 * Double(j), position: Point2(200 + 240 * Double(i), 240))
            })
        }
        out.append(try sequence("no-card", parts: [], extra: pictures))
        // A card crossing the frame: from the left, from the right and from the top, each a
        // different card, each about 0.9 s in view as it enters.
        out.append(try sequence("enter-leave", frames: 150, parts: [
            moving(card(5), frames: 150, intrinsics: k) { t in p(card(5), 0.45, yaw: 0.2, x: -0.4 + 0.8 * t) },
        ]))
        out.append(try sequence("enter-right", frames: 150, parts: [
            moving(card(1), frames: 150, intrinsics: k) { t in p(card(1), 0.45, yaw: -0.2, roll: 0.2, x: 0.4 - 0.8 * t) },
        ]))
        out.append(try sequence("enter-top", frames: 150, parts: [
            moving(card(2), frames: 150, intrinsics: k) { t in p(card(2), 0.45, pitch: 0.2, x: 0.05, y: -0.3 + 0.6 * t) },
        ]))
        return out
    }
}

extension CardSequenceBuilder {
    /// The blur of half a frame's motion of `card`'s centre under `pose`, per frame index (the
    /// exposure of a webcam at 30 fps in room light is about half a frame).
    static func blur(of card: CardArt, frames: Int, intrinsics k: Intrinsics, pose: @escaping (Double) -> Pose) -> (Int) -> Point2 {
        let n = Double(frames - 1)
        let centre = Point2(Double(card.image.width) / 2, Double(card.image.height) / 2)
        let at: (Int) -> Point2 = { i in
            card.plane.homography(referenceSize: card.image.size, pose: pose(Double(min(max(i, 0), frames - 1)) / n), intrinsics: k).apply(centre)
        }
        return { i in (at(i + 1) - at(i - 1)) * 0.25 }
    }
}

extension CardSequence {
    /// Adds a moving occluder in front of everything.
    func withOccluder(_ image: Image, at rect: @escaping (Double) -> Rect, frames: Int) -> CardSequence {
        let copy = self
        let n = Double(frames - 1)
        copy.scene.layers.append(.init(name: "occluder", image: image) { i in
            let r = rect(Double(i) / n)
            return Homography([1, 0, r.x, 0, 1, r.y, 0, 0, 1])
        })
        return copy
    }
}
