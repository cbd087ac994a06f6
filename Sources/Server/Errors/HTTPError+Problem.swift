import ConstellationModel
import Hummingbird

/// Hummingbird's own refusals (no route, a body it could not read) as problems.
extension HTTPError: ProblemConvertible {
    package var problem: Problem {
        let status = Int(status.code)
        switch status {
        case 404: return Problem(status: 404, code: "not_found", title: "No such resource")
        case 405: return Problem(status: 405, code: "method_not_allowed", title: "Method not allowed on this resource")
        case 413: return .payloadTooLarge
        case 400: return Problem(status: 400, code: "malformed_json", title: "The request body is not the JSON expected", detail: body)
        default: return Problem(status: status, code: "http_\(status)", title: self.status.reasonPhrase, detail: body)
        }
    }
}
