extension QRCode {
    /// The symbol as a standalone SVG document, `scale` pixels per module, quiet zone included.
    public func svg(scale: Int = 8) -> String {
        let side = sizeWithQuietZone
        return """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(side * scale)" height="\(side * scale)" \
            viewBox="0 0 \(side) \(side)" shape-rendering="crispEdges">\
            <rect width="\(side)" height="\(side)" fill="#fff"/>\
            <path fill="#000" d="\(svgPath)"/></svg>

            """
    }

    /// The dark modules as SVG path data, one unit per module, offset by the quiet zone (the symbol
    /// spans `sizeWithQuietZone` units): one run of adjacent modules per segment. For drawings that
    /// place the code themselves, as a badge does.
    public var svgPath: String {
        var path = ""
        for y in 0..<size {
            var x = 0
            while x < size {
                guard isDark(x: x, y: y) else {
                    x += 1
                    continue
                }
                let start = x
                while x < size && isDark(x: x, y: y) { x += 1 }
                path += "M\(start + Self.quietZone) \(y + Self.quietZone)h\(x - start)v1h-\(x - start)z"
            }
        }
        return path
    }
}
