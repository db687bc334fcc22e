import Testing
@testable import HeritageCore

@Suite struct HomographyTests {
    let square = [Point2(0, 0), Point2(100, 0), Point2(100, 150), Point2(0, 150)]

    @Test func fourPointSolveMapsCornersExactly() throws {
        let quad = [Point2(210, 40), Point2(400, 80), Point2(380, 300), Point2(190, 260)]
        let h = try #require(Homography(from: square, to: quad))
        for (s, d) in zip(square, quad) {
            #expect(h.apply(s).distance(to: d) < 1e-9)
        }
    }

    @Test func inverseUndoesTheMap() throws {
        let quad = [Point2(10, 20), Point2(300, 5), Point2(280, 260), Point2(40, 300)]
        let h = try #require(Homography(from: square, to: quad))
        let inv = try #require(h.inverse)
        let p = Point2(37, 91)
        #expect(inv.apply(h.apply(p)).distance(to: p) < 1e-9)
        let identity = h.composed(after: inv)
        for (a, b) in zip(identity.m.map { $0 / identity.m[8] }, Homography.identity.m) {
            #expect(abs(a - b) < 1e-9)
        }
    }

    @Test func collinearPointsAreRejected() {
        let line = [Point2(0, 0), Point2(1, 1), Point2(2, 2), Point2(3, 3)]
        #expect(Homography(from: square, to: line) == nil)
    }

    @Test func similarityRotatesAndScalesAboutThePivot() {
        let h = Homography.similarity(pivot: Point2(50, 50), scale: 2, angle: .pi / 2, position: Point2(300, 200))
        #expect(h.apply(Point2(50, 50)).distance(to: Point2(300, 200)) < 1e-9)
        // One unit to the right of the pivot goes two units down (y down, positive angle clockwise on screen).
        #expect(h.apply(Point2(51, 50)).distance(to: Point2(300, 202)) < 1e-9)
    }
}
