import Foundation
import HeritageCore

/// Every frame of a video file, in order, with its presentation time.
///
/// Without `realtime` it is deterministic: every frame is delivered however long the pipeline
/// takes. With `realtime` it behaves like a live camera: frames are released at their presentation
/// times and those the pipeline is too slow for are skipped (and counted).
public final class VideoFileSource: FrameSource {
    public struct Options: Sendable {
        /// Pace frames at their presentation times and skip late ones, like a camera.
        public var realtime = false
        /// Start again at the end (soak runs, kiosks showing a recording).
        public var loop = false
        public var clock: any MonotonicClock = SystemClock()
        /// Larger frames are refused (`--max-frame-side`).
        public var maximumSide = FrameLimits.defaultMaximumSide

        public init(realtime: Bool = false, loop: Bool = false, maximumSide: Int = FrameLimits.defaultMaximumSide) {
            self.realtime = realtime
            self.loop = loop
            self.maximumSide = maximumSide
        }
    }

    public let name: String
    public let size: Size
    public let framesPerSecond: Double
    public let expectedFrameCount: Int?
    public let codec: String
    public private(set) var droppedFrameCount = 0
    public private(set) var deliveredFrameCount = 0

    private var reader: VideoReader?
    /// When the file was reopened for another pass, until that pass's first frame is decoded.
    private var reopenedAt: UInt64?
    /// Seconds added to presentation times after each loop.
    private var loopOffset = 0.0
    private let options: Options
    private let buffer = Image()
    private var pacer: FramePacer?
    private var firstPTS: Double?
    private var lastTime = -Double.infinity
    /// Frames decoded since the file was (re)opened (delivered or skipped as late): a loop pass that
    /// decodes none must not loop forever.
    private var framesThisPass = 0
    /// The first frame, decoded when the file is opened and not yet taken: a file that opens but
    /// decodes nothing is refused before a run makes or empties any output, so an earlier run's
    /// files of the same names stay as they were.
    private var firstGrab: VideoReader.Result?

    public init(path: String, options: Options = Options()) throws {
        try InputFile.validate(path)
        let r: VideoReader
        do {
            r = try VideoReader(path: path)
        } catch {
            if MP4Probe.lacksIndex(path) { throw SourceError.cutRecording(path) }
            throw SourceError.notAVideo(path, reason: error.message)
        }
        let info = r.info
        guard info.size.width > 0, info.size.height > 0 else {
            throw SourceError.notAVideo(path, reason: "it has no video stream")
        }
        guard info.size.width <= options.maximumSide, info.size.height <= options.maximumSide else {
            throw SourceError.tooLarge(path, size: info.size, limit: options.maximumSide)
        }
        let first = r.grab()
        guard case .frame = first else { throw SourceError.noFramesDecoded(path) }
        firstGrab = first
        reader = r
        name = path
        self.options = options
        size = info.size
        // Some containers (raw streams, broken headers) report no rate; 30 is what cameras give.
        let fps = info.framesPerSecond
        framesPerSecond = fps.isFinite && fps > 0 && fps < 1000 ? fps : 30
        if options.realtime { pacer = FramePacer(framesPerSecond: framesPerSecond, clock: options.clock) }
        expectedFrameCount = info.frameCount > 0 ? info.frameCount : nil
        codec = info.codec
    }

    deinit { close() }

    public func close() {
        reader = nil
    }

    public func nextFrame() throws -> Frame? {
        guard let r = reader else { return nil }
        var available = options.clock.nanoseconds()
        while true {
            let pts: Double
            // Decoded first, converted to BGR only once it is known to be delivered.
            let grabbed = firstGrab ?? r.grab()
            firstGrab = nil
            switch grabbed {
            case .frame(let ms): pts = ms
            case .endOfStream:
                if deliveredFrameCount == 0 { throw SourceError.noFramesDecoded(name) }
                guard options.loop else { return nil }
                // A file that shrank to nothing or vanished since the last pass ends the run with
                // a reason instead of ending it quietly (or looping on an empty file forever).
                guard framesThisPass > 0 else { throw SourceError.loopFailed(name, reason: "no frames on the last pass") }
                reopenedAt = options.clock.nanoseconds()
                do {
                    reader = try VideoReader(path: name)
                } catch {
                    throw SourceError.loopFailed(name, reason: error.message)
                }
                framesThisPass = 0
                loopOffset = lastTime + 1 / framesPerSecond
                firstPTS = nil
                return try nextFrame()
            case .failed:
                // A frame that does not decode mid-stream ends the stream here rather than aborting:
                // what was processed so far is kept and the caller reports the shortfall.
                if deliveredFrameCount == 0 { throw SourceError.noFramesDecoded(name) }
                return nil
            }
            framesThisPass += 1
            if let reopenedAt {
                // Reopening and the new decoder's first frame are a rewind, not a frame's latency
                // (a camera does not rewind): the schedule moves on by their time.
                pacer?.pause(for: options.clock.nanoseconds() &- reopenedAt)
                self.reopenedAt = nil
            }
            let time = presentationTime(pts)
            if pacer != nil {
                switch pacer!.pace(time: time) {
                case .skip:
                    droppedFrameCount += 1
                    lastTime = time
                    continue
                case .deliver(let due):
                    available = due
                }
            }
            guard r.retrieve(into: buffer) else {
                if deliveredFrameCount == 0 { throw SourceError.noFramesDecoded(name) }
                return nil
            }
            lastTime = time
            defer { deliveredFrameCount += 1 }
            return Frame(index: deliveredFrameCount, time: time, availableAt: available, image: buffer)
        }
    }

    /// Seconds from the first frame; falls back to one frame period after the last time when the
    /// container's times are missing or do not increase.
    private func presentationTime(_ ptsMilliseconds: Double) -> Double {
        let seconds = ptsMilliseconds / 1000
        if firstPTS == nil { firstPTS = seconds }
        let t = seconds - firstPTS! + loopOffset
        if !t.isFinite || t <= lastTime { return lastTime.isFinite ? lastTime + 1 / framesPerSecond : loopOffset }
        return t
    }
}
