import ConstellationModel
import Foundation
import Graph
import Hummingbird
import NIOCore
import Store

/// An attendee's control over their own data: blocks, resetting their codes, exporting everything
/// and erasing themselves (a connection is removed by `ConnectionController`). Each acts on the
/// caller's own data only: there is no path to anyone else's.
struct PrivacyController {
    let services: AppServices
    /// The graph caches, quota and threads, built once with the other services.
    var work: GraphWork { services.graphWork }

    func addAuthenticatedRoutes(to group: RouterGroup<AppRequestContext>) {
        group.get("me/blocks", use: listBlocks)
        group.post("me/blocks/:profileId", use: block)
        group.delete("me/blocks/:profileId", use: unblock)
        group.post("me/qr/reset", use: resetTokens)
        group.get("me/export", use: export)
        group.delete("me", use: erase)
    }

    static let unknownProfile = Problem(.unknownProfile)
    static let notBlocked = Problem(.notBlocked)

    /// Blocks a person: 201 with the block, or 200 when it existed already; our connection goes.
    @Sendable func block(_ request: Request, context: AppRequestContext) async throws -> Response {
        let me = try context.requireProfile()
        guard let peer = context.parameters.get("profileId").flatMap(UUID.init(uuidString:)) else { throw Self.unknownProfile }
        let (block, created) = try await services.blocks.block(peer, by: me.id)
        if created { context.logger.info("profile blocked", metadata: ["profile.id": "\(me.id)"]) }
        return try .json(block, status: created ? .created : .ok)
    }

    /// Lifts a block: 204, or 404 `not_blocked`. The removed connection does not come back.
    @Sendable func unblock(_ request: Request, context: AppRequestContext) async throws -> Response {
        let me = try context.requireProfile()
        guard let peer = context.parameters.get("profileId").flatMap(UUID.init(uuidString:)),
            try await services.blocks.unblock(peer, by: me.id)
        else { throw Self.notBlocked }
        return Response(status: .noContent)
    }

    /// A page of the people I blocked, most recent first (`PageQuery`).
    @Sendable func listBlocks(_ request: Request, context: AppRequestContext) async throws -> Response {
        let me = try context.requireProfile()
        let page = try PageQuery(request.uri.queryParameters)
        let (blocks, next) = try await services.blocks.blocks(by: me.id, after: try page.cursor(PageCursor.init), limit: page.limit)
        return try .json(BlockList(items: blocks, nextCursor: next?.text))
    }

    /// Revokes every token I have shown so far; see `TokenReset` for the rule at the second.
    @Sendable func resetTokens(_ request: Request, context: AppRequestContext) async throws -> Response {
        let me = try context.requireProfile()
        guard let validFrom = try await services.profiles.resetTokens(of: me.id, at: Date()) else { throw Problem.invalidCredentials }
        services.credentials.forget(profile: me.id)
        context.logger.info("tokens reset", metadata: ["profile.id": "\(me.id)"])
        return try Response.json(TokenReset(tokensValidFrom: validFrom))
    }

    /// All my data as one JSON document, to be saved rather than shown or cached.
    @Sendable func export(_ request: Request, context: AppRequestContext) async throws -> Response {
        let me = try context.requireProfile()
        guard let data = try await services.personalData.export(of: me.id) else { throw Problem.invalidCredentials }
        var response = try Response.json(data)
        response.headers[.contentDisposition] = "attachment; filename=\"constellation-export.json\""
        return response
    }

    /// Erases me: profile, keys, connections, redemptions, token counts. Only with
    /// `{"confirm":"delete"}` as the body or `?confirm=delete`; otherwise 422 and nothing changes.
    @Sendable func erase(_ request: Request, context: AppRequestContext) async throws -> Response {
        let me = try context.requireProfile()
        var confirmation = request.uri.queryParameters.get("confirm")
        if confirmation == nil {
            confirmation = try await JSONBody.decodeIfPresent(DeletionConfirmation.self, from: request, context: context)?.confirm
        }
        guard confirmation == DeletionConfirmation.phrase else {
            throw Problem(
                .confirmationRequired,
                detail: "Send {\"confirm\":\"delete\"} as the body, or ?confirm=delete.")
        }
        guard try await services.profiles.erase(me.id) else { throw Problem.invalidCredentials }
        services.credentials.forget(profile: me.id)
        services.viewLinks.forget(nil)  // the links I made die with my profile
        await work.layouts.forget(profile: me.id)
        await work.storedPictures.forget(profile: me.id)
        await work.growth.forget(profile: me.id)
        await work.eventGraphs.forget(profile: me.id)
        await work.forgetShared(nil)
        let id = me.id.uuidString
        await work.statistics.forget { subject, statistics in
            subject.id == me.id || (statistics.topDegree + statistics.betweenness.top).contains { $0.id == id }
        }
        context.logger.info("profile erased", metadata: ["profile.id": "\(me.id)"])
        return Response(status: .noContent)
    }
}
