import Foundation
import HeritageCore
import HeritageLens
import NIOCore

/// Turns published frames into what the routes send: the anchors line (the same bytes as the
/// anchors file), the status JSON and, when a video client is due one, a JPEG framed as a
/// multipart part. All of it on one background thread, newest frame first; the frame thread only
/// hands frames over.
// Unchecked: what request handlers, the frame thread and the worker share is behind `lock`; the
// encoder and status are the worker thread's alone; `worker` is set once in init.
final class LiveHub: LiveOutput, @unchecked Sendable {
    let anchors: Broadcast<String>
    let stream: Broadcast<ByteBuffer>
    private let options: ServeOptions
    private var worker: NewestOnlyWorker<LiveFrame>?
    // Touched only on the worker thread.
    private let encoder = JPEGEncoder()
    private var status = LiveStatus()
    /// The worker thread's frame-gate slot, registered on its first frame.
    private var gateSlot: Int32?
    private let started = Date()
    // Guarded by `lock`: read by request handlers and the frame thread.
    private let lock = NSLock()
    private var statusJSON = "{}"
    private var lastImageAt = -Double.infinity
    private var encodeFailures = 0

    init(options: ServeOptions) {
        self.options = options
        anchors = Broadcast(limit: options.clientsPerRoute)
        stream = Broadcast(limit: options.clientsPerRoute)
        worker = NewestOnlyWorker(name: "hl-serve") { [unowned self] frame in self.prepare(frame) }
    }

    private var now: Double { Date().timeIntervalSince(started) }

    var wantsImage: Bool {
        guard stream.count > 0 else { return false }
        let due = 1 / max(0.1, options.streamFramesPerSecond)
        // A little early: frames come at the source's rate, and waiting for a whole period past
        // the last one would halve 30 fps to 15 at a 30 fps cap.
        return lock.withLock { now - lastImageAt >= due * 0.9 }
    }

    func publish(_ frame: LiveFrame) {
        if frame.image != nil { lock.withLock { lastImageAt = now } }
        worker?.submit(frame)
    }

    var latestStatus: String { lock.withLock { statusJSON } }

    /// Waits until the newest frame is prepared (tests).
    func drain() { worker?.drain() }

    func finish() {
        worker?.drain()
        worker?.finish()
        worker = nil
        if let gateSlot { BackgroundThread.unregisterFromFrameGate(gateSlot) }
        anchors.finish()
        stream.finish()
    }

    private func prepare(_ frame: LiveFrame) {
        anchors.send(frame.anchors.jsonLine)
        status.record(frame.metrics, arrivedAt: now)
        let json = status.json(latest: frame.metrics, dropped: frame.droppedFrames,
                               clients: (anchors.count, stream.count), skipped: (anchors.skipped, stream.skipped))
        lock.withLock { statusJSON = json }
        if let image = frame.image {
            if gateSlot == nil { gateSlot = BackgroundThread.registerWithFrameGate() }
            do {
                // Encoding (a few ms) holds still while a frame is in progress: on a busy machine
                // this thread's share of a core can stretch it over the next frame.
                try BackgroundThread.pausableDuringFrames(slot: gateSlot ?? -1) {
                    try encoder.encode(image, quality: options.jpegQuality) { _ in }
                }
                let part = encoder.lastEncoded { MJPEG.part(jpeg: $0, frame: frame.anchors.frame) }
                stream.send(part)
            } catch {
                lock.withLock { encodeFailures += 1 }
            }
        }
    }
}

/// The multipart/x-mixed-replace framing of the MJPEG stream.
enum MJPEG {
    static let boundary = "heritagelensframe"
    static let contentType = "multipart/x-mixed-replace; boundary=\(boundary)"

    /// One part: boundary, headers (with the frame's index, so a viewer can draw that frame's
    /// anchors over it), the JPEG, CRLF.
    static func part(jpeg: UnsafeRawBufferPointer, frame: Int) -> ByteBuffer {
        let head = "--\(boundary)\r\nContent-Type: image/jpeg\r\nContent-Length: \(jpeg.count)\r\nX-Frame: \(frame)\r\n\r\n"
        var buffer = ByteBuffer()
        buffer.reserveCapacity(head.utf8.count + jpeg.count + 2)
        buffer.writeString(head)
        buffer.writeBytes(jpeg)
        buffer.writeString("\r\n")
        return buffer
    }
}
