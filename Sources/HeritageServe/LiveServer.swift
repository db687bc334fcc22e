import Foundation
import HeritageLens
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle

/// `--serve`: an HTTP server for browsers and web tools, on its own event-loop thread at
/// background priority. Routes, and nothing else (no file system access from requests):
///
/// - `/`: the viewer page (every asset inline, no CDN);
/// - `/stream.mjpg`: the composited frames as MJPEG (multipart/x-mixed-replace);
/// - `/anchors`: WebSocket, one schema-1 JSON text message per frame, the anchors file's bytes;
/// - `/metrics.json`: the latest timings and a summary of the recent ones.
///
/// Every client gets the newest frame: a slow one skips frames, a stalled one is dropped after
/// `stallSeconds`. At most `clientsPerRoute` clients per streaming route; more get 503.
public final class LiveServer: LiveOutput, Sendable {
    public let options: ServeOptions
    /// The port listened on (the one asked for, or the one picked for port 0).
    public let port: Int
    private let hub: LiveHub
    private let group: MultiThreadedEventLoopGroup
    private let executor = BackgroundTaskExecutor(name: "serve-tasks")
    private let serviceGroup: ServiceGroup
    private let runTask: Task<Void, Never>
    /// Signalled when the server's task has ended.
    private let stopped = StartSignal()
    private let logger: Logger

    public init(options: ServeOptions, logger: Logger) throws(ServeError) {
        // A host that does not resolve is the user's typo, not a busy port: said before any loop starts.
        do {
            _ = try ResolvedHost(host: options.address.host, port: options.address.port, socketType: Int32(SOCK_STREAM.rawValue))
        } catch {
            throw .cannotResolve(options.address.description, reason: error.reason)
        }
        self.options = options
        self.logger = logger
        hub = LiveHub(options: options)
        group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        group.next().execute { BackgroundThread.lowerCurrentPriority() }

        let started = StartSignal()
        let app = Application(
            router: Self.router(hub: hub, options: options),
            server: .guardedWebSocketUpgrade(
                webSocketRouter: Self.webSocketRouter(hub: hub, options: options),
                configuration: .init(
                    http1: .init(idleTimeout: .milliseconds(Int64(options.idleSeconds * 1000)),
                                 httpDecoderConfiguration: .init(maxHeaderFieldSize: 8192, maxHeaderListSize: 16384,
                                                                 maxHeaderFieldCount: 64)),
                    ws: .init(maxFrameSize: 1 << 16, autoPing: .enabled(timePeriod: .seconds(10)),
                              closeTimeout: .seconds(2))),
                headSeconds: Int64(options.headSeconds),
                isFull: { [hub] path in path == "/anchors" && !hub.anchors.hasRoom }),
            configuration: .init(address: .hostname(options.address.host, port: options.address.port),
                                 serverName: "heritage-lens"),
            onServerRunning: { channel in started.signal(.success(channel.localAddress?.port ?? 0)) },
            eventLoopGroupProvider: .shared(group),
            logger: Self.connectionLogger(logger)
        )
        serviceGroup = ServiceGroup(configuration: .init(services: [app], gracefulShutdownSignals: [], logger: logger))
        let services = serviceGroup
        let stopped = self.stopped
        let executor = self.executor
        // Started on the server's own executor, not the shared cooperative pool: a caller whose
        // pool threads are all busy (a test run, a host app) would otherwise wait for the server
        // to start while the server waits for a pool thread.
        let runTask = Task.detached(executorPreference: executor) {
            do {
                try await services.run()
                started.signal(.failure(.init(text: "the server stopped", why: .other)))
            } catch {
                started.signal(.failure(Self.reason(error)))
            }
            stopped.signal(.success(0))
        }
        self.runTask = runTask
        switch started.wait(seconds: 30) {
        case .success(let port):
            self.port = port
        case .failure(let reason):
            // Cancelled, the server may still be winding down on its event loop after `run`
            // returns, and NIO traps on a loop shut down under it: the loop is left to the process.
            runTask.cancel()
            throw .cannotListen(options.address.description, reason: reason.text, why: reason.why)
        }
    }

    /// Hummingbird logs what clients do wrong (a refused or broken upgrade, a reset connection) as
    /// errors; for a server that answers them, that is the client's business, not a line on the
    /// user's terminal. Shown when debugging.
    private static func connectionLogger(_ logger: Logger) -> Logger {
        var quiet = logger
        if logger.logLevel > .debug { quiet.logLevel = .critical }
        return quiet
    }

    private static func reason(_ error: Error) -> StartSignal.Failure {
        if let e = error as? IOError {
            let why: ServeError.ListenFailure = switch e.errnoCode {
            case EADDRINUSE: .portInUse
            case EADDRNOTAVAIL: .notAnAddressOfThisMachine
            case EACCES: .portNeedsRoot
            default: .other
            }
            return .init(text: String(cString: strerror(e.errnoCode)), why: why)
        }
        return .init(text: "\(error)", why: .other)
    }

    public var wantsImage: Bool { hub.wantsImage }
    public func publish(_ frame: LiveFrame) { hub.publish(frame) }
    /// Waits until the newest published frame has reached the routes (tests).
    public func drain() { hub.drain() }
    /// Clients connected to each streaming route now.
    public var hubCounts: (anchors: Int, stream: Int) { (hub.anchors.count, hub.stream.count) }
    /// Frames clients did not take before a newer one replaced them, per route.
    public var skippedFrames: (anchors: Int, stream: Int) { (hub.anchors.skipped, hub.stream.skipped) }

    public func finish() {
        hub.finish()
        let services = serviceGroup
        Task.detached(executorPreference: executor) { await services.triggerGracefulShutdown() }
        // Open connections get a moment to close; the event loop goes only after the server has
        // stopped gracefully. Cancelled, the server can still be using its loop after `run`
        // returns (NIO traps on a loop shut down under it), so the loop is then left to the process.
        guard case .success = stopped.wait(seconds: 10) else {
            runTask.cancel()
            return
        }
        try? group.syncShutdownGracefully()
        executor.shutdown()
    }

    // MARK: routes

    static let htmlType = "text/html; charset=utf-8"

    private static func router(hub: LiveHub, options: ServeOptions) -> Router<ServeRequestContext> {
        let router = Router(context: ServeRequestContext.self)
        router.get("/") { _, _ in
            Response(status: .ok, headers: [.contentType: htmlType, .cacheControl: "no-cache"],
                     body: .init(byteBuffer: ByteBuffer(string: ViewerPage.html)))
        }
        router.get("/metrics.json") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/json", .cacheControl: "no-store"],
                     body: .init(byteBuffer: ByteBuffer(string: hub.latestStatus)))
        }
        router.get("/anchors") { _, _ in
            if !hub.anchors.hasRoom { return busy() }
            return Response(status: .upgradeRequired, headers: [.upgrade: "websocket", .contentType: "text/plain"],
                     body: .init(byteBuffer: ByteBuffer(string: "/anchors is a WebSocket\n")))
        }
        router.get("/stream.mjpg") { _, context -> Response in
            guard let frames = hub.stream.subscribe() else { return busy() }
            // A small send buffer: frames a slow viewer has not taken are skipped here instead of
            // waiting in the kernel, where a loopback buffer holds seconds of video.
            _ = context.channel.setOption(ChannelOptions.socketOption(.so_sndbuf), value: 128 * 1024)
            let watchdog = StallWatchdog(channel: context.channel, limitSeconds: options.stallSeconds)
            return Response(
                status: .ok,
                headers: [.contentType: MJPEG.contentType, .cacheControl: "no-cache, no-store"],
                body: .init { writer in
                    defer { watchdog.stop() }
                    for await part in frames {
                        try await watchdog.watch { try await writer.write(part) }
                    }
                    try await writer.finish(nil)
                })
        }
        return router
    }

    private static func webSocketRouter(hub: LiveHub, options: ServeOptions) -> Router<ServeRequestContext> {
        let router = Router(context: ServeRequestContext.self)
        // A client over the limit is answered 503 before this (`ClientLimitGate`); one that
        // raced another for the last place is upgraded and closed with 1013, "try again later".
        router.ws("/anchors") { inbound, outbound, context in
            guard let lines = hub.anchors.subscribe() else {
                try await outbound.close(.unknown(1013), reason: "too many clients")
                return
            }
            let watchdog = StallWatchdog(channel: context.requestContext.channel, limitSeconds: options.stallSeconds)
            defer { watchdog.stop() }
            // Writing in a child task (on the server's executor, as this one); reading here keeps
            // pings answered and notices the close.
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    for await line in lines {
                        try await watchdog.watch { try await outbound.write(.text(line)) }
                    }
                }
                for try await _ in inbound {}
                group.cancelAll()
            }
        }
        return router
    }

    private static func busy() -> Response {
        Response(status: .serviceUnavailable, headers: [.contentType: "text/plain", .retryAfter: "5"],
                 body: .init(byteBuffer: ByteBuffer(string: "too many clients; try again later\n")))
    }
}

/// A one-shot result handed from the server's task to the thread that waits for it.
// Unchecked: `outcome` is read and written only under `condition`, which the waiter sleeps on.
final class StartSignal: @unchecked Sendable {
    struct Failure { var text: String; var why: ServeError.ListenFailure }
    enum Outcome { case success(Int), failure(Failure) }
    private let condition = NSCondition()
    private var outcome: Outcome?

    func signal(_ o: Outcome) {
        condition.withLock {
            if outcome == nil { outcome = o }
            condition.broadcast()
        }
    }

    func wait(seconds: Double) -> Outcome {
        let deadline = Date().addingTimeInterval(seconds)
        return condition.withLock {
            while outcome == nil { if !condition.wait(until: deadline) { break } }
            return outcome ?? .failure(.init(text: "no answer within \(Int(seconds)) s", why: .other))
        }
    }
}
