import Foundation
import Tokens

/// How an attendee who did not choose to be named appears to an event's organizers:
/// "Attendee " and the first 6 base32 symbols (RFC 4648) of their `PseudonymDigest`.
/// Stable for a person at one event, different at each event, never their profile id.
enum EventPseudonym {
    static func name(of profile: UUID, in event: UUID) -> String {
        guard let digest = try? PseudonymDigest.digest(profile: profile, event: event) else {
            preconditionFailure("libsodium failed to initialise")
        }
        return "Attendee " + base32(digest).prefix(6)
    }

    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")

    /// RFC 4648 base32 without padding.
    private static func base32(_ bytes: [UInt8]) -> String {
        var text = "", buffer = 0, bits = 0
        for byte in bytes {
            buffer = (buffer << 8) | Int(byte)
            bits += 8
            while bits >= 5 {
                bits -= 5
                text.append(alphabet[(buffer >> bits) & 31])
            }
            buffer &= (1 << bits) - 1
        }
        if bits > 0 { text.append(alphabet[(buffer << (5 - bits)) & 31]) }
        return text
    }
}
