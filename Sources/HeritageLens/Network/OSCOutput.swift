import HeritageCore
import Logging

/// `--osc HOST:PORT`: each frame, FaceOSC's bundle for the first face and the project's own
/// bundles (`HeritageOSCNamespace`) to every receiver, from a background thread (newest frame
/// first: a frame that arrives while the previous one is still being sent replaces the waiting one).
public final class OSCOutput: LiveOutput {
    private let senders: [UDPSender]
    private var worker: NewestOnlyWorker<LiveFrame>?
    private let logger: Logger

    public init(destinations: [UDPDestination], logger: Logger) throws(NetworkAddressError) {
        var senders: [UDPSender] = []
        for d in destinations { senders.append(try UDPSender(destination: d)) }
        self.senders = senders
        self.logger = logger
        worker = NewestOnlyWorker(name: "hl-osc") { [senders] frame in
            let datagrams = Self.datagrams(for: frame)
            for sender in senders {
                for d in datagrams { sender.send(d) }
            }
        }
    }

    /// The datagrams one frame becomes: FaceOSC's bundle, then the frame's, faces' and cards'.
    public static func datagrams(for frame: LiveFrame) -> [[UInt8]] {
        [FaceOSCProfile.bundle(for: frame.anchors).encoded()]
            + HeritageOSCNamespace.datagrams(HeritageOSCNamespace.bundles(for: frame.anchors, metrics: frame.metrics))
    }

    public var wantsImage: Bool { false }

    public func publish(_ frame: LiveFrame) { worker?.submit(frame) }

    /// Waits until the newest frame has been sent (tests).
    public func drain() { worker?.drain() }

    public func finish() {
        guard let worker else { return }
        worker.drain()
        let skipped = worker.skipped
        worker.finish()
        self.worker = nil
        for s in senders {
            var line = "osc \(s.destination): \(s.sent) datagrams sent"
            if s.failures > 0 { line += ", \(s.failures) failed (no receiver?)" }
            if skipped > 0 { line += ", \(skipped) frames skipped to keep up" }
            logger.info("\(line)")
        }
    }
}
