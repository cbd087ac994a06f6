import Foundation

/// Runs CPU-heavy work off the cooperative pool and, if it takes over a second, says so on stderr.
enum Progress {
    static func run<T: Sendable>(_ label: String, _ work: @escaping @Sendable () -> T) async -> T {
        let clock = ContinuousClock()
        let start = clock.now
        // On a terminal the line counts up in place; in a log, one line says the work has begun.
        let interactive = isatty(STDERR_FILENO) == 1
        let ticker = Task {
            try await Task.sleep(for: .seconds(1))
            guard interactive else { return FileHandle.standardError.write(Data("constellation: \(label)…\n".utf8)) }
            while !Task.isCancelled {
                let elapsed = (clock.now - start).components.seconds
                FileHandle.standardError.write(Data("\rconstellation: \(label)… \(elapsed) s".utf8))
                try await Task.sleep(for: .seconds(1))
            }
        }
        let result = await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: work()) }
        }
        ticker.cancel()
        let elapsed = clock.now - start
        if elapsed >= .seconds(1) {
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
            FileHandle.standardError.write(
                Data("\(interactive ? "\r" : "")constellation: \(label): done in \(String(format: "%.1f", seconds)) s\n".utf8))
        }
        return result
    }
}
