import HeritageCore

/// Draws what the trackers found (landmarks, boxes, pose axes, ids) onto the output: a view for
/// checking the trackers, not the product's renderer.
public final class AnchorOverlayStage: FrameStage {
    public let name = "overlay"
    public let reads: Set<FrameField> = [.image]
    public let writes: Set<FrameField> = []
    private let intrinsics: Intrinsics

    public init(intrinsics: Intrinsics) {
        self.intrinsics = intrinsics
    }

    public func process(_ work: inout FrameWork) throws {
        let image = work.frame.image
        for face in work.anchors.faces {
            image.drawRect(face.boundingBox, colour: .green, thickness: 1)
            for p in face.landmarks { image.drawCircle(at: p, radius: 1.5, colour: .amber) }
            image.drawText("face \(face.id)", at: Point2(face.boundingBox.x, face.boundingBox.y - 4), scale: 0.45,
                           colour: .green)
            if let pose = face.pose { drawAxes(pose, on: image, length: 0.06) }
        }
        for card in work.anchors.cards {
            image.drawPolygon(card.corners, colour: .green, filled: false, thickness: 2)
            image.drawText(card.id, at: card.corners[0] - Point2(0, 6), scale: 0.5, colour: .green)
        }
    }

    /// x red, y green, z blue, from the object's origin.
    private func drawAxes(_ pose: Pose, on image: Image, length: Double) {
        func project(_ p: Vector3) -> Point2 { intrinsics.project(pose.transform(p)) }
        let o = project(.zero)
        image.drawLine(from: o, to: project(Vector3(length, 0, 0)), colour: Colour(red: 255, green: 40, blue: 40), thickness: 2)
        image.drawLine(from: o, to: project(Vector3(0, length, 0)), colour: Colour(red: 40, green: 255, blue: 40), thickness: 2)
        image.drawLine(from: o, to: project(Vector3(0, 0, length)), colour: Colour(red: 60, green: 60, blue: 255), thickness: 2)
    }
}
