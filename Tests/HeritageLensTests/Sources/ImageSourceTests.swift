import Foundation
import HeritageCore
import Testing
@testable import HeritageLens

@Suite struct ImageSourceTests {
    /// A 16-bit binary PGM written by hand (OpenCV reads it as 16-bit gray).
    func write16BitPGM(_ path: String, width: Int, height: Int, value: UInt16) throws {
        var data = Data("P5\n\(width) \(height)\n65535\n".utf8)
        for _ in 0..<(width * height) { data.append(contentsOf: [UInt8(value >> 8), UInt8(value & 0xff)]) }
        try data.write(to: URL(fileURLWithPath: path))
    }

    @Test func oddImagesBecomeFramesOfTheFirstImagesSize() throws {
        let dir = TestPaths.scratch()
        let first = try Image(width: 64, height: 48)
        try first.fill(blue: 10, green: 200, red: 30)
        try first.write(to: "\(dir)/a.png")
        let tiny = try Image(width: 1, height: 1, channels: 1)
        try tiny.fill(blue: 128, green: 128, red: 128)
        try tiny.write(to: "\(dir)/b.png")
        let alpha = try Image(width: 30, height: 20, channels: 4)
        try alpha.fill(blue: 0, green: 0, red: 255, alpha: 100)
        try alpha.write(to: "\(dir)/c.png")
        try write16BitPGM("\(dir)/d.pgm", width: 8, height: 8, value: 65535)
        _ = FileManager.default.createFile(atPath: "\(dir)/e.png", contents: Data("broken".utf8))
        _ = FileManager.default.createFile(atPath: "\(dir)/notes.txt", contents: Data("ignored".utf8))

        let source = try ImageSource(path: dir, framesPerSecond: 10)
        #expect(source.size == Size(width: 64, height: 48))
        var frames: [Double] = []
        while let frame = try source.nextFrame() {
            #expect(frame.size == Size(width: 64, height: 48))
            #expect(frame.image.channels == 3)
            frames.append(try frame.image.mean(channel: 1, in: Rect(x: 0, y: 0, width: 64, height: 48)))
        }
        #expect(frames.count == 4)
        #expect(abs(frames[0] - 200) < 1)
        #expect(abs(frames[1] - 128) < 1)
        #expect(abs(frames[3] - 255) < 1)  // 16-bit full scale maps to 255
        #expect(source.skippedImages.map(\.path) == ["\(dir)/e.png"])
    }

    @Test func aFolderWithoutImagesIsAnError() throws {
        let dir = TestPaths.scratch()
        #expect(throws: SourceError.noImages(inFolder: dir)) { try ImageSource(path: dir) }
    }

    @Test func aStillImageRepeatsAsAClip() throws {
        let dir = TestPaths.scratch()
        try Image(width: 20, height: 10).write(to: "\(dir)/still.png")
        let source = try ImageSource(path: "\(dir)/still.png", framesPerSecond: 30, repeats: 5)
        var times: [Double] = []
        while let f = try source.nextFrame() { times.append(f.time) }
        #expect(times.count == 5)
        #expect(abs(times[4] - 4.0 / 30) < 1e-12)
    }
}
