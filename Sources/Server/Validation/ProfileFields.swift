import ConstellationModel
import Foundation

/// Checks and tidies the user-written fields of a profile.
enum ProfileFields {
    static let displayNameText = UserText(field: "displayName", minimum: 1, maximum: Profile.displayNameLimit)
    static let headlineText = UserText(field: "headline", minimum: 0, maximum: Profile.headlineLimit)

    static func displayName(_ raw: String) throws -> String {
        try displayNameText.check(raw)
    }

    /// nil for an empty headline (which clears it).
    static func headline(_ raw: String) throws -> String? {
        let headline = try headlineText.check(raw)
        return headline.isEmpty ? nil : headline
    }
}
