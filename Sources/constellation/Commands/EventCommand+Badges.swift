import ArgumentParser
import ConstellationModel
import Foundation
import QR

extension EventCommand {
    struct Badge: SessionCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write your badge for an event, to print: your name, headline, the event and a code that connects with you.",
            discussion: """
                The code is valid until the event ends (a shown code lasts minutes): whoever photographs it can \
                connect with you until then, at most a few hundred people per badge. `constellation qr reset` \
                revokes every badge you printed, with your other codes. SVG is the whole badge; PNG is the code alone.
                """)

        enum Format: String, ExpressibleByArgument, CaseIterable { case svg, png }

        @OptionGroup var options: GlobalOptions

        @Argument(help: "The event's slug or id (you must be a member).")
        var event: String

        @Option(help: "svg (the badge) or png (its code alone).")
        var format: Format = .svg

        @Option(name: [.short, .long], help: "Write to this file.", completion: .file())
        var output: String

        func run(in session: Session) async throws {
            let bytes: [UInt8]
            let issued = try await session.client.badge(event: event)
            switch format {
            case .svg: bytes = try await session.client.badgeDrawing(event: event)
            case .png: bytes = try QRCode(encoding: issued.qrText).png()
            }
            try OutputFile.write(bytes, to: output)
            if options.json { return try Terminal.printJSON(issued) }
            Terminal.print("Wrote your badge for \(event) to \(output); its code works until \(issued.expiresAt.formatted()).")
        }
    }

    struct PrintBadge: SessionCommand {
        static let configuration = CommandConfiguration(
            commandName: "print-badge",
            abstract: "Ask an event's organizers to print your badge, or not (the default).",
            discussion: """
                Yes puts your name, headline and a code that connects with you on the organizers' print sheet; \
                whoever holds the printed badge can connect with you until the event ends. Without a choice, says which it is now.
                """)

        @OptionGroup var options: GlobalOptions

        @Argument(help: "The event's slug or id.")
        var event: String

        @Argument(help: "yes or no.")
        var choice: YesOrNo?

        func run(in session: Session) async throws {
            try await EventCommand.choose(
                choice, at: event, in: session, json: options.json ? "printsBadge" : nil,
                set: { try await session.client.setBadgePrinting($0, at: event).printsBadge }, current: \.printsBadge,
                saying: { printed in
                    printed
                        ? "The organizers of \(event) print your badge (`constellation event print-badge \(event) no` takes it off their sheet)."
                        : "The organizers of \(event) do not print your badge (`constellation event print-badge \(event) yes` asks them to)."
                })
        }
    }

    struct Badges: SessionCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write the print sheet of an event's badges (organizers only): an HTML page, eight badges to a page.",
            discussion: "Only the attendees who asked for a printed badge (`event print-badge EVENT yes`) are on it. Print at 100 %.")

        enum Paper: String, ExpressibleByArgument, CaseIterable { case a4, letter }

        @OptionGroup var options: GlobalOptions

        @Argument(help: "The event's slug or id.")
        var event: String

        @Option(help: "a4 or letter.")
        var paper: Paper = .a4

        @Option(help: "The language of the sheet's and badges' words: one the server writes (en, de, …).")
        var language = "en"

        @Option(name: [.short, .long], help: "Write to this file.", completion: .file())
        var output: String?

        @Flag(help: "Only say how many attendees asked for a printed badge; write nothing.")
        var count = false

        func validate() throws {
            guard count != (output != nil) else { throw ValidationError("Give --output FILE, or --count.") }
        }

        func run(in session: Session) async throws {
            let client = session.client
            if count {
                let requests = try await EventCommand.asOrganizer(of: event) { try await client.badgeRequests(of: event) }
                if options.json { return try Terminal.printJSON(requests) }
                return Terminal.print(
                    "\(requests.count) attendee\(requests.count == 1 ? "" : "s") of \(event) asked for a printed badge.")
            }
            guard let output else { return }
            let (html, count) = try await EventCommand.asOrganizer(of: event) {
                try await client.badgeSheet(event: event, paper: paper.rawValue, language: language)
            }
            try OutputFile.write(html, to: output)
            if options.json { return try Terminal.printJSON(["badges": count]) }
            Terminal.print(
                "Wrote \(count) badge\(count == 1 ? "" : "s") for \(event) to \(output): open it in a browser and print at 100 %.")
        }
    }
}
