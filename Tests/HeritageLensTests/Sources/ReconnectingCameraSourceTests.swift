import Foundation
import HeritageCore
import Testing
@testable import HeritageLens

/// A grabber that delivers nothing: a stalled camera.
final class StalledGrabber: FrameGrabber, @unchecked Sendable {
    let name = "stalled"
    let size = Size(width: 32, height: 24)
    let framesPerSecond = 30.0
    func grab(into image: Image, gray: Image, timeoutMilliseconds: Int) throws -> (capturedAt: UInt64, hasGray: Bool)? {
        usleep(UInt32(timeoutMilliseconds) * 1000)
        return nil
    }
    func close() {}
}

@Suite struct ReconnectingCameraSourceTests {
    @Test func anUnpluggedCameraIsWaitedForAndFramesGoOnInOrder() throws {
        var opened = 0
        var delays: [Double] = []
        let source = try ReconnectingCameraSource(name: "scripted", sleep: { delays.append($0) }) { () throws -> FrameGrabber in
            opened += 1
            switch opened {
            case 1: return ScriptedGrabber(framesPerSecond: 200, failAfter: 5)
            case 2, 3: throw SourceError.cameraNotFound("scripted")
            default: return ScriptedGrabber(framesPerSecond: 200)
            }
        }
        defer { source.close() }
        var frames: [Frame] = []
        while frames.count < 12, let f = try source.nextFrame() { frames.append(f) }
        #expect(frames.map(\.index) == Array(0..<12))
        for (a, b) in zip(frames, frames.dropFirst()) { #expect(b.time > a.time) }
        #expect(source.failures.count == 1)
        #expect(source.reconnections == 1)
        #expect(delays == [0.5, 1, 2])
    }

    @Test func aStalledCameraIsDetectedAndReopened() throws {
        var opened = 0
        var options = ReconnectingCameraSource.Options()
        options.camera.stallTimeout = 0.3
        let source = try ReconnectingCameraSource(name: "stall", options: options, sleep: { _ in }) { () throws -> FrameGrabber in
            opened += 1
            return opened == 1 ? StalledGrabber() : ScriptedGrabber(framesPerSecond: 200)
        }
        defer { source.close() }
        let frame = try source.nextFrame()
        #expect(frame?.index == 0)
        #expect(source.failures.first?.contains("stalled") == true)
    }

    @Test func aCameraThatWasNeverThereIsAnError() {
        #expect(throws: SourceError.cameraNotFound("none")) {
            try ReconnectingCameraSource(name: "none") { () throws -> FrameGrabber in throw SourceError.cameraNotFound("none") }
        }
    }
}
