import Foundation

/// Which part of a sorted input list this process takes: `--shard I/N` keeps the inputs whose
/// position is I modulo N, so N processes given the same list split it between them with no
/// coordination. `auto/N` reads I from the scheduler that started the process: a Kubernetes
/// Indexed Job (`JOB_COMPLETION_INDEX`) or a Slurm job array (`SLURM_ARRAY_TASK_ID`, arrays
/// numbered from 0).
public struct ShardSelection: Hashable, Sendable, CustomStringConvertible {
    public let index: Int
    public let count: Int

    public static let indexVariables = ["JOB_COMPLETION_INDEX", "SLURM_ARRAY_TASK_ID"]

    public init(index: Int, count: Int) {
        self.index = index
        self.count = count
    }

    public enum ParseError: Error, Equatable, CustomStringConvertible {
        case malformed(String)
        case outOfRange(index: Int, count: Int)
        case noScheduler

        public var description: String {
            switch self {
            case .malformed(let text): return "--shard \(text): expected I/N (0 <= I < N) or auto/N"
            case .outOfRange(let index, let count):
                return "--shard \(index)/\(count): the index must be from 0 to \(count - 1) (Slurm: --array=0-\(count - 1))"
            case .noScheduler:
                return "--shard auto/N: neither JOB_COMPLETION_INDEX (Kubernetes Indexed Job) nor SLURM_ARRAY_TASK_ID (Slurm array) is set; give the index as I/N"
            }
        }
    }

    public init(parsing text: String, environment: [String: String]) throws(ParseError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let count = Int(parts[1]), count >= 1, count <= 1_000_000 else { throw .malformed(text) }
        let index: Int
        if parts[0] == "auto" {
            guard let value = Self.indexVariables.lazy.compactMap({ environment[$0] }).first else { throw .noScheduler }
            guard let parsed = Int(value.trimmingCharacters(in: .whitespaces)) else { throw .malformed("auto/\(count) (index \"\(value)\")") }
            index = parsed
        } else {
            guard let parsed = Int(parts[0]) else { throw .malformed(text) }
            index = parsed
        }
        guard index >= 0, index < count else { throw .outOfRange(index: index, count: count) }
        self.init(index: index, count: count)
    }

    public func select<T>(_ items: [T]) -> [T] {
        items.enumerated().filter { $0.offset % count == index }.map(\.element)
    }

    public var description: String { "\(index)/\(count)" }
}
