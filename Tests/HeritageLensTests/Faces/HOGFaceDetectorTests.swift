import Foundation
import HeritageCore
import Testing
@testable import HeritageLens
@testable import HeritageTooling

/// dlib's search compiled twice (the x86-64 baseline and AVX2, chosen at run time): the AVX2 copy
/// must find the same faces with the same scores, up to float summation order.
@Suite(.serialized)
struct HOGFaceDetectorTests {
    /// Whether this CPU reports AVX2 (the kernel list must then offer it: an x86-64 build that
    /// lost its AVX2 copy fails here instead of running a third slower).
    static var cpuHasAVX2: Bool {
        #if arch(x86_64)
        guard let info = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else { return false }
        return info.split(separator: "\n").contains { $0.hasPrefix("flags") && $0.split(separator: " ").contains("avx2") }
        #else
        return false
        #endif
    }

    @Test func theKernelListMatchesTheCPU() {
        let available = DlibFaceScanner.Kernel.available
        #expect(available.contains(.baseline))
        #expect(available.contains(.avx2) == Self.cpuHasAVX2, "kernels \(available)")
        #expect(DlibFaceScanner.Kernel.fastest == (Self.cpuHasAVX2 ? .avx2 : .baseline))
    }

    /// Whole-frame searches (every pyramid level, and the finest levels alone) and the per-frame
    /// check's windows on the shared faces and the portrait: the same boxes, scores within 1e-4.
    @Test(.enabled(if: TestPaths.sharedFaces != nil && Self.cpuHasAVX2, "needs ../shared/data/faces and an AVX2 CPU"))
    func theAVX2SearchFindsWhatTheBaselineFinds() throws {
        let baseline = try DlibFaceScanner(cacheFolder: nil, kernel: .baseline)
        let avx2 = try DlibFaceScanner(cacheFolder: nil, kernel: .avx2)
        #expect(baseline.kernel == .baseline && avx2.kernel == .avx2)
        let dir = TestPaths.sharedFaces!
        let xmls = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix(".xml") }.map { "\(dir)/\($0)" }
        let faces = try AnnotatedFaces.load(xmls)
        try #require(faces.count >= 40)
        var images: [String: Image] = [:]
        var windows = 0, checks = 0, largest = 0.0
        for face in faces {
            let image = try images[face.imagePath] ?? TestImages.gray(at: face.imagePath)
            if images[face.imagePath] == nil {
                images[face.imagePath] = image
                for levels in [0, 2] {
                    let a = try baseline.detect(in: image, region: nil, scale: 1, levels: levels)
                    let b = try avx2.detect(in: image, region: nil, scale: 1, levels: levels)
                    #expect(a.map(\.box) == b.map(\.box), "\(face.imagePath) levels \(levels)")
                    for (x, y) in zip(a, b) { largest = max(largest, abs(x.score - y.score)) }
                    windows += a.count
                }
            }
            let side = (face.box.width + face.box.height) / 2
            for roll in [0.0, 0.3] {
                let a = try #require(try baseline.bestWindow(in: image, centre: face.box.centre, side: side, roll: roll, reach: 2))
                let b = try #require(try avx2.bestWindow(in: image, centre: face.box.centre, side: side, roll: roll, reach: 2))
                #expect(a.centre == b.centre && a.side == b.side, "\(face.imagePath) roll \(roll)")
                largest = max(largest, abs(a.score - b.score))
                checks += 1
            }
        }
        #expect(windows >= 20, "\(windows) detections")
        #expect(checks == faces.count * 2)
        #expect(largest < 1e-4, "largest score difference \(largest)")
    }

    /// A live search's first part leaves out the two finest pyramid levels (`SearchSizes.larger`),
    /// on the level images a whole search scores: what it finds, the whole search finds with the
    /// same score and box (up to a pixel of rounding: the part maps its boxes up two levels at a
    /// time). (A frame shrunk by another resize lost a face the whole search found
    /// at 0.03: held-out seed 495's `small-three` under `--realtime`.)
    @Test(.enabled(if: TestPaths.sharedFaces != nil, "needs ../shared/data/faces"))
    func aSearchWithoutItsFinestLevelsFindsWhatTheWholeSearchFindsThere() throws {
        let scanner = try DlibFaceScanner(cacheFolder: nil)
        let dir = TestPaths.sharedFaces!
        let photos = Set(try AnnotatedFaces.load(try FileManager.default.contentsOfDirectory(atPath: dir)
            .filter { $0.hasSuffix(".xml") }.map { "\(dir)/\($0)" }).map(\.imagePath)).sorted()
        var same = 0, other: [String] = [], largest = 0.0
        for path in photos {
            let image = try TestImages.gray(at: path)
            for scale in [1.0, 1.5, 2.0] {
                let whole = try scanner.detect(in: image, region: nil, scale: scale)
                for found in try scanner.detect(in: image, region: nil, scale: scale, skippingLevels: 2) {
                    let near = { (a: Rect) in
                        abs(a.x - found.box.x) <= 2 && abs(a.y - found.box.y) <= 2
                            && abs(a.width - found.box.width) <= 2 && abs(a.height - found.box.height) <= 2
                    }
                    if let w = whole.first(where: { near($0.box) }) {
                        same += 1
                        largest = max(largest, abs(w.score - found.score))
                    } else if !whole.contains(where: { $0.box.iou(found.box) > 0 }) {
                        other.append("\(path) at \(scale): \(found.box)")
                    }
                }
            }
        }
        #expect(same >= 20, "\(same) detections found by both")
        // Where the whole search also finds the face a level finer it keeps one of the
        // overlapping boxes (dlib drops a box another overlaps or covers), maybe that one;
        // nothing else is the part's alone.
        #expect(other.isEmpty, "found by the part alone: \(other)")
        #expect(largest < 1e-4, "largest score difference \(largest)")
    }
}
