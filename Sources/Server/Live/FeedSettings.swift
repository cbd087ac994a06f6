/// How a live feed runs: how often its reader asks the database, how many messages a watcher may
/// fall behind before it is let go (its stream ends; it comes back with `Last-Event-ID`), and how
/// many streams one credential may hold open (past it, 429 `too_many_streams`).
package struct FeedSettings: Sendable {
    var interval: Duration
    var bufferLimit: Int
    var streamsPerCredential: Int

    package init(interval: Duration = .milliseconds(500), bufferLimit: Int = 1_000, streamsPerCredential: Int = 4) {
        self.interval = interval
        self.bufferLimit = bufferLimit
        self.streamsPerCredential = streamsPerCredential
    }
}
