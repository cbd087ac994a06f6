import ConstellationModel
import Foundation
import Synchronization

/// How many graph requests (layouts, statistics) one credential may have running at once
/// (`CONSTELLATION_GRAPH_REQUESTS_PER_CREDENTIAL`): past it, 429 `too_many_graph_requests`, so
/// one client cannot queue up the machine's graph work for everyone else.
package final class GraphWorkQuota: Sendable {
    package let limit: Int
    private let running = Mutex<[UUID: Int]>([:])

    package init(limit: Int) {
        self.limit = limit
    }

    /// Runs `body` as one of `profile`'s graph requests, or refuses it when they are at the limit.
    package func run<T: Sendable>(for profile: UUID, _ body: () async throws -> T) async throws -> T {
        let admitted = running.withLock { running in
            guard running[profile, default: 0] < limit else { return false }
            running[profile, default: 0] += 1
            return true
        }
        guard admitted else {
            throw Problem(
                status: 429, code: "too_many_graph_requests", title: "Too many graph requests at once",
                detail: "Wait for your other network or statistics requests to finish (at most \(limit) at a time).",
                retryAfter: 1)
        }
        defer {
            running.withLock { running in
                running[profile]! -= 1
                if running[profile] == 0 { running[profile] = nil }
            }
        }
        return try await body()
    }
}
