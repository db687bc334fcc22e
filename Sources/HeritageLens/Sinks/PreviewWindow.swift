import Foundation
import HeritageCore

/// The live preview: an OpenCV window, only when a display exists, with keys.
///
/// Keys: q or Esc quits, s writes a snapshot, m cycles the mask, t cycles the tier, c toggles cards.
public final class PreviewWindow: FrameSink {
    public enum Key: Equatable {
        case quit, snapshot, nextMask, nextTier, toggleCards
    }

    public let title: String
    /// Called on the pipeline's thread for each key pressed.
    public var onKey: ((Key) -> Void)?

    /// True when highgui can open a window here (otherwise Qt would abort the process).
    public static var displayAvailable: Bool {
        let env = ProcessInfo.processInfo.environment
        return ["DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"].contains { !(env[$0] ?? "").isEmpty }
    }

    public init(title: String = "HeritageLens") {
        self.title = title
    }

    public func write(_ frame: ProcessedFrame) throws {
        try PreviewDisplay.show(frame.output, title: title)
        guard let code = PreviewDisplay.pressedKey(within: 1) else { return }
        switch code & 0xff {
        case 27, Int32(UInt8(ascii: "q")): onKey?(.quit)
        case Int32(UInt8(ascii: "s")): onKey?(.snapshot)
        case Int32(UInt8(ascii: "m")): onKey?(.nextMask)
        case Int32(UInt8(ascii: "t")): onKey?(.nextTier)
        case Int32(UInt8(ascii: "c")): onKey?(.toggleCards)
        default: break
        }
    }

    public func finish() throws { PreviewDisplay.closeAll() }
}
