import Client
import ConstellationModel
import Foundation
import QR
import Server
import TestSupport
import Testing
import Tokens

/// `CONSTELLATION_PUBLIC_URL`: every code holds `PUBLIC_URL/c#TOKEN`, tokens are compact enough
/// for that link to fit an 80-column terminal, and tokens of the long form still redeem.
@Suite(.tier(.database)) struct PublicLinkTests {
    /// A realistic public URL: with `/c#` it is 30 characters in front of the token.
    static let publicURL = "https://connect.example.org"

    /// The widest line of a terminal rendering, in characters (columns).
    static func columns(_ text: String) -> Int {
        text.split(separator: "\n").map(\.count).max() ?? 0
    }

    @Test(arguments: [false, true]) func theLinkFitsAnEightyColumnTerminal(forEvent: Bool) throws {
        let ring = try KeyRing(current: SigningKey.generate(), since: Date())
        let token = try ConnectionTokens.issue(subject: UUID(), eventId: forEvent ? UUID() : nil, lifetime: .seconds(300), keys: ring).token
        let link = Self.publicURL + "/c#" + token
        #expect((Self.publicURL + "/c#").count == 30)
        let code = try QRCode(encoding: link)
        #expect(Self.columns(code.terminalText()) == code.sizeWithQuietZone, "the quiet zone is drawn whole")
        #expect(code.sizeWithQuietZone <= 80, "\(link.utf8.count) bytes: version \(code.version)")
        #expect(try QRDecoder.decode(Rendering.image(terminalText: code.terminalText())) == [link])
    }

    @Test func everyCodeTheServerDrawsHoldsTheLink() async throws {
        try await TestServer.run(configure: { $0.publicURL = Self.publicURL }) { server throws in
            let ada = try await server.user("Ada")
            let issued = try await ada.client.issueToken()
            #expect(issued.link == Self.publicURL + "/c#" + issued.token)

            let png = try await ada.client.qr(format: "png")
            let svg = String(decoding: try await ada.client.qr(format: "svg"), as: UTF8.self)
            let text = String(decoding: try await ada.client.qr(format: "txt"), as: UTF8.self)
            #expect(Self.columns(text) <= 80)
            let decoded = [
                try QRDecoder.decode(imageFile: png), try QRDecoder.decode(Rendering.image(svg: svg)),
                try QRDecoder.decode(Rendering.image(terminalText: text)),
            ]
            for texts in decoded {
                let link = try #require(texts.first)
                #expect(link.hasPrefix(Self.publicURL + "/c#v4.public."))
                let claims = try ConnectionTokens.verify(String(link.dropFirst(30)), keys: server.services.keyRing.verificationKeys)
                #expect(claims.subject == ada.profile.id)
            }
        }
    }

    @Test func anEventCodeWithTheLinkFitsTheTerminalToo() async throws {
        try await TestServer.run(configure: { $0.publicURL = Self.publicURL }) { server throws in
            let ada = try await server.user("Ada")
            let event = try await ada.client.createEvent(
                NewEvent(
                    name: "Links", slug: "links-2026", startsAt: Date(), endsAt: Date().addingTimeInterval(3_600), timeZone: "UTC")
            ).event
            let issued = try await ada.client.issueToken(event: event.slug)
            #expect(issued.link == Self.publicURL + "/c#" + issued.token)
            let text = String(decoding: try await ada.client.qr(format: "txt", event: event.slug), as: UTF8.self)
            #expect(Self.columns(text) <= 80)
            let link = try #require(try QRDecoder.decode(Rendering.image(terminalText: text)).first)
            let claims = try ConnectionTokens.verify(String(link.dropFirst(30)), keys: server.services.keyRing.verificationKeys)
            #expect(claims.eventId == event.id)
        }
    }

    @Test func withoutAPublicURLTheCodeHoldsTheToken() async throws {
        try await TestServer.run { server throws in
            let ada = try await server.user("Ada")
            #expect(try await ada.client.issueToken().link == nil)
            let token = try #require(try QRDecoder.decode(imageFile: try await ada.client.qr(format: "png")).first)
            #expect(token.hasPrefix("v4.public."))
        }
    }

    /// A token of the long form (issued before the compact claims) still redeems, event and all.
    @Test func aLongFormTokenStillRedeems() async throws {
        try await TestServer.run { server throws in
            let (ada, bob) = try await server.users("Ada", "Bob")
            let event = try await ada.client.createEvent(
                NewEvent(
                    name: "Old tokens", slug: "old-tokens", startsAt: Date(), endsAt: Date().addingTimeInterval(3_600), timeZone: "UTC")
            ).event
            let now = Date()
            let payload = """
                {"evt":"\(event.id.uuidString.lowercased())","exp":"\(now.addingTimeInterval(300).formatted(.iso8601))",\
                "iat":"\(now.addingTimeInterval(-1).formatted(.iso8601))","jti":"AAAAAAAAAAAAAAAA","sub":"\(ada.profile.id.uuidString.lowercased())"}
                """
            let ring = server.services.keyRing
            let token = try PASETOv4Public.sign(
                message: Array(payload.utf8), footer: Array("{\"kid\":\"\(ring.signingKid)\"}".utf8),
                implicitAssertion: Array(ConnectionTokens.implicitAssertion.utf8), key: ring.signingKey)
            let claims = try ConnectionTokens.verify(token, keys: ring.verificationKeys)
            #expect(claims.subject == ada.profile.id && claims.eventId == event.id && claims.tokenId == "AAAAAAAAAAAAAAAA")
            let redemption = try await bob.client.redeem(RedeemRequest(token: token))
            #expect(redemption.created && redemption.connection.peer.id == ada.profile.id)
            #expect(try await bob.client.myEvents().items.contains { $0.event.id == event.id }, "the event claim made Bob an attendee")
        }
    }

    @Test func aBadPublicURLIsAConfigurationError() throws {
        for bad in [
            "connect.example.org", "ftp://connect.example.org", "https://connect.example.org/?a=1",
            "https://connect.example.org/#x", "https://", "https://user:pw@connect.example.org", "https://connect example.org",
        ] {
            let error = #expect(throws: ConfigurationError.self, "\(bad)") {
                try ServerConfiguration(environment: ["CONSTELLATION_PUBLIC_URL": bad])
            }
            #expect(error?.variable == "CONSTELLATION_PUBLIC_URL")
        }
        let good = try ServerConfiguration(environment: ["CONSTELLATION_PUBLIC_URL": "http://127.0.0.1:8080/events//"])
        #expect(good.publicURL == "http://127.0.0.1:8080/events")
        #expect(try ServerConfiguration(environment: [:]).publicURL == nil)
    }
}

/// The project's own renderings turned back into pixels, so that the QR decoder reads what a camera would.
enum Rendering {
    static let scale = 4

    /// The SVG's path (`Mx yhNv1h-Nz` per run of dark modules) on a white square.
    static func image(svg: String) throws -> GrayImage {
        let side = try #require(svg.firstMatch(of: /viewBox="0 0 (\d+) \d+"/).flatMap { Int($0.output.1) })
        var dark = Set<Int>()
        for run in svg.matches(of: /M(\d+) (\d+)h(\d+)v1/) {
            let x = Int(run.output.1)!
            let y = Int(run.output.2)!
            let length = Int(run.output.3)!
            for i in 0..<length { dark.insert(y * side + x + i) }
        }
        return image(side: side, height: side) { x, y in dark.contains(y * side + x) }
    }

    /// Terminal text drawn light on dark (the default): a block is a light module, a space a dark one.
    static func image(terminalText text: String) -> GrayImage {
        let lines = text.split(separator: "\n").map(Array.init)
        let width = lines.map(\.count).max() ?? 0
        return image(side: width, height: min(lines.count * 2, width)) { x, y in  // the last half line is past the code
            let line = lines[y / 2]
            let char = x < line.count ? line[x] : " "
            let light = y % 2 == 0 ? (char == "█" || char == "▀") : (char == "█" || char == "▄")
            return !light
        }
    }

    private static func image(side: Int, height: Int, isDark: (Int, Int) -> Bool) -> GrayImage {
        var pixels = [UInt8](repeating: 255, count: side * scale * height * scale)
        for y in 0..<height * scale {
            for x in 0..<side * scale where isDark(x / scale, y / scale) { pixels[y * side * scale + x] = 0 }
        }
        return GrayImage(width: side * scale, height: height * scale, pixels: pixels)
    }
}
