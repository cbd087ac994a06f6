import ConstellationModel

extension InvalidDate: ProblemConvertible {
    package var problem: Problem {
        let pointer = FieldError.pointer(ofPath: field)
        let error =
            // The last second inside, not the first outside: 10000-01-01 is no date a client can read.
            within.map { FieldError(pointer, .dateRange, earliest: $0.lowerBound, latest: $0.upperBound.addingTimeInterval(-1)) }
            ?? FieldError(pointer, .format, format: "date")
        return Problem(
            .invalidDate, detail: "\(field) must be \(expected).",
            errors: [error])
    }
}
