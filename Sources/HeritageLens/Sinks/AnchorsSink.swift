import HeritageCore

/// The anchors stream: one schema-1 JSON line per processed frame (shared/DESIGN.md).
public final class AnchorsSink: FrameSink {
    private let file: LineFile

    public init(path: String) throws {
        file = try LineFile(path: path)
    }

    public func write(_ frame: ProcessedFrame) throws {
        try file.write(line: frame.anchors.jsonLine)
    }

    public func finish() throws { try file.close() }
}

/// The metrics stream: one JSON line per frame with its stage timings.
public final class MetricsSink {
    private let file: LineFile

    public init(path: String) throws {
        file = try LineFile(path: path)
    }

    public func write(_ metrics: FrameMetrics) throws {
        try file.write(line: metrics.jsonLine)
    }

    public func finish() throws { try file.close() }
}
