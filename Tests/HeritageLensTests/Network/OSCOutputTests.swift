import Foundation
import HeritageCore
import Logging
import Testing
@testable import HeritageLens
#if canImport(Glibc)
import Glibc
#endif

/// OSC over a real UDP socket on loopback.
@Suite struct OSCOutputTests {
    /// A bound UDP socket on 127.0.0.1 and its port.
    static func receiver() -> (fd: Int32, port: Int) {
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { p in
                bind(fd, p, length) == 0 && getsockname(fd, p, &length) == 0
            }
        }
        precondition(bound, "cannot bind a UDP socket on 127.0.0.1: \(String(cString: strerror(errno)))")
        var timeout = timeval(tv_sec: 2, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }

    static func frame() -> LiveFrame {
        let face = FaceAnchor(id: 2, boundingBox: Rect(x: 10, y: 20, width: 100, height: 120),
                              landmarks: (0..<68).map { Point2(100 + Double($0 % 17) * 6, 100 + Double($0 / 17) * 20) },
                              pose: Pose(rotation: Vector3(0.1, 0.2, 0.05), translation: Vector3(0, 0, 0.5)))
        let card = CardAnchor(id: "lichun", corners: [Point2(1, 2), Point2(3, 4), Point2(5, 6), Point2(7, 8)], pose: nil)
        return LiveFrame(anchors: FrameAnchors(frame: 5, time: 0.5, size: Size(width: 640, height: 480), faces: [face], cards: [card]),
                         metrics: FrameMetrics(frame: 5, time: 0.5, tier: "low", totalMilliseconds: 3, stages: [("faces", 2)]),
                         image: nil)
    }

    @Test func everyReceiverGetsTheFramesDatagramsInOrder() throws {
        let receivers = [Self.receiver(), Self.receiver()]
        defer { receivers.forEach { close($0.fd) } }
        let output = try OSCOutput(destinations: receivers.map { try UDPDestination("127.0.0.1:\($0.port)") },
                                   logger: Logger(label: "test"))
        let frame = Self.frame()
        output.publish(frame)
        output.drain()
        output.finish()
        let expected = OSCOutput.datagrams(for: frame)
        #expect(expected.count == 1 + 1 + 1 + 1)  // FaceOSC, frame, face, card
        for r in receivers {
            var got: [[UInt8]] = []
            var buffer = [UInt8](repeating: 0, count: 65536)
            for _ in expected {
                let n = buffer.withUnsafeMutableBytes { recv(r.fd, $0.baseAddress, $0.count, 0) }
                if n <= 0 { break }
                got.append(Array(buffer[0..<n]))
            }
            #expect(got == expected)
            #expect(got.allSatisfy { $0.count <= HeritageOSCNamespace.datagramLimit })
        }
    }

    @Test func noReceiverRunningIsNotAnError() throws {
        let (fd, port) = Self.receiver()
        close(fd)
        let output = try OSCOutput(destinations: [try UDPDestination("127.0.0.1:\(port)")], logger: Logger(label: "test"))
        for _ in 0..<3 {
            output.publish(Self.frame())
            output.drain()
        }
        output.finish()
    }

    @Test func destinationsParseAndRefuseClearly() throws {
        #expect(try UDPDestination.split("localhost:8338") == ("localhost", 8338))
        #expect(try UDPDestination.split("[::1]:9000") == ("::1", 9000))
        #expect(throws: NetworkAddressError.badPort("host:0")) { try UDPDestination.split("host:0") }
        #expect(throws: NetworkAddressError.malformed("8338", expected: "HOST:PORT")) { try UDPDestination.split("8338") }
        #expect(throws: NetworkAddressError.self) { try UDPDestination("no-such-host.invalid:8338") }
        #expect(try UDPDestination("[::1]:9000").description == "[::1]:9000")
    }
}

@Suite struct LiveFeedSinkTests {
    final class Recorder: LiveOutput {
        var wantsImage = false
        var frames: [LiveFrame] = []
        var finished = false
        func publish(_ frame: LiveFrame) { frames.append(frame) }
        func finish() { finished = true }
    }

    @Test func publishesWithMetricsAndCopiesTheImageOnlyWhenWanted() throws {
        let recorder = Recorder()
        let feed = LiveFeedSink(outputs: [recorder], droppedFrames: { 7 })
        let image = try Image(width: 8, height: 6)
        for i in 0..<2 {
            recorder.wantsImage = i == 1
            let frame = Frame(index: i, time: Double(i), availableAt: 0, image: image)
            try feed.write(ProcessedFrame(frame: frame, output: image,
                                          anchors: FrameAnchors(frame: i, time: Double(i), size: image.size)))
            feed.frameFinished(FrameMetrics(frame: i, time: Double(i), tier: "low", totalMilliseconds: 1, stages: []))
        }
        #expect(recorder.frames.map(\.anchors.frame) == [0, 1])
        #expect(recorder.frames[0].image == nil)
        let copy = try #require(recorder.frames[1].image)
        #expect(copy !== image && copy.size == image.size)
        #expect(recorder.frames[1].droppedFrames == 7)
        // Metrics for a frame that was not written publish nothing.
        feed.frameFinished(FrameMetrics(frame: 9, time: 9, tier: "low", totalMilliseconds: 1, stages: []))
        #expect(recorder.frames.count == 2)
        try feed.finish()
        #expect(recorder.finished)
    }
}
