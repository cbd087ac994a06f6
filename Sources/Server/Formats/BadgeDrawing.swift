import ConstellationModel
import QR

/// A printed badge, 90 × 60 mm: the event's name, the person's name and headline, and their badge
/// code, as SVG (millimetre units, no fonts or images to fetch). Text too wide for its line is set
/// smaller, down to a floor, then cut with an ellipsis; the code keeps its size and quiet zone.
struct BadgeDrawing {
    let displayName: String
    let headline: String?
    let eventName: String
    let code: QRCode
    var words = Words.english

    static let width = 90.0
    static let height = 60.0
    /// The code's side, quiet zone included: about 1 mm a module at version 10, which a phone
    /// reads from arm's length.
    static let codeSide = 40.0

    /// The badge as an `<svg>` element, sized in millimetres (a standalone document as it is, and
    /// embeddable in HTML).
    func svg() -> String {
        let margin = 5.0
        let codeX = Self.width - Self.codeSide - 2
        let codeY = Self.height - Self.codeSide - 2
        let fullWidth = Self.width - 2 * margin
        let besideCode = codeX - margin
        var out = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Self.width)mm" height="\(Self.height)mm" \
            viewBox="0 0 \(Self.width) \(Self.height)" role="img" aria-label="\(words("badge.label", ["name": displayName]).xmlEscaped)">\
            <rect width="\(Self.width)" height="\(Self.height)" fill="#fff"/>
            """
        out += Self.line(eventName, x: margin, y: 8, width: fullWidth, size: 3.6, floor: 2.4, style: "fill=\"#555\"")
        out += Self.line(displayName, x: margin, y: 17, width: fullWidth, size: 8, floor: 3.5, style: "font-weight=\"700\"")
        if let headline {
            out += Self.line(headline, x: margin, y: 25, width: besideCode, size: 3.8, floor: 2.4, style: "fill=\"#333\"")
        }
        out += Self.line(
            words("badge.scanToConnect"), x: margin, y: Self.height - 6, width: besideCode, size: 3, floor: 2.4, style: "fill=\"#555\"")
        let side = Double(code.sizeWithQuietZone)
        out += """
            <svg x="\(codeX)" y="\(codeY)" width="\(Self.codeSide)" height="\(Self.codeSide)" \
            viewBox="0 0 \(Int(side)) \(Int(side))" shape-rendering="crispEdges">\
            <rect width="\(Int(side))" height="\(Int(side))" fill="#fff"/><path fill="#000" d="\(code.svgPath)"/></svg></svg>

            """
        return out
    }

    /// One line of text at (`x`, `y`) within `width` mm: at `size`, or smaller down to `floor`
    /// when it is long, then cut with an ellipsis.
    private static func line(_ text: String, x: Double, y: Double, width: Double, size: Double, floor: Double, style: String) -> String {
        var shown = text
        let fitting = min(size, width / max(estimatedWidth(shown), 1))
        let fontSize = max(fitting, floor)
        while estimatedWidth(shown) * fontSize > width, shown.count > 1 {
            shown = String(shown.dropLast(2)) + "…"
        }
        let rounded = (fontSize * 10).rounded(.down) / 10
        return """
            <text x="\(x)" y="\(y)" font-family="sans-serif" font-size="\(rounded)" \(style)>\(shown.xmlEscaped)</text>

            """
    }

    /// A generous guess at a text's width in ems: about half an em a Latin letter, a whole em for
    /// East Asian scripts and emoji (SVG has no text measurement of its own).
    private static func estimatedWidth(_ text: String) -> Double {
        text.unicodeScalars.reduce(0) { total, scalar in
            total + (scalar.value >= 0x1100 && !(0x2000...0x206F).contains(scalar.value) ? 1.0 : 0.6)
        }
    }
}
