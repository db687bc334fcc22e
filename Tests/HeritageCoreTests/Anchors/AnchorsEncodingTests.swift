import Foundation
import Testing
@testable import HeritageCore

@Suite struct AnchorsEncodingTests {
    @Test func emptyFrameHasEmptyListsNotOmittedOnes() throws {
        let line = FrameAnchors(frame: 17, time: 0.56666, size: Size(width: 640, height: 480)).jsonLine
        #expect(line == #"{"schema":1,"frame":17,"t":0.5667,"width":640,"height":480,"faces":[],"cards":[]}"#)
    }

    @Test func faceAndCardRoundTripThroughJSONSerialization() throws {
        let landmarks = (0..<68).map { Point2(Double($0) + 0.125, 100 - Double($0) * 0.5) }
        let pose = Pose(rotation: Vector3(0.1, -0.2, 0.05), translation: Vector3(0.01, -0.02, 0.6))
        let anchors = FrameAnchors(
            frame: 3, time: 0.1, size: Size(width: 320, height: 240),
            faces: [FaceAnchor(id: 4, boundingBox: Rect(x: 1, y: 2, width: 30, height: 40), landmarks: landmarks,
                               pose: pose)],
            cards: [CardAnchor(id: "qingming", corners: [Point2(1, 2), Point2(3, 4), Point2(5, 6), Point2(7, 8)],
                               pose: pose)])
        let object = try #require(JSONSerialization.jsonObject(with: Data(anchors.jsonLine.utf8)) as? [String: Any])
        #expect(object["schema"] as? Int == 1)
        let faces = try #require(object["faces"] as? [[String: Any]])
        #expect(faces.count == 1)
        #expect(faces[0]["id"] as? Int == 4)
        let points = try #require(faces[0]["landmarks"] as? [[Double]])
        #expect(points.count == 68)
        #expect(abs(points[10][0] - 10.13) < 1e-9)  // 10.125 rounds half away from zero at 2 decimals
        let facePose = try #require(faces[0]["pose"] as? [String: Any])
        #expect(facePose["rvec"] as? [Double] == [0.1, -0.2, 0.05])
        #expect(facePose["tvec"] as? [Double] == [0.01, -0.02, 0.6])
        #expect((facePose["euler_deg"] as? [Double])?.count == 3)
        let cards = try #require(object["cards"] as? [[String: Any]])
        #expect(cards[0]["id"] as? String == "qingming")
        #expect((cards[0]["corners"] as? [[Double]])?[3] == [7, 8])
        #expect((cards[0]["pose"] as? [String: Any])?["euler_deg"] == nil)
    }

    @Test(arguments: [
        (0.0, 2, "0"), (1.0, 2, "1"), (-1.5, 2, "-1.5"), (0.005, 2, "0.01"), (-0.004, 2, "0"),
        (123.456789, 4, "123.4568"), (1e-7, 3, "0"), (Double.nan, 2, "null"), (10.10, 2, "10.1"),
        (0.05, 1, "0.1"), (2.5, 0, "3"),
    ])
    func fixedDecimals(value: Double, decimals: Int, expected: String) {
        #expect(JSONLineBuilder.format(value, decimals: decimals) == expected)
    }

    @Test func stringsAreEscaped() {
        var j = JSONLineBuilder()
        j.string("a\"b\\c\nd\u{1}立春")
        #expect(j.text == #""a\"b\\c\nd\u0001立春""#)
    }
}
