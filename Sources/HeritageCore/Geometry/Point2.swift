/// A point or vector in image pixels (x right, y down).
public struct Point2: Hashable, Sendable {
    public var x: Double
    public var y: Double

    public init(_ x: Double, _ y: Double) {
        self.x = x
        self.y = y
    }

    public static let zero = Point2(0, 0)

    public static func + (a: Point2, b: Point2) -> Point2 { Point2(a.x + b.x, a.y + b.y) }
    public static func - (a: Point2, b: Point2) -> Point2 { Point2(a.x - b.x, a.y - b.y) }
    public static func * (a: Point2, k: Double) -> Point2 { Point2(a.x * k, a.y * k) }
    public static func / (a: Point2, k: Double) -> Point2 { Point2(a.x / k, a.y / k) }

    public var length: Double { (x * x + y * y).squareRoot() }

    public func distance(to other: Point2) -> Double { (self - other).length }

    /// This point rotated by `angle` radians about `centre`.
    public func rotated(by angle: Double, about centre: Point2 = .zero) -> Point2 {
        let c = _cos(angle), s = _sin(angle)
        let d = self - centre
        return Point2(centre.x + c * d.x - s * d.y, centre.y + s * d.x + c * d.y)
    }
}

extension Array where Element == Point2 {
    /// The mean of the points (zero for an empty array).
    public var centroid: Point2 {
        guard !isEmpty else { return .zero }
        return reduce(.zero, +) / Double(count)
    }
}
