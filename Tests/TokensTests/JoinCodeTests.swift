import Foundation
import Testing
import Tokens

@Suite struct JoinCodeTests {
    static let alphabet = Set("ABCDEFGHJKMNPQRSTUVWXYZ23456789")

    @Test func codesAreEightUnambiguousSymbolsShownAsTwoGroups() throws {
        var seen: [Character: Int] = [:]
        var codes: Set<String> = []
        let key = try PseudonymKey.generate()
        let event = UUID()
        for rotation in 0..<2_000 {
            let code = try JoinCode.derive(key: key, eventId: event, rotation: rotation)
            #expect(code.count == 9 && Array(code)[4] == "-", "\(code)")
            let symbols = code.replacingOccurrences(of: "-", with: "")
            #expect(symbols.allSatisfy(Self.alphabet.contains), "\(code)")
            for symbol in symbols { seen[symbol, default: 0] += 1 }
            codes.insert(code)
        }
        #expect(codes.count == 2_000, "about 40 bits each: no repeats in 2,000 rotations")
        // 16,000 symbols over 31: each about 516 times; every symbol turns up, none far more than the rest.
        #expect(Set(seen.keys) == Self.alphabet)
        #expect(seen.values.allSatisfy { (400...640).contains($0) }, "\(seen)")
    }

    /// The same key, event and rotation give the same code on every instance; another of any gives another.
    @Test func aCodeIsTheEventsRotationUnderTheKey() throws {
        let key = try PseudonymKey.generate()
        let event = UUID()
        let code = try JoinCode.derive(key: key, eventId: event, rotation: 3)
        let sameKeyElsewhere = try PseudonymKey(encoded: key.encoded)
        #expect(try JoinCode.derive(key: sameKeyElsewhere, eventId: event, rotation: 3) == code)
        #expect(try JoinCode.derive(key: key, eventId: event, rotation: 4) != code)
        #expect(try JoinCode.derive(key: key, eventId: UUID(), rotation: 3) != code)
        #expect(try JoinCode.derive(key: try PseudonymKey.generate(), eventId: event, rotation: 3) != code)
        #expect(JoinCode.normalize(code) == code.replacingOccurrences(of: "-", with: ""))
    }

    @Test func typedCodesCompareWithoutCaseSpacesOrHyphen() throws {
        let event = UUID()
        let hash = try JoinCode.hash("K7MX-3QPA", eventId: event)
        #expect(hash?.count == 32)
        for typed in ["k7mx-3qpa", "K7MX3QPA", "k7mx 3qpa", " K7MX-3QPA "] {
            #expect(try JoinCode.hash(typed, eventId: event) == hash, "\(typed)")
        }
        #expect(try JoinCode.hash("K7MX-3QPB", eventId: event) != hash)
        #expect(try JoinCode.hash("K7MX-3QPA", eventId: UUID()) != hash, "salted by the event")
        for bad in ["", "K7MX-3QP", "K7MX-3QPAA", "K0MX-3QPA", "KIMX-3QPA", "K7MX_3QPA", "K7MX-3QP\u{C5}"] {
            #expect(JoinCode.normalize(bad) == nil, "\(bad)")
            #expect(try JoinCode.hash(bad, eventId: event) == nil, "\(bad)")
        }
    }
}
