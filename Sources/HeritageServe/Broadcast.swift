import Synchronization

/// Fans values out to a bounded number of subscribers. Each subscriber holds only the newest
/// value it has not taken yet: a slow or stalled one skips values (counted), never queues them,
/// and the sender never waits.
final class Broadcast<Element: Sendable>: Sendable {
    private struct State {
        var subscribers: [Int: AsyncStream<Element>.Continuation] = [:]
        var nextID = 0
        var finished = false
        var skipped = 0
        var latest: Element?
    }

    let limit: Int
    private let state = Mutex(State())

    init(limit: Int) { self.limit = limit }

    var count: Int { state.withLock { $0.subscribers.count } }
    var hasRoom: Bool { state.withLock { !$0.finished && $0.subscribers.count < limit } }
    /// Values subscribers did not take before a newer one replaced them, all subscribers together.
    var skipped: Int { state.withLock { $0.skipped } }
    /// The last value sent (a new subscriber starts from it).
    var latest: Element? { state.withLock { $0.latest } }

    /// A stream of the values sent from now on (starting with the latest one), or nil when the
    /// limit is reached or the broadcast is over. Cancelling the consuming task unsubscribes.
    func subscribe() -> AsyncStream<Element>? {
        let (stream, continuation) = AsyncStream<Element>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let admitted: Bool = state.withLock { s in
            guard !s.finished, s.subscribers.count < limit else { return false }
            let id = s.nextID
            s.nextID += 1
            s.subscribers[id] = continuation
            continuation.onTermination = { [weak self] _ in self?.remove(id) }
            if let latest = s.latest { continuation.yield(latest) }
            return true
        }
        if !admitted {
            continuation.finish()
            return nil
        }
        return stream
    }

    func send(_ value: Element) {
        let targets: [AsyncStream<Element>.Continuation] = state.withLock { s in
            s.latest = value
            return Array(s.subscribers.values)
        }
        var skipped = 0
        for c in targets {
            if case .dropped = c.yield(value) { skipped += 1 }
        }
        if skipped > 0 { state.withLock { $0.skipped += skipped } }
    }

    /// Ends every subscriber's stream; later subscriptions are refused.
    func finish() {
        let targets: [AsyncStream<Element>.Continuation] = state.withLock { s in
            s.finished = true
            return Array(s.subscribers.values)
        }
        for c in targets { c.finish() }
    }

    private func remove(_ id: Int) {
        _ = state.withLock { $0.subscribers.removeValue(forKey: id) }
    }
}
