import Foundation

extension EventRepository {
    /// Whether `codeHash` is the hash of `event`'s current join code (false when there is no such event).
    /// Reads only: nobody joins.
    package func joinCodeMatches(_ event: UUID, codeHash: [UInt8]) async throws -> Bool {
        try await database.withConnection { connection in
            try connection.query(
                """
                SELECT e.join_code_hash = \(ByteString(codeHash)) AS matches FROM events e WHERE e.id = \(event)
                """
            ).first?.bool("matches") ?? false
        }
    }
}
