import ConstellationModel
import Foundation
import Hummingbird
import Store
import Tokens

/// Connections: made by redeeming a scanned token; mine listed (JSON pages, searched and filtered,
/// CSV, vCard), each with my note and tags, and removed by either of us.
struct ConnectionController {
    let services: AppServices
    /// How far in the future an offline scan time may lie (clock skew between phone and server).
    static let scanClockSkew: TimeInterval = 120
    /// A client's nonce for an offline scan: 1 to 64 visible characters.
    static let nonceText = UserText(field: "clientNonce", minimum: 1, maximum: 64, tidies: false)

    func addAuthenticatedRoutes(to group: RouterGroup<AppRequestContext>) {
        group.post("connections", use: redeem)
        group.get("me/connections", use: list)
        group.patch("me/connections/:profileId", use: annotate)
        group.delete("me/connections/:profileId", use: disconnect)
    }

    @Sendable func redeem(_ request: Request, context: AppRequestContext) async throws -> Response {
        let scanner = try context.requireProfile()
        try services.limiter.admit(.redeem, credential: scanner.id, address: context.clientAddress)
        let input = try await request.decode(as: RedeemRequest.self, context: context)
        guard input.token.utf8.count <= 2048 else { throw Problem(.malformedToken, detail: "the token is too long") }
        let nonce = try input.clientNonce.map(Self.nonceText.check)
        let now = Date()
        let scannedAt = input.scannedAt ?? now
        guard scannedAt <= now.addingTimeInterval(Self.scanClockSkew) else {
            throw InvalidDate(
                field: "scannedAt", expected: "a time that has come (a phone's clock may be \(Int(Self.scanClockSkew)) s ahead)")
        }
        // The token must have been valid when it was scanned (now, or offline earlier) …
        let claims = try await services.verifiedCode(input.token, validAtSomeMomentOf: scannedAt...scannedAt, now: now)
        // … and an offline scan must arrive within the grace window after the token expired.
        let grace = TimeInterval(services.configuration.offlineGrace.components.seconds)
        guard now <= claims.expiresAt.addingTimeInterval(grace) else {
            throw Problem(
                .offlineGraceExpired, detail: "It had to be synced within \(Int(grace)) s of the token's expiry.")
        }
        let redemption = try await services.connections.redeem(
            RedemptionRequest(
                tokenId: claims.tokenId, ownerId: claims.subject, scannerId: scanner.id, eventId: claims.eventId, issuedAt: claims.issuedAt,
                expiresAt: claims.expiresAt,
                scannedAt: scannedAt, clientNonce: nonce,
                maximumUses: claims.kind == .badge
                    ? services.configuration.maximumRedemptionsPerBadge : services.configuration.maximumRedemptionsPerToken,
                eventGrace: grace))
        services.metrics.tokenRedeemed(created: redemption.created)
        context.logger.info(
            "token redeemed",
            metadata: [
                "connection.id": "\(redemption.connection.id)", "connection.created": "\(redemption.created)",
            ])
        return .json(bytes: redemption.jsonBytes(), status: redemption.created ? .created : .ok)
    }

    /// `?limit=1…200` (default 50) and `?cursor=` from the previous page's `nextCursor`; `?q=` text
    /// in the person's name or headline or my note or tags, `?tag=` one of my tags, `?event=` an
    /// event (id or slug) where we met; `?format=csv|vcard`: every connection (or with `&peer=`,
    /// one) as a file instead (`exportConnections`).
    @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> Response {
        let me = try context.requireProfile()
        let query = request.uri.queryParameters
        if let format = query.get("format"), format != "json" {
            return try await exportConnections(format: format, peer: query.get("peer"), context: context)
        }
        guard query.get("peer") == nil else { throw Problem(.invalidPeer, detail: "peer goes with format=csv or format=vcard") }
        let page = try PageQuery(query)
        let cursor = try page.cursor { text in Int64(text).flatMap { $0 > 0 ? $0 : nil } }
        var filter = ConnectionFilter()
        filter.text = try query.get("q").flatMap { try Self.searchText.check($0) }.flatMap { $0.isEmpty ? nil : $0 }
        filter.tag = try query.get("tag").map(NoteFields.tagText.check)
        if let reference = query.get("event") {
            guard let found = try await services.events.event(EventReference(reference)) else { throw Problem.unknownEvent }
            filter.eventId = found.event.id
        }
        return try .json(try await services.connections.connections(of: me.id, before: cursor, limit: page.limit, filter: filter))
    }

    static let searchText = UserText(field: "q", minimum: 0, maximum: 100)

    /// My note and/or tags on my connection with `profileId`: 200 with the connection as I see it,
    /// 404 `not_connected` when we are not connected.
    @Sendable func annotate(_ request: Request, context: AppRequestContext) async throws -> Response {
        let me = try context.requireProfile()
        let changes = try await request.decode(as: ConnectionNoteChanges.self, context: context)
        guard changes.note != nil || changes.tags != nil else {
            throw Problem.validation("give note and/or tags", FieldError("", .required, fields: ["note", "tags"]))
        }
        let note: String?? = try changes.note.map(NoteFields.note)
        let tags = try changes.tags.map(NoteFields.tags)
        guard let peer = context.parameters.get("profileId").flatMap(UUID.init(uuidString:)),
            let connection = try await services.connections.annotate(connectionWith: peer, by: me.id, note: note, tags: tags)
        else { throw Self.notConnected }
        return try .json(connection)
    }

    static let notConnected = Problem(.notConnected)

    /// 204 when the connection is gone; 404 `not_connected` when there was none, including for an
    /// id that is not a profile id at all (no connection lives under such a path).
    @Sendable func disconnect(_ request: Request, context: AppRequestContext) async throws -> Response {
        let me = try context.requireProfile()
        guard let peer = context.parameters.get("profileId").flatMap(UUID.init(uuidString:)) else { throw Self.notConnected }
        guard try await services.connections.remove(between: me.id, and: peer) else { throw Self.notConnected }
        context.logger.info("connection removed", metadata: ["profile.id": "\(me.id)"])
        return Response(status: .noContent)
    }
}
