import Testing
@testable import HeritageCore

@Suite struct PoseTests {
    @Test(arguments: [
        Vector3(0, 0, 0), Vector3(0.3, 0, 0), Vector3(0, -0.5, 0), Vector3(0.1, 0.2, -0.3), Vector3(1.2, -0.7, 0.4),
    ])
    func rodriguesRoundTrips(v: Vector3) {
        let back = Matrix3(rodrigues: v).rodrigues
        #expect((back - v).length < 1e-9)
    }

    @Test func rotationMatrixIsOrthonormal() {
        let r = Matrix3(rodrigues: Vector3(0.4, -1.1, 0.25))
        let product = r * r.transposed
        for (a, b) in zip(product.m, Matrix3.identity.m) { #expect(abs(a - b) < 1e-12) }
    }

    @Test func eulerAnglesRecoverEachAxis() {
        let pitch = Pose(rotation: Vector3(20 / degreesPerRadian, 0, 0), translation: .zero).eulerDegrees
        #expect(abs(pitch.x - 20) < 1e-9 && abs(pitch.y) < 1e-9 && abs(pitch.z) < 1e-9)
        let yaw = Pose(rotation: Vector3(0, -35 / degreesPerRadian, 0), translation: .zero).eulerDegrees
        #expect(abs(yaw.y + 35) < 1e-9 && abs(yaw.x) < 1e-9)
        let roll = Pose(rotation: Vector3(0, 0, 15 / degreesPerRadian), translation: .zero).eulerDegrees
        #expect(abs(roll.z - 15) < 1e-9 && abs(roll.x) < 1e-9)
    }

    @Test func eulerMatchesTheComposedRotation() {
        // R = Rz(roll) Ry(yaw) Rx(pitch) with known angles gives those angles back.
        let (p, y, r) = (12.0 / degreesPerRadian, -25.0 / degreesPerRadian, 8.0 / degreesPerRadian)
        let rx = Matrix3(rodrigues: Vector3(p, 0, 0)), ry = Matrix3(rodrigues: Vector3(0, y, 0))
        let rz = Matrix3(rodrigues: Vector3(0, 0, r))
        let pose = Pose(rotation: (rz * ry * rx).rodrigues, translation: .zero)
        let e = pose.eulerDegrees
        #expect(abs(e.x - 12) < 1e-6 && abs(e.y + 25) < 1e-6 && abs(e.z - 8) < 1e-6)
    }

    @Test func transformAppliesRotationThenTranslation() {
        let pose = Pose(rotation: Vector3(0, 0, .pi / 2), translation: Vector3(1, 2, 3))
        let p = pose.transform(Vector3(1, 0, 0))
        #expect((p - Vector3(1, 3, 3)).length < 1e-12)
    }
}
