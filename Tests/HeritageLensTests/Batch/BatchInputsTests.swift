import Foundation
import Testing
@testable import HeritageLens

struct BatchInputsTests {
    func folder(_ files: [String], _ name: String = #function) -> String {
        let dir = TestPaths.scratch(name)
        for f in files {
            let path = (dir as NSString).appendingPathComponent(f)
            try? FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            _ = FileManager.default.createFile(atPath: path, contents: Data("x".utf8))
        }
        return dir
    }

    @Test func foldersListsAndFilesGiveOneSortedListWithoutDuplicates() throws {
        let dir = folder(["v/b.mp4", "v/a.mkv", "v/notes.txt", "c.mov", "list/d.avi"])
        try "# comment\n\nd.avi\n\(dir)/c.mov\n".write(toFile: "\(dir)/list/files.txt", atomically: true, encoding: .utf8)
        let inputs = try BatchInputs.gather(["\(dir)/c.mov", "\(dir)/v", "@\(dir)/list/files.txt", "\(dir)/v/./a.mkv"])
        #expect(inputs.map(\.path) == ["\(dir)/c.mov", "\(dir)/list/d.avi", "\(dir)/v/a.mkv", "\(dir)/v/b.mp4"])
        #expect(inputs.map(\.name) == ["c", "d", "a", "b"])
    }

    @Test func aFolderOfImagesIsNotABatchAndAMixedOneIsRefused() {
        let images = folder(["1.png", "2.png"], "images")
        let videos = folder(["1.mp4"], "videos")
        let mixed = folder(["1.mp4", "2.png"], "mixed")
        #expect(!BatchInputs.isFolderOfVideos(images))
        #expect(BatchInputs.isFolderOfVideos(videos))
        #expect(throws: BatchInputError.mixedFolder(mixed)) { try BatchInputs.gather([mixed]) }
        #expect(throws: BatchInputError.emptyFolder(images)) { try BatchInputs.gather([images]) }
    }

    @Test func twoInputsThatWouldWriteTheSameNamesAreRefused() {
        let dir = folder(["a/x.mp4", "b/x.mkv"])
        #expect(throws: BatchInputError.sameName("\(dir)/a/x.mp4", "\(dir)/b/x.mkv", name: "x")) {
            try BatchInputs.gather(["\(dir)/a", "\(dir)/b"])
        }
    }

    /// A relative link keeps its own name and is read where the system reads it (from its own
    /// folder): a batch run from another folder once read a same-named file beside it instead.
    @Test func aLinkIsTakenUnderItsOwnNameAndSpellingsOfOneFileAreOneInput() throws {
        let dir = folder(["A/real.mp4", "A/links/t.mp4"])
        try FileManager.default.createSymbolicLink(atPath: "\(dir)/A/links/s.mp4", withDestinationPath: "../real.mp4")
        try FileManager.default.createSymbolicLink(atPath: "\(dir)/L", withDestinationPath: "A/links")
        let depth = FileManager.default.currentDirectoryPath.split(separator: "/").count
        let relative = String(repeating: "../", count: depth) + dir.dropFirst()
        let inputs = try BatchInputs.gather(["\(relative)/A/links", "\(relative)/A/links/./t.mp4"])
        #expect(inputs.map(\.path) == ["\(relative)/A/links/s.mp4", "\(relative)/A/links/t.mp4"])
        #expect(inputs.map(\.name) == ["s", "t"])
        #expect(BatchInputs.tidied("a/./b//c.mp4") == "a/b/c.mp4")
        #expect(BatchInputs.tidied("\(dir)/A/links/../real.mp4") == "\(dir)/A/real.mp4")
        // `L/..` is the link's target's parent (A), not `dir`: kept as written.
        #expect(BatchInputs.tidied("\(dir)/L/../real.mp4") == "\(dir)/L/../real.mp4")
        // A link and its target are one input, under the first name in sorted order.
        #expect(try BatchInputs.gather(["\(dir)/A/real.mp4", "\(dir)/A/links/s.mp4"]).map(\.path) == ["\(dir)/A/links/s.mp4"])
    }

    @Test func missingFilesAndListsAreNamed() {
        #expect(throws: BatchInputError.missing("/nonexistent/v.mp4")) { try BatchInputs.gather(["/nonexistent/v.mp4"]) }
        #expect(throws: BatchInputError.unreadableList("/nonexistent/l.txt")) { try BatchInputs.gather(["@/nonexistent/l.txt"]) }
        let message = BatchInputError.missing("/x/v.mp4").description
        #expect(message.hasPrefix("/x/v.mp4:") && !message.contains("\n"))
    }

    /// A list's missing entry is kept in its sorted place (to fail when its turn comes), so
    /// shards of a split agree on every position whatever the list's files.
    @Test func aListsMissingEntryKeepsItsPlace() throws {
        let dir = folder(["v/a.mp4", "v/c.mp4"])
        try Data("a.mp4\nb.mp4\nc.mp4\n".utf8).write(to: URL(fileURLWithPath: "\(dir)/v/list.txt"))
        #expect(try BatchInputs.gather(["@\(dir)/v/list.txt"]).map(\.name) == ["a", "b", "c"])
    }
}

struct ShardSelectionTests {
    @Test func shardsPartitionTheListWhateverTheCount() throws {
        let items = Array(0..<23)
        for n in 1...7 {
            var seen: [Int] = []
            for i in 0..<n { seen += try ShardSelection(parsing: "\(i)/\(n)", environment: [:]).select(items) }
            #expect(seen.sorted() == items, "\(n) shards")
        }
        #expect(try ShardSelection(parsing: "1/3", environment: [:]).select(items) == [1, 4, 7, 10, 13, 16, 19, 22])
    }

    @Test func autoReadsTheSchedulersIndex() throws {
        #expect(try ShardSelection(parsing: "auto/4", environment: ["JOB_COMPLETION_INDEX": "2"]) == ShardSelection(index: 2, count: 4))
        #expect(try ShardSelection(parsing: "auto/4", environment: ["SLURM_ARRAY_TASK_ID": "3"]) == ShardSelection(index: 3, count: 4))
        #expect(throws: ShardSelection.ParseError.noScheduler) { try ShardSelection(parsing: "auto/4", environment: [:]) }
        #expect(throws: ShardSelection.ParseError.outOfRange(index: 4, count: 4)) {
            try ShardSelection(parsing: "auto/4", environment: ["SLURM_ARRAY_TASK_ID": "4"])
        }
    }

    @Test func malformedShardsAreRefused() {
        for text in ["3", "1/0", "-1/3", "a/3", "1/3/4", "/3", "3/3"] {
            #expect(throws: ShardSelection.ParseError.self, "\(text)") { try ShardSelection(parsing: text, environment: [:]) }
        }
    }
}
