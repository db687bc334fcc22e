import HeritageLens
import Foundation
import HeritageCore

/// Scores a run of the face pipeline against a sequence's ground truth.
///
/// - A ground-truth face counts for recall in frames where all 68 points are inside the frame and
///   none is under another face's picture; one partly outside or covered counts neither way.
/// - An anchor matches a ground-truth face when their eye midpoints are within half an eye distance.
/// - Anchors matching no ground-truth face (visible or not) are false positives.
/// - Landmark error: mean distance over points 17-67 divided by the outer-eye-corner distance
///   (points 36 and 45), the 300-W normalisation.
/// - Jitter (still sequences): per landmark, the RMS distance from its mean position over the
///   sequence after the first 10 frames, then the RMS over landmarks, in pixels.
/// - Continuity: of the consecutive frame pairs where a face is visible in both, after its first
///   anchor, the share where it is matched in both by the same track id.
/// - Each anchors line is scored against the sequence frame its time `t` shows, not its `frame`
///   count: a live run (`process --realtime`) drops the frames it cannot take, and from the first
///   drop on the count and the video's frame number part.
public struct FaceSequenceScore: Sendable {
    public var name: String
    public var frames = 0
    public var truthFaceFrames = 0
    public var matchedFaceFrames = 0
    public var falsePositives = 0
    public var landmarkErrors: [Double] = []
    public var jitterPixels: Double?
    public var continuityPairs = 0
    public var continuousPairs = 0
    public var idSwitches = 0
    /// Frames from a face becoming visible to its first anchor, per face.
    public var framesToFirstAnchor: [Int] = []
    /// "faces" + "face_detect" + "pose" stage milliseconds per frame.
    public var faceStageMilliseconds: [Double] = []

    public var recall: Double { truthFaceFrames > 0 ? Double(matchedFaceFrames) / Double(truthFaceFrames) : 1 }
}

public enum FaceEvaluation {
    static func visible(_ points: [Point2], in size: Size) -> Bool {
        points.allSatisfy { $0.x >= 1 && $0.y >= 1 && $0.x < Double(size.width) - 1 && $0.y < Double(size.height) - 1 }
    }

    /// Normalised landmark error over points 17-67.
    public static func landmarkError(_ found: [Point2], truth: [Point2]) -> Double {
        let norm = truth[36].distance(to: truth[45])
        var total = 0.0
        for i in 17..<68 { total += found[i].distance(to: truth[i]) }
        return total / 51 / norm
    }

    public static func score(_ sequence: FaceSequence, anchors: [FrameAnchors]) -> FaceSequenceScore {
        var s = FaceSequenceScore(name: sequence.name)
        s.frames = anchors.count
        var lastID: [Int: Int] = [:]  // face key -> track id matched in the previous frame
        var visibleBefore: Set<Int> = []
        var firstVisible: [Int: Int] = [:]
        var firstMatched: [Int: Int] = [:]
        var stillTracks: [[Point2]] = []
        for frame in anchors {
            let index = Int((frame.time * sequence.framesPerSecond).rounded())
            let truth = sequence.truth(index)
            let covered = sequence.covered(index)
            let visible = { (key: Int, points: [Point2]) in !covered.contains(key) && Self.visible(points, in: frame.size) }
            var matchedAnchors = Set<Int>()
            var matchedNow: [Int: Int] = [:]
            for (key, points) in truth.sorted(by: { $0.key < $1.key }) {
                let f = FaceFrame(landmarks: points)
                let isVisible = visible(key, points)
                let match = frame.faces.enumerated().filter { !matchedAnchors.contains($0.offset) }
                    .min { FaceFrame(landmarks: $0.element.landmarks).eyeMidpoint.distance(to: f.eyeMidpoint)
                        < FaceFrame(landmarks: $1.element.landmarks).eyeMidpoint.distance(to: f.eyeMidpoint) }
                var matched: FaceAnchor?
                if let m = match, FaceFrame(landmarks: m.element.landmarks).eyeMidpoint.distance(to: f.eyeMidpoint) < 0.5 * f.eyeDistance {
                    matchedAnchors.insert(m.offset)
                    matched = m.element
                }
                guard isVisible else { continue }
                s.truthFaceFrames += 1
                if firstVisible[key] == nil { firstVisible[key] = index }
                if let a = matched {
                    s.matchedFaceFrames += 1
                    matchedNow[key] = a.id
                    if firstMatched[key] == nil { firstMatched[key] = index }
                    s.landmarkErrors.append(landmarkError(a.landmarks, truth: points))
                    if sequence.isStill && index >= 10 { stillTracks.append(a.landmarks) }
                }
                if visibleBefore.contains(key), let first = firstMatched[key], first < index {
                    s.continuityPairs += 1
                    if let now = matchedNow[key], let before = lastID[key] {
                        if now == before { s.continuousPairs += 1 } else { s.idSwitches += 1 }
                    }
                }
            }
            s.falsePositives += frame.faces.count - matchedAnchors.count
            visibleBefore = Set(truth.filter { visible($0.key, $0.value) }.keys)
            lastID = matchedNow
        }
        for (key, first) in firstVisible {
            s.framesToFirstAnchor.append((firstMatched[key] ?? sequence.frameCount) - first)
        }
        if stillTracks.count > 2 {
            var sum = 0.0
            for i in 0..<68 {
                let mean = stillTracks.map { $0[i] }.centroid
                let ms = stillTracks.map { $0[i].distance(to: mean) * $0[i].distance(to: mean) }.reduce(0, +)
                    / Double(stillTracks.count)
                sum += ms
            }
            s.jitterPixels = (sum / 68).squareRoot()
        }
        return s
    }
}
