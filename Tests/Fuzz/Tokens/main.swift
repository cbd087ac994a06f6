import Foundation
import Tokens

// fuzz-tokens: each input, as text, goes to everything that reads a token, key or code from outside: the
// token parser and the three verifiers (which stop at the signature, as nearly every random token must); the
// same bytes signed with a fixed key as each kind of token's claims and as a footer, so that the claims and
// key-id parsers behind the signature are reached too; PASERK keys, pseudonym keys, API keys and the typed
// codes. Refusals are expected. A crash, a sanitizer report or a broken rule (`precondition`) is a finding.
//
// libFuzzer supplies `main`: `swift build --sanitize fuzzer` compiles this file as a library (Tools/fuzz).

/// The moment every verification happens at: the seeds' claims are valid then.
private let now = Date(timeIntervalSince1970: 1_800_000_000)
/// A fixed key, as the tests use; only its signatures get past the verifiers to the claims.
private let ring = try! KeyRing(current: SigningKey(seed: [UInt8](repeating: 7, count: 32)), since: Date(timeIntervalSince1970: 0))
private let footer = Array("{\"kid\":\"\(ring.signingKid)\"}".utf8)
private let validClaims = Array(#"{"s":"Sp58Hg16SledVZ8OjBsqPQ","i":1800000000,"x":1800000300,"j":"AAAAAAAAAAAA"}"#.utf8)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTokens(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let text = String(decoding: bytes, as: UTF8.self)
    readToken(text)
    readClaims(bytes)
    readFooter(bytes)
    readKeysAndCodes(text)
    return 0
}

/// The input as a token, as a scanner or a link hands it over.
private func readToken(_ text: String) {
    if let parts = try? PASETOv4Public.parse(text) {
        // Strict base64url: what decoded encodes back to the very text.
        let pieces = text.split(separator: ".", omittingEmptySubsequences: false)
        precondition(Base64URL.encode(parts.message + parts.signature) == pieces[2], "payload does not round-trip")
        precondition(parts.footer.isEmpty || Base64URL.encode(parts.footer) == pieces[3], "footer does not round-trip")
    }
    _ = try? ConnectionTokens.keyId(of: text)
    _ = try? ConnectionTokens.verify(text, keys: ring.verificationKeys, at: now, now: now)
    _ = try? ViewTokens.verify(text, keys: ring.verificationKeys, now: now)
    _ = try? DeviceLinks.verify(text, keys: ring.verificationKeys, now: now)
}

/// The input as the claims of a genuinely signed token of each kind.
private func readClaims(_ bytes: [UInt8]) {
    guard looksLikeObject(bytes) else { return }
    if let claims = try? ConnectionTokens.verify(
        sign(bytes, for: ConnectionTokens.implicitAssertion), keys: ring.verificationKeys, at: now, now: now)
    {
        precondition(
            claims.expiresAt > claims.issuedAt && (1...128).contains(claims.tokenId.utf8.count), "accepted claims break their rules")
    }
    _ = try? ViewTokens.verify(sign(bytes, for: ViewTokens.implicitAssertion), keys: ring.verificationKeys, now: now)
    if let code = try? DeviceLinks.verify(sign(bytes, for: DeviceLinks.implicitAssertion), keys: ring.verificationKeys, now: now) {
        precondition((try? SecretCode.deviceLink.hash(code)) != nil, "a link token carries a code that cannot be hashed")
    }
}

/// The input as the footer of a signed token (the key id is read from it before the signature is checked).
private func readFooter(_ bytes: [UInt8]) {
    guard looksLikeObject(bytes),
        let token = try? PASETOv4Public.sign(
            message: validClaims, footer: bytes,
            implicitAssertion: Array(ConnectionTokens.implicitAssertion.utf8), key: ring.signingKey)
    else { return }
    _ = try? ConnectionTokens.verify(token, keys: ring.verificationKeys, at: now, now: now)
}

private func readKeysAndCodes(_ text: String) {
    if let key = try? PASERK.decodePublicKey(text) { precondition(PASERK.encode(key) == text, "k4.public does not round-trip") }
    if let key = try? PASERK.decodeSigningKey(text) { precondition(PASERK.encode(key) == text, "k4.secret does not round-trip") }
    if let key = try? PseudonymKey(encoded: text) { precondition(key.encoded == text, "pseudonym key does not round-trip") }
    if APIKey.isWellFormed(text) { precondition((try? APIKey.hash(text)) != nil, "a well-formed API key cannot be hashed") }
    if let code = JoinCode.normalize(text) {
        precondition(code.utf8.count == JoinCode.length && JoinCode.normalize(code) == code, "join code normalization is not idempotent")
    }
    _ = try? JoinCode.hash(text, eventId: UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1)))
    _ = try? SecretCode.deviceLink.hash(text)
    _ = try? SecretCode.recovery.hash(text)
    _ = try? SecretCode.organizerInvitation.hash(text)
}

private func sign(_ claims: [UInt8], for purpose: String) throws(TokenError) -> String {
    try PASETOv4Public.sign(message: claims, footer: footer, implicitAssertion: Array(purpose.utf8), key: ring.signingKey)
}

/// Whether `bytes` may be a JSON object: signing is most of the time an input takes, and claims or a footer
/// that do not start with `{` are refused without it.
private func looksLikeObject(_ bytes: [UInt8]) -> Bool {
    bytes.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) } == UInt8(ascii: "{")
}
