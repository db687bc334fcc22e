import Synchronization
import Foundation
import Hummingbird
import HummingbirdWebSocket
import NIOCore

/// The request context of the live server: Hummingbird's, the WebSocket handler slot, and the
/// connection's channel, so that a stalled client can be closed.
struct ServeRequestContext: RequestContext, WebSocketRequestContext {
    var coreContext: CoreRequestContextStorage
    let webSocket: WebSocketHandlerReference<ServeRequestContext>
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        webSocket = .init()
        channel = source.channel
    }
}

/// Closes a streaming client's connection when one write has waited longer than the limit: a
/// client that stopped reading holds its slot otherwise, while its socket buffers stay full.
final class StallWatchdog: Sendable {
    private let channel: any Channel
    private let limit: Duration
    /// When the write under watch began; nil between writes.
    private let writingSince = Mutex<ContinuousClock.Instant?>(nil)
    private let task = Mutex<Task<Void, Never>?>(nil)

    init(channel: any Channel, limitSeconds: Double) {
        self.channel = channel
        limit = .milliseconds(Int64(limitSeconds * 1000))
        let watcher = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(500))
                guard let self else { return }
                if self.isStalled {
                    self.channel.close(promise: nil)
                    return
                }
            }
        }
        task.withLock { $0 = watcher }
    }

    private var isStalled: Bool {
        writingSince.withLock { $0.map { ContinuousClock.now - $0 > limit } ?? false }
    }

    /// Runs one write under watch.
    func watch<R>(_ write: () async throws -> R) async rethrows -> R {
        writingSince.withLock { $0 = .now }
        defer { writingSince.withLock { $0 = nil } }
        return try await write()
    }

    func stop() { task.withLock { $0?.cancel() } }
}
