/// Text produced in pieces and handed on about a megabyte at a time, so a million-node
/// document never sits in memory whole.
public final class TextSink {
    private var buffer = ""
    private let flush: (String) -> Void

    public init(_ flush: @escaping (String) -> Void) {
        self.flush = flush
    }

    static func += (sink: TextSink, text: String) {
        sink.buffer += text
        if sink.buffer.utf8.count >= 1 << 20 { sink.finish() }
    }

    /// Hands on whatever is left.
    public func finish() {
        guard !buffer.isEmpty else { return }
        flush(buffer)
        buffer = ""
    }
}
