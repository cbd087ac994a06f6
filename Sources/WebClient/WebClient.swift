import Foundation

/// The web client: the attendee's pages (join, my code, `/c#TOKEN`, devices) and the organizer's
/// live page, as plain HTML, JavaScript modules and CSS with no build step, served by the server.
public enum WebClient {
    /// The folder holding the pages (`index.html`, …) and `assets/`; nil if the resource bundle
    /// was not installed beside the binary.
    public static var folder: URL? { Bundle.module.url(forResource: "Web", withExtension: nil) }

    /// Where the bundle was looked for: for the error that says it is missing.
    public static var bundlePath: String { Bundle.module.bundlePath }
}
