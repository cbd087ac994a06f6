import ConstellationModel
import Foundation
import NIOCore

/// What every live feed grants each watcher: its stream (at most `bufferLimit` messages waiting),
/// one of the server's stream slots and one of its credential's, all given back when the watch
/// ends (after the settings' `lifetime`, when its client leaves, or when the iteration ends).
struct FeedWatches: Sendable {
    let settings: FeedSettings
    /// Streams per credential (a profile id, or a view token's id).
    private let allowance: CredentialAllowance
    /// The server's streams of every kind.
    private let slots: StreamSlots

    init(settings: FeedSettings, slots: StreamSlots) {
        self.settings = settings
        allowance = CredentialAllowance(limit: settings.streamsPerCredential)
        self.slots = slots
    }

    /// Opens a watch for `credential`, 429 `too_many_streams` past its allowance (or `limit`, a
    /// view link's screens): `register` files the watcher's stream with its feed and says where it
    /// starts; `unregister` takes it out when the watch ends.
    func open<Start>(
        for credential: UUID, limit: Int? = nil, until ended: EventLoopFuture<Void>?,
        register: (AsyncStream<FeedMessage>.Continuation) -> Start, unregister: @escaping @Sendable () -> Void
    ) throws -> (Start, AsyncStream<FeedMessage>) {
        let (stream, continuation) = AsyncStream<FeedMessage>.makeStream(bufferingPolicy: .bufferingOldest(settings.bufferLimit))
        try slots.take()
        guard allowance.take(credential, limit: limit) else {
            slots.giveBack()
            throw Problem.tooManyStreams(limit ?? allowance.limit)
        }
        let start = register(continuation)
        continuation.finish(after: settings.lifetime, orWhen: ended) { [allowance, slots] in
            allowance.giveBack(credential)
            slots.giveBack()
            unregister()
        }
        return (start, stream)
    }
}
