/// A list answered as `{"items": [...]}`, so that fields can join it later without breaking clients.
public struct Items<Item: Codable & Sendable & Equatable>: Codable, Sendable, Equatable {
    public let items: [Item]

    public init(items: [Item]) {
        self.items = items
    }
}
