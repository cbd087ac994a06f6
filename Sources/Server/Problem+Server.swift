import ConstellationModel
import Foundation
import Hummingbird
import NIOCore
import QR
import Store
import Tokens

extension Problem {
    static let missingCredentials = Problem(status: 401, code: "missing_credentials", title: "An API key is required",
                                            detail: "Send it as: Authorization: Bearer <key>")
    static let invalidCredentials = Problem(status: 401, code: "invalid_credentials", title: "The API key is not valid")

    static func validation(_ detail: String) -> Problem {
        Problem(status: 422, code: "validation_failed", title: "A field is not valid", detail: detail)
    }

    static let notAnOrganizer = Problem(status: 403, code: "not_an_organizer", title: "Only the event's organizers may do this")
    static let notAMember = Problem(status: 403, code: "not_a_member", title: "Only the event's attendees and organizers may do this",
                                    detail: "Join the event with its code first.")
    /// Neither says who blocked whom: the scanner learns only that the two cannot connect.
    static let blocked = Problem(status: 403, code: "blocked", title: "You cannot connect with this person",
                                 detail: "One of you has blocked the other.")
    static let unknownEvent = Problem(status: 404, code: "unknown_event", title: "No such event")
    static let eventEnded = Problem(status: 410, code: "event_ended", title: "This event has ended",
                                    detail: "Its tokens are no longer redeemed.")

    static let deviceNotFound = Problem(status: 404, code: "device_not_found", title: "You have no such device")

    static func badRequest(_ code: String, _ detail: String) -> Problem {
        Problem(status: 400, code: code, title: "Bad request", detail: detail)
    }

    /// The problem a thrown error stands for: domain errors are mapped to HTTP here, at the edge only.
    /// `nil` means an unexpected failure (a 500, logged in full, shown in nothing but a code).
    package init?(_ error: any Error) {
        switch error {
        case let problem as Problem:
            self = problem
        case let error as TokenError:
            self.init(tokenError: error)
        case let limited as RateLimited:
            let seconds = max(1, Int((limited.retryAfter / .seconds(1)).rounded(.up)))
            self.init(status: 429, code: "rate_limited", title: "Too many requests",
                      detail: "Too many \(limited.action.noun) from you; try again in \(seconds) s.", retryAfter: seconds)
        case let error as RedemptionError:
            switch error {
            case .tokenUsedUp:
                self.init(status: 409, code: "token_used_up", title: "This token has been redeemed by as many people as it may be",
                          detail: "Ask for a fresh QR code.")
            case .selfConnection:
                self.init(status: 422, code: "self_connection", title: "You cannot connect to yourself")
            case .unknownOwner:
                self.init(status: 404, code: "unknown_profile", title: "The token's owner no longer exists")
            case .unknownEvent:
                self = .unknownEvent
            case .eventEnded:
                self = .eventEnded
            case .blocked:
                self = .blocked
            case .tokenRevoked:
                self.init(status: 401, code: "token_revoked", title: "Its owner has revoked this token", detail: "Ask for a fresh QR code.")
            }
        case let error as BlockError:
            switch error {
            case .unknownProfile:
                self.init(status: 404, code: "unknown_profile", title: "No such profile")
            case .selfBlock:
                self.init(status: 422, code: "self_block", title: "You cannot block yourself")
            }
        case let error as EventError:
            switch error {
            case .slugTaken:
                self.init(status: 409, code: "slug_taken", title: "Another event has this slug", detail: "Choose another slug.")
            case .unknownEvent:
                self = .unknownEvent
            case .notAnOrganizer:
                self = .notAnOrganizer
            case .invalidJoinCode:
                self.init(status: 403, code: "invalid_join_code", title: "The join code is not this event's",
                          detail: "Ask an organizer for the current code (XXXX-XXXX).")
            case .unknownProfile:
                self.init(status: 404, code: "unknown_profile", title: "No such profile")
            }
        case let error as DeviceRevocationError:
            switch error {
            case .notFound:
                self = .deviceNotFound
            case .lastDevice:
                self.init(status: 409, code: "last_device", title: "This is your profile's last device",
                          detail: "Without a device you can only come back with a recovery code; add ?confirm=last-device if you mean it.")
            }
        case let error as QRError:
            self.init(status: 422, code: "qr_failed", title: "The QR code could not be made", detail: error.description)
        case let error as PostgresError where error.kind == .connectionFailed || error.kind == .shutdown:
            self.init(status: 503, code: "database_unavailable", title: "The database is unavailable; try again shortly", retryAfter: 2)
        case let error as PostgresError where error.kind == .poolExhausted:
            self.init(status: 503, code: "database_busy", title: "Every database connection is busy; try again shortly", retryAfter: 1)
        case let error as PostgresError where error.isQueryCanceled:
            self.init(status: 503, code: "database_timeout", title: "The database took too long to answer; try again shortly",
                      retryAfter: 2)
        case let error as PostgresError where error.isDataException || error.isIntegrityViolation:
            // A backstop: the checks before the database should have caught it, and the request changed nothing.
            self.init(status: error.isUniqueViolation ? 409 : 422, code: error.isUniqueViolation ? "conflict" : "validation_failed",
                      title: "The database refused a value of this request", detail: "SQLSTATE \(error.sqlState ?? "")")
        case let error as HTTPError:
            self.init(httpError: error)
        case is NIOTooManyBytesError:
            self.init(status: 413, code: "payload_too_large", title: "The request body is too large")
        case let error as DecodingError:
            self.init(status: 400, code: "malformed_json", title: "The request body is not the JSON expected", detail: "\(error)")
        default:
            return nil
        }
    }

    private init(tokenError error: TokenError) {
        switch error {
        case .malformed, .unsupportedVersion, .badEncoding, .invalidClaims:
            self.init(status: 400, code: error.code, title: "The token is not a Constellation token", detail: error.description)
        case .invalidSignature, .unknownKey, .keyExpired, .expired, .notYetValid:
            self.init(status: 401, code: error.code, title: error.description)
        case .invalidKey, .cryptoFailure:
            self.init(status: 500, code: "internal_error", title: "Internal error")
        }
    }

    private init(httpError error: HTTPError) {
        let status = Int(error.status.code)
        switch status {
        case 404: self.init(status: 404, code: "not_found", title: "No such resource")
        case 405: self.init(status: 405, code: "method_not_allowed", title: "Method not allowed on this resource")
        case 413: self.init(status: 413, code: "payload_too_large", title: "The request body is too large")
        case 400: self.init(status: 400, code: "malformed_json", title: "The request body is not the JSON expected", detail: error.body)
        default: self.init(status: status, code: "http_\(status)", title: error.status.reasonPhrase, detail: error.body)
        }
    }

    /// The `application/problem+json` response.
    var response: Response {
        var headers: HTTPFields = [.contentType: Problem.mediaType, .cacheControl: "no-store"]
        if status == 401 { headers[.wwwAuthenticate] = "Bearer" }
        if let retryAfter { headers[.retryAfter] = String(retryAfter) }
        let body = (try? JSONEncoder.constellation.encode(self)) ?? Data()
        return Response(status: .init(code: status), headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}
