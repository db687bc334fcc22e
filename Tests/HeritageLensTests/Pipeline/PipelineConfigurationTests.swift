import Foundation
import HeritageCore
import Testing
@testable import HeritageLens

@Suite(.enabled(if: FileManager.default.fileExists(atPath: TestPaths.packageRoot + "/Samples/cards/cards.json")
                && FileManager.default.fileExists(atPath: FaceModelFiles.landmarks68), "needs Samples/cards and libdlib-data"))
struct PipelineConfigurationTests {
    let size = Size(width: 640, height: 480)

    func trackers() throws -> (FaceTracker, CardTracker) {
        let faces = FaceTracker(detector: try HOGFaceDetector(), predictor: try LandmarkPredictor(),
                                appearance: try FaceAppearanceCheck(), secondOpinion: try FaceSecondOpinion(),
                                background: false)
        let cards = try CardTracker(cards: try CardSet(folder: TestPaths.packageRoot + "/Samples/cards"), background: false,
                                    intrinsics: .assumed(for: size))
        return (faces, cards)
    }

    /// Recognition before the face stages (it runs beside them on several cores), each tracker's
    /// search before its tracking, pose after both, drawing last.
    @Test func aFullRunIsBuiltInTheOneOrder() throws {
        let (faces, cards) = try trackers()
        let k = Intrinsics.assumed(for: size)
        let configuration = PipelineConfiguration(faces: faces, cards: cards, pose: k,
                                                  render: RenderStage(masks: nil, effects: nil), anchorOverlay: k,
                                                  statsOverlay: StatsOverlayStage())
        #expect(try configuration.stages().map(\.name)
                == ["convert", "card_detect", "face_detect", "faces", "cards", "pose", "render", "overlay", "stats"])
        #expect(try configuration.stages(.framePathWithoutSearches).map(\.name)
                == ["convert", "faces", "cards", "pose", "render", "overlay", "stats"])
        #expect(try configuration.stages(.searchesOnly).map(\.name) == ["card_detect", "face_detect"])
    }

    @Test func aRunWithoutTheGrayImageIsRefusedNamingTheStage() throws {
        let (faces, _) = try trackers()
        var configuration = PipelineConfiguration(faces: faces)
        configuration.convertsToGray = false
        #expect(throws: StageOrder.Problem(stage: "face_detect", missing: .gray, writtenBy: nil)) {
            try configuration.stages()
        }
        var copying = PipelineConfiguration()
        copying.convertsToGray = false
        #expect(try copying.stages().isEmpty)
    }
}
