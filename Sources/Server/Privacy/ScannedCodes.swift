import ConstellationModel
import Foundation
import Store
import Tokens

extension AppServices {
    /// The claims of a scanned code, verified against this server's keys and valid at some moment
    /// of `window` (now, or since an offline scan could have been made). A badge code is valid
    /// until its event's end as it is now, not as it was when the badge was printed: an event
    /// extended since keeps its badges working, one ended early stops them.
    func verifiedCode(_ token: String, validAtSomeMomentOf window: ClosedRange<Date>, now: Date) async throws -> ConnectionClaims {
        try await ConnectionTokens.verify(token, keys: keyRing.verificationKeys, validAtSomeMomentOf: window, now: now) { claims in
            guard let event = claims.eventId else { return nil }
            return try await events.event(.id(event))?.event.endsAt
        }
    }
}
