import Foundation
import Hummingbird
import Logging

/// Gives every request an id: the client's (or proxy's) `X-Request-ID` when it is a sane one (1 to
/// 128 visible ASCII characters), else a new one. It is in every log line the request writes
/// (`request.id`) and in the response's `X-Request-ID`, problems included: the first middleware.
package struct RequestIDMiddleware<Context: RequestContext>: RouterMiddleware {
    package init() {}

    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let header = HTTPFields.requestID
        let id = request.headers[header].flatMap(Self.accepted) ?? Self.newID()
        var context = context
        context.logger[metadataKey: "request.id"] = .string(id)
        var response = try await next(request, context)
        response.headers[header] = id
        return response
    }

    /// `text` if it can serve as an id: printable ASCII without spaces, 1 to 128 characters.
    static func accepted(_ text: String) -> String? {
        (1...128).contains(text.utf8.count) && text.utf8.allSatisfy { (0x21...0x7E).contains($0) } ? text : nil
    }

    /// 16 random hex digits.
    static func newID() -> String {
        String(UInt64.random(in: .min ... .max), radix: 16).leftPadded(to: 16)
    }
}

extension HTTPFields {
    /// `X-Request-ID`.
    static let requestID = HTTPFields.Element.Name("X-Request-ID")!
}
