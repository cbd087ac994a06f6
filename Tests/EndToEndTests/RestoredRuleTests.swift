import Backup
import Foundation
import Store
import TestSupport
import Testing

/// Rows that keep the schema of their release but break a rule the API keeps on what it stores:
/// each archive is refused with 65, naming the table, the row's key and the rule, and nothing is
/// written (`RestoreRefusalTests.expectRefused`).
extension RestoreRefusalTests {
    static let ada = "11111111-1111-4111-8111-111111111111"
    static let event = "22222222-2222-4222-8222-222222222222"
    /// An attendee and a day-long event that keep every rule, as plain rows.
    static let honestRows = """
        INSERT INTO profiles (id, display_name) VALUES ('\(ada)', 'Ada');
        INSERT INTO events (id, slug, name, starts_at, ends_at, time_zone, join_code_rotation, purge_on)
        VALUES ('\(event)', 'spring-meetup', 'Spring meetup', now(), now() + interval '1 day', 'UTC', 0, now() + interval '40 days');
        """

    /// An archive of the release before the rules (migration 0021), whose rows the restore must
    /// check by this release's rules: each broken rule is said by the migration that adds it.
    @Test func rowsAnOlderReleaseLetThroughAreRefusedNamingTheirRule() async throws {
        let keys = try await source().keys
        let older = try await TestDatabase.createEmpty()
        let database = Database(conninfo: older, maximumConnections: 1, logger: TestDatabase.logger)
        let migrator = Migrator(directory: TestDatabase.migrations, logger: TestDatabase.logger)
        try await migrator.migrate(database, through: "0021_event_purge")
        try await database.withConnection { try $0.execute(unsafeSQL: Self.honestRows) }
        await database.shutdown()
        let migrations = try migrator.migrations().map(\.version).prefix { $0 <= "0021_event_purge" }
        let source = (conninfo: older, keys: keys, migrations: Array(migrations))
        // Its honest rows restore, and the restore brings them to this release's schema.
        let honest = try await craft("older-honest", sql: "SELECT 1", from: source)
        let target = try await TestDatabase.createEmpty(ownedBy: BackupTests.role)
        let restore = try Binaries.server(
            ["restore", "--data-dir", workspace.root.appendingPathComponent("target-older").path, honest.path], databaseURL: target,
            scratch: workspace.root)
        #expect(restore.status == 0, "\(restore.stderr)")
        let restored = Database(conninfo: target, maximumConnections: 1, logger: TestDatabase.logger)
        #expect(try await Migrator.applied(restored) == (try migrator.migrations().map(\.version)))
        await restored.shutdown()

        let link = "33333333-3333-4333-8333-333333333333"
        let cases: [(name: String, sql: String, says: String)] = [
            (
                "an event of 164 years", "UPDATE events SET ends_at = '2190-01-01', purge_on = '2190-03-02'",
                "events (an event lasts at most 31 days): \(Self.event)"
            ),
            ("a purge in 9999", "UPDATE events SET purge_on = '9999-12-31'", "its purge date is at most 3657 days"),
            (
                "an invitation for ever",
                """
                INSERT INTO organizer_invitation_links (id, event_id, invited_by, code_hash, expires_at)
                VALUES ('\(link)', '\(Self.event)', '\(Self.ada)', decode(repeat('ab', 32), 'hex'), '9999-01-01')
                """, "an invitation expires at most 720 hours after it was made (and an hour of clocks apart)): \(link)"
            ),
            (
                "a view link until 9999",
                """
                INSERT INTO view_links (id, event_id, created_by, shows_names, expires_at, longest_until)
                VALUES ('\(link)', '\(Self.event)', '\(Self.ada)', false, '9999-01-01', '9999-01-01')
                """, "a view link lasts at most until a week into 2200"
            ),
            (
                "a growth step near 2^63",
                """
                INSERT INTO event_records (event_id, people, connections, attendees, connected_share, communities, modularity,
                                           largest_component, growth)
                VALUES ('\(Self.event)', 2, 1, 2, 1, 1, 0, 2, '[[9223372036854775807,1,1,1,1,1]]')
                """, "its growth is six integers"
            ),
            // Counters whose next step would overflow: the event could never be purged nor left (migration 0027).
            (
                "a pairs revision at the bigint maximum", "UPDATE events SET pairs_revision = 9223372036854775807",
                "events (its pairs revision is from 0 to 2^62): \(Self.event)"
            ),
            (
                "a sequence at its maximum", "SELECT setval(pg_get_serial_sequence('connections', 'id'), 9223372036854775000)",
                "stands at 9223372036854775000, beyond 2^62"
            ),
        ]
        for crafted in cases {
            let archive = try await craft(crafted.name.replacingOccurrences(of: " ", with: "-"), sql: crafted.sql, from: source)
            try await expectRefused(crafted.name, archive, says: crafted.says)
        }
    }

    /// Rules the schema cannot hold (a time zone Foundation knows; an event or an invitation link
    /// made no later than tomorrow; a start at most the horizon ahead, a setting) are checked by the API's own code before the
    /// restore commits: the event dated 2190 made today, as an archive could bring it, is refused.
    @Test func rowsOfThisReleaseThatBreakARuleOnlySwiftKnowsAreRefused() async throws {
        let source = try await source()
        let other = "44444444-4444-4444-8444-444444444444"
        let farAhead = "55555555-5555-4555-8555-555555555555"
        let sql =
            Self.honestRows.replacingOccurrences(of: "'UTC'", with: "'Not/AZone'")
                + """
                INSERT INTO events (id, slug, name, starts_at, ends_at, time_zone, join_code_rotation, purge_on, created_at)
                VALUES ('\(other)', 'far-ahead', 'Far ahead', '2190-01-01', '2190-01-02', 'UTC', 0, '2190-02-01', '2189-12-01');
                INSERT INTO events (id, slug, name, starts_at, ends_at, time_zone, join_code_rotation, purge_on)
                VALUES ('\(farAhead)', 'made-today', 'Made today', '2190-01-01', '2190-01-31', 'UTC', 0, '2190-03-02');
                INSERT INTO organizer_invitation_links (id, event_id, invited_by, code_hash, created_at, expires_at)
                VALUES ('\(farAhead)', '\(Self.event)', '\(Self.ada)', decode(repeat('cd', 32), 'hex'), '9990-01-01', '9990-01-02');
                """
        let archive = try await craft("swift-rules", sql: sql, from: source)
        try await expectRefused(
            "a zone and a creation", archive,
            says: "events \(Self.event) (an IANA time zone this server knows); events \(other) (created at most a day after now); "
                + "organizer_invitation_links \(farAhead) (made at most a day after now); "
                + "events \(other), \(farAhead) (starts at most 730 days after now)")
    }

    /// A key file that holds no secret (all zeros) is refused like a malformed one.
    @Test func anAllZeroPseudonymKeyIsRefused() async throws {
        let source = try await source()
        let dump = workspace.root.appendingPathComponent("zero-key.dump")
        try DatabaseDump.write(conninfo: source.conninfo, to: dump)
        let zero = workspace.root.appendingPathComponent("zero-pseudonym-key")
        try Data(("cst.pseudonym.v1." + String(repeating: "A", count: 43) + "\n").utf8).write(to: zero)
        chmod(zero.path, 0o600)
        let files = [
            (BackupArchive.databaseName, dump),
            (BackupArchive.keysFolder + "signing-key", source.keys.appendingPathComponent("signing-key")),
            (BackupArchive.keysFolder + "pseudonym-key", zero),
        ]
        let archive = try archive("zero-key", files: files, migrations: source.migrations)
        try await expectRefused("an all-zero pseudonym key", archive, says: "all zeros")
    }
}
