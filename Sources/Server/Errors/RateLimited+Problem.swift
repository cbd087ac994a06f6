import ConstellationModel

extension RateLimited: ProblemConvertible {
    package var problem: Problem {
        let seconds = max(1, Int((retryAfter / .seconds(1)).rounded(.up)))
        return Problem(
            status: 429, code: "rate_limited", title: "Too many requests",
            detail: "Too many \(action.noun) from you; try again in \(seconds) s.", retryAfter: seconds)
    }
}
