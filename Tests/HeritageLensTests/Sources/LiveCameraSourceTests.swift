import Synchronization
import Foundation
import HeritageCore
import Testing
@testable import HeritageLens

/// A device stand-in for the capture thread's logic: frames at a set rate whose gray level is
/// their sequence number, and an optional fault after some frames. (The V4L2 path itself is
/// exercised through the camera emulator by LiveCameraPathTests.)
final class ScriptedGrabber: FrameGrabber, @unchecked Sendable {
    let name = "scripted"
    let size = Size(width: 32, height: 24)
    let framesPerSecond: Double
    let failAfter: Int?
    private var sequence = 0
    /// Frames grabbed so far, readable from the test's thread.
    let grabbed = Mutex(0)

    init(framesPerSecond: Double, failAfter: Int? = nil) {
        self.framesPerSecond = framesPerSecond
        self.failAfter = failAfter
    }

    func grab(into image: Image, gray: Image, timeoutMilliseconds: Int) throws -> (capturedAt: UInt64, hasGray: Bool)? {
        if let failAfter, sequence >= failAfter { throw SourceError.cameraLost(name) }
        usleep(UInt32(1e6 / framesPerSecond))
        try image.allocate(width: size.width, height: size.height, channels: 3)
        let level = Double(sequence % 250)
        try image.fill(blue: level, green: level, red: level)
        sequence += 1
        grabbed.withLock { $0 = sequence }
        return (SystemClock().nanoseconds(), false)
    }

    func close() {}
}

@Suite struct LiveCameraSourceTests {
    @Test func aSlowConsumerGetsTheNewestFrameAndDropsAreCounted() throws {
        let grabber = ScriptedGrabber(framesPerSecond: 200)
        let source = LiveCameraSource(grabber: grabber)
        defer { source.close() }
        var levels: [Double] = []
        for _ in 0..<6 {
            guard let frame = try source.nextFrame() else { break }
            levels.append(try frame.image.mean(channel: 0, in: Rect(x: 0, y: 0, width: 32, height: 24)))
            // Much slower than the camera: back for the next frame only once the camera has
            // delivered five more (counted, not timed, so a loaded machine does not change it).
            let seen = grabber.grabbed.withLock { $0 }
            let deadline = Date().addingTimeInterval(10)
            while grabber.grabbed.withLock({ $0 }) < seen + 5 && Date() < deadline { usleep(2_000) }
        }
        #expect(levels.count == 6)
        // Each frame is several sequence numbers after the previous one: stale frames were skipped.
        for (a, b) in zip(levels, levels.dropFirst()) { #expect(b - a >= 3) }
        #expect(source.droppedFrameCount >= 15)
    }

    @Test func aFailingCameraIsReportedToTheReader() throws {
        let source = LiveCameraSource(grabber: ScriptedGrabber(framesPerSecond: 200, failAfter: 3))
        defer { source.close() }
        #expect(throws: SourceError.cameraLost("scripted")) {
            for _ in 0..<100 { _ = try source.nextFrame() }
        }
    }
}
