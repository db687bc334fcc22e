import Foundation
import Testing
@testable import HeritageLens

@Suite struct CameraDevicesTests {
    @Test func namesMapToDevicePaths() {
        #expect(CameraDevices.path(for: "0") == "/dev/video0")
        #expect(CameraDevices.path(for: "12") == "/dev/video12")
        #expect(CameraDevices.path(for: "/dev/video3") == "/dev/video3")
    }

    @Test func aMissingDeviceIsNotFound() {
        #expect(throws: SourceError.cameraNotFound("/dev/video63")) { try CameraDevices.query("/dev/video63") }
    }

    @Test func aCharacterDeviceThatIsNotACameraIsSaidToBeSo() {
        #expect {
            try CameraDevices.query("/dev/null")
        } throws: { error in
            guard case SourceError.notACaptureDevice("/dev/null", _) = error else { return false }
            return true
        }
    }

    @Test func aRegularFileIsNotACamera() throws {
        let dir = TestPaths.scratch()
        _ = FileManager.default.createFile(atPath: "\(dir)/video0", contents: Data("x".utf8))
        #expect(throws: (any Error).self) { try CameraDevices.query("\(dir)/video0") }
    }

    @Test(.enabled(if: !CameraDevices.paths().isEmpty, "needs a /dev/video* device"))
    func realDevicesListTheirModes() throws {
        for path in CameraDevices.paths() {
            if let device = try? CameraDevices.query(path), device.isCapture {
                #expect(!device.modes.isEmpty)
            }
        }
    }
}
