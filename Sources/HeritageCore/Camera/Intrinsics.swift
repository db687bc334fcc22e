/// A pinhole camera: focal lengths and principal point in pixels, OpenCV's 5 distortion terms.
public struct Intrinsics: Hashable, Sendable {
    public var fx: Double
    public var fy: Double
    public var cx: Double
    public var cy: Double
    /// k1, k2, p1, p2, k3.
    public var distortion: [Double]
    /// The image size these values belong to.
    public var size: Size
    /// Where the values came from, for the log ("Calibration/c922-640x480.yml", "default 62° FOV").
    public var origin: String

    /// Horizontal field of view assumed when a camera has no calibration: typical of USB webcams
    /// (a Logitech C920 is about 70° diagonal, 62° horizontal).
    public static let defaultHorizontalFieldOfViewDegrees = 62.0

    public init(fx: Double, fy: Double, cx: Double, cy: Double, distortion: [Double] = [0, 0, 0, 0, 0],
                size: Size, origin: String) {
        self.fx = fx
        self.fy = fy
        self.cx = cx
        self.cy = cy
        self.distortion = distortion.count >= 5 ? Array(distortion.prefix(5))
            : distortion + Array(repeating: 0, count: 5 - distortion.count)
        self.size = size
        self.origin = origin
    }

    /// The documented default: square pixels, principal point at the centre, no distortion, and
    /// a focal length giving `horizontalFieldOfViewDegrees` across the width.
    public static func assumed(for size: Size,
                               horizontalFieldOfViewDegrees fov: Double = defaultHorizontalFieldOfViewDegrees)
        -> Intrinsics
    {
        let f = Double(size.width) / 2 / _tan(fov / 2 / degreesPerRadian)
        return Intrinsics(fx: f, fy: f, cx: Double(size.width) / 2, cy: Double(size.height) / 2,
                          size: size, origin: "assumed \(Int(fov.rounded()))° horizontal field of view")
    }

    /// The same camera at another resolution of the same aspect (a uniform rescale of the sensor
    /// readout); distortion terms are resolution-independent.
    public func scaled(to newSize: Size) -> Intrinsics {
        let sx = Double(newSize.width) / Double(size.width), sy = Double(newSize.height) / Double(size.height)
        return Intrinsics(fx: fx * sx, fy: fy * sy, cx: (cx + 0.5) * sx - 0.5, cy: (cy + 0.5) * sy - 0.5,
                          distortion: distortion, size: newSize, origin: origin + " scaled to \(newSize)")
    }

    /// Pixel position of a point in the camera's frame (metres, z forward), by the ideal pinhole:
    /// the distortion terms are not applied. Callers check `z > 0` first where a point can be
    /// behind the camera.
    public func project(_ p: Vector3) -> Point2 {
        // (fx * x) / z, not fx * (x / z): the order is part of the output (anchors are compared bit for bit).
        Point2(fx * p.x / p.z + cx, fy * p.y / p.z + cy)
    }

    /// Row-major camera matrix.
    public var cameraMatrix: [Double] { [fx, 0, cx, 0, fy, cy, 0, 0, 1] }

    public var hasDistortion: Bool { distortion.contains { $0 != 0 } }
}
