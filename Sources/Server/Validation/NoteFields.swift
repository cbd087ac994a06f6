import ConstellationModel
import Foundation

/// Checks and tidies my note and tags on a connection.
enum NoteFields {
    static let noteText = UserText(field: "note", minimum: 0, maximum: Connection.noteLimit, allowsLineBreaks: true)
    static let tagText = UserText(field: "tag", minimum: 1, maximum: Connection.tagLimit)

    /// nil for an empty note (which clears it).
    static func note(_ raw: String) throws -> String? {
        let note = try noteText.check(raw)
        return note.isEmpty ? nil : note
    }

    /// The tags checked one by one, without repeats (compared without regard to case; the first
    /// spelling stays), at most `Connection.tagsLimit` of them.
    static func tags(_ raw: [String]) throws -> [String] {
        var tags: [String] = []
        var seen: Set<String> = []
        for (index, text) in raw.enumerated() {
            let tag: String
            do {
                tag = try tagText.check(text)
            } catch let problem as Problem {
                throw problem.about("tags[\(index)]") { $0.moved(to: "/tags/\(index)") }
            }
            if seen.insert(tag.lowercased()).inserted { tags.append(tag) }
        }
        guard tags.count <= Connection.tagsLimit else {
            throw Problem.validation(
                "a connection has at most \(Connection.tagsLimit) tags; these are \(tags.count)",
                FieldError("/tags", .tooLong, maximum: Connection.tagsLimit))
        }
        return tags
    }
}
