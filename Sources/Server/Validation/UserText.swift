import ConstellationModel
import Foundation

/// Text a person typed (a name, a headline, a client's nonce), checked as PostgreSQL will store it:
/// normalized to NFC, trimmed, and measured in Unicode code points, the unit of `char_length`.
/// Characters that are invisible or that reorder or break the text around them are refused: they
/// serve spoofing ("Ada\u{202E}evil"), not names.
struct UserText {
    /// The field's name, as the client knows it.
    let field: String
    let minimum: Int
    let maximum: Int
    /// Whether the text is normalized and trimmed (names) or must arrive as it will be kept (nonces).
    var tidies = true
    /// Whether line breaks are kept (a note; `\r\n` becomes `\n`) rather than refused (a name).
    var allowsLineBreaks = false

    /// The checked, normalized text; throws a `validation_failed` problem that names the field.
    func check(_ raw: String) throws -> String {
        var text = tidies ? raw.precomposedStringWithCanonicalMapping.trimmingCharacters(in: .whitespacesAndNewlines) : raw
        if allowsLineBreaks { text = text.replacingOccurrences(of: "\r\n", with: "\n") }
        let length = text.unicodeScalars.count
        guard length >= minimum else {
            throw Problem.validation(minimum == 1 ? "\(field) must not be empty" : "\(field) must be at least \(minimum) characters")
        }
        guard length <= maximum else {
            throw Problem.validation("\(field) must be at most \(maximum) characters (Unicode code points); it has \(length)")
        }
        if let scalar = text.unicodeScalars.first(where: { Self.isRefused($0) && !(allowsLineBreaks && $0 == "\n") }) {
            let code = "U+" + String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 4)
            throw Problem.validation("\(field) must not contain control, invisible or direction-changing characters (\(code))")
        }
        return text
    }

    /// Control characters, line and paragraph separators, noncharacters, private use and unassigned
    /// code points, and format characters (bidi overrides and isolates, U+FEFF, soft hyphen …), except
    /// the joiners that emoji and many scripts need and the tags of emoji flag sequences.
    static func isRefused(_ scalar: Unicode.Scalar) -> Bool {
        let properties = scalar.properties
        if properties.isNoncharacterCodePoint { return true }
        switch properties.generalCategory {
        case .control, .lineSeparator, .paragraphSeparator, .privateUse, .unassigned, .surrogate:
            return true
        case .format:
            return !(scalar.value == 0x200C || scalar.value == 0x200D || (0xE0020...0xE007F).contains(scalar.value))
        default:
            return false
        }
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
