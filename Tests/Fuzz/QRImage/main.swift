import QR

// fuzz-qr-image: each input, as an image file's bytes, goes through the path `constellation scan --image` and
// `device join --image` take: PNG (libpng) or JPEG (libjpeg-turbo) to grayscale, then zbar. Refusals (not an
// image, unreadable, too large, no code) are expected; a crash or a sanitizer report is a finding. libpng,
// libjpeg-turbo and zbar are Debian's builds, not instrumented: AddressSanitizer sees their allocations and
// the libc calls they make, not each of their own reads and writes, and they add no coverage.
//
// libFuzzer supplies `main`: `swift build --sanitize fuzzer` compiles this file as a library (Tools/fuzz).

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzQRImage(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    _ = try? QRDecoder.decode(imageFile: withPNGChecksums(Array(UnsafeBufferPointer(start: data, count: size))))
    return 0
}

/// A PNG with every chunk's CRC made right, so that a mutated chunk reaches libpng's reading of it rather
/// than stopping at its checksum; any other input as it is. (A crash found through this is replayed from the
/// input with its CRCs fixed the same way.)
private func withPNGChecksums(_ bytes: [UInt8]) -> [UInt8] {
    guard bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else { return bytes }
    var png = bytes
    var offset = 8
    while offset + 12 <= png.count {
        let length = png[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
        let end = offset + 8 + length
        guard end + 4 <= png.count else { break }
        let crc = crc32(png[offset + 4..<end])
        for index in 0..<4 { png[end + index] = UInt8(truncatingIfNeeded: crc >> (24 - 8 * index)) }
        offset = end + 4
    }
    return png
}

/// CRC-32 of a chunk's type and data, as the PNG specification's sample code computes it.
private func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes { crc = crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
    return crc ^ 0xFFFF_FFFF
}

private let crcTable: [UInt32] = (0..<256).map { (n: UInt32) in
    (0..<8).reduce(n) { crc, _ in crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
}
