import AsyncHTTPClient
import ConstellationModel
import Foundation
import NIOCore

extension ConstellationClient {
    /// My new connections as they are made (`GET /v1/me/stream`): someone scanned my code. A cut
    /// stream is opened again after two seconds and resumes after the last connection received; a
    /// refusal (no key, a revoked one) ends the sequence with its `ClientError`.
    public func newConnections() -> AsyncThrowingStream<Connection, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                var lastId: String?
                while !Task.isCancelled {
                    do {
                        try await streamConnections(after: lastId) { connection in
                            lastId = String(connection.id)
                            continuation.yield(connection)
                        }
                    } catch let error as ClientError {
                        if case .problem(let problem) = error, problem.status < 500 { return continuation.finish(throwing: error) }
                    } catch {
                        // Cut (a read timeout between keep-alives, the server restarting): come back.
                    }
                    try? await Task.sleep(for: .seconds(2))
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// One stream of my connections, until it ends: each to `receive`.
    private func streamConnections(after lastId: String?, receive: (Connection) -> Void) async throws {
        var request = HTTPClientRequest(url: baseURL + "/v1/me/stream")
        if let apiKey { request.headers.add(name: "Authorization", value: "Bearer \(apiKey)") }
        request.headers.add(name: "Accept", value: "text/event-stream")
        if let lastId { request.headers.add(name: "Last-Event-ID", value: lastId) }
        let response = try await http.execute(request, timeout: .hours(24))
        guard response.status == .ok else {
            let body = try await response.body.collect(upTo: 64 * 1024)
            if let problem = try? JSONDecoder.constellation.decode(Problem.self, from: Data(buffer: body)) {
                throw ClientError.problem(problem)
            }
            throw ClientError.unexpectedResponse(status: Int(response.status.code), detail: String(buffer: body))
        }
        var parser = ServerSentEvents()
        for try await chunk in response.body {
            for event in parser.feed(String(buffer: chunk)) where event.name == "connection" {
                receive(try JSONDecoder.constellation.decode(Connection.self, from: Data(event.data.utf8)))
            }
        }
    }
}

/// The `text/event-stream` format, read as it arrives: events with their name, data and id.
/// Comments and `retry` are skipped.
package struct ServerSentEvents {
    package struct Event: Equatable {
        package var name = "message"
        package var id: String?
        package var data = ""
    }

    package init() {}

    private var pending = ""
    private var current = Event()

    /// The events that `text` completes.
    package mutating func feed(_ text: String) -> [Event] {
        pending += text
        var events: [Event] = []
        while let newline = pending.firstIndex(where: \.isNewline) {
            let line = String(pending[..<newline])
            pending = String(pending[pending.index(after: newline)...])
            if line.isEmpty {
                if !current.data.isEmpty || current.name != "message" { events.append(current) }
                current = Event()
            } else if let (field, value) = Self.field(line) {
                switch field {
                case "event": current.name = value
                case "id": current.id = value
                case "data": current.data += current.data.isEmpty ? value : "\n" + value
                default: break
                }
            }
        }
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
