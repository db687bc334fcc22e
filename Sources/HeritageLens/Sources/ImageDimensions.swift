import Foundation
import HeritageCore

/// The largest frame a source accepts, a side: a 20000 x 20000 PNG is a 1.2 MB file but 1.2 GB
/// decoded, and cost 8.6 GB of memory and 104 s for one frame before there was a limit.
public enum FrameLimits {
    public static let defaultMaximumSide = 8192
}

/// An image file's width and height read from its header, before anything is decoded, so that a
/// huge image is refused without the memory its pixels would take. PNG, JPEG, BMP, PGM/PPM,
/// WebP and TIFF; nil for anything else (or a header it cannot follow).
enum ImageDimensions {
    static func read(_ path: String) -> Size? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        // JPEG headers may carry large EXIF blocks before the frame header.
        guard let data = try? handle.read(upToCount: 512 * 1024) else { return nil }
        let b = [UInt8](data)
        guard b.count >= 12 else { return nil }
        func be16(_ i: Int) -> Int { i + 1 < b.count ? Int(b[i]) << 8 | Int(b[i + 1]) : -1 }
        func be32(_ i: Int) -> Int { i + 3 < b.count ? be16(i) << 16 | be16(i + 2) : -1 }
        func le16(_ i: Int) -> Int { i + 1 < b.count ? Int(b[i]) | Int(b[i + 1]) << 8 : -1 }
        func le32(_ i: Int) -> Int { i + 3 < b.count ? le16(i) | le16(i + 2) << 16 : -1 }
        func size(_ w: Int, _ h: Int) -> Size? { w > 0 && h > 0 ? Size(width: w, height: h) : nil }

        if b.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return size(be32(16), be32(20)) }
        if b.starts(with: [0xFF, 0xD8]) {
            var i = 2
            while i + 9 < b.count {
                guard b[i] == 0xFF else { return nil }
                let marker = b[i + 1]
                if marker == 0xFF { i += 1; continue }
                if (0xD0...0xD9).contains(marker) || marker == 0x01 { i += 2; continue }
                if (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker) {
                    return size(be16(i + 7), be16(i + 5))
                }
                let length = be16(i + 2)
                guard length >= 2 else { return nil }
                i += 2 + length
            }
            return nil
        }
        if b.starts(with: [0x42, 0x4D]) {
            if le32(14) == 12 { return size(le16(18), le16(20)) }
            let h = Int(Int32(truncatingIfNeeded: le32(22)))
            return size(le32(18), abs(h))
        }
        if b[0] == 0x50, (0x31...0x36).contains(b[1]) {
            // P1-P6: magic, then width and height as text, with # comments to line ends.
            var numbers: [Int] = []
            var i = 2
            while numbers.count < 2 && i < b.count {
                if b[i] == 0x23 { while i < b.count && b[i] != 0x0A { i += 1 }; continue }
                if (0x30...0x39).contains(b[i]) {
                    var n = 0
                    while i < b.count, (0x30...0x39).contains(b[i]), n < 1 << 40 { n = n * 10 + Int(b[i] - 0x30); i += 1 }
                    numbers.append(n)
                    continue
                }
                i += 1
            }
            return numbers.count == 2 ? size(numbers[0], numbers[1]) : nil
        }
        if b.starts(with: Array("RIFF".utf8)), Array(b[8..<12]) == Array("WEBP".utf8), b.count >= 30 {
            switch String(decoding: b[12..<16], as: UTF8.self) {
            case "VP8 ": return size(le16(26) & 0x3FFF, le16(28) & 0x3FFF)
            case "VP8L":
                let bits = le32(21)
                return size((bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1)
            case "VP8X":
                return size((le16(24) | Int(b[26]) << 16) + 1, (le16(27) | Int(b[29]) << 16) + 1)
            default: return nil
            }
        }
        let little = b.starts(with: [0x49, 0x49, 0x2A, 0x00]), big = b.starts(with: [0x4D, 0x4D, 0x00, 0x2A])
        if little || big {
            let u16 = little ? le16 : be16, u32 = little ? le32 : be32
            let ifd = u32(4)
            let count = u16(ifd)
            guard ifd > 0, count > 0 else { return nil }
            var w = 0, h = 0
            for e in 0..<count {
                let at = ifd + 2 + 12 * e
                guard at + 12 <= b.count else { break }
                let value = u16(at + 2) == 3 ? u16(at + 8) : u32(at + 8)
                if u16(at) == 256 { w = value } else if u16(at) == 257 { h = value }
            }
            return size(w, h)
        }
        return nil
    }
}
