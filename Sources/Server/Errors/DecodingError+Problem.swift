import ConstellationModel
import Foundation

/// A body that is not the JSON a route expects.
extension DecodingError: ProblemConvertible {
    package var problem: Problem {
        Problem(status: 400, code: "malformed_json", title: "The request body is not the JSON expected", detail: "\(self)")
    }
}
