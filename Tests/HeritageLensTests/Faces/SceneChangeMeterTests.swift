import Foundation
import HeritageCore
import Testing
@testable import HeritageLens
@testable import HeritageTooling

/// A cut is told from motion and from a change of exposure.
@Suite(.enabled(if: TestPaths.debianAsset("coffee.png") != nil && TestPaths.debianAsset("rocket.jpg") != nil,
                "needs Samples/debian (scripts/fetch-debian-assets.sh)"))
struct SceneChangeMeterTests {
    func frame(_ name: String, shift: Double = 0, gain: Double = 1) throws -> Image {
        let photo = try Image(contentsOf: TestPaths.debianAsset(name)!)
        try photo.normalizeToBGR()
        let scene = try SyntheticScene(size: Size(width: 640, height: 480), layers: [
            .init(name: name, image: photo) { _ in
                .similarity(pivot: Point2(200, 200), scale: 1.4, angle: 0, position: Point2(320 + shift, 240))
            },
        ])
        let out = try Image(width: 640, height: 480)
        try scene.render(frame: 0, into: out)
        if gain != 1 { try out.applyLight(gainLeft: gain, gainRight: gain) }
        let gray = Image()
        try out.convertToGray(into: gray)
        return gray
    }

    @Test func aCutIsACutAndMotionOrExposureIsNot() throws {
        let meter = SceneChangeMeter()
        #expect(try !meter.isCut(try frame("coffee.png")))
        #expect(try !meter.isCut(try frame("coffee.png", shift: 25)), "a 25 px pan: \(meter.lastDifference)")
        #expect(try !meter.isCut(try frame("coffee.png", shift: 25, gain: 0.7)), "exposure: \(meter.lastDifference)")
        #expect(try meter.isCut(try frame("rocket.jpg")), "difference \(meter.lastDifference)")
        #expect(try !meter.isCut(try frame("rocket.jpg")))
    }
}
