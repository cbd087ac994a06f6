/// An 8-bit grayscale image, row-major, one byte per pixel.
public struct GrayImage: Sendable, Equatable {
    public let width: Int
    public let height: Int
    public let pixels: [UInt8]

    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(pixels.count == width * height, "one byte per pixel")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// Images larger than this are refused before decoding (a photo from a phone is about 12 megapixels).
    static let maximumPixels = 50_000_000

    static func checkSize(width: Int, height: Int) throws(QRError) {
        guard width > 0, height > 0, width * height <= maximumPixels else {
            throw .imageTooLarge(width: width, height: height)
        }
    }
}
