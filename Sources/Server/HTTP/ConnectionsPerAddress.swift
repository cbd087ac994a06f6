import Logging
import Synchronization

/// How many connections each client address holds open, and whether it may open another: at most
/// `limit` (`CONSTELLATION_MAX_CONNECTIONS_PER_ADDRESS`), so that one address cannot take the
/// descriptors everyone else needs. A trusted proxy's address is not counted: every client behind
/// it arrives from it, and the proxy bounds them itself (nginx's `limit_conn`). A refusal is
/// logged at most once a minute per address.
package final class ConnectionsPerAddress: Sendable {
    private struct State {
        var open: [String: Int] = [:]
        var lastLogged: [String: ContinuousClock.Instant] = [:]
    }

    package let limit: Int
    private let proxies: TrustedProxies
    private let state = Mutex(State())

    package init(limit: Int, proxies: TrustedProxies) {
        self.limit = limit
        self.proxies = proxies
    }

    /// Counts a new connection from `address` and returns true, or returns false (counting
    /// nothing) when the address holds `limit` already; logs the first refusal of each minute.
    func open(from address: String?, logger: Logger, now: ContinuousClock.Instant = .now) -> Bool {
        guard let address, !proxies.trusts(address) else { return true }
        let (admitted, log) = state.withLock { state -> (Bool, Bool) in
            let count = state.open[address, default: 0]
            guard count >= limit else {
                state.open[address] = count + 1
                return (true, false)
            }
            let due = state.lastLogged[address].map { now - $0 >= .seconds(60) } ?? true
            if due { state.lastLogged[address] = now }
            if state.lastLogged.count > 10_000 { state.lastLogged = state.lastLogged.filter { now - $0.value < .seconds(60) } }
            return (false, due)
        }
        if log {
            logger.warning(
                "connections refused: the address holds the most it may", metadata: ["client.address": "\(address)", "limit": "\(limit)"])
        }
        return admitted
    }

    /// A connection `open` counted has closed.
    func closed(from address: String?) {
        guard let address, !proxies.trusts(address) else { return }
        state.withLock { state in
            let count = state.open[address, default: 1] - 1
            state.open[address] = count > 0 ? count : nil
        }
    }

    /// How many connections `address` holds now.
    package func count(from address: String) -> Int { state.withLock { $0.open[address, default: 0] } }
}
