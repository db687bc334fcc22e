import Foundation
import HeritageCore
import Testing
@testable import HeritageLens
@testable import HeritageTooling

/// The card pipeline on rendered sequences of the project's own cards.
@Suite(.serialized, .enabled(if: TestPaths.hasCards, "needs Samples/cards"))
struct CardPipelineTests {
    static let folder = TestPaths.cardFolder

    func run(_ sequence: CardSequence, set: CardSet, tier: Tier = .low) throws -> [FrameAnchors] {
        let tracker = try CardTracker(cards: set, background: false)
        let collector = AnchorCollector()
        _ = try PipelineConfiguration(cards: tracker, pose: .assumed(for: sequence.scene.size))
            .makePipeline(source: try SceneSource(name: sequence.name, scene: sequence.scene, frameCount: sequence.frameCount),
                          sinks: [collector], options: .init(tier: tier)).run()
        return collector.frames
    }

    @Test func theSixCardsLoadWithTheirPhysicalSize() throws {
        let set = try CardSet(folder: Self.folder, cacheFolder: nil)
        #expect(set.cards.map(\.id) == ["lichun", "yushui", "jingzhe", "chunfen", "qingming", "guyu"])
        for card in set.cards {
            #expect(abs(card.plane.width - 0.105) < 1e-9)
            #expect(abs(card.plane.height - 0.148) < 0.001)
            #expect(card.features.count > 500)
            #expect(card.trackPoints.count > 60)
        }
    }

    @Test func featuresAreCachedAndAChangedCardIsRebuilt() throws {
        let cache = TestPaths.scratch()
        let dir = TestPaths.scratch()
        let card = try Image(contentsOf: Self.folder + "/guyu.png")
        try card.write(to: dir + "/mine.png")
        try #"{"cards": [{"id": "mine", "image": "mine.png", "width_m": 0.1}]}"#
            .write(toFile: dir + "/cards.json", atomically: true, encoding: .utf8)
        let first = try CardSet(folder: dir, cacheFolder: cache)
        let files = try FileManager.default.contentsOfDirectory(atPath: cache).sorted()
        // The features, and the gray reference with its track points.
        #expect(files.count == 2 && files[0].hasSuffix(".orb") && files[1].hasSuffix(".ref"))
        func same(_ a: CardReference, _ b: CardReference) -> Bool {
            a.features.descriptors == b.features.descriptors && a.features.points == b.features.points
                && a.gray.samples() == b.gray.samples() && a.trackPoints == b.trackPoints && a.patch.samples() == b.patch.samples()
        }
        let again = try CardSet(folder: dir, cacheFolder: cache)
        #expect(same(again.cards[0], first.cards[0]))
        #expect(same(try CardSet(folder: dir, cacheFolder: nil).cards[0], first.cards[0]))
        // A different picture under the same name gets new cache entries.
        let other = try Image(contentsOf: Self.folder + "/lichun.png")
        try other.write(to: dir + "/mine.png")
        _ = try CardSet(folder: dir, cacheFolder: cache)
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache).count == 4)
        // Damaged cache files are ignored and rebuilt.
        try card.write(to: dir + "/mine.png")
        for file in files {
            try Data("HLREF1\ngarbage".utf8).write(to: URL(fileURLWithPath: cache + "/" + file))
        }
        let rebuilt = try CardSet(folder: dir, cacheFolder: cache)
        #expect(same(rebuilt.cards[0], first.cards[0]))
        #expect(same(try CardSet(folder: dir, cacheFolder: cache).cards[0], first.cards[0]))
    }

    @Test func badCardFoldersSayWhatIsWrong() throws {
        let dir = TestPaths.scratch()
        #expect { try CardSet(folder: dir) } throws: { "\($0)".contains("cards.json: missing") }
        try #"{"cards": [{"id": "x", "image": "x.png"}]}"#.write(toFile: dir + "/cards.json", atomically: true, encoding: .utf8)
        #expect { try CardSet(folder: dir) } throws: { "\($0)".contains("width_m") }
        try #"{"cards": [{"id": "x", "image": "x.png", "width_m": 0.1}]}"#.write(toFile: dir + "/cards.json", atomically: true, encoding: .utf8)
        #expect { try CardSet(folder: dir) } throws: { "\($0)".contains("x.png") }
        try "{not json".write(toFile: dir + "/cards.json", atomically: true, encoding: .utf8)
        #expect { try CardSet(folder: dir) } throws: { "\($0)".contains("not JSON") }
    }

    @Test func aMovingCardIsFoundAndTrackedToSubPixelCorners() throws {
        let set = try CardSet(folder: Self.folder, cacheFolder: nil)
        var builder = CardSequenceBuilder(cardFolder: Self.folder)
        builder.frameCount = 45
        let sequences = try builder.build()
        // The low tier aligns cards with their reference on a half-size copy, the high tier on the frame.
        for tier in [Tier.low, .high] {
            for name in ["still", "near-far", "side-light"] {
                let sequence = try #require(sequences.first { $0.name == name })
                let score = CardEvaluation.score(sequence, anchors: try run(sequence, set: set, tier: tier))
                #expect(score.recall >= 0.95, "\(name) \(tier) recall \(score.recall)")
                #expect(score.falseAnchors == 0, "\(name) \(tier)")
                #expect((Percentiles(score.cornerErrors).median ?? 99) < 1, "\(name) \(tier)")
            }
        }
    }

    /// A point of a frame lands where resizing puts it: the half-size copy is shifted by a quarter
    /// of its pixel, not only scaled (a plain halving would bias every low-tier card by that much).
    @Test func theHalfSizeCopyKeepsPixelCentres() throws {
        let full = try Image(width: 64, height: 48, channels: 1)
        full.drawRect(Rect(x: 20, y: 30, width: 2, height: 2), colour: .white, thickness: -1)
        let half = Image()
        try full.resize(into: half, width: 32, height: 24, interpolation: .area)
        let samples = half.samples()
        var sx = 0.0, sy = 0.0, sum = 0.0
        for (i, v) in samples.enumerated() where v > 0 {
            sx += Double(i % 32) * Double(v); sy += Double(i / 32) * Double(v); sum += Double(v)
        }
        let centre = CardTracker.resampling(from: full.size, to: half.size).apply(Point2(20.5, 30.5))
        #expect(abs(centre.x - sx / sum) < 0.01 && abs(centre.y - sy / sum) < 0.01, "\(centre) vs \(sx / sum), \(sy / sum)")
    }

    @Test func otherPicturesGiveNoCard() throws {
        let set = try CardSet(folder: Self.folder, cacheFolder: nil)
        var builder = CardSequenceBuilder(cardFolder: Self.folder,
                                          distractors: [TestPaths.debianAsset("astronaut.png"), TestPaths.debianAsset("chelsea.png")].compactMap { $0 })
        builder.frameCount = 30
        let sequence = try #require(try builder.build().first { $0.name == "no-card" })
        let anchors = try run(sequence, set: set)
        #expect(anchors.allSatisfy { $0.cards.isEmpty })
    }

    @Test func cardPoseComesBackFromTheCorners() throws {
        let plane = CardPlane(width: 0.105, height: 0.148)
        let k = Intrinsics.assumed(for: Size(width: 640, height: 480))
        let truth = CardSequenceBuilder.pose(distance: 0.45, yaw: 0.4, pitch: -0.2, roll: 0.3, plane: plane)
        let corners = plane.corners.map { k.project(truth.transform($0)) }
        let found = try #require(PoseSolver(intrinsics: k).cardPose(corners: corners, plane: plane))
        #expect((found.translation - truth.translation).length < 1e-4)
        #expect((found.rotation - truth.rotation).length < 1e-3)
    }
}
