import Foundation
import Synchronization

/// How far an import is, on stderr: one line rewritten in place on a terminal, else a line at
/// each quarter, so a log gets a few lines whatever the size.
final class ImportProgress: Sendable {
    private let interactive = isatty(STDERR_FILENO) == 1
    private let quartersShown = Mutex(0)

    func report(written: Int, total: Int) {
        let line = "imported \(written.grouped)/\(total.grouped) connections"
        guard !interactive else { return Self.write("\r" + line) }
        let quarter = written * 4 / max(total, 1)
        let due = quartersShown.withLock { shown in
            defer { shown = max(shown, quarter) }
            return quarter > shown
        }
        if due { Self.write(line + "\n") }
    }

    /// The closing line, in place of the progress line on a terminal.
    func finish(_ line: String) {
        Self.write((interactive ? "\r\u{1B}[K" : "") + line + "\n")
    }

    private static func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}

extension Int {
    /// With thousands separators: `17,327`.
    var grouped: String { formatted(.number.locale(Locale(identifier: "en_US"))) }
}
