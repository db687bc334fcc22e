import HeritageLens
import Foundation
import HeritageCore

/// Reads an anchors file (schema 1, one JSON object a line) back into frames, so a run of the
/// product's own `process` on a recorded video can be scored like an in-process run.
public enum AnchorsFileReader {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public static func read(_ path: String) throws(Failure) -> [FrameAnchors] {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw Failure(description: "\(path): cannot read the anchors file; run process with --anchors \(path) first")
        }
        var frames: [FrameAnchors] = []
        for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: true).enumerated() {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  object["schema"] as? Int == FrameAnchors.schema,
                  let frame = object["frame"] as? Int,
                  let width = object["width"] as? Int, let height = object["height"] as? Int,
                  let faces = object["faces"] as? [[String: Any]] else {
                throw Failure(description: "\(path): line \(n + 1) is not a schema-\(FrameAnchors.schema) anchors line")
            }
            var anchors = FrameAnchors(frame: frame, time: (object["t"] as? Double) ?? 0, size: Size(width: width, height: height))
            for face in faces {
                guard let id = face["id"] as? Int, let points = face["landmarks"] as? [[Double]], points.count == 68,
                      points.allSatisfy({ $0.count == 2 }) else {
                    throw Failure(description: "\(path): line \(n + 1) has a face without an id and 68 landmarks")
                }
                let landmarks = points.map { Point2($0[0], $0[1]) }
                anchors.faces.append(FaceAnchor(id: id, boundingBox: Rect(bounding: landmarks), landmarks: landmarks, pose: nil))
            }
            frames.append(anchors)
        }
        return frames
    }
}
