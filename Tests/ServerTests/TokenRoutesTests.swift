import Client
import ConstellationModel
import Foundation
import Keys
import QR
import TestSupport
import Testing
import Tokens

@Suite(.tier(.database)) struct TokenRoutesTests {
    @Test func publishedKeysVerifyIssuedTokens() async throws {
        try await TestServer.run { server throws in
            let ada = try await server.user("Ada")
            let keySet = try await server.client.keys()
            #expect(keySet.keys.count == 1)
            #expect(keySet.offlineGraceSeconds == 7_200, "two hours by default")
            let published = try #require(keySet.keys.first)
            let publicKey = try PASERK.decodePublicKey(published.publicKey)
            #expect(try PASERK.publicId(of: publicKey) == published.pid)
            #expect(published.pid.dropFirst("k4.pid.".count).hasPrefix(published.kid))

            let issued = try await ada.client.issueToken()
            let keys = [published.kid: VerificationKey(kid: published.kid, publicKey: publicKey, notBefore: published.notBefore)]
            let claims = try ConnectionTokens.verify(issued.token, keys: keys)
            #expect(claims.subject == ada.profile.id)
            #expect(claims.tokenId == issued.tokenId)
            #expect(issued.expiresAt.timeIntervalSince(issued.issuedAt) == 300)
        }
    }

    @Test func tokensNeedCredentials() async throws {
        try await TestServer.run { server throws in
            await expectProblem(401, "missing_credentials") { _ = try await server.client.issueToken() }
            await expectProblem(401, "missing_credentials") { _ = try await server.client.qr(format: "png") }
        }
    }

    @Test func qrImagesHoldAFreshTokenOfMine() async throws {
        try await TestServer.run { server throws in
            let ada = try await server.user("Ada")
            let png = try await ada.client.qr(format: "png")
            let token = try #require(try QRDecoder.decode(imageFile: png).first)
            let claims = try ConnectionTokens.verify(token, keys: server.services.keyRing.verificationKeys)
            #expect(claims.subject == ada.profile.id)

            let svg = String(decoding: try await ada.client.qr(format: "svg"), as: UTF8.self)
            #expect(svg.hasPrefix("<svg"))
            let text = String(decoding: try await ada.client.qr(format: "txt"), as: UTF8.self)
            #expect(text.split(separator: "\n").allSatisfy { $0.count <= 80 })
            await expectProblem(400, "unsupported_format") { _ = try await ada.client.qr(format: "gif") }
        }
    }
}
