import ConstellationModel
import Foundation
import Hummingbird
import NIOCore
import ServiceLifecycle
import Store

/// The live streams, as Server-Sent Events. First `retry: 2000` and `event: hello`; then the
/// stream's events; `hello` and every event have an `id:` to resume from; a `: keep-alive` comment
/// when quiet. With `Last-Event-ID`, what came after it is sent first (up to `replayLimit`). A
/// stream ends when its client goes (its FIN is enough), after `streamLifetime` (its client comes
/// back with `Last-Event-ID`), when the server shuts down, or when its client falls too far behind
/// or stops reading (`DrainDeadline`). Each person may hold a few of each kind at once (429
/// `too_many_streams`).
///
/// - `GET /v1/events/{event}/stream`: the event's new pairs, for its organizers' live view.
///   `hello` is `{"seq": the latest pair's number}`; then `event: connection` (a `LiveConnection`,
///   `id:` the highest number sent) for each new pair, and `event: changed` when pairs went or moved
///   or someone stopped being named or shown (read the network again; also when more than
///   `replayLimit` were missed). For the event's
///   readers (`requireEventReader`): a wall's view token sees names of those on the wall only, and no pseudonym.
/// - `GET /v1/me/stream`: my new connections, so that whoever shows their code learns that it
///   worked. `hello` is `{"id": the latest connection's id}`; then `event: connection` (a
///   `Connection`, the other person as the peer, `id:` its id) for each.
struct EventStreamController {
    let services: AppServices
    let feeds: EventFeeds
    let replayLimit = 20_000

    func addAuthenticatedRoutes(to group: RouterGroup<AppRequestContext>) {
        group.get("events/:event/stream", use: stream)
        group.get("me/stream", use: myStream)
    }

    @Sendable func stream(_ request: Request, context: AppRequestContext) async throws -> Response {
        let reader = try await services.requireEventReader(context, asWall: try request.asksForTheWall())
        let event = reader.event.id
        let resumeAfter = try Self.lastEventId(request)
        guard let start = try await services.events.feedPosition(of: event) else { throw Problem.unknownEvent }
        let (position, messages) = try feeds.watch(
            event, from: start, showingNames: reader.showsNames, credential: reader.quotaKey, limit: reader.allowance,
            until: context.clientLeft)
        let (events, keyRing, replayLimit) = (services.events, services.keyRing, replayLimit)
        return Self.eventStream(hello: "{\"seq\":\(position.seq)}", at: position.seq, messages: messages) {
            guard let resumeAfter, resumeAfter < position.seq else { return [] }
            let missed = try await events.pairs(of: event, after: resumeAfter, through: position.seq, limit: replayLimit + 1)
            guard missed.count <= replayLimit else { return [.changed] }
            let faces = try EventIdentity(keyRing: keyRing).faces(of: missed, at: event, showingNames: reader.showsNames)
            return try missed.map { try EventFeeds.connection($0, faces: faces, lastId: $0.seq) }
        }
    }

    @Sendable func myStream(_ request: Request, context: AppRequestContext) async throws -> Response {
        let me = try context.requireProfile()
        let resumeAfter = try Self.lastEventId(request)
        let start = try await services.connections.latestConnectionId()
        let (position, messages) = try services.personalFeeds.watch(me.id, from: start, credential: me.id, until: context.clientLeft)
        let (connections, replayLimit) = (services.connections, replayLimit)
        return Self.eventStream(hello: "{\"id\":\(position)}", at: position, messages: messages) {
            guard let resumeAfter, resumeAfter < position else { return [] }
            let missed = try await connections.connections(after: resumeAfter, through: position, involving: me.id, limit: replayLimit)
            return try missed.map { try PersonalFeeds.message($0.seen(by: me.id)) }
        }
    }

    /// The response of a stream: the hello (`id:` its `position`, where a client that heard nothing
    /// more resumes), what `replay` finds was missed, then `messages` as they come.
    private static func eventStream(
        hello: String, at position: Int64, messages: AsyncStream<FeedMessage>,
        replay: @escaping @Sendable () async throws -> [FeedMessage]
    ) -> Response {
        let headers: HTTPFields = [
            .contentType: "text/event-stream; charset=utf-8", .cacheControl: "no-store", .init("X-Accel-Buffering")!: "no",
        ]
        return Response(
            status: .ok, headers: headers,
            body: ResponseBody { writer in
                try await writer.write(ByteBuffer(string: "retry: 2000\n\nid: \(position)\nevent: hello\ndata: \(hello)\n\n"))
                for message in try await replay() { try await writer.write(message.bytes) }
                for await message in messages.cancelOnGracefulShutdown() {
                    try await writer.write(message.bytes)
                }
                try await writer.finish(nil)
            })
    }

    /// The `Last-Event-ID` header as a number; 400 `invalid_last_event_id` if it is not one.
    private static func lastEventId(_ request: Request) throws -> Int64? {
        guard let text = request.headers[.init("Last-Event-ID")!] else { return nil }
        guard let value = Int64(text.trimmingCharacters(in: .whitespaces)), value >= 0 else {
            throw Problem(.invalidLastEventId, detail: "Last-Event-ID must be the id of an event this stream sent")
        }
        return value
    }
}
