import ConstellationModel
import Foundation
import NIOHTTP1

/// A typed client for the Constellation API, used by the CLI and the tests.
public struct ConstellationClient: Sendable {
    public let baseURL: String
    public let apiKey: String?
    let transport: HTTPTransport
    private let timeout: Duration
    /// Hears the server's release (`Constellation-Version`) from each answer that carries it.
    private let serverVersion: (@Sendable (String) -> Void)?

    /// - Parameters:
    ///   - baseURL: e.g. `http://127.0.0.1:8080`
    ///   - apiKey: the key from `register`; nil for public calls only.
    ///   - transport: how to reach the server (which authorities to trust).
    ///   - timeout: the most a call may take, its answer read.
    ///   - serverVersion: hears the server's release from each answer that carries it.
    public init(
        baseURL: String, apiKey: String? = nil, transport: HTTPTransport = HTTPTransport(), timeout: Duration = .seconds(10),
        serverVersion: (@Sendable (String) -> Void)? = nil
    ) {
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.apiKey = apiKey
        self.transport = transport
        self.timeout = timeout
        self.serverVersion = serverVersion
    }

    /// The same server with another key.
    public func authenticated(_ apiKey: String) -> ConstellationClient {
        ConstellationClient(baseURL: baseURL, apiKey: apiKey, transport: transport, timeout: timeout, serverVersion: serverVersion)
    }

    // MARK: - Calls

    public func health() async throws(ClientError) -> Bool {
        try await send(.GET, "/health").status == 200
    }

    /// Whether the server is ready to serve (`GET /ready`: its database answers, its migrations are
    /// current, its signing key is loaded), and what it said.
    public func ready() async throws(ClientError) -> (isReady: Bool, said: String) {
        do {
            let response = try await send(.GET, "/ready")
            return (true, String(decoding: response.body, as: UTF8.self))
        } catch .unexpectedResponse(status: 503, let said) {
            // Not ready: a readiness document, not a problem.
            return (false, said)
        }
    }

    public func register(_ profile: NewProfile) async throws(ClientError) -> RegisteredProfile {
        try await decode(send(.POST, "/v1/profiles", body: profile))
    }

    public func me() async throws(ClientError) -> Profile {
        try await decode(send(.GET, "/v1/me"))
    }

    public func updateMe(_ changes: ProfileChanges) async throws(ClientError) -> Profile {
        try await decode(send(.PATCH, "/v1/me", body: changes))
    }

    /// My contact card, every entry with who sees it.
    public func card() async throws(ClientError) -> ContactCard {
        try await taggedCard().card
    }

    /// My contact card and its ETag, for `replaceCard(_:ifMatch:)`.
    public func taggedCard() async throws(ClientError) -> (card: ContactCard, etag: String?) {
        let response = try await send(.GET, "/v1/me/card")
        return (try decode(response), response.header("ETag"))
    }

    /// Replaces my contact card as a whole; with `ifMatch` (an ETag from `taggedCard`), only if it
    /// is still that card (else the problem `card_changed`, 412).
    public func replaceCard(_ card: ContactCard, ifMatch etag: String? = nil) async throws(ClientError) -> ContactCard {
        try await decode(send(.PUT, "/v1/me/card", body: card, headers: etag.map { [("If-Match", $0)] } ?? []))
    }

    public func profile(id: UUID) async throws(ClientError) -> Profile {
        try await decode(send(.GET, "/v1/profiles/\(id.uuidString.lowercased())"))
    }

    public func keys() async throws(ClientError) -> KeySet {
        try await decode(send(.GET, "/v1/keys"))
    }

    /// A fresh token; with `event` (an event's id or slug, of which I am a member), a token for that event.
    public func issueToken(event: String? = nil) async throws(ClientError) -> IssuedToken {
        guard let event else { return try await decode(send(.POST, "/v1/tokens")) }
        return try await decode(send(.POST, "/v1/tokens", body: TokenRequest(eventId: event)))
    }

    /// A fresh token as a QR image: `svg`, `png` or `txt`; with `event`, a token for that event.
    public func qr(format: String, event: String? = nil) async throws(ClientError) -> [UInt8] {
        try await send(.GET, "/v1/me/qr?format=\(format)" + (event.map { "&event=\(Self.escaped($0))" } ?? "")).body
    }

    // MARK: Events

    /// Creates an event and makes me its organizer; the answer holds the join code, shown this once.
    public func createEvent(_ event: NewEvent) async throws(ClientError) -> CreatedEvent {
        try await decode(send(.POST, "/v1/events", body: event))
    }

    /// An event's public fields, by id or slug.
    public func event(_ event: String) async throws(ClientError) -> Event {
        try await taggedEvent(event).event
    }

    /// An event's public fields and their ETag, for `changeEvent(_:_:ifMatch:)`.
    public func taggedEvent(_ event: String) async throws(ClientError) -> (event: Event, etag: String?) {
        let response = try await send(.GET, "/v1/events/\(Self.escaped(event))")
        return (try decode(response), response.header("ETag"))
    }

    /// Changes an event I organize, if it is still the version `etag` (from `taggedEvent`) names:
    /// else the problem `event_changed` (412), another organizer having changed it since.
    public func changeEvent(_ event: String, _ changes: EventChangeRequest, ifMatch etag: String) async throws(ClientError) -> Event {
        try await decode(send(.PATCH, "/v1/events/\(Self.escaped(event))", body: changes, headers: [("If-Match", etag)]))
    }

    /// A page of my events, the latest start first, with my role in each (`limit` 1 to 200, the
    /// server's 50 unless given; `cursor`, the last page's `nextCursor`).
    public func myEvents(limit: Int? = nil, cursor: String? = nil) async throws(ClientError) -> MyEvents {
        try await page("/v1/me/events", limit: limit, cursor: cursor)
    }

    /// Every event I belong to, page after page.
    public func allMyEvents() async throws(ClientError) -> [MyEvent] {
        try await everyPage("/v1/me/events")
    }

    /// A page of the list at `path` (`limit` 1 to 200, the server's 50 unless given; `cursor`, the
    /// last page's `nextCursor`).
    private func page<Item: Codable & Sendable & Equatable>(_ path: String, limit: Int?, cursor: String?) async throws(ClientError) -> Page<
        Item
    > {
        let query = [limit.map { "limit=\($0)" }, cursor.map { "cursor=\(Self.escaped($0))" }].compactMap { $0 }.joined(separator: "&")
        return try await decode(send(.GET, path + (query.isEmpty ? "" : "?" + query)))
    }

    /// Every item of the list at `path`, page after page.
    private func everyPage<Item: Codable & Sendable & Equatable>(_ path: String) async throws(ClientError) -> [Item] {
        var items: [Item] = []
        var cursor: String?
        repeat {
            let page: Page<Item> = try await page(path, limit: 200, cursor: cursor)
            items += page.items
            cursor = page.nextCursor
        } while cursor != nil
        return items
    }

    /// Invites `profile` to organize `event` (I must organize it): the invitation they must accept,
    /// or nil when they organize it already.
    public func inviteOrganizer(_ profile: UUID, to event: String) async throws(ClientError) -> OrganizerInvitation? {
        let response = try await send(.POST, "/v1/events/\(Self.escaped(event))/organizers", body: NewOrganizer(profileId: profile))
        return response.status == 202 ? try decode(response) : nil
    }

    /// A page of the invitations to organize an event that wait for my answer, newest first.
    public func invitations(limit: Int? = nil, cursor: String? = nil) async throws(ClientError) -> OrganizerInvitationList {
        try await page("/v1/me/invitations", limit: limit, cursor: cursor)
    }

    /// Every invitation to organize an event that waits for my answer, page after page.
    public func allInvitations() async throws(ClientError) -> [OrganizerInvitation] {
        try await everyPage("/v1/me/invitations")
    }

    /// Accepts my invitation to organize `event`: my membership, now an organizer's.
    public func acceptInvitation(to event: String) async throws(ClientError) -> EventMember {
        try await decode(send(.POST, "/v1/me/invitations/\(Self.escaped(event))"))
    }

    /// Declines my invitation to organize `event`.
    public func declineInvitation(to event: String) async throws(ClientError) {
        _ = try await send(.DELETE, "/v1/me/invitations/\(Self.escaped(event))")
    }

    /// `event`'s organizers (I must organize it).
    public func organizers(of event: String) async throws(ClientError) -> EventOrganizerList {
        try await decode(send(.GET, "/v1/events/\(Self.escaped(event))/organizers"))
    }

    /// A new invitation link to organize `event`, used once by whoever holds it (I must organize it).
    public func createInvitationLink(to event: String) async throws(ClientError) -> IssuedInvitationLink {
        try await decode(send(.POST, "/v1/events/\(Self.escaped(event))/invitation-links"))
    }

    /// What waits for an answer to organize `event`: links and invitations by profile id.
    public func pendingInvitations(to event: String) async throws(ClientError) -> EventInvitations {
        try await decode(send(.GET, "/v1/events/\(Self.escaped(event))/invitations"))
    }

    /// Withdraws `event`'s invitation link `id` while it waits for an answer.
    public func withdrawInvitationLink(_ id: UUID, of event: String) async throws(ClientError) {
        _ = try await send(.DELETE, "/v1/events/\(Self.escaped(event))/invitation-links/\(id)")
    }

    /// Withdraws the invitation to organize `event` made to `profile`.
    public func withdrawInvitation(to event: String, of profile: UUID) async throws(ClientError) {
        _ = try await send(.DELETE, "/v1/events/\(Self.escaped(event))/invitations/\(profile)")
    }

    /// What an invitation code (or the link holding it) invites to, while it waits for an answer.
    public func lookAtInvitation(_ code: String) async throws(ClientError) -> InvitationPreview {
        try await decode(send(.POST, "/v1/invitation-links/look", body: InvitationCode(code: code)))
    }

    /// Accepts an invitation code (or link): my membership, an organizer's.
    public func acceptInvitationLink(_ code: String) async throws(ClientError) -> EventMember {
        try await decode(send(.POST, "/v1/invitation-links/accept", body: InvitationCode(code: code)))
    }

    /// Declines an invitation code (or link): it is used up.
    public func declineInvitationLink(_ code: String) async throws(ClientError) {
        _ = try await send(.POST, "/v1/invitation-links/decline", body: InvitationCode(code: code))
    }

    /// I stop organizing `event` and stay an attendee; the view links I made stop working.
    public func stepDown(from event: String) async throws(ClientError) -> EventMember {
        try await decode(send(.DELETE, "/v1/events/\(Self.escaped(event))/organizers/me"))
    }

    /// I leave `event` (an attendee): my membership, my choices and its pairs I am in go; my connections stay.
    public func leave(_ event: String) async throws(ClientError) {
        _ = try await send(.DELETE, "/v1/events/\(Self.escaped(event))/me")
    }

    /// When `event`'s personal data goes, and the dates it may move between (I must organize it).
    public func purgeDate(of event: String) async throws(ClientError) -> PurgeDate {
        try await decode(send(.GET, "/v1/events/\(Self.escaped(event))/purge-date"))
    }

    /// Moves `event`'s purge date (I must organize it).
    public func movePurgeDate(of event: String, to date: Date) async throws(ClientError) -> PurgeDate {
        try await decode(send(.PUT, "/v1/events/\(Self.escaped(event))/purge-date", body: NewPurgeDate(purgeOn: date)))
    }

    /// Purges `event` now (I must organize it; its end and the offline grace must have passed):
    /// `slug` confirms what goes. The event as it is now.
    public func purge(_ event: String, confirming slug: String) async throws(ClientError) -> Event {
        try await decode(send(.POST, "/v1/events/\(Self.escaped(event))/purge", body: PurgeRequest(confirm: slug)))
    }

    /// What `event` leaves behind: its figures and growth in buckets of `bucket` (I must organize it).
    public func record(of event: String, bucket: String = "1h") async throws(ClientError) -> EventRecord {
        try await decode(send(.GET, "/v1/events/\(Self.escaped(event))/record?bucket=\(Self.escaped(bucket))"))
    }

    /// `event`'s report, the HTML page to print or save as PDF (I must organize it), with its words in `language` (en or de).
    public func report(of event: String, language: String = "en") async throws(ClientError) -> [UInt8] {
        try await send(.GET, "/v1/events/\(Self.escaped(event))/report?lang=\(Self.escaped(language))").body
    }

    /// `event`'s join code now and its join link (I must organize it, or hold its view token).
    public func joinCode(of event: String) async throws(ClientError) -> EventJoinCode {
        try await decode(send(.GET, "/v1/events/\(Self.escaped(event))/join-code"))
    }

    /// Replaces `event`'s join code (I must organize it); the old code stops working.
    public func rotateJoinCode(of event: String) async throws(ClientError) -> EventJoinCode {
        try await decode(send(.POST, "/v1/events/\(Self.escaped(event))/join-code"))
    }

    /// Joins `event` as an attendee with its join code.
    public func joinEvent(_ event: String, code: String) async throws(ClientError) -> MyEvent {
        try await decode(send(.POST, "/v1/events/\(Self.escaped(event))/join", body: JoinRequest(code: code)))
    }

    /// How organizers see me at `event` (I must be a member): by name, or by a pseudonym (the default).
    public func setEventVisibility(_ visibility: EventVisibility, at event: String) async throws(ClientError) -> EventPrivacy {
        try await decode(send(.PATCH, "/v1/events/\(Self.escaped(event))/me", body: EventVisibilityChange(visibility)))
    }

    /// A view token for `event`'s live page (I must organize it); `wall` for a projector's link, pseudonyms
    /// only; `screens`, on how many screens at once it may be open (the server's 4 unless given).
    public func issueViewToken(for event: String, wall: Bool = false, screens: Int? = nil) async throws(ClientError) -> IssuedViewToken {
        try await decode(
            send(.POST, "/v1/events/\(Self.escaped(event))/view-tokens", body: ViewTokenRequest(wall: wall ? true : nil, screens: screens)))
    }

    /// `event`'s live view links, newest first (I must organize it).
    public func viewLinks(of event: String) async throws(ClientError) -> ViewLinkList {
        try await decode(send(.GET, "/v1/events/\(Self.escaped(event))/view-tokens"))
    }

    /// Moves view link `id` of `event` to expire at `until` (at most its `longestUntil`): the link as it now is.
    public func extendViewLink(_ id: UUID, of event: String, until: Date) async throws(ClientError) -> ViewLink {
        try await decode(send(.PATCH, "/v1/events/\(Self.escaped(event))/view-tokens/\(id)", body: ViewLinkChange(expiresAt: until)))
    }

    /// Revokes view link `id` of `event`, or every live one with nil: how many were revoked.
    public func revokeViewLinks(of event: String, id: UUID? = nil) async throws(ClientError) -> Int {
        guard let id else {
            return try await (decode(send(.DELETE, "/v1/events/\(Self.escaped(event))/view-tokens")) as ViewLinksRevoked).revoked
        }
        _ = try await send(.DELETE, "/v1/events/\(Self.escaped(event))/view-tokens/\(id)")
        return 1
    }

    /// The event's whole network laid out, with pseudonymous ids (I must organize it).
    /// `asWall`: as the event's walls show it to the room (by name only those who chose it).
    public func eventNetwork(_ event: String, asWall: Bool = false) async throws(ClientError) -> EventNetwork {
        try await decode(send(.GET, "/v1/events/\(Self.escaped(event))/network" + (asWall ? "?view=wall" : "")))
    }

    /// The event's network as a file: `json`, `gexf` (dynamic), `graphml`, `csv`, `graphology` or `cytoscape` (I must organize it).
    public func exportEventNetwork(_ event: String, format: String) async throws(ClientError) -> [UInt8] {
        try await send(
            .GET, "/v1/events/\(Self.escaped(event))/network?format=\(Self.escaped(format))", limit: Self.largestExport, within: exportTime
        ).body
    }

    /// The most an export may hold (an event of the server's largest size, 100,000 people, as
    /// GEXF; a person's data): other answers are at most 16 MiB.
    static let largestExport = 1 << 30

    /// How long an export may take to arrive: the timeout, but at least ten minutes (a large one
    /// is made, then sent, for longer than an answer is waited for).
    var exportTime: Duration { max(timeout, .seconds(600)) }

    /// Statistics of the event's network as JSON (`graph stats --json`'s shape; I must organize it).
    public func eventNetworkStats(_ event: String) async throws(ClientError) -> [UInt8] {
        try await send(.GET, "/v1/events/\(Self.escaped(event))/network/stats").body
    }

    /// Redeems a scanned token; `created` in the answer tells a new connection from an existing one.
    public func redeem(_ request: RedeemRequest) async throws(ClientError) -> Redemption {
        try await decode(send(.POST, "/v1/connections", body: request))
    }

    /// A page of my connections, newest first; `search` finds text in names, headlines and my notes
    /// and tags, `tag` one of my tags, `event` an event (id or slug) where we met.
    public func connections(
        limit: Int? = nil, cursor: String? = nil, search: String? = nil, tag: String? = nil, event: String? = nil
    ) async throws(ClientError) -> ConnectionPage {
        var query: [String] = []
        if let limit { query.append("limit=\(limit)") }
        if let cursor { query.append("cursor=\(Self.escaped(cursor))") }
        if let search { query.append("q=\(Self.escaped(search))") }
        if let tag { query.append("tag=\(Self.escaped(tag))") }
        if let event { query.append("event=\(Self.escaped(event))") }
        return try await decode(send(.GET, "/v1/me/connections" + (query.isEmpty ? "" : "?" + query.joined(separator: "&"))))
    }

    /// Every connection of mine as a file: `csv` (RFC 4180) or `vcard` (RFC 6350), UTF-8.
    public func exportConnections(format: String) async throws(ClientError) -> [UInt8] {
        try await send(
            .GET, "/v1/me/connections?format=\(format.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")",
            limit: Self.largestExport, within: exportTime
        ).body
    }

    /// Removes my connection with `profileId` (the redemptions that made it go too).
    public func disconnect(from profileId: UUID) async throws(ClientError) {
        _ = try await send(.DELETE, "/v1/me/connections/\(profileId.uuidString.lowercased())")
    }

    /// Sets my private note and/or tags on my connection with `profileId`.
    public func annotate(_ profileId: UUID, _ changes: ConnectionNoteChanges) async throws(ClientError) -> Connection {
        try await decode(send(.PATCH, "/v1/me/connections/\(profileId.uuidString.lowercased())", body: changes))
    }

    /// Blocks someone: our connection goes, and neither of us can connect with the other.
    @discardableResult
    public func block(_ profileId: UUID) async throws(ClientError) -> Block {
        try await decode(send(.POST, "/v1/me/blocks/\(profileId.uuidString.lowercased())"))
    }

    /// Lifts my block of someone (the connection it removed does not come back).
    public func unblock(_ profileId: UUID) async throws(ClientError) {
        _ = try await send(.DELETE, "/v1/me/blocks/\(profileId.uuidString.lowercased())")
    }

    /// A page of the people I blocked, most recent first.
    public func blocks(limit: Int? = nil, cursor: String? = nil) async throws(ClientError) -> BlockList {
        try await page("/v1/me/blocks", limit: limit, cursor: cursor)
    }

    /// Everyone I blocked, page after page.
    public func allBlocks() async throws(ClientError) -> [Block] {
        try await everyPage("/v1/me/blocks")
    }

    /// Revokes every token I have shown so far; tokens issued from the answer's instant on redeem.
    public func resetTokens() async throws(ClientError) -> TokenReset {
        try await decode(send(.POST, "/v1/me/qr/reset"))
    }

    /// All my data as the server's JSON document (`PersonalData`), byte for byte.
    public func exportPersonalData() async throws(ClientError) -> [UInt8] {
        try await send(.GET, "/v1/me/export", limit: Self.largestExport, within: exportTime).body
    }

    /// Erases my profile and everything that names it; my key stops working.
    public func deleteMe() async throws(ClientError) {
        _ = try await send(.DELETE, "/v1/me", body: DeletionConfirmation())
    }

    /// My network laid out: depth 1 is my connections, 2 adds theirs.
    public func network(depth: Int = 1) async throws(ClientError) -> Network {
        try await decode(send(.GET, "/v1/me/network?depth=\(depth)"))
    }

    // MARK: - Transport

    /// `text` as one path segment or query value: everything but RFC 3986's unreserved ASCII is escaped.
    static func escaped(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }

    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// A raw answer: status, body and headers.
    public struct RawResponse: Sendable {
        public let status: Int
        public let body: [UInt8]
        public let contentType: String?
        /// Every header, in the order received.
        public let headers: [(name: String, value: String)]

        /// The first value of the header `name` (case-insensitive).
        public func header(_ name: String) -> String? {
            headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
        }
    }

    /// Sends a request and returns the raw answer; a problem response becomes `ClientError.problem`.
    /// `body` is encoded as JSON; `rawBody` is sent as it is, as JSON unless `headers` give a `Content-Type`.
    /// An answer of more than `limit` bytes is refused, and one not whole `within` (the timeout
    /// unless said) given up on.
    public func send(
        _ method: HTTPMethod, _ path: String, body: (some Encodable & Sendable)? = Optional<String>.none,
        rawBody: [UInt8]? = nil, headers: [(String, String)] = [], limit: Int = 16 << 20, within: Duration? = nil
    ) async throws(ClientError) -> RawResponse {
        var request = HTTPRequest(method: method.rawValue, url: baseURL + path, deadline: within ?? timeout)
        if let apiKey { request.headers.append(("Authorization", "Bearer \(apiKey)")) }
        request.headers.append(("Accept", "application/json"))
        if let body {
            guard let data = try? JSONEncoder.constellation.encode(body) else {
                throw .unexpectedResponse(status: 0, detail: "cannot encode the request")
            }
            request.headers.append(("Content-Type", "application/json"))
            request.body = Array(data)
        } else if let rawBody {
            // Raw JSON, unless `headers` says it is something else.
            if !headers.contains(where: { $0.0.caseInsensitiveCompare("Content-Type") == .orderedSame }) {
                request.headers.append(("Content-Type", "application/json"))
            }
            request.body = rawBody
        }
        for (name, value) in headers { request.headers.append((name, value)) }

        let answer: (head: HTTPHead, body: [UInt8])
        do {
            answer = try await transport.perform(request, limit: limit)
        } catch {
            if error.answerTooLarge {
                throw .unexpectedResponse(status: 200, detail: "its answer is larger than the \(limit >> 20) MiB this client takes")
            }
            throw .unreachable(server: baseURL, reason: error.reason)
        }
        let raw = RawResponse(
            status: answer.head.status, body: answer.body,
            contentType: answer.head.headers.first { $0.name.caseInsensitiveCompare("Content-Type") == .orderedSame }?.value,
            headers: answer.head.headers)
        if let serverVersion, let version = raw.header(Release.header) { serverVersion(version) }
        guard (200..<300).contains(raw.status) else {
            if raw.status >= 400, let problem = try? JSONDecoder.constellation.decode(Problem.self, from: Data(raw.body)) {
                throw .problem(problem)
            }
            if (300..<400).contains(raw.status), let location = raw.header("Location") {
                // Not followed: a key is not sent on to wherever a redirect points.
                throw .unexpectedResponse(status: raw.status, detail: "it redirects to \(location); give the server's address as that")
            }
            throw .unexpectedResponse(status: raw.status, detail: String(decoding: raw.body.prefix(200), as: UTF8.self))
        }
        return raw
    }

    func decode<T: Decodable>(_ response: RawResponse) throws(ClientError) -> T {
        do {
            return try JSONDecoder.constellation.decode(T.self, from: Data(response.body))
        } catch {
            throw .unexpectedResponse(status: response.status, detail: "its answer is not the \(T.self) this client reads")
        }
    }
}
