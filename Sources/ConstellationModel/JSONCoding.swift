import Foundation

extension JSONEncoder {
    /// The encoder both ends use: dates as `ISO8601Seconds` writes them, stable key order.
    public static var constellation: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(ISO8601Seconds.string(date))
        }
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}

extension JSONDecoder {
    /// The decoder both ends use: dates are RFC 3339 date-times (`RFC3339`); a field that holds
    /// anything else throws `InvalidDate`, naming the field.
    public static var constellation: JSONDecoder { constellation(accepting: nil) }

    /// The same, refusing dates outside `range` too (the server reads requests with `RFC3339.accepted`).
    public static func constellation(accepting range: Range<Date>?) -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let text = try decoder.singleValueContainer().decode(String.self)
            guard let date = RFC3339.date(text), range?.contains(date) ?? true else {
                throw InvalidDate(field: decoder.codingPath.fieldName)
            }
            return date
        }
        return decoder
    }
}

extension [any CodingKey] {
    /// The path as a client writes it: `startsAt`, `events[0].startsAt`.
    public var fieldName: String {
        enumerated().map { index, key in
            key.intValue.map { "[\($0)]" } ?? (index == 0 ? key.stringValue : "." + key.stringValue)
        }.joined()
    }
}
