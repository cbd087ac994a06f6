import Foundation
import Tokens

// `constellation-bench growth PEOPLE [SEED [PICTURES]]|FILE`: `GrowthBench`. Otherwise:
// `constellation-bench [ITERATIONS]`: how long verifying a connection token takes
// (`ConnectionTokens.verify`: split, base64url, PAE, Ed25519, claims, times) next to the Ed25519
// check alone on the same signed bytes (libsodium's `crypto_sign_verify_detached`, through the
// one wrapper that calls it). Rounds alternate between the two so that drift hits both alike.
// Prints one JSON line; `Tools/bench-http` reads it.

if CommandLine.arguments.dropFirst().first == "growth" {
    let argument = CommandLine.arguments.dropFirst(2).first ?? "300"
    if let people = Int(argument) {
        let seed = CommandLine.arguments.dropFirst(3).first
        guard let seed = seed.map(UInt64.init) ?? 7 else {
            FileHandle.standardError.write(Data("constellation-bench growth: the seed is a whole number from 0, not \(seed!)\n".utf8))
            exit(64)
        }
        let pictures = CommandLine.arguments.dropFirst(4).first
        guard let pictures = pictures.map({ Int($0).flatMap { (2...1_000).contains($0) ? $0 : nil } }) ?? 40 else {
            FileHandle.standardError.write(
                Data("constellation-bench growth: the pictures are a whole number from 2 to 1000, not \(pictures!)\n".utf8))
            exit(64)
        }
        GrowthBench.run(people: people, seed: seed, pictures: pictures)
    } else {
        do {
            try GrowthBench.run(file: argument)
        } catch {
            FileHandle.standardError.write(Data("constellation-bench growth: \(error)\n".utf8))
            exit(1)
        }
    }
    exit(0)
}
let iterations = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 50_000
let rounds = 10
let ring = try KeyRing(current: SigningKey.generate(), since: Date())
let (token, _) = try ConnectionTokens.issue(
    subject: UUID(), eventId: UUID(), lifetime: .seconds(300), keys: ring)
let parts = try PASETOv4Public.parse(token)
let signed = PASETOv4Public.signedBytes(of: parts, implicitAssertion: Array(ConnectionTokens.implicitAssertion.utf8))
let publicKey = ring.signingKey.publicKey
let keys = ring.verificationKeys

let clock = ContinuousClock()
var ours = Duration.zero
var sodium = Duration.zero
var accepted = 0
for _ in 0..<rounds {
    var start = clock.now
    for _ in 0..<iterations / rounds where (try? ConnectionTokens.verify(token, keys: keys)) != nil { accepted += 1 }
    ours += clock.now - start
    start = clock.now
    for _ in 0..<iterations / rounds where publicKey.isValidSignature(parts.signature, for: signed) { accepted += 1 }
    sodium += clock.now - start
}
precondition(accepted == 2 * (iterations / rounds) * rounds, "every verification must succeed")
let perCall = { (total: Duration) in (total / .nanoseconds(1)) / Double((iterations / rounds) * rounds) }
print(
    "{\"iterations\":\(iterations),\"tokenBytes\":\(token.utf8.count),\"verifyNanoseconds\":\(perCall(ours)),\"sodiumNanoseconds\":\(perCall(sodium))}"
)
