import HeritageLens

/// Images the face tests read from files.
enum TestImages {
    /// The file at `path` as an 8-bit gray image, as the trackers see a frame.
    static func gray(at path: String) throws -> Image {
        let image = try Image(contentsOf: path)
        try image.normalizeToBGR()
        let gray = Image()
        try image.convertToGray(into: gray)
        return gray
    }
}
