import ConstellationModel
import Foundation

/// An event's growth as terminal text or CSV: a bar per bucket, a sparkline for many buckets.
enum GrowthChart {
    /// Up to this many buckets a table is printed, one line each; past it, only the sparkline.
    static let tableLimit = 48
    /// Past this many buckets a sparkline of new connections comes first.
    static let sparklineThreshold = 12
    private static let levels: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
    private static let eighths: [Character] = ["▏", "▎", "▍", "▌", "▋", "▊", "▉"]

    /// The terminal text: a sparkline above the table past `sparklineThreshold` buckets, instead of
    /// it past `tableLimit`; bucket starts in `zone`; every line fits in `columns` columns.
    static func text(_ growth: EventGrowth, zone: TimeZone, columns: Int) -> String {
        let buckets = growth.buckets
        guard let last = buckets.last else { return "No connections yet." }
        var lines: [String] = []
        if buckets.count > sparklineThreshold {
            let (line, perCharacter) = sparkline(buckets.map(\.newConnections), width: max(1, columns - 1))
            lines.append(line)
            lines += DisplayWidth.wrap(
                "New connections per bucket from \(EventCommand.localTime(buckets[0].start, in: zone)) (\(zone.identifier))"
                    + (perCharacter > 1 ? ", \(perCharacter) buckets a character." : "."), to: columns)
        }
        if buckets.count <= tableLimit {
            if !lines.isEmpty { lines.append("") }
            lines += table(buckets, zone: zone, columns: columns)
        } else {
            lines += DisplayWidth.wrap("\(buckets.count) buckets: narrow them with --from and --to, or see each with --csv.", to: columns)
        }
        lines.append("")
        lines += DisplayWidth.wrap(
            "In all: \(last.cumulativePeople) people, \(last.cumulativeConnections) connections; "
                + "largest connected group \(last.largestComponent).", to: columns)
        return lines.joined(separator: "\n")
    }

    /// One line per bucket: start, new connections, cumulative people and connections, then a bar
    /// of new connections scaled so that the longest fills what is left of `columns - 1`.
    static func table(_ buckets: [GrowthBucket], zone: TimeZone, columns: Int) -> [String] {
        let headers = ["start (\(zone.identifier))", "new", "people", "connections"]
        let rows = buckets.map { bucket in
            [
                EventCommand.localTime(bucket.start, in: zone), "+\(bucket.newConnections)", "\(bucket.cumulativePeople)",
                "\(bucket.cumulativeConnections)",
            ]
        }
        let widths = headers.indices.map { column in ([headers] + rows).map { DisplayWidth.of($0[column]) }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            zip(cells, widths).enumerated().map { column, pair in
                let padding = String(repeating: " ", count: pair.1 - DisplayWidth.of(pair.0))
                return column == 0 ? pair.0 + padding : padding + pair.0
            }.joined(separator: "  ")
        }
        let fixed = widths.reduce(0, +) + 2 * (widths.count - 1) + 2
        let barWidth = max(0, columns - 1 - fixed)
        let most = buckets.map(\.newConnections).max() ?? 0
        return [DisplayWidth.truncate(line(headers), to: columns - 1)]
            + zip(buckets, rows).map { bucket, cells in
                let text = line(cells)
                return barWidth > 0
                    ? text + "  " + bar(bucket.newConnections, of: most, width: barWidth) : DisplayWidth.truncate(text, to: columns - 1)
            }
    }

    /// A bar of `value` out of `most` filling up to `width` columns, in eighths of a column.
    static func bar(_ value: Int, of most: Int, width: Int) -> String {
        guard value > 0, most > 0, width > 0 else { return "" }
        let eighthsLong = max(1, Int((Double(value) / Double(most) * Double(width * 8)).rounded()))
        return String(repeating: "█", count: eighthsLong / 8) + (eighthsLong % 8 == 0 ? "" : String(eighths[eighthsLong % 8 - 1]))
    }

    /// A sparkline of `values` in at most `width` characters: consecutive values are summed, as
    /// many per character as needed (returned), and a zero is always the lowest level.
    static func sparkline(_ values: [Int], width: Int) -> (line: String, perCharacter: Int) {
        let perCharacter = max(1, (values.count + width - 1) / width)
        let sums = stride(from: 0, to: values.count, by: perCharacter).map {
            values[$0..<min($0 + perCharacter, values.count)].reduce(0, +)
        }
        let most = sums.max() ?? 0
        let line = sums.map { sum in
            sum == 0 || most == 0 ? levels[0] : levels[1 + min(6, Int((Double(sum) / Double(most) * 6).rounded()))]
        }
        return (String(line), perCharacter)
    }

    /// `start,new_connections,new_people,cumulative_people,cumulative_connections,largest_component`,
    /// times in RFC 3339 UTC, CRLF lines (RFC 4180), as the CLI's other CSV.
    static func csv(_ growth: EventGrowth) -> String {
        let header = "start,new_connections,new_people,cumulative_people,cumulative_connections,largest_component"
        let rows = growth.buckets.map { bucket in
            [
                bucket.start.formatted(Date.ISO8601FormatStyle()), "\(bucket.newConnections)", "\(bucket.newPeople)",
                "\(bucket.cumulativePeople)", "\(bucket.cumulativeConnections)", "\(bucket.largestComponent)",
            ].joined(separator: ",")
        }
        return ([header] + rows).map { $0 + "\r\n" }.joined()
    }
}
