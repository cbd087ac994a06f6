import ConstellationModel
import Foundation
import NIOCore
import NIOHTTP1

/// The first handler of a connection, on its raw bytes: starts the request deadline at a
/// request's first byte, measures the request line (a parser overflow there is a URI too long,
/// elsewhere a header too large), and writes the problem responses
/// the HTTP parser cannot, straight to the socket, before closing.
///
/// Used on its channel's event loop only, by itself and by the `RequestTracker` of the same channel.
final class ConnectionGuard: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let requestTimeout: TimeAmount
    private let maximumRequestLine: Int
    private var context: ChannelHandlerContext?
    private var deadline: Scheduled<Void>?
    private var awaitingRequest = true
    /// Bytes of the current request's first line so far, and whether its line end has arrived.
    private var requestLineLength = 0
    private var requestLineEnded = false
    /// Set once a problem was written: the connection is closing.
    private(set) var isClosing = false

    init(requestTimeout: TimeAmount, maximumRequestLine: Int) {
        self.requestTimeout = requestTimeout
        self.maximumRequestLine = maximumRequestLine
    }

    /// Whether the current request's first line (method, URI, version) is over the limit.
    var requestLineIsTooLong: Bool { requestLineLength > maximumRequestLine }

    func handlerAdded(context: ChannelHandlerContext) { self.context = context }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
        self.context = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let bytes = unwrapInboundIn(data)
        if awaitingRequest, bytes.readableBytes > 0 {
            awaitingRequest = false
            deadline = context.eventLoop.assumeIsolated().scheduleTask(in: requestTimeout) { [self] in
                refuse(
                    Problem(
                        .requestTimeout,
                        detail: "Send the whole request within \(requestTimeout.nanoseconds / 1_000_000_000) s."))
            }
        }
        if !requestLineEnded {
            if let end = bytes.readableBytesView.firstIndex(of: UInt8(ascii: "\n")) {
                requestLineLength += end - bytes.readerIndex
                requestLineEnded = true
            } else {
                requestLineLength += bytes.readableBytes
            }
        }
        context.fireChannelRead(data)
    }

    func channelInactive(context: ChannelHandlerContext) {
        deadline?.cancel()
        context.fireChannelInactive()
    }

    /// The current request has been read whole: the next one starts a new deadline.
    func requestEnded() {
        deadline?.cancel()
        deadline = nil
        awaitingRequest = true
        requestLineLength = 0
        requestLineEnded = false
    }

    /// Writes `problem` as the response and closes the connection.
    func refuse(_ problem: Problem) {
        let body = (try? JSONEncoder.constellation.encode(problem)) ?? Data()
        respondAndClose(
            status: problem.status, headers: [("content-type", Problem.mediaType), ("cache-control", "no-store")],
            body: ByteBuffer(bytes: body))
    }

    /// Writes a whole response straight to the socket, bypassing the HTTP encoder (which cannot frame
    /// it: a request it could not parse, or a CONNECT, whose answers it sends without a body), then
    /// closes the connection.
    func respondAndClose(status: Int, headers: [(String, String)], body: ByteBuffer) {
        guard !isClosing, let context else { return }
        isClosing = true
        deadline?.cancel()
        let reason = HTTPResponseStatus(statusCode: status).reasonPhrase
        var head = "HTTP/1.1 \(status) \(reason)\r\n"
        let framing = ["content-length", "connection", "transfer-encoding", "x-content-type-options"]
        for (name, value) in headers where !framing.contains(name.lowercased()) {
            head += "\(name): \(value)\r\n"
        }
        head += "x-content-type-options: nosniff\r\ncontent-length: \(body.readableBytes)\r\nconnection: close\r\n\r\n"
        var buffer = context.channel.allocator.buffer(capacity: head.utf8.count + body.readableBytes)
        buffer.writeString(head)
        buffer.writeImmutableBuffer(body)
        context.writeAndFlush(wrapInboundOut(buffer)).assumeIsolated().whenComplete { _ in
            context.close(promise: nil)
        }
    }
}
