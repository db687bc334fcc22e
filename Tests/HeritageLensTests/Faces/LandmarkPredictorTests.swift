import Foundation
import HeritageCore
import Testing
@testable import HeritageLens
@testable import HeritageTooling

/// The compact predictor against dlib's own evaluation of the same model file, on real faces:
/// the repacking (16-bit leaves, float output) must not move the points.
@Suite(.serialized, .enabled(if: FileManager.default.fileExists(atPath: FaceModelFiles.landmarks68), "needs libdlib-data"))
struct LandmarkPredictorTests {
    static let predictor = try! LandmarkPredictor(keepingReference: true)

    /// Mean distance between two fits of one face, in outer-eye-corner distances.
    func meanDifference(_ a: [Point2], _ b: [Point2]) -> Double {
        let eyes = b[36].distance(to: b[45])
        return zip(a, b).map { $0.distance(to: $1) }.reduce(0, +) / Double(a.count) / eyes
    }

    /// The shared faces' points were made by dlib's predictor from their boxes, so dlib's own
    /// evaluation reproduces them up to rounding; the compact one must come as close.
    @Test(.enabled(if: TestPaths.sharedFaces != nil, "needs ../shared/data/faces"))
    func theCompactModelFitsTheSharedFacesLikeDlib() throws {
        let dir = TestPaths.sharedFaces!
        let xmls = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix(".xml") }.map { "\(dir)/\($0)" }
        let faces = try AnnotatedFaces.load(xmls)
        try #require(faces.count >= 40)
        var compactError = 0.0, dlibError = 0.0, difference = 0.0, largest = 0.0
        var cache: [String: Image] = [:]
        for face in faces {
            let image = try cache[face.imagePath] ?? TestImages.gray(at: face.imagePath)
            cache[face.imagePath] = image
            let compact = try Self.predictor.fit(in: image, box: face.box)
            let dlib = try Self.predictor.referenceFit(in: image, centre: face.box.centre,
                                                       side: (face.box.width + face.box.height) / 2, roll: 0)
            compactError += meanDifference(compact, face.landmarks)
            dlibError += meanDifference(dlib, face.landmarks)
            difference += meanDifference(compact, dlib)
            largest = max(largest, meanDifference(compact, dlib))
        }
        let n = Double(faces.count)
        #expect(compactError / n <= dlibError / n * 1.1 + 0.002, "compact \(compactError / n), dlib \(dlibError / n)")
        // dlib rounds every point to the crop's integer pixels (up to 192 px for the whole box
        // and margin), which alone is about 1.5 % of the eye distance between the two fits.
        #expect(difference / n < 0.025, "mean difference \(difference / n) eye distances")
        #expect(largest < 0.05, "largest difference \(largest) eye distances")
    }

    @Test(.enabled(if: TestPaths.debianAsset("astronaut.png") != nil, "needs Samples/debian/astronaut.png"))
    func theCompactModelFitsThePortraitLikeDlibAtAnySize() throws {
        let image = try TestImages.gray(at: TestPaths.debianAsset("astronaut.png")!)
        let found = try HOGFaceDetector().detect(in: image, region: nil, scale: 1)
        let face = try #require(found.max { $0.score < $1.score })
        // Sizes below and above the 192 px crop limit, upright and rolled.
        for scale in [0.5, 1.0, 1.6] {
            for roll in [-0.4, 0.0, 0.4] {
                let side = face.box.width * scale
                let compact = try Self.predictor.fit(in: image, centre: face.box.centre, side: side, roll: roll)
                let dlib = try Self.predictor.referenceFit(in: image, centre: face.box.centre, side: side, roll: roll)
                #expect(meanDifference(compact, dlib) < 0.03, "scale \(scale) roll \(roll)")
            }
        }
    }

    @Test func aFileThatIsNotAModelIsAnErrorNamingIt() throws {
        let path = TestPaths.scratch() + "/not-a-model.dat"
        try Data(repeating: 7, count: 1000).write(to: URL(fileURLWithPath: path))
        #expect { try LandmarkPredictor(path: path) } throws: { "\($0)".contains("not-a-model.dat") }
    }

    @Test func aTruncatedModelIsAnErrorNamingIt() throws {
        let path = TestPaths.scratch() + "/truncated.dat"
        let whole = try #require(FileHandle(forReadingAtPath: FaceModelFiles.landmarks68))
        try whole.readData(ofLength: 3_000_000).write(to: URL(fileURLWithPath: path))
        #expect { try LandmarkPredictor(path: path) } throws: { "\($0)".contains("truncated.dat") }
    }

    /// The model cache gives the same fits as the model file, and a damaged cache file is unpacked
    /// again from the model rather than trusted.
    @Test(.enabled(if: TestPaths.debianAsset("astronaut.png") != nil, "needs Samples/debian/astronaut.png"))
    func theCachedModelFitsExactlyLikeTheModelAndADamagedCacheIsRebuilt() throws {
        let cache = TestPaths.scratch()
        let image = try TestImages.gray(at: TestPaths.debianAsset("astronaut.png")!)
        let face = try #require(try HOGFaceDetector().detect(in: image, region: nil, scale: 1).max { $0.score < $1.score })
        func fit(_ p: LandmarkPredictor) throws -> [Point2] {
            try p.fit(in: image, centre: face.box.centre, side: face.box.width, roll: 0.2)
        }
        let direct = try fit(LandmarkPredictor(cacheFolder: nil))
        #expect(try fit(LandmarkPredictor(cacheFolder: cache)) == direct)  // unpacked, then written
        let files = try FileManager.default.contentsOfDirectory(atPath: cache).filter { $0.hasPrefix("landmarks-") }
        #expect(files.count == 1 && !files[0].contains(".tmp."), "\(files)")
        #expect(try fit(LandmarkPredictor(cacheFolder: cache)) == direct)  // from the cache
        let path = cache + "/" + files[0]
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        try handle.seek(toOffset: 1_000_000)
        try handle.write(contentsOf: Data(repeating: 0x5a, count: 64))
        try handle.close()
        #expect(try fit(LandmarkPredictor(cacheFolder: cache)) == direct)  // damaged: checksum fails, unpacked again
    }
}
