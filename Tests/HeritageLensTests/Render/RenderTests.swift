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
        let data = image.samples(), step = image.width * 3
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
        try frame.warpTriangles(from: texture, sourcePoints: mesh.points, destinationPoints: mesh.targets(for: Array(landmarks)),
                                triangles: mesh.triangles, feather: 0, gain: 1)
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
        let pose = PoseSolver(intrinsics: k).cardPose(corners: corners, plane: cards.cards[0].plane)
        for card in cards.cards {
            let frame = try Image(width: 640, height: 480)
            try effects.draw(CardAnchor(id: card.id, corners: corners, pose: pose), time: 0.5, tier: .low, into: frame)
            // Low tier is flat on the card: nothing outside the quad's box.
            #expect(try frame.mean(channel: 1, in: Rect(x: 0, y: 0, width: 240, height: 480)) == 0, "\(card.id)")
            #expect(try frame.mean(channel: 1, in: Rect(x: 390, y: 0, width: 250, height: 480)) == 0, "\(card.id)")
        }
    }

    /// High tier: a face nearer the camera than a card hides the particles behind it; the same face
    /// behind the card hides nothing.
    @Test func aFaceInFrontHidesTheEffectBehindIt() throws {
        let cards = try CardSet(folder: TestPaths.packageRoot + "/Samples/cards", cacheFolder: nil)
        let k = Intrinsics.assumed(for: Size(width: 640, height: 480))
        let effects = try CardEffects(intrinsics: k, cards: cards)
        let corners = [Point2(250, 150), Point2(380, 160), Point2(370, 330), Point2(245, 320)]
        let plane = cards.cards[0].plane
        let pose = try #require(PoseSolver(intrinsics: k).cardPose(corners: corners, plane: plane))
        let wholeFrame = [Point2(0, 0), Point2(640, 0), Point2(640, 480), Point2(0, 480)]
        let near = EffectOccluder(outline: wholeFrame, depth: pose.translation.z * 0.5)
        let far = EffectOccluder(outline: wholeFrame, depth: pose.translation.z * 3)
        for card in cards.cards {
            let anchor = CardAnchor(id: card.id, corners: corners, pose: pose)
            var drawn: [Double] = []
            for occluders in [[], [far], [near]] {
                let frame = try Image(width: 640, height: 480)
                for t in stride(from: 0.2, through: 2.0, by: 0.45) {
                    try effects.draw(anchor, time: t, tier: .high, into: frame, occluders: occluders)
                }
                drawn.append(try frame.meanAbsoluteDifference(to: try Image(width: 640, height: 480)))
            }
            #expect(drawn[0] > 0, "\(card.id) drew nothing")
            #expect(drawn[1] == drawn[0], "\(card.id): a face behind the card hid something")
            #expect(drawn[2] == 0, "\(card.id): a face in front hid nothing")
        }
    }

    /// Parts beyond the face swing with the head's yaw by their depth; the landmarks stay put, and
    /// a head that faces the camera has no parallax wherever it is in the frame.
    @Test func maskPartsBeyondTheFaceFollowTheHeadPose() throws {
        let mesh = try MaskLibrary(folder: folder).mesh
        let landmarks = Array(mesh.points.prefix(68))
        let f = 500.0, z = 0.6
        let flat = mesh.targets(for: landmarks)
        // Off axis, turned to look straight at the camera, and rolled: no shift.
        let t = Vector3(0.2, -0.1, z)
        let look = Vector3(0, 0, 1), view = t * (1 / t.length)
        let axis = Vector3(look.y * view.z - look.z * view.y, look.z * view.x - look.x * view.z, look.x * view.y - look.y * view.x)
        let angle = Foundation.acos(view.z)
        let facing = Pose(rotation: axis * (angle / axis.length), translation: t)
        let rolled = Pose(rotation: Vector3(0, 0, 0.2), translation: Vector3(0, 0, z))
        for pose in [facing, rolled] {
            let moved = mesh.targets(for: landmarks, pose: pose, focalLength: f)
            for i in flat.indices { #expect(moved[i].distance(to: flat[i]) < 1e-6, "point \(i) moved") }
        }
        let yawed = Pose(rotation: Vector3(0, 0.5, 0), translation: Vector3(0, 0, z))
        let atYaw = mesh.targets(for: landmarks, pose: yawed, focalLength: f)
        for i in 0..<68 { #expect(atYaw[i] == flat[i], "landmark \(i) moved") }
        for i in 68..<flat.count {
            let d = mesh.depths[i]
            let shift = atYaw[i] - flat[i]
            let expected = f * d * Foundation.sin(0.5) / (z + d * Foundation.cos(0.5))
            #expect(d > 0 && abs(shift.x - expected) < 1e-6 && abs(shift.y) < 1e-6, "point \(i): \(shift)")
        }
    }
}
