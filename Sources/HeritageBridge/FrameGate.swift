import CBridge

/// Frames in progress hold background detection still (see the bridge's gate.cpp for how):
/// scheduling priorities alone, even SCHED_IDLE, let the scheduler hand a detection thread a
/// whole 4 ms tick in the middle of a 5 ms frame.
public enum FrameGate {
    /// The frame path: a frame was taken from the source.
    public static func frameBegan() { cb_frame_began() }
    /// The frame path: a stage ended (a detection thread that could not be paused at the frame's
    /// start is asked again).
    public static func stageEnded() { cb_frame_stage_ended() }
    public static func frameEnded() { cb_frame_ended() }
    /// A paced source: its next frame is due in `nanoseconds` (at most `leadNanoseconds`), so
    /// detection is asleep when it arrives: a waking frame thread that finds a detection thread
    /// running can wait for the scheduler's next tick.
    public static func frameExpected(in nanoseconds: UInt64) { cb_frame_expected(Int64(nanoseconds)) }
    /// How long before a paced frame is due its source announces it: a tick of Linux's scheduler
    /// (4 ms at HZ=250) and a little, as the announcing wakeup itself can be that late.
    public static let leadNanoseconds: UInt64 = 5_000_000
    /// Times a background thread has waited for a frame.
    public static var pauses: Int { Int(cb_gate_pauses()) }
}
