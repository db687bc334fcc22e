import ArgumentParser
import Foundation
import HeritageLens

/// `process` over many videos: where their outputs go, which, how many at once, which share.
struct BatchOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Process every input into this existing folder (NAME.anchors.jsonl, ... per input NAME, and summary.jsonl); required with several inputs, a folder of videos or @LIST.", valueName: "dir"))
    var outputDir: String?

    @Option(help: ArgumentHelp("What each input gets in --output-dir, comma-separated: anchors, metrics, mp4, mkv, mov, avi.", valueName: "list"))
    var write: String = "anchors"

    @Option(parsing: .unconditional, help: ArgumentHelp("Videos processed at once (one core each).", valueName: "n"))
    var jobs: Int = 1

    @Flag(help: "Process inputs whose outputs are already complete (by default a batch run again skips them: it resumes).")
    var force = false

    @Option(parsing: .unconditional, help: ArgumentHelp("Take only the inputs at positions I, I+N, ... of the sorted list; auto/N reads I from JOB_COMPLETION_INDEX (Kubernetes Indexed Job) or SLURM_ARRAY_TASK_ID (Slurm array).", valueName: "I/N"))
    var shard: String?

    /// The outputs asked for, in a fixed order.
    func kinds() throws -> [BatchOutputKind] {
        var kinds: [BatchOutputKind] = []
        for item in write.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces).lowercased() }) where !item.isEmpty {
            guard let kind = BatchOutputKind(rawValue: item) else {
                throw ValidationError("--write \(item): expected anchors, metrics, mp4, mkv, mov or avi")
            }
            if !kinds.contains(kind) { kinds.append(kind) }
        }
        if kinds.isEmpty { throw ValidationError("--write: name at least one output (anchors, metrics, mp4, mkv, mov, avi)") }
        if kinds.filter(\.isVideo).count > 1 { throw ValidationError("--write: one video format per batch") }
        return kinds
    }

    func selection(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> ShardSelection? {
        guard let shard else { return nil }
        do {
            return try ShardSelection(parsing: shard, environment: environment)
        } catch {
            throw ValidationError(error.description)
        }
    }

    func validate() throws {
        if !(1...256).contains(jobs) { throw ValidationError("--jobs must be between 1 and 256") }
        _ = try kinds()
        // auto/N's index comes from the scheduler at run time; its form and N are checked now.
        if let shard, shard.hasPrefix("auto/") {
            _ = try selection(environment: [ShardSelection.indexVariables[0]: "0"])
        } else {
            _ = try selection()
        }
    }

    /// Whether any batch-only option was given (they need a batch).
    var anyGiven: Bool { outputDir != nil || write != "anchors" || jobs != 1 || force || shard != nil }
}
