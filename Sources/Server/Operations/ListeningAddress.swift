import Synchronization

/// The address the server listens on once it does (the port the system chose for port 0): the
/// base of the links its codes hold when no `CONSTELLATION_PUBLIC_URL` is set. Never a request's
/// `Host`, which any client may set.
package final class ListeningAddress: Sendable {
    private let port = Mutex<Int?>(nil)
    private let host: String
    private let configuredPort: Int

    init(host: String, port: Int) {
        self.host = host
        configuredPort = port
    }

    /// Called when the server listens.
    func listening(on port: Int) {
        self.port.withLock { $0 = port }
    }

    /// `http://HOST:PORT`, with an IPv6 host in brackets.
    var base: String {
        let port = port.withLock { $0 } ?? configuredPort
        return "http://\(host.contains(":") ? "[\(host)]" : host):\(port)"
    }
}
