import ConstellationModel
import Foundation

/// Checks and tidies a contact card: each value by its kind (an email address's syntax, a phone
/// number in E.164, an `http` or `https` link), the same text rules as names for everything typed,
/// and bounded counts and lengths.
enum ContactFields {
    static let labelText = UserText(field: "label", minimum: 1, maximum: ContactEntry.labelLimit)
    static let valueText = UserText(field: "value", minimum: 1, maximum: ContactEntry.linkLimit)

    /// The card's entries, checked one by one (the first bad one is named by its place); an entry
    /// without an audience is for nobody.
    static func entries(_ raw: [ContactEntry]) throws -> [ContactEntry] {
        guard raw.count <= ContactEntry.entriesLimit else {
            throw Problem.validation(
                "a card has at most \(ContactEntry.entriesLimit) entries; this one has \(raw.count)",
                FieldError("/entries", .tooLong, maximum: ContactEntry.entriesLimit))
        }
        for kind in [ContactEntry.Kind.organization, .role] where raw.filter({ $0.kind == kind }).count > 1 {
            throw Problem.validation("a card has one \(kind.rawValue) at most", FieldError("/entries", .unique, allowed: [kind.rawValue]))
        }
        return try raw.enumerated().map { index, entry in
            do {
                return ContactEntry(
                    kind: entry.kind, label: try entry.label.map(labelText.check), value: try value(entry.value, of: entry.kind),
                    audience: entry.audience ?? .nobody)
            } catch let problem as Problem {
                throw problem.about("entries[\(index)]") { $0.inside("/entries/\(index)") }
            }
        }
    }

    /// `raw` as a value of `kind`, tidied (a phone number without its spaces, dashes and brackets).
    static func value(_ raw: String, of kind: ContactEntry.Kind) throws -> String {
        let text = try valueText.check(raw)
        switch kind {
        case .email: return try email(text)
        case .phone: return try phone(text)
        case .link: return try link(text)
        case .organization, .role:
            guard text.unicodeScalars.count <= ContactEntry.textLimit else {
                throw Problem.validation(
                    "\(kind.rawValue) must be at most \(ContactEntry.textLimit) characters",
                    FieldError("/value", .tooLong, maximum: ContactEntry.textLimit))
            }
            return text
        }
    }

    /// An address `local@domain`: a local part of printable ASCII but for `@`, quotes, brackets,
    /// commas, semicolons and spaces; a domain of letters, digits and hyphens in dot-separated labels,
    /// with a top-level label of letters (or an `xn--` one); ASCII only (an internationalised domain
    /// in its `xn--` form); at most 254 characters.
    static func email(_ text: String) throws -> String {
        let pattern =
            /^[A-Za-z0-9.!#$%&'*+\/=?^_`{|}~-]{1,64}@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+(?:[A-Za-z]{2,63}|xn--[A-Za-z0-9-]{1,59})$/
        guard text.utf8.count <= ContactEntry.emailLimit, text.unicodeScalars.allSatisfy(\.isASCII), text.wholeMatch(of: pattern) != nil,
            !text.hasPrefix("."), !text.contains(".."), !text.contains(".@")
        else {
            throw Problem.validation("value is not an email address (name@example.org)", FieldError("/value", .format, format: "email"))
        }
        return text
    }

    /// A phone number in E.164 (`+` then 8 to 15 digits, the first not 0); spaces, dots, dashes and
    /// brackets between digits are dropped.
    static func phone(_ text: String) throws -> String {
        let kept = String(text.unicodeScalars.filter { !" .-()".unicodeScalars.contains($0) })
        guard kept.unicodeScalars.allSatisfy(\.isASCII), kept.wholeMatch(of: /\+[1-9][0-9]{7,14}/) != nil else {
            throw Problem.validation(
                "value is not a phone number in international form (E.164: +4930123456)", FieldError("/value", .format, format: "phone"))
        }
        return kept
    }

    /// An absolute `http` or `https` URL with a host, without spaces or credentials, in ASCII (an
    /// internationalised domain in its `xn--` form, other characters percent-encoded).
    static func link(_ text: String) throws -> String {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            scheme == "https" || scheme == "http", let host = components.host, !host.isEmpty,
            components.user == nil, components.password == nil, text.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 0x20 })
        else {
            throw Problem.validation(
                "value is not an http or https link (https://example.org/me)", FieldError("/value", .format, format: "link"))
        }
        return text
    }
}
