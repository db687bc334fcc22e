import Foundation

/// Paths the tests use: the package root, a fresh scratch folder, optional shared data.
enum TestPaths {
    static let packageRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url.path }
        }
        fatalError("Package.swift not found above \(#filePath)")
    }()

    /// A new empty folder under the system's temporary directory.
    static func scratch(_ name: String = #function) -> String {
        let safe = name.filter { $0.isLetter || $0.isNumber }
        let path = (NSTemporaryDirectory() as NSString)
            .appendingPathComponent("heritage-lens-tests-\(safe)-\(UUID().uuidString.prefix(8))")
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// The project's six cards (Samples/cards) and whether they are there.
    static let cardFolder = packageRoot + "/Samples/cards"
    static var hasCards: Bool { FileManager.default.fileExists(atPath: cardFolder + "/cards.json") }

    /// Debian-shipped images extracted by scripts/fetch-debian-assets.sh (nil when absent).
    static func debianAsset(_ name: String) -> String? {
        let p = (packageRoot as NSString).appendingPathComponent("Samples/debian/\(name)")
        return FileManager.default.fileExists(atPath: p) ? p : nil
    }

    /// ../shared/data/faces beside the checkout (nil when absent).
    static var sharedFaces: String? {
        let p = ((packageRoot as NSString).deletingLastPathComponent as NSString).appendingPathComponent("shared/data/faces")
        return FileManager.default.fileExists(atPath: p) ? p : nil
    }
}
