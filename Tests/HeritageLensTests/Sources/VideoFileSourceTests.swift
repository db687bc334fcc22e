import Foundation
import HeritageCore
import HeritageBridge
import Testing
@testable import HeritageLens

@Suite struct VideoFileSourceTests {
    @Test(arguments: ["avi", "mp4", "mkv"])
    func everyFrameComesBackInOrderWithItsTime(ext: String) throws {
        let dir = TestPaths.scratch()
        let path = "\(dir)/in.\(ext)"
        try GeneratedVideo.write(to: path, frames: 30, fps: 25)
        let source = try VideoFileSource(path: path)
        #expect(source.size == Size(width: 320, height: 240))
        #expect(abs(source.framesPerSecond - 25) < 0.01)
        var count = 0
        while let frame = try source.nextFrame() {
            #expect(frame.index == count)
            #expect(abs(frame.time - Double(count) / 25) < 1e-3)
            let measured = try frame.image.mean(channel: 1, in: Rect(x: 0, y: 100, width: 320, height: 100))
            #expect(abs(measured - GeneratedVideo.level(count)) < 6, "frame \(count) level")
            count += 1
        }
        #expect(count == 30)
    }

    @Test func missingEmptyDirectoryAndNonVideoInputsFailWithTheirOwnError() throws {
        let dir = TestPaths.scratch()
        #expect(throws: SourceError.fileNotFound("\(dir)/nope.mp4")) { try VideoFileSource(path: "\(dir)/nope.mp4") }
        #expect(throws: SourceError.isDirectory(dir)) { try VideoFileSource(path: dir) }
        _ = FileManager.default.createFile(atPath: "\(dir)/empty.mp4", contents: Data())
        #expect(throws: SourceError.emptyFile("\(dir)/empty.mp4")) { try VideoFileSource(path: "\(dir)/empty.mp4") }
        _ = FileManager.default.createFile(atPath: "\(dir)/text.mp4", contents: Data("not a video\n".utf8))
        #expect {
            try VideoFileSource(path: "\(dir)/text.mp4")
        } throws: { error in
            guard case SourceError.notAVideo(let p, _) = error else { return false }
            return p == "\(dir)/text.mp4"
        }
    }

    @Test func aTruncatedFileEndsEarlyWithoutCrashing() throws {
        let dir = TestPaths.scratch()
        let path = "\(dir)/cut.avi"
        try GeneratedVideo.write(to: path, frames: 40)
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        try data.prefix(data.count / 2).write(to: URL(fileURLWithPath: path))
        let source = try VideoFileSource(path: path)
        var count = 0
        while try source.nextFrame() != nil { count += 1 }
        #expect(count > 5 && count < 40)
    }

    @Test func realtimePacingSkipsFramesThePipelineIsTooSlowFor() throws {
        let dir = TestPaths.scratch()
        let path = "\(dir)/paced.avi"
        try GeneratedVideo.write(to: path, frames: 20, fps: 100)
        let source = try VideoFileSource(path: path, options: .init(realtime: true))
        var delivered = 0
        while let frame = try source.nextFrame() {
            #expect(frame.index == delivered)
            delivered += 1
            usleep(25_000)  // a 25 ms pipeline against 10 ms frames
        }
        #expect(delivered + source.droppedFrameCount == 20)
        #expect(source.droppedFrameCount >= 8)
    }

    /// Where decoding alone is slower than the video, every frame is late: the source still hands
    /// over one frame per second's worth of skipped ones, as a camera would, instead of none.
    @Test func aPacedSourceThatIsAlwaysLateStillDeliversFrames() throws {
        final class SlowClock: MonotonicClock, @unchecked Sendable {
            var now: UInt64 = 1_000_000_000
            func nanoseconds() -> UInt64 { now += 100_000_000; return now }  // 100 ms per read
        }
        let dir = TestPaths.scratch()
        let path = "\(dir)/late.avi"
        try GeneratedVideo.write(to: path, frames: 60, fps: 25)
        var options = VideoFileSource.Options(realtime: true)
        options.clock = SlowClock()
        let source = try VideoFileSource(path: path, options: options)
        var delivered = 0
        var droppedBefore = 0
        while try source.nextFrame() != nil {
            delivered += 1
            #expect(source.droppedFrameCount - droppedBefore <= 25)
            droppedBefore = source.droppedFrameCount
        }
        #expect(delivered >= 2)
        #expect(delivered + source.droppedFrameCount == 60)
    }

    /// A paced, looping source behind by more than a whole pass skips that pass's frames as late
    /// and plays on; it is not a file that lost its frames (valgrind's first frame, 24 s, ended a
    /// run that way).
    @Test func aPacedLoopFarBehindSkipsWholePassesAndPlaysOn() throws {
        let dir = TestPaths.scratch()
        let path = "\(dir)/short.avi"
        try GeneratedVideo.write(to: path, frames: 5, fps: 50)
        let source = try VideoFileSource(path: path, options: .init(realtime: true, loop: true))
        _ = try #require(try source.nextFrame())
        usleep(350_000)  // more than three passes of 0.1 s
        let next = try #require(try source.nextFrame())
        #expect(next.time > 0.3)
        #expect(source.droppedFrameCount >= 14)
    }

    /// --loop plays the file again with times running on, and a file that disappears between
    /// passes ends the run with a reason rather than quietly (or looping forever).
    @Test func loopingRunsOnAndAVanishedFileIsAnError() throws {
        let dir = TestPaths.scratch()
        let path = "\(dir)/loop.avi"
        try GeneratedVideo.write(to: path, frames: 10, fps: 25)
        let source = try VideoFileSource(path: path, options: .init(loop: true))
        var times: [Double] = []
        for _ in 0..<25 { times.append(try #require(try source.nextFrame()).time) }
        #expect(zip(times, times.dropFirst()).allSatisfy { $1 > $0 })
        #expect(abs(times[24] - 24.0 / 25) < 1e-3)
        try FileManager.default.removeItem(atPath: path)
        #expect(throws: SourceError.self) { for _ in 0..<10 { _ = try source.nextFrame() } }
    }

    /// Reading a video and an image loads none of OpenCV's image codecs and video I/O: Debian
    /// builds them with GDAL and its tree, whose loading took 0.2-0.3 s of every start.
    @Test func readingVideoAndImagesLoadsNeitherOpenCVsCodecsNorGDAL() throws {
        let dir = TestPaths.scratch()
        let path = "\(dir)/in.mp4"
        try GeneratedVideo.write(to: path, frames: 5, fps: 25)
        let source = try VideoFileSource(path: path)
        _ = try #require(try source.nextFrame())
        let picture = try Image(width: 64, height: 48)
        try picture.fill(blue: 10, green: 200, red: 30)
        for ext in ["png", "jpg"] {
            try Data(picture.encoded(as: "." + ext)).write(to: URL(fileURLWithPath: "\(dir)/still.\(ext)"))
            #expect(try Image(contentsOf: "\(dir)/still.\(ext)").size == Size(width: 64, height: 48))
        }
        let maps = try String(contentsOfFile: "/proc/self/maps", encoding: .utf8)
        for library in ["libopencv_videoio", "libopencv_imgcodecs", "libgdal"] {
            #expect(!maps.contains(library), "\(library) is loaded")
        }
    }
}
