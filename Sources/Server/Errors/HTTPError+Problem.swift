import ConstellationModel
import Hummingbird

/// Hummingbird's own refusals (no route, a body it could not read) as problems.
extension HTTPError: ProblemConvertible {
    package var problem: Problem {
        let status = Int(status.code)
        switch status {
        case 404: return Problem(.notFound)
        case 405: return Problem(.methodNotAllowed)
        case 413: return .payloadTooLarge
        case 400: return Problem(.malformedJson, detail: body)
        // Hummingbird refuses nothing else a route of this server reaches (416 is its file middleware's).
        default: return status >= 500 ? .internalError : Problem(.malformedRequest, detail: "\(status) \(self.status.reasonPhrase)")
        }
    }
}
