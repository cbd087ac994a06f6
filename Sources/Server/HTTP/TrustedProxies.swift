import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The proxies whose `X-Forwarded-For` is believed (`CONSTELLATION_TRUSTED_PROXIES`: addresses
/// and CIDR ranges, comma separated, e.g. `10.0.0.0/8, ::1`). Without any, the client address is
/// the connection's peer, whatever a request's headers claim.
public struct TrustedProxies: Sendable, Equatable {
    private struct Range: Sendable, Equatable {
        let bytes: [UInt8]
        let prefix: Int

        func contains(_ address: [UInt8]) -> Bool {
            guard address.count == bytes.count else { return false }
            for bit in 0..<prefix where (address[bit / 8] ^ bytes[bit / 8]) & (0x80 >> UInt8(bit % 8)) != 0 { return false }
            return true
        }
    }

    private let ranges: [Range]

    public static let none = TrustedProxies(ranges: [])

    private init(ranges: [Range]) {
        self.ranges = ranges
    }

    /// Nil when an entry is neither an IP address nor a CIDR range.
    public init?(_ text: String) {
        var ranges: [Range] = []
        for entry in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !entry.isEmpty {
            let parts = entry.split(separator: "/", maxSplits: 1)
            guard let bytes = Self.bytes(of: String(parts[0])) else { return nil }
            let prefix = parts.count == 2 ? Int(parts[1]) : bytes.count * 8
            guard let prefix, (0...bytes.count * 8).contains(prefix) else { return nil }
            ranges.append(Range(bytes: bytes, prefix: prefix))
        }
        self.init(ranges: ranges)
    }

    public var isEmpty: Bool { ranges.isEmpty }

    func trusts(_ address: String) -> Bool {
        guard let bytes = Self.bytes(of: address) else { return false }
        return ranges.contains { $0.contains(bytes) }
    }

    /// The client's address: the peer's, unless the peer is a trusted proxy; then the nearest
    /// address in `X-Forwarded-For` (read from the right) that is not a trusted proxy itself.
    func client(peer: String?, forwardedFor: [String]) -> String? {
        guard let peer, trusts(peer) else { return peer }
        let chain = forwardedFor.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }
        for hop in chain.reversed() {
            guard Self.bytes(of: hop) != nil else { return peer }  // a malformed hop: trust nothing past it
            if !trusts(hop) { return hop }
        }
        return chain.first ?? peer
    }

    /// The address's bytes (4 for IPv4, and for IPv4 mapped into IPv6; else 16); nil if it is none.
    static func bytes(of text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
        let bytes = withUnsafeBytes(of: &v6) { Array($0) }
        if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF { return Array(bytes[12...]) }
        return bytes
    }
}
