import Foundation
import Testing
@testable import HeritageLens

struct BatchOutputsTests {
    @Test func outputsAppearUnderTheirNamesOnlyWhenPublished() throws {
        let dir = TestPaths.scratch()
        let outputs = BatchOutputs(folder: dir, name: "clip", kinds: [.anchors, .metrics, .mkv])
        #expect(outputs.finalPath(.anchors) == "\(dir)/clip.anchors.jsonl")
        #expect(outputs.temporaryPath(.mkv) == "\(dir)/.clip.partial.mkv")
        #expect(outputs.temporaryPath(.anchors) == "\(dir)/.clip.anchors.partial.jsonl")
        for kind in outputs.kinds { _ = FileManager.default.createFile(atPath: outputs.temporaryPath(kind), contents: Data("x".utf8)) }
        #expect(!outputs.isComplete)
        try outputs.publish()
        #expect(outputs.isComplete)
        #expect(outputs.kinds.allSatisfy { !FileManager.default.fileExists(atPath: outputs.temporaryPath($0)) })
    }

    @Test func outputsMadeWithOtherSettingsAreNotComplete() throws {
        let dir = TestPaths.scratch()
        let made = BatchOutputs(folder: dir, name: "clip", kinds: [.anchors], settings: "frames 3")
        #expect(made.state == .incomplete)
        _ = FileManager.default.createFile(atPath: made.temporaryPath(.anchors), contents: Data("x".utf8))
        try made.publish()
        #expect(made.state == .complete)
        let asked = BatchOutputs(folder: dir, name: "clip", kinds: [.anchors], settings: "frames all")
        #expect(asked.state == .otherSettings("frames 3"))
        // Outputs whose settings were never recorded (a kill between publishing and recording).
        unlink(made.settingsPath)
        #expect(made.state == .otherSettings("unrecorded"))
    }

    @Test func aMissingTemporaryFailsThePublishingNamingTheOutput() {
        let dir = TestPaths.scratch()
        let outputs = BatchOutputs(folder: dir, name: "clip", kinds: [.anchors])
        #expect(throws: SinkError.self) { try outputs.publish() }
        #expect(!outputs.isComplete)
    }

    /// A batch killed while recording an input's settings leaves the settings' temporary; the
    /// next run removes those of its own inputs and nothing else in the folder.
    @Test func leftoverSettingsTemporariesOfTheseInputsAreRemoved() throws {
        let dir = TestPaths.scratch()
        let files = [".a.settings.heritage-lens-4242", ".a.b.settings.heritage-lens-17", ".c.settings.heritage-lens-99",
                     ".a.settings", "a.anchors.jsonl", ".a.settings.heritage-lens-x1", "a.settings.heritage-lens-5"]
        for file in files { #expect(FileManager.default.createFile(atPath: "\(dir)/\(file)", contents: Data("x".utf8))) }
        BatchOutputs.removeLeftovers(in: dir, names: ["a", "a.b"])
        let left = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
        #expect(left == [".a.settings", ".a.settings.heritage-lens-x1", ".c.settings.heritage-lens-99",
                         "a.anchors.jsonl", "a.settings.heritage-lens-5"])
    }
}
