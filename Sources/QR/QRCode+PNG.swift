extension QRCode {
    /// The symbol as a grayscale bitmap, `scale` pixels per module, quiet zone included.
    public func bitmap(scale: Int = 8) -> GrayImage {
        let side = sizeWithQuietZone * scale
        var pixels = [UInt8](repeating: 255, count: side * side)
        for y in 0..<size {
            for x in 0..<size where isDark(x: x, y: y) {
                for row in 0..<scale {
                    let offset = ((y + Self.quietZone) * scale + row) * side + (x + Self.quietZone) * scale
                    for column in 0..<scale { pixels[offset + column] = 0 }
                }
            }
        }
        return GrayImage(width: side, height: side, pixels: pixels)
    }

    /// The symbol as a PNG file (8-bit grayscale, through libpng), `scale` pixels per module.
    public func png(scale: Int = 8) throws(QRError) -> [UInt8] {
        try PNGCodec.encode(bitmap(scale: scale))
    }
}
