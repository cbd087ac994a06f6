import Foundation
import Store
import Testing

/// What a suite needs beyond the toolchain, for the suites that need more than the process
/// itself (the unit tests, in their own test targets, need nothing). A suite of a tier is
/// skipped, with a message naming what is missing, on a machine without it: a plain `swift test`
/// runs what it can. `Tools/test`, which installs and starts everything, sets
/// `CONSTELLATION_TEST_TIERS=all`, under which a tier that is missing fails its suites instead;
/// `Tools/test --tier NAME` sets `CONSTELLATION_TEST_TIERS=NAME` and runs that tier alone.
public enum Tier: String, CaseIterable, Sendable {
    /// A PostgreSQL server: `Tools/with-postgres`'s (`PGHOST`), or one the tests start from the
    /// installed binaries.
    case database
    /// The built `constellation` and `constellation-server`, run as processes, and PostgreSQL.
    case endToEnd = "end-to-end"
    /// A real headless Chromium: Debian's `chromium` and `chromium-driver`.
    case browser
    /// Several processes as a deployment runs them: nginx in front, a streaming replica, Patroni
    /// and etcd (`Tools/cluster-demo`, `Tools/ha-demo`).
    case cluster

    /// What this machine lacks for the tier, or nil.
    public var missing: String? {
        let lacking = requirements.filter { !$0.present() }.map(\.name)
        return lacking.isEmpty ? nil : lacking.joined(separator: ", ")
    }

    private var requirements: [(name: String, present: @Sendable () -> Bool)] {
        let database: (String, @Sendable () -> Bool) = (
            "PostgreSQL (PGHOST, or its binaries: apt install postgresql)",
            {
                let environment = ProcessInfo.processInfo.environment
                return environment["PGHOST"] != nil || environment["CONSTELLATION_TEST_ADMIN_URL"] != nil
                    || (try? EmbeddedPostgres.binaryDirectory(holding: "initdb")) != nil
            }
        )
        func program(_ path: String, from package: String) -> (String, @Sendable () -> Bool) {
            ("\(path) (apt install \(package))", { FileManager.default.isExecutableFile(atPath: path) })
        }
        switch self {
        case .database, .endToEnd:
            return [database]
        case .browser:
            return [database, program("/usr/bin/chromium", from: "chromium"), program("/usr/bin/chromedriver", from: "chromium-driver")]
        case .cluster:
            return [
                database, program("/usr/sbin/nginx", from: "nginx"), program("/usr/bin/patroni", from: "patroni"),
                program("/usr/bin/etcd", from: "etcd-server"),
            ]
        }
    }

    /// The tiers `CONSTELLATION_TEST_TIERS` selects (`all`, or names separated by commas; unset:
    /// every tier the machine has), and whether a missing one must fail rather than be skipped.
    static let selection: (tiers: Set<Tier>, required: Bool) = {
        guard let value = ProcessInfo.processInfo.environment["CONSTELLATION_TEST_TIERS"], !value.isEmpty else {
            return (Set(allCases), false)
        }
        if value == "all" { return (Set(allCases), true) }
        return (Set(value.split(separator: ",").compactMap { Tier(rawValue: String($0)) }), true)
    }()

    /// Whether this run skips the tier, and why.
    var skipped: String? {
        guard Self.selection.tiers.contains(self) else { return "not the tier selected (CONSTELLATION_TEST_TIERS)" }
        guard !Self.selection.required, let missing else { return nil }
        return "this machine lacks \(missing)"
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs the suite where its tier's needs are met, else skips it saying what is missing (see `Tier`).
    public static func tier(_ tier: Tier) -> Self {
        let skipped = tier.skipped
        return .enabled(if: skipped == nil, Comment(rawValue: "tier \(tier.rawValue) skipped: \(skipped ?? "")"))
    }
}
