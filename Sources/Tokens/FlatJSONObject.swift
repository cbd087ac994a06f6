/// A JSON object (RFC 8259) whose values are strings, integers, booleans or null: the shape of
/// every payload and footer this project signs. Read straight from its bytes, because Foundation's
/// `JSONDecoder` cost as much as all the rest of verifying a token besides the signature check.
/// Anything else is refused: nested objects and arrays, fractions and exponents, integers beyond
/// 64 bits, duplicate keys (two readers could disagree on which one counts), invalid UTF-8, raw
/// control characters and unpaired surrogates, and anything after the closing brace.
package struct FlatJSONObject {
    package enum Value: Equatable {
        case string(String)
        case integer(Int64)
        case bool(Bool)
        case null
    }

    private let fields: [String: Value]

    /// The object in `bytes`, or nil when they are not such an object.
    package init?(_ bytes: [UInt8]) {
        var reader = Reader(bytes: bytes)
        guard let fields = reader.object(), reader.atEnd else { return nil }
        self.fields = fields
    }

    /// Every key the object holds.
    package var keys: Dictionary<String, Value>.Keys { fields.keys }

    /// The string under `key`; nil when it is missing or not a string.
    package func string(_ key: String) -> String? {
        if case .string(let text) = fields[key] { text } else { nil }
    }

    /// The integer under `key`; nil when it is missing or not an integer.
    package func integer(_ key: String) -> Int64? {
        if case .integer(let value) = fields[key] { value } else { nil }
    }

    /// Whether `key` is missing or null: an optional value of the wrong type is not.
    package func isAbsentOrNull(_ key: String) -> Bool {
        fields[key] == nil || fields[key] == .null
    }

    /// The boolean under `key`; nil when it is missing or not a boolean.
    package func bool(_ key: String) -> Bool? {
        if case .bool(let value) = fields[key] { value } else { nil }
    }

    /// A cursor over the bytes; each reading method returns nil on anything it does not accept.
    private struct Reader {
        let bytes: [UInt8]
        var index = 0

        var atEnd: Bool {
            mutating get {
                skipWhitespace()
                return index == bytes.count
            }
        }

        mutating func object() -> [String: Value]? {
            guard take(UInt8(ascii: "{")) else { return nil }
            var fields: [String: Value] = [:]
            if take(UInt8(ascii: "}")) { return fields }
            repeat {
                guard let key = string(), take(UInt8(ascii: ":")), let value = value(), fields.updateValue(value, forKey: key) == nil
                else { return nil }
            } while take(UInt8(ascii: ","))
            return take(UInt8(ascii: "}")) ? fields : nil
        }

        private mutating func value() -> Value? {
            skipWhitespace()
            guard index < bytes.count else { return nil }
            switch bytes[index] {
            case UInt8(ascii: "\""): return string().map(Value.string)
            case UInt8(ascii: "t"): return literal("true") ? .bool(true) : nil
            case UInt8(ascii: "f"): return literal("false") ? .bool(false) : nil
            case UInt8(ascii: "n"): return literal("null") ? .null : nil
            default: return integer().map(Value.integer)
            }
        }

        /// `-`? then `0` or a non-zero digit and more digits, within 64 bits; no fraction, no exponent.
        private mutating func integer() -> Int64? {
            let negative = bytes[index] == UInt8(ascii: "-")
            if negative { index += 1 }
            let start = index
            var magnitude: UInt64 = 0
            while index < bytes.count, let digit = Self.digit(bytes[index]) {
                let (times10, overflowed) = magnitude.multipliedReportingOverflow(by: 10)
                let (sum, carried) = times10.addingReportingOverflow(UInt64(digit))
                guard !overflowed, !carried else { return nil }
                magnitude = sum
                index += 1
            }
            let digits = index - start
            guard digits > 0, digits == 1 || bytes[start] != UInt8(ascii: "0") else { return nil }
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") || bytes[index] | 0x20 == UInt8(ascii: "e") { return nil }
            if negative { return magnitude <= UInt64(Int64.max) + 1 ? Int64(truncatingIfNeeded: 0 &- magnitude) : nil }
            return magnitude <= UInt64(Int64.max) ? Int64(magnitude) : nil
        }

        /// A string's contents with its escapes resolved, as valid UTF-8.
        private mutating func string() -> String? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            var out: [UInt8] = []
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                switch byte {
                case UInt8(ascii: "\""):
                    return String(validating: out, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    guard escape(into: &out) else { return nil }
                case 0..<0x20:
                    return nil
                default:
                    out.append(byte)
                }
            }
            return nil
        }

        /// The escape after a backslash, appended to `out` as UTF-8.
        private mutating func escape(into out: inout [UInt8]) -> Bool {
            guard index < bytes.count else { return false }
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(byte)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                guard let unit = hex4() else { return false }
                var scalar = UInt32(unit)
                if (0xD800..<0xDC00).contains(unit) {
                    guard take(UInt8(ascii: "\\"), skippingWhitespace: false), take(UInt8(ascii: "u"), skippingWhitespace: false),
                        let low = hex4(), (0xDC00..<0xE000).contains(low)
                    else { return false }
                    scalar = 0x10000 + (UInt32(unit - 0xD800) << 10) + UInt32(low - 0xDC00)
                }
                guard let character = Unicode.Scalar(scalar) else { return false }  // a lone low surrogate
                out += Array(String(character).utf8)
            default: return false
            }
            return true
        }

        private mutating func hex4() -> UInt16? {
            guard index + 4 <= bytes.count else { return nil }
            var value: UInt16 = 0
            for byte in bytes[index..<index + 4] {
                guard let digit = Self.hexDigit(byte) else { return nil }
                value = value << 4 | UInt16(digit)
            }
            index += 4
            return value
        }

        private mutating func literal(_ word: String) -> Bool {
            let count = word.utf8.count
            guard index + count <= bytes.count, bytes[index..<index + count].elementsEqual(word.utf8) else { return false }
            index += count
            return true
        }

        /// Consumes `byte` (after any whitespace, unless told not to) if it comes next.
        private mutating func take(_ byte: UInt8, skippingWhitespace: Bool = true) -> Bool {
            if skippingWhitespace { skipWhitespace() }
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        private mutating func skipWhitespace() {
            while index < bytes.count, Self.isWhitespace(bytes[index]) { index += 1 }
        }

        /// JSON's four whitespace bytes: space, tab, line feed, carriage return.
        private static func isWhitespace(_ byte: UInt8) -> Bool {
            byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
        }

        private static func digit(_ byte: UInt8) -> UInt8? {
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) ? byte - UInt8(ascii: "0") : nil
        }

        private static func hexDigit(_ byte: UInt8) -> UInt8? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
            default: nil
            }
        }
    }
}
