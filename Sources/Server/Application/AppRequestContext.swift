import ConstellationModel
import Foundation
import Hummingbird
import NIOCore
import Store
import Tokens

/// The per-request context: Hummingbird's core storage, the client's address and the
/// authenticated profile.
public struct AppRequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The connection's peer.
    public let remoteAddress: SocketAddress?
    /// The client's address (the peer's, or behind a trusted proxy the forwarded one), set by
    /// `ClientAddressMiddleware`: what rate limits count by.
    public var clientAddress: String?
    /// Set by `AuthenticationMiddleware` on routes that require a key.
    public var profile: Profile?
    /// The device (API key) that authenticated, with `profile`.
    public var deviceId: UUID?
    /// The earliest `iat` the profile's new tokens may carry (its QR reset), with `profile`.
    public var tokensValidFrom: Date?
    /// Set by `AuthenticationMiddleware` instead of `profile` when the bearer is an organizer's
    /// view token: read access to one event (see `AppServices.requireEventReader`), nothing else.
    public var viewGrant: ViewClaims?
    /// With `viewGrant`: its link (the organizer who made it, how many screens it may light).
    public var viewLink: LiveViewLink?

    /// The connection, for `clientLeft`.
    private let channel: any Channel

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
        channel = source.channel
    }

    /// Completes when the client has gone: it closed its side of the connection (its FIN) or the
    /// connection closed. Not the channel's `closeFuture`: Hummingbird allows remote half-closure, so
    /// after a FIN that waits until the next write fails (`ClientDeparture`). A long answer (a live
    /// stream) stops then; an ordinary one is still written, as a half-closed client may wait for it.
    var clientLeft: EventLoopFuture<Void> { ClientDeparture.of(channel) }

    /// Whether the connection has closed: graph work waiting for its turn is dropped then.
    var clientIsGone: @Sendable () -> Bool { { [channel] in !channel.isActive } }

    /// Request bodies are small JSON documents.
    public var maxUploadSize: Int { 64 * 1024 }

    /// JSON bodies, read as the API accepts them (see `JSONBody`).
    public var requestDecoder: JSONBody { JSONBody() }

    /// The device (API key) that authenticated; only with `profile`.
    func requireDevice() throws -> UUID {
        _ = try requireProfile()
        guard let deviceId else { throw Problem.missingCredentials }
        return deviceId
    }

    /// The authenticated profile; only called on routes behind `AuthenticationMiddleware`.
    /// A view token has none: 403 `view_token_read_only` on every route but the event reader's.
    func requireProfile() throws -> Profile {
        if viewGrant != nil { throw Problem.viewTokenReadOnly }
        guard let profile else { throw Problem.missingCredentials }
        return profile
    }
}
