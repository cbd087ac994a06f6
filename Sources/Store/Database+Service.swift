import ServiceLifecycle

/// The pool as a service of the application's service group, as postgres-nio's client is: it
/// closes when the group shuts down, after every service listed after it (those that use it).
extension Database: Service {
    public func run() async {
        try? await gracefulShutdown()
        await shutdown()
    }
}
