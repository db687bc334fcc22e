import CBridge

/// Scheduling of threads that serve other programs (network output): they work between frames.
public enum BackgroundThread {
    /// Lowers the calling thread to background priority (nice 10), as detection runs.
    public static func lowerCurrentPriority() {
        _ = cb_set_thread_background(cb_current_thread_id(), 10)
    }

    /// Registers the calling thread with the frame gate; returns its slot (-1 when none is free).
    public static func registerWithFrameGate() -> Int32 { cb_gate_register_thread() }
    public static func unregisterFromFrameGate(_ slot: Int32) { cb_gate_unregister_thread(slot) }

    /// Runs `body` on the calling, registered thread so that a frame that begins meanwhile holds
    /// it still (where it is in OpenCV's, libjpeg's or this program's code). Only for work that
    /// takes no lock the frame thread takes.
    public static func pausableDuringFrames<R>(slot: Int32, _ body: () throws -> R) rethrows -> R {
        guard slot >= 0 else { return try body() }
        cb_gate_set_working(slot, 1)
        defer { cb_gate_set_working(slot, 0) }
        return try body()
    }

    /// Sleeps while a frame is in progress (or announced), at most `limitNanoseconds`.
    public static func waitForFrameEnd(limitNanoseconds: Int64) { cb_gate_wait(limitNanoseconds) }
}
