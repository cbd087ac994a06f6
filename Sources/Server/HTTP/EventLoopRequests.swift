import HTTPTypes

/// The requests answered on their connection's event loop (`GuardedHTTP1Channel`): each costs tens
/// of microseconds of CPU beside a wait for the database, which holds no thread (`Database.query`).
/// A redemption, a token and the health check; nothing that may compute for milliseconds.
package enum EventLoopRequests {
    package static func contains(_ method: HTTPRequest.Method, _ path: String) -> Bool {
        switch (method, path) {
        case (.post, "/v1/connections"), (.post, "/v1/tokens"), (.get, "/health"): true
        default: false
        }
    }
}
