extension QRCode {
    /// The symbol as terminal text, two module rows per line with half-block characters,
    /// so a version-13 code (a 330-byte token) is 77 columns wide and fits an 80-column terminal.
    ///
    /// By default light modules are drawn as blocks, which shows a scannable code on the usual
    /// dark terminal background; pass `darkOnLight: true` for terminals with a light background.
    public func terminalText(darkOnLight: Bool = false) -> String {
        let quiet = Self.quietZone
        let span = -quiet..<(size + quiet)
        var lines: [String] = []
        for top in stride(from: -quiet, to: size + quiet, by: 2) {
            var line = ""
            for x in span {
                let upper = isDark(x: x, y: top) == darkOnLight
                let lower = top + 1 < size + quiet && isDark(x: x, y: top + 1) == darkOnLight
                switch (upper, lower) {
                case (true, true): line += "█"
                case (true, false): line += "▀"
                case (false, true): line += "▄"
                case (false, false): line += " "
                }
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
