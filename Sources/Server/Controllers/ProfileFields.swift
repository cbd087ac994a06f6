import ConstellationModel
import Foundation

/// Checks and tidies the user-written fields of a profile.
enum ProfileFields {
    static func displayName(_ raw: String) throws -> String {
        let name = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty else { throw Problem.validation("displayName must not be empty") }
        guard name.count <= Profile.displayNameLimit else {
            throw Problem.validation("displayName must be at most \(Profile.displayNameLimit) characters")
        }
        guard !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw Problem.validation("displayName must not contain control characters")
        }
        return name
    }

    /// nil for an empty headline (which clears it).
    static func headline(_ raw: String) throws -> String? {
        let headline = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard headline.count <= Profile.headlineLimit else {
            throw Problem.validation("headline must be at most \(Profile.headlineLimit) characters")
        }
        guard !headline.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw Problem.validation("headline must not contain control characters")
        }
        return headline.isEmpty ? nil : headline
    }
}
