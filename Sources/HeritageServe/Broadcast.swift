import Foundation

/// Fans values out to a bounded number of subscribers. Each subscriber holds only the newest
/// value it has not taken yet: a slow or stalled one skips values (counted), never queues them,
/// and the sender never waits.
// `lock` guards the subscriber table.
final class Broadcast<Element: Sendable>: @unchecked Sendable {
    let limit: Int
    private let lock = NSLock()
    private var subscribers: [Int: AsyncStream<Element>.Continuation] = [:]
    private var nextID = 0
    private var finished = false
    private var skippedCount = 0
    private var latestValue: Element?

    init(limit: Int) { self.limit = limit }

    var count: Int { lock.withLock { subscribers.count } }
    var hasRoom: Bool { lock.withLock { !finished && subscribers.count < limit } }
    /// Values subscribers did not take before a newer one replaced them, all subscribers together.
    var skipped: Int { lock.withLock { skippedCount } }
    /// The last value sent (a new subscriber starts from it).
    var latest: Element? { lock.withLock { latestValue } }

    /// A stream of the values sent from now on (starting with the latest one), or nil when the
    /// limit is reached or the broadcast is over. Cancelling the consuming task unsubscribes.
    func subscribe() -> AsyncStream<Element>? {
        let (stream, continuation) = AsyncStream<Element>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let admitted: Bool = lock.withLock {
            guard !finished, subscribers.count < limit else { return false }
            let id = nextID
            nextID += 1
            subscribers[id] = continuation
            continuation.onTermination = { [weak self] _ in self?.remove(id) }
            if let latestValue { continuation.yield(latestValue) }
            return true
        }
        if !admitted {
            continuation.finish()
            return nil
        }
        return stream
    }

    func send(_ value: Element) {
        let targets: [AsyncStream<Element>.Continuation] = lock.withLock {
            latestValue = value
            return Array(subscribers.values)
        }
        var skipped = 0
        for c in targets {
            if case .dropped = c.yield(value) { skipped += 1 }
        }
        if skipped > 0 { lock.withLock { skippedCount += skipped } }
    }

    /// Ends every subscriber's stream; later subscriptions are refused.
    func finish() {
        let targets: [AsyncStream<Element>.Continuation] = lock.withLock {
            finished = true
            return Array(subscribers.values)
        }
        for c in targets { c.finish() }
    }

    private func remove(_ id: Int) {
        _ = lock.withLock { subscribers.removeValue(forKey: id) }
    }
}
