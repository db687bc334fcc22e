import Foundation
import HeritageCore
import Testing
@testable import HeritageLens

struct CardTrailTests {
    func frame(_ value: Double) throws -> Image {
        let image = try Image(width: 64, height: 48, channels: 1)
        try image.fill(blue: value, green: value, red: value)
        return image
    }

    @Test func framesAreKeptAtHalfSizeInOrderOnceEach() throws {
        let trail = CardTrail(capacity: 10)
        try trail.append(try frame(10), frameIndex: 3)
        try trail.append(try frame(20), frameIndex: 3)
        try trail.append(try frame(30), frameIndex: 4)
        #expect(trail.entries.map(\.frameIndex) == [3, 4])
        #expect(trail.entries[0].gray.size == Size(width: 32, height: 24))
        #expect(trail.entry(after: 3)?.frameIndex == 4)
        #expect(trail.entry(after: 4) == nil)
        trail.clear()
        #expect(trail.isEmpty)
    }

    /// However long a recognition takes, the frame it ran on and the newest frame stay: the trail
    /// only gets coarser.
    @Test func aLongWaitThinsTheTrailButKeepsBothEnds() throws {
        let trail = CardTrail(capacity: 10)
        let image = try frame(0)
        for i in 100..<400 { try trail.append(image, frameIndex: i) }
        #expect(trail.entries.count <= 10)
        #expect(trail.entries.first?.frameIndex == 100)
        #expect(trail.entries.last?.frameIndex == 399)
        let indices = trail.entries.map(\.frameIndex)
        #expect(indices == indices.sorted())
    }
}

/// A live recognition lands many frames after the frame it ran on; a moving card has gone on
/// since, and is brought along the trail to the present.
@Suite(.enabled(if: FileManager.default.fileExists(atPath: TestPaths.packageRoot + "/Samples/cards/cards.json"),
                "needs Samples/cards"))
struct LateRecognitionTests {
    @Test func aMovingCardFoundLateIsBroughtForwardAndHeld() throws {
        let folder = TestPaths.packageRoot + "/Samples/cards"
        let set = try CardSet(folder: folder, cacheFolder: nil)
        var builder = CardSequenceBuilder(cardFolder: folder)
        builder.frameCount = 180
        let sequence = try #require(try builder.build().first { $0.name == "motion" })
        let tracker = try CardTracker(cards: set, background: true)
        let collector = AnchorCollector()
        // 240 fps: a recognition (40-90 ms of CPU in the gaps between frames) lands 20 or more
        // frames late, the card 100 px or more from where it was found: too far to find it again
        // from there in one step.
        _ = try Pipeline(source: try SceneSource(name: sequence.name, scene: sequence.scene, frameCount: sequence.frameCount,
                                                 framesPerSecond: 240, paced: true),
                         stages: [GrayConversionStage(), CardRecognitionStage(tracker: tracker),
                                  CardTrackingStage(tracker: tracker, backgroundRecognition: true)],
                         sinks: [collector]).run()
        tracker.finish()
        let first = try #require(collector.frames.firstIndex { !$0.cards.isEmpty }, "the card was never anchored")
        #expect(first < 120)
        let score = CardEvaluation.score(sequence, anchors: collector.frames)
        #expect(score.falseAnchors == 0)
        // Corner smoothing is tuned in seconds: eight times the motion per second lags it by a pixel or so.
        #expect((Percentiles(score.cornerErrors).median ?? 99) < 3)
        // Once found, held.
        let held = collector.frames[first...].filter { !$0.cards.isEmpty }.count
        #expect(Double(held) >= 0.9 * Double(collector.frames.count - first), "held \(held) of \(collector.frames.count - first)")
    }
}
