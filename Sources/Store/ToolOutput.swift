import Foundation

/// A PostgreSQL client tool (`pg_dump`, `pg_restore`) running as a child process, and what it
/// prints, read a line at a time as it comes. The caller reads to the end and calls `finish()`,
/// or gives up with `close()`, which stops the tool.
final class ToolOutput {
    private let tool: String
    private let process: Process
    private let output: FileHandle
    private let errors: URL
    private let cleanup: () -> Void
    private var buffer: [UInt8] = []
    private var start = 0
    private var ended = false

    /// Starts `tool` (the newest installed one) with `arguments`, and `environment` added to this
    /// process's; `cleanup` runs when it is done with.
    init(
        _ tool: String, _ arguments: [String], environment: [String: String] = [:], cleanup: @escaping () -> Void = {}
    ) throws(PostgresError) {
        self.tool = tool
        self.cleanup = cleanup
        process = Process()
        process.executableURL = try EmbeddedPostgres.binaryDirectory(holding: tool).appendingPathComponent(tool)
        process.arguments = arguments
        if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        // Errors go to a file: a second pipe left unread could fill and stop the tool.
        errors = FileManager.default.temporaryDirectory.appendingPathComponent("constellation-\(tool)-\(UUID().uuidString).err")
        let printed = Pipe()
        output = printed.fileHandleForReading
        do {
            _ = FileManager.default.createFile(atPath: errors.path, contents: nil, attributes: [.posixPermissions: 0o600])
            process.standardError = try FileHandle(forWritingTo: errors)
            process.standardOutput = printed
            process.standardInput = FileHandle.nullDevice
            try process.run()
        } catch {
            cleanup()
            try? FileManager.default.removeItem(at: errors)
            throw PostgresError(.clientTool, message: "cannot run \(tool): \(error.localizedDescription)")
        }
        try? printed.fileHandleForWriting.close()
    }

    /// The next line without its newline, or nil at the end. Valid until the next call.
    func nextLine() -> ArraySlice<UInt8>? {
        while true {
            if let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
                defer { start = newline + 1 }
                return buffer[start..<newline]
            }
            buffer.removeSubrange(..<start)
            start = 0
            guard !ended, let data = try? output.read(upToCount: 1 << 16), !data.isEmpty else {
                ended = true
                guard !buffer.isEmpty else { return nil }
                defer { buffer.removeAll() }
                return buffer[...]
            }
            buffer += data
        }
    }

    /// Every line that is left, as text.
    func text() -> String {
        var lines: [UInt8] = []
        while let line = nextLine() { lines += line + [UInt8(ascii: "\n")] }
        return String(decoding: lines, as: UTF8.self)
    }

    /// Waits for the tool (reading what it still prints); throws with the first lines it wrote on
    /// stderr if it failed.
    func finish() throws(PostgresError) {
        while nextLine() != nil {}
        process.waitUntilExit()
        defer { close() }
        guard process.terminationStatus == 0 else {
            let said = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
            throw PostgresError(
                .clientTool, message: "\(tool) failed: \(said.split(whereSeparator: \.isNewline).prefix(3).joined(separator: " "))")
        }
    }

    /// Stops the tool if it still runs, and removes what it left.
    func close() {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        try? output.close()
        try? FileManager.default.removeItem(at: errors)
        cleanup()
    }
}
