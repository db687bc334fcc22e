import Foundation
import HeritageCore

/// One line of a batch's summary (`summary.jsonl`): what became of one input.
public struct BatchRecord: Codable, Hashable, Sendable {
    public enum Status: String, Codable, Sendable {
        /// Processed, outputs published.
        case done
        /// Its outputs were already complete (a resumed batch); nothing was read or written.
        case skipped
        case failed
        /// Stopped by a signal before it finished; its outputs were not published.
        case interrupted
    }

    public var input: String
    public var status: Status
    public var frames: Int = 0
    public var seconds: Double = 0
    public var fps: Double = 0
    /// Distinct face ids and card ids anchored in the video, and frames with at least one face.
    public var faces: Int = 0
    public var framesWithFaces: Int = 0
    public var cards: [String] = []
    public var error: String?
    /// Done, with something to know: a video that decoded short of its announced frames.
    public var warning: String?

    public init(input: String, status: Status) {
        self.input = input
        self.status = status
    }

    /// The lines of a summary an earlier run of the batch wrote, by input: a resumed batch keeps
    /// the figures of the inputs it skips. Lines that do not read (a run killed mid-line) are left out.
    public static func lines(ofSummary path: String) -> [String: BatchRecord] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [:] }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        var records: [String: BatchRecord] = [:]
        for line in text.split(separator: "\n") {
            if let record = try? decoder.decode(BatchRecord.self, from: Data(line.utf8)) { records[record.input] = record }
        }
        return records
    }

    public func jsonLine() -> String {
        var o: [String] = []
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        func string(_ s: String) -> String {
            let data = try? encoder.encode(s)
            return data.map { String(decoding: $0, as: UTF8.self) } ?? "\"\""
        }
        o.append("\"input\":\(string(input))")
        o.append("\"status\":\"\(status.rawValue)\"")
        o.append("\"frames\":\(frames)")
        o.append("\"seconds\":\(String(format: "%.3f", seconds))")
        o.append("\"fps\":\(String(format: "%.1f", fps))")
        o.append("\"faces\":\(faces)")
        o.append("\"frames_with_faces\":\(framesWithFaces)")
        o.append("\"cards\":[\(cards.map(string).joined(separator: ","))]")
        if let error { o.append("\"error\":\(string(error))") }
        if let warning { o.append("\"warning\":\(string(warning))") }
        return "{" + o.joined(separator: ",") + "}"
    }
}
