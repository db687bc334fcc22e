import HeritageLens
import Foundation
import HeritageCore

/// A face in a photo with its 68 annotated points.
public struct AnnotatedFace: Sendable {
    public var imagePath: String
    public var box: Rect
    public var landmarks: [Point2]
}

/// Reads dlib's image-metadata XML (`<image file><box top left width height><part name x y>`),
/// the format of shared/data/faces.
public enum AnnotatedFaces {
    public enum Failure: Error, CustomStringConvertible {
        case unreadable(String, reason: String)
        /// Not one box with all 68 points (the sequences are built from such faces).
        case noCompleteFace([String], partialBoxes: Int)

        public var description: String {
            switch self {
            case .unreadable(let p, let reason): return "\(p): not a dlib landmark XML file (\(reason))"
            case .noCompleteFace(let paths, let partial):
                let named = paths.count == 1 ? paths[0] : "\(paths[0]) and \(paths.count - 1) more"
                let found = partial > 0 ? "\(partial) face\(partial == 1 ? "" : "s") with fewer points" : "no face at all"
                return "\(named): no face with all 68 landmark points (\(found)); eval-faces needs dlib's 68-point annotations"
            }
        }
    }

    /// Faces with all 68 points, from every XML file given; image paths are resolved beside the XML.
    /// Boxes with fewer points are skipped; files with none at all are an error.
    public static func load(_ xmlPaths: [String]) throws -> [AnnotatedFace] {
        var faces: [AnnotatedFace] = []
        var partial = 0
        for path in xmlPaths {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw Failure.unreadable(path, reason: "cannot read the file")
            }
            faces += try parse(data, folder: (path as NSString).deletingLastPathComponent, path: path, partialBoxes: &partial)
        }
        if faces.isEmpty && !xmlPaths.isEmpty { throw Failure.noCompleteFace(xmlPaths, partialBoxes: partial) }
        return faces
    }

    /// A small tag scanner for this one format. Foundation's XMLParser crashed (SIGILL inside
    /// libFoundationXML) on some corrupt files the fuzz tests made, so it is not used.
    static func parse(_ data: Data, folder: String, path: String, partialBoxes: inout Int) throws -> [AnnotatedFace] {
        let text = String(decoding: data, as: UTF8.self)
        var faces: [AnnotatedFace] = []
        var image: String?
        var box: Rect?
        var parts: [Int: Point2] = [:]
        var closed = false
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "<") {
            guard let end = rest[open...].firstIndex(of: ">") else {
                throw Failure.unreadable(path, reason: "truncated tag")
            }
            let tag = rest[rest.index(after: open)..<end]
            rest = rest[rest.index(after: end)...]
            var name = tag.prefix { !$0.isWhitespace }
            if name.count > 1, name.hasSuffix("/") { name = name.dropLast() }
            let a = attributes(tag)
            switch name {
            case "image":
                image = a["file"].map { (folder as NSString).appendingPathComponent($0) }
            case "box":
                box = nil
                if let t = a["top"].flatMap(Double.init), let l = a["left"].flatMap(Double.init),
                   let w = a["width"].flatMap(Double.init), let h = a["height"].flatMap(Double.init) {
                    box = Rect(x: l, y: t, width: w, height: h)
                }
                parts = [:]
            case "part":
                if let n = a["name"].flatMap(Int.init), let x = a["x"].flatMap(Double.init),
                   let y = a["y"].flatMap(Double.init), (0..<68).contains(n), x.isFinite, y.isFinite {
                    parts[n] = Point2(x, y)
                }
            case "/box":
                if let image, let box, parts.count == 68 {
                    faces.append(AnnotatedFace(imagePath: image, box: box, landmarks: (0..<68).map { parts[$0]! }))
                } else {
                    partialBoxes += 1
                }
                box = nil
            case "/dataset":
                closed = true
            default:
                break
            }
        }
        guard closed else { throw Failure.unreadable(path, reason: "truncated: no closing </dataset>") }
        return faces
    }

    /// `key='value'` and `key="value"` pairs of a tag.
    static func attributes(_ tag: Substring) -> [String: String] {
        var out: [String: String] = [:]
        var rest = tag
        while let eq = rest.firstIndex(of: "=") {
            let key = rest[..<eq].split(whereSeparator: { $0.isWhitespace }).last.map(String.init) ?? ""
            var after = rest[rest.index(after: eq)...]
            guard let quote = after.first, quote == "'" || quote == "\"" else {
                rest = after
                continue
            }
            after = after.dropFirst()
            guard let close = after.firstIndex(of: quote) else { break }
            out[key] = String(after[..<close])
            rest = after[after.index(after: close)...]
        }
        return out
    }
}
