import NIOCore

/// Closes a connection whose client has stopped reading: once the answers waiting for it pass the
/// channel's high-water mark (it turns unwritable), the client has `timeout` to read them down to
/// the low-water mark. Otherwise whatever writes to it (a live stream, most likely) would wait
/// forever, holding its buffers, its task and its stream's slot.
///
/// Used on its channel's event loop only.
final class DrainDeadline: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let timeout: TimeAmount
    private var deadline: Scheduled<Void>?

    init(timeout: TimeAmount) {
        self.timeout = timeout
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable {
            deadline?.cancel()
            deadline = nil
        } else if deadline == nil {
            deadline = context.eventLoop.assumeIsolated().scheduleTask(in: timeout) { context.close(promise: nil) }
        }
        context.fireChannelWritabilityChanged()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
    }
}
