import ConstellationModel
import Foundation

/// A body that is not the JSON a route expects: which field, and what it must be. The decoder's
/// own words stay in the log.
extension DecodingError: ProblemConvertible {
    package var problem: Problem { .malformedJSON(JSONBody.explanation(of: self)) }

    package var logsItsCause: Bool { true }
}
