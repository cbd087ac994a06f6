import ConstellationModel
import Store

/// A database that is down, busy or slow, or that rolled the request back for another's sake
/// (a deadlock), is a 503 to retry; a value it refused is the request's
/// fault (a backstop: the checks before the database should have caught it, and nothing changed).
/// Anything else is a 500. The SQL, the SQLSTATE and the server's message stay in the log.
extension PostgresError: ProblemConvertible {
    package var problem: Problem {
        switch kind {
        case .connectionFailed, .shutdown:
            return Problem(
                .databaseUnavailable, retryAfter: 2)
        case .poolExhausted:
            return Problem(.databaseBusy, retryAfter: 1)
        default:
            break
        }
        if isQueryCanceled {
            return Problem(.databaseTimeout, retryAfter: 2)
        }
        if isTransactionConflict {
            return Problem(.databaseBusy, detail: "Another request changed the same data at the same moment", retryAfter: 1)
        }
        if isDataException || isIntegrityViolation {
            return Problem(isUniqueViolation ? .conflict : .validationFailed, detail: "A value of this request cannot be stored")
        }
        return .internalError
    }

    package var logsItsCause: Bool { true }
}
