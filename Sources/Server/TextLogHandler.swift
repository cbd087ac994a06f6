import Logging

/// Log lines as text on stderr, as swift-log's `StreamLogHandler` writes them, with metadata
/// kept apart until a line is written: `StreamLogHandler` formats its metadata each time it
/// changes, and every request sets its id in it, which cost a minted token more than its JSON.
public struct TextLogHandler: LogHandler {
    private var stream: StreamLogHandler
    public var metadata: Logger.Metadata = [:]

    public init(label: String) {
        stream = StreamLogHandler.standardError(label: label)
    }

    public var logLevel: Logger.Level {
        get { stream.logLevel }
        set { stream.logLevel = newValue }
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var event = event
        if !metadata.isEmpty { event.metadata = metadata.merging(event.metadata ?? [:]) { $1 } }
        stream.log(event: event)
    }
}
