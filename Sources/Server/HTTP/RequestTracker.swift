import ConstellationModel
import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1

/// Sits after the HTTP codec: ends the request deadline when a request has been read whole, and
/// turns parser errors into problem responses (via `ConnectionGuard`). A request whose head was
/// read but whose body the parser refused (a malformed chunk) gets a 400 problem in place of
/// whatever its route was about to answer, and is the connection's last; so is a CONNECT, whose
/// answer the encoder would send without its body, so it is written here whole.
final class RequestTracker: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let connection: ConnectionGuard
    /// Requests read whose responses have not ended yet.
    private var unanswered = 0
    /// Whether the current response's head has been written.
    private var responding = false
    /// Set when the parser refused the rest of a request being answered.
    private var refusedMidRequest = false
    /// The answer to a CONNECT, gathered to be written whole.
    private var connectAnswer: (head: HTTPResponse?, body: ByteBuffer)?

    init(connection: ConnectionGuard) {
        self.connection = connection
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            unanswered += 1
            if head.method == .connect { connectAnswer = (nil, ByteBuffer()) }
        case .body: break
        case .end: connection.requestEnded()
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let part = unwrapOutboundIn(data)
        if refusedMidRequest, !responding {
            // The route's answer is replaced: the request it answers was not valid HTTP.
            promise?.succeed(())
            if case .end = part { connection.refuse(Self.malformed) }
            return
        }
        if var answer = connectAnswer {
            promise?.succeed(())
            switch part {
            case .head(let head): answer.head = head
            case .body(var bytes): answer.body.writeBuffer(&bytes)
            case .end:
                let head = answer.head ?? HTTPResponse(status: .internalServerError)
                connection.respondAndClose(
                    status: head.status.code, headers: head.headerFields.map { ($0.name.rawName, $0.value) }, body: answer.body)
                return
            }
            connectAnswer = answer
            return
        }
        switch part {
        case .head: responding = true
        case .body: break
        case .end:
            responding = false
            unanswered -= 1
            if refusedMidRequest {
                context.writeAndFlush(data).assumeIsolated().whenComplete { result in
                    promise?.completeWith(result)
                    context.close(promise: nil)
                }
                return
            }
        }
        context.write(data, promise: promise)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if connection.isClosing { return }
        if unanswered > 0, error is HTTPParserError {
            // The route may be reading the body (it then fails with this error); either way its answer
            // is a 400 and the connection closes after it.
            refusedMidRequest = true
            context.fireErrorCaught(error)
            return
        }
        guard unanswered == 0, let problem = Self.problem(for: error, uriTooLong: connection.requestLineIsTooLong) else {
            context.fireErrorCaught(error)
            return
        }
        connection.refuse(problem)
    }

    static let malformed = Problem(.malformedRequest)

    /// The answer to a request the parser refused, by what it refused.
    static func problem(for error: any Error, uriTooLong: Bool) -> Problem? {
        switch error {
        case HTTPParserError.headerOverflow where uriTooLong:
            Problem(
                .uriTooLong,
                detail: "At most \(GuardedHTTP1Channel.maximumLineLength) bytes.")
        case HTTPParserError.headerOverflow:
            Problem(
                .headersTooLarge,
                detail: "At most \(GuardedHTTP1Channel.maximumHeaderCount) headers, \(GuardedHTTP1Channel.maximumLineLength) bytes each, "
                    + "\(GuardedHTTP1Channel.maximumHeaderSize) bytes in all.")
        case HTTPParserError.invalidMethod:
            Problem(.notImplemented)
        case let error as HTTP1TypeConversionError where error == .invalidMethod:
            Problem(.notImplemented)
        case is HTTPParserError, is HTTP1TypeConversionError:
            malformed
        default:
            nil
        }
    }
}
