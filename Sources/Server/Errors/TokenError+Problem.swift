import ConstellationModel
import Tokens

extension TokenError: ProblemConvertible {
    package var problem: Problem {
        switch self {
        case .malformed, .unsupportedVersion, .badEncoding, .invalidClaims:
            Problem(status: 400, code: code, title: "The token is not a Constellation token", detail: description)
        case .invalidSignature, .unknownKey, .keyExpired, .expired, .notYetValid:
            Problem(status: 401, code: code, title: description)
        case .invalidKey, .cryptoFailure:
            .internalError
        }
    }
}
