import Foundation
import HeritageCore
@testable import HeritageLens

/// The driver sequence numbers the emulator stamps into frames (FAKECAM_STAMP): 16 bits, least
/// significant first, as white or black 16x16 blocks along the bottom edge from the left corner.
/// Read back from a program's output video, they say exactly which camera frame each output
/// frame was made from.
enum SequenceStamps {
    static func read(from image: Image) throws -> Int {
        var number = 0
        for bit in 0..<16 {
            let level = try image.mean(channel: 1, in: Rect(x: Double(bit * 16 + 4), y: Double(image.height - 12),
                                                             width: 8, height: 8))
            if level > 128 { number |= 1 << bit }
        }
        return number
    }

    /// The stamp of every frame of a video, in order.
    static func read(video path: String) throws -> [Int] {
        let source = try VideoFileSource(path: path)
        var numbers: [Int] = []
        while let frame = try source.nextFrame() { numbers.append(try read(from: frame.image)) }
        return numbers
    }
}
