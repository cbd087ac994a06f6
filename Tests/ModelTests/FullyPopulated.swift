/// The optional fields a value leaves nil, at any depth. A hand-written JSON writer is compared
/// with the encoder on a value that leaves none nil: then a field added to its type and not to its
/// writer makes the comparison fail (or this check, until the test sets the new field too).
enum FullyPopulated {
    /// The paths of the nil optionals in `value`, such as `connection.card`; empty when fully populated.
    static func nilFields(in value: Any, at path: String = "") -> [String] {
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .optional?:
            guard let wrapped = mirror.children.first else { return [path] }
            return nilFields(in: wrapped.value, at: path)
        case .struct?, .class?:
            return mirror.children.flatMap { child in
                nilFields(in: child.value, at: path.isEmpty ? child.label ?? "?" : "\(path).\(child.label ?? "?")")
            }
        case .collection?:
            return mirror.children.enumerated().flatMap { index, child in nilFields(in: child.value, at: "\(path)[\(index)]") }
        default:
            return []
        }
    }
}
