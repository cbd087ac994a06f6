import Client
import ConstellationModel
import Foundation
import Server
import TestSupport
import Testing

/// Names, headlines and nonces are measured as PostgreSQL measures them (code points, after NFC),
/// and characters that hide or reorder text are refused with a 422 before the database sees them.
@Suite(.tier(.database)) struct UserTextTests {
    private static func register(_ name: String, headline: String? = nil, on server: TestServer) async throws -> Profile {
        try await server.client.register(NewProfile(displayName: name, headline: headline)).profile
    }

    @Test func lengthsAreCodePointsAfterNormalization() async throws {
        try await TestServer.run { server throws in
            // 80 × e + combining acute: 160 code points as sent, 80 precomposed é once normalized.
            let accented = try await Self.register(String(repeating: "e\u{301}", count: 80), on: server)
            #expect(accented.displayName == String(repeating: "\u{E9}", count: 80))
            #expect(accented.displayName.unicodeScalars.count == 80)
            let family = "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}\u{200D}\u{1F466}"
            let joined = try await Self.register(String(repeating: family, count: 11), on: server)
            #expect(joined.displayName.unicodeScalars.count == 77, "joiners are allowed: emoji need them")
            for name in [
                String(repeating: family, count: 80), "e" + String(repeating: "\u{301}", count: 500), String(repeating: "x", count: 81),
            ] {
                await expectProblem(422, "validation_failed") { _ = try await Self.register(name, on: server) }
            }
            await expectProblem(422, "validation_failed") {
                _ = try await Self.register("Ok", headline: String(repeating: "\u{1F600}", count: 161), on: server)
            }
            #expect(try await server.count("profiles") == 2)
        }
    }

    @Test func invisibleAndDirectionChangingCharactersAreRefused() async throws {
        try await TestServer.run { server throws in
            let me = try await server.user("Me")
            let codes: [UInt32] = [0x202E, 0x202A, 0x2066, 0xFEFF, 0x2028, 0x2029, 0x200B, 0xFFFF, 0xFDD0, 0xE000, 0x0]
            for scalar in codes.compactMap(Unicode.Scalar.init).map(String.init) {
                await expectProblem(422, "validation_failed") { _ = try await Self.register("Ada\(scalar)evil", on: server) }
                await expectProblem(422, "validation_failed") {
                    _ = try await me.client.updateMe(ProfileChanges(headline: "Eng\(scalar)ines"))
                }
            }
            #expect(try await server.count("profiles") == 1)
            #expect(try await me.client.me().headline == nil)
            let flag = try await Self.register("\u{1F3F4}\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F} Ada", on: server)
            #expect(flag.displayName.hasSuffix("Ada"), "emoji tag sequences (subdivision flags) are allowed")
        }
    }

    /// One rule for every field a person types into: blank fillers, tag characters outside an emoji
    /// flag, stray variation selectors and text made only of marks are refused in names, headlines,
    /// notes, tags and nonces alike; what real names and emoji need is kept.
    @Test(arguments: [
        "\u{3164}", "Ada\u{3164}", "\u{2800}", "A\u{2800}da", "\u{115F}\u{1160}", "\u{FFA0}", "Ada\u{E0041}\u{E0042}",
        "\u{E0001}Ada", "\u{1F3F4}\u{E0067}\u{E0062}", "\u{E0067}\u{E0062}\u{E007F}", "\u{301}\u{302}\u{303}", "\u{FE0F}Ada",
        "Ada\u{34F}", "Ada\u{AD}", "Ada\u{180E}",
    ])
    func blankAndHiddenTextIsRefusedInEveryField(text: String) async throws {
        try await TestServer.run { server throws in
            let (ada, bob) = try await server.users("Ada", "Bob")
            _ = try await bob.client.scan(ada.client)
            await expectProblem(422, "validation_failed") { _ = try await Self.register(text, on: server) }
            await expectProblem(422, "validation_failed") { _ = try await ada.client.updateMe(ProfileChanges(headline: text)) }
            await expectProblem(422, "validation_failed") {
                _ = try await ada.client.annotate(bob.profile.id, ConnectionNoteChanges(note: text))
            }
            await expectProblem(422, "validation_failed") {
                _ = try await ada.client.annotate(bob.profile.id, ConnectionNoteChanges(tags: [text]))
            }
            let token = try await ada.client.issueToken().token
            let carol = try await server.user("Carol")
            await expectProblem(422, "validation_failed") {
                _ = try await carol.client.redeem(RedeemRequest(token: token, clientNonce: text))
            }
            #expect(try await server.count("profiles") == 3)
            #expect(try await ada.client.me().headline == nil)
        }
    }

    @Test func whatNamesAndEmojiNeedIsKept() async throws {
        try await TestServer.run { server throws in
            for name in [
                "\u{2764}\u{FE0F} Ada", "1\u{FE0F}\u{20E3}", "\u{1F44B}\u{1F3FD}",
                "\u{1F3F4}\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}",
                "e\u{301}mile", "\u{0645}\u{06CC}\u{200C}\u{062E}\u{0648}\u{0627}\u{0647}\u{0645}", "\u{D55C}\u{AD6D}\u{C5B4}", "\u{8449}",
            ] {
                let profile = try await Self.register(name, on: server)
                #expect(profile.displayName == name.precomposedStringWithCanonicalMapping)
            }
        }
    }

    @Test func clientNoncesAreVisibleTextCountedInCodePoints() async throws {
        try await TestServer.run { server throws in
            let (owner, scanner) = try await server.users("Owner", "Scanner")
            for nonce in ["a\u{0}b", "a\u{7}b", "\u{202E}x", String(repeating: "\u{E9}", count: 65), ""] {
                let token = try await owner.client.issueToken().token
                await expectProblem(422, "validation_failed") {
                    _ = try await scanner.client.redeem(RedeemRequest(token: token, clientNonce: nonce))
                }
            }
            #expect(try await server.count("redemptions") == 0)
            let nonce = String(repeating: "\u{E9}", count: 64)
            let redemption = try await scanner.client.redeem(
                RedeemRequest(token: try await owner.client.issueToken().token, clientNonce: nonce))
            #expect(redemption.clientNonce == nonce, "64 code points (128 bytes) fit the limit of 64 characters")
        }
    }

    @Test func whatTheDatabaseRefusesIsA4xxNotA500() async throws {
        try await TestServer.run { server throws in
            // Straight to the database, past the checks: its CHECK constraint answers (SQLSTATE 23514).
            let refused: any Error
            do {
                _ = try await server.services.profiles.create(
                    displayName: String(repeating: "x", count: 81), headline: nil, apiKeyHash: Array(repeating: 1, count: 32))
                Issue.record("the database accepted an 81-character name")
                return
            } catch {
                refused = error
            }
            let problem = try #require((refused as? any ProblemConvertible)?.problem)
            #expect(problem.status == 422 && problem.code == "validation_failed")
            #expect(try await server.count("profiles") == 0)
        }
    }
}
