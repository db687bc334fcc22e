import Foundation
import Testing
@testable import HeritageCore

@Suite struct FaceOSCProfileTests {
    static func rx(_ a: Double) -> Matrix3 { Matrix3([1, 0, 0, 0, cos(a), -sin(a), 0, sin(a), cos(a)]) }
    static func ry(_ a: Double) -> Matrix3 { Matrix3([cos(a), 0, sin(a), 0, 1, 0, -sin(a), 0, cos(a)]) }
    static func rz(_ a: Double) -> Matrix3 { Matrix3([cos(a), -sin(a), 0, sin(a), cos(a), 0, 0, 0, 1]) }

    /// A face whose pose landmarks are the head model turned by `rotation`, scaled to
    /// `pixelsPerMillimetre` and projected orthographically about (320, 240); the other landmarks
    /// sit on a circle (they matter only for /raw and /pose/position).
    static func face(rotation: Matrix3, pixelsPerMillimetre: Double) -> FaceAnchor {
        var points = (0..<68).map { i in Point2(320 + 50 * cos(Double(i)), 240 + 60 * sin(Double(i))) }
        for (index, p) in zip(HeadModel.landmarkIndices, HeadModel.points) {
            let q = rotation * (p * 1000)
            points[index] = Point2(320 + q.x * pixelsPerMillimetre, 240 + q.y * pixelsPerMillimetre)
        }
        let pose = Pose(rotation: rotation.rodrigues, translation: Vector3(0, 0, 0.6))
        return FaceAnchor(id: 1, boundingBox: Rect(x: 200, y: 100, width: 240, height: 280), landmarks: points, pose: pose)
    }

    @Test func orientationIsFaceTrackersEulerOrder() {
        let r = Self.rx(0.1) * Self.ry(-0.2) * Self.rz(0.15)
        let e = FaceOSCProfile.eulerXYZ(r)
        #expect(abs(e.x - 0.1) < 1e-12 && abs(e.y + 0.2) < 1e-12 && abs(e.z - 0.15) < 1e-12)
        let v = FaceOSCProfile.values(for: Self.face(rotation: r, pixelsPerMillimetre: 2))!
        #expect(abs(v.orientation.x - 0.1) < 1e-9 && abs(v.orientation.y + 0.2) < 1e-9 && abs(v.orientation.z - 0.15) < 1e-9)
    }

    @Test func scaleIsPixelsPerFaceTrackerUnit() {
        let r = Self.rx(0.1) * Self.ry(-0.2) * Self.rz(0.15)
        let v = FaceOSCProfile.values(for: Self.face(rotation: r, pixelsPerMillimetre: 2))!
        #expect(abs(v.scale - 2 * FaceOSCProfile.millimetresPerUnit) < 1e-9)
        // FaceTracker's own scale: its mean face is 23.61 units between the outer eye corners.
        let frontal = FaceOSCProfile.values(for: Self.face(rotation: .identity, pixelsPerMillimetre: 1.5))!
        let face = Self.face(rotation: .identity, pixelsPerMillimetre: 1.5)
        #expect(abs(face.landmarks[36].distance(to: face.landmarks[45]) / frontal.scale - 23.61) < 1e-9)
    }

    @Test func positionIsTheCentroidOfFaceTrackersSixtySixPoints() {
        let face = Self.face(rotation: .identity, pixelsPerMillimetre: 2)
        let v = FaceOSCProfile.values(for: face)!
        let kept = face.landmarks.enumerated().filter { $0.offset != 60 && $0.offset != 64 }.map(\.element)
        let centroid = kept.reduce(Point2.zero, +) / 66
        #expect(v.position.distance(to: centroid) < 1e-9)
        #expect(v.raw.count == 66)
        #expect(v.raw[60] == face.landmarks[61] && v.raw[63] == face.landmarks[65] && v.raw[65] == face.landmarks[67])
    }

    /// Gestures are in model units whatever the size, roll or yaw of the face in the image.
    @Test func gesturesDoNotDependOnDistanceRollOrYaw() {
        let mouthWidthUnits = 52 / FaceOSCProfile.millimetresPerUnit  // corners 52 mm apart in HeadModel
        for (rotation, scale) in [(Matrix3.identity, 1.0), (Self.rz(0.4), 3.0), (Self.ry(0.5), 2.0)] {
            let v = FaceOSCProfile.values(for: Self.face(rotation: rotation, pixelsPerMillimetre: scale))!
            #expect(abs(v.gestures[0] - mouthWidthUnits) < 1e-9, "mouth width at \(rotation.m) x\(scale)")
            // Jaw: nose base (33) to chin (8), 62 mm straight down in the model.
            if rotation == Self.ry(0.5) { continue }  // their depths differ: yaw moves them sideways too
            #expect(abs(v.gestures[6] - 62 / FaceOSCProfile.millimetresPerUnit) < 1e-9)
        }
    }

    @Test func bundleHasFaceOSCsAddressesAndTypesInOrder() {
        let anchors = FrameAnchors(frame: 0, time: 0, size: Size(width: 640, height: 480),
                                   faces: [Self.face(rotation: .identity, pixelsPerMillimetre: 2)])
        let bundle = FaceOSCProfile.bundle(for: anchors)
        let addresses = bundle.messages.map(\.address)
        #expect(addresses == ["/found", "/pose/position", "/pose/scale", "/pose/orientation",
                              "/gesture/mouth/width", "/gesture/mouth/height", "/gesture/eyebrow/left",
                              "/gesture/eyebrow/right", "/gesture/eye/left", "/gesture/eye/right", "/gesture/jaw",
                              "/gesture/nostrils", "/raw"])
        #expect(bundle.messages[0].arguments == [.int32(1)])
        #expect(bundle.messages.map { String(decoding: $0.arguments.map(\.typeTag), as: UTF8.self) }.prefix(4)
            == ["i", "ff", "f", "fff"])
        #expect(bundle.messages.last!.arguments.count == 132)
        #expect(bundle.encodedSize <= HeritageOSCNamespace.datagramLimit)
    }

    @Test func noFaceSendsFoundZeroOnly() {
        let bundle = FaceOSCProfile.bundle(for: FrameAnchors(frame: 0, time: 0, size: Size(width: 640, height: 480)))
        #expect(bundle.messages == [OSCMessage("/found", [.int32(0)])])
    }

    @Test func faceWithoutPoseStillGetsScaleAndRollFromTheEyeLine() {
        var face = Self.face(rotation: Self.rz(0.3), pixelsPerMillimetre: 2)
        face.pose = nil
        let v = FaceOSCProfile.values(for: face)!
        #expect(abs(v.orientation.z - 0.3) < 0.02)
        #expect(abs(v.scale - 2 * FaceOSCProfile.millimetresPerUnit) / v.scale < 0.02)
    }
}
