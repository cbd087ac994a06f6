import ConstellationModel
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1

/// HTTP/1.1 connections with the limits a server on the open internet needs: a request must
/// arrive whole within `requestTimeout` of its first byte (408 and close otherwise), an idle
/// keep-alive connection closes after `idleTimeout`, a request the HTTP parser refuses is
/// answered with problem+json (414, 431, 501 or 400) instead of an empty 400, and a request
/// without exactly one `Host` is refused (`HTTP1RequestHygiene`), a client that does not read what
/// waits for it within `drainTimeout` is disconnected (`DrainDeadline`), and a live stream learns
/// when its client has gone, FIN included (`ClientDeparture`).
struct GuardedHTTP1Channel: ServerChildChannel, HTTPChannelHandler {
    typealias Value = NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>

    /// The longest request line or header line, and all header lines together.
    static let maximumLineLength = 8 * 1024
    static let maximumHeaderSize = 32 * 1024
    static let maximumHeaderCount = 100

    let responder: HTTPChannelHandler.Responder
    let requestTimeout: TimeAmount
    let idleTimeout: Duration
    let drainTimeout: TimeAmount
    let perAddress: ConnectionsPerAddress

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            var limits = NIOHTTPDecoderLimitConfiguration()
            limits.maxHeaderFieldSize = Self.maximumLineLength
            limits.maxHeaderListSize = Self.maximumHeaderSize
            limits.maxHeaderFieldCount = Self.maximumHeaderCount
            let connection = ConnectionGuard(requestTimeout: requestTimeout, maximumRequestLine: Self.maximumLineLength)
            let pipeline = channel.pipeline.syncOperations
            try pipeline.addHandler(connection)
            let address = channel.remoteAddress?.ipAddress
            if perAddress.open(from: address, logger: logger) {
                channel.closeFuture.whenComplete { [perAddress] _ in perAddress.closed(from: address) }
            } else {
                // Refused before anything is read: one 503 and the socket closes, its memory with it.
                connection.refuse(
                    Problem(
                        .tooManyConnections,
                        detail: "Close some, or reuse them (keep-alive), and try again.", retryAfter: 5))
            }
            try pipeline.addHandler(ClientDeparture(eventLoop: channel.eventLoop))
            try pipeline.addHandler(DrainDeadline(timeout: drainTimeout))
            try pipeline.configureHTTPServerPipeline(
                withPipeliningAssistance: false, withErrorHandling: false, withOutboundHeaderValidation: false,
                withEncoderConfiguration: .init(), withDecoderLimitConfiguration: limits)
            try pipeline.addHandler(HTTP1RequestHygiene(connection: connection))
            try pipeline.addHandler(HTTP1ToHTTPServerCodec(secure: false))
            try pipeline.addHandler(RequestTracker(connection: connection))
            try pipeline.addHandler(HTTPConnectionStateHandler(idleTimeout: idleTimeout, logger: logger))
            return try NIOAsyncChannel(wrappingChannelSynchronously: channel, configuration: .init(isOutboundHalfClosureEnabled: true))
        }
    }

    func handle(value: Value, logger: Logger) async {
        await handleHTTP(asyncChannel: value, logger: logger)
    }
}
