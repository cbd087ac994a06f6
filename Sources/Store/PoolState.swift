/// A connection pool's bookkeeping, without connections to open or callers to wake: what to lend
/// now, whom a returned connection or a freed slot goes to, who has waited past their deadline.
/// It decides and `ConnectionPool` does (behind its lock); tests drive it with instants of their
/// own, no database and no clock (`PoolStateTests`).
package struct PoolState<Connection, Waiter> {
    /// What a caller is given: a connection to use, or a slot to open one in.
    package enum Grant {
        case connection(Connection)
        case open
    }

    /// The most connections open at once, lent out, idle or being opened.
    package let limit: Int
    package private(set) var idle: [Connection] = []
    /// Connections open or being opened: each holds a slot until it is dropped.
    package private(set) var open = 0
    /// Callers waiting, in order of arrival (so of their deadlines, all waiting as long).
    package private(set) var waiters: [(deadline: ContinuousClock.Instant, waiter: Waiter)] = []
    package private(set) var closed = false

    package init(limit: Int) {
        precondition(limit > 0, "a pool needs at least one connection")
        self.limit = limit
    }

    /// An idle connection, else a slot to open one while fewer than `limit` are open; nil: wait.
    package mutating func lease() -> Grant? {
        if let connection = idle.popLast() { return .connection(connection) }
        guard open < limit else { return nil }
        open += 1
        return .open
    }

    /// `waiter` waits, in order, until `deadline` at most.
    package mutating func wait(_ waiter: Waiter, until deadline: ContinuousClock.Instant) {
        waiters.append((deadline, waiter))
    }

    /// A connection comes back: to the first waiter if any, else idle. A broken one, or any once
    /// the pool is closed, is dropped (`dropped`), and its slot goes to the first waiter to open
    /// another, or is given up.
    package mutating func checkin(_ connection: Connection, healthy: Bool) -> (dropped: Bool, handedTo: (Waiter, Grant)?) {
        guard healthy, !closed else { return (true, slotFreed().map { ($0, .open) }) }
        guard !waiters.isEmpty else {
            idle.append(connection)
            return (false, nil)
        }
        return (false, (waiters.removeFirst().waiter, .connection(connection)))
    }

    /// A slot freed (a connection that failed to open, or was dropped): the first waiter's, to
    /// open one in, or given up when nobody waits.
    package mutating func slotFreed() -> Waiter? {
        guard waiters.isEmpty else { return waiters.removeFirst().waiter }
        open -= 1
        return nil
    }

    /// The waiters whose deadline has come by `now`, sent away; the next deadline, if anyone still waits.
    package mutating func late(at now: ContinuousClock.Instant) -> (late: [Waiter], next: ContinuousClock.Instant?) {
        var late: [Waiter] = []
        while let first = waiters.first, first.deadline <= now { late.append(waiters.removeFirst().waiter) }
        return (late, waiters.first?.deadline)
    }

    /// Closes the pool: the idle connections to drop and the waiters to tell, now; connections
    /// lent out are dropped as they come back.
    package mutating func close() -> (idle: [Connection], waiters: [Waiter]) {
        closed = true
        open -= idle.count
        defer {
            idle.removeAll()
            waiters.removeAll()
        }
        return (idle, waiters.map(\.waiter))
    }

    package var statistics: PoolStatistics {
        PoolStatistics(inUse: open - idle.count, idle: idle.count, waiting: waiters.count)
    }
}

extension PoolState: Sendable where Connection: Sendable, Waiter: Sendable {}
extension PoolState.Grant: Sendable where Connection: Sendable {}

/// What a pool is doing at one moment (for `/metrics`).
public struct PoolStatistics: Sendable, Equatable {
    public let inUse: Int
    public let idle: Int
    public let waiting: Int

    package init(inUse: Int, idle: Int, waiting: Int) {
        self.inUse = inUse
        self.idle = idle
        self.waiting = waiting
    }
}
