import ConstellationModel

/// The organizers' print sheet: one HTML page, badges of 90 × 60 mm two across and four down
/// (eight to a sheet of A4 or US Letter), dashed cut lines around each, nothing to fetch (styles
/// inline, badges as inline SVG). Opened from a file and printed at 100 %.
struct BadgeSheet {
    /// The paper sizes the sheet is laid out for (`?paper=`).
    enum Paper: String, CaseIterable {
        case a4
        case letter

        var cssSize: String { self == .a4 ? "A4" : "letter" }
    }

    static let badgesPerPage = 8

    let eventName: String
    let paper: Paper
    /// Each badge's SVG (`BadgeDrawing.svg()`).
    let badges: [String]
    var words = Words.english

    func html() -> String {
        let title = words("badge.sheetTitle", ["event": eventName]).xmlEscaped
        let note = words(
            "badge.sheetNote", count: badges.count,
            ["perPage": words.number(Self.badgesPerPage), "paper": paper == .letter ? "US Letter" : "A4"]
        ).xmlEscaped
        var out = """
            <!doctype html>
            <html lang="\(words.language)"><head><meta charset="utf-8"><title>\(title)</title>
            <style>
            @page { size: \(paper.cssSize); margin: 12mm 10mm; }
            body { margin: 0; font-family: sans-serif; }
            .note { margin: 0 0 6mm; font-size: 11pt; }
            .page { display: grid; grid-template-columns: repeat(2, 90mm); grid-auto-rows: 60mm; justify-content: center; }
            .page + .page { break-before: page; }
            .badge { width: 90mm; height: 60mm; outline: 0.2mm dashed #888; outline-offset: -0.1mm; break-inside: avoid; }
            .badge svg { display: block; }
            @media screen { body { padding: 8mm; } }
            @media print { .note { display: none; } }
            </style></head><body>
            <p class="note">\(title). \(note)</p>

            """
        for start in stride(from: 0, to: badges.count, by: Self.badgesPerPage) {
            out += "<section class=\"page\">\n"
            for badge in badges[start..<min(start + Self.badgesPerPage, badges.count)] {
                out += "<div class=\"badge\">\(badge)</div>\n"
            }
            out += "</section>\n"
        }
        return out + "</body></html>\n"
    }
}
