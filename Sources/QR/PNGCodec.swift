internal import CPNG

/// libpng's simplified API, which reports errors through return codes rather than `longjmp`.
package enum PNGCodec {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    package static func encode(_ image: GrayImage) throws(QRError) -> [UInt8] {
        var header = png_image()
        header.version = png_uint_32(PNG_IMAGE_VERSION)
        header.width = png_uint_32(image.width)
        header.height = png_uint_32(image.height)
        header.format = png_uint_32(PNG_FORMAT_GRAY)
        defer { png_image_free(&header) }
        var size: png_alloc_size_t = 0
        guard image.pixels.withUnsafeBytes({ png_image_write_to_memory(&header, nil, &size, 0, $0.baseAddress, 0, nil) }) != 0 else {
            throw .writeFailed(message(of: &header))
        }
        var output = [UInt8](repeating: 0, count: Int(size))
        let written = output.withUnsafeMutableBytes { out in
            image.pixels.withUnsafeBytes { png_image_write_to_memory(&header, out.baseAddress, &size, 0, $0.baseAddress, 0, nil) }
        }
        guard written != 0 else { throw .writeFailed(message(of: &header)) }
        return Array(output.prefix(Int(size)))
    }

    package static func decode(_ data: [UInt8]) throws(QRError) -> GrayImage {
        var header = png_image()
        header.version = png_uint_32(PNG_IMAGE_VERSION)
        defer { png_image_free(&header) }
        guard data.withUnsafeBytes({ png_image_begin_read_from_memory(&header, $0.baseAddress, $0.count) }) != 0 else {
            throw .unreadableImage(message(of: &header))
        }
        let width = Int(header.width)
        let height = Int(header.height)
        try GrayImage.checkSize(width: width, height: height)
        header.format = png_uint_32(PNG_FORMAT_GRAY)
        var pixels = [UInt8](repeating: 0, count: width * height)
        // Transparent pixels are composed onto white, as a viewer would show them.
        var white = png_color(red: 255, green: 255, blue: 255)
        let ok = pixels.withUnsafeMutableBytes { png_image_finish_read(&header, &white, $0.baseAddress, 0, nil) }
        guard ok != 0 else { throw .unreadableImage(message(of: &header)) }
        return GrayImage(width: width, height: height, pixels: pixels)
    }

    private static func message(of header: inout png_image) -> String {
        withUnsafeBytes(of: &header.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }
}
