import Foundation
import HeritageCore

/// A still image, or every image of a folder in name order, as frames at a fixed rate.
///
/// Images of other sizes than the first are scaled to the first's size, since every sink wants
/// one frame size; images of any depth or channel count are brought to 8-bit BGR.
public final class ImageSource: FrameSource {
    public static let imageExtensions: Set<String> = ["png", "jpg", "jpeg", "bmp", "tif", "tiff", "webp", "pgm", "ppm", "pbm",
                                                      "pnm", "gif"]

    public let name: String
    public let size: Size
    public let framesPerSecond: Double
    public var expectedFrameCount: Int? { files.count * repeats }
    public private(set) var droppedFrameCount = 0
    /// Images of a folder that were skipped, with why.
    public private(set) var skippedImages: [(path: String, reason: String)] = []
    /// Called as each image is skipped (the CLI logs it).
    public var onSkip: ((String, String) -> Void)?
    /// Called as an image of another size than the first is scaled to it (path, its own size):
    /// its anchors are in the first image's pixels.
    public var onScale: ((String, Size) -> Void)?
    /// Images scaled to the first one's size so far.
    public private(set) var scaledImages = 0
    /// The image files, in the order they are shown.
    public let files: [String]

    private let repeats: Int
    private let maximumSide: Int
    private var pacer: FramePacer?
    private var next = 0
    private var delivered = 0
    private let buffer = Image()
    private let scratch = Image()
    private var closed = false

    /// `repeats`: how many frames each image gives (a still image as a short clip). `realtime`:
    /// frames are released at their times (1 / `framesPerSecond` apart) and late ones skipped, as
    /// a camera would. Images larger than `maximumSide` a side are refused before decoding.
    public init(path: String, framesPerSecond: Double = 30, repeats: Int = 1, realtime: Bool = false,
                maximumSide: Int = FrameLimits.defaultMaximumSide) throws {
        try FileName.validate(path)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw SourceError.fileNotFound(path)
        }
        if isDirectory.boolValue {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
            files = names.filter { Self.imageExtensions.contains(($0 as NSString).pathExtension.lowercased()) }
                .sorted().map { (path as NSString).appendingPathComponent($0) }
            guard !files.isEmpty else { throw SourceError.noImages(inFolder: path) }
        } else {
            try InputFile.validate(path)
            files = [path]
        }
        name = path
        self.framesPerSecond = framesPerSecond
        self.repeats = max(1, repeats)
        self.maximumSide = maximumSide
        if realtime { pacer = FramePacer(framesPerSecond: framesPerSecond, clock: SystemClock()) }
        // The first readable image fixes the size.
        var firstSize: Size?
        var firstError: SourceError?
        for p in files {
            do {
                try Self.load(p, into: buffer, maximumSide: maximumSide)
                firstSize = buffer.size
                break
            } catch let e as SourceError {
                firstError = firstError ?? e
            }
        }
        guard let s = firstSize else { throw firstError ?? SourceError.noImages(inFolder: path) }
        size = s
    }

    static func load(_ path: String, into image: Image, maximumSide: Int) throws {
        if let size = ImageDimensions.read(path), size.width > maximumSide || size.height > maximumSide {
            throw SourceError.tooLarge(path, size: size, limit: maximumSide)
        }
        do {
            try image.load(contentsOf: path)
        } catch {
            throw SourceError.notAnImage(path, reason: error.message)
        }
        // A format whose header is not read above: its size is known once decoded.
        if image.width > maximumSide || image.height > maximumSide {
            let size = image.size
            try image.allocate(width: 1, height: 1, channels: 3)
            throw SourceError.tooLarge(path, size: size, limit: maximumSide)
        }
        do {
            try image.normalizeToBGR()
        } catch {
            throw SourceError.notAnImage(path, reason: error.message)
        }
    }

    public func nextFrame() throws -> Frame? {
        guard !closed else { return nil }
        var available = SystemClock().nanoseconds()
        while next < files.count * repeats {
            let path = files[next / repeats]
            let firstOfImage = next % repeats == 0
            next += 1
            if firstOfImage {
                do {
                    try Self.load(path, into: scratch, maximumSide: maximumSide)
                } catch {
                    // A bad image in a folder is skipped and counted, not fatal.
                    skippedImages.append((path, "\(error)"))
                    onSkip?(path, "\(error)")
                    next += repeats - 1
                    continue
                }
                if scratch.size != size {
                    scaledImages += 1
                    onScale?(path, scratch.size)
                    try scratch.resize(into: buffer, width: size.width, height: size.height, interpolation: .area)
                } else {
                    try scratch.copy(to: buffer)
                }
            }
            let time = Double(delivered + droppedFrameCount) / framesPerSecond
            if pacer != nil {
                switch pacer!.pace(time: time) {
                case .skip:
                    droppedFrameCount += 1
                    continue
                case .deliver(let due):
                    available = due
                }
            }
            defer { delivered += 1 }
            return Frame(index: delivered, time: time, availableAt: available, image: buffer)
        }
        return nil
    }

    public func close() { closed = true }
}
