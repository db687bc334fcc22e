import CBridge
import Foundation
import HeritageCore
import Testing
@testable import HeritageLens

@Suite(.enabled(if: FileManager.default.fileExists(atPath: TestPaths.packageRoot + "/Samples/masks/layout.json"),
                "needs Samples/masks"))
struct RenderTests {
    let folder = TestPaths.packageRoot + "/Samples/masks"

    /// A texture with a pure-colour dot at each of the 68 layout landmarks, on transparency.
    func dotTexture(_ mesh: MaskMesh) throws -> Image {
        let t = try Image(width: 512, height: 512, channels: 4)
        try t.fill(blue: 0, green: 0, red: 0, alpha: 0)
        for p in mesh.points.prefix(68) { t.drawCircle(at: p, radius: 1.5, colour: Colour(red: 255, green: 0, blue: 255), antialiased: false) }
        return t
    }

    /// The centroid of magenta pixels within `radius` of `p` in a BGR frame (nil if none).
    func magenta(near p: Point2, in image: Image, radius: Int = 6) -> Point2? {
        var sum = Point2.zero, n = 0.0
        let data = cb_image_data(image.raw)!, step = cb_image_step(image.raw)
        for y in max(0, Int(p.y) - radius)...min(image.height - 1, Int(p.y) + radius) {
            for x in max(0, Int(p.x) - radius)...min(image.width - 1, Int(p.x) + radius) {
                let o = y * step + x * 3
                if data[o] > 180 && data[o + 1] < 90 && data[o + 2] > 180 {
                    sum = sum + Point2(Double(x), Double(y))
                    n += 1
                }
            }
        }
        return n > 0 ? sum / n : nil
    }

    @Test func highTierPutsEveryLandmarkOfTheMaskWithinTwoPixelsOfTheFaces() throws {
        let library = try MaskLibrary(folder: folder)
        let mesh = library.mesh
        // A face: the layout rolled, scaled and moved, with its own expression (mouth opened).
        var landmarks = mesh.points.prefix(68).map { p in
            Homography.similarity(pivot: Point2(256, 220), scale: 0.85, angle: 0.3, position: Point2(320, 230)).apply(p)
        }
        // Its own expression: the lower lip dropped (the inner lip with it, so the mesh does not fold).
        for i in [56, 57, 58, 65, 66, 67] { landmarks[i] = landmarks[i] + Point2(-2, 8) }
        let texture = try dotTexture(mesh)
        let frame = try Image(width: 640, height: 480)
        try frame.fill(blue: 40, green: 40, red: 40)
        let src = mesh.points.map { cb_point2f(x: Float($0.x), y: Float($0.y)) }
        let dst = mesh.targets(for: Array(landmarks)).map { cb_point2f(x: Float($0.x), y: Float($0.y)) }
        try check(cb_warp_triangles(texture.raw, frame.raw, src, dst, Int32(src.count), mesh.triangles,
                                    Int32(mesh.triangles.count / 3), 0, 1), "warp")
        var worst = 0.0
        for (i, p) in landmarks.enumerated() {
            let found = try #require(magenta(near: p, in: frame, radius: 3), "landmark \(i) not drawn")
            worst = max(worst, found.distance(to: p))
        }
        #expect(worst < 2.0, "worst landmark off by \(worst) px")
    }

    @Test func everyMaskDrawsInBothTiersAndOnlyAroundTheFace() throws {
        let library = try MaskLibrary(folder: folder)
        let renderer = MaskRenderer(library: library)
        let landmarks = library.mesh.points.prefix(68).map {
            Homography.similarity(pivot: Point2(256, 220), scale: 0.4, angle: 0, position: Point2(320, 240)).apply($0)
        }
        let face = FaceAnchor(id: 1, boundingBox: Rect(bounding: Array(landmarks)), landmarks: Array(landmarks), pose: nil)
        let gray = try Image(width: 640, height: 480, channels: 1)
        for kind in MaskKind.allCases {
            for tier in Tier.allCases {
                let frame = try Image(width: 640, height: 480)
                let blank = try frame.copy()
                try renderer.draw(kind, on: face, tier: tier, into: frame, gray: gray)
                #expect(try frame.meanAbsoluteDifference(to: blank) > 1, "\(kind) \(tier) drew nothing")
                // Far corners stay untouched.
                #expect(try frame.mean(channel: 1, in: Rect(x: 0, y: 0, width: 60, height: 60)) == 0)
            }
        }
    }

    @Test func cardEffectsStayOnTheCard() throws {
        let cards = try CardSet(folder: TestPaths.packageRoot + "/Samples/cards", cacheFolder: nil)
        let k = Intrinsics.assumed(for: Size(width: 640, height: 480))
        let effects = try CardEffects(intrinsics: k, cards: cards)
        let corners = [Point2(250, 150), Point2(380, 160), Point2(370, 330), Point2(245, 320)]
        let pose = CardPoseSolver(intrinsics: k).pose(corners: corners, plane: cards.cards[0].plane)
        for card in cards.cards {
            let frame = try Image(width: 640, height: 480)
            try effects.draw(CardAnchor(id: card.id, corners: corners, pose: pose), time: 0.5, tier: .low, into: frame)
            // Low tier is flat on the card: nothing outside the quad's box.
            #expect(try frame.mean(channel: 1, in: Rect(x: 0, y: 0, width: 240, height: 480)) == 0, "\(card.id)")
            #expect(try frame.mean(channel: 1, in: Rect(x: 390, y: 0, width: 250, height: 480)) == 0, "\(card.id)")
        }
    }
}
