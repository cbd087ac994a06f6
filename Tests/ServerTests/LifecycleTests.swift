import Dispatch
import Foundation
import Logging
import Server
import Store
import Synchronization
import TestSupport
import Testing

/// The services the application stands on, on a real server and PostgreSQL: what a shutdown ends
/// and in which order, and the background work's rounds and their lock.
@Suite(.tier(.database)) struct LifecycleTests {
    /// A graceful shutdown ends the streams still open (the server would otherwise wait for them
    /// for an hour), and the pool closes after the HTTP server and the feeds: a query then fails
    /// with `shutdown`, not with a hang. The time limit catches a shutdown that waits for the streams
    /// (an hour); under the whole suite on two cores the test once took more than two minutes.
    @Test(.timeLimit(.minutes(5))) func aShutdownEndsOpenStreamsThenClosesThePool() async throws {
        let opened = Mutex<[Task<[String], any Error>]>([])
        let services = Mutex<AppServices?>(nil)
        try await TestServer.run { server throws in
            services.withLock { $0 = server.services }
            let ada = try await server.user("Ada")
            _ = try await ada.client.createEvent(EventRoutesTests.newEvent("lifecycle"))
            let key = try #require(ada.client.apiKey)
            for path in ["/v1/me/stream", "/v1/events/lifecycle/stream"] {
                let stream = try await EventStreamTests.Stream(port: server.port, path: path, credential: key)
                #expect(try await stream.next().name == "hello")
                opened.withLock {
                    $0.append(
                        Task {
                            var names: [String] = []
                            while let message = try? await stream.next(within: 600) { names.append(message.name) }
                            return names
                        })
                }
            }
            #expect(server.services.personalFeeds.watcherCount == 1)
        }
        for stream in opened.withLock({ $0 }) {
            _ = try await stream.value
        }
        let stopped = try #require(services.withLock { $0 })
        #expect(stopped.personalFeeds.watcherCount == 0)
        await #expect {
            _ = try await stopped.database.withConnection { try $0.query("SELECT 1") }
        } throws: { error in
            (error as? PostgresError)?.kind == .shutdown
        }
    }

    /// A round of forgetting spent codes removes the use counts of codes expired beyond the
    /// offline grace (and its hour to spare), and nothing else: a code scanned now keeps its count.
    @Test func spentCodesAreForgottenAndLiveOnesKept() async throws {
        try await TestServer.run { server throws in
            let (ada, bob) = try await server.users("Ada", "Bob")
            _ = try await bob.client.scan(ada.client)
            try await server.services.database.withConnection { connection in
                _ = try connection.query(
                    """
                    INSERT INTO token_uses (token_id, owner_id, uses, expires_at) VALUES
                        ('spent', \(ada.profile.id), 1, now() - interval '3 hours 1 minute'),
                        ('in-grace', \(ada.profile.id), 1, now() - interval '2 hours 59 minutes')
                    """)
            }
            let work = BackgroundWork(database: server.services.database, chores: [], logger: Logger(label: "test"))
            let forgotten = try await work.round(of: .forgetSpentCodes(offlineGrace: .seconds(7200)))
            #expect(forgotten == 1)
            let left = try await server.services.database.withConnection { connection in
                try connection.query("SELECT token_id FROM token_uses ORDER BY token_id").map { try $0.string("token_id") }
            }
            #expect(left.count == 2 && left.contains("in-grace") && !left.contains("spent"), "\(left)")
        }
    }

    /// Of two servers sharing a database, one does a chore's round at a time: while another
    /// session holds the chore's lock, a round does nothing and says so (nil); once it is let go,
    /// the round runs.
    @Test func aChoreTakesTurnsWithAnotherServer() async throws {
        try await TestServer.run { server throws in
            let rounds = Atomic<Int>(0)
            let chore = BackgroundWork.Chore(name: "counting", interval: .seconds(600), lock: 0x436F_6E73_7E57_0001, batch: 10) { _, _ in
                rounds.add(1, ordering: .relaxed)
                return 0
            }
            let work = BackgroundWork(database: server.services.database, chores: [chore], logger: Logger(label: "test"))
            let other = Database(conninfo: server.conninfo, maximumConnections: 1, logger: Logger(label: "test"))
            let held = DispatchSemaphore(value: 0)
            let release = DispatchSemaphore(value: 0)
            let holder = Task {
                try await other.withTransaction { connection in
                    _ = try connection.query("SELECT pg_advisory_xact_lock(\(Int64(0x436F_6E73_7E57_0001)))")
                    held.signal()
                    release.wait()
                }
            }
            await withCheckedContinuation { continuation in
                DispatchQueue.global().async {
                    held.wait()
                    continuation.resume()
                }
            }
            #expect(try await work.round(of: chore) == nil, "another server holds the lock")
            #expect(rounds.load(ordering: .relaxed) == 0)
            release.signal()
            try await holder.value
            #expect(try await work.round(of: chore) == 0)
            #expect(rounds.load(ordering: .relaxed) == 1)
            await other.shutdown()
        }
    }
}
