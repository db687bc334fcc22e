import Foundation
import HeritageCore
import Testing
@testable import HeritageLens
@testable import HeritageTooling

/// Recognition of a card only partly in the frame.
@Suite(.serialized, .enabled(if: TestPaths.hasCards, "needs Samples/cards"))
struct CardRecognizerTests {
    static let folder = TestPaths.cardFolder

    /// Frames of the three crossing sequences while the card enters, with half to three quarters
    /// of it in view, and the card's id and true corners there.
    static func enteringFrames() throws -> [(gray: Image, id: String, corners: [Point2])] {
        let sequences = try CardSequenceBuilder(cardFolder: folder).build()
        var out: [(Image, String, [Point2])] = []
        for name in ["enter-leave", "enter-right", "enter-top"] {
            let sequence = try #require(sequences.first { $0.name == name })
            for i in 0..<sequence.frameCount / 2 {
                guard let (id, truth) = sequence.truth(i).first, (0.5...0.75).contains(truth.visibleFraction) else { continue }
                let frame = Image(), gray = Image()
                try sequence.scene.render(frame: i, into: frame)
                try frame.convertToGray(into: gray)
                out.append((gray, id, truth.corners))
            }
        }
        return out
    }

    /// How many of `frames` `recognizer` finds the right card in, its corners within 5 px.
    static func found(by recognizer: CardRecognizer, in frames: [(gray: Image, id: String, corners: [Point2])]) throws -> Int {
        try frames.filter { f in
            try recognizer.recognize(in: f.gray).contains { d in
                let card = recognizer.cards.cards[d.cardIndex]
                return card.id == f.id && zip(card.corners.map(d.homography.apply), f.corners).allSatisfy { ($0 - $1).length < 5 }
            }
        }.count
    }

    /// Features taken up to 16 px from the frame's edge rather than OpenCV's 31 find a card
    /// entering the frame while less of it shows.
    @Test func aCardHalfInTheFrameIsFoundWithFeaturesNearTheEdge() throws {
        let cards = try CardSet(folder: Self.folder, cacheFolder: nil)
        let frames = try Self.enteringFrames()
        #expect(frames.count >= 20)
        var opencvEdge = CardRecognizer.Options()
        opencvEdge.frameEdge = 31
        let near = try Self.found(by: CardRecognizer(cards: cards), in: frames)
        let far = try Self.found(by: CardRecognizer(cards: cards, options: opencvEdge), in: frames)
        #expect(near >= far + frames.count / 5, "found in \(near) of \(frames.count) frames, \(far) with OpenCV's edge")
    }
}
