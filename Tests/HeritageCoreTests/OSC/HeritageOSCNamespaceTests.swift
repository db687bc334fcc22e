import Testing
@testable import HeritageCore

@Suite struct HeritageOSCNamespaceTests {
    static func anchors(faces: Int, cards: Int, cardID: String = "qingming") -> FrameAnchors {
        let pose = Pose(rotation: Vector3(0.1, -0.2, 0.05), translation: Vector3(0.01, -0.02, 0.6))
        let face = { (id: Int) in
            FaceAnchor(id: id, boundingBox: Rect(x: 1, y: 2, width: 30, height: 40),
                       landmarks: (0..<68).map { Point2(Double($0) * 3.5, 400 - Double($0)) }, pose: id % 2 == 0 ? pose : nil)
        }
        let card = CardAnchor(id: cardID, corners: [Point2(1, 2), Point2(3, 4), Point2(5, 6), Point2(7, 8)], pose: pose)
        return FrameAnchors(frame: 9, time: 0.3, size: Size(width: 640, height: 480),
                            faces: (0..<faces).map(face), cards: Array(repeating: card, count: cards))
    }

    static let metrics = FrameMetrics(frame: 9, time: 0.3, tier: "high", totalMilliseconds: 6.5,
                                      stages: [("capture", 0.2), ("convert", 0.3), ("faces", 2.5), ("render", 3.5)])

    @Test func oneBundlePerEntityEachInOneDatagram() {
        let bundles = HeritageOSCNamespace.bundles(for: Self.anchors(faces: 16, cards: 6), metrics: Self.metrics)
        #expect(bundles.count == 1 + 16 + 6)
        let datagrams = HeritageOSCNamespace.datagrams(bundles)
        #expect(datagrams.count == bundles.count)
        #expect(datagrams.allSatisfy { $0.count <= HeritageOSCNamespace.datagramLimit })
    }

    @Test func frameMessageCarriesIndexTimeTierAndLatency() {
        let frame = HeritageOSCNamespace.bundles(for: Self.anchors(faces: 2, cards: 1), metrics: Self.metrics)[0]
        #expect(frame.messages[0] == OSCMessage("/heritage/frame", [
            .int32(9), .float32(0.3), .string("high"), .float32(6.5), .int32(2), .int32(1), .int32(640), .int32(480),
        ]))
        #expect(frame.messages[1].address == "/heritage/frame/stages")
        #expect(frame.messages[1].arguments.prefix(2) == [.string("capture"), .float32(0.2)])
        #expect(frame.messages[1].arguments.count == 8)
    }

    @Test func faceAndCardMessagesHaveFixedShapes() {
        let bundles = HeritageOSCNamespace.bundles(for: Self.anchors(faces: 2, cards: 1), metrics: nil)
        let posed = bundles[1].messages[0], unposed = bundles[2].messages[0]
        #expect(posed.address == "/heritage/face" && posed.arguments.count == 1 + 4 + 1 + 9)
        #expect(posed.arguments[5] == .int32(1) && posed.arguments[6] == .float32(0.1))
        #expect(unposed.arguments[5] == .int32(0) && unposed.arguments[6] == .float32(0))
        let landmarks = bundles[1].messages[1]
        #expect(landmarks.address == "/heritage/face/landmarks" && landmarks.arguments.count == 137)
        #expect(landmarks.arguments[0] == .int32(0) && landmarks.arguments[3] == .float32(3.5))
        let card = bundles[3].messages[0]
        #expect(card.address == "/heritage/card" && card.arguments.count == 1 + 8 + 1 + 6)
        #expect(card.arguments[0] == .string("qingming"))
    }

    @Test func anOversizedBundleIsSentMessageByMessage() {
        let huge = String(repeating: "x", count: 1500)
        let bundles = HeritageOSCNamespace.bundles(for: Self.anchors(faces: 1, cards: 0), metrics: nil)
        let split = HeritageOSCNamespace.datagrams(bundles, limit: 500)
        // The face bundle (face + landmarks) is over 500 bytes: two datagrams.
        #expect(split.count == 1 + 2)
        let card = HeritageOSCNamespace.bundles(for: Self.anchors(faces: 0, cards: 1, cardID: huge), metrics: nil)
        #expect(HeritageOSCNamespace.datagrams(card).count == 2)
    }
}
