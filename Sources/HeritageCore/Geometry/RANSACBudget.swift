import Foundation

/// How many RANSAC samples can find a model with a given number of inliers.
///
/// RANSAC's own stopping rule counts from the best model found so far, so among pairs that are
/// nearly all wrong (a card that is not in view still passes a few dozen look-alike matches) it
/// runs its full 2000 samples. A model with fewer than `inliers` inliers would be refused anyway,
/// and one with that many is drawn with probability `confidence` within the number given here:
/// more samples only look for models nobody takes.
public enum RANSACBudget {
    /// Samples of `sampleSize` pairs needed to draw an all-inlier sample at least once with
    /// probability `confidence`, when `inliers` of `pairs` are right (drawn without replacement),
    /// at most `limit`. 0 when no sample can hold that many inliers.
    public static func samples(toFind inliers: Int, among pairs: Int, sampleSize: Int = 4,
                               confidence: Double = 0.995, limit: Int = 2000) -> Int {
        guard inliers >= sampleSize, pairs >= inliers else { return 0 }
        var allRight = 1.0
        for k in 0..<sampleSize { allRight *= Double(inliers - k) / Double(pairs - k) }
        if allRight >= 1 { return 1 }
        let needed = log(1 - confidence) / log(1 - allRight)
        return min(limit, max(1, Int(needed.rounded(.up))))
    }
}
