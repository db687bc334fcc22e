import Foundation
import HeritageCore
import Testing
@testable import HeritageLens
@testable import HeritageTooling

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
@Suite(.enabled(if: TestPaths.hasCards, "needs Samples/cards"))
struct LateRecognitionTests {
    /// The project's cards and one of `eval-cards`' sequences of them.
    /// Pins this thread, and the threads it starts (a tracker's recognition thread), to its first
    /// allowed CPU, as on a one-core machine; returns the CPUs to restore.
    func pinToOneCore() throws -> [Int] {
        let allowed = try ProcessResources.allowedCPUs()
        try ProcessResources.pin(to: [allowed[0]])
        return allowed
    }

    func cards(sequence name: String, frames: Int) throws -> (CardSet, CardSequence) {
        let folder = TestPaths.cardFolder
        var builder = CardSequenceBuilder(cardFolder: folder)
        builder.frameCount = frames
        let sequence = try #require(try builder.build().first { $0.name == name })
        return (try CardSet(folder: folder, cacheFolder: nil), sequence)
    }

    @Test func aMovingCardFoundLateIsBroughtForwardAndHeld() throws {
        let (set, sequence) = try cards(sequence: "motion", frames: 120)
        let frame = try Image(width: sequence.scene.size.width, height: sequence.scene.size.height)
        let grays = try (0..<sequence.frameCount).map { i in
            try sequence.scene.render(frame: i, into: frame)
            let gray = Image()
            try frame.convertToGray(into: gray)
            return gray
        }
        // The recognition thread shares this thread's core (see below), so it lands at `late`.
        let allowed = try pinToOneCore()
        defer { try? ProcessResources.pin(to: allowed) }
        let tracker = try CardTracker(cards: set, background: true)
        defer { tracker.finish() }
        // The first recognition runs on frame 0 and is taken in at frame `late`, whatever the
        // machine's speed: by then the card is 100 px or more from where it was found, too far
        // to be found again from there in one step.
        let late = 30
        var frames: [FrameAnchors] = []
        for (i, gray) in grays.enumerated() {
            if i == late { while tracker.isRecognizing { usleep(1000) } }
            try tracker.scheduleRecognition(on: gray, frameIndex: i)
            let cards = try tracker.update(with: gray, frameIndex: i, time: Double(i) / 30)
            frames.append(FrameAnchors(frame: i, time: Double(i) / 30, size: gray.size, faces: [], cards: cards))
        }
        let first = try #require(frames.firstIndex { !$0.cards.isEmpty }, "the card was never anchored")
        #expect(first < late + 30, "first anchored at frame \(first)")
        let score = CardEvaluation.score(sequence, anchors: frames)
        #expect(score.falseAnchors == 0)
        #expect((Percentiles(score.cornerErrors).median ?? 99) < 1.5)
        let held = frames[first...].filter { !$0.cards.isEmpty }.count
        #expect(Double(held) >= 0.9 * Double(frames.count - first), "held \(held) of \(frames.count - first)")
    }

    /// On a core too slow to recognise within a few frames, refreshes must not run back to back:
    /// a recognition that landed n frames after its own and found nothing new is followed by none
    /// for five times that while the card is tracked (the frames keep idle CPU); one that found a
    /// new card is followed at once (cards come in sets).
    @Test func aSlowRecognitionIsFollowedByARest() throws {
        let (set, sequence) = try cards(sequence: "still", frames: 90)
        let frame = try Image(width: sequence.scene.size.width, height: sequence.scene.size.height)
        // One core, as on the slow machine this is about: the recognition thread (started by the
        // tracker, so pinned alike) gets what this thread leaves. The first recognition is waited
        // for (it lands on the next frame, as on a fast core); the second usually lands when this
        // thread waits for it at frame 8 (a busy test run can let it finish earlier: the rest is
        // checked against the frame it did land on); later ones land on the next frame again.
        let allowed = try pinToOneCore()
        defer { try? ProcessResources.pin(to: allowed) }
        let options = CardTracker.Options()
        let tracker = try CardTracker(cards: set, background: true, options: options)
        defer { tracker.finish() }
        let wait = 8
        var started: [Int] = []
        var landedSecond: Int?
        var tracked: [Int] = []
        for i in 0..<sequence.frameCount {
            try sequence.scene.render(frame: i, into: frame)
            let gray = Image()
            try frame.convertToGray(into: gray)
            if i == wait { while tracker.isRecognizing { usleep(1000) } }
            let wasBusy = tracker.isRecognizing
            // This frame's update takes in the second recognition's result.
            if started.count == 2, landedSecond == nil, i > started[1], !wasBusy { landedSecond = i }
            try tracker.scheduleRecognition(on: gray, frameIndex: i)
            if !wasBusy && tracker.isRecognizing { started.append(i) }
            if !(try tracker.update(with: gray, frameIndex: i, time: Double(i) / 30)).isEmpty { tracked.append(i) }
            while (started.count == 1 || i >= wait) && tracker.isRecognizing { usleep(1000) }
        }
        #expect(started.first == 0)
        let firstTracked = try #require(tracked.first, "the card was never anchored")
        #expect(firstTracked <= 2, "first anchored at frame \(firstTracked)")
        // The first found the card: the next looks again after `searchInterval`, with no rest
        // (which would hold it to frame 1 + 5).
        try #require(started.count >= 3, "refreshes started at \(started)")
        #expect(started[1] <= options.searchInterval + 1, "refreshes started at \(started)")
        // The second found nothing new, and rests five times the frames it took.
        let landed = try #require(landedSecond, "the second recognition never landed")
        let took = landed - started[1]
        try #require(took >= 2, "the second recognition landed on frame \(landed), started on \(started[1])")
        let rest = landed + Int((Double(took) * options.restShare).rounded(.up))
        #expect(started[2] >= rest, "second landed on frame \(landed); refreshes started at \(started)")
        #expect(started[2] <= max(rest, started[1] + options.refreshInterval) + 2,
                "second landed on frame \(landed); refreshes started at \(started)")
    }
}
