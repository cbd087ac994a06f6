import ConstellationModel
import Foundation

/// What an event's organizers read about it: growth over time and a summary.
extension ConstellationClient {
    /// `event`'s growth (I must organize it), in buckets of `bucket` (`5m`, `15m`, `1h`, `1d`;
    /// the server's default is `1h`), from `from` to `to` (exclusive) if given.
    public func eventGrowth(_ event: String, bucket: String? = nil, from: Date? = nil, to: Date? = nil) async throws(ClientError) -> EventGrowth {
        var query: [String] = []
        if let bucket { query.append("bucket=\(Self.queryEscaped(bucket))") }
        if let from { query.append("from=\(Self.queryEscaped(from.formatted(Self.rfc3339)))") }
        if let to { query.append("to=\(Self.queryEscaped(to.formatted(Self.rfc3339)))") }
        let path = "/v1/events/\(Self.queryEscaped(event))/growth" + (query.isEmpty ? "" : "?" + query.joined(separator: "&"))
        return try await Self.decoded(send(.GET, path))
    }

    /// `event`'s summary (I must organize it): people, connections, peak hour, top connectors, communities.
    public func eventSummary(_ event: String) async throws(ClientError) -> EventSummary {
        try await Self.decoded(send(.GET, "/v1/events/\(Self.queryEscaped(event))/summary"))
    }

    /// RFC 3339 in UTC with milliseconds, so a window's edges are not rounded to the second.
    private static let rfc3339 = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    /// Everything but RFC 3986's unreserved ASCII escaped: fits a path segment or a query value.
    private static func queryEscaped(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: CharacterSet(
            charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")) ?? ""
    }

    private static func decoded<T: Decodable>(_ response: RawResponse) throws(ClientError) -> T {
        do {
            return try JSONDecoder.constellation.decode(T.self, from: Data(response.body))
        } catch {
            throw .unexpectedResponse(status: response.status, detail: "cannot decode \(T.self): \(error)")
        }
    }
}
