import Foundation
import HeritageCore

/// A card's gray reference and the corners its tracks follow, kept beside its ORB features in the
/// card cache: decoding the card image (1240 x 1748 PNG) and finding the corners again was most of
/// what loading six cards cost a start (about 0.1 s of a 1.5 s `process` run of a short video).
/// Keyed, as the features are, by a fingerprint of the image's bytes and the settings, so a changed
/// card is rebuilt; a file that is not a complete cache is ignored and written anew.
struct CardReferenceCache {
    static let magic = Data("HLREF1\n".utf8)
    let file: String

    init(folder: String, image path: String, key: String) {
        file = CardSet.cacheFile(in: folder, for: path, key: key, extension: "ref")
    }

    func load() -> (gray: Image, trackPoints: [Point2])? {
        guard let data = FileManager.default.contents(atPath: file) else { return nil }
        return Self.decode(data)
    }

    /// A cache that cannot be written only costs the next start the decoding.
    func store(gray: Image, trackPoints: [Point2]) {
        try? FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent,
                                                 withIntermediateDirectories: true)
        try? Self.encode(gray: gray, trackPoints: trackPoints).write(to: URL(fileURLWithPath: file), options: .atomic)
    }

    static func encode(gray: Image, trackPoints: [Point2]) -> Data {
        var data = magic
        func append(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
        append(UInt32(gray.width))
        append(UInt32(gray.height))
        data.append(contentsOf: gray.samples())
        append(UInt32(trackPoints.count))
        for p in trackPoints {
            append(Float(p.x).bitPattern)
            append(Float(p.y).bitPattern)
        }
        return data
    }

    /// nil for anything that is not a complete cache of a gray image and its points.
    static func decode(_ data: Data) -> (gray: Image, trackPoints: [Point2])? {
        let bytes = [UInt8](data)
        guard bytes.count >= magic.count + 12, Data(bytes.prefix(magic.count)) == magic else { return nil }
        var offset = magic.count
        func u32() -> UInt32? {
            guard offset + 4 <= bytes.count else { return nil }
            defer { offset += 4 }
            return UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16
                | UInt32(bytes[offset + 3]) << 24
        }
        guard let w = u32().map(Int.init), let h = u32().map(Int.init), (64...8192).contains(w), (16...16384).contains(h),
              offset + w * h + 4 <= bytes.count else { return nil }
        let samples = Array(bytes[offset..<offset + w * h])
        offset += w * h
        guard let n = u32().map(Int.init), n <= 10_000, bytes.count == offset + n * 8 else { return nil }
        var points: [Point2] = []
        points.reserveCapacity(n)
        for _ in 0..<n {
            guard let x = u32().map(Float.init(bitPattern:)), let y = u32().map(Float.init(bitPattern:)),
                  x.isFinite, y.isFinite else { return nil }
            points.append(Point2(Double(x), Double(y)))
        }
        guard let gray = try? Image(samples: samples, width: w, height: h, channels: 1) else { return nil }
        return (gray, points)
    }
}
