import HeritageCore

/// A frame size as users write it, "640x480".
enum FrameSizeText {
    /// nil unless `text` is WxH with both sides in `sides`.
    static func parse(_ text: String, sides: ClosedRange<Int>) -> Size? {
        let parts = text.lowercased().split(separator: "x")
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), sides.contains(w), sides.contains(h) else {
            return nil
        }
        return Size(width: w, height: h)
    }
}
