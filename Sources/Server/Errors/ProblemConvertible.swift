import ConstellationModel
import Foundation
import Hummingbird
import NIOCore

/// An error that knows the problem it stands for (its status, code and message), as Hummingbird's
/// `HTTPResponseError` knows its response. Domain modules stay free of HTTP: each domain error's
/// conformance lives here in Server, in a file of its own (`StoreError+Problem.swift`, …).
/// An error without one is a 500 that shows nothing but the request's id (`ProblemMiddleware`).
package protocol ProblemConvertible: Error {
    var problem: Problem { get }
    /// Whether the error itself is logged when its problem is a client's (4xx): for errors whose own
    /// words (the database's, the decoder's) are kept out of the response but are worth reading.
    var logsItsCause: Bool { get }
}

extension ProblemConvertible {
    package var logsItsCause: Bool { false }
}

extension Problem: ProblemConvertible {
    package var problem: Problem { self }

    /// The `application/problem+json` response.
    var response: Response {
        var headers: HTTPFields = [.contentType: Problem.mediaType, .cacheControl: "no-store"]
        if status == 401 { headers[.wwwAuthenticate] = "Bearer" }
        if let retryAfter { headers[.retryAfter] = String(retryAfter) }
        let body = (try? JSONEncoder.constellation.encode(self)) ?? Data()
        return Response(status: .init(code: status), headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}
