import NIOCore

/// How a live feed runs: how often its reader asks the database, how many messages a watcher may
/// fall behind before it is let go (its stream ends; it comes back with `Last-Event-ID`), how many
/// streams one credential may hold open (past it, 429 `too_many_streams`), and how long a watcher
/// may watch before it is let go the same way, and how long a stream may be quiet before it is sent
/// a keep-alive comment (under the pages' 45 s of silence and proxies' usual 60 s read timeout).
package struct FeedSettings: Sendable {
    var interval: Duration
    var bufferLimit: Int
    var streamsPerCredential: Int
    var lifetime: Duration
    var keepAlive: Duration

    package init(
        interval: Duration = .milliseconds(500), bufferLimit: Int = 1_000, streamsPerCredential: Int = 4,
        lifetime: Duration = .seconds(3600), keepAlive: Duration = .seconds(15)
    ) {
        self.interval = interval
        self.bufferLimit = bufferLimit
        self.streamsPerCredential = streamsPerCredential
        self.lifetime = lifetime
        self.keepAlive = keepAlive
    }
}

extension AsyncStream.Continuation {
    /// Ends a watcher's stream when it has watched for `lifetime` or when `clientLeft` completes,
    /// whichever comes first (a stream the server ends itself ends too), then runs `stopWatching`
    /// once: the watcher's slot is freed.
    func finish(
        after lifetime: Duration, orWhen clientLeft: EventLoopFuture<Void>?, then stopWatching: @escaping @Sendable () -> Void
    ) {
        let expiry = Task {
            guard (try? await Task.sleep(for: lifetime)) != nil else { return }
            finish()
        }
        onTermination = { _ in
            expiry.cancel()
            stopWatching()
        }
        clientLeft?.whenComplete { _ in finish() }
    }
}
