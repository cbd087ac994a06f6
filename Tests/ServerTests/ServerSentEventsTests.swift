import Client
import Testing

/// The clients' reader of `text/event-stream`: events come whole, however the bytes are cut.
@Suite struct ServerSentEventsTests {
    typealias Event = ServerSentEvents.Event

    /// A stream as the server writes it, fed in chunks of every size, each cut at every point of
    /// a line and of a character: a name of four scripts reads back whole, and ids and names are kept.
    @Test func eventsComeWholeWhereverTheBytesAreCut() {
        let stream = Array(
            ("retry: 2000\n\nid: 7\nevent: hello\ndata: {\"id\":7}\n\n: keep-alive\n\n"
                + "id: 8\r\nevent: connection\r\ndata: Zoë 陈 🎉 Ωмега\r\n\r\n").utf8)
        let expected = [
            Event(name: "hello", id: "7", data: "{\"id\":7}"),
            Event(name: "connection", id: "8", data: "Zoë 陈 🎉 Ωмега"),
        ]
        for size in 1...stream.count {
            var parser = ServerSentEvents()
            var events: [Event] = []
            for start in stride(from: 0, to: stream.count, by: size) {
                events += parser.feed(stream[start..<min(start + size, stream.count)])
            }
            #expect(events == expected, "in chunks of \(size) bytes")
        }
    }

    /// `data` over several lines joins them with newlines; an event is given only at its blank line.
    @Test func dataLinesJoinAndAnEventWaitsForItsBlankLine() {
        var parser = ServerSentEvents()
        #expect(parser.feed("event: changed\ndata: one\ndata: two\n".utf8).isEmpty)
        #expect(parser.feed("\n".utf8) == [Event(name: "changed", id: nil, data: "one\ntwo")])
    }
}
