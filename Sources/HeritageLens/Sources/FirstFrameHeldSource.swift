import HeritageCore

/// A source whose first frame is waited for before the run makes its outputs, then handed out
/// first as if it had just come.
///
/// A camera that opens but sends nothing (stalled, or pulled out at once) is waited for until
/// Ctrl-C; outputs made before that wait would already have emptied an earlier run's files of the
/// same names. Waiting here first means a run that never got a frame changes no file.
public final class FirstFrameHeldSource: FrameSource {
    private let inner: FrameSource
    private var held: Frame?
    private var waited = false

    public init(_ inner: FrameSource) {
        self.inner = inner
    }

    public var name: String { inner.name }
    public var size: Size { inner.size }
    public var framesPerSecond: Double { inner.framesPerSecond }
    public var expectedFrameCount: Int? { inner.expectedFrameCount }
    public var droppedFrameCount: Int { inner.droppedFrameCount }

    /// Blocks until the first frame arrives; false when the source ended or was stopped first.
    /// The frame's image stays the inner source's buffer, untouched until the next frame is asked for.
    public func waitForFirstFrame() throws -> Bool {
        if !waited {
            waited = true
            held = try inner.nextFrame()
        }
        return held != nil
    }

    public func nextFrame() throws -> Frame? {
        if !waited { _ = try waitForFirstFrame() }
        if let frame = held {
            held = nil
            return frame
        }
        return try inner.nextFrame()
    }

    public func close() {
        held = nil
        inner.close()
    }
}
