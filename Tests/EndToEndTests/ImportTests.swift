import Client
import ConstellationModel
import Foundation
import Store
import TestSupport
import Testing

/// `constellation-server import sociopatterns` with the real binaries: each shared SocioPatterns
/// file is imported, then the server's growth, summary and statistics are checked against figures
/// this test computes itself from the raw file, and against the data's README.
@Suite(.serialized, .tier(.endToEnd)) struct ImportTests {
    let workspace = Workspace()

    /// `../shared/data/graphs` beside the repository.
    static let graphs = TestDatabase.repositoryRoot.appendingPathComponent("../shared/data/graphs").standardizedFileURL

    /// A data file, its figures from the README, and a start that puts 5-minute bucket ends right
    /// on as many of its checkpoints as its contacts allow.
    struct DataSet: Sendable, CustomTestStringConvertible {
        let file, slug, start: String
        let rows, people, connections: Int
        let averageClustering, transitivity: Double
        /// People seen and unique pairs at 25, 50, 75 and 100 % of the time span.
        let checkpoints: [Checkpoint]
        /// How many checkpoints a bucket's end falls on with no first contact in between.
        let exactCheckpoints: Int
        var testDescription: String { file }
    }

    struct Checkpoint: Equatable, Sendable, CustomStringConvertible {
        let people, connections: Int
        init(_ people: Int, _ connections: Int) {
            self.people = people
            self.connections = connections
        }
        var description: String { "\(people) / \(connections)" }
    }

    /// The README's table. SFHH09's 50 % checkpoint falls 5 s before a first contact and its 25 %
    /// and 75 % ones 75 s apart modulo 5 minutes, so no start puts all three on a bucket's end.
    static let dataSets = [
        DataSet(
            file: "sociopatterns_sfhh09_tij.dat", slug: "sfhh-2009", start: "2009-06-04T08:00:00Z", rows: 70_261, people: 403,
            connections: 9_565, averageClustering: 0.2818, transitivity: 0.2359,
            checkpoints: [.init(394, 4_625), .init(402, 5_824), .init(402, 5_834), .init(403, 9_565)], exactCheckpoints: 3),
        DataSet(
            file: "sociopatterns_ht09_tij.dat", slug: "ht-2009", start: "2009-06-29T08:00:00Z", rows: 20_818, people: 113,
            connections: 2_196, averageClustering: 0.5348, transitivity: 0.4952,
            checkpoints: [.init(100, 946), .init(110, 1_412), .init(111, 1_696), .init(113, 2_196)], exactCheckpoints: 4),
        DataSet(
            file: "sociopatterns_ws16_tij.dat", slug: "ws-2016", start: "2016-11-30T08:01:40Z", rows: 153_371, people: 138,
            connections: 7_497, averageClustering: 0.8680, transitivity: 0.8679,
            checkpoints: [.init(130, 6_397), .init(131, 6_681), .init(134, 6_727), .init(138, 7_497)], exactCheckpoints: 4),
        DataSet(
            file: "sociopatterns_iccss17_tij.dat", slug: "iccss-2017", start: "2017-07-11T08:02:20Z", rows: 199_309, people: 262,
            connections: 17_327, averageClustering: 0.6868, transitivity: 0.6629,
            checkpoints: [.init(244, 11_125), .init(256, 12_593), .init(259, 16_192), .init(262, 17_327)], exactCheckpoints: 4),
    ]

    static let bucket = 300

    /// Whether the shared SocioPatterns files are beside the repository (on the team's machines;
    /// a CI machine has only the repository, and then this test is skipped and says so).
    static let sharedDataPresent = FileManager.default.fileExists(atPath: graphs.appendingPathComponent("sociopatterns_ht09_tij.dat").path)

    @Test(.enabled(if: sharedDataPresent, "the SocioPatterns files in ../shared/data/graphs are not on this machine"), arguments: dataSets)
    func importedEventsGrowAsTheirFilesSay(_ data: DataSet) async throws {
        let contacts = try Contacts(text: try Self.text(of: data.file))
        let start = try Date.ISO8601FormatStyle().parse(data.start)
        #expect(contacts.rows == data.rows)
        #expect(contacts.checkpoints() == data.checkpoints, "the README's growth table, from this test's own reading of the file")

        let databaseURL = try await TestDatabase.createEmpty()
        let imported = try Binaries.server(
            [
                "import", "sociopatterns", Self.graphs.appendingPathComponent(data.file).path,
                "--event", data.slug, "--start", data.start, "--json",
            ],
            databaseURL: databaseURL, scratch: try workspace.home(data.slug))
        try #require(imported.status == 0, "\(imported.stderr)")
        let key = try JSONDecoder.constellation.decode(Imported.self, from: Data(imported.stdout.utf8)).organizerKey
        print("\(data.file): \(imported.stderr.split(separator: "\n").last ?? "")")

        let server = try ServerProcess(databaseURL: databaseURL, dataDirectory: workspace.serverData)
        defer { _ = server.stop() }
        let client = ConstellationClient(baseURL: server.url, apiKey: key, timeout: .seconds(300))
        let event = try await client.event(data.slug)
        #expect(event.startsAt == start && event.timeZone == "UTC")
        #expect(event.endsAt == start.addingTimeInterval(Double(contacts.span + 1)))

        // Every bucket, as computed here.
        let startSeconds = Int(start.timeIntervalSince1970)
        let growth = try await client.eventGrowth(data.slug, bucket: "5m").buckets
        let expected = contacts.growth(start: startSeconds, bucket: Self.bucket)
        #expect(growth.count == expected.count)
        let mismatch = zip(growth, expected).first { $0.0 != $0.1 }
        #expect(mismatch == nil, "first bucket that differs (server, expected): \(String(describing: mismatch))")

        // The README's checkpoints from the server's cumulative figures, where a bucket ends right there.
        var exact = 0
        for (quarter, checkpoint) in data.checkpoints.enumerated() {
            let moment = Double(startSeconds) + Double(contacts.span * (quarter + 1)) / 4
            let bucketEnd = (Int(moment) / Self.bucket + 1) * Self.bucket
            guard contacts.counts(before: bucketEnd - startSeconds) == contacts.counts(atOrBefore: moment - Double(startSeconds)) else {
                continue
            }
            exact += 1
            // The bucket ending there, or the last one if no pair came after.
            let server = growth.last { $0.start < Date(timeIntervalSince1970: Double(bucketEnd)) }
            #expect(server.map { Checkpoint($0.cumulativePeople, $0.cumulativeConnections) } == checkpoint, "\(25 * (quarter + 1)) %")
        }
        #expect(exact == data.exactCheckpoints)

        let figures = contacts.statistics()
        let summary = try await client.eventSummary(data.slug)
        #expect(summary.people == data.people && summary.connections == data.connections)
        #expect(summary.largestComponent == figures.largestComponent && summary.attendees == data.people + 1)

        let stats = try #require(
            try JSONSerialization.jsonObject(with: Data(try await client.eventNetworkStats(data.slug))) as? [String: Any])
        #expect(stats["nodes"] as? Int == data.people && stats["edges"] as? Int == data.connections)
        #expect(stats["triangles"] as? Int == figures.triangles)
        #expect((stats["components"] as? [String: Any])?["largest"] as? Int == figures.largestComponent)
        let transitivity = try #require(stats["transitivity"] as? Double)
        let clustering = try #require(stats["averageClustering"] as? Double)
        #expect(abs(transitivity - figures.transitivity) < 1e-9 && abs(clustering - figures.averageClustering) < 1e-9)
        #expect(abs(transitivity - data.transitivity) <= 1e-4, "networkx: \(data.transitivity), server: \(transitivity)")
        #expect(abs(clustering - data.averageClustering) <= 1e-4, "networkx: \(data.averageClustering), server: \(clustering)")
    }

    @Test func aBadLineIsReportedByItsNumberAndNothingIsImported() async throws {
        let (database, databaseURL) = try await TestDatabase.createMigrated(maximumConnections: 1)
        let scratch = try workspace.home("bad")
        // A contact file of 1,000 rows among 50 people, made here so the test needs nothing from outside.
        var lines = (0..<1_000).map { row in "\(1_000 + 20 * row) \(row % 50) \((row * 7 + 1) % 50)" }[...]
        let original = scratch.appendingPathComponent("good_tij.dat")
        try lines.joined(separator: "\n").write(to: original, atomically: true, encoding: .utf8)
        // Something in the database already, so "unchanged" is not "empty".
        let first = try Binaries.server(
            ["import", "sociopatterns", original.path, "--event", "ht09"], databaseURL: databaseURL, scratch: scratch)
        try #require(first.status == 0, "\(first.stderr)")
        let before = try await Self.counts(database)

        lines[499] = "12 abc 7"
        let bad = scratch.appendingPathComponent("bad_tij.dat")
        try lines.joined(separator: "\n").write(to: bad, atomically: true, encoding: .utf8)
        let refused = try Binaries.server(
            ["import", "sociopatterns", bad.path, "--event", "ht09-bad"], databaseURL: databaseURL, scratch: scratch)
        #expect(refused.status == 65)
        #expect(
            refused.stderr.hasPrefix("constellation-server: \(bad.path): line 500: ") && refused.stderr.contains("'12 abc 7'"),
            "\(refused.stderr)")
        #expect(refused.stderr.split(separator: "\n").count == 1, "one line: \(refused.stderr)")

        // Times a fuzzer would pick: their difference overflows an Int, or they are no dates at all.
        let extreme = scratch.appendingPathComponent("extreme_tij.dat")
        try "\(Int.min) 1 2\n\(Int.max) 1 3\n".write(to: extreme, atomically: true, encoding: .utf8)
        for start in [["--start", "2024-05-01T09:00:00Z"], []] {
            let out = try Binaries.server(
                ["import", "sociopatterns", extreme.path, "--event", "extreme"] + start, databaseURL: databaseURL, scratch: scratch)
            #expect(out.status == 65 && out.stderr.contains("are not dates between 1970 and 9999"), "\(out.status): \(out.stderr)")
        }

        let missing = try Binaries.server(
            ["import", "sociopatterns", scratch.appendingPathComponent("none_tij.dat").path, "--event", "none"],
            databaseURL: databaseURL, scratch: scratch)
        #expect(missing.status == 66 && missing.stderr.contains("no such file"), "\(missing.stderr)")
        #expect(missing.stderr.split(separator: "\n").count == 1, "one line: \(missing.stderr)")
        #expect(try await Self.counts(database) == before)
        await database.shutdown()
    }

    @Test func theJSONKeyWorksAndATakenSlugIsRefused() async throws {
        let (database, databaseURL) = try await TestDatabase.createMigrated(maximumConnections: 1)
        let scratch = try workspace.home("json")
        // UNIX times (no --start); a self-contact connects no one, but its person is an attendee.
        let file = scratch.appendingPathComponent("tiny_tij.dat")
        try "1700000040 1 2\n1700000020\t2\t3\n1700000060 1 2\n1700000060 4 4\n1700000080 3 2\n".write(
            to: file, atomically: true, encoding: .utf8)
        let imported = try Binaries.server(
            ["import", "sociopatterns", file.path, "--event", "tiny", "--name", "Tiny", "--json"],
            databaseURL: databaseURL, scratch: scratch)
        try #require(imported.status == 0, "\(imported.stderr)")
        let output = try JSONDecoder.constellation.decode(Imported.self, from: Data(imported.stdout.utf8))
        let progress = imported.stderr.split(separator: "\n")
        #expect(progress.first == "imported 2/2 connections" && progress.count == 2, "\(imported.stderr)")
        #expect(progress.last?.hasPrefix("imported 2 connections among 4 people in ") == true, "\(imported.stderr)")

        let server = try ServerProcess(databaseURL: databaseURL, dataDirectory: workspace.serverData)
        let organizer = server.client.authenticated(output.organizerKey)
        #expect(try await organizer.me().displayName == "Organizer")
        let event = try await organizer.event("tiny")
        #expect(event.id == output.eventId && event.name == "Tiny")
        #expect(event.startsAt == Date(timeIntervalSince1970: 1_700_000_020) && event.endsAt == Date(timeIntervalSince1970: 1_700_000_081))
        // Dated from the data, years ago, yet purged only 30 days (and the offline grace) after its import.
        let kept = event.purgeOn.timeIntervalSinceNow - (30 * 86_400 + 7_200)
        #expect(abs(kept) < 600 && event.purgedAt == nil, "purged on \(event.purgeOn)")
        let summary = try await organizer.eventSummary("tiny")
        #expect(summary.people == 3 && summary.connections == 2 && summary.attendees == 5)
        let growth = try await organizer.eventGrowth("tiny", bucket: "5m").buckets
        #expect(growth.map(\.cumulativeConnections) == [2])
        _ = server.stop()

        let before = try await Self.counts(database)
        let taken = try Binaries.server(
            ["import", "sociopatterns", file.path, "--event", "tiny"], databaseURL: databaseURL, scratch: scratch)
        #expect(taken.status == 73 && taken.stderr.contains("tiny") && taken.stderr.contains("exists already"), "\(taken.stderr)")
        #expect(taken.stderr.split(separator: "\n").count == 1, "one line: \(taken.stderr)")
        #expect(try await Self.counts(database) == before)

        let past = try Binaries.server(
            ["import", "sociopatterns", file.path, "--event", "tiny-past", "--purge-on", "2024-01-01T00:00:00Z"],
            databaseURL: databaseURL, scratch: scratch)
        #expect(past.status == 64 && past.stderr.contains("--purge-on must be between now"), "\(past.stderr)")
        #expect(try await Self.counts(database) == before)
        let chosen = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + 10 * 86_400).rounded(.down))
        let text = try Binaries.server(
            ["import", "sociopatterns", file.path, "--event", "tiny-text", "--purge-on", chosen.formatted(Date.ISO8601FormatStyle())],
            databaseURL: databaseURL, scratch: scratch)
        let purgeOn = try await database.withConnection {
            try $0.query("SELECT purge_on FROM events WHERE slug = 'tiny-text'").first?.date("purge_on")
        }
        #expect(purgeOn == chosen, "--purge-on chose \(chosen), the event has \(String(describing: purgeOn))")
        #expect(
            text.status == 0 && text.stdout.hasPrefix("Imported tiny-text (tiny-text) as event ") && text.stdout.contains(" cst_"),
            "\(text.stdout)")
        await database.shutdown()
    }

    struct Imported: Decodable {
        let eventId: UUID
        let organizerKey: String
    }

    /// A shared data file's text; fails (not skips) when the shared folder is missing.
    static func text(of file: String) throws -> String {
        let url = graphs.appendingPathComponent(file)
        try #require(
            FileManager.default.fileExists(atPath: url.path),
            "\(url.path) is missing: the SocioPatterns files are expected in ../shared/data/graphs beside the repository")
        return try String(contentsOf: url, encoding: .utf8)
    }

    /// Rows in every table an import writes to.
    static func counts(_ database: Database) async throws -> [Int64] {
        try await database.withConnection { connection in
            try ["events", "profiles", "api_keys", "event_members", "connections", "event_connections"].map { table throws(PostgresError) in
                try connection.query("SELECT count(*) AS n FROM \(unsafeSQL: table)")[0].int("n")
            }
        }
    }
}

/// A contact file read here, independently of the server: who met whom, first when.
private struct Contacts {
    struct Pair: Hashable {
        let a, b: String
        init(_ i: Substring, _ j: Substring) {
            (a, b) = i < j ? (String(i), String(j)) : (String(j), String(i))
        }
    }

    private(set) var rows = 0
    /// The first row's time; the last row's time minus it.
    private(set) var firstRow = 0
    private(set) var span = 0
    /// Each pair's first contact, in seconds after the first row, in order of that time.
    private(set) var pairs: [(pair: Pair, at: Int)] = []
    /// Each person's first contact, in seconds after the first row.
    private(set) var people: [String: Int] = [:]

    init(text: String) throws {
        var first: [Pair: Int] = [:]
        var times: [Int] = []
        for line in text.split(whereSeparator: \.isNewline) {
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            let time = try #require(fields.count == 3 ? Int(fields[0]) : nil, "a 't i j' line: \(line)")
            if rows == 0 { firstRow = time }
            rows += 1
            times.append(time - firstRow)
            let pair = Pair(fields[1], fields[2])
            first[pair] = min(first[pair] ?? .max, time - firstRow)
        }
        span = times.max() ?? 0
        pairs = first.map { ($0.key, $0.value) }.sorted { $0.at < $1.at }
        for (pair, at) in pairs {
            people[pair.a] = min(people[pair.a] ?? .max, at)
            people[pair.b] = min(people[pair.b] ?? .max, at)
        }
    }

    /// People and pairs seen at `time` or before, seconds after the first row.
    func counts(atOrBefore time: Double) -> ImportTests.Checkpoint {
        .init(people.values.count { Double($0) <= time }, pairs.count { Double($0.at) <= time })
    }

    /// People and pairs seen before `time`, seconds after the first row.
    func counts(before time: Int) -> ImportTests.Checkpoint {
        .init(people.values.count { $0 < time }, pairs.count { $0.at < time })
    }

    /// At 25, 50, 75 and 100 % of the span.
    func checkpoints() -> [ImportTests.Checkpoint] {
        (1...4).map { counts(atOrBefore: Double(span * $0) / 4) }
    }

    /// Buckets of `bucket` seconds since the epoch, the first row at `start` (seconds since the epoch).
    func growth(start: Int, bucket: Int) -> [GrowthBucket] {
        guard let firstPair = pairs.first, let lastPair = pairs.last else { return [] }
        var components = Components()
        var seen = Set<String>()
        var next = 0
        return ((start + firstPair.at) / bucket...(start + lastPair.at) / bucket).map { k in
            let peopleBefore = seen.count
            let pairsBefore = next
            while next < pairs.count, start + pairs[next].at < (k + 1) * bucket {
                let pair = pairs[next].pair
                seen.insert(pair.a)
                seen.insert(pair.b)
                components.join(pair.a, pair.b)
                next += 1
            }
            return GrowthBucket(
                start: Date(timeIntervalSince1970: Double(k * bucket)), newConnections: next - pairsBefore,
                newPeople: seen.count - peopleBefore, cumulativePeople: seen.count, cumulativeConnections: next,
                largestComponent: components.largest)
        }
    }

    /// Triangles, transitivity and average clustering (networkx's conventions), and the largest component.
    func statistics() -> (triangles: Int, transitivity: Double, averageClustering: Double, largestComponent: Int) {
        let names = people.keys.sorted()
        let index = Dictionary(uniqueKeysWithValues: names.enumerated().map { ($0.element, $0.offset) })
        let n = names.count
        var adjacent = [Bool](repeating: false, count: n * n)
        var neighbours = [[Int]](repeating: [], count: n)
        var components = Components()
        for (pair, _) in pairs {
            let a = index[pair.a]!
            let b = index[pair.b]!
            adjacent[a * n + b] = true
            adjacent[b * n + a] = true
            neighbours[a].append(b)
            neighbours[b].append(a)
            components.join(pair.a, pair.b)
        }
        var closed = 0
        var triples = 0
        var clustering = 0.0
        for v in 0..<n {
            let list = neighbours[v]
            let degree = list.count
            var links = 0
            for x in 0..<degree { for y in x + 1..<degree where adjacent[list[x] * n + list[y]] { links += 1 } }
            closed += links
            triples += degree * (degree - 1) / 2
            if degree >= 2 { clustering += Double(links) / Double(degree * (degree - 1) / 2) }
        }
        return (closed / 3, triples == 0 ? 0 : Double(closed) / Double(triples), clustering / Double(max(n, 1)), components.largest)
    }
}

/// Union–find over names, with the largest set's size kept.
private struct Components {
    private var parent: [String: String] = [:]
    private var size: [String: Int] = [:]
    private(set) var largest = 0

    mutating func join(_ a: String, _ b: String) {
        let (rootA, rootB) = (root(a), root(b))
        guard rootA != rootB else { return }
        let (big, small) = size[rootA]! >= size[rootB]! ? (rootA, rootB) : (rootB, rootA)
        parent[small] = big
        size[big]! += size[small]!
        largest = max(largest, size[big]!)
    }

    private mutating func root(_ name: String) -> String {
        if parent[name] == nil {
            parent[name] = name
            size[name] = 1
        }
        var node = name
        while let up = parent[node], up != node { node = up }
        var walk = name
        while walk != node, let up = parent[walk] {
            parent[walk] = node
            walk = up
        }
        return node
    }
}
