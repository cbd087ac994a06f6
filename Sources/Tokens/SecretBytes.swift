/// Secret key material with one owner: memory of its own, lent out only inside `withUnsafeBytes`,
/// and wiped (`sodium_memzero`) when the owner goes. Copies of a value that holds it share it;
/// nothing copies the bytes out except an encoding asked for on purpose (PASERK).
///
/// `@unchecked Sendable` is safe: the bytes are written once, in `init`, before the object is
/// shared, and only read afterwards; the memory is freed in `deinit`, when no one holds it.
final class SecretBytes: @unchecked Sendable {
    private let storage: UnsafeMutableRawBufferPointer

    /// `count` bytes filled by `initialize`; they are wiped and freed if it throws.
    init(count: Int, initializingWith initialize: (UnsafeMutableRawBufferPointer) throws(TokenError) -> Void) throws(TokenError) {
        let storage = UnsafeMutableRawBufferPointer.allocate(byteCount: count, alignment: 16)
        storage.initializeMemory(as: UInt8.self, repeating: 0)
        do {
            try initialize(storage)
        } catch {
            Sodium.wipe(storage)
            storage.deallocate()
            throw error
        }
        self.storage = storage
    }

    deinit {
        Sodium.wipe(storage)
        storage.deallocate()
    }

    var count: Int { storage.count }

    /// Lends the bytes to `body`; the pointer must not escape it.
    func withUnsafeBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        try body(UnsafeRawBufferPointer(storage))
    }
}
