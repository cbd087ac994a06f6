import Store
import Tokens

/// What the routes stand on, assembled once per server.
public struct AppServices: Sendable {
    public let configuration: ServerConfiguration
    public let database: Database
    public let keyRing: KeyRing
    package let profiles: ProfileRepository
    package let connections: ConnectionRepository
    package let personalData: PersonalDataRepository
    package let events: EventRepository
    package let blocks: BlockRepository

    public init(configuration: ServerConfiguration, database: Database, keyRing: KeyRing) {
        self.configuration = configuration
        self.database = database
        self.keyRing = keyRing
        profiles = ProfileRepository(database: database)
        connections = ConnectionRepository(database: database)
        personalData = PersonalDataRepository(database: database)
        events = EventRepository(database: database)
        blocks = BlockRepository(database: database)
    }
}
