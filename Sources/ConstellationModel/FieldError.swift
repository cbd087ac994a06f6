import Foundation

/// One field's mistake (a problem's `errors`, an extension member as RFC 9457 allows): which field,
/// as a JSON Pointer into the request body (RFC 6901: `/name`, `/entries/0/value`; `""` for the
/// body as a whole), which rule it broke, and that rule's bounds.
public struct FieldError: Codable, Sendable, Equatable {
    /// The rules a field can break.
    public enum Rule: String, Codable, Sendable, CaseIterable {
        /// Empty, or missing where it is needed (`fields`: give one of these).
        case required
        /// Shorter than `minimum` characters (Unicode code points), or fewer than `minimum` items.
        case tooShort = "too_short"
        /// Longer than `maximum` characters (Unicode code points), or more than `maximum` items.
        case tooLong = "too_long"
        /// A control, invisible or direction-changing character.
        case invisibleCharacter = "invisible_character"
        /// Nothing visible: no letter, digit, punctuation or symbol.
        case noVisibleCharacter = "no_visible_character"
        /// Not of its kind's form: `format` names which (`email`, `phone`, `link`, `slug`, `time_zone`, `date`).
        case format
        /// Not one of `allowed`.
        case oneOf = "one_of"
        /// Not a number from `minimum` to `maximum`.
        case range
        /// Not a date from `earliest` to `latest`, both included (either may be left out).
        case dateRange = "date_range"
        /// Not after the field `other` (a JSON Pointer), or more than `maximum` days after it.
        case after
        /// At most one such item (`allowed` names the kind).
        case unique
    }

    public let pointer: String
    public let rule: Rule
    public let minimum: Int?
    public let maximum: Int?
    public let format: String?
    public let allowed: [String]?
    public let other: String?
    public let earliest: Date?
    public let latest: Date?
    /// For `required` on the body: the fields of which one must be given.
    public let fields: [String]?

    public init(
        _ pointer: String, _ rule: Rule, minimum: Int? = nil, maximum: Int? = nil, format: String? = nil, allowed: [String]? = nil,
        other: String? = nil, earliest: Date? = nil, latest: Date? = nil, fields: [String]? = nil
    ) {
        self.pointer = pointer
        self.rule = rule
        self.minimum = minimum
        self.maximum = maximum
        self.format = format
        self.allowed = allowed
        self.other = other
        self.earliest = earliest
        self.latest = latest
        self.fields = fields
    }

    /// The same mistake, its pointer inside `parent` (`/entries/0` + `/value`).
    public func inside(_ parent: String) -> FieldError {
        FieldError(
            parent + pointer, rule, minimum: minimum, maximum: maximum, format: format, allowed: allowed, other: other.map { parent + $0 },
            earliest: earliest, latest: latest, fields: fields)
    }

    /// The same mistake at `pointer` instead.
    public func moved(to pointer: String) -> FieldError {
        FieldError(
            pointer, rule, minimum: minimum, maximum: maximum, format: format, allowed: allowed, other: other, earliest: earliest,
            latest: latest, fields: fields)
    }

    /// The JSON Pointer of a field written as a path (`events[0].startsAt` → `/events/0/startsAt`).
    public static func pointer(ofPath path: String) -> String {
        path.isEmpty
            ? ""
            : "/"
                + path.replacingOccurrences(of: "]", with: "").replacingOccurrences(of: "[", with: ".")
                .split(separator: ".", omittingEmptySubsequences: true).map {
                    $0.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
                }.joined(separator: "/")
    }
}
