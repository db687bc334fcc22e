import Foundation
import Testing
@testable import HeritageLens

@Suite struct OutputPlanTests {
    @Test func oneFileIsRecognisedByEveryPathToIt() throws {
        let dir = TestPaths.scratch()
        try "x".write(toFile: "\(dir)/a.txt", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: "\(dir)/soft", withDestinationPath: "a.txt")
        try FileManager.default.createSymbolicLink(atPath: "\(dir)/chain", withDestinationPath: "\(dir)/soft")
        try FileManager.default.linkItem(atPath: "\(dir)/a.txt", toPath: "\(dir)/hard")
        try FileManager.default.createDirectory(atPath: "\(dir)/sub", withIntermediateDirectories: true)
        let a = FileIdentity(path: "\(dir)/a.txt")
        for other in ["\(dir)/soft", "\(dir)/chain", "\(dir)/hard", "\(dir)/sub/../a.txt", "\(dir)/./a.txt"] {
            #expect(FileIdentity(path: other) == a, "\(other)")
        }
        #expect(FileIdentity(path: "\(dir)/sub") != a)
        // Not created yet: the same resolved path is the same file, a dangling link included.
        try FileManager.default.createSymbolicLink(atPath: "\(dir)/dangling", withDestinationPath: "new.jsonl")
        #expect(FileIdentity(path: "\(dir)/dangling") == FileIdentity(path: "\(dir)/sub/../new.jsonl"))
        #expect(FileIdentity(path: "\(dir)/new.jsonl") != FileIdentity(path: "\(dir)/other.jsonl"))
    }

    @Test func outputsMayNotBeInputsOrEachOther() throws {
        let dir = TestPaths.scratch()
        try "v".write(toFile: "\(dir)/in.mp4", atomically: true, encoding: .utf8)
        var plan = OutputPlan()
        plan.input("INPUT", "\(dir)/in.mp4")
        plan.output("-o", "\(dir)/out.mp4")
        plan.output("--anchors", "\(dir)/a.jsonl")
        try plan.check()

        var clobber = plan
        clobber.output("--metrics", "\(dir)/in.mp4")
        #expect(throws: SinkError.overwritesInput("\(dir)/in.mp4", option: "--metrics", input: "\(dir)/in.mp4", inputOption: "INPUT")) {
            try clobber.check()
        }
        var twice = plan
        twice.output("--metrics", "\(dir)/a.jsonl")
        #expect(throws: SinkError.sameOutput("\(dir)/a.jsonl", options: ["--anchors", "--metrics"])) { try twice.check() }
        var devices = plan
        devices.output("--metrics", "/dev/null")
        devices.output("--report", "/dev/null")
        try devices.check()
        var stdout = OutputPlan()
        stdout.output("--anchors", "-")
        stdout.output("--metrics", "-")
        #expect(throws: SinkError.self) { try stdout.check() }
        // Every file of an input folder is an input.
        var folder = OutputPlan()
        folder.inputFolder("--cards", dir)
        folder.output("--anchors", "\(dir)/in.mp4")
        #expect(throws: SinkError.self) { try folder.check() }
    }

    @Test func foldersAndNamesAreCheckedFirst() throws {
        let dir = TestPaths.scratch()
        var plan = OutputPlan()
        plan.output("--json", "\(dir)/missing/x.json")
        #expect(throws: SinkError.outputFolderMissing("\(dir)/missing/x.json")) { try plan.check() }
        var folder = OutputPlan()
        folder.output("--anchors", dir)
        #expect(throws: SinkError.outputIsFolder(dir)) { try folder.check() }
        var long = OutputPlan()
        long.output("-o", "\(dir)/" + String(repeating: "x", count: 256) + ".mp4")
        #expect(throws: FileNameError.self) { try long.check() }
    }
}
