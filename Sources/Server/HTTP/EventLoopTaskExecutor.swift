import NIOCore

/// Runs a task's jobs on one NIO event loop: a connection's task that prefers it reads its request
/// and writes its answer on the loop that owns the socket, without handing each to another thread
/// and back (`GuardedHTTP1Channel`).
final class EventLoopTaskExecutor: TaskExecutor {
    private let eventLoop: any EventLoop

    init(_ eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        eventLoop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
