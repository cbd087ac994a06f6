/// Finds a key written twice in one JSON object. JSON allows it and parsers disagree on which value
/// wins (Foundation's takes the first, many take the last), so a proxy in front of the server could
/// read another request than the server does: the API refuses such a body. Keys are compared as
/// their escapes decode (`"a"` and `"\u0061"` are the same key). Malformed JSON is left to the decoder.
enum DuplicateKeys {
    /// The first key that appears twice in one object of `json`, or nil.
    static func first(in json: [UInt8]) -> String? {
        // One entry per open container: the keys seen so far in an object, nil for an array.
        var containers: [Set<String>?] = []
        var expectingKey = false
        var index = 0
        while index < json.count {
            switch json[index] {
            case UInt8(ascii: "{"):
                containers.append([])
                expectingKey = true
            case UInt8(ascii: "["):
                containers.append(nil)
                expectingKey = false
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if !containers.isEmpty { containers.removeLast() }
                expectingKey = false
            case UInt8(ascii: ","):
                expectingKey = containers.last.map { $0 != nil } ?? false
            case UInt8(ascii: "\""):
                if expectingKey, let last = containers.indices.last, containers[last] != nil {
                    guard let (key, end) = string(in: json, at: index) else { return nil }
                    guard containers[last]!.insert(key).inserted else { return key }
                    index = end
                } else {
                    // A value: skipped, not decoded (it is no key, and the decoder reads it anyway).
                    guard let end = endOfString(in: json, at: index) else { return nil }
                    index = end
                }
                expectingKey = false
                continue
            default:
                break
            }
            index += 1
        }
        return nil
    }

    /// The index after the closing quote of the string that starts with the quote at `start`.
    private static func endOfString(in json: [UInt8], at start: Int) -> Int? {
        var index = start + 1
        while index < json.count {
            switch json[index] {
            case UInt8(ascii: "\""): return index + 1
            case UInt8(ascii: "\\"): index += 2
            default: index += 1
            }
        }
        return nil
    }

    /// The string that starts with the quote at `start`, its escapes decoded, and the index after
    /// its closing quote; nil if it is not a well-formed JSON string.
    private static func string(in json: [UInt8], at start: Int) -> (String, Int)? {
        var utf8: [UInt8] = []
        var utf16: [UInt16] = []  // a run of \u escapes, decoded together (surrogate pairs)
        var index = start + 1
        func flushEscapes() {
            utf8 += Array(String(decoding: utf16, as: UTF16.self).utf8)
            utf16.removeAll()
        }
        while index < json.count {
            let byte = json[index]
            if byte == UInt8(ascii: "\"") {
                flushEscapes()
                return (String(decoding: utf8, as: UTF8.self), index + 1)
            }
            guard byte == UInt8(ascii: "\\") else {
                flushEscapes()
                utf8.append(byte)
                index += 1
                continue
            }
            guard index + 1 < json.count else { return nil }
            let escaped = json[index + 1]
            if escaped == UInt8(ascii: "u") {
                guard index + 6 <= json.count, let unit = UInt16(String(decoding: json[index + 2..<index + 6], as: UTF8.self), radix: 16)
                else { return nil }
                utf16.append(unit)
                index += 6
                continue
            }
            flushEscapes()
            switch escaped {
            case UInt8(ascii: "b"): utf8.append(0x08)
            case UInt8(ascii: "f"): utf8.append(0x0C)
            case UInt8(ascii: "n"): utf8.append(0x0A)
            case UInt8(ascii: "r"): utf8.append(0x0D)
            case UInt8(ascii: "t"): utf8.append(0x09)
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(escaped)
            default: return nil
            }
            index += 2
        }
        return nil
    }
}
