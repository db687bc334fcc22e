#if canImport(Glibc)
import Glibc
#endif

/// Where the pipeline reads time. Injected so tests can run on a fake clock.
public protocol MonotonicClock: Sendable {
    /// Nanoseconds since an arbitrary fixed origin; never goes backwards.
    func nanoseconds() -> UInt64
}

/// CLOCK_MONOTONIC: the clock V4L2 stamps its buffers with, so capture times compare directly.
public struct SystemClock: MonotonicClock {
    public init() {}

    public func nanoseconds() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }
}

/// CPU time of the calling thread, for "CPU per frame" figures that ignore other processes.
public func threadCPUNanoseconds() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}
