import Foundation
import HeritageCore

/// Releases a recording's frames at their presentation times, as a live camera would deliver
/// them (`--realtime`), and skips those the pipeline is too slow for.
struct FramePacer {
    enum Decision: Equatable {
        /// Hand the frame over; a camera would have delivered it at `availableAt`.
        case deliver(availableAt: UInt64)
        /// Late by more than a frame: skip it for a fresher one.
        case skip
    }

    let framesPerSecond: Double
    let clock: any MonotonicClock
    private var startedAt: UInt64?
    /// Late frames skipped in a row.
    private var skippedInARow = 0

    init(framesPerSecond: Double, clock: any MonotonicClock) {
        self.framesPerSecond = framesPerSecond
        self.clock = clock
    }

    /// Moves the schedule later by `nanoseconds`, time the source spent on something that is not
    /// a frame's latency.
    mutating func pause(for nanoseconds: UInt64) {
        if let s = startedAt { startedAt = s &+ nanoseconds }
    }

    /// Waits until the frame at `time` seconds is due, or says to skip it.
    mutating func pace(time: Double) -> Decision {
        // The clock starts at the first frame: opening the file and the decoder is not a frame's
        // latency (a camera's first frame arrives complete, too).
        if startedAt == nil { startedAt = clock.nanoseconds() &- UInt64(max(0, time) * 1e9) }
        let due = startedAt! + UInt64(max(0, time) * 1e9)
        let now = clock.nanoseconds()
        let interval = UInt64(1e9 / framesPerSecond)
        // Late by more than a frame: skip it -- but not forever. Where decoding alone is slower
        // than the video (a very weak machine, valgrind) every frame is late; a camera would
        // still hand over what it has, so every second's worth of skipped frames one is
        // delivered anyway.
        if now > due + interval, skippedInARow < max(1, Int(framesPerSecond.rounded())) {
            skippedInARow += 1
            return .skip
        }
        skippedInARow = 0
        if due > now + FrameGate.leadNanoseconds {
            usleep(UInt32(min(1_000_000, (due - FrameGate.leadNanoseconds - now) / 1000)))
        }
        let left = clock.nanoseconds()
        FrameGate.frameExpected(in: due > left ? due - left : 0)
        if due > left { usleep(UInt32(min(1_000_000, (due - left) / 1000))) }
        return .deliver(availableAt: due)
    }
}
