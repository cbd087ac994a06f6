internal import CZBar

/// Finds QR codes in images with the zbar library.
public enum QRDecoder {
    /// The texts of every QR code in a PNG or JPEG file's bytes.
    public static func decode(imageFile data: [UInt8]) throws(QRError) -> [String] {
        let image: GrayImage
        if data.starts(with: PNGCodec.signature) {
            image = try PNGCodec.decode(data)
        } else if JPEGDecoder.isJPEG(data) {
            image = try JPEGDecoder.decode(data)
        } else {
            throw .unsupportedImage
        }
        return try decode(image)
    }

    /// The texts of every QR code in a grayscale image; throws `.noCodeFound` when there is none.
    public static func decode(_ image: GrayImage) throws(QRError) -> [String] {
        guard let scanner = zbar_image_scanner_create() else { throw .unreadableImage("zbar could not start") }
        defer { zbar_image_scanner_destroy(scanner) }
        zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_ENABLE, 0)
        zbar_image_scanner_set_config(scanner, ZBAR_QRCODE, ZBAR_CFG_ENABLE, 1)
        guard let zimage = zbar_image_create() else { throw .unreadableImage("zbar could not start") }
        defer { zbar_image_destroy(zimage) }
        // "Y800": 8-bit grayscale (zbar_fourcc is a macro Swift cannot import).
        let y800 = UInt(UInt8(ascii: "Y")) | UInt(UInt8(ascii: "8")) << 8 | UInt(UInt8(ascii: "0")) << 16 | UInt(UInt8(ascii: "0")) << 24
        zbar_image_set_format(zimage, y800)
        zbar_image_set_size(zimage, UInt32(image.width), UInt32(image.height))
        var texts: [String] = []
        image.pixels.withUnsafeBytes { pixels in
            // zbar reads the pixels during the scan only; the cleanup handler is nil because Swift owns them.
            zbar_image_set_data(zimage, pixels.baseAddress, UInt(pixels.count), nil)
            guard zbar_scan_image(scanner, zimage) > 0 else { return }
            var symbol = zbar_image_first_symbol(zimage)
            while let current = symbol {
                if let data = zbar_symbol_get_data(current) {
                    let length = Int(zbar_symbol_get_data_length(current))
                    texts.append(String(decoding: UnsafeRawBufferPointer(start: data, count: length), as: UTF8.self))
                }
                symbol = zbar_symbol_next(current)
            }
            zbar_image_set_data(zimage, nil, 0, nil)
        }
        guard !texts.isEmpty else { throw .noCodeFound }
        return texts
    }
}
