import ConstellationModel

extension GrowthSeries.WindowError: ProblemConvertible {
    package var problem: Problem {
        switch self {
        case .tooMany(let count):
            Problem(
                .tooManyBuckets,
                detail: "\(count) buckets asked for; at most \(EventGrowth.maximumBuckets): choose a larger bucket or a narrower from/to")
        }
    }
}
