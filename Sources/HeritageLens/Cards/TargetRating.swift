import Foundation
import HeritageCore

/// How well an image will work as a card, in the spirit of ARCore's image tool and Vuforia's star
/// rating: enough features, spread over the whole image, not repeated within it, and not confused
/// with the other cards of the set.
public struct TargetRating: Sendable {
    public var name: String
    /// ORB features found on the 480-px reference.
    public var features: Int
    /// Share of a 6 x 8 grid's cells holding at least 4 features (spread).
    public var coverage: Double
    /// Share of features with a look-alike elsewhere in the same image (repeated structure
    /// confuses matching).
    public var repetition: Double
    /// Most ratio-test matches any other card of the set gets against this one, as a share of
    /// its features (look-alikes).
    public var confusion: Double
    /// 0-5.
    public var stars: Int

    /// The stars from the figures: one each for ≥ 300 features, ≥ 70 % coverage (two for ≥ 90 %),
    /// ≤ 15 % repetition, ≤ 5 % confusion. Repetition and confusion are shares of the features,
    /// which say nothing of an image with too few (a blank image confuses with nothing): they
    /// count only with ≥ 300 features.
    public static func stars(features: Int, coverage: Double, repetition: Double, confusion: Double) -> Int {
        var s = 0
        if features >= 300 { s += 1 }
        if coverage >= 0.7 { s += 1 }
        if coverage >= 0.9 { s += 1 }
        if features >= 300 && repetition <= 0.15 { s += 1 }
        if features >= 300 && confusion <= 0.05 { s += 1 }
        return s
    }
}

public enum TargetRater {
    /// Rates each image of `paths` against the others.
    public static func rate(_ paths: [String]) throws -> [TargetRating] {
        let orb = try ORBExtractor(features: CardSet.featuresPerCard, levels: 8)
        var refs: [(String, ORBFeatures, Size)] = []
        for path in paths {
            let image = try Image(contentsOf: path)
            try image.normalizeToBGR()
            let gray = Image(), small = Image()
            try image.convertToGray(into: gray)
            let w = CardSet.referenceWidth, h = Int(Double(image.height) * Double(w) / Double(image.width))
            try gray.resize(into: small, width: w, height: h, interpolation: .area)
            refs.append((path, try orb.detect(in: small), small.size))
        }
        return try refs.enumerated().map { i, ref in
            let (path, f, size) = ref
            var cells = [Int](repeating: 0, count: 48)
            for p in f.points {
                let cx = min(5, Int(p.x / Double(size.width) * 6)), cy = min(7, Int(p.y / Double(size.height) * 8))
                cells[cy * 6 + cx] += 1
            }
            let coverage = Double(cells.filter { $0 >= 4 }.count) / 48
            // Self-matching: the nearest neighbour other than itself is the second match.
            var repeated = 0
            if f.count >= 3 {
                let pairs = try selfNearest(f)
                repeated = pairs.filter { $0 }.count
            }
            let repetition = f.count > 0 ? Double(repeated) / Double(f.count) : 1
            var confusion = 0.0
            for (j, other) in refs.enumerated() where j != i {
                let m = try ratioMatches(query: other.1, train: f, ratio: 0.8)
                confusion = max(confusion, Double(m.count) / Double(max(1, f.count)))
            }
            let name = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
            return TargetRating(name: name, features: f.count, coverage: coverage, repetition: repetition,
                                confusion: confusion,
                                stars: TargetRating.stars(features: f.count, coverage: coverage, repetition: repetition,
                                                          confusion: confusion))
        }
    }

    /// For each feature: does a look-alike (within 40 Hamming bits) appear elsewhere in the image,
    /// more than 12 px away? That is repeated structure, which a ratio test rejects. Twins closer
    /// than that are the same corner found again at the next pyramid level, not repetition.
    static func selfNearest(_ f: ORBFeatures) throws -> [Bool] {
        let n = f.count
        var out = [Bool](repeating: false, count: n)
        f.descriptors.withUnsafeBytes { raw in
            let words = raw.bindMemory(to: UInt64.self)
            for i in 0..<n {
                let a = words.baseAddress! + 4 * i
                for j in 0..<n where j != i {
                    let b = words.baseAddress! + 4 * j
                    let d = (a[0] ^ b[0]).nonzeroBitCount + (a[1] ^ b[1]).nonzeroBitCount
                        + (a[2] ^ b[2]).nonzeroBitCount + (a[3] ^ b[3]).nonzeroBitCount
                    if d <= 40, f.points[i].distance(to: f.points[j]) > 12 {
                        out[i] = true
                        break
                    }
                }
            }
        }
        return out
    }
}
