import ConstellationModel
import Foundation

/// One chart of the report: values over the event's time buckets, as bars or as lines, in an SVG
/// that scales to the page and prints. Each bar and line carries its values (`data-value`,
/// `data-values`), and each bar a `<title>`, so that what is drawn can be read back.
struct ReportChart {
    enum Style { case bars, lines }

    struct Series {
        let name: String
        let values: [Double]
        let colour: String
    }

    let title: String
    /// Each bucket's start.
    let starts: [Date]
    let series: [Series]
    let style: Style
    /// How the vertical axis writes a value, and how the horizontal one a time.
    let valueText: (Double) -> String
    let timeText: (Date) -> String
    /// The top of the vertical axis, or nil for a round number above the largest value.
    var top: Double? = nil
    /// The bucket drawn in the accent colour (the peak).
    var highlighted: Int? = nil
    /// Whether its values are whole numbers (counts): a gridline then stands only at a whole number,
    /// so that each stands at the value its label names.
    var whole = true

    private static let width = 640.0, height = 200.0
    private static let left = 64.0, right = 12.0, above = 10.0, below = 26.0

    func svg() -> String {
        let plotWidth = Self.width - Self.left - Self.right
        let plotHeight = Self.height - Self.above - Self.below
        let largest = series.flatMap(\.values).max() ?? 0
        let top = self.top ?? Self.roundUp(largest)
        let step = plotWidth / Double(max(starts.count, 1))
        func y(_ value: Double) -> Double { Self.above + plotHeight * (1 - (top > 0 ? value / top : 0)) }
        var out =
            "<svg class=\"chart\" viewBox=\"0 0 \(Int(Self.width)) \(Int(Self.height))\" role=\"img\" aria-label=\"\(title.xmlEscaped)\">\n"
        for tick in ticks(top: top) {
            let at = y(tick).svgNumber
            out +=
                "<line class=\"grid\" x1=\"\(Int(Self.left))\" x2=\"\(Int(Self.width - Self.right))\" y1=\"\(at)\" y2=\"\(at)\" "
                + "data-value=\"\(Self.exact(tick))\"/>"
                + "<text class=\"axis\" x=\"\(Int(Self.left) - 6)\" y=\"\(at)\" text-anchor=\"end\" dominant-baseline=\"middle\">"
                + "\(valueText(tick).xmlEscaped)</text>\n"
        }
        for index in Self.labelled(starts.count) {
            let x = (Self.left + step * (Double(index) + 0.5)).svgNumber
            out +=
                "<text class=\"axis\" x=\"\(x)\" y=\"\(Int(Self.height) - 8)\" text-anchor=\"\(index == 0 ? "start" : index == starts.count - 1 ? "end" : "middle")\">"
                + "\(timeText(starts[index]).xmlEscaped)</text>\n"
        }
        for (number, line) in series.enumerated() {
            switch style {
            case .bars:
                for (index, value) in line.values.enumerated() where value > 0 {
                    let colour = index == highlighted ? "#d9480f" : line.colour
                    out +=
                        "<rect x=\"\((Self.left + step * Double(index) + step * 0.1).svgNumber)\" y=\"\(y(value).svgNumber)\" "
                        + "width=\"\((step * 0.8).svgNumber)\" height=\"\((y(0) - y(value)).svgNumber)\" fill=\"\(colour)\" "
                        + "data-value=\"\(Self.exact(value))\"><title>\(timeText(starts[index]).xmlEscaped): "
                        + "\(valueText(value).xmlEscaped)</title></rect>\n"
                }
            case .lines:
                let points = line.values.enumerated().map { index, value in
                    "\((Self.left + step * (Double(index) + 0.5)).svgNumber),\(y(value).svgNumber)"
                }
                // The first line wide, the others narrower and dashed over it: equal series both show.
                let stroke = number == 0 ? "stroke-width=\"4\"" : "stroke-width=\"2\" stroke-dasharray=\"6 4\""
                out +=
                    "<polyline fill=\"none\" stroke=\"\(line.colour)\" \(stroke) points=\"\(points.joined(separator: " "))\" "
                    + "data-values=\"\(line.values.map(Self.exact).joined(separator: " "))\"><title>\(line.name.xmlEscaped)</title></polyline>\n"
            }
        }
        return out + "</svg>\n"
    }

    /// The chart's key: each series' colour and name (nothing for one series of bars).
    func key() -> String {
        guard series.count > 1 else { return "" }
        return "<p class=\"key\">"
            + series.map { "<span style=\"color:\($0.colour)\">■</span> \($0.name.xmlEscaped)" }.joined(separator: " &#160; ") + "</p>\n"
    }

    /// Where the gridlines stand: at 0, the middle and the top; on a chart of whole numbers whose
    /// middle is none (a top of 5), at every whole step of a fifth of the top instead.
    func ticks(top: Double) -> [Double] {
        let middle = top / 2
        guard whole, middle != middle.rounded() else { return [0, middle, top] }
        let step = max(1, (top / 5).rounded(.up))
        return Array(stride(from: 0, through: top, by: step))
    }

    /// `value` as it is, without a trailing `.0`: what `data-value` holds.
    private static func exact(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    /// The first, middle and last buckets, labelled along the time axis.
    private static func labelled(_ count: Int) -> [Int] {
        count == 0 ? [] : Array(Set([0, count / 2, count - 1])).sorted()
    }

    /// 1, 2 or 5 times a power of ten, at least `value` (1 for nothing).
    static func roundUp(_ value: Double) -> Double {
        guard value > 1 else { return 1 }
        let power = pow(10, floor(log10(value)))
        return [1.0, 2, 5, 10].map { $0 * power }.first { $0 >= value } ?? 10 * power
    }
}
