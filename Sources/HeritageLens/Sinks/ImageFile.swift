import Foundation
import HeritageBridge

extension Image {
    /// Writes a PNG, JPEG, BMP, PPM, PGM, TIFF or WebP file by its extension, as one whole file,
    /// every write checked.
    public func write(to path: String) throws {
        try WholeFile.write(encoded(as: "." + (path as NSString).pathExtension), to: path)
    }
}
