import Foundation
import Logging
import Synchronization

/// Log lines as JSON objects, one per line on stderr (`CONSTELLATION_LOG_FORMAT=json`), for a log
/// collector: `{"time","level","label","message",…metadata}`, metadata as strings (nested
/// dictionaries and arrays as JSON), keys sorted.
public struct JSONLogHandler: LogHandler {
    public var logLevel: Logger.Level = .info
    public var metadata: Logger.Metadata = [:]
    private let label: String
    private let write: @Sendable ([UInt8]) -> Void

    /// A handler for `label` writing each line with `write` (stderr by default).
    public init(label: String, write: @escaping @Sendable ([UInt8]) -> Void = JSONLogHandler.standardError) {
        self.label = label
        self.write = write
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var fields: [String: Any] = [:]
        for (key, value) in metadata.merging(event.metadata ?? [:], uniquingKeysWith: { $1 }) { fields[key] = Self.json(value) }
        fields["time"] = Date().formatted(Self.time)
        fields["level"] = event.level.rawValue
        fields["label"] = label
        fields["message"] = "\(event.message)"
        fields["source"] = event.source
        guard var line = try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys, .withoutEscapingSlashes]) else {
            return
        }
        line.append(0x0A)
        write(Array(line))
    }

    /// RFC 3339 in UTC with milliseconds.
    private static let time = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    private static func json(_ value: Logger.Metadata.Value) -> Any {
        switch value {
        case .string(let text): text
        case .stringConvertible(let convertible): convertible.description
        case .array(let values): values.map(json)
        case .dictionary(let values): values.mapValues(json)
        }
    }

    /// Writes whole lines to stderr, one writer at a time, so that lines never interleave.
    public static let standardError: @Sendable ([UInt8]) -> Void = { line in
        lock.withLock { _ in FileHandle.standardError.write(Data(line)) }
    }

    private static let lock = Mutex(())
}
