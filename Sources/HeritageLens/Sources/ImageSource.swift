import CBridge
import Foundation
import HeritageCore

/// A still image, or every image of a folder in name order, as frames at a fixed rate.
///
/// Images of other sizes than the first are scaled to the first's size, since every sink wants
/// one frame size; images of any depth or channel count are brought to 8-bit BGR.
public final class ImageSource: FrameSource {
    public static let imageExtensions: Set<String> = ["png", "jpg", "jpeg", "bmp", "tif", "tiff", "webp", "pgm", "ppm"]

    public let name: String
    public let size: Size
    public let framesPerSecond: Double
    public var expectedFrameCount: Int? { paths.count * repeats }
    public let droppedFrameCount = 0
    public private(set) var skippedImages: [String] = []

    private let paths: [String]
    private let repeats: Int
    private var next = 0
    private var delivered = 0
    private let buffer = Image()
    private let scratch = Image()
    private var closed = false

    /// `repeats`: how many frames each image gives (a still image as a short clip).
    public init(path: String, framesPerSecond: Double = 30, repeats: Int = 1) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw SourceError.fileNotFound(path)
        }
        if isDirectory.boolValue {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
            paths = names.filter { Self.imageExtensions.contains(($0 as NSString).pathExtension.lowercased()) }
                .sorted().map { (path as NSString).appendingPathComponent($0) }
            guard !paths.isEmpty else { throw SourceError.noImages(inFolder: path) }
        } else {
            try InputFile.validate(path)
            paths = [path]
        }
        name = path
        self.framesPerSecond = framesPerSecond
        self.repeats = max(1, repeats)
        // The first readable image fixes the size.
        var firstSize: Size?
        var firstError: SourceError?
        for p in paths {
            do {
                try Self.load(p, into: buffer)
                firstSize = buffer.size
                break
            } catch let e as SourceError {
                firstError = firstError ?? e
            }
        }
        guard let s = firstSize else { throw firstError ?? SourceError.noImages(inFolder: path) }
        size = s
    }

    static func load(_ path: String, into image: Image) throws {
        if cb_image_read(image.raw, path) != 0 {
            throw SourceError.notAnImage(path, reason: String(cString: cb_last_error()))
        }
        if cb_image_normalize_bgr(image.raw) != 0 {
            throw SourceError.notAnImage(path, reason: String(cString: cb_last_error()))
        }
    }

    public func nextFrame() throws -> Frame? {
        guard !closed, cb_stop_requested() == 0 else { return nil }
        let available = SystemClock().nanoseconds()
        while next < paths.count * repeats {
            let path = paths[next / repeats]
            let firstOfImage = next % repeats == 0
            next += 1
            if firstOfImage {
                do {
                    try Self.load(path, into: scratch)
                } catch {
                    // A bad image in a folder is skipped and counted, not fatal.
                    skippedImages.append(path)
                    next += repeats - 1
                    continue
                }
                if scratch.size != size {
                    try scratch.resize(into: buffer, width: size.width, height: size.height, interpolation: .area)
                } else {
                    try scratch.copy(to: buffer)
                }
            }
            defer { delivered += 1 }
            return Frame(index: delivered, time: Double(delivered) / framesPerSecond, availableAt: available,
                         image: buffer)
        }
        return nil
    }

    public func close() { closed = true }
}
