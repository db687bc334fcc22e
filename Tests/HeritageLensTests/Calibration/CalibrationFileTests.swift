import Foundation
import HeritageCore
import Testing
import Logging
@testable import HeritageLens

@Suite struct CalibrationFileTests {
    let intrinsics = Intrinsics(fx: 612.5, fy: 611.0, cx: 318.2, cy: 243.9, distortion: [0.11, -0.23, 0.001, -0.002, 0.05],
                                size: Size(width: 640, height: 480), origin: "test")

    @Test func writtenFilesReadBack() throws {
        let dir = TestPaths.scratch()
        let path = "\(dir)/c920-640x480.yml"
        try CalibrationFile.write(intrinsics, camera: "HD Pro Webcam C920", rms: 0.21, date: "2026-11-22", to: path)
        let read = try CalibrationFile.read(path)
        #expect(read.camera == "HD Pro Webcam C920")
        #expect(abs(read.rms - 0.21) < 1e-12)
        #expect(read.intrinsics.fx == 612.5 && read.intrinsics.cy == 243.9)
        #expect(read.intrinsics.distortion == intrinsics.distortion)
        #expect(read.intrinsics.size == intrinsics.size)
    }

    @Test func aMissingFieldIsNamed() throws {
        let dir = TestPaths.scratch()
        let path = "\(dir)/bad.yml"
        try "%YAML:1.0\n---\nimage_width: 640\nimage_height: 480\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect {
            try CalibrationFile.read(path)
        } throws: { error in
            "\(error)".contains("camera_matrix") && "\(error)".contains(path)
        }
    }

    @Test func garbageIsUnreadable() throws {
        let dir = TestPaths.scratch()
        let path = "\(dir)/garbage.yml"
        try "\u{1}\u{2} not yaml {{{".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(throws: (any Error).self) { try CalibrationFile.read(path) }
    }

    @Test func theStorePrefersExactThenScaledThenAssumed() throws {
        let dir = TestPaths.scratch()
        let store = CalibrationStore(folder: dir)
        let logger = Logger(label: "test")
        let file = "\(dir)/\(CalibrationStore.fileName(camera: "HD Pro Webcam C920", size: intrinsics.size))"
        #expect(file.hasSuffix("hd-pro-webcam-c920-640x480.yml"))
        try CalibrationFile.write(intrinsics, camera: "HD Pro Webcam C920", rms: 0.2, date: "", to: file)
        let exact = try store.intrinsics(camera: "HD Pro Webcam C920", size: Size(width: 640, height: 480), logger: logger)
        #expect(exact.fx == 612.5)
        let scaled = try store.intrinsics(camera: "HD Pro Webcam C920", size: Size(width: 1280, height: 960), logger: logger)
        #expect(scaled.fx == 1225)
        let other = try store.intrinsics(camera: "Other Cam", size: Size(width: 640, height: 480), logger: logger)
        #expect(other.origin.contains("assumed"))
    }
}
