import Foundation
import Synchronization
import Testing
@testable import HeritageLens

struct IdleTimeWorkerTests {
    /// Whether a thread of this name is gone within a second: `finish` returns once the thread's
    /// work has returned, the kernel ends the thread a moment later.
    static func threadEnds(_ name: String) -> Bool {
        let deadline = Date().addingTimeInterval(1)
        while threadNames().contains(name) {
            if Date() > deadline { return false }
            usleep(2_000)
        }
        return true
    }

    /// Names of this process's threads, from the kernel (what `top -H` shows).
    static func threadNames() -> [String] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.compactMap { try? String(contentsOfFile: "/proc/self/task/\($0)/comm", encoding: .utf8) }
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
    }

    /// A worker's thread holds the worker's core, not the worker: one dropped without `finish()`
    /// still stops and joins its thread, in both threaded modes.
    @Test(arguments: [IdleTimeWorker<Int, Int>.Mode.idleTime, .beside])
    func aWorkerLetGoOfEndsItsThread(mode: IdleTimeWorker<Int, Int>.Mode) throws {
        let name = "hl-drop-\(mode == .beside ? "b" : "i")"
        var worker: IdleTimeWorker<Int, Int>? = IdleTimeWorker(name: name, mode: mode) { _, frame, job in frame + job }
        let gray = try Image(width: 8, height: 8, channels: 1)
        try worker?.submit(1, on: gray, frameIndex: 41)
        let deadline = Date().addingTimeInterval(5)
        var results: [IdleTimeWorker<Int, Int>.Finished] = []
        while results.isEmpty && Date() < deadline {
            results = worker?.collect() ?? []
            if results.isEmpty { usleep(5_000) }
        }
        #expect(results.map(\.output) == [42])
        #expect(Self.threadNames().contains(name))
        worker = nil
        // deinit stopped and joined the thread.
        #expect(Self.threadEnds(name))
    }

    @Test func aNewestOnlyWorkerLetGoOfEndsItsThread() {
        let handled = Mutex(0)
        var worker: NewestOnlyWorker<Int>? = NewestOnlyWorker(name: "hl-drop-n") { v in handled.withLock { $0 += v } }
        worker?.submit(3)
        worker?.drain()
        #expect(handled.withLock { $0 } == 3)
        #expect(Self.threadNames().contains("hl-drop-n"))
        worker = nil
        #expect(Self.threadEnds("hl-drop-n"))
    }
}
