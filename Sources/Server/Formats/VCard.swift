import ConstellationModel
import Foundation

/// My connections as vCard 4.0 (RFC 6350), one card per connection: `FN` the display name,
/// `NOTE` the headline, `UID` the profile id as a `urn:uuid:`, and what they share with their
/// connections: `EMAIL`, `TEL` (a `tel:` URI), `URL`, `ORG` and `TITLE`, a label that names one
/// of the property's types (`work`, `home`; `cell` for a mobile), in English or German, as its `TYPE`. Text values escape backslash,
/// comma, semicolon and line breaks; lines end in CRLF and are folded at 75 octets, never
/// inside a UTF-8 sequence.
package enum VCard {
    /// The longest a line may be, in octets, without its CRLF (RFC 6350 §3.2).
    package static let lineLimit = 75

    package static func document(_ connections: [Connection]) -> String {
        connections.map(card).joined()
    }

    package static func card(_ connection: Connection) -> String {
        var lines = [
            "BEGIN:VCARD", "VERSION:4.0", "UID:urn:uuid:\(connection.peer.id.uuidString.lowercased())",
            "FN:\(escape(connection.peer.displayName))",
        ]
        if let headline = connection.peer.headline { lines.append("NOTE:\(escape(headline))") }
        lines += (connection.card ?? []).map(property)
        lines.append("END:VCARD")
        return lines.map(fold).joined()
    }

    /// A card entry as its vCard property.
    package static func property(_ entry: ContactEntry) -> String {
        switch entry.kind {
        case .email: "EMAIL\(type(entry.label, among: ["work", "home"])):\(escape(entry.value))"
        case .phone:
            "TEL;VALUE=uri\(type(entry.label, among: ["work", "home", "cell", "voice", "fax", "text", "video", "pager"])):tel:\(entry.value)"
        case .link: "URL\(type(entry.label, among: ["work", "home"])):\(entry.value)"
        case .organization: "ORG:\(escape(entry.value))"
        case .role: "TITLE:\(escape(entry.value))"
        }
    }

    /// `;TYPE=…` for a label naming one of `types` (or a word the pages offer for one, in either
    /// of their languages: `mobile` or `Handy` is `cell`, `Arbeit` is `work`), else nothing.
    private static func type(_ label: String?, among types: Set<String>) -> String {
        guard let label else { return "" }
        let word = label.trimmingCharacters(in: .whitespaces).lowercased()
        let name = synonyms[word] ?? word
        return types.contains(name) ? ";TYPE=\(name)" : ""
    }

    /// Words for a type other than its own name.
    private static let synonyms = [
        "mobile": "cell", "mobil": "cell", "handy": "cell", "mobiltelefon": "cell",
        "arbeit": "work", "beruflich": "work", "dienstlich": "work", "büro": "work", "geschäftlich": "work",
        "privat": "home", "zuhause": "home", "zu hause": "home", "telefax": "fax",
    ]

    /// A text value with `\`, `,`, `;` and line breaks escaped (RFC 6350 §3.4).
    package static func escape(_ text: String) -> String {
        var escaped = ""
        var scalars = text.unicodeScalars.makeIterator()
        var pending = scalars.next()
        while let scalar = pending {
            pending = scalars.next()
            switch scalar {
            case "\\": escaped += "\\\\"
            case ",": escaped += "\\,"
            case ";": escaped += "\\;"
            case "\n": escaped += "\\n"
            case "\r":
                escaped += "\\n"
                if pending == "\n" { pending = scalars.next() }  // CRLF is one line break
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    /// `line` ended by CRLF, folded (CRLF and a space) so that no line exceeds `lineLimit` octets;
    /// folds fall between Unicode scalars, so a UTF-8 sequence is never split.
    package static func fold(_ line: String) -> String {
        var folded = ""
        var octets = 0
        for scalar in line.unicodeScalars {
            let size = UTF8.width(scalar)
            if octets + size > lineLimit {
                folded += "\r\n "
                octets = 1
            }
            folded.unicodeScalars.append(scalar)
            octets += size
        }
        return folded + "\r\n"
    }
}
