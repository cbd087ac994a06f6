import ConstellationModel
import Foundation

/// My connections as CSV (RFC 4180): a header, one record per connection, CRLF line ends.
/// A field holding a comma, a quote or a line break is quoted (quotes doubled). A field that a
/// spreadsheet would take for a formula (starting with `=`, `+`, `-`, `@`, a tab or a carriage
/// return) starts with a single quote, so opening the file never runs anything. The card's columns
/// hold what each person shares with their connections, several values of a kind separated by spaces.
package enum ConnectionsCSV {
    package static let header =
        ["profile_id", "display_name", "headline", "connected_at", "event_id"] + ContactEntry.Kind.allCases.map(\.rawValue)

    package static func document(_ connections: [Connection]) -> String {
        var text = record(header)
        for connection in connections {
            let card = connection.card ?? []
            text += record(
                [
                    connection.peer.id.uuidString.lowercased(), connection.peer.displayName, connection.peer.headline ?? "",
                    connection.connectedAt.formatted(Date.ISO8601FormatStyle()), connection.eventId?.uuidString.lowercased() ?? "",
                ] + ContactEntry.Kind.allCases.map { kind in card.filter { $0.kind == kind }.map(\.value).joined(separator: " ") })
        }
        return text
    }

    /// One record: its fields, separated by commas, and CRLF.
    package static func record(_ fields: [String]) -> String {
        fields.map(field).joined(separator: ",") + "\r\n"
    }

    /// A field as it is written: defused, then quoted if it must be.
    package static func field(_ text: String) -> String {
        var value = text
        if let first = value.unicodeScalars.first, formulaStarts.contains(first) { value = "'" + value }
        guard value.unicodeScalars.contains(where: mustQuote.contains) else { return value }
        return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    private static let formulaStarts: Set<Unicode.Scalar> = ["=", "+", "-", "@", "\t", "\r"]
    private static let mustQuote: Set<Unicode.Scalar> = [",", "\"", "\n", "\r"]
}
