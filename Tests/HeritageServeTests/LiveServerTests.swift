import Foundation
import HeritageCore
import HeritageLens
import Logging
import Testing
@testable import HeritageServe

/// The live server with real sockets: a raw TCP client sends what browsers, WebSocket libraries
/// and attackers send, and reads the bytes that come back.
@Suite(.serialized) struct LiveServerTests {
    static func server(_ configure: (inout ServeOptions) -> Void = { _ in }) throws -> LiveServer {
        var options = ServeOptions(address: ServeAddress(port: 0))
        configure(&options)
        return try LiveServer(options: options, logger: Logger(label: "test"))
    }

    static func frame(_ index: Int, image: Image? = nil) -> LiveFrame {
        let face = FaceAnchor(id: 3, boundingBox: Rect(x: 10, y: 20, width: 100, height: 120),
                              landmarks: (0..<68).map { Point2(Double($0) + 0.25, 50 + Double($0) / 3) },
                              pose: Pose(rotation: Vector3(0.1, 0.2, 0.3), translation: Vector3(0, 0, 0.5)))
        let anchors = FrameAnchors(frame: index, time: Double(index) / 30, size: Size(width: 64, height: 48), faces: [face])
        let metrics = FrameMetrics(frame: index, time: Double(index) / 30, tier: "low", totalMilliseconds: 4.25,
                                   stages: [("capture", 0.5), ("faces", 3.0)])
        return LiveFrame(anchors: anchors, metrics: metrics, image: image)
    }

    static func noise(width: Int = 64, height: Int = 48) throws -> Image {
        let image = try Image(width: width, height: height)
        try image.fill(blue: 90, green: 120, red: 200)
        try image.addNoise(sigma: 60, seed: 7)
        return image
    }

    static let upgrade = "GET /anchors HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"

    @Test func viewerPageIsOneSelfContainedDocument() async throws {
        let server = try Self.server()
        defer { server.finish() }
        let (status, head, body) = try await RawHTTPClient.get("/", port: server.port)
        #expect(status == 200)
        #expect(head.lowercased().contains("content-type: text/html"))
        #expect(body.contains("/stream.mjpg") && body.contains("/anchors") && body.contains("/metrics.json"))
        #expect(!body.contains("http://") && !body.contains("https://") && !body.contains("src=\"//"))
    }

    @Test func webSocketCarriesTheAnchorsLineByteForByte() async throws {
        let server = try Self.server()
        defer { server.finish() }
        let client = try RawHTTPClient(port: server.port)
        await client.send(Self.upgrade)
        let (status, head, rest) = await client.readHead()
        #expect(status == 101)
        #expect(head.contains("s3pPLMBiTxaQ9kYGzzhZRbK+xOo="))
        let messages = WebSocketTextReader(client, buffered: rest)
        for i in 0..<3 {
            let frame = Self.frame(i)
            server.publish(frame)
            server.drain()
            #expect(await messages.next() == frame.anchors.jsonLine)
        }
    }

    @Test func metricsSummariseTheLatestFrames() async throws {
        let server = try Self.server()
        defer { server.finish() }
        for i in 0..<5 { server.publish(Self.frame(i)); server.drain() }
        let (status, _, body) = try await RawHTTPClient.get("/metrics.json", port: server.port)
        #expect(status == 200)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])
        #expect(json["frame"] as? Int == 4)
        #expect(json["tier"] as? String == "low")
        let total = try #require(json["total_ms"] as? [String: Double])
        #expect(total["p50"] == 4.25)
        #expect((json["stages_ms"] as? [String: Any])?.keys.sorted() == ["capture", "faces"])
    }

    @Test func mjpegStreamSendsJPEGPartsOnlyWhileSomeoneWatches() async throws {
        let server = try Self.server { $0.streamFramesPerSecond = 1000 }
        defer { server.finish() }
        #expect(!server.wantsImage)
        let client = try RawHTTPClient(port: server.port)
        await client.send("GET /stream.mjpg HTTP/1.1\r\nHost: x\r\n\r\n")
        // The subscription is made when the request is handled: wait for it.
        for _ in 0..<100 where !server.wantsImage { try await Task.sleep(nanoseconds: 10_000_000) }
        #expect(server.wantsImage)
        server.publish(Self.frame(0, image: try Self.noise()))
        let (status, head, rest) = await client.readHead()
        #expect(status == 200)
        #expect(head.contains("multipart/x-mixed-replace; boundary=heritagelensframe"))
        var bytes = rest + (await client.read(atLeast: 300 - rest.count))
        let text = String(decoding: bytes.prefix(120), as: UTF8.self)
        #expect(text.contains("--heritagelensframe\r\nContent-Type: image/jpeg\r\nContent-Length: "))
        #expect(text.contains("\r\nX-Frame: 0\r\n\r\n"))
        let headEnd = try #require(RawHTTPClient.headEnd(bytes))
        let length = Int(text.components(separatedBy: "Content-Length: ")[1].prefix { $0.isNumber })!
        bytes += await client.read(atLeast: headEnd + 4 + length - bytes.count)
        let jpeg = Array(bytes[(headEnd + 4)..<(headEnd + 4 + length)])
        #expect(jpeg.prefix(2) == [0xff, 0xd8] && jpeg.suffix(2) == [0xff, 0xd9])
    }

    @Test func clientsBeyondTheLimitGet503() async throws {
        let server = try Self.server { $0.clientsPerRoute = 2 }
        defer { server.finish() }
        let streams = try (0..<2).map { _ in try RawHTTPClient(port: server.port) }
        for s in streams { await s.send("GET /stream.mjpg HTTP/1.1\r\nHost: x\r\n\r\n") }
        for _ in 0..<100 where server.hubCounts.stream < 2 { try await Task.sleep(nanoseconds: 10_000_000) }
        #expect(try await RawHTTPClient.get("/stream.mjpg", port: server.port).status == 503)
        let sockets = try (0..<2).map { _ in try RawHTTPClient(port: server.port) }
        for s in sockets {
            await s.send(Self.upgrade)
            #expect(await s.readHead().status == 101)
        }
        for _ in 0..<100 where server.hubCounts.anchors < 2 { try await Task.sleep(nanoseconds: 10_000_000) }
        // An upgrade over the limit is refused with 503 too, before any WebSocket is opened.
        let third = try RawHTTPClient(port: server.port)
        await third.send(Self.upgrade)
        let (status, head, _) = await third.readHead()
        #expect(status == 503)
        #expect(head.lowercased().contains("retry-after: 5"))
        #expect(await third.isClosedByPeer())
        // The clients admitted keep their streams.
        #expect(server.hubCounts.anchors == 2)
        // A plain request for the full route gets 503.
        #expect(try await RawHTTPClient.get("/anchors", port: server.port).status == 503)
        // Other routes are not limited.
        #expect(try await RawHTTPClient.get("/metrics.json", port: server.port).status == 200)
    }

    @Test func nothingButTheRoutesIsServed() async throws {
        let server = try Self.server()
        defer { server.finish() }
        let hostile = ["/../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/..%2f..%2fetc%2fpasswd", "//etc/passwd",
                       "/stream.mjpg/../../../etc/passwd", "/%2e%2e%5c%2e%2e%5cetc%5cpasswd", "/index.html",
                       "/.%00./etc/passwd", "/Package.swift", "/metrics.json/..%2f..%2fetc%2fpasswd"]
        for path in hostile {
            let (status, _, body) = try await RawHTTPClient.get(path, port: server.port)
            #expect(status == 404 || status == 400, "\(path) gave \(status)")
            #expect(!body.contains("root:"))
        }
        #expect(try await RawHTTPClient.get("/anchors", port: server.port).status == 426)
        let post = try RawHTTPClient(port: server.port)
        await post.send("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc")
        #expect(await post.readHead().status != 200)
    }

    @Test func malformedAndOversizedRequestsAreRefusedAndTheServerGoesOn() async throws {
        let server = try Self.server()
        defer { server.finish() }
        let garbage = try RawHTTPClient(port: server.port)
        await garbage.send("\u{01}\u{02}NOT HTTP AT ALL\r\n\r\n")
        #expect(await garbage.readHead().status == 400)
        #expect(await garbage.isClosedByPeer())
        let huge = try RawHTTPClient(port: server.port)
        await huge.send("GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + String(repeating: "a", count: 100_000) + "\r\n\r\n")
        #expect(await huge.readHead().status == 431)
        let longPath = try await RawHTTPClient.get("/" + String(repeating: "a", count: 20_000), port: server.port)
        #expect(longPath.status == 431 || longPath.status == 414)
        #expect(try await RawHTTPClient.get("/", port: server.port).status == 200)
    }

    @Test func aRequestHeadThatNeverCompletesIsClosed() async throws {
        let server = try Self.server { $0.headSeconds = 1 }
        defer { server.finish() }
        let slow = try RawHTTPClient(port: server.port)
        await slow.send("GET / HTTP/1.1\r\nHost: x\r\n")
        let started = Date()
        #expect(await slow.isClosedByPeer())
        #expect(Date().timeIntervalSince(started) < 3)
    }

    @Test func aClientThatStopsReadingIsDroppedAndItsSlotFreed() async throws {
        let server = try Self.server {
            $0.clientsPerRoute = 1
            $0.stallSeconds = 1
            $0.streamFramesPerSecond = 1000
            $0.jpegQuality = 100
        }
        defer { server.finish() }
        let stalled = try RawHTTPClient(port: server.port, receiveBuffer: 4096)
        await stalled.send("GET /stream.mjpg HTTP/1.1\r\nHost: x\r\n\r\n")
        for _ in 0..<100 where !server.wantsImage { try await Task.sleep(nanoseconds: 10_000_000) }
        let image = try Self.noise(width: 640, height: 480)
        #expect(try await RawHTTPClient.get("/stream.mjpg", port: server.port).status == 503)
        // Large frames until the socket's buffers are full and the stall is noticed.
        var freed = false
        for i in 0..<400 {
            server.publish(Self.frame(i, image: image))
            try await Task.sleep(nanoseconds: 20_000_000)
            if server.hubCounts.stream == 0 {
                freed = true
                break
            }
        }
        #expect(freed)
        #expect(server.skippedFrames.stream > 0)
    }

    @Test func aTakenPortIsAOneLineError() throws {
        let first = try Self.server()
        defer { first.finish() }
        #expect(throws: ServeError.self) {
            _ = try LiveServer(options: ServeOptions(address: ServeAddress(port: first.port)), logger: Logger(label: "test"))
        }
    }
}
