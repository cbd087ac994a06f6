/// Every problem the API answers, each declared once with its status and title: the server
/// answers `Problem(.code, detail: …)`, and tests check `openapi.json` and both languages' page
/// catalogs (`problem.CODE`) against this list, so none of them can drift from it. The title is
/// for developers and logs, in English; a page says the code's message in its own language, and
/// the detail says what this request did wrong.
public enum ProblemCode: String, CaseIterable, Sendable {
    case badHost = "bad_host"
    case badTokenEncoding = "bad_token_encoding"
    case blocked = "blocked"
    case blockedFromOrganizing = "blocked_from_organizing"
    case cardChanged = "card_changed"
    case clientGone = "client_gone"
    case confirmationRequired = "confirmation_required"
    case conflict = "conflict"
    case databaseBusy = "database_busy"
    case databaseTimeout = "database_timeout"
    case databaseUnavailable = "database_unavailable"
    case deviceLinkExpired = "device_link_expired"
    case deviceLinkUnknown = "device_link_unknown"
    case deviceLinkUsed = "device_link_used"
    case deviceNotFound = "device_not_found"
    case eventChanged = "event_changed"
    case eventEnded = "event_ended"
    case eventNotOver = "event_not_over"
    case eventPurged = "event_purged"
    case eventTooLarge = "event_too_large"
    case graphWorkBusy = "graph_work_busy"
    case headersTooLarge = "headers_too_large"
    case ifMatchRequired = "if_match_required"
    case internalError = "internal_error"
    case invalidBucket = "invalid_bucket"
    case invalidClaims = "invalid_claims"
    case invalidCredentials = "invalid_credentials"
    case invalidCursor = "invalid_cursor"
    case invalidDate = "invalid_date"
    case invalidDepth = "invalid_depth"
    case invalidDeviceLink = "invalid_device_link"
    case invalidInvitationCode = "invalid_invitation_code"
    case invalidJoinCode = "invalid_join_code"
    case invalidLastEventId = "invalid_last_event_id"
    case invalidLimit = "invalid_limit"
    case invalidPaper = "invalid_paper"
    case invalidPeer = "invalid_peer"
    case invalidRange = "invalid_range"
    case invalidRecoveryCode = "invalid_recovery_code"
    case invalidSignature = "invalid_signature"
    case invalidView = "invalid_view"
    case invitationExpired = "invitation_expired"
    case invitationLapsed = "invitation_lapsed"
    case invitationUnknown = "invitation_unknown"
    case invitationUsed = "invitation_used"
    case invitationWithdrawn = "invitation_withdrawn"
    case joinCodeUnknown = "join_code_unknown"
    case keyExpired = "key_expired"
    case lastDevice = "last_device"
    case lastOrganizer = "last_organizer"
    case malformedJson = "malformed_json"
    case malformedRequest = "malformed_request"
    case malformedToken = "malformed_token"
    case methodNotAllowed = "method_not_allowed"
    case missingCredentials = "missing_credentials"
    case missingEvent = "missing_event"
    case notAMember = "not_a_member"
    case notAnOrganizer = "not_an_organizer"
    case notBlocked = "not_blocked"
    case notConnected = "not_connected"
    case notFound = "not_found"
    case notImplemented = "not_implemented"
    case offlineGraceExpired = "offline_grace_expired"
    case openapiMissing = "openapi_missing"
    case organizerCannotLeave = "organizer_cannot_leave"
    case organizerTeamFull = "organizer_team_full"
    case payloadTooLarge = "payload_too_large"
    case qrFailed = "qr_failed"
    case rateLimited = "rate_limited"
    case recordUnreadable = "record_unreadable"
    case recoveryCodeUnknown = "recovery_code_unknown"
    case requestTimeout = "request_timeout"
    case selfBlock = "self_block"
    case selfConnection = "self_connection"
    case slugTaken = "slug_taken"
    case staleJoinCode = "stale_join_code"
    case streamsFull = "streams_full"
    case tokenExpired = "token_expired"
    case tokenNotYetValid = "token_not_yet_valid"
    case tokenRevoked = "token_revoked"
    case tokenUsedUp = "token_used_up"
    case tooManyBuckets = "too_many_buckets"
    case tooManyConnections = "too_many_connections"
    case tooManyDevices = "too_many_devices"
    case tooManyGraphRequests = "too_many_graph_requests"
    case tooManyStreams = "too_many_streams"
    case tooManyViewLinks = "too_many_view_links"
    case unknownEvent = "unknown_event"
    case unknownInvitation = "unknown_invitation"
    case unknownKey = "unknown_key"
    case unknownProfile = "unknown_profile"
    case unknownViewLink = "unknown_view_link"
    case unsupportedFormat = "unsupported_format"
    case unsupportedLanguage = "unsupported_language"
    case unsupportedMediaType = "unsupported_media_type"
    case unsupportedToken = "unsupported_token"
    case uriTooLong = "uri_too_long"
    case validationFailed = "validation_failed"
    case viewTokenExpired = "view_token_expired"
    case viewTokenReadOnly = "view_token_read_only"
    case viewTokenRevoked = "view_token_revoked"
    case viewTokenWrongEvent = "view_token_wrong_event"
    case webClientMissing = "web_client_missing"

    /// The HTTP status every problem of this code answers with.
    public var status: Int { definition.status }

    /// One line for developers and logs, the same for every problem of this code.
    public var title: String { definition.title }

    private var definition: (status: Int, title: String) {
        switch self {
        case .badHost: (400, "A request must name its host once")
        case .badTokenEncoding: (400, "The token is not a Constellation token")
        case .blocked: (403, "You cannot connect with this person")
        case .blockedFromOrganizing: (403, "A block keeps this person from organizing this event")
        case .cardChanged: (412, "The card changed meanwhile")
        case .clientGone: (499, "The client left before its graph work's turn")
        case .confirmationRequired: (422, "Deleting your profile needs a confirmation")
        case .conflict: (409, "A value of this request is stored already")
        case .databaseBusy: (503, "Every database connection is busy; try again shortly")
        case .databaseTimeout: (503, "The database took too long to answer; try again shortly")
        case .databaseUnavailable: (503, "The database is unavailable; try again shortly")
        case .deviceLinkExpired: (410, "This device link has expired")
        case .deviceLinkUnknown: (404, "No device link has this code")
        case .deviceLinkUsed: (409, "This device link was used already")
        case .deviceNotFound: (404, "You have no such device")
        case .eventChanged: (412, "The event changed meanwhile")
        case .eventEnded: (410, "This event has ended")
        case .eventNotOver: (409, "This event's codes still redeem")
        case .eventPurged: (410, "This event was purged")
        case .eventTooLarge: (422, "This event's network is too large to lay out")
        case .graphWorkBusy: (503, "The server has as much graph work under way as it takes")
        case .headersTooLarge: (431, "The request's headers are too large")
        case .ifMatchRequired: (428, "Say which version of the event you change")
        case .internalError: (500, "Internal error")
        case .invalidBucket: (400, "The bucket is not one this route offers")
        case .invalidClaims: (400, "The token is not a Constellation token")
        case .invalidCredentials: (401, "The credentials are not valid")
        case .invalidCursor: (400, "The cursor is not one this server gave")
        case .invalidDate: (422, "A date is not one this API accepts")
        case .invalidDepth: (400, "The depth is not 1 or 2")
        case .invalidDeviceLink: (400, "This is not a device link of this server")
        case .invalidInvitationCode: (400, "This is not an invitation code")
        case .invalidJoinCode: (403, "The join code is not this event's")
        case .invalidLastEventId: (400, "Last-Event-ID is not an id this stream sent")
        case .invalidLimit: (400, "The limit is not from 1 to 200")
        case .invalidPaper: (400, "The paper size is not one this route offers")
        case .invalidPeer: (400, "The peer is not one this route accepts")
        case .invalidRange: (400, "The time range is not valid")
        case .invalidRecoveryCode: (400, "This is not a recovery code")
        case .invalidSignature: (401, "The token signature is invalid")
        case .invalidView: (400, "The view is not one this route offers")
        case .invitationExpired: (410, "This invitation has expired")
        case .invitationLapsed: (410, "The organizer who made this invitation no longer organizes the event")
        case .invitationUnknown: (404, "No invitation has this code")
        case .invitationUsed: (410, "This invitation was answered already")
        case .invitationWithdrawn: (410, "An organizer withdrew this invitation")
        case .joinCodeUnknown: (409, "This event's join code cannot be shown")
        case .keyExpired: (401, "The token was signed by a retired key no longer trusted")
        case .lastDevice: (409, "This is your profile's last device")
        case .lastOrganizer: (409, "You are the event's only organizer")
        case .malformedJson: (400, "The request body is not the JSON expected")
        case .malformedRequest: (400, "The request is not valid HTTP/1.1")
        case .malformedToken: (400, "The token is not a Constellation token")
        case .methodNotAllowed: (405, "Method not allowed on this resource")
        case .missingCredentials: (401, "An API key is required")
        case .missingEvent: (400, "The request names no event")
        case .notAMember: (403, "Only the event's attendees and organizers may do this")
        case .notAnOrganizer: (403, "Only the event's organizers may do this")
        case .notBlocked: (404, "You have not blocked this profile")
        case .notConnected: (404, "You are not connected with this profile")
        case .notFound: (404, "No such resource")
        case .notImplemented: (501, "Method not implemented")
        case .offlineGraceExpired: (401, "This offline scan arrived too late")
        case .openapiMissing: (503, "The API's description is not installed")
        case .organizerCannotLeave: (409, "You organize this event")
        case .organizerTeamFull: (409, "This event has as many organizers, invitations and invitation links as it may")
        case .payloadTooLarge: (413, "The request body is too large")
        case .qrFailed: (422, "The QR code could not be made")
        case .rateLimited: (429, "Too many requests")
        case .recordUnreadable: (500, "The event's record holds no growth series it can read")
        case .recoveryCodeUnknown: (404, "No profile has this recovery code")
        case .requestTimeout: (408, "The request did not arrive in time")
        case .selfBlock: (422, "You cannot block yourself")
        case .selfConnection: (422, "You cannot connect to yourself")
        case .slugTaken: (409, "Another event has this slug")
        case .staleJoinCode: (400, "That is not this event's current join code")
        case .streamsFull: (503, "This server holds all the live streams it can")
        case .tokenExpired: (401, "The token has expired")
        case .tokenNotYetValid: (401, "The token is not valid yet")
        case .tokenRevoked: (401, "Its owner has revoked this token")
        case .tokenUsedUp: (409, "This token has been redeemed by as many people as it may be")
        case .tooManyBuckets: (400, "The time range holds too many buckets")
        case .tooManyConnections: (503, "This address holds as many connections as it may")
        case .tooManyDevices: (409, "This profile has as many devices signed in as it may")
        case .tooManyGraphRequests: (429, "Too many graph requests at once")
        case .tooManyStreams: (429, "Too many live streams open at once")
        case .tooManyViewLinks: (409, "This event has as many live view links as it may")
        case .unknownEvent: (404, "No such event")
        case .unknownInvitation: (404, "No such invitation is waiting")
        case .unknownKey: (401, "The token was signed by a key this server does not know")
        case .unknownProfile: (404, "No such profile")
        case .unknownViewLink: (404, "This event has no such live view link")
        case .unsupportedFormat: (400, "The format is not one this route offers")
        case .unsupportedLanguage: (400, "The language is not one this server speaks")
        case .unsupportedMediaType: (415, "The body must be JSON")
        case .unsupportedToken: (400, "The token is not a Constellation token")
        case .uriTooLong: (414, "The URI is too long")
        case .validationFailed: (422, "A field is not valid")
        case .viewTokenExpired: (401, "This view link has expired")
        case .viewTokenReadOnly: (403, "A view link cannot do this")
        case .viewTokenRevoked: (401, "This view link has been revoked")
        case .viewTokenWrongEvent: (403, "This view token is for another event")
        case .webClientMissing: (503, "The web client is not installed")
        }
    }
}
