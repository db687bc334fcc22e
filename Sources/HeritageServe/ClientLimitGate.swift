import NIOCore
import NIOHTTP1

/// Answers a WebSocket upgrade to a route that has no room left with HTTP 503 before the upgrade
/// handler sees it. Hummingbird's upgrade path has no way to refuse with a status of our own (a
/// refused upgrade is redirected to itself), and a client must learn it is over the limit the
/// same way on every route: 503 with Retry-After, not a WebSocket opened and closed at once.
final class ClientLimitGate: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    /// Whether the route at this path (no query) takes no more clients.
    private let isFull: @Sendable (String) -> Bool
    /// Parts of a refused request still arriving (its body, its end) are dropped.
    private var refusing = false

    init(isFull: @escaping @Sendable (String) -> Bool) { self.isFull = isFull }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let part = unwrapInboundIn(data)
        switch part {
        case .head(let head):
            let path = String(head.uri.prefix { $0 != "?" })
            let upgrade = head.headers["upgrade"].contains { $0.lowercased() == "websocket" }
            guard upgrade else { return context.fireChannelRead(data) }
            guard isFull(path) else {
                // After an upgrade the channel carries WebSocket frames, not HTTP parts: this
                // handler's part is done.
                context.fireChannelRead(data)
                context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
                return
            }
            refusing = true
            var headers = HTTPHeaders()
            let body = "too many clients; try again later\n"
            headers.add(name: "Content-Type", value: "text/plain")
            headers.add(name: "Content-Length", value: "\(body.utf8.count)")
            headers.add(name: "Retry-After", value: "5")
            headers.add(name: "Connection", value: "close")
            context.write(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: .serviceUnavailable,
                                                                 headers: headers))), promise: nil)
            context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(string: body)))), promise: nil)
            // The channel (Sendable) closes the connection once the answer is out; the context
            // belongs to the event loop and may not travel into the callback.
            let channel = context.channel
            context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
        case .body, .end:
            if !refusing { context.fireChannelRead(data) }
        }
    }
}
