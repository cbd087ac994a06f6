import ConstellationModel
import Foundation

/// Text a person typed (a name, a headline, a client's nonce), checked as PostgreSQL will store it:
/// normalized to NFC, trimmed, and measured in Unicode code points, the unit of `char_length`.
/// One rule for every field a person types into: characters that are invisible, blank or that
/// reorder or break the text around them are refused (they serve spoofing, "Ada\u{202E}evil", not
/// names), and text that is not empty must show something.
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
        let pointer = "/\(field)"
        guard length >= minimum else {
            throw minimum == 1
                ? Problem.validation("\(field) must not be empty", FieldError(pointer, .required))
                : Problem.validation("\(field) must be at least \(minimum) characters", FieldError(pointer, .tooShort, minimum: minimum))
        }
        guard length <= maximum else {
            throw Problem.validation(
                "\(field) must be at most \(maximum) characters (Unicode code points); it has \(length)",
                FieldError(pointer, .tooLong, maximum: maximum))
        }
        if let scalar = Self.firstRefused(in: text.unicodeScalars, allowingLineBreaks: allowsLineBreaks) {
            let code = "U+" + String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 4)
            throw Problem.validation(
                "\(field) must not contain control, invisible or direction-changing characters (\(code))",
                FieldError(pointer, .invisibleCharacter))
        }
        if !text.isEmpty, !text.unicodeScalars.contains(where: Self.isVisible) {
            throw Problem.validation(
                "\(field) must contain a visible character (a letter, digit, punctuation or symbol)",
                FieldError(pointer, .noVisibleCharacter))
        }
        return text
    }

    /// The first character of `scalars` that hides, blanks or reorders text: control characters,
    /// line and paragraph separators, noncharacters, private use and unassigned code points, format
    /// characters (bidi overrides and isolates, U+FEFF …), and every other default-ignorable code
    /// point and blank filler (U+3164 Hangul filler, U+2800 braille blank, U+115F …), but for what
    /// text needs: the joiners (U+200C, U+200D) emoji and many scripts use, a variation selector right
    /// after what it varies (❤️), and tag characters inside an emoji flag sequence (🏴 + tags + U+E007F).
    static func firstRefused(in scalars: String.UnicodeScalarView, allowingLineBreaks: Bool = false) -> Unicode.Scalar? {
        var previous: Unicode.Scalar?
        var inFlagTags = false
        for scalar in scalars {
            defer { previous = scalar }
            let value = scalar.value
            if inFlagTags {
                if value == 0xE007F {
                    inFlagTags = false
                    continue
                }
                if (0xE0030...0xE0039).contains(value) || (0xE0061...0xE007A).contains(value) { continue }
                return scalar
            }
            if allowingLineBreaks, scalar == "\n" { continue }
            if value == 0x200C || value == 0x200D { continue }
            if isVariationSelector(scalar) {
                guard let base = previous, !base.properties.isDefaultIgnorableCodePoint, isVisible(base) else { return scalar }
                continue
            }
            if (0xE0000...0xE007F).contains(value) {
                // A tag starts a flag's sequence only right after the black flag, and must end it.
                guard previous?.value == 0x1F3F4, (0xE0061...0xE007A).contains(value) else { return scalar }
                inFlagTags = true
                continue
            }
            if isRefused(scalar) { return scalar }
        }
        return inFlagTags ? previous : nil
    }

    /// A character refused wherever it stands.
    static func isRefused(_ scalar: Unicode.Scalar) -> Bool {
        let properties = scalar.properties
        if properties.isNoncharacterCodePoint || properties.isDefaultIgnorableCodePoint || blanks.contains(scalar.value) { return true }
        switch properties.generalCategory {
        case .control, .lineSeparator, .paragraphSeparator, .privateUse, .unassigned, .surrogate, .format:
            return true
        default:
            return false
        }
    }

    /// Characters that are letters or symbols to Unicode but draw nothing.
    private static let blanks: Set<UInt32> = [0x2800, 0x3164, 0xFFA0, 0x115F, 0x1160]

    private static func isVariationSelector(_ scalar: Unicode.Scalar) -> Bool {
        (0xFE00...0xFE0F).contains(scalar.value) || (0xE0100...0xE01EF).contains(scalar.value)
    }

    /// A letter, digit, punctuation mark or symbol that draws something (not a mark alone, a space or a blank).
    static func isVisible(_ scalar: Unicode.Scalar) -> Bool {
        guard !blanks.contains(scalar.value), !scalar.properties.isDefaultIgnorableCodePoint else { return false }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter, .decimalNumber, .letterNumber,
            .otherNumber, .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation, .initialPunctuation,
            .finalPunctuation, .otherPunctuation, .mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol:
            return true
        default:
            return false
        }
    }
}
