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

    /// The formats a still image may be in are the formats a folder's images may be in: a GIF
    /// and a `.pnm` in a folder were passed over without a word.
    @Test func gifAndPnmImagesInAFolderAreFramesToo() throws {
        let dir = TestPaths.scratch()
        let first = try Image(width: 8, height: 8)
        try first.fill(blue: 0, green: 0, red: 0)
        try first.write(to: "\(dir)/a.png")
        var pnm = Data("P6\n8 8\n255\n".utf8)
        for _ in 0..<64 { pnm.append(contentsOf: [0, 250, 0]) }
        try pnm.write(to: URL(fileURLWithPath: "\(dir)/b.pnm"))
        // A 1x1 white GIF89a: header, screen, a two-colour table, image, one LZW code block.
        let gif: [UInt8] = [0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 1, 0, 1, 0, 0x80, 0, 0, 0xff, 0xff, 0xff, 0, 0, 0,
                            0x2c, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x44, 0x01, 0, 0x3b]
        try Data(gif).write(to: URL(fileURLWithPath: "\(dir)/c.gif"))
        let source = try ImageSource(path: dir)
        var greens: [Double] = []
        while let frame = try source.nextFrame() {
            greens.append(try frame.image.mean(channel: 1, in: Rect(x: 0, y: 0, width: 8, height: 8)))
        }
        #expect(source.skippedImages.isEmpty, "\(source.skippedImages)")
        #expect(greens.count == 3)
        #expect(greens.count == 3 && abs(greens[1] - 250) < 1 && abs(greens[2] - 255) < 1, "\(greens)")
        #expect(source.scaledImages == 1)
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
