import Foundation
import HeritageCore
import Testing
@testable import HeritageLens
@testable import HeritageTooling

/// eval-faces' hard sequences, built as `eval-faces --set hard --seed N` builds them (and its
/// gentle ones, as `--set gentle` does).
enum HardSequences {
    /// The gentle sequence `name` (the same for every seed).
    static func gentle(_ name: String) throws -> FaceSequence {
        try #require(try base().build().first { $0.name == name })
    }

    /// The gentle sequences' builder, from the shared annotated faces.
    static func base() throws -> FaceSequenceBuilder {
        let folder = try #require(TestPaths.sharedFaces)
        let xmls = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".xml") }.sorted()
            .map { (folder as NSString).appendingPathComponent($0) }
        return FaceSequenceBuilder(faces: try AnnotatedFaces.load(xmls), distractorPath: TestPaths.debianAsset("chelsea.png"))
    }

    /// The hard sequence `name` of `seed`, from the shared annotated faces and the Debian photos.
    static func named(_ name: String, seed: UInt64) throws -> FaceSequence {
        let base = try base()
        let photos = ["coffee.png", "rocket.jpg", "hubble_deep_field.jpg", "brick.png", "grass.png", "gravel.png", "chelsea.png"]
            .compactMap { TestPaths.debianAsset($0) }
        let sequences = try HardFaceSequenceBuilder(base: base, backgroundPaths: photos,
                                                    lookAlikePath: TestPaths.debianAsset("astronaut.png")).build(seed: seed)
        return try #require(sequences.first { $0.name == name })
    }

    /// Frame `index` of the hard sequence `name` of `seed`, in gray.
    static func grayFrame(_ name: String, seed: UInt64, at index: Int = 0) throws -> Image {
        try grayFrame(of: try named(name, seed: seed), at: index)
    }

    /// Frame `index` of `sequence`, in gray.
    static func grayFrame(of sequence: FaceSequence, at index: Int = 0) throws -> Image {
        let frame = try Image(width: sequence.scene.size.width, height: sequence.scene.size.height)
        try sequence.scene.render(frame: index, into: frame)
        let gray = Image()
        try frame.convertToGray(into: gray)
        return gray
    }
}
