import ConstellationModel

/// Problems that more than one route answers.
extension Problem {
    static let missingCredentials = Problem(
        status: 401, code: "missing_credentials", title: "An API key is required",
        detail: "Send it as: Authorization: Bearer <key>")
    static let invalidCredentials = Problem(status: 401, code: "invalid_credentials", title: "The API key is not valid")

    /// A field is not valid: `detail` in English, `error` structured for clients.
    static func validation(_ detail: String, _ error: FieldError) -> Problem {
        Problem(status: 422, code: "validation_failed", title: "A field is not valid", detail: detail, errors: [error])
    }

    /// The same problem about a field of an item of a list: its detail prefixed by the item's
    /// `path` (`entries[0]`), its errors' pointers moved by `errors` (inside `/entries/0`, say).
    func about(_ path: String, errors move: (FieldError) -> FieldError) -> Problem {
        Problem(status: status, code: code, title: title, detail: "\(path): \(detail ?? title)", errors: errors?.map(move))
    }

    static let notAnOrganizer = Problem(status: 403, code: "not_an_organizer", title: "Only the event's organizers may do this")
    static let notAMember = Problem(
        status: 403, code: "not_a_member", title: "Only the event's attendees and organizers may do this",
        detail: "Join the event with its code first.")
    /// Neither says who blocked whom: the scanner learns only that the two cannot connect.
    static let blocked = Problem(
        status: 403, code: "blocked", title: "You cannot connect with this person",
        detail: "One of you has blocked the other.")
    static let unknownEvent = Problem(status: 404, code: "unknown_event", title: "No such event")
    /// A credential holds `limit` live streams already.
    static func tooManyStreams(_ limit: Int) -> Problem {
        Problem(
            status: 429, code: "too_many_streams", title: "Too many live streams open at once",
            detail: "Close another live view first (at most \(limit) at a time).", retryAfter: 5)
    }
    static let eventEnded = Problem(
        status: 410, code: "event_ended", title: "This event has ended",
        detail: "Its tokens are no longer redeemed.")

    static let eventPurged = Problem(
        status: 410, code: "event_purged", title: "This event was purged",
        detail: "Its attendees, their choices and its pairs are gone; its figures are kept (GET /v1/events/{event}/record).")

    static let deviceNotFound = Problem(status: 404, code: "device_not_found", title: "You have no such device")

    static func badRequest(_ code: String, _ detail: String) -> Problem {
        Problem(status: 400, code: code, title: "Bad request", detail: detail)
    }

    static let payloadTooLarge = Problem(status: 413, code: "payload_too_large", title: "The request body is too large")

    /// A failure nobody described: nothing of it is shown but the request's id, for the log.
    static let internalError = Problem(status: 500, code: "internal_error", title: "Internal error")
}
