import CBridge

/// Scheduling of threads that work beside the frame path (detection, network output): lowered
/// priority, and the frame gate that holds them still while a frame is in progress.
public enum BackgroundThread {
    /// The calling thread's kernel id (never 0).
    public static var currentID: Int32 { cb_current_thread_id() }

    /// Names the calling thread for `top -H`, `ps -L` and debuggers (the kernel keeps 15 bytes).
    public static func nameCurrent(_ name: String) {
        cb_name_current_thread(name)
    }

    /// Lowers the calling thread to `niceness` (1-19; 10: a small share of a busy core, all of an
    /// idle one). Best effort: a refused change leaves the thread as it was.
    public static func lowerCurrentPriority(niceness: Int32 = 10) {
        _ = cb_set_thread_background(cb_current_thread_id(), niceness)
    }

    /// Registers the calling thread with the frame gate; returns its slot (-1 when none is free).
    public static func registerWithFrameGate() -> Int32 { cb_gate_register_thread() }
    public static func unregisterFromFrameGate(_ slot: Int32) { cb_gate_unregister_thread(slot) }

    /// Marks the slot's thread as doing work a frame should pause (or not: idle, or let through).
    public static func setPausable(_ slot: Int32, _ pausable: Bool) {
        guard slot >= 0 else { return }
        cb_gate_set_working(slot, pausable ? 1 : 0)
    }

    /// From the frame thread: lets the slot's thread run on through frames (not pausable, woken
    /// if a frame had paused it) until the thread calls `endLetThrough`, for work a frame waits for.
    public static func letThroughFrames(_ slot: Int32) {
        guard slot >= 0 else { return }
        cb_gate_release(slot)
    }

    /// The slot's own thread, between jobs: frames may hold it still again.
    public static func endLetThrough(_ slot: Int32) {
        guard slot >= 0 else { return }
        cb_gate_clear_release(slot)
    }

    /// Runs `body` on the calling, registered thread so that a frame that begins meanwhile holds
    /// it still (where it is in OpenCV's, libjpeg's or this program's code). Only for work that
    /// takes no lock the frame thread takes.
    public static func pausableDuringFrames<R>(slot: Int32, _ body: () throws -> R) rethrows -> R {
        setPausable(slot, true)
        defer { setPausable(slot, false) }
        return try body()
    }

    /// Sleeps while a frame is in progress (or announced), at most `limitNanoseconds`; with a
    /// slot, not once the frame thread lets that slot through (`letThroughFrames`).
    public static func waitForFrameEnd(slot: Int32 = -1, limitNanoseconds: Int64) {
        slot >= 0 ? cb_gate_wait_slot(slot, limitNanoseconds) : cb_gate_wait(limitNanoseconds)
    }
}
