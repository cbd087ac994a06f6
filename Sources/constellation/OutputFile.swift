import ConstellationModel
import Foundation

/// Where a command's data goes: a file given with `--output` (created readable by its owner
/// only, since it holds personal data), or stdout.
enum OutputFile {
    static func write(_ bytes: [UInt8], to path: String?) throws(CommandFailure) {
        guard let path else {
            return Terminal.write(Data(bytes))
        }
        let url = URL(fileURLWithPath: path)
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(getpid()).tmp")
        guard FileManager.default.createFile(atPath: temporary.path, contents: Data(bytes), attributes: [.posixPermissions: 0o600]) else {
            throw .io("cannot write \(path)")
        }
        guard rename(temporary.path, url.path) == 0 else {
            try? FileManager.default.removeItem(at: temporary)
            throw .io("cannot write \(path)")
        }
    }
}
