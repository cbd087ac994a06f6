/// Places the labels of a picture's dots so that no label covers another label or a dot: each
/// label tries the right, left, top and bottom of its dot, then a shortened text, and is left out
/// when nothing fits. The most important dots (given first) choose first.
enum LabelPlacement {
    /// An axis-aligned box in picture coordinates.
    struct Box {
        var minX, minY, maxX, maxY: Double

        func intersects(_ other: Box) -> Bool {
            minX < other.maxX && other.minX < maxX && minY < other.maxY && other.minY < maxY
        }

        func union(_ other: Box) -> Box {
            Box(minX: min(minX, other.minX), minY: min(minY, other.minY), maxX: max(maxX, other.maxX), maxY: max(maxY, other.maxY))
        }
    }

    /// A dot to label.
    struct Dot {
        let x, y, radius: Double
        let text: String

        init(x: Double, y: Double, radius: Double, text: String) {
            (self.x, self.y, self.radius) = (tenths(x), tenths(y), tenths(radius))
            self.text = text
        }

        var box: Box { Box(minX: x - radius, minY: y - radius, maxX: x + radius, maxY: y + radius) }
    }

    /// A placed label: `text` starts at `x` on the baseline `y` and spans exactly `width`
    /// (the SVG says so with `textLength`), so `box` is what a renderer covers. The numbers are
    /// rounded to tenths, as the SVG writes them, so a reader of the SVG finds the same boxes.
    struct Label {
        let text: String
        let x, y, width: Double

        init(text: String, x: Double, y: Double, width: Double) {
            self.text = text
            (self.x, self.y, self.width) = (tenths(x), tenths(y), tenths(width))
        }

        var box: Box {
            Box(minX: x, minY: y - ascent * fontSize, maxX: x + width, maxY: y + descent * fontSize)
        }
    }

    static let fontSize = 13.0
    /// Text metrics in font sizes: the advance of one terminal column of text, the ascent above
    /// the baseline and the descent below it.
    static let columnAdvance = 0.62, ascent = 0.9, descent = 0.25
    /// Labels longer than this many columns are shortened at once; one that does not fit is tried at `shortColumns`.
    static let longColumns = 32, shortColumns = 12
    /// Beyond this many labels a picture is unreadable anyway: the rest of the dots stay unlabelled.
    static let maxLabels = 300
    /// The space between a dot and its label.
    static let gap = 3.0

    /// The labels that fit, for `dots` in order of importance (nil where a dot gets none).
    static func place(_ dots: [Dot]) -> [Label?] {
        var taken = dots.map(\.box)
        return dots.enumerated().map { index, dot in
            guard index < maxLabels else { return nil }
            let long = DisplayWidth.truncate(dot.text, to: longColumns)
            let short = DisplayWidth.truncate(dot.text, to: shortColumns)
            for text in short == long ? [long] : [long, short] {
                for label in candidates(text, beside: dot) where !taken.contains(where: label.box.intersects) {
                    taken.append(label.box)
                    return label
                }
            }
            return nil
        }
    }

    /// `text` to the right, left, top and bottom of `dot`.
    private static func candidates(_ text: String, beside dot: Dot) -> [Label] {
        let width = Double(DisplayWidth.of(text)) * columnAdvance * fontSize
        let height = (ascent + descent) * fontSize
        let middle = dot.y - height / 2
        let reach = dot.radius + gap
        return [
            (dot.x + reach, middle), (dot.x - reach - width, middle),
            (dot.x - width / 2, dot.y - reach - height), (dot.x - width / 2, dot.y + reach),
        ].map { left, top in Label(text: text, x: left, y: top + ascent * fontSize, width: width) }
    }

    /// `value` rounded to tenths, the precision the SVG is written with.
    static func tenths(_ value: Double) -> Double { (value * 10).rounded() / 10 }
}
