#if canImport(Glibc)
    import Glibc
#endif

/// The process's limit on open files (descriptors): every client connection, live stream,
/// database connection and file holds one. systemd's default is a soft limit of 1,024 under a
/// hard one of 524,288, and a server that does not raise it turns a venue's phones away at a few
/// hundred streams (NIO's accept backoff swallows `EMFILE`: nothing is logged, the rest hang).
enum OpenFiles {
    /// The soft and hard limits now.
    static var limits: (soft: Int, hard: Int) {
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0 else { return (1_024, 1_024) }
        return (clamp(limit.rlim_cur), clamp(limit.rlim_max))
    }

    /// Raises the soft limit to the hard one, which any process may do; returns the limits before
    /// and the soft limit after (the one before, if the raise was refused).
    static func raiseSoftLimit() -> (before: Int, hard: Int, now: Int) {
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0 else { return (1_024, 1_024, 1_024) }
        let before = clamp(limit.rlim_cur)
        guard limit.rlim_cur < limit.rlim_max else { return (before, clamp(limit.rlim_max), before) }
        limit.rlim_cur = limit.rlim_max
        guard setrlimit(resource, &limit) == 0 else { return (before, clamp(limit.rlim_max), before) }
        return (before, clamp(limit.rlim_max), clamp(limit.rlim_cur))
    }

    /// How many live streams a server with `limit` descriptors holds at most: a quarter of them
    /// (64 at least, half at most) kept for what else it serves, so that `/health`, `/ready`, scans
    /// and its database connections still get through when the streams are full.
    static func streamCapacity(of limit: Int) -> Int {
        limit - min(limit / 2, max(64, limit / 4))
    }

    private static let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)

    private static func clamp(_ value: rlim_t) -> Int { value > rlim_t(Int32.max) ? Int(Int32.max) : Int(value) }
}
