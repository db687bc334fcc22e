import CBridge

/// Scheduling of threads that serve other programs (network output): they work between frames.
public enum BackgroundThread {
    /// Lowers the calling thread to background priority (nice 10), as detection runs.
    public static func lowerCurrentPriority() {
        _ = cb_set_thread_background(cb_current_thread_id())
    }

    /// Sleeps while a frame is in progress (or announced), at most `limitNanoseconds`.
    public static func waitForFrameEnd(limitNanoseconds: Int64) { cb_gate_wait(limitNanoseconds) }
}
