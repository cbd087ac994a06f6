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
/// without exactly one `Host` is refused (`HTTP1RequestHygiene`).
///
/// A connection's task runs on its channel's event loop, so reading a request and writing its
/// answer need no hand-off between threads. Only requests in `staysOnEventLoop` are answered
/// there: short ones, on the hot path of an event. Every other one (badges, pictures, network
/// documents, exports: anything that may compute for milliseconds and hold up the loop's other
/// connections) is answered on Swift's global executor, as before, with its body.
struct GuardedHTTP1Channel: ServerChildChannel, HTTPChannelHandler {
    typealias Value = NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>

    /// The longest request line or header line, and all header lines together.
    static let maximumLineLength = 8 * 1024
    static let maximumHeaderSize = 32 * 1024
    static let maximumHeaderCount = 100

    /// The application, which writes its answer itself (body included).
    let application: HTTPChannelHandler.Responder
    let requestTimeout: TimeAmount
    let idleTimeout: Duration

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            var limits = NIOHTTPDecoderLimitConfiguration()
            limits.maxHeaderFieldSize = Self.maximumLineLength
            limits.maxHeaderListSize = Self.maximumHeaderSize
            limits.maxHeaderFieldCount = Self.maximumHeaderCount
            let connection = ConnectionGuard(requestTimeout: requestTimeout, maximumRequestLine: Self.maximumLineLength)
            let pipeline = channel.pipeline.syncOperations
            try pipeline.addHandler(connection)
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
        await withTaskExecutorPreference(EventLoopTaskExecutor(value.channel.eventLoop)) {
            await handleHTTP(asyncChannel: value, logger: logger)
        }
    }

    var responder: HTTPChannelHandler.Responder {
        { [application] request, writer, channel in
            if Self.staysOnEventLoop(request) {
                try await application(request, writer, channel)
            } else {
                var writer: ResponseWriter? = consume writer
                try await withTaskExecutorPreference(globalConcurrentExecutor) {
                    try await application(request, writer.take()!, channel)
                }
            }
        }
    }

    /// Requests answered on the connection's event loop: each costs tens of microseconds of CPU
    /// beside a wait for the database, which holds no thread (`Database.query`). A redemption, a
    /// token and the health check.
    static func staysOnEventLoop(_ request: Request) -> Bool {
        switch (request.method, request.uri.path) {
        case (.post, "/v1/connections"), (.post, "/v1/tokens"), (.get, "/health"): true
        default: false
        }
    }
}
