import Foundation
import HeritageCore
import Testing
@testable import HeritageLens
@testable import HeritageTooling

/// Property: whatever bytes the project's parsers are given (calibration YAML, card lists, mask
/// layouts, landmark XML, the feature cache), they return a value or throw an error that names
/// the file; they never crash. Inputs are seeded mutations of the small committed corpus in
/// Fuzz/Corpus (bit flips, truncation, insertions of structural characters, duplicated spans).
@Suite struct ParserFuzzTests {
    static let corpus = TestPaths.packageRoot + "/Tests/HeritageLensTests/Fuzz/Corpus"
    static let iterations = 150

    static func mutations(of seed: Data, count: Int, seed rngSeed: UInt64) -> [Data] {
        var rng = SplitMix64(seed: rngSeed)
        let structural = Array("{}[]\":,<>/=!&%\u{0}\n-0123456789.eE'".utf8)
        return (0..<count).map { _ in
            var bytes = [UInt8](seed)
            for _ in 0..<(1 + Int(rng.next() % 4)) {
                guard !bytes.isEmpty else { break }
                let at = Int(rng.next() % UInt64(bytes.count))
                switch rng.next() % 5 {
                case 0: bytes[at] ^= UInt8(1 << (rng.next() % 8))
                case 1: bytes = Array(bytes.prefix(at))
                case 2: bytes.insert(structural[Int(rng.next() % UInt64(structural.count))], at: at)
                case 3:
                    let end = min(bytes.count, at + Int(rng.next() % 40))
                    bytes.insert(contentsOf: bytes[at..<end], at: at)
                default: bytes.remove(at: at)
                }
            }
            return Data(bytes)
        }
    }

    func fuzz(_ name: String, seed: UInt64, _ parse: (String) throws -> Void) throws {
        let dir = TestPaths.scratch(name)
        let original = try Data(contentsOf: URL(fileURLWithPath: "\(Self.corpus)/\(name)"))
        try parse(Self.write(original, dir: dir, name: name))  // the seed itself parses
        for (i, data) in Self.mutations(of: original, count: Self.iterations, seed: seed).enumerated() {
            let path = Self.write(data, dir: dir, name: "\(i)-\(name)")
            do {
                try parse(path)
            } catch {
                #expect("\(error)".contains(path) || "\(error)".contains(dir), "error does not name the file: \(error)")
            }
        }
    }

    static func write(_ data: Data, dir: String, name: String) -> String {
        let path = "\(dir)/\(name)"
        _ = FileManager.default.createFile(atPath: path, contents: data)
        return path
    }

    @Test func calibrationFiles() throws {
        try fuzz("calibration.yml", seed: 1) { _ = try CalibrationFile.read($0) }
    }

    @Test func landmarkXML() throws {
        try fuzz("faces.xml", seed: 2) { _ = try AnnotatedFaces.load([$0]) }
    }

    @Test func maskLayouts() throws {
        let masks = TestPaths.packageRoot + "/Samples/masks"
        try fuzz("layout.json", seed: 3) { path in
            // A mask folder whose layout is the mutated file, textures from the real one.
            let dir = (path as NSString).deletingLastPathComponent + "/masks-" + UUID().uuidString.prefix(6)
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: path, toPath: dir + "/layout.json")
            for kind in MaskKind.allCases {
                try FileManager.default.createSymbolicLink(atPath: "\(dir)/\(kind.rawValue).png", withDestinationPath: "\(masks)/\(kind.rawValue).png")
            }
            _ = try MaskLibrary(folder: dir)
        }
    }

    @Test func cardLists() throws {
        let card = TestPaths.packageRoot + "/Samples/cards/guyu.png"
        try fuzz("cards.json", seed: 4) { path in
            let dir = (path as NSString).deletingLastPathComponent + "/cards-" + UUID().uuidString.prefix(6)
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: path, toPath: dir + "/cards.json")
            try FileManager.default.createSymbolicLink(atPath: dir + "/mine.png", withDestinationPath: card)
            try FileManager.default.createSymbolicLink(atPath: dir + "/other.png", withDestinationPath: card)
            do {
                _ = try CardSet(folder: dir, cacheFolder: nil)
            } catch {
                // Card errors name the folder's files; map them to the mutated file for the check.
                throw FuzzError(message: "\(path): \(error)")
            }
        }
    }

    @Test func featureCacheBytes() {
        var rng = SplitMix64(seed: 5)
        let good = CardSet.encode(ORBFeatures(points: [Point2(1, 2), Point2(3, 4)], descriptors: [UInt8](repeating: 7, count: 64)))
        #expect(CardSet.decode(good)?.count == 2)
        for data in Self.mutations(of: good, count: 500, seed: 6) + (0..<100).map({ _ in
            Data((0..<Int(rng.next() % 200)).map { _ in UInt8(rng.next() % 256) })
        }) {
            if let f = CardSet.decode(data) {
                #expect(f.descriptors.count == f.count * 32)
            }
        }
    }

    @Test func referenceCacheBytes() throws {
        var rng = SplitMix64(seed: 8)
        let gray = try Image(samples: (0..<(64 * 20)).map { UInt8(truncatingIfNeeded: $0 * 7) }, width: 64, height: 20)
        let good = CardReferenceCache.encode(gray: gray, trackPoints: [Point2(1.5, 2), Point2(30, 4.25)])
        let decoded = try #require(CardReferenceCache.decode(good))
        #expect(decoded.gray.samples() == gray.samples() && decoded.trackPoints == [Point2(1.5, 2), Point2(30, 4.25)])
        for data in Self.mutations(of: good, count: 500, seed: 9) + (0..<100).map({ _ in
            Data((0..<Int(rng.next() % 200)).map { _ in UInt8(rng.next() % 256) })
        }) {
            if let r = CardReferenceCache.decode(data) {
                #expect(r.gray.width >= 64 && r.gray.samples().count == r.gray.width * r.gray.height)
                #expect(r.trackPoints.allSatisfy { $0.x.isFinite && $0.y.isFinite })
            }
        }
    }
}

struct FuzzError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
