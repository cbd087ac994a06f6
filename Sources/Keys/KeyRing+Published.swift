import ConstellationModel
import Foundation
import Tokens

extension KeyRing {
    /// Every key of the ring as `GET /v1/keys` and `keys list` show it, oldest first, the current key last: `current`,
    /// `retired` (verifies until its `notAfter`) or `expired` (past it, at `now`).
    package func publishedKeys(now: Date = Date()) throws(TokenError) -> [PublishedKey] {
        let keys = verificationKeys.values.sorted { a, b in
            (a.kid == signingKid ? 1 : 0, a.notBefore, a.kid) < (b.kid == signingKid ? 1 : 0, b.notBefore, b.kid)
        }
        return try keys.map { (key: VerificationKey) throws(TokenError) -> PublishedKey in
            let status: KeyStatus = key.kid == signingKid ? .current : key.notAfter.map { $0 < now ? .expired : .retired } ?? .retired
            return PublishedKey(
                kid: key.kid, publicKey: PASERK.encode(key.publicKey), pid: try PASERK.publicId(of: key.publicKey),
                status: status, notBefore: key.notBefore, notAfter: key.notAfter)
        }
    }
}
