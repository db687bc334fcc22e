import Foundation
import HeritageCore

/// The tone curve a frame gets before a face search: a washed-out or dark frame is brought to
/// middle grey, since the detector's gradients vanish in the flat end of a gamma 0.36 or 2.2
/// curve (a washed-out face on a bright wall was not found at all), and a curve that restores
/// them costs a table lookup. Frames of ordinary exposure are searched as they are.
///
/// A bright frame is darkened only when its darkest hundredth is light too. A frame that is
/// bright on average but holds dark pixels is a subject against the light (a window behind
/// someone): darkening it would sink the face into the curve's flat end, which took dlib's scores
/// on such faces from 0.5-1.3 to under 0. Over the hard set's seeds 1-60 the darkest hundredth
/// of a washed-out frame's thumbnail is 61-142 (gamma 0.36 lifts every pixel above 4 to above 60),
/// of a backlit one 0-28.
public struct SearchExposure: Sendable {
    /// Mean grey above which a frame counts as bright, below which as dark.
    public var brightMean = 150.0
    public var darkMean = 60.0
    /// A bright frame whose darkest hundredth is under this holds a subject against the light.
    public var backlitDarkEnd = 45.0
    /// The mean grey a corrected frame is brought to.
    public var target = 110.0

    public init() {}

    /// The gamma that corrects `gray` (an 8-bit gray frame), or nil to search it as it is.
    public func gamma(for gray: Image) throws -> Double? {
        let mean = try gray.mean(channel: 0, in: Rect(x: 0, y: 0, width: Double(gray.width), height: Double(gray.height)))
        guard mean > brightMean || mean < darkMean, mean > 1, mean < 254 else { return nil }
        if mean > brightMean, try Self.darkestHundredth(of: gray) < backlitDarkEnd { return nil }
        return log(target / 255) / log(mean / 255)
    }

    /// `gray` with its correction applied, or `gray` itself when it needs none.
    public func corrected(_ gray: Image) throws -> Image {
        try corrections(of: gray).search
    }

    /// The correction the landmark model reads `gray` with: a washed-out frame's alone. The
    /// model's trees compare pixel differences with fixed thresholds, and a gamma 0.36 curve
    /// flattens a face's bright half under them; brightening a dark frame lifts its noise with
    /// its face, and fits on dark frames so corrected were worse (seeds 1-160 of the hard set:
    /// washed-out 2.9 -> 2.0 % of faces above 8 % error, dark 1.6 -> 2.1 %).
    public func landmarkGamma(for gray: Image) throws -> Double? {
        try gamma(for: gray).flatMap { Self.correctsLandmarks($0) ? $0 : nil }
    }

    /// Whether the landmark model reads a frame with this correction: one that darkens it.
    static func correctsLandmarks(_ gamma: Double) -> Bool { gamma > 1 }

    /// `gray` as the search reads it and as the landmark model reads it (either may be `gray`
    /// itself), with one measure of the frame.
    public func corrections(of gray: Image) throws -> (search: Image, landmarks: Image) {
        guard let gamma = try gamma(for: gray) else { return (gray, gray) }
        let out = try Self.toned(gray, gamma: gamma, into: nil)
        return (out, Self.correctsLandmarks(gamma) ? out : gray)
    }

    /// `gray` as the landmark model reads it (`landmarkGamma`): corrected in `buffer`, which is
    /// made or replaced when it is missing or of another size and kept for the next frame, or
    /// `gray` itself when it needs no correction.
    public func landmarkFrame(of gray: Image, in buffer: inout Image?) throws -> Image {
        guard let gamma = try landmarkGamma(for: gray) else { return gray }
        let out = try Self.toned(gray, gamma: gamma, into: buffer)
        buffer = out
        return out
    }

    /// `gray` with the curve `gamma` applied, in `buffer` when it has `gray`'s size.
    private static func toned(_ gray: Image, gamma: Double, into buffer: Image?) throws -> Image {
        let out = buffer.flatMap { $0.size == gray.size ? $0 : nil } ?? Image()
        try gray.copy(to: out)
        try out.applyGamma(gamma)
        return out
    }

    /// The grey level under which 1 % of a 160 x 120 thumbnail lies: averaged over 4 x 4 frame
    /// pixels, so lone dark pixels (noise, a thin line) do not count, and a face of 40 px between
    /// the eyes still covers over 1 % of it.
    static func darkestHundredth(of gray: Image) throws -> Double {
        let thumbnail = Image()
        try gray.resize(into: thumbnail, width: 160, height: 120, interpolation: .area)
        var counts = [Int](repeating: 0, count: 256)
        for v in thumbnail.samples() { counts[Int(v)] += 1 }
        let wanted = 160 * 120 / 100
        var seen = 0
        for (level, n) in counts.enumerated() {
            seen += n
            if seen >= wanted { return Double(level) }
        }
        return 255
    }
}
