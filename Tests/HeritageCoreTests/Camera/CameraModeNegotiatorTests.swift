import Testing
@testable import HeritageCore

@Suite struct CameraModeNegotiatorTests {
    func mode(_ f: FourCC, _ w: Int, _ h: Int, _ fps: Double) -> CameraMode {
        CameraMode(pixelFormat: f, size: Size(width: w, height: h), framesPerSecond: fps)
    }

    /// What a typical UVC webcam (a C920-like) offers.
    var webcam: [CameraMode] {
        [mode(.yuyv, 640, 480, 30), mode(.yuyv, 640, 480, 15), mode(.yuyv, 1280, 720, 10), mode(.yuyv, 1920, 1080, 5),
         mode(.mjpeg, 640, 480, 30), mode(.mjpeg, 1280, 720, 30), mode(.mjpeg, 1920, 1080, 30),
         mode(FourCC("H264"), 1920, 1080, 30)]
    }

    @Test func mjpegIsPreferredAtTheAskedSize() throws {
        let chosen = try CameraModeNegotiator(requestedSize: Size(width: 640, height: 480), requestedFramesPerSecond: 30)
            .choose(from: webcam)
        #expect(chosen == mode(.mjpeg, 640, 480, 30))
    }

    @Test func yuyvWhenNoMJPEGAtThatSize() throws {
        let offered = webcam.filter { !($0.pixelFormat == .mjpeg && $0.size.width == 640) }
        let chosen = try CameraModeNegotiator(requestedSize: Size(width: 640, height: 480), requestedFramesPerSecond: 30)
            .choose(from: offered)
        #expect(chosen == mode(.yuyv, 640, 480, 30))
    }

    @Test func aFormatThatReachesTheRateBeatsOneThatDoesNot() throws {
        let offered = [mode(.mjpeg, 1280, 720, 10), mode(.yuyv, 1280, 720, 30)]
        let chosen = try CameraModeNegotiator(requestedSize: Size(width: 1280, height: 720), requestedFramesPerSecond: 30)
            .choose(from: offered)
        #expect(chosen.pixelFormat == .yuyv)
    }

    @Test func lowestSufficientRateIsChosen() throws {
        let offered = [mode(.mjpeg, 640, 480, 60), mode(.mjpeg, 640, 480, 30), mode(.mjpeg, 640, 480, 15)]
        let chosen = try CameraModeNegotiator(requestedSize: Size(width: 640, height: 480), requestedFramesPerSecond: 25)
            .choose(from: offered)
        #expect(chosen.framesPerSecond == 30)
    }

    @Test func highestRateWhenNoneIsSufficient() throws {
        let offered = [mode(.yuyv, 640, 480, 5), mode(.yuyv, 640, 480, 15)]
        let chosen = try CameraModeNegotiator(requestedSize: Size(width: 640, height: 480), requestedFramesPerSecond: 30)
            .choose(from: offered)
        #expect(chosen.framesPerSecond == 15)
    }

    @Test func smallestLargerSizeWhenTheAskedOneIsMissing() throws {
        let chosen = try CameraModeNegotiator(requestedSize: Size(width: 800, height: 600), requestedFramesPerSecond: 30)
            .choose(from: webcam)
        #expect(chosen.size == Size(width: 1280, height: 720))
        #expect(chosen.pixelFormat == .mjpeg)
    }

    @Test func largestSizeWhenAllAreSmaller() throws {
        let chosen = try CameraModeNegotiator(requestedSize: Size(width: 4000, height: 3000), requestedFramesPerSecond: 30)
            .choose(from: webcam)
        #expect(chosen.size == Size(width: 1920, height: 1080))
    }

    @Test func undecodableFormatsAloneAreAnError() {
        let negotiator = CameraModeNegotiator(requestedSize: Size(width: 640, height: 480), requestedFramesPerSecond: 30)
        #expect(throws: CameraModeNegotiator.Failure.noDecodableMode(offered: ["H264"])) {
            try negotiator.choose(from: [mode(FourCC("H264"), 640, 480, 30)])
        }
    }

    @Test func fourCCRoundTripsThroughText() {
        #expect(FourCC("MJPG").description == "MJPG")
        #expect(FourCC("YUYV").rawValue == 0x5659_5559)  // v4l2_fourcc('Y','U','Y','V')
    }
}
