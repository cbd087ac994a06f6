import ConstellationModel
import Store

/// A database that is down, busy or slow is a 503 to retry; a value it refused is the request's
/// fault (a backstop: the checks before the database should have caught it, and nothing changed).
/// Anything else is a 500. The SQL, the SQLSTATE and the server's message stay in the log.
extension PostgresError: ProblemConvertible {
    package var problem: Problem {
        switch kind {
        case .connectionFailed, .shutdown:
            return Problem(
                status: 503, code: "database_unavailable", title: "The database is unavailable; try again shortly", retryAfter: 2)
        case .poolExhausted:
            return Problem(status: 503, code: "database_busy", title: "Every database connection is busy; try again shortly", retryAfter: 1)
        default:
            break
        }
        if isQueryCanceled {
            return Problem(
                status: 503, code: "database_timeout", title: "The database took too long to answer; try again shortly",
                retryAfter: 2)
        }
        if isDataException || isIntegrityViolation {
            return Problem(
                status: isUniqueViolation ? 409 : 422, code: isUniqueViolation ? "conflict" : "validation_failed",
                title: "A value of this request cannot be stored")
        }
        return .internalError
    }

    package var logsItsCause: Bool { true }
}
