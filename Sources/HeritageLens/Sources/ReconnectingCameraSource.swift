import Foundation
import HeritageCore
import Logging

/// A live camera that survives being unplugged: when the camera fails, stalls or disappears, the
/// failure is reported and the camera is opened again with growing pauses (0.5 s, 1 s, 2 s … up to
/// `maximumDelay`) until it is back or a stop is requested. Frames keep counting across the gap,
/// so outputs written meanwhile stay valid and in order.
public final class ReconnectingCameraSource: FrameSource {
    public struct Options: Sendable {
        public var firstDelay = 0.5
        public var maximumDelay = 8.0
        public var camera = LiveCameraSource.Options()

        public init() {}
    }

    public let name: String
    public private(set) var size: Size
    public private(set) var framesPerSecond: Double
    public let expectedFrameCount: Int? = nil
    public var droppedFrameCount: Int { droppedBefore + (current?.droppedFrameCount ?? 0) }
    /// Failures seen and reconnections made, for the report.
    public private(set) var failures: [String] = []
    public private(set) var reconnections = 0

    private let open: () throws -> FrameGrabber
    private let options: Options
    private var current: LiveCameraSource?
    private var droppedBefore = 0
    private var delivered = 0
    private var timeOffset = 0.0
    private var lastTime = 0.0
    private let sleep: (Double) -> Void
    private let logger: Logger

    /// `open` makes a grabber for the camera (called again after each failure); the first call
    /// must succeed, so that a camera that was never there is an error, not a wait.
    public init(name: String, options: Options = Options(), sleep: @escaping (Double) -> Void = { usleep(UInt32($0 * 1e6)) },
                logger: Logger = Logger(label: "heritage-lens.camera"), open: @escaping () throws -> FrameGrabber) throws {
        self.name = name
        self.logger = logger
        self.options = options
        self.open = open
        self.sleep = sleep
        let grabber = try open()
        size = grabber.size
        framesPerSecond = grabber.framesPerSecond
        current = LiveCameraSource(grabber: grabber, options: options.camera)
    }

    public func nextFrame() throws -> Frame? {
        while !options.camera.stopRequest.isRequested {
            if current == nil { reconnect() }
            guard let source = current else { return nil }
            do {
                guard let frame = try source.nextFrame() else { return nil }
                // Renumber and keep time running across reconnections.
                let time = frame.time + timeOffset
                lastTime = time
                defer { delivered += 1 }
                return Frame(index: delivered, time: time, availableAt: frame.availableAt, image: frame.image, gray: frame.gray)
            } catch {
                failures.append("\(error)")
                logger.warning("\(error); reconnecting")
                droppedBefore += source.droppedFrameCount
                source.close()
                current = nil
            }
        }
        return nil
    }

    private func reconnect() {
        var delay = options.firstDelay
        while !options.camera.stopRequest.isRequested {
            sleep(delay)
            do {
                let grabber = try open()
                guard grabber.size == size else {
                    grabber.close()
                    logger.warning("\(name): came back at \(grabber.size) instead of \(size); waiting for the same mode")
                    continue
                }
                timeOffset = lastTime + 1 / max(1, framesPerSecond)
                current = LiveCameraSource(grabber: grabber, options: options.camera)
                reconnections += 1
                logger.notice("\(name): camera back after \(failures.count) failure(s)")
                return
            } catch {
                logger.info("\(name): still unavailable (\(error)); next try in \(min(delay * 2, options.maximumDelay)) s")
                delay = min(delay * 2, options.maximumDelay)
            }
        }
    }

    public func close() {
        current?.close()
        current = nil
    }
}
