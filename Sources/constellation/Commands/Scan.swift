import ArgumentParser
import Client
import ConstellationModel
import Foundation
import Tokens

struct Scan: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Connect with someone by scanning their QR code.",
        discussion: """
            Give the token, a URL that holds one, or `--image` with a photo of the code. \
            The token is checked against the server's published keys before it is sent. Without a network, \
            or while the server cannot record scans (its database failing over), a genuine token is kept in a \
            local queue and sent by `constellation sync` (or your next command).
            """
    )

    @OptionGroup var options: GlobalOptions

    @Argument(help: "The token (v4.public.…, or b1.… from a printed badge) or a URL that holds one.")
    var input: String?

    @Option(help: "A PNG or JPEG photo of the QR code.", completion: .file())
    var image: String?

    func validate() throws {
        guard (input == nil) != (image == nil) else { throw ValidationError("give a token or --image FILE (one of them)") }
    }

    /// What `scan --json` prints when the scan is queued offline.
    struct Queued: Encodable {
        let queued: Bool
        let clientNonce: String
    }

    func run() async throws {
        try await reportingErrors {
            let session = try Session(options: options)
            let token = try readToken()
            let (keys, unreachable) = try await session.verificationKeys()
            let claims: ConnectionClaims
            do {
                // A badge lasts as long as its event, whose end may have moved since it was printed: the server says.
                let now = Date()
                claims = try await ConnectionTokens.verify(token, keys: keys, validAtSomeMomentOf: now...now) { _ in .distantFuture }
            } catch let error as TokenError {
                throw CommandFailure.data("this code cannot be used: \(error) [\(error.code)]")
            }
            if claims.subject == session.credentials?.profileId {
                throw CommandFailure.data("that is your own code: show it to someone else to connect")
            }
            let why: String
            if let unreachable {
                why = unreachable
            } else if let refused = try await redeem(token, session: session) {
                why = refused
            } else {
                return
            }
            let (scan, added) = try session.enqueue(
                ConfigStore.QueuedScan(
                    token: token, scannedAt: Date(), clientNonce: UUID().uuidString.lowercased(),
                    ownerId: claims.subject.uuidString.lowercased()))
            if options.json {
                try Terminal.printJSON(Queued(queued: true, clientNonce: scan.clientNonce))
            } else {
                Terminal.print(
                    """
                    \(why), but the code is genuine: \(added ? "the scan is saved offline" : "it was already saved offline").
                    It will be sent by `constellation sync` or by your next command that reaches the server.
                    """)
            }
        }
    }

    /// Redeems `token` and reports the connection; or, when the server cannot take it now, says why,
    /// for the scan to be saved offline.
    private func redeem(_ token: String, session: Session) async throws -> String? {
        try await session.catchUp()
        let redemption: Redemption
        do throws(ClientError) {
            redemption = try await session.client.redeem(RedeemRequest(token: token))
        } catch  where error.isTemporary {
            // The network went away between the key check and the redemption, or the server (or
            // the proxy before it) says it cannot take it now: keep the scan.
            return Session.why(error)
        } catch {
            throw CommandFailure(error)
        }
        try report(redemption)
        return nil
    }

    private func report(_ redemption: Redemption) throws {
        if options.json { return try Terminal.printJSON(redemption) }
        let peer = redemption.connection.peer
        let who = peer.displayName + (peer.headline.map { " (\($0))" } ?? "")
        Terminal.print(redemption.created ? "Connected with \(who)." : "You were already connected with \(who).")
        Connections.printCard(of: redemption.connection)
    }

    /// The token from the argument (itself, or inside a URL) or from the photo.
    private func readToken() throws(CommandFailure) -> String {
        if let image {
            guard let token = try QRImage.texts(inFile: image).lazy.compactMap(Self.token(in:)).first else {
                throw .data("\(image): the QR code does not hold a Constellation token")
            }
            return token
        }
        guard let token = input.flatMap(Self.token(in:)) else {
            throw .data("that is not a Constellation token (v4.public.… or a badge's b1.…) or a URL holding one")
        }
        return token
    }

    /// A token (a shown code's or a badge's) as given, or from a URL's `token` query item, fragment
    /// or last path component.
    static func token(in text: String) -> String? {
        func isToken(_ text: String) -> Bool { text.hasPrefix("v4.public.") || BadgeTokens.isBadge(text) }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if isToken(trimmed) { return trimmed }
        guard let components = URLComponents(string: trimmed) else { return nil }
        let candidates = [
            components.queryItems?.first { $0.name == "token" }?.value, components.fragment,
            components.path.split(separator: "/").last.map(String.init),
        ]
        return candidates.compactMap { $0 }.first(where: isToken)
    }
}
