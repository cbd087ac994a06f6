/// The words printed on badges and the print sheet, in the language of the page that asked for
/// them (`?lang=en|de`, English unless given): a badge and a sheet are documents the server draws,
/// so their few words live here rather than in the web client's catalogs.
struct BadgeWords: Sendable {
    /// The words in `language`.
    static func of(_ language: DocumentLanguage) -> BadgeWords {
        switch language {
        case .en: english
        case .de: german
        }
    }

    let code: String
    /// The badge's accessible name: `"Badge: Ada"`.
    let badge: @Sendable (_ name: String) -> String
    /// The line beside the code.
    let scanToConnect: String
    /// The sheet's title: `"Badges: RustConf"`.
    let sheetTitle: @Sendable (_ event: String) -> String
    /// The sheet's note on screen: how many badges, how to print and cut.
    let sheetNote: @Sendable (_ count: Int, _ perPage: Int, _ letter: Bool) -> String

    static let english = BadgeWords(
        code: "en", badge: { "Badge: \($0)" }, scanToConnect: "Scan to connect", sheetTitle: { "Badges: \($0)" },
        sheetNote: { count, perPage, letter in
            "\(count) badge\(count == 1 ? "" : "s"), \(perPage) to a page: print on \(letter ? "US Letter" : "A4") at 100 % "
                + "(no “fit to page”), then cut along the dashed lines. Only the attendees who asked for a printed badge are here."
        })

    static let german = BadgeWords(
        code: "de", badge: { "Namensschild: \($0)" }, scanToConnect: "Scannen zum Vernetzen", sheetTitle: { "Namensschilder: \($0)" },
        sheetNote: { count, perPage, letter in
            "\(count == 1 ? "Ein Namensschild" : "\(count) Namensschilder"), \(perPage) pro Seite: auf \(letter ? "US Letter" : "A4") "
                + "in 100 % drucken (nicht „an Seite anpassen“), dann an den gestrichelten Linien schneiden. Hier sind nur die "
                + "Teilnehmenden, die um ein gedrucktes Namensschild gebeten haben."
        })
}
