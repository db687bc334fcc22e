import HeritageLens
import Foundation
import HeritageCore

/// The project's own sample: a short clip for README's main-job command, made from a public-domain
/// portrait that Debian ships (python3-skimage's astronaut.png) moving over a generated backdrop,
/// plus the project's cards from `Samples/cards/` when they exist.
public struct SampleVideo {
    public struct Options {
        public var size = Size(width: 640, height: 480)
        public var framesPerSecond = 30.0
        public var frameCount = 180
        public var portraitPath = ProjectAssets.path("Samples/debian/astronaut.png")
        public var cardsFolder = ProjectAssets.path("Samples/cards")
        public var seed: UInt64 = 7

        public init() {}
    }

    public enum Failure: Error, CustomStringConvertible {
        case missingPortrait(String)

        public var description: String {
            switch self {
            case .missingPortrait(let p):
                return "\(p): missing; run scripts/fetch-debian-assets.sh (it extracts it from Debian's python3-skimage)"
            }
        }
    }

    public let options: Options

    public init(options: Options = Options()) {
        self.options = options
    }

    /// Builds the scene: the portrait sways, turns and comes closer and back.
    public func scene() throws -> SyntheticScene {
        guard FileManager.default.fileExists(atPath: options.portraitPath) else {
            throw Failure.missingPortrait(options.portraitPath)
        }
        let portrait = try Image(contentsOf: options.portraitPath)
        try portrait.normalizeToBGR()
        let size = options.size
        let n = Double(options.frameCount)
        let pivot = Point2(Double(portrait.width) / 2, Double(portrait.height) * 0.4)
        // The same framing at any size: the portrait grows with the frame's height.
        let framing = Double(size.height) / 480
        var layers = [SyntheticScene.Layer(name: "portrait", image: portrait) { i in
            let t = Double(i) / n * 2 * Double.pi
            let scale = (0.62 + 0.14 * sin(t)) * framing
            let angle = 0.22 * sin(2 * t) // about ±12.6°
            let position = Point2(Double(size.width) * (0.36 + 0.10 * sin(t + 1)),
                                  Double(size.height) * (0.46 + 0.06 * sin(2 * t)))
            return .similarity(pivot: pivot, scale: scale, angle: angle, position: position)
        }]
        let cardNames = ((try? FileManager.default.contentsOfDirectory(atPath: options.cardsFolder)) ?? [])
            .filter { $0.hasSuffix(".png") }.sorted()
        if let first = cardNames.first {
            let card = try Image(contentsOf: (options.cardsFolder as NSString).appendingPathComponent(first))
            try card.normalizeToBGR()
            let w = Double(card.width), h = Double(card.height)
            // Seen through the assumed webcam: turning and rolling as a hand-held card would, so
            // every quad is one a real camera could see (the card checks reject anything else).
            let camera = Intrinsics.assumed(for: size)
            let plane = CardPlane(width: 0.105, height: 0.105 * h / w)
            let distance = camera.fx * plane.width / (Double(size.width) * 0.22)
            let centre = Vector3((Double(size.width) * 0.78 - camera.cx) / camera.fx * distance,
                                 (Double(size.height) * 0.55 - camera.cy) / camera.fy * distance, distance)
            layers.append(.init(name: (first as NSString).deletingPathExtension, image: card) { i in
                let t = Double(i) / n * 2 * Double.pi
                let rotation = Vector3(0.2 * sin(t * 1.5), 0.45 * sin(t), 0.3 * sin(t * 2))
                let r = Matrix3(rodrigues: rotation)
                let pose = Pose(rotation: rotation, translation: centre - r * Vector3(plane.width / 2, plane.height / 2, 0))
                return plane.homography(referenceSize: Size(width: Int(w), height: Int(h)), pose: pose, intrinsics: camera)
            })
        }
        return try SyntheticScene(size: size, layers: layers, effects: .init(noiseSigma: 2.0), seed: options.seed)
    }

    /// Writes the clip to `path`, calling `progress` with each frame number.
    public func write(to path: String, progress: ((Int) -> Void)? = nil) throws {
        let scene = try scene()
        let sink = try VideoFileSink(path: path, size: options.size, framesPerSecond: options.framesPerSecond)
        let frame = try Image(width: options.size.width, height: options.size.height)
        for i in 0..<options.frameCount {
            try scene.render(frame: i, into: frame)
            try sink.write(ProcessedFrame(frame: Frame(index: i, time: Double(i) / options.framesPerSecond,
                                                       availableAt: 0, image: frame),
                                          output: frame, anchors: FrameAnchors(frame: i, time: 0, size: options.size)))
            progress?(i)
        }
        try sink.finish()
    }
}

