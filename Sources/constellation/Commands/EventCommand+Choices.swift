import ArgumentParser
import ConstellationModel

extension EventCommand {
    /// A yes or no of mine at an event (`print-badge`, `on-wall`).
    enum YesOrNo: String, ExpressibleByArgument, CaseIterable { case yes, no }

    /// Sets a yes-or-no choice of mine at `event` (`set` answers it as the server stored it), or
    /// without `choice` reads it from my membership (`current`); then prints it, as JSON under
    /// `json` if given, else as `saying` puts it.
    static func choose(
        _ choice: YesOrNo?, at event: String, in session: Session, json: String?, set: (Bool) async throws -> Bool,
        current: (MyEvent) -> Bool, saying: (Bool) -> String
    ) async throws {
        let chosen: Bool
        if let choice {
            chosen = try await set(choice == .yes)
        } else {
            chosen = current(try await membership(of: event, in: session))
        }
        if let json { return try Terminal.printJSON([json: chosen]) }
        Terminal.print(saying(chosen))
    }
}
