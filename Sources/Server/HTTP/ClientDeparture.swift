import NIOCore

/// On a connection's raw bytes, after `ConnectionGuard`: learns when its client has gone, for a long answer (a live
/// stream) to stop then. Hummingbird allows remote half-closure, so a client's FIN does not close
/// the channel (its `closeFuture` waits until a write fails or the socket closes whole): the FIN
/// arrives as `ChannelEvent.inputClosed`, seen here. Only a long answer stops at it: a client may
/// half-close after sending an ordinary request and still read the answer.
///
/// Used on its channel's event loop only.
final class ClientDeparture: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let gone: EventLoopPromise<Void>

    init(eventLoop: any EventLoop) {
        gone = eventLoop.makePromise()
    }

    /// Completes when the client has gone from `channel`: it closed its side (its FIN), or the
    /// connection closed.
    static func of(_ channel: any Channel) -> EventLoopFuture<Void> {
        channel.eventLoop.flatSubmit {
            (try? channel.pipeline.syncOperations.handler(type: ClientDeparture.self))?.gone.futureResult ?? channel.closeFuture
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case ChannelEvent.inputClosed = event { gone.succeed() }
        context.fireUserInboundEventTriggered(event)
    }

    func channelInactive(context: ChannelHandlerContext) {
        gone.succeed()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        gone.succeed()
    }
}
