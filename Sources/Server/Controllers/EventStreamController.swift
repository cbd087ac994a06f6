import ConstellationModel
import Foundation
import Hummingbird
import NIOCore
import ServiceLifecycle
import Store

/// `GET /v1/events/{event}/stream`: the event's new pairs as Server-Sent Events, for its organizers'
/// live view. First `retry: 2000` and `event: hello` (`{"seq": the latest pair's number}`); then
/// `event: connection` (a `LiveConnection`, `id:` the highest number sent) for each new pair,
/// `event: changed` when pairs went or moved (read the network again), and a `: keep-alive`
/// comment when quiet. With `Last-Event-ID`, the pairs after it are sent first (up to
/// `replayLimit`; past that, `changed`). The stream ends when the server shuts down. For the
/// event's readers (`requireEventReader`): a wall's view token sees pseudonyms only.
struct EventStreamController {
    let services: AppServices
    let feeds: EventFeeds
    let replayLimit = 20_000

    func addAuthenticatedRoutes(to group: RouterGroup<AppRequestContext>) {
        group.get("events/:event/stream", use: stream)
    }

    @Sendable func stream(_ request: Request, context: AppRequestContext) async throws -> Response {
        let reader = try await services.requireEventReader(context)
        let event = reader.event.id
        let resumeAfter = try Self.lastEventId(request)
        guard let start = try await services.events.feedPosition(of: event) else { throw Problem.noSuchEvent }
        let (position, messages) = try feeds.watch(
            event, from: start, showingNames: reader.showsNames, credential: reader.quotaKey, until: context.connectionClosed)
        let events = services.events
        let replayLimit = replayLimit
        let headers: HTTPFields = [
            .contentType: "text/event-stream; charset=utf-8", .cacheControl: "no-store",
            .init("X-Accel-Buffering")!: "no",
        ]
        return Response(
            status: .ok, headers: headers,
            body: ResponseBody { writer in
                try await writer.write(ByteBuffer(string: "retry: 2000\n\nevent: hello\ndata: {\"seq\":\(position.seq)}\n\n"))
                if let resumeAfter, resumeAfter < position.seq {
                    let missed = try await events.pairs(of: event, after: resumeAfter, through: position.seq, limit: replayLimit + 1)
                    if missed.count > replayLimit {
                        try await writer.write(EventFeeds.changed.bytes)
                    } else {
                        let faces = try EventIdentity(keyRing: services.keyRing).faces(
                            of: missed, at: event, showingNames: reader.showsNames)
                        for pair in missed {
                            try await writer.write(try EventFeeds.connection(pair, faces: faces, lastId: pair.seq).bytes)
                        }
                    }
                }
                for await message in messages.cancelOnGracefulShutdown() {
                    try await writer.write(message.bytes)
                }
                try await writer.finish(nil)
            })
    }

    /// The `Last-Event-ID` header as a pair number; 400 `invalid_last_event_id` if it is not one.
    private static func lastEventId(_ request: Request) throws -> Int64? {
        guard let text = request.headers[.init("Last-Event-ID")!] else { return nil }
        guard let value = Int64(text.trimmingCharacters(in: .whitespaces)), value >= 0 else {
            throw Problem.badRequest("invalid_last_event_id", "Last-Event-ID must be the id of an event this stream sent")
        }
        return value
    }
}
