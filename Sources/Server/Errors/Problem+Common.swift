import ConstellationModel

/// Problems that more than one route answers.
extension Problem {
    static let missingCredentials = Problem(
        .missingCredentials,
        detail: "Send it as: Authorization: Bearer <key>")
    static let invalidCredentials = Problem(.invalidCredentials, detail: "The API key is not valid")

    /// A field is not valid: `detail` in English, `error` structured for clients.
    static func validation(_ detail: String, _ error: FieldError) -> Problem {
        Problem(.validationFailed, detail: detail, errors: [error])
    }

    /// The same problem about a field of an item of a list: its detail prefixed by the item's
    /// `path` (`entries[0]`), its errors' pointers moved by `errors` (inside `/entries/0`, say).
    func about(_ path: String, errors move: (FieldError) -> FieldError) -> Problem {
        saying("\(path): \(detail ?? title)", errors: errors?.map(move))
    }

    static let notAnOrganizer = Problem(.notAnOrganizer)
    static let notAMember = Problem(
        .notAMember,
        detail: "Join the event with its code first.")
    /// Neither says who blocked whom: the scanner learns only that the two cannot connect.
    static let blocked = Problem(
        .blocked,
        detail: "One of you has blocked the other.")
    static let unknownEvent = Problem(.unknownEvent)
    /// A credential holds `limit` live streams already.
    static func tooManyStreams(_ limit: Int) -> Problem {
        Problem(
            .tooManyStreams,
            detail: "Close another live view first (at most \(limit) at a time).", retryAfter: 5)
    }
    static let eventEnded = Problem(
        .eventEnded,
        detail: "Its tokens are no longer redeemed.")

    static let eventPurged = Problem(
        .eventPurged,
        detail: "Its attendees, their choices and its pairs are gone; its figures are kept (GET /v1/events/{event}/record).")

    static let deviceNotFound = Problem(.deviceNotFound)

    static let payloadTooLarge = Problem(.payloadTooLarge)

    /// A failure nobody described: nothing of it is shown but the request's id, for the log.
    static let internalError = Problem(.internalError)
}
