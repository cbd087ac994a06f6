import ConstellationModel
import Foundation

extension ConstellationClient {
    /// My new connections as they are made (`GET /v1/me/stream`): someone scanned my code. A cut
    /// stream is opened again after two seconds and resumes where it stood, after the last event
    /// with an id (the hello's, or the last connection's), so that nothing made while it was cut
    /// is missed; a refusal (no key, a revoked one) ends the sequence with its `ClientError`. The
    /// server sends something at least every 40 s: a stream silent for 45 s is taken as cut.
    public func newConnections() -> AsyncThrowingStream<Connection, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                var lastId: String?
                while !Task.isCancelled {
                    do {
                        try await streamEvents(after: lastId) { event in
                            if event.name == "connection" {
                                continuation.yield(try JSONDecoder.constellation.decode(Connection.self, from: Data(event.data.utf8)))
                            }
                            if let id = event.id { lastId = id }
                        }
                    } catch let error as ClientError {
                        if case .problem(let problem) = error, problem.status < 500 { return continuation.finish(throwing: error) }
                    } catch {
                        // Cut (a read timeout, the server restarting): come back.
                    }
                    try? await Task.sleep(for: .seconds(2))
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// One stream of my events, until it ends: each to `receive`.
    private func streamEvents(after lastId: String?, receive: (ServerSentEvents.Event) throws -> Void) async throws {
        var request = HTTPRequest(method: "GET", url: baseURL + "/v1/me/stream", longestSilence: .seconds(45))
        if let apiKey { request.headers.append(("Authorization", "Bearer \(apiKey)")) }
        request.headers.append(("Accept", "text/event-stream"))
        if let lastId { request.headers.append(("Last-Event-ID", lastId)) }
        var status = 0
        var refusal: [UInt8] = []
        var parser = ServerSentEvents()
        for try await part in transport.stream(request) {
            switch part {
            case .head(let head): status = head.status
            case .bytes(let bytes) where status == 200:
                for event in parser.feed(bytes) { try receive(event) }
            case .bytes(let bytes):
                refusal += bytes.prefix(64 * 1024 - refusal.count)
            }
        }
        guard status == 200 else {
            if let problem = try? JSONDecoder.constellation.decode(Problem.self, from: Data(refusal)) { throw ClientError.problem(problem) }
            throw ClientError.unexpectedResponse(status: status, detail: String(decoding: refusal, as: UTF8.self))
        }
    }
}

/// The `text/event-stream` format, read as its bytes arrive: events with their name, data and
/// id. A chunk may end anywhere, inside a line or inside a character: lines are decoded whole.
/// Lines end with LF or CRLF; comments and `retry` are skipped.
package struct ServerSentEvents {
    package struct Event: Equatable {
        package var name = "message"
        package var id: String?
        package var data = ""

        package init(name: String = "message", id: String? = nil, data: String = "") {
            self.name = name
            self.id = id
            self.data = data
        }
    }

    package init() {}

    private var pending: [UInt8] = []
    private var current = Event()

    /// The events that `bytes` completes.
    package mutating func feed(_ bytes: some Sequence<UInt8>) -> [Event] {
        pending.append(contentsOf: bytes)
        var events: [Event] = []
        var start = 0
        while let newline = pending[start...].firstIndex(of: UInt8(ascii: "\n")) {
            var line = pending[start..<newline]
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            start = newline + 1
            if line.isEmpty {
                if !current.data.isEmpty || current.name != "message" { events.append(current) }
                current = Event()
            } else if let (field, value) = Self.field(String(decoding: line, as: UTF8.self)) {
                switch field {
                case "event": current.name = value
                case "id": current.id = value
                case "data": current.data += current.data.isEmpty ? value : "\n" + value
                default: break
                }
            }
        }
        pending.removeFirst(start)
        return events
    }

    /// `field: value` (one space after the colon dropped); nil for a comment.
    private static func field(_ line: String) -> (String, String)? {
        guard !line.hasPrefix(":") else { return nil }
        guard let colon = line.firstIndex(of: ":") else { return (line, "") }
        var value = line[line.index(after: colon)...]
        if value.first == " " { value = value.dropFirst() }
        return (String(line[..<colon]), String(value))
    }
}
