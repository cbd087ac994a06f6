/// A list answered as `{"items": [...]}`, so that fields can join it later without breaking clients.
public struct Items<Item: Codable & Sendable & Equatable>: Codable, Sendable, Equatable {
    public let items: [Item]

    public init(items: [Item]) {
        self.items = items
    }
}

/// A page of a list that can grow without bound: `?limit=` (1 to 200, 50 unless given) items, and
/// `nextCursor` to send as `?cursor=` for the next page (absent on the last).
public struct Page<Item: Codable & Sendable & Equatable>: Codable, Sendable, Equatable {
    public let items: [Item]
    public let nextCursor: String?

    public init(items: [Item], nextCursor: String?) {
        self.items = items
        self.nextCursor = nextCursor
    }
}
