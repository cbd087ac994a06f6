/// Why a QR code could not be made, drawn or read.
public enum QRError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The text does not fit any QR version at the chosen error-correction level.
    case tooLong(bytes: Int)
    /// libqrencode failed for another reason (errno).
    case encodingFailed(errno: Int32)
    /// The file is neither PNG nor JPEG.
    case unsupportedImage
    /// The image could not be decoded (the library's message).
    case unreadableImage(String)
    /// The image is larger than this decoder accepts.
    case imageTooLarge(width: Int, height: Int)
    /// No QR code was found in the image.
    case noCodeFound
    /// The image could not be written.
    case writeFailed(String)

    public var description: String {
        switch self {
        case .tooLong(let bytes): "\(bytes) bytes do not fit in a QR code at error-correction level M"
        case .encodingFailed(let errno): "QR encoding failed (errno \(errno))"
        case .unsupportedImage: "not a PNG or JPEG image"
        case .unreadableImage(let why): "the image could not be read: \(why)"
        case .imageTooLarge(let width, let height): "the image is too large (\(width)×\(height) pixels)"
        case .noCodeFound: "no QR code was found in the image"
        case .writeFailed(let why): "the image could not be written: \(why)"
        }
    }
}
