import Client
import ConstellationModel
import Foundation
import Logging
import Server
import Store
import TestSupport
import Testing

/// `GET /v1/events/{event}/stream` on a real server and PostgreSQL: new pairs arrive as Server-Sent
/// Events, as the organizers' network shows the people; `Last-Event-ID` replays what was missed;
/// a wall's view token sees no pseudonym; a screen hears at once when someone it names hides;
/// only the event's readers get a stream.
@Suite(.tier(.database)) struct EventStreamTests {
    /// One event from the stream.
    typealias Event = ServerSentEvents.Event

    /// An open stream: its events, parsed, as they come.
    final class Stream: @unchecked Sendable {
        let status: Int
        private var iterator: AsyncThrowingStream<Event, any Error>.AsyncIterator

        convenience init(port: Int, event: String, credential: String, lastEventId: String? = nil) async throws {
            try await self.init(port: port, path: "/v1/events/\(event)/stream", credential: credential, lastEventId: lastEventId)
        }

        init(port: Int, path: String, credential: String, lastEventId: String? = nil) async throws {
            var headers = [(name: "Authorization", value: "Bearer \(credential)")]
            if let lastEventId { headers.append(("Last-Event-ID", lastEventId)) }
            let parts = HTTPTransport().stream(HTTPRequest(method: "GET", url: "http://127.0.0.1:\(port)\(path)", headers: headers))
            let (events, continuation) = AsyncThrowingStream<Event, any Error>.makeStream()
            let (heads, head) = AsyncThrowingStream<Int, any Error>.makeStream()
            let task = Task {
                var parser = ServerSentEvents()
                do {
                    for try await part in parts {
                        switch part {
                        case .head(let answer):
                            head.yield(answer.status)
                            head.finish()
                        case .bytes(let bytes):
                            for event in parser.feed(bytes) { continuation.yield(event) }
                        }
                    }
                    head.finish()
                    continuation.finish()
                } catch {
                    head.finish(throwing: error)
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
            var answers = heads.makeAsyncIterator()
            guard let status = try await answers.next() else { throw CancellationError() }
            self.status = status
            iterator = events.makeAsyncIterator()
        }

        /// The next event, or a failure after `seconds`. The default is for a message that must
        /// arrive: what matters is that it does, in order (how fast is `Tools/bench-eventday`'s
        /// figure), and the whole suite on two loaded cores has taken over 5 s to deliver one. A
        /// test that expects silence passes its own short bound.
        func next(within seconds: Double = 30) async throws -> Event {
            try await withThrowingTaskGroup(of: Event?.self) { group in
                group.addTask { try await self.iterator.next() }
                group.addTask {
                    try await Task.sleep(for: .seconds(seconds))
                    return nil
                }
                let first = try await group.next()!
                group.cancelAll()
                guard let event = first else { throw StreamTimedOut() }
                return event
            }
        }

        struct StreamTimedOut: Error {}
    }

    private static func connection(_ event: Event) throws -> LiveConnection {
        #expect(event.name == "connection")
        return try JSONDecoder.constellation.decode(LiveConnection.self, from: Data(event.data.utf8))
    }

    @Test func newPairsArriveAsTheOrganizersSeeThem() async throws {
        try await TestServer.run { server throws in
            let (ada, bob, cleo) = try await server.users("Ada", "Bob", "Cleo")
            let event = try await ada.client.createEvent(EventRoutesTests.newEvent("stream-a")).event
            let stream = try await Stream(port: server.port, event: "stream-a", credential: ada.client.apiKey!)
            #expect(stream.status == 200)
            let hello = try await stream.next()
            #expect(hello.name == "hello" && hello.data == #"{"seq":0}"#)

            // Bob chose to be named at the event; Cleo did not.
            _ = try await bob.client.scan(ada.client, at: "stream-a")
            _ = try await bob.client.setEventVisibility(.named, at: "stream-a")
            let first = try Self.connection(try await stream.next())
            _ = try await cleo.client.scan(bob.client, at: "stream-a")
            let second = try Self.connection(try await stream.next())
            #expect(second.seq > first.seq)

            // The same ids as the event's network shows, and (for the pair made after Bob chose to be
            // named: the first may have been read before) the same labels.
            let network = try await ada.client.eventNetwork("stream-a")
            let shown = Dictionary(uniqueKeysWithValues: network.nodes.map { ($0.id, $0.label) })
            for person in [first.source, first.target] {
                #expect(shown[person.id] != nil, "\(person)")
            }
            for person in [second.source, second.target] {
                #expect(shown[person.id] == person.label, "\(person)")
            }
            #expect(Set([second.source.label, second.target.label]).contains("Bob"))
            #expect([second.source.label, second.target.label].contains { $0.hasPrefix("Attendee ") }, "Cleo stays a pseudonym")
            #expect(!"\(first)\(second)".contains(ada.profile.id.uuidString), "no profile id")
            _ = event
        }
    }

    @Test func lastEventIdReplaysWhatWasMissedAndAWallSeesPseudonymsOnly() async throws {
        try await TestServer.run { server throws in
            let ada = try await server.user("Ada")
            _ = try await ada.client.createEvent(EventRoutesTests.newEvent("stream-b"))
            var people: [String] = []
            for name in ["Bob", "Cleo", "Dan"] {
                let person = try await server.user(name)
                _ = try await person.client.scan(ada.client, at: "stream-b")
                _ = try await person.client.setEventVisibility(.named, at: "stream-b")
                people.append(name)
            }
            let wall = try await ada.client.issueViewToken(for: "stream-b", wall: true).token
            let stream = try await Stream(port: server.port, event: "stream-b", credential: wall, lastEventId: "0")
            #expect(stream.status == 200)
            #expect(try await stream.next().name == "hello")
            var replayed: [LiveConnection] = []
            for _ in 0..<3 { replayed.append(try Self.connection(try await stream.next())) }
            #expect(replayed.map(\.seq) == replayed.map(\.seq).sorted() && Set(replayed.map(\.seq)).count == 3)
            let labels = replayed.flatMap { [$0.source.label, $0.target.label] }
            #expect(labels.allSatisfy { $0.isEmpty }, "a wall shows no name and no pseudonym: \(labels)")

            // Resuming after the second: only the third again.
            let resumed = try await Stream(
                port: server.port, event: "stream-b", credential: ada.client.apiKey!, lastEventId: "\(replayed[1].seq)")
            #expect(try await resumed.next().name == "hello")
            #expect(try Self.connection(try await resumed.next()).seq == replayed[2].seq)
        }
    }

    @Test func aScreenIsToldAtOnceWhenSomeoneItNamesHides() async throws {
        try await TestServer.run { server throws in
            let (ada, bob, cleo) = try await server.users("Ada", "Bob", "Cleo")
            let created = try await ada.client.createEvent(EventRoutesTests.newEvent("stream-hide"))
            _ = try await bob.client.scan(ada.client, at: "stream-hide")
            _ = try await bob.client.setWallName(true, at: "stream-hide")
            _ = try await bob.client.setEventVisibility(.named, at: "stream-hide")
            let wallToken = try await ada.client.issueViewToken(for: "stream-hide", wall: true).token
            let wall = try await Stream(port: server.port, event: "stream-hide", credential: wallToken)
            let organizers = try await Stream(port: server.port, event: "stream-hide", credential: ada.client.apiKey!)
            #expect(try await wall.next().name == "hello")
            #expect(try await organizers.next().name == "hello")
            #expect(try await ada.client.eventNetwork("stream-hide", asWall: true).nodes.contains { $0.label == "Bob" })

            // No pair comes after: the screens hear of it all the same, and read the network again.
            _ = try await bob.client.setWallName(false, at: "stream-hide")
            #expect(try await wall.next().name == "changed")
            #expect(try await organizers.next().name == "changed", "one revision for both kinds of screen")
            #expect(!(try await ada.client.eventNetwork("stream-hide", asWall: true)).nodes.contains { $0.label == "Bob" })
            _ = try await bob.client.setEventVisibility(.pseudonymous, at: "stream-hide")
            #expect(try await organizers.next().name == "changed")
            #expect(try await wall.next().name == "changed", "the wall reads its picture again too (a revision for both)")
            #expect(!(try await ada.client.eventNetwork("stream-hide")).nodes.contains { $0.label == "Bob" })

            // Being named again is no such hurry: it waits for the next pair or picture. Nor does
            // someone shown nowhere leaving tell every screen to read the picture again.
            _ = try await bob.client.setWallName(true, at: "stream-hide")
            _ = try await cleo.client.joinEvent("stream-hide", code: created.joinCode)
            try await cleo.client.leave("stream-hide")
            await #expect(throws: Stream.StreamTimedOut.self) { _ = try await wall.next(within: 2) }
        }
    }

    @Test func onlyTheEventsReadersGetAStream() async throws {
        try await TestServer.run { server throws in
            let (ada, bob) = try await server.users("Ada", "Bob")
            _ = try await ada.client.createEvent(EventRoutesTests.newEvent("stream-c"))
            _ = try await ada.client.createEvent(EventRoutesTests.newEvent("stream-d"))
            _ = try await bob.client.scan(ada.client, at: "stream-c")
            let otherEvent = try await ada.client.issueViewToken(for: "stream-d").token
            let cases: [(String, String, String?, Int)] = [
                ("stream-c", bob.client.apiKey!, nil, 403),  // an attendee
                ("stream-c", otherEvent, nil, 403),  // another event's view token
                ("no-such-event", ada.client.apiKey!, nil, 404),
                ("stream-c", ada.client.apiKey!, "yesterday", 400),  // not an id this stream sent
                ("stream-c", "cst_" + String(repeating: "A", count: 43), nil, 401),
            ]
            for (event, credential, lastEventId, status) in cases {
                #expect(
                    try await Stream(port: server.port, event: event, credential: credential, lastEventId: lastEventId).status == status,
                    "\(event) \(lastEventId ?? "")")
            }
        }
    }

    /// A stream's slot is freed when its client goes, not at the stream's next write: a client that
    /// reconnects at once is served, not told it has too many streams. This client leaves the hello
    /// unread, so its going resets the connection; one that closes with a FIN is in
    /// `StreamEndingTests`. (The bound is generous for a loaded machine, and still far below the
    /// keep-alive that freed it before, 15 s.)
    @Test func aClosedStreamFreesItsSlotAtOnce() async throws {
        try await TestServer.run { server throws in
            let ada = try await server.user("Ada")
            _ = try await ada.client.createEvent(EventRoutesTests.newEvent("stream-f"))
            let key = try #require(ada.client.apiKey)
            var open: [RawHTTP] = []
            for _ in 0..<4 {
                let connection = try RawHTTP(port: server.port)
                connection.send("GET /v1/events/stream-f/stream HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(key)\r\n\r\n")
                open.append(connection)
            }
            let event = try await ada.client.event("stream-f").id
            let opened = ContinuousClock.now + .seconds(30)
            while server.services.feeds.watcherCount(of: event) < 4, ContinuousClock.now < opened {
                try await Task.sleep(for: .milliseconds(20))
            }
            let full = try await Stream(port: server.port, event: "stream-f", credential: key)
            #expect(full.status == 429, "four streams are the limit")
            open.removeFirst().hangUp()
            let deadline = ContinuousClock.now + .seconds(5)
            var status = 0
            while ContinuousClock.now < deadline {
                status = try await Stream(port: server.port, event: "stream-f", credential: key).status
                if status == 200 { break }
                try await Task.sleep(for: .milliseconds(100))
            }
            #expect(status == 200, "the closed stream's slot was freed")
        }
    }

    /// A watcher that reads nothing is let go once `bufferLimit` messages wait for it: what it was
    /// holding is freed, and the reader stops when nobody watches.
    @Test func aWatcherThatNeverReadsIsLetGo() async throws {
        try await TestServer.run { server throws in
            let ada = try await server.user("Ada")
            let event = try await ada.client.createEvent(EventRoutesTests.newEvent("stream-e")).event
            let feeds = EventFeeds(
                events: server.services.events, identity: { EventIdentity(keyRing: server.services.keyRing) },
                logger: Logger(label: "test"), settings: FeedSettings(interval: .milliseconds(20), bufferLimit: 3),
                slots: StreamSlots(limit: 16, logger: Logger(label: "test")))
            let readers = Task { await feeds.run() }
            defer { readers.cancel() }
            let start = try #require(try await server.services.events.feedPosition(of: event.id))
            let (_, messages) = try feeds.watch(event.id, from: start, showingNames: true, credential: ada.profile.id)
            #expect(feeds.watcherCount(of: event.id) == 1)
            for name in ["B", "C", "D", "E", "F", "G"] {
                let person = try await server.user(name)
                _ = try await person.client.scan(ada.client, at: "stream-e")
            }
            let deadline = ContinuousClock.now + .seconds(10)
            while feeds.watcherCount(of: event.id) > 0, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
            #expect(feeds.watcherCount(of: event.id) == 0, "let go (waited up to 10 s for the reader to fill its buffer)")
            var kept = 0
            for await _ in messages { kept += 1 }
            #expect(kept == 3, "only the buffer's worth was held")
        }
    }
}
