import ArgumentParser
import ConstellationModel
import Foundation
import QR

struct Show: SessionCommand {
    static let configuration = CommandConfiguration(abstract: "Show a fresh QR code for others to scan.")

    enum Format: String, ExpressibleByArgument, CaseIterable { case text, svg, png }

    @OptionGroup var options: GlobalOptions

    @Flag(help: "Keep showing the code, replacing it with a fresh one before it expires, and say who scans it (Ctrl-C to stop).")
    var watch = false

    @Option(help: "How to draw the code: text for the terminal, or an SVG or PNG image.")
    var format: Format = .text

    @Option(help: "Write the code to this file instead of the terminal (needed for png).", completion: .file())
    var output: String?

    @Flag(help: "Print the raw token instead of a QR code.")
    var token = false

    @Flag(help: "Draw dark modules on a light terminal background (the default suits dark backgrounds).")
    var light = false

    @Option(help: "Show a code for this event (its slug or id; you must be a member): whoever scans it becomes an attendee.")
    var event: String?

    func validate() throws {
        if format == .png && output == nil { throw ValidationError("--format png needs --output FILE") }
        if watch && (output != nil || token || options.json) { throw ValidationError("--watch shows the code in the terminal only") }
    }

    func run(in session: Session) async throws {
        // While the code is on screen, say who scans it.
        let listener = watch ? Task { await announceNewConnections(session) } : nil
        defer { listener?.cancel() }
        repeat {
            let issued = try await session.client.issueToken(event: event)
            try render(issued)
            if watch {
                // Replace the code 20 seconds before it expires.
                let wait = max(5, issued.expiresAt.timeIntervalSinceNow - 20)
                try await Task.sleep(for: .seconds(wait))
            }
        } while watch
    }

    /// Says who connects, until the server refuses the stream (then says why, and the code stays).
    private func announceNewConnections(_ session: Session) async {
        do {
            for try await connection in session.client.newConnections() {
                Terminal.print("\(connection.peer.displayName) connected with you.")
            }
        } catch {
            Terminal.note("The code stays, but who scans it cannot be told: \(error)")
        }
    }

    private func render(_ issued: IssuedToken) throws {
        if options.json { return try Terminal.printJSON(issued) }
        if token { return Terminal.print(issued.token) }
        let code = try QRCode(encoding: issued.qrText)
        let bytes: [UInt8]
        switch format {
        case .png: bytes = try code.png()
        case .svg: bytes = Array(code.svg().utf8)
        case .text: bytes = Array(code.terminalText(darkOnLight: light).utf8)
        }
        if let output {
            try OutputFile.write(bytes, to: output)
            Terminal.note("Wrote a \(format.rawValue) QR code to \(output); it expires at \(Self.time(issued.expiresAt)).")
            return
        }
        if watch && Terminal.isInteractive { Terminal.print("\u{1B}[H\u{1B}[2J") }
        Terminal.print(String(decoding: bytes, as: UTF8.self))
        if format == .text {
            Terminal.print("Scan me with `constellation scan`. Valid until \(Self.time(issued.expiresAt)).")
        }
    }

    static func time(_ date: Date) -> String {
        date.formatted(date: .omitted, time: .standard)
    }
}
