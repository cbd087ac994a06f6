import ConstellationModel

extension InvalidDate: ProblemConvertible {
    package var problem: Problem {
        let pointer = FieldError.pointer(ofPath: field)
        let error =
            within.map { FieldError(pointer, .dateRange, earliest: $0.lowerBound, latest: $0.upperBound) }
            ?? FieldError(pointer, .format, format: "date")
        return Problem(
            status: 422, code: "invalid_date", title: "A date is not one this API accepts", detail: "\(field) must be \(expected).",
            errors: [error])
    }
}
