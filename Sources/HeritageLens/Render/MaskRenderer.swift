import HeritageCore

/// Draws a zodiac mask onto a face.
///
/// Low tier: the whole texture by one similarity transform of the eyes, hard edges. High tier: a
/// piecewise-affine warp over the mesh (each landmark lands on its tracked point), parts beyond
/// the face placed by the head pose, feathered alpha, and the mask's brightness matched to the
/// light on the face.
public struct MaskRenderer {
    public let library: MaskLibrary
    /// Focal length in pixels, for placing parts by the head pose (nil: by the eyes only).
    public let focalLength: Double?

    public init(library: MaskLibrary, focalLength: Double? = nil) {
        self.library = library
        self.focalLength = focalLength
    }

    /// `gray`: the frame in gray at `grayScale` times the image's size (the analysis image).
    public func draw(_ kind: MaskKind, on face: FaceAnchor, tier: Tier, into image: Image, gray: Image,
                     grayScale: Double = 1) throws {
        let texture = library.texture(kind)
        let frame = FaceFrame(landmarks: face.landmarks)
        switch tier {
        case .low:
            try image.composite(texture, homography: library.mesh.similarity(to: frame).m, smooth: true)
        case .high:
            let targets = if let pose = face.pose, let focalLength {
                library.mesh.targets(for: face.landmarks, pose: pose, focalLength: focalLength)
            } else {
                library.mesh.targets(for: face.landmarks)
            }
            // A dim face gets a dimmer mask: the luminance inside the face's box against mid-gray.
            let lum = (try? gray.mean(channel: 0, in: grayScale == 1 ? face.boundingBox : face.boundingBox.scaled(by: grayScale))) ?? 128
            let gain = max(0.55, min(1.25, lum / 128))
            let feather = max(1.0, frame.eyeDistance * 0.04)
            try image.warpTriangles(from: texture, sourcePoints: library.mesh.points, destinationPoints: targets,
                                    triangles: library.mesh.triangles, feather: feather, gain: gain)
        }
    }
}
