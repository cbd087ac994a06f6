import ConstellationModel
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1

/// Sits after the HTTP codec: ends the request deadline when a request has been read whole, and
/// turns parser errors into problem responses (via `ConnectionGuard`) when no response is under way.
final class RequestTracker: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let connection: ConnectionGuard
    /// Requests read whose responses have not ended yet.
    private var unanswered = 0

    init(connection: ConnectionGuard) {
        self.connection = connection
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head: unanswered += 1
        case .body: break
        case .end: connection.requestEnded()
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { unanswered -= 1 }
        context.write(data, promise: promise)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if connection.isClosing { return }
        guard unanswered == 0, let problem = Self.problem(for: error, uriTooLong: connection.requestLineIsTooLong) else {
            context.fireErrorCaught(error)
            return
        }
        connection.refuse(problem)
    }

    /// The answer to a request the parser refused, by what it refused.
    static func problem(for error: any Error, uriTooLong: Bool) -> Problem? {
        switch error {
        case HTTPParserError.headerOverflow where uriTooLong:
            Problem(
                status: 414, code: "uri_too_long", title: "The URI is too long",
                detail: "At most \(GuardedHTTP1Channel.maximumLineLength) bytes.")
        case HTTPParserError.headerOverflow:
            Problem(
                status: 431, code: "headers_too_large", title: "The request's headers are too large",
                detail: "At most \(GuardedHTTP1Channel.maximumHeaderCount) headers, \(GuardedHTTP1Channel.maximumLineLength) bytes each, "
                    + "\(GuardedHTTP1Channel.maximumHeaderSize) bytes in all.")
        case HTTPParserError.invalidMethod:
            Problem(status: 501, code: "not_implemented", title: "Method not implemented")
        case let error as HTTP1TypeConversionError where error == .invalidMethod:
            Problem(status: 501, code: "not_implemented", title: "Method not implemented")
        case is HTTPParserError, is HTTP1TypeConversionError:
            Problem(status: 400, code: "malformed_request", title: "The request is not valid HTTP/1.1")
        default:
            nil
        }
    }
}
