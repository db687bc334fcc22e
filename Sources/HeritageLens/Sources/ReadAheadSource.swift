import Foundation
import HeritageCore

/// Decodes a recording's next frames on a thread of their own while the pipeline works on the
/// current one (`process --cores 2` and up): the frames are the same, in the same order, so
/// nothing downstream can tell but the time.
///
/// Frames go through a small ring of buffers: the decoder fills a free one, the pipeline takes
/// the oldest full one and hands it back on its next call (a frame's image is the source's buffer
/// until then).
public final class ReadAheadSource: FrameSource, @unchecked Sendable {
    // @unchecked: everything the two threads share is behind `lock`; `inner` is used only by the
    // decoding thread once it has started.
    private let lock = NSCondition()
    private var free: [Image]
    private var ready: [(Frame, Image)] = []
    private var finished = false
    private var failure: Error?
    private var closing = false
    private var handedOut: Image?
    private var started = false
    private let stopped = DispatchSemaphore(value: 0)

    private let inner: FrameSource
    public let name: String
    public let size: Size
    public let framesPerSecond: Double
    public let expectedFrameCount: Int?

    public init(_ inner: FrameSource, depth: Int = 3) {
        self.inner = inner
        name = inner.name
        size = inner.size
        framesPerSecond = inner.framesPerSecond
        expectedFrameCount = inner.expectedFrameCount
        free = (0..<max(2, depth)).map { _ in Image() }
    }

    public var droppedFrameCount: Int { 0 }

    private func decode() {
        defer { stopped.signal() }
        while true {
            lock.lock()
            while !closing && free.isEmpty { lock.wait() }
            if closing {
                lock.unlock()
                return
            }
            let buffer = free.removeLast()
            lock.unlock()
            let outcome = Result { () throws -> Frame? in
                guard let frame = try inner.nextFrame() else { return nil }
                try frame.image.copy(to: buffer)
                return frame
            }
            lock.withLock {
                switch outcome {
                case .success(let frame?): ready.append((frame, buffer))
                case .success(nil): finished = true
                case .failure(let error):
                    failure = error
                    finished = true
                }
                lock.broadcast()
            }
            if case .success(nil) = outcome { return }
            if case .failure = outcome { return }
        }
    }

    public func nextFrame() throws -> Frame? {
        lock.lock()
        defer { lock.unlock() }
        if !started {
            started = true
            let t = Thread { [self] in decode() }
            t.name = "heritage-lens decode ahead"
            t.start()
        }
        if let previous = handedOut {
            free.append(previous)
            handedOut = nil
            lock.broadcast()
        }
        while ready.isEmpty && !finished { lock.wait() }
        guard !ready.isEmpty else {
            if let failure { throw failure }
            return nil
        }
        let (frame, image) = ready.removeFirst()
        handedOut = image
        return Frame(index: frame.index, time: frame.time, availableAt: SystemClock().nanoseconds(), image: image)
    }

    public func close() {
        let wasStarted = lock.withLock {
            closing = true
            lock.broadcast()
            return started
        }
        // Joined: the decoder may be inside the reader, which closing frees.
        if wasStarted { stopped.wait() }
        inner.close()
    }
}
