import ArgumentParser
import Foundation

/// Ids (a device's, a profile's) as command-line arguments: a malformed one is a usage error.
extension UUID: @retroactive ExpressibleByArgument {
    public init?(argument: String) {
        self.init(uuidString: argument.trimmingCharacters(in: .whitespaces))
    }
}
