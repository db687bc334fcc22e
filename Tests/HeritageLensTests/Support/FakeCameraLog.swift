import Foundation

/// The camera emulator's log (FAKECAM_LOG): what the driver side saw and did, one line per event,
/// each starting with its CLOCK_MONOTONIC time. Sequence numbers restart with every stream, so
/// frames are kept per stream (0 for the first STREAMON, 1 for the next…).
struct FakeCameraLog {
    struct Frame {
        var stream: Int
        var sequence: Int
        /// The driver timestamp (start of exposure), seconds.
        var timestamp: Double
        /// When the buffer was handed back as done.
        var completedAt: Double
    }

    /// "MJPG 640x480 1/30" for each STREAMON.
    private(set) var streams: [String] = []
    /// Frames filled into buffers.
    private(set) var frames: [Frame] = []
    /// (stream, sequence) of frames sent corrupted or truncated.
    private(set) var damaged: Set<[Int]> = []
    /// (stream, sequence) of frames handed over together in a burst, in order.
    private(set) var burst: [[Int]] = []
    /// (stream, sequence) of frames the program dequeued, in order.
    private(set) var dequeued: [[Int]] = []
    private(set) var unplugs = 0, replugs = 0, stalls = 0
    let text: String

    init(text: String) {
        self.text = text
        for line in text.split(separator: "\n") {
            let f = line.split(separator: " ").map(String.init)
            guard f.count >= 2, let time = Double(f[0]) else { continue }
            let stream = streams.count - 1
            switch f[1] {
            case "streamon": streams.append(f.dropFirst(2).joined(separator: " "))
            case "unplug": unplugs += 1
            case "replug": replugs += 1
            case "stall": stalls += 1
            case "dqbuf":
                if let i = f.firstIndex(of: "seq"), i + 1 < f.count, let s = Int(f[i + 1]) { dequeued.append([stream, s]) }
            case "frame" where f.count >= 5:
                guard let sequence = Int(f[3]) else { continue }
                if f[4] == "truncated" || f[4] == "corrupted" { damaged.insert([stream, sequence]) }
                if f[4] == "ts", f.contains("index"), let ts = Double(f[5]) {
                    frames.append(Frame(stream: stream, sequence: sequence, timestamp: ts, completedAt: time))
                    if f.last == "burst" { burst.append([stream, sequence]) }
                }
            default: break
            }
        }
    }

    func frame(stream: Int, sequence: Int) -> Frame? {
        frames.first { $0.stream == stream && $0.sequence == sequence }
    }
}
