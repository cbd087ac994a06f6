import ArgumentParser
import ConstellationModel
import Foundation

extension EventCommand {
    struct Summary: SessionCommand {
        static let configuration = CommandConfiguration(
            abstract: "An event's network in a few figures: people, peak hour, top connectors, communities (organizers only).",
            discussion: "People appear by name only if they chose to be named at the event, else by the pseudonym its network shows.")

        @OptionGroup var options: GlobalOptions

        @Argument(help: "The event's slug or id.")
        var event: String

        func run(in session: Session) async throws {
            let details = try await session.client.event(event)
            let summary = try await EventCommand.asOrganizer(of: event) { try await session.client.eventSummary(event) }
            if options.json { return try Terminal.printJSON(summary) }
            let zone = TimeZone(identifier: details.timeZone) ?? .gmt
            var rows: [(String, String)] = Self.rows(summary.figures, zone: zone)
            rows.insert(("Joined", "\(summary.joinedLastHour) in the last hour"), at: 1)
            rows += Self.connectors("Top by degree", summary.topByDegree) { person -> String in
                "\(person.degree) connection\(person.degree == 1 ? "" : "s")"
            }
            rows += Self.connectors("Top by betweenness", summary.topByBetweenness) { person -> String in
                String(format: "%.3f", person.betweenness)
            }
            Self.printTable(title: "\(details.name) (\(details.slug))", rows: rows)
        }

        /// `title`, then each row as its label padded to 20 columns and its value, cut to the terminal's width.
        static func printTable(title: String, rows: [(String, String)]) {
            let columns = Terminal.columns
            let lines = rows.map { label, value in
                DisplayWidth.truncate(label.padding(toLength: 20, withPad: " ", startingAt: 0) + value, to: columns - 1)
            }
            Terminal.print(([DisplayWidth.truncate(title, to: columns - 1)] + lines).joined(separator: "\n"))
        }

        /// The table's rows of an event's figures: a label (blank to continue the one above) and its value.
        static func rows(_ summary: EventFigures, zone: TimeZone) -> [(String, String)] {
            var rows: [(String, String)] = [
                (
                    "People",
                    "\(summary.people) connected, of \(summary.attendees) member\(summary.attendees == 1 ? "" : "s") "
                        + "(\(Int((summary.connectedShare * 100).rounded()))%)"
                ),
                ("Connections", "\(summary.connections)"),
            ]
            if let peak = summary.peakHour {
                let end = EventCommand.localTime(peak.start.addingTimeInterval(3600), in: zone).suffix(5)
                rows.append(
                    (
                        "Peak hour",
                        "\(EventCommand.localTime(peak.start, in: zone))–\(end) \(zone.identifier), "
                            + "\(peak.newConnections) new connection\(peak.newConnections == 1 ? "" : "s")"
                    ))
            } else {
                rows.append(("Peak hour", "none yet"))
            }
            rows.append(("Largest component", "\(summary.largestComponent) people"))
            rows.append(("Communities", "\(summary.communities), modularity \(String(format: "%.3f", summary.modularity))"))
            return rows
        }

        /// One row per connector, names padded to the longest so that the figures line up.
        private static func connectors(
            _ label: String, _ people: [EventSummary.Connector],
            figure: (EventSummary.Connector) -> String
        ) -> [(String, String)] {
            guard !people.isEmpty else { return [(label, "none")] }
            let width = people.map { DisplayWidth.of($0.name) }.max() ?? 0
            return people.enumerated().map { index, person in
                let name = person.name + String(repeating: " ", count: width - DisplayWidth.of(person.name))
                return (index == 0 ? label : "", "\(index + 1). \(name)  \(figure(person))")
            }
        }
    }
}
