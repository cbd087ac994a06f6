extension String {
    /// The text with `&`, `<`, `>` and `"` written as entities, for XML and HTML text and
    /// double-quoted attributes (SVG, GEXF, GraphML, the badge sheet).
    package var xmlEscaped: String {
        var out = ""
        out.reserveCapacity(utf8.count)
        for char in self {
            switch char {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(char)
            }
        }
        return out
    }
}

extension Double {
    /// The number to a tenth, without a trailing `.0`: a coordinate in SVG.
    package var svgNumber: String {
        let tenths = (self * 10).rounded() / 10
        return tenths == tenths.rounded() ? String(Int(tenths)) : String(tenths)
    }
}
