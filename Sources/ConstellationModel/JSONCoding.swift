import Foundation

extension JSONEncoder {
    /// The encoder both ends use: ISO 8601 dates, stable key order.
    public static var constellation: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}

extension JSONDecoder {
    /// The decoder both ends use: ISO 8601 dates.
    public static var constellation: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}
