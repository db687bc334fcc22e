import CBridge
import HeritageCore

/// A BGR colour with 0-255 components.
public struct Colour: Hashable, Sendable {
    public var blue: Double, green: Double, red: Double

    public init(red: Double, green: Double, blue: Double) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    public static let white = Colour(red: 255, green: 255, blue: 255)
    public static let black = Colour(red: 0, green: 0, blue: 0)
    public static let green = Colour(red: 60, green: 220, blue: 90)
    public static let amber = Colour(red: 255, green: 190, blue: 40)
}

extension Image {
    /// Draws `source` (BGR or BGRA) onto this image through a row-major 3x3 homography, blending
    /// with its alpha channel.
    public func composite(_ source: Image, homography h: [Double], smooth: Bool = true, opacity: Double = 1) throws {
        precondition(h.count == 9, "a homography has 9 values")
        _ = try h.withUnsafeBufferPointer { hp in
            try check(cb_warp_perspective_over(source.raw, raw, hp.baseAddress, smooth ? 1 : 0, opacity),
                      "composite image")
        }
    }

    public func drawLine(from a: Point2, to b: Point2, colour: Colour, thickness: Int = 1, antialiased: Bool = true) {
        cb_draw_line(raw, Float(a.x), Float(a.y), Float(b.x), Float(b.y), colour.blue, colour.green, colour.red,
                     Int32(thickness), antialiased ? 1 : 0)
    }

    public func drawCircle(at c: Point2, radius: Double, colour: Colour, thickness: Int = -1, antialiased: Bool = true) {
        cb_draw_circle(raw, Float(c.x), Float(c.y), Float(radius), colour.blue, colour.green, colour.red,
                       Int32(thickness), antialiased ? 1 : 0)
    }

    /// A rectangle outline, or a filled one blended by `opacity` when `thickness` is -1.
    public func drawRect(_ r: Rect, colour: Colour, opacity: Double = 1, thickness: Int = 1) {
        cb_draw_rect(raw, cb_rect(x: Int32(r.x.rounded()), y: Int32(r.y.rounded()), width: Int32(r.width.rounded()),
                                  height: Int32(r.height.rounded())),
                     colour.blue, colour.green, colour.red, opacity, Int32(thickness))
    }

    public func drawPolygon(_ points: [Point2], colour: Colour, opacity: Double = 1, filled: Bool,
                            thickness: Int = 1, antialiased: Bool = true) {
        let pts = points.map { cb_point2f(x: Float($0.x), y: Float($0.y)) }
        pts.withUnsafeBufferPointer { p in
            _ = cb_draw_polygon(raw, p.baseAddress, Int32(p.count), colour.blue, colour.green, colour.red, opacity,
                                filled ? 1 : 0, Int32(thickness), antialiased ? 1 : 0)
        }
    }

    /// ASCII text; `origin` is the baseline's left end.
    public func drawText(_ text: String, at origin: Point2, scale: Double = 0.5, colour: Colour = .white,
                         thickness: Int = 1) {
        cb_draw_text(raw, text, Float(origin.x), Float(origin.y), scale, colour.blue, colour.green, colour.red,
                     Int32(thickness))
    }

    public func blur(kernel: Int, sigma: Double) throws {
        try check(cb_gaussian_blur(raw, Int32(kernel), sigma), "blur")
    }

    public func addNoise(sigma: Double, seed: UInt64) throws {
        try check(cb_add_noise(raw, sigma, seed), "add noise")
    }

    public func applyGamma(_ gamma: Double) throws {
        try check(cb_apply_gamma(raw, gamma), "gamma")
    }

    public func motionBlur(dx: Double, dy: Double) throws {
        try check(cb_motion_blur(raw, dx, dy), "motion blur")
    }
}

extension Image {
    /// Piecewise-affine warp of `texture` (BGRA) onto this BGR image: each triangle (index triples
    /// into the point lists) of `sourcePoints` onto the same triangle of `destinationPoints`; the
    /// layer's alpha blurred by `feather` px and its colour scaled by `gain` before blending.
    public func warpTriangles(from texture: Image, sourcePoints: [Point2], destinationPoints: [Point2],
                              triangles: [Int32], feather: Double, gain: Double) throws(BridgeError) {
        let src = sourcePoints.map(cb_point2f.init), dst = destinationPoints.map(cb_point2f.init)
        try check(cb_warp_triangles(texture.raw, raw, src, dst, Int32(src.count), triangles, Int32(triangles.count / 3),
                                    feather, gain), "draw mask")
    }
}
