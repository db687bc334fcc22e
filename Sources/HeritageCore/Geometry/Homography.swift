/// A plane-to-plane projective map, row-major 3x3, acting on pixel coordinates.
public struct Homography: Hashable, Sendable {
    public var m: [Double]

    public init(_ m: [Double]) {
        precondition(m.count == 9, "a homography has 9 values")
        self.m = m
    }

    public static let identity = Homography([1, 0, 0, 0, 1, 0, 0, 0, 1])

    /// Rotation by `angle` radians and uniform `scale` about `pivot` (in source coordinates),
    /// then moving `pivot` to `position`.
    public static func similarity(pivot: Point2, scale: Double, angle: Double, position: Point2) -> Homography {
        let c = _cos(angle) * scale, s = _sin(angle) * scale
        return Homography([c, -s, position.x - (c * pivot.x - s * pivot.y),
                           s, c, position.y - (s * pivot.x + c * pivot.y),
                           0, 0, 1])
    }

    /// The exact map taking four source points to four destination points (no three collinear).
    /// Returns nil for a degenerate configuration.
    public init?(from src: [Point2], to dst: [Point2]) {
        precondition(src.count == 4 && dst.count == 4, "four point pairs")
        // 8 unknowns (h33 = 1): for each pair, two rows of the DLT system.
        var a = [[Double]](repeating: [Double](repeating: 0, count: 9), count: 8)
        for i in 0..<4 {
            let (x, y, u, v) = (src[i].x, src[i].y, dst[i].x, dst[i].y)
            a[2 * i] = [x, y, 1, 0, 0, 0, -u * x, -u * y, u]
            a[2 * i + 1] = [0, 0, 0, x, y, 1, -v * x, -v * y, v]
        }
        guard let h = Self.solve(&a) else { return nil }
        self.init(h + [1])
    }

    /// Gaussian elimination with partial pivoting on an n x (n+1) augmented matrix.
    static func solve(_ a: inout [[Double]]) -> [Double]? {
        let n = a.count
        var scale = 0.0
        for row in a { for v in row { scale = max(scale, abs(v)) } }
        for col in 0..<n {
            var pivot = col
            for r in col + 1..<n where abs(a[r][col]) > abs(a[pivot][col]) { pivot = r }
            if abs(a[pivot][col]) < 1e-12 * max(1, scale) { return nil }
            a.swapAt(col, pivot)
            for r in 0..<n where r != col {
                let f = a[r][col] / a[col][col]
                if f == 0 { continue }
                for c in col...n { a[r][c] -= f * a[col][c] }
            }
        }
        return (0..<n).map { a[$0][n] / a[$0][$0] }
    }

    /// Maps a point; a point sent to infinity comes back with non-finite coordinates.
    public func apply(_ p: Point2) -> Point2 {
        let w = m[6] * p.x + m[7] * p.y + m[8]
        return Point2((m[0] * p.x + m[1] * p.y + m[2]) / w, (m[3] * p.x + m[4] * p.y + m[5]) / w)
    }

    /// `self` after `other`: (self ∘ other)(p) = self(other(p)).
    public func composed(after other: Homography) -> Homography {
        var r = [Double](repeating: 0, count: 9)
        for i in 0..<3 {
            for j in 0..<3 {
                r[i * 3 + j] = m[i * 3] * other.m[j] + m[i * 3 + 1] * other.m[3 + j] + m[i * 3 + 2] * other.m[6 + j]
            }
        }
        return Homography(r)
    }

    public var inverse: Homography? {
        let a = m
        let c00 = a[4] * a[8] - a[5] * a[7], c01 = a[5] * a[6] - a[3] * a[8], c02 = a[3] * a[7] - a[4] * a[6]
        let det = a[0] * c00 + a[1] * c01 + a[2] * c02
        guard abs(det) > 1e-15 else { return nil }
        let inv = [
            c00, a[2] * a[7] - a[1] * a[8], a[1] * a[5] - a[2] * a[4],
            c01, a[0] * a[8] - a[2] * a[6], a[2] * a[3] - a[0] * a[5],
            c02, a[1] * a[6] - a[0] * a[7], a[0] * a[4] - a[1] * a[3],
        ]
        return Homography(inv.map { $0 / det })
    }
}
