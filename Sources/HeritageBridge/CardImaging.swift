import CBridge
import HeritageCore

/// Pixel work of card tracking: a reference picture seen through a homography.
public enum CardImaging {
    /// Normalised cross-correlation of the frame region that `homography` (reference -> frame)
    /// maps from `reference`'s size, warped into `scratch`, with `reference`; with `cells` > 1 the
    /// mean over the better half of a cells x cells grid. nil when under a quarter of the card is in
    /// view.
    public static func warpedCorrelation(frame gray: Image, homography: [Double], reference: Image, scratch: Image,
                                         cells: Int) throws(BridgeError) -> Double? {
        let score = cb_warped_correlation(gray.raw, homography, reference.raw, scratch.raw, Int32(cells))
        if score == -2 { throw BridgeError.last("warped correlation") }
        return score == -1 ? nil : score
    }

    /// Renders `reference` through `homography` into the frame-sized `destination`, matched to the
    /// frame's brightness, only inside the warped card's bounding box, which it returns (nil when
    /// the card covers no pixel).
    public static func renderReference(_ reference: Image, homography: [Double], frame gray: Image,
                                       into destination: Image) throws(BridgeError) -> Rect? {
        var box = cb_rect()
        let n = try check(cb_render_reference(reference.raw, homography, gray.raw, destination.raw, &box), "render reference")
        return n > 0 ? box.rect : nil
    }
}
