import Foundation
import HeritageBridge

extension Image {
    /// Writes a PNG, JPEG or any format OpenCV knows by extension, as one whole file, every write
    /// checked.
    public func write(to path: String) throws {
        try WholeFile.write(encoded(as: "." + (path as NSString).pathExtension), to: path)
    }
}
