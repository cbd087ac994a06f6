import ConstellationModel
import Foundation
import QR

/// QR codes in a photo the user names on the command line.
enum QRImage {
    /// What the QR codes in the PNG or JPEG file at `path` hold.
    static func texts(inFile path: String) throws(CommandFailure) -> [String] {
        guard let data = FileManager.default.contents(atPath: path) else { throw .noInput("cannot read \(path)") }
        do {
            return try QRDecoder.decode(imageFile: [UInt8](data))
        } catch {
            throw .data("\(path): \(error)")
        }
    }
}
