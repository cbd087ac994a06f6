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

    static func error(_ text: String) {
        note("constellation: \(text)")
    }

    static func printJSON(_ value: some Encodable) throws {
        let encoder = JSONEncoder.constellation
        encoder.outputFormatting.insert(.prettyPrinted)
        print(String(decoding: try encoder.encode(value), as: UTF8.self))
    }

    /// Whether stdout is a terminal (so screen-clearing escapes make sense).
    static var isInteractive: Bool { isatty(STDOUT_FILENO) == 1 }
}
