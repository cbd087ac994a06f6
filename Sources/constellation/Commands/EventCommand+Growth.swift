import ArgumentParser
import ConstellationModel
import Foundation

extension EventCommand {
    struct Growth: SessionCommand {
        static let configuration = CommandConfiguration(
            abstract: "How an event's network grew, bucket by bucket (organizers only).",
            discussion: """
                The terminal shows each bucket's start in the event's time zone, its new connections as a bar \
                scaled to the terminal's width, and the people and connections so far. Past \(GrowthChart.sparklineThreshold) \
                buckets a one-line sparkline of new connections per bucket (▁ for none) comes above the table; past \
                \(GrowthChart.tableLimit) it replaces the table. `--csv` gives every bucket: \
                start,new_connections,new_people,cumulative_people,cumulative_connections,largest_component (times in UTC).
                """)

        @OptionGroup var options: GlobalOptions

        @Argument(help: "The event's slug or id.")
        var event: String

        @Option(help: "The bucket size: 5m, 15m, 1h or 1d (buckets start on UTC multiples of it).")
        var bucket = "1h"

        @Option(help: "Only the buckets from this time: 2026-05-01T09:00 (in the event's time zone) or with an offset.")
        var from: String?

        @Option(help: "Only the buckets before this time, written like --from.")
        var to: String?

        @Flag(help: "Print the buckets as CSV (RFC 4180).")
        var csv = false

        func validate() throws {
            guard EventGrowth.bucketSizes[bucket] != nil else { throw ValidationError("--bucket is 5m, 15m, 1h or 1d") }
            for (name, value) in [("--from", from), ("--to", to)] {
                if let value, EventCommand.date(value, in: .gmt) == nil {
                    throw ValidationError("\(name) '\(value)' is not a date and time")
                }
            }
            if csv && options.json { throw ValidationError("give --json or --csv, not both") }
        }

        func run(in session: Session) async throws {
            let details = try await session.client.event(event)
            let zone = TimeZone(identifier: details.timeZone) ?? .gmt
            let growth = try await EventCommand.asOrganizer(of: event) {
                try await session.client.eventGrowth(
                    event, bucket: bucket, from: from.flatMap { EventCommand.date($0, in: zone) },
                    to: to.flatMap { EventCommand.date($0, in: zone) })
            }
            if options.json { return try Terminal.printJSON(growth) }
            if csv { return try OutputFile.write(Array(GrowthChart.csv(growth).utf8), to: nil) }
            let columns = Terminal.columns
            Terminal.print(
                DisplayWidth.truncate("\(details.name) (\(details.slug)), \(bucket) buckets", to: columns - 1) + "\n\n"
                    + GrowthChart.text(growth, zone: zone, columns: columns))
        }
    }
}
