import HeritageCore

/// A colour look at a detected face before a track starts on it: the one cue the face detector,
/// its filters and the second detector all lack, since all three see only gray.
///
/// The look-alike that gets past all three is a name tag sewn on an orange suit (the astronaut
/// photo of `eval-faces`' look-alikes sequence): found at 0.2-0.6 (at 1.03 on one frame of an
/// H.264 recording, over the score that asks no second detector), fitted to a face the filters
/// score as one, and agreed on by the Haar cascade. Its middle (the eyes-to-mouth quadrilateral
/// the landmarks put on the tag) is blue and white, while the rest of the fitted face lies on the
/// orange cloth around it. A real face is skin in both parts. Measured on the exported hard
/// sequences of seeds 1-8 (every fifth frame; MP4 frames, whose 4:2:0 chroma blurs small faces
/// into what surrounds them): the middles of 2298 faces in every condition are at least 0.17 as
/// warm as the rest of their faces (99.5 % at least 0.88; the lowest are the 28-px faces of
/// `small-three`), while every look-alike dlib's detector found at 0.1 or more that had warm
/// cloth around it (over 8) had a middle at most 0.06 as warm (-12 to 2.3, the cloth 10-51).
/// Gray photographs and gray cameras have no warm surround, so they are never ruled out.
public struct FaceWarmth {
    public struct Options: Sendable {
        /// A surround at least this warm...
        public var warmSurround = 8.0
        /// ...rules out a middle at most this share as warm.
        public var coldMiddleShare = 0.1

        public init() {}
    }

    public let options: Options

    public init(options: Options = Options()) {
        self.options = options
    }

    /// The landmarks' eyes-to-mouth quadrilateral (outer eye corners, mouth corners).
    static let middle = [36, 45, 54, 48]
    /// The face's outline: jaw, then the brows right to left.
    static let outline = Array(0...16) + Array((17...26).reversed())

    /// The warmth of the face's middle and of the rest of it on `image` (BGR; landmarks in pixels
    /// of an image `scale` times smaller), nil when the image has no colour or the face is out of
    /// it.
    public func warmth(of landmarks: [Point2], in image: Image, scale: Double = 1) throws -> (middle: Double, around: Double)? {
        guard landmarks.count == 68, image.channels == 3 else { return nil }
        let inner = Self.middle.map { landmarks[$0] * scale }
        let outer = Self.outline.map { landmarks[$0] * scale }
        return try image.warmth(inside: inner, around: outer).map { ($0.inside, $0.around) }
    }

    /// Whether colour rules the face out: a middle far colder than a warm surround.
    public func rulesOut(_ warmth: (middle: Double, around: Double)) -> Bool {
        warmth.around >= options.warmSurround && warmth.middle <= options.coldMiddleShare * warmth.around
    }

    /// Whether the face's middle is as warm as skin: at least as warm as a surround that counts
    /// as warm. A gray picture's never is (`FaceTracker.keepsUnfound`).
    public func hasWarmMiddle(_ warmth: (middle: Double, around: Double)) -> Bool {
        warmth.middle >= options.warmSurround
    }
}
