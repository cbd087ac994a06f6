import ServiceLifecycle

/// The tasks that read the database for a live feed, children of the feed's service rather than
/// loose tasks: each starts when its feed gets its first watcher, and all of them end with the
/// service, after every watcher's stream was ended. A reader stops by itself when its feed has no
/// watcher left.
final class FeedReaders: Sendable {
    private typealias Reader = @Sendable () async -> Void
    private let starts: AsyncStream<Reader>
    private let continuation: AsyncStream<Reader>.Continuation

    init() {
        (starts, continuation) = AsyncStream.makeStream()
    }

    /// Runs `reader` among the service's tasks: now if the service runs, else when it starts.
    func start(_ reader: @escaping @Sendable () async -> Void) {
        continuation.yield(reader)
    }

    /// Runs the readers until graceful shutdown or cancellation; then `endWatching` ends every
    /// watcher's stream, and the readers are cancelled and awaited.
    func run(endWatching: () -> Void) async {
        await withDiscardingTaskGroup { group in
            for await reader in starts.cancelOnGracefulShutdown() {
                group.addTask(operation: reader)
            }
            continuation.finish()
            endWatching()
            group.cancelAll()
        }
    }
}
