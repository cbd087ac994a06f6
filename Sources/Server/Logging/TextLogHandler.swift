import Logging

/// Log lines as text on stderr, exactly as swift-log's `StreamLogHandler` writes them, with the
/// handler's metadata handed to it only when a line is written: `StreamLogHandler` formats its
/// metadata each time it changes, and every request sets its id in it, which cost a minted token
/// more than its JSON.
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

    public var metadataProvider: Logger.MetadataProvider? {
        get { stream.metadataProvider }
        set { stream.metadataProvider = newValue }
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var stream = stream
        stream.metadata = metadata  // formatted here, once per line written
        stream.log(event: event)
    }
}
