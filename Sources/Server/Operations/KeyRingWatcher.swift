import Keys
import Logging
import NIOPosix
import ServiceLifecycle

/// Rereads the key files every `interval` while the server runs, so that a `keys rotate` takes
/// effect without a restart. A reload that fails is logged and the keys in use stay.
struct KeyRingWatcher: Service {
    let store: KeyRingStore
    let logger: Logger
    var interval: Duration = .seconds(2)

    func run() async throws {
        await cancelWhenGracefulShutdown {
            while true {
                do {
                    try await Task.sleep(for: interval)
                } catch {
                    return
                }
                await check()
            }
        }
    }

    private func check() async {
        do {
            // A few small files: read on the blocking pool, away from the event loops and Swift's shared threads.
            guard try await NIOThreadPool.singleton.runIfActive({ [store] in try store.reloadIfChanged() }) else { return }
            let ring = store.current
            logger.notice(
                "signing keys reloaded",
                metadata: [
                    "keys.signing": "\(ring.signingKid)", "keys.verifying": "\(ring.verificationKeys.keys.sorted())",
                ])
        } catch {
            logger.error("cannot reload the signing keys; the keys loaded before stay in use", metadata: ["error": "\(error)"])
        }
    }
}
