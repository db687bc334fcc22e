import HeritageCore
import Testing
@testable import HeritageLens

@Suite struct HeadPoseTests {
    let intrinsics = Intrinsics.assumed(for: Size(width: 640, height: 480))

    /// Projects the head model at a known pose into 68 landmark slots (unused slots stay zero).
    func landmarks(for pose: Pose) -> [Point2] {
        var out = [Point2](repeating: .zero, count: 68)
        for (i, p) in zip(HeadModel.landmarkIndices, HeadModel.points) {
            out[i] = intrinsics.project(pose.transform(p))
        }
        return out
    }

    @Test(arguments: [
        Pose(rotation: Vector3(0, 0, 0), translation: Vector3(0, 0, 0.6)),
        Pose(rotation: Vector3(0.2, -0.4, 0.1), translation: Vector3(0.05, -0.03, 0.8)),
        Pose(rotation: Vector3(-0.3, 0.5, -0.2), translation: Vector3(-0.1, 0.08, 1.5)),
    ])
    func aProjectedModelGivesItsPoseBack(truth: Pose) throws {
        let solver = PoseSolver(intrinsics: intrinsics)
        let found = try #require(solver.headPose(landmarks: landmarks(for: truth), previous: nil))
        #expect((found.rotation - truth.rotation).length < 1e-4)
        #expect((found.translation - truth.translation).length < 1e-4)
        // Refining from the previous pose converges to the same answer.
        let refined = try #require(solver.headPose(landmarks: landmarks(for: truth), previous: found))
        #expect((refined.translation - truth.translation).length < 1e-4)
    }

    @Test func distortedPointsAreUndistortedBeforePose() throws {
        var k = intrinsics
        k.distortion = [-0.25, 0.08, 0, 0, 0]
        let truth = Pose(rotation: Vector3(0.1, 0.3, 0), translation: Vector3(0.08, 0.05, 0.7))
        // Distort the ideal projections with OpenCV's model.
        let projected = try PoseSolver.openCVProjection(of: HeadModel.points, pose: truth, intrinsics: k)
        var marks = [Point2](repeating: .zero, count: 68)
        for (i, p) in zip(HeadModel.landmarkIndices, projected) { marks[i] = p }
        let found = try #require(PoseSolver(intrinsics: k).headPose(landmarks: marks, previous: nil))
        #expect((found.translation - truth.translation).length < 2e-3)
        let naive = try #require(PoseSolver(intrinsics: intrinsics).headPose(landmarks: marks, previous: nil))
        #expect((naive.translation - truth.translation).length > (found.translation - truth.translation).length)
    }
}
