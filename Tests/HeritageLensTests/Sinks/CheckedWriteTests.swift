import Foundation
import Testing
@testable import HeritageLens

/// Lines and whole files: every write checked, nothing torn left behind. (A line cut back to the
/// last whole one on a full disk needs a file size limit, which is process-wide: the CLI tests do
/// it in a child, WriteFailureTests.)
@Suite struct CheckedWriteTests {
    @Test func aFullDeviceFailsTheFirstLine() throws {
        let file = try LineFile(path: "/dev/full")
        #expect(throws: SinkError.writeFailed("/dev/full", reason: "No space left on device")) { try file.write(line: "{}") }
        #expect(throws: SinkError.writeFailed("/dev/full", reason: "No space left on device")) { try WholeFile.write("x", to: "/dev/full") }
    }

    @Test func wholeFilesReplaceAtomicallyAndKeepLinks() throws {
        let dir = TestPaths.scratch()
        try WholeFile.write("first\n", to: "\(dir)/r.json")
        chmod("\(dir)/r.json", 0o640)
        try FileManager.default.createSymbolicLink(atPath: "\(dir)/link.json", withDestinationPath: "r.json")
        try WholeFile.write("second\n", to: "\(dir)/link.json")
        #expect(try String(contentsOfFile: "\(dir)/r.json", encoding: .utf8) == "second\n")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: "\(dir)/link.json") == "r.json")
        #expect((try FileManager.default.attributesOfItem(atPath: "\(dir)/r.json")[.posixPermissions] as? Int) == 0o640)
        // No temporary file is left beside it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == ["link.json", "r.json"])
    }

    @Test func snapshotsAreWrittenWhole() throws {
        let dir = TestPaths.scratch()
        let image = try Image(width: 32, height: 16)
        try image.write(to: "\(dir)/s.png")
        #expect(try Image(contentsOf: "\(dir)/s.png").size == image.size)
        #expect(throws: SinkError.self) { try WholeFile.write(image.encoded(as: ".png"), to: "/dev/full") }
    }
}
