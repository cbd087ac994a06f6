import ConstellationModel
import Foundation
import Synchronization

/// Says once per run, on stderr, when the server runs another Constellation than this CLI
/// (`Release.mismatch`): its answers carry their release in `Constellation-Version`.
enum VersionNotice {
    private static let said = Mutex(false)

    /// Hears the server's release; the first that does not match is said, and nothing after it.
    @Sendable static func hear(_ server: String) {
        guard let notice = Release.mismatch(withServer: server) else { return }
        let first = said.withLock { said in
            defer { said = true }
            return !said
        }
        guard first else { return }
        FileHandle.standardError.write(Data("constellation: note: \(notice)\n".utf8))
    }
}
