import Foundation
import HeritageTooling
import Testing

/// `bench --sinks` writes into a folder of its own; one that a bench ended by a signal left behind
/// is removed by the next bench, and a running bench's is not touched.
struct BenchScratchTests {
    /// The pid of a process that has ended (and been reaped).
    func endedPid() throws -> Int32 {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/true")
        try p.run()
        p.waitUntilExit()
        return p.processIdentifier
    }

    @Test func anEndedBenchsFolderIsRemovedAndARunningOnesKept() throws {
        let parent = TestPaths.scratch()
        let ended = parent + "/heritage-lens-bench-\(try endedPid())"
        let running = parent + "/heritage-lens-bench-1"  // init: always running
        for folder in [ended, running] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try Data("x".utf8).write(to: URL(fileURLWithPath: folder + "/anchors.jsonl"))
        }
        let scratch = try BenchScratch(in: parent)
        #expect(!FileManager.default.fileExists(atPath: ended), "an ended bench's folder stayed")
        #expect(FileManager.default.fileExists(atPath: running + "/anchors.jsonl"), "a running bench's folder was touched")
        #expect(scratch.path == parent + "/heritage-lens-bench-\(getpid())")
        try Data("y".utf8).write(to: URL(fileURLWithPath: scratch.path + "/out.mp4"))
        scratch.remove()
        #expect(!FileManager.default.fileExists(atPath: scratch.path))
    }
}
