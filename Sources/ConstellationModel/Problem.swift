/// An error body (RFC 9457 `application/problem+json`) with a stable machine-readable `code`.
public struct Problem: Codable, Sendable, Equatable, Error {
    public let type: String
    public let title: String
    public let status: Int
    public let code: String
    public let detail: String?

    public init(status: Int, code: String, title: String, detail: String? = nil) {
        self.type = "/problems/\(code)"
        self.title = title
        self.status = status
        self.code = code
        self.detail = detail
    }

    public static let mediaType = "application/problem+json"
}
