import Client
import ConstellationModel
import Foundation
import Synchronization

/// People for a redemption load on a running server: owners whose codes are minted before the
/// load (so the load is all redemptions) and scanners who redeem them.
struct Crowd {
    typealias Person = (profile: Profile, key: String)

    let owners, scanners: [Person]
    /// One code per owner, in the owners' order.
    let tokens: [String]

    static func register(on server: ConstellationClient, owners ownerCount: Int, scanners scannerCount: Int) async throws -> Crowd {
        var owners: [Person] = []
        var scanners: [Person] = []
        var tokens: [String] = []
        for index in 0..<ownerCount {
            let registered = try await server.register(NewProfile(displayName: "Owner \(index)"))
            owners.append((registered.profile, registered.apiKey))
            tokens.append(try await server.authenticated(registered.apiKey).issueToken().token)
        }
        for index in 0..<scannerCount {
            let registered = try await server.register(NewProfile(displayName: "Scanner \(index)"))
            scanners.append((registered.profile, registered.apiKey))
        }
        return Crowd(owners: owners, scanners: scanners, tokens: tokens)
    }
}

/// One redemption attempt as its client saw it: status 0 means no answer (the connection failed
/// or the client's timeout ran out).
struct RedemptionAttempt: Sendable {
    let scanner, owner, status: Int
    let code: String?
    let began: ContinuousClock.Instant
    let took: Duration

    var acknowledged: Bool { (200..<300).contains(status) }

    /// Redeems `token` as `client` and says how it went.
    static func run(_ client: ConstellationClient, token: String, scanner: Int, owner: Int) async -> RedemptionAttempt {
        let began = ContinuousClock.now
        var status = 200
        var code: String?
        do {
            _ = try await client.redeem(RedeemRequest(token: token))
        } catch {
            switch error {
            case .problem(let problem):
                status = problem.status
                code = problem.code
            case .unexpectedResponse(let answered, _):
                status = answered  // not problem+json: a proxy's own error page, say
            default:
                status = 0
            }
        }
        return RedemptionAttempt(scanner: scanner, owner: owner, status: status, code: code, began: began, took: .now - began)
    }
}

/// How many redemptions a load has had acknowledged so far, for a fault to wait on.
final class LoadProgress: Sendable {
    private let acknowledged = Atomic<Int>(0)

    func record(_ attempt: RedemptionAttempt) {
        if attempt.acknowledged { acknowledged.add(1, ordering: .relaxed) }
    }

    /// How many redemptions have been acknowledged so far.
    var count: Int { acknowledged.load(ordering: .relaxed) }

    /// Waits until at least `count` redemptions have been acknowledged, at most two minutes.
    func wait(forAcknowledged count: Int) async throws {
        let deadline = ContinuousClock.now + .seconds(120)
        while acknowledged.load(ordering: .relaxed) < count {
            guard ContinuousClock.now < deadline else { throw Stalled(acknowledged: self.count, awaited: count) }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    struct Stalled: Error, CustomStringConvertible {
        let acknowledged, awaited: Int
        var description: String { "the load stalled at \(acknowledged) acknowledged redemptions, short of \(awaited)" }
    }
}

extension Result where Failure == ClientError {
    /// What `body` returned or threw.
    static func of(_ body: () async throws(ClientError) -> Success) async -> Result {
        do { return .success(try await body()) } catch { return .failure(error) }
    }
}
