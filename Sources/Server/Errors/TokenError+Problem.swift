import ConstellationModel
import Tokens

extension TokenError: ProblemConvertible {
    package var problem: Problem {
        switch self {
        case .malformed: Problem(.malformedToken, detail: description)
        case .unsupportedVersion: Problem(.unsupportedToken, detail: description)
        case .badEncoding: Problem(.badTokenEncoding, detail: description)
        case .invalidClaims: Problem(.invalidClaims, detail: description)
        case .invalidSignature: Problem(.invalidSignature, detail: description)
        case .unknownKey: Problem(.unknownKey, detail: description)
        case .keyExpired: Problem(.keyExpired, detail: description)
        case .expired: Problem(.tokenExpired, detail: description)
        case .notYetValid: Problem(.tokenNotYetValid, detail: description)
        case .invalidKey, .cryptoFailure: .internalError
        }
    }
}
