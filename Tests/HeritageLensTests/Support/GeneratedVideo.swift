import Foundation
import HeritageCore
@testable import HeritageLens

/// Short videos with known content: frame i is a flat gray of level `level(i)` with a white
/// square whose x position encodes i, so a test can tell frames apart after lossy coding.
enum GeneratedVideo {
    static func level(_ i: Int) -> Double { Double(20 + (i * 9) % 220) }

    static func write(to path: String, frames: Int, size: Size = Size(width: 320, height: 240), fps: Double = 25) throws {
        let sink = try VideoFileSink(path: path, size: size, framesPerSecond: fps)
        let image = try Image(width: size.width, height: size.height)
        for i in 0..<frames {
            let l = level(i)
            try image.fill(blue: l, green: l, red: l)
            image.drawRect(Rect(x: Double(10 + i * 4 % (size.width - 40)), y: 10, width: 20, height: 20),
                           colour: .white, thickness: -1)
            let frame = Frame(index: i, time: Double(i) / fps, availableAt: 0, image: image)
            try sink.write(ProcessedFrame(frame: frame, output: image,
                                          anchors: FrameAnchors(frame: i, time: 0, size: size)))
        }
        try sink.finish()
    }
}
