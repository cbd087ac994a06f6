internal import CTurboJPEG

/// libjpeg-turbo's TurboJPEG API, which reports errors through return codes.
package enum JPEGDecoder {
    package static func isJPEG(_ data: [UInt8]) -> Bool { data.starts(with: [0xFF, 0xD8, 0xFF]) }

    package static func decode(_ data: [UInt8]) throws(QRError) -> GrayImage {
        guard let handle = tjInitDecompress() else { throw .unreadableImage("TurboJPEG could not start") }
        defer { tjDestroy(handle) }
        var width: Int32 = 0
        var height: Int32 = 0
        var subsampling: Int32 = 0
        var colorspace: Int32 = 0
        let headerOK = data.withUnsafeBufferPointer {
            tjDecompressHeader3(handle, $0.baseAddress, UInt($0.count), &width, &height, &subsampling, &colorspace)
        }
        guard headerOK == 0 else { throw .unreadableImage(String(cString: tjGetErrorStr2(handle))) }
        try GrayImage.checkSize(width: Int(width), height: Int(height))
        var pixels = [UInt8](repeating: 0, count: Int(width) * Int(height))
        let ok = pixels.withUnsafeMutableBufferPointer { out in
            data.withUnsafeBufferPointer {
                tjDecompress2(handle, $0.baseAddress, UInt($0.count), out.baseAddress, width, 0, height, Int32(TJPF_GRAY.rawValue), 0)
            }
        }
        guard ok == 0 else { throw .unreadableImage(String(cString: tjGetErrorStr2(handle))) }
        return GrayImage(width: Int(width), height: Int(height), pixels: pixels)
    }
}
