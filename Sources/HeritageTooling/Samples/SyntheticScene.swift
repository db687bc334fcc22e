import HeritageLens
import HeritageCore

/// Renders frames of a scene made of picture layers moving over a background, and knows where
/// every layer's points land in each frame: the sample video and the test sequences are both
/// made with it, so tests have exact ground truth.
public final class SyntheticScene {
    /// A picture and where it is at each frame (nil: not in this frame).
    public struct Layer {
        public var name: String
        public var image: Image
        public var placement: (Int) -> Homography?

        public init(name: String, image: Image, placement: @escaping (Int) -> Homography?) {
            self.name = name
            self.image = image
            self.placement = placement
        }
    }

    /// Per-frame degradations, applied after compositing.
    public struct Effects {
        public var noiseSigma = 0.0
        public var blurSigma = 0.0
        /// JPEG quality of a compression round trip, or nil for none.
        public var jpegQuality: Int?
        /// Tone curve 255 (v/255)^gamma after lighting, or nil for none.
        public var gamma: Double?
        /// The blur a frame's exposure gives the motion, as a segment in pixels per frame index.
        public var motionBlur: ((Int) -> Point2)?

        public init(noiseSigma: Double = 0, blurSigma: Double = 0, jpegQuality: Int? = nil, gamma: Double? = nil,
                    motionBlur: ((Int) -> Point2)? = nil) {
            self.noiseSigma = noiseSigma
            self.blurSigma = blurSigma
            self.jpegQuality = jpegQuality
            self.gamma = gamma
            self.motionBlur = motionBlur
        }
    }

    public let size: Size
    public let background: Image
    public var layers: [Layer]
    /// Scene lighting applied after compositing: gain at the left edge, at the right, offset.
    public var lighting: (Double, Double, Double)?
    public var effects: Effects
    public let seed: UInt64

    public init(size: Size, layers: [Layer], effects: Effects = Effects(), seed: UInt64 = 1) throws {
        self.size = size
        self.layers = layers
        self.effects = effects
        self.seed = seed
        background = try Self.makeBackground(size: size, seed: seed)
    }

    /// Composites frame `index` into `output` (allocated to the scene's size).
    public func render(frame index: Int, into output: Image) throws {
        try background.copy(to: output)
        for layer in layers {
            guard let h = layer.placement(index) else { continue }
            try output.composite(layer.image, homography: h.m)
        }
        if let (left, right, offset) = lighting {
            try output.applyLight(gainLeft: left, gainRight: right, offset: offset)
        }
        if let gamma = effects.gamma { try output.applyGamma(gamma) }
        if let motion = effects.motionBlur?(index) { try output.motionBlur(dx: motion.x, dy: motion.y) }
        if effects.blurSigma > 0 {
            try output.blur(kernel: Int((effects.blurSigma * 3).rounded(.up)) * 2 + 1, sigma: effects.blurSigma)
        }
        if effects.noiseSigma > 0 {
            try output.addNoise(sigma: effects.noiseSigma, seed: seed &* 1_000_003 &+ UInt64(index))
        }
        if let q = effects.jpegQuality { try output.jpegRoundTrip(quality: q) }
    }

    /// A plausible indoor backdrop: a warm wall gradient with soft, non-repeating shapes, so that
    /// detectors see clutter rather than a flat field. Deterministic for a seed.
    public static func makeBackground(size: Size, seed: UInt64) throws -> Image {
        let image = try Image(width: size.width, height: size.height)
        var rng = SplitMix64(seed: seed)
        let bands = 24
        for i in 0..<bands {
            let y0 = Double(i) * Double(size.height) / Double(bands)
            let k = Double(i) / Double(bands - 1)
            image.drawRect(Rect(x: 0, y: y0, width: Double(size.width), height: Double(size.height) / Double(bands) + 1),
                           colour: Colour(red: 196 - 60 * k, green: 170 - 50 * k, blue: 140 - 30 * k), thickness: -1)
        }
        for _ in 0..<40 {
            let c = Point2(rng.next(in: 0...Double(size.width)), rng.next(in: 0...Double(size.height)))
            let r = rng.next(in: 6...50)
            let shade = rng.next(in: 40...220)
            image.drawCircle(at: c, radius: r, colour: Colour(red: shade, green: shade * 0.9, blue: shade * 0.75))
        }
        for _ in 0..<30 {
            let a = Point2(rng.next(in: 0...Double(size.width)), rng.next(in: 0...Double(size.height)))
            let b = a + Point2(rng.next(in: -120...120), rng.next(in: -120...120))
            let shade = rng.next(in: 20...240)
            image.drawLine(from: a, to: b, colour: Colour(red: shade * 0.8, green: shade, blue: shade * 0.7),
                           thickness: Int(rng.next(in: 1...4)))
        }
        try image.blur(kernel: 5, sigma: 1.2)
        return image
    }
}

