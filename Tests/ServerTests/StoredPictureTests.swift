import Client
import ConstellationModel
import Foundation
import Keys
import Server
import Store
import TestSupport
import Testing
import Tokens

/// Several servers, one picture: the servers of a deployment keep each event's latest picture in
/// PostgreSQL (`event_pictures`), serve it while it is the event's, and one of them at a time makes
/// the next under a lease. A maker killed mid-picture leaves the last one in place; a stored
/// picture that does not hold together (a restored archive may hold anything) is made again, never
/// a crash; whoever leaves or is erased is no longer in it.
@Suite(.tier(.database)) struct StoredPictureTests {
    typealias Users = EventNetworkTests

    /// Each node's place, by its id.
    static func places(_ network: EventNetwork) -> [String: [Double]] {
        Dictionary(uniqueKeysWithValues: network.nodes.map { ($0.id, [$0.x, $0.y]) })
    }

    /// How many stored pictures name `profile`, and how many there are in all.
    static func storedPictures(naming profile: UUID, in server: TestServer) async throws -> (naming: Int64, all: Int64) {
        try await server.services.database.withConnection { connection in
            let row = try connection.query(
                """
                SELECT count(*) FILTER (WHERE \(profile) = ANY(people)) AS naming, count(people) AS all_pictures FROM event_pictures
                """)[0]
            return (try row.int("naming"), try row.int("all_pictures"))
        }
    }

    /// Runs `sql` on `server`'s database.
    static func execute(_ sql: SQL, on server: TestServer) async throws {
        try await server.services.database.withConnection { connection in _ = try connection.query(sql) }
    }

    @Test func twoServersOnOneDatabaseShowOnePictureAndLayItOutOnce() async throws {
        let keys = try KeyRingStore(KeyRing(current: SigningKey.generate(), since: Date()))
        try await TestServer.run(keys: keys) { first throws in
            let (ada, _, cleo, _, eve, created) = try await Users.smallEvent(first)
            try await TestServer.run(keys: keys, sharing: first) { second throws in
                // A wall behind a round-robin balancer: its requests go to each server in turn.
                let screens = [ada.client, second.client.authenticated(ada.client.apiKey!)]
                let made = { await first.services.graphWork.storedPictures.made + second.services.graphWork.storedPictures.made }
                var shown: [[String: [Double]]] = []
                for round in 0..<6 { shown.append(Self.places(try await screens[round % 2].eventNetwork("net-event"))) }
                #expect(shown[0].count == 4 && shown.allSatisfy { $0 == shown[0] }, "one picture, whichever server answers")
                #expect(await made() == 1, "laid out once for both servers")
                // The picture keeps how it was made, for whichever server makes the next (`PictureHistory`).
                let store = EventPictureRepository(database: first.services.database)
                let history = { () async throws -> [Int] in
                    let stored = try #require(try await store.picture(of: created.event.id))
                    return [stored.grownInARow, stored.pairsWhenDrawnAfresh]
                }
                #expect(try await history() == [0, 4], "laid out afresh from four pairs")

                // Eve meets Cleo: the server asked first makes the next picture, and both show it.
                try await Users.connect(eve, cleo, at: "net-event")
                var grown: [[String: [Double]]] = []
                for round in 1...6 { grown.append(Self.places(try await screens[round % 2].eventNetwork("net-event"))) }
                #expect(grown[0].count == 5 && grown.allSatisfy { $0 == grown[0] }, "the grown picture, on both")
                #expect(await second.services.graphWork.storedPictures.made == 1, "the second server made the next")
                #expect(await made() == 2)
                #expect(try await history() == [1, 4], "grown once since the four pairs were laid out afresh")
            }
        }
    }

    /// A member who hides through one server is hidden by the others at their next request, though
    /// each shares what it shows of the event for a minute here: the event's choices revision
    /// (migration 0028), read with the event, tells them a member hid. Before, the other server
    /// kept naming them until its shared picture's time was up.
    @Test func aMemberWhoHidesThroughOneServerIsHiddenByTheOthersAtOnce() async throws {
        let keys = try KeyRingStore(KeyRing(current: SigningKey.generate(), since: Date()))
        let minute: @Sendable (inout ServerConfiguration) -> Void = { $0.pictureInterval = .seconds(60) }
        try await TestServer.run(keys: keys, configure: minute) { first throws in
            let (ada, bob, _, _, _, _) = try await Users.smallEvent(first)
            _ = try await bob.client.setEventVisibility(.named, at: "net-event")
            _ = try await bob.client.setWallName(true, at: "net-event")
            let wall = first.client.authenticated(try await ada.client.issueViewToken(for: "net-event", wall: true).token)
            let named: @Sendable (EventNetwork) -> Bool = { network in network.nodes.contains { $0.label == "Bob Hidden" } }
            #expect(named(try await ada.client.eventNetwork("net-event")))
            #expect(named(try await wall.eventNetwork("net-event")))
            #expect(try await ada.client.eventSummary("net-event").topByDegree.contains { $0.name == "Bob Hidden" })
            try await TestServer.run(keys: keys, sharing: first, configure: minute) { second throws in
                let bobThere = second.client.authenticated(try #require(bob.client.apiKey))
                _ = try await bobThere.setEventVisibility(.pseudonymous, at: "net-event")
                #expect(!named(try await ada.client.eventNetwork("net-event")), "hidden from the organizers")
                #expect(try await !ada.client.eventSummary("net-event").topByDegree.contains { $0.name == "Bob Hidden" })
                #expect(named(try await wall.eventNetwork("net-event")), "still named on the wall, as he chose")
                _ = try await bobThere.setWallName(false, at: "net-event")
                #expect(!named(try await wall.eventNetwork("net-event")), "and hidden from the room")
            }
        }
    }

    @Test func aPictureThatCannotBeStoredIsStillShown() async throws {
        try await TestServer.run { server throws in
            let (ada, _, cleo, _, eve, created) = try await Users.smallEvent(server)
            _ = try await ada.client.eventNetwork("net-event")
            // The database refuses every new picture (as a constraint or a full disk would); leases still work.
            try await Self.execute(
                """
                CREATE FUNCTION refuse_pictures() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN RAISE EXCEPTION 'no pictures today'; END $$
                """, on: server)
            try await Self.execute(
                """
                CREATE TRIGGER refuse_pictures BEFORE UPDATE ON event_pictures
                    FOR EACH ROW WHEN (NEW.people IS DISTINCT FROM OLD.people) EXECUTE FUNCTION refuse_pictures()
                """, on: server)
            try await Users.connect(eve, cleo, at: "net-event")
            try await TestServer.run(keys: nil, sharing: server) { other throws in
                let network = try await other.client.authenticated(ada.client.apiKey!).eventNetwork("net-event")
                #expect(network.nodes.count == 5 && network.edges.count == 5, "the new picture, shown")
                #expect(await other.services.graphWork.storedPictures.made == 1)
                let store = EventPictureRepository(database: server.services.database)
                #expect(try #require(try await store.picture(of: created.event.id)).people.count == 4, "the last stored picture stays")
                #expect(try await store.header(of: created.event.id)?.leased == false, "the lease given back")
            }
        }
    }

    @Test func aMakerKilledMidPictureLeavesTheLastOneUntilItsLeaseRunsOut() async throws {
        try await TestServer.run { server throws in
            let (ada, _, cleo, _, eve, created) = try await Users.smallEvent(server)
            let before = try await ada.client.eventNetwork("net-event")
            let pictures = server.services.graphWork.storedPictures
            #expect(await pictures.made == 1)

            // Another server took the lease to make the next picture and was killed: its lease runs
            // for the rest of the test, until the test ends it (a lease of seconds once ran out on two
            // loaded cores before the request that was to find it held).
            let killed = try await server.services.database.withConnection { connection in
                try connection.query(
                    """
                    UPDATE event_pictures SET lease_generation = lease_generation + 1, lease_until = now() + interval '1 hour',
                        maker = 'killed' RETURNING lease_generation
                    """)[0].int("lease_generation")
            }
            try await Users.connect(eve, cleo, at: "net-event")
            let meanwhile = try await ada.client.eventNetwork("net-event")
            #expect(Self.places(meanwhile) == Self.places(before), "the last picture, whose people did not move")
            #expect(meanwhile.edges.count == 4, "Eve, not in it, waits for the next")
            #expect(await pictures.made == 1, "nobody makes the next while the lease runs")

            // Once it ran out, the next request makes the next picture.
            try await Self.execute("UPDATE event_pictures SET lease_until = now() - interval '1 second'", on: server)
            let after = try await ada.client.eventNetwork("net-event")
            #expect(after.nodes.count == 5 && after.edges.count == 5)
            #expect(await pictures.made == 2)

            // The killed maker, were it to come back, saves nothing over the newer picture.
            let store = EventPictureRepository(database: server.services.database)
            let late = EventPictureRepository.Picture(
                generation: killed, fingerprint: 1, people: [], places: [], grownInARow: 0, pairsWhenDrawnAfresh: 0, warmStarted: false)
            #expect(try await !store.save(late, of: created.event.id))
            #expect(Self.places(try await ada.client.eventNetwork("net-event")) == Self.places(after))
        }
    }

    @Test func theNextPictureIsMadeBehindTheAnswerThatShowsTheLastOne() async throws {
        try await TestServer.run(configure: { $0.pictureInterval = .milliseconds(1) }) { server throws in
            let (ada, _, cleo, _, eve, _) = try await Users.smallEvent(server)
            let before = try await ada.client.eventNetwork("net-event")
            let pictures = server.services.graphWork.storedPictures
            #expect(await pictures.made == 1)
            // As if every layout took longer than a request waits for it.
            await pictures.setFreshPictureWait(.zero)

            try await Users.connect(eve, cleo, at: "net-event")
            try await Task.sleep(for: .milliseconds(20))  // the stored picture is older than the interval
            let meanwhile = try await ada.client.eventNetwork("net-event")
            #expect(Self.places(meanwhile) == Self.places(before), "answered at once, with the last picture")
            #expect(meanwhile.edges.count == 4, "Eve, not in it yet")

            // The next one was made behind that answer, and stored: the next request shows it.
            var after = meanwhile
            for _ in 0..<300 where after.nodes.count < 5 {
                try await Task.sleep(for: .milliseconds(100))
                after = try await ada.client.eventNetwork("net-event")
            }
            #expect(after.nodes.count == 5 && after.edges.count == 5)
            #expect(await pictures.made == 2, "made once, behind the answer")
            #expect(try await Self.storedPictures(naming: eve.profile.id, in: server).naming == 1)
        }
    }

    /// A grown picture of a graph that then stays as it is is settled once it has been quiet for
    /// `settleAfter` (checked against a fresh layout, redrawn if it falls short: the Graph tests
    /// show which): its history starts again, and it is settled once, not at every request after.
    /// A picture laid out afresh is not settled. (The quiet is set to nothing or to an hour, and
    /// with no picture interval each request waits for the picture it starts rather than queue it
    /// behind the whole suite's background work: no step depends on how fast a loaded machine is.)
    @Test func aGrownPictureOfAQuietGraphIsSettledOnce() async throws {
        try await TestServer.run(configure: { $0.pictureInterval = .zero }) { server throws in
            let (ada, _, cleo, _, eve, created) = try await Users.smallEvent(server)
            let pictures = server.services.graphWork.storedPictures
            let store = EventPictureRepository(database: server.services.database)
            let history = { () async throws -> [Int] in
                let stored = try #require(try await store.picture(of: created.event.id))
                return [stored.grownInARow, stored.pairsWhenDrawnAfresh]
            }
            await pictures.setSettleAfter(.zero)
            _ = try await ada.client.eventNetwork("net-event")
            _ = try await ada.client.eventNetwork("net-event")
            #expect(await pictures.made == 1, "a picture laid out afresh is not settled")

            await pictures.setSettleAfter(.seconds(3_600))
            try await Users.connect(eve, cleo, at: "net-event")
            let grown = try await ada.client.eventNetwork("net-event")
            #expect(grown.nodes.count == 5 && grown.meta.warmStart && !grown.meta.behind)
            #expect(await pictures.made == 2)
            #expect(try await history() == [1, 4])
            let soon = try await ada.client.eventNetwork("net-event")
            #expect(Self.places(soon) == Self.places(grown), "not yet quiet for long: the grown picture")
            #expect(await pictures.made == 2)

            await pictures.setSettleAfter(.zero)
            let settled = try await ada.client.eventNetwork("net-event")
            #expect(await pictures.made == 3, "settled once the graph was quiet")
            #expect(try await history() == [0, 5], "as good as a fresh layout of the five pairs")
            #expect(settled.nodes.count == 5 && !settled.meta.behind)
            _ = try await ada.client.eventNetwork("net-event")
            #expect(await pictures.made == 3, "and settled once")
        }
    }

    /// A picture shown while it is younger than the interval draws the pairs made since on the
    /// people it placed, and says it is `behind`: a page asks again rather than keep people where
    /// an earlier graph put them (a wall kept the middle of a burst of scans until the next one).
    @Test func aPictureThatDrawsPairsMadeSinceSaysItIsBehind() async throws {
        try await TestServer.run(configure: { $0.pictureInterval = .seconds(60) }) { server throws in
            let (ada, _, _, dan, _, _) = try await Users.smallEvent(server)
            let before = try await ada.client.eventNetwork("net-event")
            #expect(!before.meta.behind, "made of the graph as it is")

            try await Users.connect(ada, dan, at: "net-event")
            // Renamed: what is shared of the event is made again; the stored picture, a second old, stays.
            let (_, tag) = try await ada.client.taggedEvent("net-event")
            _ = try await ada.client.changeEvent("net-event", EventChangeRequest(name: "Net Night"), ifMatch: try #require(tag))
            let shown = try await ada.client.eventNetwork("net-event")
            #expect(shown.edges.count == 5 && Self.places(shown) == Self.places(before), "the new pair, on the last picture")
            #expect(shown.meta.behind, "which was made before it")
            #expect(await server.services.graphWork.storedPictures.made == 1)
        }
    }

    /// Values a restored archive could hold that the schema lets through: each is laid out again.
    @Test(arguments: [
        "people = array[people[1]] || people[1:cardinality(people) - 1]",  // someone twice
        #"places = overlay(places placing '\x000000000000f87f'::bytea from 1 for 8)"#,  // NaN
        #"places = overlay(places placing '\xffffff7f'::bytea from 17 for 4)"#,  // a community past the people
        #"places = overlay(places placing '\x00000000'::bytea from 21 for 4)"#,  // an empty component
        // Two people as far apart as a Double allows: finite, but no picture's.
        #"places = overlay(overlay(places placing '\x763b7730d142ee7f'::bytea from 1 for 8) placing '\x763b7730d142eeff'::bytea from 25 for 8)"#,
    ])
    func aStoredPictureThatDoesNotHoldTogetherIsMadeAgain(_ change: String) async throws {
        try await TestServer.run { server throws in
            let (ada, _, _, _, _, _) = try await Users.smallEvent(server)
            let before = try await ada.client.eventNetwork("net-event")
            try await Self.execute("UPDATE event_pictures SET \(unsafeSQL: change)", on: server)
            // A new server (nothing kept in memory) reads it.
            try await TestServer.run(keys: nil, sharing: server) { other throws in
                let network = try await other.client.authenticated(ada.client.apiKey!).eventNetwork("net-event")
                #expect(network.nodes.count == 4 && network.edges.count == 4 && network.nodes.allSatisfy { $0.x.isFinite && $0.y.isFinite })
                #expect(network.nodes.count == before.nodes.count)
                #expect(await other.services.graphWork.storedPictures.made == 1, "laid out again, and stored")
            }
        }
    }

    /// Times and places a restored archive could hold, and the most pictures in a row the row
    /// keeps (which a long event's wall reaches): the picture after them is made, grown or
    /// afresh, and stored, never held back for good nor a crash.
    @Test(arguments: [
        "grown_in_a_row = 1000, pairs_when_drawn_afresh = 1000",
        // The schema keeps times within the years 1 to 9999 (migration 0027): infinity is refused there.
        "made_at = '0001-01-01 00:00:00+00'", "made_at = '9999-12-31 00:00:00+00'", "made_at = now() + interval '10 years'",
        "lease_until = now() + interval '10 years'", "lease_until = '9999-12-31 00:00:00+00'",
        #"places = overlay(overlay(places placing '\x763b7730d142ee7f'::bytea from 1 for 8) placing '\x763b7730d142eeff'::bytea from 25 for 8)"#,
    ])
    func aRestoredPictureNeverHoldsBackTheNext(_ change: String) async throws {
        try await TestServer.run { server throws in
            let (ada, _, cleo, _, eve, created) = try await Users.smallEvent(server)
            _ = try await ada.client.eventNetwork("net-event")
            try await Self.execute("UPDATE event_pictures SET \(unsafeSQL: change)", on: server)
            try await Users.connect(eve, cleo, at: "net-event")
            try await TestServer.run(keys: nil, sharing: server) { other throws in
                let network = try await other.client.authenticated(ada.client.apiKey!).eventNetwork("net-event")
                #expect(network.nodes.count == 5 && network.edges.count == 5)
                #expect(
                    network.nodes.allSatisfy { abs($0.x) <= 10 && abs($0.y) <= 10 },
                    "a picture's places: \(network.nodes.map { [$0.x, $0.y] })")
                #expect(await other.services.graphWork.storedPictures.made == 1, "the next picture made")
                let stored = try #require(
                    try await EventPictureRepository(database: server.services.database).picture(of: created.event.id))
                #expect(stored.people.count == 5, "and stored")
            }
        }
    }

    /// Everyone at x = 999,999 but one, a hundred-millionth beside them (each in turn): a spread
    /// of almost nothing far from the centre, which a picture's grid once turned into cells past
    /// `Int`'s range, stopping the server. The picture grows where it is, as any picture does.
    @Test(arguments: 0..<4) func aPictureOfNoSpreadFarFromTheCentreGrows(_ person: Int) async throws {
        try await TestServer.run { server throws in
            let (ada, _, cleo, _, eve, _) = try await Users.smallEvent(server)
            _ = try await ada.client.eventNetwork("net-event")
            try await Self.execute(
                """
                UPDATE event_pictures SET places = overlay(
                    decode(repeat('000000007e842e41' || '0000000000000000' || '00000000' || '04000000', 4), 'hex')
                    placing '\\x560000007e842e41'::bytea from \(unsafeSQL: String(person * 24 + 1)) for 8)
                """, on: server)
            try await Users.connect(eve, cleo, at: "net-event")
            try await TestServer.run(keys: nil, sharing: server) { other throws in
                let network = try await other.client.authenticated(ada.client.apiKey!).eventNetwork("net-event")
                #expect(network.nodes.count == 5 && network.nodes.allSatisfy { $0.x.isFinite && $0.y.isFinite })
                #expect(await other.services.graphWork.storedPictures.made == 1, "the next picture made")
            }
        }
    }

    @Test func whoeverLeavesOrIsErasedIsInNoStoredPicture() async throws {
        try await TestServer.run { server throws in
            let (ada, bob, cleo, dan, eve, event) = try await Users.smallEvent(server)
            _ = try await ada.client.eventNetwork("net-event")
            #expect(try await Self.storedPictures(naming: dan.profile.id, in: server) == (1, 1))

            // Eve, in no pair and so in no picture, leaves: the picture stays (joining and leaving
            // over and over once kept any picture of the event from being stored).
            try await eve.client.leave("net-event")
            #expect(try await Self.storedPictures(naming: dan.profile.id, in: server) == (1, 1))

            // Dan leaves: the picture that placed him goes; the next is made without him. His one
            // pair there removed first, he is in no pair when he leaves, yet the picture places him.
            let placed = try #require(try await EventPictureRepository(database: server.services.database).picture(of: event.event.id))
            try await dan.client.disconnect(from: cleo.profile.id)
            #expect(try await Self.storedPictures(naming: dan.profile.id, in: server) == (1, 1))
            try await dan.client.leave("net-event")
            #expect(try await Self.storedPictures(naming: dan.profile.id, in: server) == (0, 0))
            // A maker that read the graph from a replica still behind his leave, under a lease taken
            // after it, saves nothing: the picture would place him.
            let store = EventPictureRepository(database: server.services.database)
            let lease = try #require(try await store.takeLease(of: event.event.id, maker: "behind", for: .seconds(30)))
            let stale = EventPictureRepository.Picture(
                generation: lease, fingerprint: placed.fingerprint, people: placed.people, places: placed.places, grownInARow: 1,
                pairsWhenDrawnAfresh: 5, warmStarted: true)
            #expect(try await !store.save(stale, of: event.event.id))
            #expect(try await Self.storedPictures(naming: dan.profile.id, in: server) == (0, 0))
            try await store.release(event.event.id, generation: lease)
            let without = try await ada.client.eventNetwork("net-event")
            #expect(without.nodes.count == 3)
            #expect(try await Self.storedPictures(naming: dan.profile.id, in: server) == (0, 1))

            // Bob deletes his profile: no stored picture names him.
            #expect(try await Self.storedPictures(naming: bob.profile.id, in: server).naming == 1)
            try await bob.client.deleteMe()
            #expect(try await Self.storedPictures(naming: bob.profile.id, in: server) == (0, 0))
            let network = try await ada.client.eventNetwork("net-event")
            #expect(network.nodes.count == 2 && network.edges.count == 1, "Ada and Cleo")
        }
    }
}
