import Foundation

/// How a client reaches the server: HTTP over libcurl (`HTTPTransfer`), trusting the system's
/// certificate authorities and, when given, those of a PEM file too. Each exchange runs on a
/// thread of its own, so that no task of the caller's waits on the network; a refused
/// connection is final (the server is down: the CLI goes offline at once), not retried.
public struct HTTPTransport: Sendable {
    /// A PEM file of certificate authorities to trust besides the system's.
    public let authorities: String?
    /// How long a connection (TCP, then TLS) may take to set up.
    public let connectTimeout: Duration

    public init(trusting authorities: String? = nil, connectTimeout: Duration = .seconds(3)) {
        self.authorities = authorities
        self.connectTimeout = connectTimeout
    }

    /// One exchange, its answer read whole (at most `limit` bytes of body).
    package func perform(_ request: HTTPRequest, limit: Int) async throws(TransportFailure) -> (head: HTTPHead, body: [UInt8]) {
        let answer = Answer()
        let transfer = try HTTPTransfer(request, over: self, limit: limit) { part in
            switch part {
            case .head(let head): answer.head = head
            case .bytes(let bytes): answer.body += bytes
            }
        }
        let failure = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<TransportFailure?, Never>) in
                Thread.detachNewThread { continuation.resume(returning: transfer.run()) }
            }
        } onCancel: {
            transfer.cancel()
        }
        if let failure { throw failure }
        return (answer.head ?? HTTPHead(status: 0, headers: []), answer.body)
    }

    /// One exchange whose answer is read as it arrives: its head, then its bytes, until the
    /// server ends it, the transport fails (the sequence throws `TransportFailure`) or the
    /// consumer stops listening.
    package func stream(_ request: HTTPRequest) -> AsyncThrowingStream<HTTPPart, any Error> {
        AsyncThrowingStream { continuation in
            let transfer: HTTPTransfer
            do {
                transfer = try HTTPTransfer(request, over: self, limit: .max) { continuation.yield($0) }
            } catch {
                return continuation.finish(throwing: error)
            }
            continuation.onTermination = { _ in transfer.cancel() }
            Thread.detachNewThread { continuation.finish(throwing: transfer.run()) }
        }
    }

    /// The answer of `perform`, filled on the transfer's thread and read after it ends.
    private final class Answer: @unchecked Sendable {
        var head: HTTPHead?
        var body: [UInt8] = []
    }
}

/// A request as the transport sends it.
package struct HTTPRequest: Sendable {
    package var method: String
    package var url: String
    package var headers: [(name: String, value: String)]
    package var body: [UInt8]?
    /// The most the whole exchange may take; nil for no limit (a stream).
    package var deadline: Duration?
    /// The longest the server may send nothing before the exchange is given up (a stream's silences).
    package var longestSilence: Duration?

    package init(
        method: String, url: String, headers: [(name: String, value: String)] = [], body: [UInt8]? = nil, deadline: Duration? = nil,
        longestSilence: Duration? = nil
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.deadline = deadline
        self.longestSilence = longestSilence
    }
}

/// What a streamed exchange hands on: its answer's head once, then the body's bytes as they arrive.
package enum HTTPPart: Sendable {
    case head(HTTPHead)
    case bytes([UInt8])
}

/// An answer's status and headers, in the order received.
public struct HTTPHead: Sendable {
    public let status: Int
    public let headers: [(name: String, value: String)]
}
