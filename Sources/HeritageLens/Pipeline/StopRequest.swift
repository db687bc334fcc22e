import Synchronization

/// A request to end a run, shared by the run's pipeline, its sources and its workers, and by
/// whoever may end it (a quit key, a batch that failed to write its summary, a test).
///
/// Scoped to a run: two pipelines in one process (a batch's `--jobs`, tests in parallel) stop
/// independently. One that follows the process's stop signals (the CLI's) also ends on
/// Ctrl-C, SIGTERM or SIGHUP.
public final class StopRequest: Sendable {
    private let requested = Atomic<Bool>(false)
    private let followingProcessSignals: Bool

    public init(followingProcessSignals: Bool) {
        self.followingProcessSignals = followingProcessSignals
    }

    /// A request that also follows the process's stop signals, as a command's run does.
    public static func processSignals() -> StopRequest { StopRequest(followingProcessSignals: true) }

    public var isRequested: Bool {
        requested.load(ordering: .relaxed) || (followingProcessSignals && ProcessSignals.stopRequested)
    }

    public func request() { requested.store(true, ordering: .relaxed) }
}
