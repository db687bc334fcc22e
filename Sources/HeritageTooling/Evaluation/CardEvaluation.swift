import HeritageLens
import HeritageCore

/// Scores a run of the card pipeline against a sequence's ground truth.
///
/// - A card-frame counts for recall when at least half the card is visible (inside the frame and
///   not occluded) and its top edge is at least a sixth of the frame wide; found cards that are
///   smaller or less visible count neither way.
/// - A false anchor is an anchor whose id is not in view or whose corners are more than a quarter
///   of the card's width off (that covers identity switches: another card's id on this one).
/// - Corner error: mean distance of the four corners from the truth, in pixels.
public struct CardSequenceScore: Sendable {
    public var name: String
    public var frames = 0
    public var countedCardFrames = 0
    public var foundCardFrames = 0
    public var falseAnchors = 0
    public var cornerErrors: [Double] = []
    public var framesToFirstAnchor: [Int] = []
    public var cardStageMilliseconds: [Double] = []

    public var recall: Double { countedCardFrames > 0 ? Double(foundCardFrames) / Double(countedCardFrames) : 1 }
}

public enum CardEvaluation {
    public static func score(_ sequence: CardSequence, anchors: [FrameAnchors]) -> CardSequenceScore {
        var s = CardSequenceScore(name: sequence.name)
        s.frames = anchors.count
        var firstCounted: [String: Int] = [:], firstFound: [String: Int] = [:]
        for frame in anchors {
            let truth = sequence.truth(frame.frame)
            let minimumWidth = Double(frame.size.width) / 6
            for anchor in frame.cards {
                guard let t = truth[anchor.id], t.visibleFraction > 0 else {
                    s.falseAnchors += 1
                    continue
                }
                let error = zip(anchor.corners, t.corners).map { $0.distance(to: $1) }.reduce(0, +) / 4
                let width = t.corners[0].distance(to: t.corners[1])
                if error > width / 4 {
                    s.falseAnchors += 1
                }
            }
            for (id, t) in truth {
                let width = t.corners[0].distance(to: t.corners[1])
                guard t.visibleFraction >= 0.5, width >= minimumWidth else { continue }
                s.countedCardFrames += 1
                if firstCounted[id] == nil { firstCounted[id] = frame.frame }
                if let a = frame.cards.first(where: { $0.id == id }) {
                    let error = zip(a.corners, t.corners).map { $0.distance(to: $1) }.reduce(0, +) / 4
                    if error <= width / 4 {
                        s.foundCardFrames += 1
                        s.cornerErrors.append(error)
                        if firstFound[id] == nil { firstFound[id] = frame.frame }
                    }
                }
            }
        }
        for (id, first) in firstCounted { s.framesToFirstAnchor.append((firstFound[id] ?? s.frames) - first) }
        return s
    }
}
