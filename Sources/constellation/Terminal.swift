import ConstellationModel
import Foundation

/// Output: data on stdout, messages on stderr, JSON in the shape the server sends.
enum Terminal {
    static func print(_ text: String) {
        write(Data((text.hasSuffix("\n") ? text : text + "\n").utf8))
    }

    static func note(_ text: String) {
        try? FileHandle.standardError.write(contentsOf: Data((text + "\n").utf8))
    }

    /// Writes `data` to `handle` (stdout unless said): a write that fails (a full disk, a closed
    /// file) ends the command with EX_IOERR (74), saying so, rather than trapping.
    static func write(_ data: Data, to handle: FileHandle = .standardOutput) {
        do {
            try handle.write(contentsOf: data)
        } catch {
            note("constellation: cannot write the output: \(error.localizedDescription)")
            exit(CommandFailure.io("").exitCode)
        }
    }

    static func printJSON(_ value: some Encodable) throws {
        let encoder = JSONEncoder.constellation
        encoder.outputFormatting.insert(.prettyPrinted)
        print(String(decoding: try encoder.encode(value), as: UTF8.self))
    }

    /// The terminal's width in columns: stdout's window size, else `$COLUMNS` (at most 1,000),
    /// else 80.
    static var columns: Int {
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        if let columns = ProcessInfo.processInfo.environment["COLUMNS"].flatMap({ Int($0) }), columns > 0 { return min(columns, 1_000) }
        return 80
    }

    /// Whether stdout is a terminal (so screen-clearing escapes make sense).
    static var isInteractive: Bool { isatty(STDOUT_FILENO) == 1 }
}
