import ConstellationModel
import NIOCore
import NIOHTTP1

/// Between the HTTP/1 parser and the conversion to HTTP types, where a request's version and raw
/// headers are still there: a request without exactly one `Host` (one is required from HTTP/1.1 on,
/// RFC 9112 §3.2) is refused with 400 and the connection closed; a request that did not ask to keep
/// the connection (HTTP/1.0 without `keep-alive`, `Connection: close` in any case) or a CONNECT is
/// marked `Connection: close`, so that the connection closes after its answer.
final class HTTP1RequestHygiene: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart

    private let connection: ConnectionGuard
    /// Set while the parts of a refused request arrive: they go no further.
    private var refusing = false

    init(connection: ConnectionGuard) {
        self.connection = connection
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(var head):
            let hosts = head.headers["Host"].count
            let modern = head.version.major > 1 || (head.version.major == 1 && head.version.minor >= 1)
            guard hosts == 1 || (hosts == 0 && !modern) else {
                refusing = true
                connection.refuse(Self.badHost)
                return
            }
            refusing = false
            let tokens = head.headers["Connection"].flatMap { $0.split(separator: ",") }.map {
                $0.trimmingCharacters(in: .whitespaces).lowercased()
            }
            let keepsAlive = modern ? !tokens.contains("close") : tokens.contains("keep-alive")
            if !keepsAlive || head.method == .CONNECT {
                head.headers.replaceOrAdd(name: "Connection", value: "close")
            }
            context.fireChannelRead(wrapInboundOut(.head(head)))
        case .body, .end:
            guard !refusing else { return }
            context.fireChannelRead(data)
        }
    }

    static let badHost = Problem(
        .badHost, detail: "Send exactly one Host header (RFC 9112).")
}
