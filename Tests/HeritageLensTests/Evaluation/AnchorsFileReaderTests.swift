import Foundation
import HeritageCore
import Testing
@testable import HeritageLens
@testable import HeritageTooling

@Suite struct AnchorsFileReaderTests {
    /// What the anchors sink writes is what the scorer reads back: ids, frame indices, sizes and
    /// the 68 points at the file's precision.
    @Test func anchorsLinesReadBackAsTheyWereWritten() throws {
        let points = (0..<68).map { Point2(100 + Double($0) * 1.25, 50 + Double($0) * 0.5) }
        let frames = [
            FrameAnchors(frame: 0, time: 0, size: Size(width: 640, height: 480)),
            FrameAnchors(frame: 1, time: 1.0 / 30, size: Size(width: 640, height: 480),
                         faces: [FaceAnchor(id: 7, boundingBox: Rect(bounding: points), landmarks: points, pose: nil)]),
        ]
        let path = TestPaths.scratch() + "/a.anchors.jsonl"
        try frames.map(\.jsonLine).joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let read = try AnchorsFileReader.read(path)
        #expect(read.map(\.frame) == [0, 1])
        #expect(read[0].faces.isEmpty)
        #expect(read[1].faces.map(\.id) == [7])
        #expect(read[1].size == Size(width: 640, height: 480))
        let worst = zip(read[1].faces[0].landmarks, points).map { $0.distance(to: $1) }.max() ?? .infinity
        #expect(worst < 0.01)
    }

    @Test func aLineThatIsNotAnAnchorsLineNamesFileAndLine() throws {
        let path = TestPaths.scratch() + "/bad.jsonl"
        try "{\"schema\":1,\"frame\":0,\"t\":0,\"width\":640,\"height\":480,\"faces\":[],\"cards\":[]}\nnot json\n"
            .write(toFile: path, atomically: true, encoding: .utf8)
        #expect { try AnchorsFileReader.read(path) } throws: { "\($0)".contains("\(path): line 2") }
        #expect { try AnchorsFileReader.read(path + ".missing") } throws: { "\($0)".contains(".missing") }
    }
}
