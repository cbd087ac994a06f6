import Store
import Testing

/// The connection pool's bookkeeping without a database or a clock: connections are numbers,
/// waiters names, and time the instants each test gives. Lending, waiting in order, handing a
/// returned connection or a freed slot over, deadlines, and closing.
@Suite struct PoolStateTests {
    typealias Pool = PoolState<Int, String>
    let start = ContinuousClock.now

    /// What a grant is, as text: `connection N` or `open`.
    static func text(_ grant: Pool.Grant?) -> String {
        switch grant {
        case .connection(let connection): "connection \(connection)"
        case .open: "open"
        case nil: "wait"
        }
    }

    @Test func itOpensUpToItsLimitThenLendsIdleConnectionsThenMakesCallersWait() {
        var pool = Pool(limit: 2)
        #expect(Self.text(pool.lease()) == "open")
        #expect(Self.text(pool.lease()) == "open")
        #expect(Self.text(pool.lease()) == "wait", "two open: the third waits")
        #expect(pool.checkin(1, healthy: true).handedTo == nil)
        #expect(Self.text(pool.lease()) == "connection 1")
        #expect(pool.statistics == PoolStatistics(inUse: 2, idle: 0, waiting: 0))
    }

    @Test func aReturnedConnectionGoesToTheFirstWaiter() {
        var pool = Pool(limit: 1)
        _ = pool.lease()
        pool.wait("ada", until: start + .seconds(1))
        pool.wait("bob", until: start + .seconds(2))
        let (dropped, handedTo) = pool.checkin(7, healthy: true)
        #expect(!dropped && handedTo?.0 == "ada" && Self.text(handedTo?.1) == "connection 7")
        #expect(pool.statistics == PoolStatistics(inUse: 1, idle: 0, waiting: 1))
    }

    /// A broken connection is dropped, and its slot goes to the first waiter to open another; with
    /// nobody waiting, the slot is given up (the next caller opens one).
    @Test func aBrokenConnectionsSlotGoesToTheFirstWaiterOrIsGivenUp() {
        var pool = Pool(limit: 1)
        _ = pool.lease()
        pool.wait("ada", until: start + .seconds(1))
        let (dropped, handedTo) = pool.checkin(7, healthy: false)
        #expect(dropped && handedTo?.0 == "ada" && Self.text(handedTo?.1) == "open")
        #expect(pool.open == 1, "ada opens in the slot")
        let again = pool.checkin(8, healthy: false)
        #expect(again.dropped && again.handedTo == nil)
        #expect(pool.open == 0 && Self.text(pool.lease()) == "open")
    }

    /// A connection that failed to open frees its slot the same way.
    @Test func aFailedOpeningFreesItsSlot() {
        var pool = Pool(limit: 1)
        _ = pool.lease()
        pool.wait("ada", until: start + .seconds(1))
        #expect(pool.slotFreed() == "ada")
        #expect(pool.slotFreed() == nil)
        #expect(pool.open == 0)
    }

    /// Deadlines come in order of arrival: the waiters past theirs are sent away, the others keep
    /// their place, and the next deadline is the first of those left.
    @Test func waitersPastTheirDeadlineAreSentAwayInOrder() {
        var pool = Pool(limit: 1)
        _ = pool.lease()
        pool.wait("ada", until: start + .seconds(1))
        pool.wait("bob", until: start + .seconds(2))
        pool.wait("cleo", until: start + .seconds(3))
        let early = pool.late(at: start + .milliseconds(500))
        #expect(early.late.isEmpty && early.next == start + .seconds(1))
        let (late, next) = pool.late(at: start + .seconds(2))
        #expect(late == ["ada", "bob"] && next == start + .seconds(3))
        #expect(pool.checkin(3, healthy: true).handedTo?.0 == "cleo")
        #expect(pool.late(at: start + .seconds(9)).next == nil)
    }

    /// Closing drops the idle connections and tells every waiter at once; a connection lent out
    /// is dropped when it comes back, and nothing is lent after.
    @Test func closingDropsTheIdleTellsTheWaitersAndDropsWhatComesBack() {
        var pool = Pool(limit: 3)
        _ = pool.lease()
        _ = pool.lease()
        _ = pool.checkin(1, healthy: true)
        _ = pool.lease()
        pool.wait("ada", until: start + .seconds(1))
        _ = pool.lease()
        #expect(pool.statistics == PoolStatistics(inUse: 3, idle: 0, waiting: 1))
        _ = pool.checkin(2, healthy: true)  // to ada
        _ = pool.checkin(3, healthy: true)  // idle
        let (idle, waiters) = pool.close()
        #expect(idle == [3] && waiters.isEmpty && pool.closed)
        let back = pool.checkin(2, healthy: true)
        #expect(back.dropped && back.handedTo == nil)
        #expect(pool.statistics == PoolStatistics(inUse: 1, idle: 0, waiting: 0))
    }
}
