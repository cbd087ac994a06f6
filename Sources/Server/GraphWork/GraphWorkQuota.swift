import ConstellationModel
import Foundation
import Synchronization

/// How many graph requests (layouts, statistics) one credential may have running at once
/// (`CONSTELLATION_GRAPH_REQUESTS_PER_CREDENTIAL`): past it, 429 `too_many_graph_requests`, so
/// one client cannot queue up the machine's graph work for everyone else.
package final class GraphWorkQuota: Sendable {
    private let running: CredentialAllowance

    package init(limit: Int) {
        running = CredentialAllowance(limit: limit)
    }

    /// Runs `body` as one of `profile`'s graph requests (or a view link's: `limit`, its screens),
    /// or refuses it when they are at the limit.
    package func run<T: Sendable>(for profile: UUID, limit: Int? = nil, _ body: () async throws -> T) async throws -> T {
        guard running.take(profile, limit: limit) else {
            throw Problem(
                status: 429, code: "too_many_graph_requests", title: "Too many graph requests at once",
                detail: "Wait for your other network or statistics requests to finish (at most \(limit ?? running.limit) at a time).",
                retryAfter: 1)
        }
        defer { running.giveBack(profile) }
        return try await body()
    }
}
