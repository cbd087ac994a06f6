import Foundation

/// The API's one rule for keys: a request body holds only the keys its type names. A key it does not
/// name is refused rather than ignored, so a misspelled field (`visibilty` on a card entry) never
/// silently leaves a choice at its default. The keys a type names are its stored properties, as the
/// decoded value shows them (`Mirror`): request types decode every property under its own name.
enum UnknownFields {
    /// The path of the first key in `json` (the parsed body) that `value` (decoded from it) has no
    /// field for, such as `entries[1].visibilty`; nil when there is none.
    static func first(in json: Any, decodedAs value: Any) -> String? {
        first(in: json, shapedLike: value, at: "")
    }

    private static func first(in json: Any, shapedLike value: Any, at path: String) -> String? {
        let mirror = Mirror(reflecting: value)
        switch (json, mirror.displayStyle) {
        case (_, .optional?):
            return mirror.children.first.flatMap { first(in: json, shapedLike: $0.value, at: path) }
        case (let object as [String: Any], .struct?), (let object as [String: Any], .class?):
            let fields = Dictionary(mirror.children.compactMap { child in child.label.map { ($0, child.value) } }) { first, _ in first }
            for key in object.keys.sorted() {
                let keyPath = path.isEmpty ? key : "\(path).\(key)"
                guard let field = fields[key] else { return keyPath }
                if let found = first(in: object[key]!, shapedLike: field, at: keyPath) { return found }
            }
            return nil
        case (let array as [Any], .collection?):
            for (index, (element, child)) in zip(array, mirror.children).enumerated() {
                if let found = first(in: element, shapedLike: child.value, at: "\(path)[\(index)]") { return found }
            }
            return nil
        default:
            return nil
        }
    }
}
