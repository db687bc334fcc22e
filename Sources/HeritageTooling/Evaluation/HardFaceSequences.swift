import HeritageLens
import Foundation
import HeritageCore

/// The conditions real footage has and the gentle sequences lack, each at least as hard as the
/// face issue lists them: hard cuts every 3 s between unrelated scenes, faces at 25 px a frame
/// with motion blur, faces leaving at that speed, sensor noise σ 12 with defocus σ 2.4, a face at
/// 35 % of a bright background's brightness, washed-out (gamma 0.36) and dark (gamma 2.2) tone
/// curves, and three small faces 28-49 px between the eyes; all over real photographs.
///
/// Which faces, which photos and where things move come from `seed`, so one seed can be used to
/// tune and others to report.
public struct HardFaceSequenceBuilder {
    public var base: FaceSequenceBuilder
    /// Photographs with no face in them, used as backgrounds.
    public var backgroundPaths: [String]
    /// A photo whose lower part (below 40 % of its height) has no face but things dlib's detector
    /// half takes for one (the sample's astronaut: a round mission patch, a name tag, a helmet).
    public var lookAlikePath: String?

    public init(base: FaceSequenceBuilder, backgroundPaths: [String], lookAlikePath: String? = nil) {
        self.base = base
        self.backgroundPaths = backgroundPaths
        self.lookAlikePath = lookAlikePath
    }

    typealias Part = (SyntheticScene.Layer, (Int) -> [(Int, [Point2])])

    /// A photo scaled to cover the frame, drifting slowly (a hand-held camera), shown in `frames`.
    func backdrop(_ photo: Image, name: String, frames: Range<Int>, drift: Point2) -> SyntheticScene.Layer {
        let size = base.size
        let cover = max(Double(size.width) / Double(photo.width), Double(size.height) / Double(photo.height)) * 1.15
        let pivot = Point2(Double(photo.width) / 2, Double(photo.height) / 2)
        let centre = Point2(Double(size.width) / 2, Double(size.height) / 2)
        return SyntheticScene.Layer(name: name, image: photo) { i in
            guard frames.contains(i) else { return nil }
            let t = Double(i - frames.lowerBound) / Double(max(1, frames.count - 1))
            return .similarity(pivot: pivot, scale: cover, angle: 0, position: centre + drift * (t - 0.5))
        }
    }

    /// `part` only in `frames`: its layer hidden and its faces absent elsewhere.
    func during(_ frames: Range<Int>, _ part: Part) -> Part {
        let (layer, truth) = part
        let shown = SyntheticScene.Layer(name: layer.name, image: layer.image) { frames.contains($0) ? layer.placement($0) : nil }
        return (shown, { frames.contains($0) ? truth($0) : [] })
    }

    /// A face moved frame by frame (`position(i)` in frame indices) rather than over t in 0...1.
    func face(_ patch: FaceSequenceBuilder.FacePatch, key: Int, eye: Double, roll: Double = 0, frames: Int,
              position: @escaping (Int) -> Point2) -> Part {
        let n = Double(frames - 1)
        return base.moving(patch, key: key, eye: { _ in eye }, roll: { _ in roll },
                           position: { t in position(Int((t * n).rounded())) }, frames: frames)
    }

    public func build(seed: UInt64) throws -> [FaceSequence] {
        var rng = SplitMix64(seed: seed &* 0x9E37_79B9 &+ 7)
        let usable = base.cleanFaces()
        precondition(!usable.isEmpty && !backgroundPaths.isEmpty, "annotated faces and background photos")
        // Faces and photos in a seeded order: every sequence its own faces, every scene its own photo.
        let faceOrder = usable.indices.shuffled(using: &rng)
        var nextFace = 0
        func nextPatch(light: (Double, Double, Double)? = nil) throws -> FaceSequenceBuilder.FacePatch {
            defer { nextFace += 1 }
            return try base.patch(usable[faceOrder[nextFace % faceOrder.count]], light: light)
        }
        let photos = try backgroundPaths.map { path -> Image in
            let image = try Image(contentsOf: path)
            try image.normalizeToBGR()
            return image
        }
        let photoOrder = photos.indices.shuffled(using: &rng)
        var nextPhoto = 0
        func photo() -> Image {
            defer { nextPhoto += 1 }
            return photos[photoOrder[nextPhoto % photoOrder.count]]
        }
        func jitter(_ range: ClosedRange<Double>) -> Double { rng.next(in: range) }

        let w = Double(base.size.width), h = Double(base.size.height)
        var out: [FaceSequence] = []

        // Hard cuts every 3 s: four scenes, one with no face and one with two, each its own photo.
        do {
            let sceneLength = 90, frames = 4 * sceneLength
            func scene(_ k: Int) -> Range<Int> { k * sceneLength..<(k + 1) * sceneLength }
            var parts: [Part] = []
            var backdrops: [SyntheticScene.Layer] = []
            for k in 0..<4 {
                backdrops.append(backdrop(photo(), name: "scene\(k)", frames: scene(k),
                                          drift: Point2(jitter(-40...40), jitter(-20...20))))
            }
            let layouts: [[(Double, Double, Double)]] = [
                [(jitter(0.3...0.7), jitter(0.35...0.55), jitter(42...60))],
                [],
                [(0.28, jitter(0.35...0.5), jitter(36...48)), (0.72, jitter(0.4...0.55), jitter(40...55))],
                [(jitter(0.25...0.75), jitter(0.4...0.6), jitter(45...70))],
            ]
            for (k, layout) in layouts.enumerated() {
                for (j, (x, y, eye)) in layout.enumerated() {
                    let start = Point2(w * x, h * y), vx = jitter(-1.5...1.5), vy = jitter(-1...1)
                    parts.append(during(scene(k), face(try nextPatch(), key: 10 * k + j, eye: eye, frames: frames) { i in
                        start + Point2(vx, vy) * Double(i - scene(k).lowerBound)
                    }))
                }
            }
            out.append(try base.sequence("cuts", parts: parts, extra: backdrops, frames: frames))
        }

        // 25 px a frame, back and forth, with the blur of that motion.
        do {
            let frames = 150, speed = 25.0, span = w - 260
            let path: (Int) -> Point2 = { i in
                let d = (Double(i) * speed).truncatingRemainder(dividingBy: 2 * span)
                let x = 130 + (d < span ? d : 2 * span - d)
                return Point2(x, h * 0.45 + 40 * Foundation.sin(Double(i) * 0.09))
            }
            let blur: (Int) -> Point2 = { i in (path(i + 1) - path(max(0, i - 1))) * 0.25 }
            out.append(try base.sequence("speed", parts: [
                face(try nextPatch(), key: 0, eye: jitter(45...60), frames: frames, position: path),
            ], extra: [backdrop(photo(), name: "bg", frames: 0..<frames, drift: Point2(0, 0))],
               effects: .init(noiseSigma: 3, motionBlur: blur), frames: frames))
        }

        // Faces that stop, then leave at speed and come back from another side.
        do {
            let frames = 180
            let centre = Point2(w * 0.5, h * 0.45)
            // still 30, leave right at 25 px/f, gone 20, enter from the left at 22 px/f, still 30,
            // leave up at 20 px/f, gone to the end.
            let path: (Int) -> Point2 = { i in
                switch i {
                case ..<30: return centre
                case 30..<62: return centre + Point2(25 * Double(i - 30), 0)
                case 62..<82: return Point2(w + 400, centre.y)
                case 82..<132:
                    let x = -200 + 22 * Double(i - 82)
                    return Point2(min(x, centre.x), centre.y)
                case 132..<150: return centre
                default: return centre + Point2(0, -20 * Double(i - 150))
                }
            }
            let blur: (Int) -> Point2 = { i in (path(i + 1) - path(max(0, i - 1))) * 0.25 }
            out.append(try base.sequence("leave-fast", parts: [
                face(try nextPatch(), key: 0, eye: jitter(45...58), frames: frames, position: path),
            ], extra: [backdrop(photo(), name: "bg", frames: 0..<frames, drift: Point2(20, 0))],
               effects: .init(noiseSigma: 3, motionBlur: blur), frames: frames))
        }

        // Sensor noise σ 12, defocus σ 2.4 and the blur of a slow move.
        do {
            let frames = 120
            let path: (Int) -> Point2 = { i in Point2(w * 0.5 + 90 * Foundation.sin(Double(i) * 0.06), h * 0.45) }
            let blur: (Int) -> Point2 = { i in (path(i + 1) - path(max(0, i - 1))) * 0.5 }
            out.append(try base.sequence("noise-defocus", parts: [
                face(try nextPatch(), key: 0, eye: jitter(45...60), roll: jitter(-0.2...0.2), frames: frames, position: path),
            ], extra: [backdrop(photo(), name: "bg", frames: 0..<frames, drift: Point2(30, 10))],
               effects: .init(noiseSigma: 12, blurSigma: 2.4, motionBlur: blur), frames: frames))
        }

        // A face at 35 % of a bright background's brightness (a window behind the subject).
        do {
            let frames = 90
            let bright = try photo().copy()
            try bright.applyLight(gainLeft: 1.25, gainRight: 1.25, offset: 60)
            out.append(try base.sequence("backlight-35", parts: [
                face(try nextPatch(light: (0.42, 0.42, 0)), key: 0, eye: jitter(48...60), frames: frames) { i in
                    Point2(w * 0.5 + 50 * Foundation.sin(Double(i) * 0.07), h * 0.45)
                },
            ], extra: [backdrop(bright, name: "bg", frames: 0..<frames, drift: Point2(0, 0))],
               effects: .init(noiseSigma: 3), frames: frames))
        }

        for (name, gamma) in [("gamma-0.36", 0.36), ("gamma-2.2", 2.2)] {
            let frames = 90
            out.append(try base.sequence(name, parts: [
                face(try nextPatch(), key: 0, eye: jitter(45...60), roll: jitter(-0.25...0.25), frames: frames) { i in
                    Point2(w * 0.5 + 60 * Foundation.sin(Double(i) * 0.08), h * 0.45 + 20 * Foundation.cos(Double(i) * 0.05))
                },
            ], extra: [backdrop(photo(), name: "bg", frames: 0..<frames, drift: Point2(-25, 0))],
               effects: .init(noiseSigma: 4, gamma: gamma), frames: frames))
        }

        // Three small faces together, 28-49 px between the eyes, drifting.
        do {
            let frames = 120
            let eyes = [28.0, jitter(34...40), 49.0]
            let anchors = [Point2(w * 0.2, h * 0.35), Point2(w * 0.52, h * 0.6), Point2(w * 0.8, h * 0.35)]
            var parts: [Part] = []
            for k in 0..<3 {
                let a = anchors[k], phase = jitter(0...6)
                parts.append(face(try nextPatch(), key: k, eye: eyes[k], roll: jitter(-0.15...0.15), frames: frames) { i in
                    a + Point2(25 * Foundation.sin(Double(i) * 0.05 + phase), 12 * Foundation.cos(Double(i) * 0.04 + phase))
                })
            }
            out.append(try base.sequence("small-three", parts: parts,
                                         extra: [backdrop(photo(), name: "bg", frames: 0..<frames, drift: Point2(15, 10))],
                                         effects: .init(noiseSigma: 4), frames: frames))
        }

        // No face, but look-alikes turning and changing size over a photo, so that on some frames
        // dlib's search scores one above its threshold: every anchor here is a false face.
        if let lookAlikePath {
            let frames = 150
            let full = try Image(contentsOf: lookAlikePath)
            try full.normalizeToBGR()
            let top = Int(Double(full.height) * 0.4)
            let suit = try full.cropped(to: Rect(x: 0, y: Double(top), width: Double(full.width),
                                                  height: Double(full.height - top)))
            let pivot = Point2(Double(suit.width) / 2, Double(suit.height) / 2)
            let (s0, s1) = (jitter(0.8...1.0), jitter(1.4...1.7))
            let (a0, a1) = (jitter(-0.35 ... -0.15), jitter(0.15...0.35))
            let drift = Point2(jitter(-60...60), jitter(-30...30))
            let layer = SyntheticScene.Layer(name: "look-alikes", image: suit) { i in
                let t = Double(i) / Double(frames - 1)
                return .similarity(pivot: pivot, scale: s0 + (s1 - s0) * t, angle: a0 + (a1 - a0) * t,
                                   position: Point2(w * 0.5, h * 0.55) + drift * (t - 0.5))
            }
            out.append(try base.sequence("look-alikes", parts: [],
                                         extra: [backdrop(photo(), name: "bg", frames: 0..<frames, drift: Point2(20, 10)), layer],
                                         effects: .init(noiseSigma: 3), frames: frames))
        }
        return out
    }
}
