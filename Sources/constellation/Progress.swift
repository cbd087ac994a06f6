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
        if clock.now - start >= .seconds(1) {
            FileHandle.standardError.write(Data("\(interactive ? "\r" : "")constellation: \(label): done in \(clock.now - start)\n".utf8))
        }
        return result
    }
}
