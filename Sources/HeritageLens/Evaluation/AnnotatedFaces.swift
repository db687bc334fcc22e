import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
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

        public var description: String {
            switch self {
            case .unreadable(let p, let reason): return "\(p): not a dlib landmark XML file (\(reason))"
            }
        }
    }

    /// Faces with all 68 points, from every XML file given; image paths are resolved beside the XML.
    public static func load(_ xmlPaths: [String]) throws -> [AnnotatedFace] {
        var faces: [AnnotatedFace] = []
        for path in xmlPaths {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw Failure.unreadable(path, reason: "cannot read the file")
            }
            let reader = Reader(folder: (path as NSString).deletingLastPathComponent)
            let parser = XMLParser(data: data)
            parser.delegate = reader
            guard parser.parse() else {
                throw Failure.unreadable(path, reason: parser.parserError.map { "\($0)" } ?? "parse error")
            }
            guard reader.closed else { throw Failure.unreadable(path, reason: "truncated: no closing </dataset>") }
            faces += reader.faces
        }
        return faces
    }

    final class Reader: NSObject, XMLParserDelegate {
        let folder: String
        var faces: [AnnotatedFace] = []
        var closed = false
        private var image: String?
        private var box: Rect?
        private var parts: [Int: Point2] = [:]

        init(folder: String) {
            self.folder = folder
        }

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes a: [String: String] = [:]) {
            switch name {
            case "image":
                image = a["file"].map { (folder as NSString).appendingPathComponent($0) }
            case "box":
                if let t = a["top"].flatMap(Double.init), let l = a["left"].flatMap(Double.init),
                   let w = a["width"].flatMap(Double.init), let h = a["height"].flatMap(Double.init) {
                    box = Rect(x: l, y: t, width: w, height: h)
                }
                parts = [:]
            case "part":
                if let n = a["name"].flatMap(Int.init), let x = a["x"].flatMap(Double.init),
                   let y = a["y"].flatMap(Double.init), (0..<68).contains(n) {
                    parts[n] = Point2(x, y)
                }
            default: break
            }
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            if name == "box", let image, let box, parts.count == 68 {
                faces.append(AnnotatedFace(imagePath: image, box: box, landmarks: (0..<68).map { parts[$0]! }))
            }
            if name == "box" { box = nil }
            if name == "dataset" { closed = true }
        }
    }
}
