/// A card's physical geometry for pose: its corners in metres in the card's own frame (origin at
/// the top-left corner, x along the top edge, y down the left edge, z into the card).
public struct CardPlane: Hashable, Sendable {
    public var width: Double
    public var height: Double

    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    /// TL, TR, BR, BL.
    public var corners: [Vector3] {
        [Vector3(0, 0, 0), Vector3(width, 0, 0), Vector3(width, height, 0), Vector3(0, height, 0)]
    }

    /// The homography taking reference-image pixels (w x h) to frame pixels for a card at `pose`
    /// seen through `intrinsics`: K [r1 r2 t] S, S scaling pixels to metres.
    public func homography(referenceSize: Size, pose: Pose, intrinsics k: Intrinsics) -> Homography {
        let r = pose.rotationMatrix.m, t = pose.translation
        let sx = width / Double(referenceSize.width), sy = height / Double(referenceSize.height)
        // Columns of [r1*sx r2*sy t] in camera space, then K.
        let c1 = Vector3(r[0] * sx, r[3] * sx, r[6] * sx)
        let c2 = Vector3(r[1] * sy, r[4] * sy, r[7] * sy)
        func applyK(_ v: Vector3) -> Vector3 { Vector3(k.fx * v.x + k.cx * v.z, k.fy * v.y + k.cy * v.z, v.z) }
        let a = applyK(c1), b = applyK(c2), c = applyK(t)
        return Homography([a.x, b.x, c.x, a.y, b.y, c.y, a.z, b.z, c.z])
    }
}
