import Foundation
import HeritageCore
import Testing
@testable import HeritageLens
@testable import HeritageTooling

/// Batch anchors depend on the input and the options only. They used to differ between runs, more
/// under load: the card tracker's optical flow read pixels of its rendering buffer that were never
/// written, whose values were whatever the heap held there, and the heap's history depends on
/// timing (the progress line draws every few seconds of wall time, so at different frames). Here
/// one run is plain and the others share the machine with busy threads and leave different bytes
/// in freed memory before every frame: all must give the same bytes.
@Suite(.serialized, .enabled(if: TestPaths.debianAsset("astronaut.png") != nil
                                 && FileManager.default.fileExists(atPath: TestPaths.packageRoot + "/Samples/cards/cards.json"),
                             "needs Samples/debian (scripts/fetch-debian-assets.sh) and Samples/cards"))
struct DeterminismTests {
    @Test func batchAnchorsAreTheSameUnderLoadAndWhateverTheHeapHeld() throws {
        let dir = TestPaths.scratch()
        var options = SampleVideo.Options()
        options.frameCount = 40
        options.portraitPath = TestPaths.debianAsset("astronaut.png")!
        options.cardsFolder = TestPaths.packageRoot + "/Samples/cards"
        try SampleVideo(options: options).write(to: "\(dir)/in.mp4")
        let cards = try CardSet(folder: options.cardsFolder)

        func anchors(busy: Bool, scribble: UInt8?) throws -> String {
            let tracker = try CardTracker(cards: cards, background: false, intrinsics: .assumed(for: options.size))
            let collector = AnchorCollector()
            let pipeline = try PipelineConfiguration(cards: tracker, pose: .assumed(for: options.size))
                .makePipeline(source: try VideoFileSource(path: "\(dir)/in.mp4"), sinks: [collector])
            if let byte = scribble { pipeline.onFrame = { _ in Self.scribbleFreedMemory(byte) } }
            let load = busy ? BusyThreads(count: ProcessInfo.processInfo.activeProcessorCount) : nil
            defer { load?.stop() }
            Self.scribbleFreedMemory(scribble ?? 0)
            _ = try pipeline.run()
            return collector.frames.map(\.jsonLine).joined(separator: "\n")
        }

        let alone = try anchors(busy: false, scribble: nil)
        #expect(alone.contains("chunfen"), "the sample's card must be tracked for this test to mean anything")
        let loaded = try anchors(busy: true, scribble: 0x5A)
        let other = try anchors(busy: true, scribble: 0xA5)
        #expect(loaded == alone)
        #expect(other == alone)
    }

    /// Allocates frame-sized blocks, fills them with `byte` and frees them, so the next buffers
    /// of that size start with those bytes rather than what a quiet run would have left.
    static func scribbleFreedMemory(_ byte: UInt8) {
        // Freeing one mapped block raises glibc's mmap threshold above frame size, so the blocks
        // below come from (and return to) the heap that later cv::Mats are carved from.
        free(malloc(4 << 20))
        var blocks: [UnsafeMutableRawPointer] = []
        for size in [307_200, 307_200, 614_400, 921_600, 76_800, 19_200] {
            guard let p = malloc(size) else { continue }
            memset(p, Int32(byte), size)
            blocks.append(p)
        }
        blocks.forEach { free($0) }
    }
}

/// Threads that spin until stopped: a machine busy with other work.
final class BusyThreads: @unchecked Sendable {
    private let lock = NSLock()
    private var running = true
    private var threads: [Thread] = []

    init(count: Int) {
        for _ in 0..<max(1, count) {
            let t = Thread { [self] in
                var x = 0.0
                while isRunning { for i in 0..<10_000 { x += Double(i).squareRoot() } }
                _ = x
            }
            threads.append(t)
            t.start()
        }
    }

    private var isRunning: Bool {
        lock.lock(); defer { lock.unlock() }
        return running
    }

    func stop() {
        lock.lock(); running = false; lock.unlock()
        while threads.contains(where: { !$0.isFinished }) { usleep(1_000) }
    }
}
