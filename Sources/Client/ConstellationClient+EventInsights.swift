import ConstellationModel
import Foundation

/// What an event's organizers read about it: growth over time and a summary.
extension ConstellationClient {
    /// `event`'s growth (I must organize it), in buckets of `bucket` (`5m`, `15m`, `1h`, `1d`;
    /// the server's default is `1h`), from `from` to `to` (exclusive) if given.
    public func eventGrowth(_ event: String, bucket: String? = nil, from: Date? = nil, to: Date? = nil) async throws(ClientError)
        -> EventGrowth
    {
        var query: [String] = []
        if let bucket { query.append("bucket=\(Self.escaped(bucket))") }
        if let from { query.append("from=\(Self.escaped(from.formatted(Self.rfc3339)))") }
        if let to { query.append("to=\(Self.escaped(to.formatted(Self.rfc3339)))") }
        let path = "/v1/events/\(Self.escaped(event))/growth" + (query.isEmpty ? "" : "?" + query.joined(separator: "&"))
        return try await decode(send(.GET, path))
    }

    /// `event`'s summary (I must organize it): people, connections, peak hour, top connectors, communities.
    public func eventSummary(_ event: String) async throws(ClientError) -> EventSummary {
        try await decode(send(.GET, "/v1/events/\(Self.escaped(event))/summary"))
    }

    /// RFC 3339 in UTC with milliseconds, so a window's edges are not rounded to the second.
    private static let rfc3339 = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
}
