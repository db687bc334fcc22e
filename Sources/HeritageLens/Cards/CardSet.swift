import Foundation
import HeritageCore

/// One card as the recogniser knows it: a gray reference image, its features, the points the
/// tracker follows, and its physical size.
public final class CardReference: Sendable {
    public let id: String
    public let name: String
    public let plane: CardPlane
    /// Gray reference at `size` (the card image scaled to `CardSet.referenceWidth`).
    public let gray: Image
    public let size: Size
    public let features: ORBFeatures
    /// Well-spread corners in reference pixels, followed by optical flow.
    public let trackPoints: [Point2]
    /// A small gray copy for the photometric check.
    public let patch: Image
    public let patchSize: Size

    init(id: String, name: String, plane: CardPlane, gray: Image, features: ORBFeatures, trackPoints: [Point2],
         patch: Image) {
        self.id = id
        self.name = name
        self.plane = plane
        self.gray = gray
        size = gray.size
        self.features = features
        self.trackPoints = trackPoints
        self.patch = patch
        patchSize = patch.size
    }

    /// Reference pixel corners TL, TR, BR, BL.
    public var corners: [Point2] {
        let w = Double(size.width), h = Double(size.height)
        return [Point2(0, 0), Point2(w, 0), Point2(w, h), Point2(0, h)]
    }

    public var aspect: Double { Double(size.width) / Double(size.height) }

    /// Where `h` (reference pixels to frame pixels) puts the card's corners, TL, TR, BR, BL.
    public func corners(under h: Homography) -> [Point2] { corners.map(h.apply) }
}

/// Why a card set could not be loaded.
public enum CardSetError: Error, CustomStringConvertible {
    case missingManifest(String)
    case missingFolder(String)
    case invalidManifest(String, reason: String)
    case badCard(String, field: String, reason: String)

    public var description: String {
        switch self {
        case .missingManifest(let folder):
            return "\(folder)/cards.json: missing; a card folder needs cards.json listing each image and its width_m (docs/cards.md, Custom cards)"
        case .missingFolder(let folder):
            return "\(folder): no such folder; --cards takes a folder holding cards.json and the card images (docs/cards.md, Custom cards)"
        case .invalidManifest(let p, let reason):
            return "\(p): not a valid card list (\(reason))"
        case .badCard(let p, let field, let reason):
            return "\(p): \(field) \(reason)"
        }
    }
}

/// The cards to look for: the project's six from Samples/cards, or a user's own folder.
///
/// The folder holds the images and `cards.json`:
/// `{"cards": [{"id": "lichun", "image": "lichun.png", "width_m": 0.105, "name": "立春"}, ...]}`.
/// Features are computed once and cached on disk under `~/.cache/heritage-lens/cards`, keyed by
/// the image's bytes and the settings, so a changed card is rebuilt and an unchanged one is not.
public final class CardSet: Sendable {
    /// Reference width in pixels: the features of a card filling a 640 px frame and of one a sixth
    /// as wide are both within ORB's 8-level pyramid of it.
    public static let referenceWidth = 480
    public static let featuresPerCard = 900
    public static let trackPointsPerCard = 120

    public let folder: String
    public let cards: [CardReference]

    struct Manifest: Decodable {
        struct Entry: Decodable {
            let id: String
            let image: String
            let width_m: Double
            let name: String?
        }
        let cards: [Entry]
    }

    public init(folder: String, cacheFolder: String? = CardSet.defaultCacheFolder) throws {
        self.folder = folder
        let manifestPath = (folder as NSString).appendingPathComponent("cards.json")
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw CardSetError.missingFolder(folder)
        }
        guard let data = FileManager.default.contents(atPath: manifestPath) else {
            throw CardSetError.missingManifest(folder)
        }
        let manifest: Manifest
        do {
            manifest = try JSONDecoder().decode(Manifest.self, from: data)
        } catch {
            throw CardSetError.invalidManifest(manifestPath, reason: Self.describe(error))
        }
        guard !manifest.cards.isEmpty else { throw CardSetError.invalidManifest(manifestPath, reason: "no cards") }
        guard Set(manifest.cards.map(\.id)).count == manifest.cards.count else {
            throw CardSetError.invalidManifest(manifestPath, reason: "two cards share an id")
        }
        let orb = try ORBExtractor(features: Self.featuresPerCard, levels: 8)
        let smallOrb = try ORBExtractor(features: Self.featuresPerCard / 2, levels: 8)
        var loaded: [CardReference] = []
        for entry in manifest.cards {
            let path = entry.image.hasPrefix("/") ? entry.image : (folder as NSString).appendingPathComponent(entry.image)
            guard entry.width_m > 0.01, entry.width_m < 5 else {
                throw CardSetError.badCard(manifestPath, field: "cards[\(entry.id)].width_m",
                                           reason: "must be a width in metres between 0.01 and 5")
            }
            guard let bytes = FileManager.default.contents(atPath: path) else {
                throw CardSetError.badCard(path, field: "image", reason: "cannot be read as an image")
            }
            let key = Self.fingerprint(of: bytes)
            let cached = cacheFolder.flatMap { CardReferenceCache(folder: $0, image: path, key: key).load() }
            let gray: Image, corners: [Point2]
            if let cached {
                // The same bytes were decoded and checked when this was stored.
                (gray, corners) = cached
            } else {
                (gray, corners) = try Self.reference(at: path)
                if let cacheFolder { CardReferenceCache(folder: cacheFolder, image: path, key: key).store(gray: gray, trackPoints: corners) }
            }
            let w = gray.width, h = gray.height
            let features = try Self.cachedFeatures(for: path, key: key, cacheFolder: cacheFolder) {
                // Two reference scales: ORB's 8-level pyramid on each covers cards from filling the
                // frame down to about 70 px wide.
                var all = try orb.detect(in: gray)
                let half = Image()
                try gray.resize(into: half, width: w / 2, height: h / 2, interpolation: .area)
                let small = try smallOrb.detect(in: half)
                all.points += small.points.map { $0 * 2 }
                all.descriptors += small.descriptors
                return all
            }
            let patch = Image()
            try gray.resize(into: patch, width: 60, height: max(8, Int((60 * Double(h) / Double(w)).rounded())),
                            interpolation: .area)
            let plane = CardPlane(width: entry.width_m, height: entry.width_m * Double(h) / Double(w))
            loaded.append(CardReference(id: entry.id, name: entry.name ?? entry.id, plane: plane, gray: gray,
                                        features: features,
                                        trackPoints: corners,
                                        patch: patch))
        }
        cards = loaded
    }

    /// The card image at `path` in gray at `referenceWidth`, and the corners its tracks follow.
    static func reference(at path: String) throws -> (gray: Image, trackPoints: [Point2]) {
        let colour: Image
        do {
            colour = try Image(contentsOf: path)
            try colour.normalizeToBGR()
        } catch {
            throw CardSetError.badCard(path, field: "image", reason: "cannot be read as an image")
        }
        guard colour.width >= 64, colour.height >= 64 else {
            throw CardSetError.badCard(path, field: "image", reason: "is smaller than 64x64 pixels")
        }
        let full = Image()
        try colour.convertToGray(into: full)
        let w = referenceWidth, h = Int((Double(colour.height) * Double(w) / Double(colour.width)).rounded())
        let gray = Image()
        try full.resize(into: gray, width: w, height: h, interpolation: .area)
        let corners = try ImageGeometry.goodFeatures(in: gray, maximum: trackPointsPerCard, quality: 0.01,
                                                     minimumDistance: Double(w) / 24)
        return (gray, corners)
    }

    static func describe(_ error: Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, let context):
            return "missing field \(field(context.codingPath + [key]))"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            return "wrong type at \(field(context.codingPath))"
        case DecodingError.dataCorrupted:
            return "not JSON"
        default:
            return "\(error)"
        }
    }

    /// `cards[0].id`, as the file spells it (not JSONDecoder's "cards.Index 0.id").
    static func field(_ path: [CodingKey]) -> String {
        var out = ""
        for key in path {
            if let i = key.intValue { out += "[\(i)]" } else { out += (out.isEmpty ? "" : ".") + key.stringValue }
        }
        return out.isEmpty ? "the top level" : out
    }

    public static var defaultCacheFolder: String? {
        let env = ProcessInfo.processInfo.environment
        if let xdg = env["XDG_CACHE_HOME"], !xdg.isEmpty { return xdg + "/heritage-lens/cards" }
        if let home = env["HOME"], !home.isEmpty { return home + "/.cache/heritage-lens/cards" }
        return nil
    }

    /// FNV-1a over the image file's bytes and the settings. Over raw bytes: iterating `Data` a byte
    /// at a time cost 3 ms a card, most of a warm start's card loading.
    static func fingerprint(of bytes: Data) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ buffer: UnsafeRawBufferPointer) {
            for byte in buffer { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        }
        bytes.withUnsafeBytes(mix)
        Array("orb2:\(referenceWidth):\(featuresPerCard):8:1.2:half".utf8).withUnsafeBytes(mix)
        return String(hash, radix: 16)
    }

    /// `FOLDER/NAME-KEY.EXT`: what the card cache keeps for the image at `path`.
    static func cacheFile(in folder: String, for path: String, key: String, extension ext: String) -> String {
        "\(folder)/\(((path as NSString).lastPathComponent as NSString).deletingPathExtension)-\(key).\(ext)"
    }

    static func cachedFeatures(for path: String, key: String, cacheFolder: String?,
                               compute: () throws -> ORBFeatures) throws -> ORBFeatures {
        let file = cacheFolder.map { cacheFile(in: $0, for: path, key: key, extension: "orb") }
        if let file, let data = FileManager.default.contents(atPath: file), let features = decode(data) { return features }
        let features = try compute()
        if let file, let folder = cacheFolder {
            try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            // A cache that cannot be written only costs the next start a few milliseconds.
            try? encode(features).write(to: URL(fileURLWithPath: file), options: .atomic)
        }
        return features
    }

    static let magic = Data("HLORB1\n".utf8)

    static func encode(_ f: ORBFeatures) -> Data {
        var data = magic
        var count = UInt32(f.count).littleEndian
        withUnsafeBytes(of: &count) { data.append(contentsOf: $0) }
        for p in f.points {
            var x = Float(p.x).bitPattern.littleEndian, y = Float(p.y).bitPattern.littleEndian
            withUnsafeBytes(of: &x) { data.append(contentsOf: $0) }
            withUnsafeBytes(of: &y) { data.append(contentsOf: $0) }
        }
        data.append(contentsOf: f.descriptors)
        return data
    }

    /// nil for anything that is not a complete cache file (it is then rebuilt).
    static func decode(_ data: Data) -> ORBFeatures? {
        guard data.count >= magic.count + 4, data.prefix(magic.count) == magic else { return nil }
        let bytes = [UInt8](data)
        var offset = magic.count
        func u32() -> UInt32 {
            defer { offset += 4 }
            return UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16
                | UInt32(bytes[offset + 3]) << 24
        }
        let n = Int(u32())
        guard n <= 100_000, bytes.count == offset + n * 8 + n * 32 else { return nil }
        var points: [Point2] = []
        points.reserveCapacity(n)
        for _ in 0..<n {
            let x = Float(bitPattern: u32()), y = Float(bitPattern: u32())
            guard x.isFinite, y.isFinite else { return nil }
            points.append(Point2(Double(x), Double(y)))
        }
        return ORBFeatures(points: points, descriptors: Array(bytes[offset...]))
    }
}
