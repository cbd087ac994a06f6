import ConstellationModel
import Foundation

/// Output: data on stdout, messages on stderr, JSON in the shape the server sends.
enum Terminal {
    static func print(_ text: String) {
        FileHandle.standardOutput.write(Data((text.hasSuffix("\n") ? text : text + "\n").utf8))
    }

    static func note(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    static func printJSON(_ value: some Encodable) throws {
        let encoder = JSONEncoder.constellation
        encoder.outputFormatting.insert(.prettyPrinted)
        print(String(decoding: try encoder.encode(value), as: UTF8.self))
    }

    /// The terminal's width in columns: stdout's window size, else `$COLUMNS`, else 80.
    static var columns: Int {
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        if let columns = ProcessInfo.processInfo.environment["COLUMNS"].flatMap({ Int($0) }), columns > 0 { return columns }
        return 80
    }

    /// Whether stdout is a terminal (so screen-clearing escapes make sense).
    static var isInteractive: Bool { isatty(STDOUT_FILENO) == 1 }
}
