import CBridge
import HeritageCore

// Conversions between the bridge's plain C structs and the core's value types; internal, so no
// C type reaches another module.

extension cb_point2f {
    init(_ p: Point2) { self.init(x: Float(p.x), y: Float(p.y)) }
    var point: Point2 { Point2(Double(x), Double(y)) }
}

extension cb_point3d {
    init(_ v: Vector3) { self.init(x: v.x, y: v.y, z: v.z) }
}

extension cb_rect {
    /// The pixels `r` covers (outwards); nil is the bridge's "whole image" (width 0).
    init(covering r: Rect?) {
        guard let r else { self.init(x: 0, y: 0, width: 0, height: 0); return }
        self.init(x: Int32(r.x.rounded(.down)), y: Int32(r.y.rounded(.down)), width: Int32(r.width.rounded(.up)),
                  height: Int32(r.height.rounded(.up)))
    }

    var rect: Rect { Rect(x: Double(x), y: Double(y), width: Double(width), height: Double(height)) }
}
