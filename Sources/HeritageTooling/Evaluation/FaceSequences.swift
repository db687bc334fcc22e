import HeritageLens
import Foundation
import HeritageCore

/// A test sequence with ground truth: where each face's 68 points are in every frame.
public struct FaceSequence {
    public var name: String
    public var scene: SyntheticScene
    public var frameCount: Int
    public var framesPerSecond = 30.0
    /// Ground truth per frame: face key -> 68 points (some may lie outside the frame).
    public var truth: (Int) -> [Int: [Point2]]
    /// Whether this sequence measures still-face jitter.
    public var isStill = false
    /// Keys of the faces another picture covers in part in a frame (drawn over them): such a face
    /// counts neither way, as one partly outside the frame does.
    public var covered: (Int) -> Set<Int> = { _ in [] }
}

/// Builds the evaluation sequences from annotated face photos: a still face; smooth motion with
/// roll to ±30° and scale 0.6–1.6; blur, noise and heavy JPEG; dark, backlit and side-lit faces;
/// 2–4 faces at once, some ~30 px between the eyes; a scene with no face but an animal face and
/// clutter; a face entering and leaving the frame.
public struct FaceSequenceBuilder {
    public var faces: [AnnotatedFace]
    /// A non-face picture for the no-face scene (a cat); optional.
    public var distractorPath: String?
    public var size = Size(width: 640, height: 480)
    public var frameCount = 90
    public var seed: UInt64 = 11

    public init(faces: [AnnotatedFace], distractorPath: String? = nil) {
        self.faces = faces
        self.distractorPath = distractorPath
    }

    /// A face photo cropped around the face, with its landmarks in crop coordinates, and those of
    /// any other annotated face of the same photo that lies wholly inside the crop.
    struct FacePatch {
        let image: Image
        let landmarks: [Point2]
        var others: [[Point2]] = []
        var eyeDistance: Double { FaceFrame(landmarks: landmarks).eyeDistance }
        var eyeMidpoint: Point2 { FaceFrame(landmarks: landmarks).eyeMidpoint }
    }

    func patch(_ face: AnnotatedFace, light: (Double, Double, Double)? = nil) throws -> FacePatch {
        let photo = try Image(contentsOf: face.imagePath)
        try photo.normalizeToBGR()
        let f = FaceFrame(landmarks: face.landmarks)
        let side = f.eyeDistance * 5.5
        var r = Rect(x: f.eyeMidpoint.x - side / 2, y: f.eyeMidpoint.y - side * 0.42, width: side, height: side)
        r = r.intersection(Rect(x: 0, y: 0, width: Double(photo.width), height: Double(photo.height)))
        let crop = try photo.cropped(to: r)
        if let light { try crop.applyLight(gainLeft: light.0, gainRight: light.1, offset: light.2) }
        let origin = Point2(r.x.rounded(.down), r.y.rounded(.down))
        let cropBox = Rect(x: 0, y: 0, width: Double(crop.width), height: Double(crop.height))
        let others = faces.filter { $0.imagePath == face.imagePath && $0.landmarks != face.landmarks }
            .map { $0.landmarks.map { $0 - origin } }
            .filter { pts in pts.allSatisfy { $0.x >= 0 && $0.y >= 0 && $0.x < cropBox.width && $0.y < cropBox.height } }
        return FacePatch(image: crop, landmarks: face.landmarks.map { $0 - origin }, others: others)
    }

    /// A layer that puts `patch` with its eye midpoint at `position(t)`, eye distance `eye(t)` px
    /// and roll `roll(t)` radians, t in 0...1 over the sequence; and its ground-truth function.
    func moving(_ patch: FacePatch, key: Int, eye: @escaping (Double) -> Double, roll: @escaping (Double) -> Double,
                position: @escaping (Double) -> Point2, frames: Int = 0)
        -> (SyntheticScene.Layer, (Int) -> [(Int, [Point2])])
    {
        let n = Double((frames > 0 ? frames : frameCount) - 1)
        let place: (Int) -> Homography = { i in
            let t = Double(i) / n
            return .similarity(pivot: patch.eyeMidpoint, scale: eye(t) / patch.eyeDistance, angle: roll(t),
                               position: position(t))
        }
        let layer = SyntheticScene.Layer(name: "face\(key)", image: patch.image) { place($0) }
        // Keys: 100 x the layer's key + 0 for its face, 1... for other faces in the same crop.
        return (layer, { i in
            let h = place(i)
            return [(key * 100, patch.landmarks.map(h.apply))]
                + patch.others.enumerated().map { (key * 100 + 1 + $0.offset, $0.element.map(h.apply)) }
        })
    }

    func sequence(_ name: String, parts: [(SyntheticScene.Layer, (Int) -> [(Int, [Point2])])],
                  extra: [SyntheticScene.Layer] = [], effects: SyntheticScene.Effects = .init(noiseSigma: 2),
                  frames: Int? = nil, still: Bool = false, backgroundLight: (Double, Double)? = nil) throws -> FaceSequence {
        let scene = try SyntheticScene(size: size, layers: extra + parts.map(\.0), effects: effects,
                                       seed: seed &+ UInt64(name.utf8.reduce(0) { $0 &* 31 &+ Int($1) }.magnitude))
        if let (gain, offset) = backgroundLight { try scene.background.applyLight(gainLeft: gain, gainRight: gain, offset: offset) }
        let truths = parts.map(\.1)
        var sequence = FaceSequence(name: name, scene: scene, frameCount: frames ?? frameCount,
                                    truth: { i in Dictionary(uniqueKeysWithValues: truths.flatMap { $0(i) }) }, isStill: still)
        sequence.covered = Self.covered(by: parts)
        return sequence
    }

    /// Which faces of `parts` (drawn in that order, later ones on top) another part's picture
    /// covers at least one point of, per frame.
    static func covered(by parts: [(SyntheticScene.Layer, (Int) -> [(Int, [Point2])])]) -> (Int) -> Set<Int> {
        { i in
            var out = Set<Int>()
            for (p, part) in parts.enumerated() where p + 1 < parts.count {
                let above = parts[(p + 1)...].compactMap { later -> (Homography, Size)? in
                    guard let inverse = later.0.placement(i)?.inverse else { return nil }
                    return (inverse, later.0.image.size)
                }
                for (key, points) in part.1(i) {
                    let hidden = points.contains { point in
                        above.contains { inverse, size in
                            let q = inverse.apply(point)
                            return q.x >= 0 && q.y >= 0 && q.x < Double(size.width) && q.y < Double(size.height)
                        }
                    }
                    if hidden { out.insert(key) }
                }
            }
            return out
        }
    }

    /// Faces whose crop holds no part of another annotated face (a face cut by the crop's edge
    /// would be a real face the ground truth cannot score).
    func cleanFaces() -> [AnnotatedFace] {
        faces.filter { face in
            let f = FaceFrame(landmarks: face.landmarks)
            let side = f.eyeDistance * 5.5
            let crop = Rect(x: f.eyeMidpoint.x - side / 2, y: f.eyeMidpoint.y - side * 0.42, width: side, height: side)
            return !faces.contains { other in
                other.imagePath == face.imagePath && other.landmarks != face.landmarks
                    && Rect(bounding: other.landmarks).intersection(crop).area > 0
                    && !other.landmarks.allSatisfy { $0.x >= crop.x && $0.y >= crop.y
                        && $0.x < crop.x + crop.width && $0.y < crop.y + crop.height }
            }
        }
    }

    public func build() throws -> [FaceSequence] {
        let usable = cleanFaces()
        precondition(!usable.isEmpty, "at least one annotated face")
        func face(_ k: Int) -> AnnotatedFace { usable[k % usable.count] }
        let w = Double(size.width), h = Double(size.height)
        let centre = Point2(w / 2, h * 0.45)
        var out: [FaceSequence] = []
        let sine: (Double, Double) -> Double = { t, cycles in Foundation.sin(2 * Double.pi * cycles * t) }

        out.append(try sequence("still", parts: [
            moving(try patch(face(0)), key: 0, eye: { _ in 50 }, roll: { _ in 0 }, position: { _ in centre }),
        ], still: true))

        out.append(try sequence("motion", parts: [
            moving(try patch(face(1)), key: 0, eye: { t in 45 * (1.1 + 0.5 * sine(t, 1.5)) },
                   roll: { t in 30 / degreesPerRadian * sine(t, 1) },
                   position: { t in centre + Point2(110 * sine(t, 0.75), 50 * sine(t, 1.25)) }, frames: 150),
        ], frames: 150))

        out.append(try sequence("degraded", parts: [
            moving(try patch(face(2)), key: 0, eye: { t in 55 + 10 * sine(t, 1) }, roll: { t in 0.25 * sine(t, 1) },
                   position: { t in centre + Point2(60 * sine(t, 1), 0) }),
        ], effects: .init(noiseSigma: 8, blurSigma: 1.4, jpegQuality: 25)))

        out.append(try sequence("dark", parts: [
            moving(try patch(face(3), light: (0.3, 0.3, 0)), key: 0, eye: { _ in 55 }, roll: { t in 0.2 * sine(t, 1) },
                   position: { t in centre + Point2(40 * sine(t, 1), 0) }),
        ], effects: .init(noiseSigma: 4), backgroundLight: (0.35, 0)))

        out.append(try sequence("backlit", parts: [
            moving(try patch(face(4), light: (0.55, 0.55, -10)), key: 0, eye: { _ in 55 }, roll: { _ in 0 },
                   position: { t in centre + Point2(0, 30 * sine(t, 1)) }),
        ], backgroundLight: (1.3, 70)))

        out.append(try sequence("sidelit", parts: [
            moving(try patch(face(5), light: (1.35, 0.3, 0)), key: 0, eye: { _ in 55 }, roll: { t in 0.15 * sine(t, 1) },
                   position: { t in centre + Point2(50 * sine(t, 1), 0) }),
        ]))

        out.append(try sequence("two-faces", parts: [
            moving(try patch(face(14)), key: 0, eye: { _ in 46 }, roll: { t in 0.15 * sine(t, 1) },
                   position: { t in Point2(w * 0.3, h * 0.45) + Point2(25 * sine(t, 1), 0) }),
            moving(try patch(face(15)), key: 1, eye: { _ in 40 }, roll: { _ in 0 },
                   position: { t in Point2(w * 0.7, h * 0.45) + Point2(0, 20 * sine(t, 1)) }),
        ]))

        out.append(try sequence("three-faces", parts: [
            moving(try patch(face(6)), key: 0, eye: { _ in 48 }, roll: { t in 0.2 * sine(t, 1) },
                   position: { t in Point2(w * 0.2, h * 0.35) + Point2(20 * sine(t, 1), 0) }),
            moving(try patch(face(7)), key: 1, eye: { _ in 36 }, roll: { _ in 0 },
                   position: { t in Point2(w * 0.55, h * 0.3) + Point2(0, 20 * sine(t, 1)) }),
            moving(try patch(face(8)), key: 2, eye: { _ in 30 }, roll: { _ in -0.1 },
                   position: { _ in Point2(w * 0.82, h * 0.7) }),
        ]))

        out.append(try sequence("four-faces", parts: [
            moving(try patch(face(9)), key: 0, eye: { _ in 40 }, roll: { _ in 0 }, position: { _ in Point2(w * 0.2, h * 0.3) }),
            moving(try patch(face(10)), key: 1, eye: { _ in 32 }, roll: { _ in 0.1 },
                   position: { t in Point2(w * 0.6, h * 0.28) + Point2(15 * sine(t, 1), 0) }),
            moving(try patch(face(11)), key: 2, eye: { _ in 30 }, roll: { _ in 0 }, position: { _ in Point2(w * 0.25, h * 0.75) }),
            moving(try patch(face(12)), key: 3, eye: { _ in 45 }, roll: { _ in -0.15 }, position: { _ in Point2(w * 0.75, h * 0.72) }),
        ]))

        var distractors: [SyntheticScene.Layer] = []
        if let path = distractorPath, FileManager.default.fileExists(atPath: path) {
            let cat = try Image(contentsOf: path)
            try cat.normalizeToBGR()
            let n = Double(frameCount - 1)
            distractors.append(.init(name: "cat", image: cat) { i in
                let t = Double(i) / n
                return .similarity(pivot: Point2(Double(cat.width) / 2, Double(cat.height) / 2), scale: 0.9 + 0.2 * sine(t, 1),
                                   angle: 0.2 * sine(t, 1), position: centre + Point2(60 * sine(t, 0.5), 0))
            })
        }
        out.append(try sequence("no-face", parts: [], extra: distractors))

        out.append(try sequence("enter-leave", parts: [
            moving(try patch(face(13)), key: 0, eye: { _ in 45 }, roll: { _ in 0 },
                   position: { t in Point2(-120 + (w + 240) * t, h * 0.45) }, frames: 150),
        ], frames: 150))
        return out
    }
}
