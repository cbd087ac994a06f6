import ConstellationModel
import Foundation
import NIOCore

/// One Server-Sent Events message of a live feed, encoded once for every watcher.
package struct FeedMessage: Sendable {
    let bytes: ByteBuffer

    /// `id: <id>`, `event: connection`, `data:` the connection as JSON.
    static func connection(id: Int64, _ data: some Encodable) throws -> FeedMessage {
        var bytes = ByteBuffer(string: "id: \(id)\nevent: connection\ndata: ")
        bytes.writeBytes(try JSONEncoder.constellation.encode(data))
        bytes.writeString("\n\n")
        return FeedMessage(bytes: bytes)
    }

    /// The event was purged: its streams end, and coming back is answered 410 `event_purged`.
    static let purged = FeedMessage(bytes: ByteBuffer(string: "event: purged\ndata: {}\n\n"))
    /// Pairs went or moved: the watcher fetches the picture again.
    static let changed = FeedMessage(bytes: ByteBuffer(string: "event: changed\ndata: {}\n\n"))
    static let keepAlive = FeedMessage(bytes: ByteBuffer(string: ": keep-alive\n\n"))
}

extension AsyncStream<FeedMessage>.Continuation {
    /// Hands `message` to the watcher; false if it is more than its buffer behind (it is to be
    /// let go: its stream ended, outside any lock, and it comes back with `Last-Event-ID`).
    func offer(_ message: FeedMessage) -> Bool {
        if case .dropped = yield(message) { return false }
        return true
    }
}
