/// How many terminal columns text takes: a terminal counts cells, not characters or bytes.
/// East Asian wide characters and emoji take two cells, combining marks and format characters none.
enum DisplayWidth {
    static func of(_ text: some StringProtocol) -> Int {
        text.reduce(0) { $0 + of($1) }
    }

    static func of(_ character: Character) -> Int {
        guard let first = character.unicodeScalars.first else { return 0 }
        if isWide(first) || character.unicodeScalars.contains(where: { $0.properties.isEmojiPresentation || $0 == "\u{FE0F}" }) {
            return 2
        }
        switch first.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control: return 0
        default: return 1
        }
    }

    /// `text` cut to at most `columns` columns, ending in "…" when it had to be cut.
    static func truncate(_ text: String, to columns: Int) -> String {
        guard of(text) > columns else { return text }
        var kept = ""
        var used = 0
        for character in text {
            used += of(character)
            guard used < columns else { break }
            kept.append(character)
        }
        return kept + "…"
    }

    /// `text` broken between words into lines of at most `columns` columns (a longer word is cut).
    static func wrap(_ text: String, to columns: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if line.isEmpty || of(line) + 1 + of(word) > columns {
                if !line.isEmpty { lines.append(line) }
                line = truncate(String(word), to: columns)
            } else {
                line += " " + word
            }
        }
        return line.isEmpty ? lines : lines + [line]
    }

    /// East Asian Wide and Fullwidth blocks (Unicode Standard Annex #11).
    private static func isWide(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
            0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x20000...0x3FFFD:
            true
        default:
            false
        }
    }
}
