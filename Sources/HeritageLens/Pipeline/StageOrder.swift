/// Checks that every stage of a pipeline comes after the stages that write what it reads, before
/// the first frame: a list assembled in the wrong order fails at once with the stage and the
/// field named, instead of tracking on an empty gray image.
public enum StageOrder {
    /// What the source gives every frame before any stage runs.
    public static let fromSource: Set<FrameField> = [.image]

    public struct Problem: Error, Equatable, CustomStringConvertible {
        public let stage: String
        public let missing: FrameField
        public let writtenBy: String?

        public var description: String {
            if let writtenBy {
                return "pipeline: stage '\(stage)' reads \(missing), which stage '\(writtenBy)' writes only after it; put '\(writtenBy)' first"
            }
            return "pipeline: stage '\(stage)' reads \(missing), which no stage before it writes"
        }
    }

    public static func check(_ stages: [FrameStage]) throws(Problem) {
        var available = fromSource
        for (i, stage) in stages.enumerated() {
            if let missing = stage.reads.subtracting(available).sorted(by: { $0.rawValue < $1.rawValue }).first {
                let later = stages[(i + 1)...].first { $0.writes.contains(missing) }
                throw Problem(stage: stage.name, missing: missing, writtenBy: later?.name)
            }
            available.formUnion(stage.writes)
        }
    }
}
