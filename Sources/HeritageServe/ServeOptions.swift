/// How the live server serves (`--serve` and the `--stream-…` options).
public struct ServeOptions: Sendable {
    public var address: ServeAddress
    /// JPEG quality of the MJPEG stream, 1-100.
    public var jpegQuality = 75
    /// Most MJPEG frames per second sent (the composited video's rate caps it too).
    public var streamFramesPerSecond = 15.0
    /// Most clients of each streaming route (/stream.mjpg, /anchors) at once; more get 503.
    public var clientsPerRoute = 16
    /// A connection with no request in progress for this long is closed.
    public var idleSeconds = 30.0
    /// A connection whose request head is not complete after this long is closed.
    public var headSeconds = 10.0
    /// A streaming client whose socket accepted nothing for this long is dropped.
    public var stallSeconds = 10.0

    public init(address: ServeAddress) { self.address = address }
}
