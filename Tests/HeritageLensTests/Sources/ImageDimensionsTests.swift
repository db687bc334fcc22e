import Foundation
import HeritageCore
import Testing
@testable import HeritageLens

/// Sizes read from headers (before decoding) agree with what OpenCV writes.
@Suite struct ImageDimensionsTests {
    @Test(arguments: ["png", "jpg", "bmp", "ppm", "pgm", "tiff", "webp"])
    func headersGiveTheSize(ext: String) throws {
        let dir = TestPaths.scratch()
        let image = try Image(width: 123, height: 45, channels: ext == "pgm" ? 1 : 3)
        let path = "\(dir)/x.\(ext)"
        try image.write(to: path)
        #expect(ImageDimensions.read(path) == Size(width: 123, height: 45))
    }

    @Test func aHugeImageIsRefusedFromItsHeader() throws {
        let dir = TestPaths.scratch()
        let png = try Image(width: 16, height: 16).encoded(as: ".png")
        var bytes = png
        // IHDR width and height: 30000 x 16.
        bytes.replaceSubrange(16..<20, with: [0, 0, 0x75, 0x30])
        try Data(bytes).write(to: URL(fileURLWithPath: "\(dir)/wide.png"))
        #expect(throws: SourceError.tooLarge("\(dir)/wide.png", size: Size(width: 30000, height: 16), limit: 8192)) {
            try ImageSource(path: "\(dir)/wide.png")
        }
        #expect(ImageDimensions.read("\(dir)/nothing") == nil)
    }
}
