import NIOPosix
import ServiceLifecycle

/// A started embedded server as a service of the application's service group: it stops when the
/// group shuts down, after every service listed after it (the pool that uses it first).
extension EmbeddedPostgres: Service {
    public func run() async {
        try? await gracefulShutdown()
        // `pg_ctl stop` waits for the server: on a thread where blocking is fine.
        try? await NIOThreadPool.singleton.runIfActive { self.stop() }
    }
}
