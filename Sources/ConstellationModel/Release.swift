/// This release of Constellation: what `--version` prints, and what the server says in the
/// `Constellation-Version` header of every answer. The Debian package's version is this one
/// (`Tools/deploy/debian/changelog`, checked by a test).
public enum Release {
    public static let version = "0.1.0"
    /// The response header that carries the server's release.
    public static let header = "Constellation-Version"

    /// What a client of this release should say of a server of release `server`, or nil when the
    /// two speak the same API: the same major and minor versions (a patch changes no behaviour a
    /// client relies on).
    public static func mismatch(withServer server: String) -> String? {
        func majorMinor(_ version: String) -> [Int]? {
            let parts = version.split(separator: ".").prefix(2).map { Int($0) }
            guard parts.count == 2, let major = parts[0], let minor = parts[1] else { return nil }
            return [major, minor]
        }
        guard let theirs = majorMinor(server), let ours = majorMinor(version) else {
            return "the server does not say which Constellation it runs ('\(server)'); some commands may not work"
        }
        if theirs == ours { return nil }
        return theirs.lexicographicallyPrecedes(ours)
            ? "the server runs Constellation \(server), older than this client (\(version)): some commands may not work"
            : "the server runs Constellation \(server), newer than this client (\(version)): update the client"
    }
}
