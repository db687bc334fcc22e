import Foundation
import HeritageLens

/// Runs Swift tasks on one thread at background priority. The server's connection handlers run
/// here (task executor preference is inherited by the tasks Hummingbird starts per connection),
/// instead of on Swift's shared pool at the frame thread's priority: writing to twenty clients
/// then takes the time the frame path leaves, as detection does.
// `condition` guards `jobs` and `running`.
final class BackgroundTaskExecutor: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var running = true

    init(name: String) {
        let thread = Thread { [self] in loop() }
        thread.name = name
        thread.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.withLock {
            jobs.append(job)
            condition.signal()
        }
    }

    /// Ends the thread once the queued jobs have run.
    func shutdown() {
        condition.withLock {
            running = false
            condition.signal()
        }
    }

    private func loop() {
        BackgroundThread.lowerCurrentPriority()
        while true {
            let batch: [UnownedJob] = condition.withLock {
                while jobs.isEmpty && running { condition.wait() }
                defer { jobs.removeAll(keepingCapacity: true) }
                return jobs
            }
            if batch.isEmpty { return }
            for job in batch { job.runSynchronously(on: asUnownedTaskExecutor()) }
        }
    }
}
