import Testing
@testable import HeritageCore

@Suite struct HeadModelTests {
    @Test func theModelIsLeftRightSymmetricAndFacesTheCamera() {
        let byIndex = Dictionary(uniqueKeysWithValues: zip(HeadModel.landmarkIndices, HeadModel.points))
        for (a, b) in [(36, 45), (39, 42), (48, 54), (0, 16), (31, 35)] {
            #expect(abs(byIndex[a]!.x + byIndex[b]!.x) < 1e-12)
            #expect(abs(byIndex[a]!.y - byIndex[b]!.y) < 1e-12)
        }
        // The nose tip is nearer the camera (smaller z) than the eye corners and the ears.
        #expect(byIndex[30]!.z < byIndex[36]!.z && byIndex[30]!.z < byIndex[0]!.z)
        // Metres: eye-corner width about 9 cm.
        #expect(abs(byIndex[45]!.x - byIndex[36]!.x - 0.09) < 0.005)
    }
}
