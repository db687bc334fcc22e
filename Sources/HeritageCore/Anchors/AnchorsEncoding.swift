extension FrameAnchors {
    /// Decimals written per quantity: sub-pixel points, rotations in radians, translations in metres.
    public enum Precision {
        public static let pixels = 2
        public static let radians = 5
        public static let metres = 4
        public static let degrees = 2
        public static let seconds = 4
    }

    /// The schema-1 JSON line for this frame (without the newline).
    public var jsonLine: String {
        var j = JSONLineBuilder(capacity: 512 + faces.count * 1400 + cards.count * 200)
        j.raw("{")
        j.key("schema"); j.int(Self.schema)
        j.key("frame"); j.int(frame)
        j.key("t"); j.number(time, decimals: Precision.seconds)
        j.key("width"); j.int(size.width)
        j.key("height"); j.int(size.height)
        j.key("faces"); j.raw("[")
        for (i, face) in faces.enumerated() {
            if i > 0 { j.raw(",") }
            j.raw("{")
            j.key("id"); j.int(face.id)
            let b = face.boundingBox
            j.key("bbox"); j.numbers([b.x, b.y, b.width, b.height], decimals: Precision.pixels)
            j.key("landmarks"); j.points(face.landmarks, decimals: Precision.pixels)
            if let pose = face.pose {
                j.key("pose"); Self.write(pose, into: &j, withEuler: true)
            }
            j.raw("}")
        }
        j.raw("]")
        j.key("cards"); j.raw("[")
        for (i, card) in cards.enumerated() {
            if i > 0 { j.raw(",") }
            j.raw("{")
            j.key("id"); j.string(card.id)
            j.key("corners"); j.points(card.corners, decimals: Precision.pixels)
            if let pose = card.pose {
                j.key("pose"); Self.write(pose, into: &j, withEuler: false)
            }
            j.raw("}")
        }
        j.raw("]}")
        return j.text
    }

    private static func write(_ pose: Pose, into j: inout JSONLineBuilder, withEuler: Bool) {
        j.raw("{")
        j.key("rvec"); j.numbers(pose.rotation.array, decimals: Precision.radians)
        j.key("tvec"); j.numbers(pose.translation.array, decimals: Precision.metres)
        if withEuler {
            j.key("euler_deg"); j.numbers(pose.eulerDegrees.array, decimals: Precision.degrees)
        }
        j.raw("}")
    }
}
