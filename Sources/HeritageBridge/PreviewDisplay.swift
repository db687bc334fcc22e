import CBridge

/// OpenCV's highgui windows.
public enum PreviewDisplay {
    /// Shows `image` in the window `title` (made on first use); refuses when no display is
    /// reachable, where Qt would abort the process.
    public static func show(_ image: Image, title: String) throws(BridgeError) {
        try check(cb_window_show(title, image.raw), "preview window")
    }

    /// The key pressed within `milliseconds` (waitKey), nil when none.
    public static func pressedKey(within milliseconds: Int) -> Int32? {
        let code = cb_window_poll_key(Int32(milliseconds))
        return code < 0 ? nil : code
    }

    public static func closeAll() { cb_window_close_all() }
}
