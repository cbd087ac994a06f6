/// A kind of random code that a person types or a link carries and the server keeps only as a
/// hash (`hash(_:)`): recovery codes, device link codes, invitation codes. Each kind hashes under
/// a domain of its own, so no code of one kind is ever taken for another's.
public struct SecretCode: Sendable {
    let format: TypedCode
    let domain: String

    /// Recovery codes: a long secret (32 symbols, about 158 bits, shown in groups of four) that
    /// gets a profile back on a new device. Shown once.
    public static let recovery = SecretCode(format: TypedCode(length: 32, group: 4), domain: "constellation:recovery:v1")
    /// Device link codes (`XXXXX-XXXXX`, about 49.5 bits): see `DeviceLinks`.
    public static let deviceLink = SecretCode(format: TypedCode(length: 10, group: 5), domain: "constellation:device-link:v1")
    /// Invitations to organize an event (`XXXXX-XXXXX-XXXXX-XXXXX`, about 99 bits): they live for
    /// days, and one right guess would make an organizer, so they are long enough that guessing is
    /// hopeless from any number of addresses; every wrong guess counts against its address too.
    public static let organizerInvitation = SecretCode(
        format: TypedCode(length: 20, group: 5), domain: "constellation:organizer-invitation:v1")

    /// A new code and the hash to store.
    public func generate() throws(TokenError) -> (code: String, hash: [UInt8]) {
        let code = try format.generate()
        guard let hash = try hash(code) else { preconditionFailure("a generated code is well-formed") }
        return (code, hash)
    }

    /// What the server stores and compares for a typed `code`; nil when it cannot be a code of this kind.
    public func hash(_ code: String) throws(TokenError) -> [UInt8]? {
        try format.hash(code, domain: domain)
    }

    /// The code's symbols in upper case, without hyphens or spaces; nil if `text` cannot be one.
    public func normalize(_ text: String) -> String? {
        format.normalize(text)
    }
}
