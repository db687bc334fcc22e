import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import HummingbirdWebSocket

/// Answers requests HTTP's parser rejects (garbage, headers over the limits) with 400 or 431 and
/// closes the connection, and closes a connection whose first request head is not complete within
/// `headSeconds` (a client trickling headers). Hummingbird's WebSocket-upgrade pipeline leaves
/// both open and silent until the client gives up, holding a socket each.
struct MalformedRequestGuard<Inner: ServerChildChannel>: ServerChildChannel {
    typealias Value = Inner.Value
    let inner: Inner
    let headSeconds: Int64
    /// Whether a WebSocket route at a path takes no more clients (see `ClientLimitGate`).
    let isFull: @Sendable (String) -> Bool

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        inner.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let operations = channel.pipeline.syncOperations
            try operations.addHandler(Responder(headSeconds: headSeconds))
            // Right behind the request decoder: ahead of the upgrade handler, which would take
            // the request and answer it itself.
            let decoder = try operations.context(handlerType: ByteToMessageHandler<HTTPRequestDecoder>.self)
            try operations.addHandler(ClientLimitGate(isFull: isFull), position: .after(decoder.handler))
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }

    /// Passes everything through; on a parser error writes a plain response and closes.
    final class Responder: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = NIOAny
        typealias OutboundOut = HTTPServerResponsePart
        let headSeconds: Int64
        private var headTimer: Scheduled<Void>?

        init(headSeconds: Int64) { self.headSeconds = headSeconds }

        func handlerAdded(context: ChannelHandlerContext) {
            let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
            headTimer = context.eventLoop.assumeIsolated().scheduleTask(in: .seconds(headSeconds)) {
                let context = loopBound.value
                // Upgraded to a WebSocket (the HTTP decoder is gone): its pings watch it.
                let decoder = try? context.pipeline.syncOperations.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
                if decoder != nil { context.close(promise: nil) }
            }
        }

        func handlerRemoved(context: ChannelHandlerContext) { headTimer?.cancel() }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            // Anything reaching this handler comes after a complete head (or an upgrade); from
            // then on the HTTP idle timeout or WebSocket pings watch the connection.
            headTimer?.cancel()
            headTimer = nil
            context.fireChannelRead(data)
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            guard let parserError = error as? HTTPParserError else {
                context.fireErrorCaught(error)
                return
            }
            let status: HTTPResponseStatus
            switch parserError {
            case .headerOverflow: status = .requestHeaderFieldsTooLarge
            case .invalidURL: status = .uriTooLong
            default: status = .badRequest
            }
            var headers = HTTPHeaders()
            headers.add(name: "Content-Length", value: "0")
            headers.add(name: "Connection", value: "close")
            context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))),
                          promise: nil)
            // The channel (Sendable) closes the connection once the answer is out; the context
            // belongs to the event loop and may not travel into the callback.
            let channel = context.channel
            context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
        }
    }
}

extension HTTPServerBuilder {
    /// `http1WebSocketUpgrade(webSocketRouter:configuration:)`, with malformed requests answered.
    static func guardedWebSocketUpgrade<WSResponderBuilder: HTTPResponderBuilder & _HB_SendableMetatype>(
        webSocketRouter: WSResponderBuilder,
        configuration: HTTP1WebSocketUpgradeChannel.Configuration,
        headSeconds: Int64,
        isFull: @escaping @Sendable (String) -> Bool
    ) -> HTTPServerBuilder where WSResponderBuilder.Responder.Context: WebSocketRequestContext {
        let webSocketResponder = webSocketRouter.buildResponder()
        return .init { responder in
            MalformedRequestGuard(inner: HTTP1WebSocketUpgradeChannel(responder: responder, webSocketResponder: webSocketResponder,
                                                                      configuration: configuration),
                                  headSeconds: headSeconds, isFull: isFull)
        }
    }
}
