import Foundation
import Store

/// The last graph read of each event, so that the next read of it fetches only the pairs added
/// since (`EventRepository.graph(of:limit:since:)`): a request for a grown or unchanged event costs
/// a version check, its new pairs and its members' names, not all of its pairs again. Bounded by
/// the pairs held in all (about 50 bytes each): the least recently used graphs are forgotten first,
/// and a graph larger than the whole budget is not kept.
actor EventGraphCache {
    private struct Entry {
        let graph: EventGraph
        var lastUse: UInt64
    }

    private var entries: [UUID: Entry] = [:]
    private var held = 0
    private var clock: UInt64 = 0
    let pairBudget: Int
    private let events: EventRepository

    init(pairBudget: Int = 2_000_000, events: EventRepository) {
        self.pairBudget = pairBudget
        self.events = events
    }

    /// The event's graph as it is now; nil when more than `limit` people connected there.
    func graph(of event: UUID, limit: Int) async throws -> EventGraph? {
        clock += 1
        let read = clock
        guard let graph = try await events.graph(of: event, limit: limit, since: entries[event]?.graph) else {
            drop(event)
            return nil
        }
        // A read that started earlier and ended later does not replace a newer one.
        guard (entries[event]?.lastUse ?? 0) <= read else { return graph }
        drop(event)
        guard graph.pairs.count <= pairBudget else { return graph }
        entries[event] = Entry(graph: graph, lastUse: read)
        held += graph.pairs.count
        while held > pairBudget, let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse })?.key {
            drop(oldest)
        }
        return graph
    }

    /// Forgets every graph `profile` was in (its profile was erased: no id or name of it is kept).
    func forget(profile: UUID) {
        for (event, entry) in entries where entry.graph.people.contains(where: { $0.id == profile }) { drop(event) }
    }

    /// Forgets `event`'s graph.
    func forget(event: UUID) { drop(event) }

    private func drop(_ event: UUID) {
        guard let entry = entries.removeValue(forKey: event) else { return }
        held -= entry.graph.pairs.count
    }
}
