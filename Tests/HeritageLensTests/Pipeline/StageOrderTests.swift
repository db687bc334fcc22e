import Testing
@testable import HeritageLens

struct StageOrderTests {
    final class Stage: FrameStage {
        let name: String
        let reads: Set<FrameField>
        let writes: Set<FrameField>
        init(_ name: String, reads: Set<FrameField> = [], writes: Set<FrameField> = []) {
            self.name = name
            self.reads = reads
            self.writes = writes
        }
        func process(_ work: inout FrameWork) throws {}
    }

    @Test func stagesAfterWhatTheyReadPass() throws {
        try StageOrder.check([Stage("convert", reads: [.image], writes: [.gray]), Stage("faces", reads: [.gray], writes: [.faces]),
                              Stage("render", reads: [.image], writes: [.rendering])])
        try StageOrder.check([])
    }

    @Test func aStageBeforeItsInputIsNamedWithTheStageToPutFirst() {
        #expect(throws: StageOrder.Problem(stage: "faces", missing: .gray, writtenBy: "convert")) {
            try StageOrder.check([Stage("faces", reads: [.gray], writes: [.faces]), Stage("convert", reads: [.image], writes: [.gray])])
        }
        #expect(throws: StageOrder.Problem(stage: "cards", missing: .gray, writtenBy: nil)) {
            try StageOrder.check([Stage("cards", reads: [.gray])])
        }
        let message = StageOrder.Problem(stage: "faces", missing: .gray, writtenBy: "convert").description
        #expect(message.contains("'faces'") && message.contains("'convert'") && !message.contains("\n"))
    }

    /// The stages the commands use declare what they need: the order `process` builds passes, the
    /// trackers ahead of the conversion do not.
    @Test func theProductStagesDeclareTheirFields() {
        #expect(GrayConversionStage().reads == [.image] && GrayConversionStage().writes == [.gray])
        #expect(throws: StageOrder.Problem.self) {
            try StageOrder.check([StageOrderTests.Stage("probe", reads: [.faces]), GrayConversionStage()])
        }
    }
}
