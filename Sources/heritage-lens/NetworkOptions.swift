import ArgumentParser
import HeritageLens
import HeritageServe
import Logging

/// Outputs for other programs over the network: OSC receivers and the live server
/// (docs/network-outputs.md).
struct NetworkOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Send anchors as OSC over UDP to HOST:PORT: FaceOSC's messages for the first face and /heritage/… for everything (repeat for more receivers; FaceOSC templates listen on 8338). In process, with --realtime.", valueName: "host:port"))
    var osc: [String] = []

    @Option(parsing: .unconditional, help: ArgumentHelp("Serve a viewer page, /stream.mjpg, the anchors over WebSocket (/anchors) and /metrics.json on [HOST:]PORT (host 127.0.0.1 unless named). In process, with --realtime.", valueName: "[host:]port"))
    var serve: String?

    @Option(name: .customLong("stream-quality"), parsing: .unconditional, help: ArgumentHelp("JPEG quality of /stream.mjpg, 1-100 (default: 75). With --serve.", valueName: "q"))
    var streamQualityAsked: Int?

    @Option(name: .customLong("stream-fps"), parsing: .unconditional, help: ArgumentHelp("Most frames per second sent on /stream.mjpg (default: 15). With --serve.", valueName: "fps"))
    var streamFpsAsked: Double?

    var streamQuality: Int { streamQualityAsked ?? 75 }
    var streamFps: Double { streamFpsAsked ?? 15 }

    var isEmpty: Bool { osc.isEmpty && serve == nil }

    func validate() throws {
        for text in osc {
            do { _ = try UDPDestination.split(text) } catch { throw ValidationError("--osc \(error)") }
        }
        if let serve {
            do { _ = try ServeAddress(serve) } catch { throw ValidationError("\(error)") }
        }
        if !(1...100).contains(streamQuality) { throw ValidationError("--stream-quality must be between 1 and 100") }
        if !(streamFps > 0 && streamFps <= 120) { throw ValidationError("--stream-fps must be more than 0 and at most 120") }
        if serve == nil, streamQualityAsked != nil || streamFpsAsked != nil {
            throw ValidationError("--\(streamQualityAsked != nil ? "stream-quality" : "stream-fps") sets the live server's /stream.mjpg; add --serve [HOST:]PORT, or leave it out")
        }
    }

    /// Starts the outputs asked for (resolving hosts, binding the port); nil when none.
    func makeFeed(droppedFrames: @escaping () -> Int, logger: Logger) throws -> LiveFeedSink? {
        if isEmpty { return nil }
        var outputs: [LiveOutput] = []
        if !osc.isEmpty {
            var destinations: [UDPDestination] = []
            for text in osc {
                do { destinations.append(try UDPDestination(text)) } catch { throw CommandFailure("--osc \(error)") }
            }
            outputs.append(try OSCOutput(destinations: destinations, logger: logger))
            logger.notice("osc: sending to \(destinations.map(\.description).joined(separator: ", "))")
        }
        if let serve {
            var options = ServeOptions(address: try ServeAddress(serve))
            options.jpegQuality = streamQuality
            options.streamFramesPerSecond = streamFps
            do {
                let server = try LiveServer(options: options, logger: logger)
                outputs.append(server)
                logger.notice("viewer: http://\(HostPort(host: options.address.host, port: server.port).description)/")
            } catch {
                for output in outputs { output.finish() }
                throw error
            }
        }
        return LiveFeedSink(outputs: outputs, droppedFrames: droppedFrames)
    }
}
