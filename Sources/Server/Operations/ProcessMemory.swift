import Foundation

#if os(Linux)
    import CMalloc
#endif

/// How the server keeps glibc's heap from growing with its thread count. glibc gives a thread that
/// finds the heap locked an arena of its own, up to eight per core, and memory freed in an arena
/// stays there for that arena's next allocations. The server's event loops, database threads and
/// graph threads all build and drop large graphs and JSON documents, so with the default the
/// resident size grew by about 100 MB in a minute of live updates and stayed there (`Tools/bench-web
/// --parts live`); with one arena per core it returns to near where it started.
public enum ProcessMemory {
    /// One arena per core (two at least), unless `MALLOC_ARENA_MAX` (which glibc reads itself)
    /// says otherwise. Call it first thing: arenas made before it stay.
    public static func limitArenas(environment: [String: String]) {
        #if os(Linux)
            guard environment["MALLOC_ARENA_MAX"] == nil else { return }
            _ = mallopt(M_ARENA_MAX, Int32(max(2, ProcessInfo.processInfo.activeProcessorCount)))
        #endif
    }

    /// Gives the free memory of each arena back to the system: after a large graph job, which
    /// frees megabytes at once.
    static func returnFreedMemory() {
        #if os(Linux)
            _ = malloc_trim(0)
        #endif
    }
}
