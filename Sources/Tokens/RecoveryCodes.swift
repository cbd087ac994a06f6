/// Recovery codes: a long random secret (32 symbols, about 158 bits, shown in groups of four; see
/// `TypedCode`) that gets a profile back on a new device. Shown once; the server keeps only `hash(_:)`.
public enum RecoveryCodes {
    static let format = TypedCode(length: 32, group: 4)

    /// A new recovery code and the hash to store.
    public static func generate() throws(TokenError) -> (code: String, hash: [UInt8]) {
        let code = try format.generate()
        guard let hash = try hash(code) else { preconditionFailure("a generated recovery code is well-formed") }
        return (code, hash)
    }

    /// What the server stores and compares for a typed `code`; nil when it cannot be a recovery code.
    public static func hash(_ code: String) throws(TokenError) -> [UInt8]? {
        try format.hash(code, domain: "constellation:recovery:v1")
    }
}
