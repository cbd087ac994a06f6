import ConstellationModel

extension InvalidDate: ProblemConvertible {
    package var problem: Problem {
        Problem(status: 422, code: "invalid_date", title: "A date is not one this API accepts", detail: "\(field) must be \(expected).")
    }
}
