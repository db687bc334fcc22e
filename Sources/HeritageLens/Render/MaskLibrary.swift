import Foundation
import HeritageCore

/// The five zodiac masks.
public enum MaskKind: String, CaseIterable, Sendable {
    case ox, dragon, sheep, monkey, pig
}

/// A mask texture and the mesh that maps it onto a face.
///
/// The mesh's points are the 68 landmarks of the layout the mask was drawn on
/// (`Samples/masks/layout.json`) plus outer points on two rings and the texture's corners; the
/// outer points carry what lies beyond the face contour (horns, ears, wool) and follow the head
/// by the similarity transform of the eyes, and, given the head pose, by the parallax of their
/// depth behind the face (`depths`). Triangles come from a Delaunay triangulation of the layout,
/// computed once.
public final class MaskMesh: Sendable {
    public let textureSize: Size
    /// Texture-space points: 68 landmarks, then the outer points.
    public let points: [Point2]
    public let triangles: [Int32]
    /// The layout's eye frame.
    public let layoutFrame: FaceFrame
    /// Metres behind the plane of the landmarks, per point: 0 for the landmarks; the rings sit
    /// where ears, horns and the back of the head do.
    public let depths: [Double]
    /// Ring radii in eye distances from the contour's centre, and their depths.
    static let rings: [(radius: Double, count: Int, depth: Double)] = [(1.35, 16, 0.035), (2.1, 16, 0.06)]

    public init(layout: [Point2], textureSize: Size) throws {
        precondition(layout.count == 68)
        self.textureSize = textureSize
        let frame = FaceFrame(landmarks: layout)
        layoutFrame = frame
        var outer: [Point2] = []
        var depths = [Double](repeating: 0, count: 68)
        let centre = Array(layout[0...16]).centroid
        for ring in Self.rings {
            for k in 0..<ring.count {
                let a = 2 * Double.pi * Double(k) / Double(ring.count)
                outer.append(centre + Point2(Foundation.cos(a), Foundation.sin(a)) * frame.eyeDistance * ring.radius)
                depths.append(ring.depth)
            }
        }
        let w = Double(textureSize.width), h = Double(textureSize.height)
        outer = outer.map { Point2(max(0, min(w - 1, $0.x)), max(0, min(h - 1, $0.y))) }
        outer += [Point2(0, 0), Point2(w - 1, 0), Point2(w - 1, h - 1), Point2(0, h - 1)]
        depths += [Double](repeating: Self.rings.last!.depth, count: 4)
        self.depths = depths
        points = layout + outer
        let inside = points.map { Point2(max(0, min(w - 1, $0.x)), max(0, min(h - 1, $0.y))) }
        triangles = try ImageGeometry.delaunay(inside, in: textureSize, maximumTriangles: 400)
    }

    /// Where each mesh point goes for a face with these landmarks: landmarks onto the tracked
    /// points, outer points by the eyes' similarity.
    public func targets(for landmarks: [Point2]) -> [Point2] {
        let face = FaceFrame(landmarks: landmarks)
        let h = similarity(to: face)
        return landmarks + points[68...].map(h.apply)
    }

    /// As `targets(for:)`, with the outer points moved by the head pose: a point `d` metres behind
    /// the face, along the head's depth axis, shifts in the image by the parallax of that offset
    /// seen from the camera at the head's position. A head facing the camera (its axis along the
    /// line of sight, wherever it is in the frame, at any roll) has none; turning it swings horns
    /// and ears out of the face plane instead of leaving them pasted on it.
    public func targets(for landmarks: [Point2], pose: Pose, focalLength: Double) -> [Point2] {
        var out = targets(for: landmarks)
        let t = pose.translation
        guard t.z > 0.05 else { return out }
        let r = pose.rotationMatrix.m
        let axis = Vector3(r[2], r[5], r[8])  // the head's +z (backwards) in camera coordinates
        let seen = Point2(t.x / t.z, t.y / t.z)
        for i in 68..<out.count where depths[i] > 0 {
            let p = t + axis * depths[i]
            out[i] = out[i] + (Point2(p.x / p.z, p.y / p.z) - seen) * focalLength
        }
        return out
    }

    /// Texture -> frame by the eyes alone (the low tier's whole transform).
    public func similarity(to face: FaceFrame) -> Homography {
        .similarity(pivot: layoutFrame.eyeMidpoint, scale: face.eyeDistance / layoutFrame.eyeDistance,
                    angle: face.roll - layoutFrame.roll, position: face.eyeMidpoint)
    }
}


/// Loads the masks from `Samples/masks`.
public final class MaskLibrary: Sendable {
    public let mesh: MaskMesh
    private let textures: [MaskKind: Image]

    public enum Failure: Error, CustomStringConvertible {
        case missing(String)
        case invalidLayout(String)

        public var description: String {
            switch self {
            case .missing(let p): return "\(p): mask file missing; run from the repository root or redraw with scripts/masks/make_masks.py"
            case .invalidLayout(let p): return "\(p): field landmarks must hold 68 [x, y] pairs"
            }
        }
    }

    public init(folder: String = ProjectAssets.path("Samples/masks")) throws {
        let layoutPath = folder + "/layout.json"
        guard let data = FileManager.default.contents(atPath: layoutPath) else { throw Failure.missing(layoutPath) }
        guard let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let marks = json["landmarks"] as? [[Double]], marks.count == 68, marks.allSatisfy({ $0.count == 2 })
        else { throw Failure.invalidLayout(layoutPath) }
        var textures: [MaskKind: Image] = [:]
        var size = Size(width: 512, height: 512)
        for kind in MaskKind.allCases {
            let path = "\(folder)/\(kind.rawValue).png"
            guard FileManager.default.fileExists(atPath: path) else { throw Failure.missing(path) }
            let image = try Image(contentsOf: path)
            guard image.channels == 4 else { throw Failure.missing(path + " (needs an alpha channel)") }
            textures[kind] = image
            size = image.size
        }
        self.textures = textures
        mesh = try MaskMesh(layout: marks.map { Point2($0[0], $0[1]) }, textureSize: size)
    }

    public func texture(_ kind: MaskKind) -> Image { textures[kind]! }
}
