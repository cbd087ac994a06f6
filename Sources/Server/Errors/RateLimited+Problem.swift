import ConstellationModel

extension RateLimited: ProblemConvertible {
    package var problem: Problem {
        let seconds = max(1, Int((retryAfter / .seconds(1)).rounded(.up)))
        return Problem(
            .rateLimited,
            detail: "Too many \(action.noun) from you; try again in \(seconds) s.", retryAfter: seconds)
    }
}
