/// An error body (RFC 9457 `application/problem+json`) with a stable machine-readable `code`.
public struct Problem: Codable, Sendable, Equatable, Error {
    public let type: String
    public let title: String
    public let status: Int
    public let code: String
    public let detail: String?
    /// For 429 and 503: how many seconds to wait before trying again (also the `Retry-After` header).
    public let retryAfter: Int?
    /// For a 5xx: the request's id (also its `X-Request-ID` header), to find it in the server's log.
    public let requestId: String?
    /// For 422 `validation_failed` and `invalid_date`: each field's mistake, structured, so that a
    /// client says it in its own words and language (`detail` says it in English).
    public let errors: [FieldError]?

    /// A problem of `code`, with its status and title (`ProblemCode`).
    public init(_ code: ProblemCode, detail: String? = nil, retryAfter: Int? = nil, errors: [FieldError]? = nil) {
        self.init(status: code.status, code: code.rawValue, title: code.title, detail: detail, retryAfter: retryAfter, errors: errors)
    }

    /// The code this problem has, if this build declares it (a newer server may answer another).
    public var known: ProblemCode? { ProblemCode(rawValue: code) }

    /// The same problem with another detail and field errors (about an item of a list, say).
    public func saying(_ detail: String?, errors: [FieldError]?) -> Problem {
        Problem(status: status, code: code, title: title, detail: detail, retryAfter: retryAfter, errors: errors)
    }

    /// The same problem, said without its detail, carrying the request's id (a 5xx's, for the log).
    public func forRequest(_ id: String) -> Problem {
        Problem(status: status, code: code, title: title, requestId: id)
    }

    private init(
        status: Int, code: String, title: String, detail: String? = nil, retryAfter: Int? = nil, requestId: String? = nil,
        errors: [FieldError]? = nil
    ) {
        self.type = "/problems/\(code)"
        self.title = title
        self.status = status
        self.code = code
        self.detail = detail
        self.retryAfter = retryAfter
        self.requestId = requestId
        self.errors = errors
    }

    public static let mediaType = "application/problem+json"
}
