import HeritageCore

/// "card_detect" (reads the gray frame): hands a due recognition to the worker (inline in `process`, where its cost
/// shows here; in the background live, where this only copies the gray frame).
public final class CardRecognitionStage: FrameStage {
    public let name = "card_detect"
    public let reads: Set<FrameField> = [.gray]
    public let writes: Set<FrameField> = []
    private let tracker: CardTracker

    public init(tracker: CardTracker) {
        self.tracker = tracker
    }

    public func process(_ work: inout FrameWork) throws {
        try tracker.scheduleRecognition(on: work.gray, frameIndex: work.frame.index)
    }
}

/// "cards" (reads the gray frame and the frame's faces): optical-flow tracking of the found cards;
/// cards into the frame's anchors.
public final class CardTrackingStage: FrameStage {
    public let name = "cards"
    public let reads: Set<FrameField> = [.gray]
    public let writes: Set<FrameField> = [.cards]
    private let tracker: CardTracker

    public init(tracker: CardTracker) {
        self.tracker = tracker
    }

    public func process(_ work: inout FrameWork) throws {
        let cards = try tracker.update(with: work.gray, frameIndex: work.frame.index, time: work.frame.time, tier: work.tier)
        // Faces moving explain the change where they are; the next recognition looks elsewhere.
        tracker.faceRegions = work.anchors.faces.map {
            RegionChangeMeter.regionMovingWith(face: $0.boundingBox.scaled(by: work.analysisScale))
        }
        work.anchors.cards = work.analysisScale == 1 ? cards : cards.map { $0.scaled(by: 1 / work.analysisScale) }
        if tracker.recognizesInBackground && tracker.recognitionMilliseconds > 0 {
            work.background.append(("card_detect", tracker.recognitionMilliseconds))
        }
    }

    public func finish() { tracker.finish() }
}
