import Foundation
import HeritageBridge
import HeritageCore
import Testing

/// `ImageGeometry.findPatch`, which says where a late detection's face went: the same move found
/// over a small area (one pass) and over a wide one (a coarse pass at half the scale, then the
/// full scale around its best).
@Suite(.enabled(if: TestPaths.debianAsset("astronaut.png") != nil, "needs Samples/debian/astronaut.png (scripts/fetch-debian-assets.sh)"))
struct FindPatchTests {
    /// Two views of the astronaut photo, the second `(dx, dy)` further right and down in the
    /// photo: what sits at p in the first sits at p - (dx, dy) in the second.
    func views(dx: Int, dy: Int) throws -> (Image, Image) {
        let image = try Image(contentsOf: TestPaths.debianAsset("astronaut.png")!)
        let gray = Image()
        try image.convertToGray(into: gray)
        let first = try gray.cropped(to: Rect(x: 80, y: 50, width: 300, height: 300))
        let second = try gray.cropped(to: Rect(x: Double(80 + dx), y: Double(50 + dy), width: 300, height: 300))
        return (first, second)
    }

    @Test(arguments: [(3, -2, 8.0), (37, -23, 60.0), (-55, -31, 90.0)])
    func findsTheMove(dx: Int, dy: Int, reach: Double) throws {
        let (first, second) = try views(dx: dx, dy: dy)
        // The middle of the face, 48 px, as a late detection's patch (matched at 32 px).
        let patch = Rect(x: 120, y: 40, width: 48, height: 48)
        let area = Rect(x: patch.x - reach, y: patch.y - reach, width: patch.width + 2 * reach,
                        height: patch.height + 2 * reach)
        let found = try #require(try ImageGeometry.findPatch(patch, of: first, in: area, of: second,
                                                             scale: 32 / patch.width))
        #expect(abs(found.move.x + Double(dx)) < 0.75, "x move \(found.move.x), expected \(-dx)")
        #expect(abs(found.move.y + Double(dy)) < 0.75, "y move \(found.move.y), expected \(-dy)")
        #expect(found.correlation > 0.9)
    }
}
