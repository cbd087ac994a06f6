import Foundation

/// Reads the committed test vectors (copied unmodified from their upstream repositories; see Vectors/*/README.md).
enum VectorFiles {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Vectors")

    static func load<T: Decodable>(_ relativePath: String, as type: T.Type = T.self) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(contentsOf: directory.appendingPathComponent(relativePath)))
    }
}

extension Array where Element == UInt8 {
    /// Bytes from a hex string, as the vector files write them.
    init(hex: String) {
        var bytes = [UInt8]()
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            bytes.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        self = bytes
    }
}
