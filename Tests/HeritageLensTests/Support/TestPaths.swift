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

    /// This test process's folder under the system's temporary directory, removed when the process
    /// exits (a run of the suite writes about a gigabyte of videos) unless
    /// HERITAGE_LENS_KEEP_TEST_FILES is set, to look at what a failing test wrote.
    static let scratchRoot: String = {
        let path = (NSTemporaryDirectory() as NSString).appendingPathComponent("heritage-lens-tests-\(getpid())")
        try? FileManager.default.removeItem(atPath: path) // left by a crashed run whose pid this one got
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        if ProcessInfo.processInfo.environment["HERITAGE_LENS_KEEP_TEST_FILES"] == nil {
            atexit { try? FileManager.default.removeItem(atPath: TestPaths.scratchRoot) }
        }
        return path
    }()

    /// A new empty folder in this test process's scratch folder.
    static func scratch(_ name: String = #function) -> String {
        let safe = name.filter { $0.isLetter || $0.isNumber }
        let path = (scratchRoot as NSString).appendingPathComponent("\(safe)-\(UUID().uuidString.prefix(8))")
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
