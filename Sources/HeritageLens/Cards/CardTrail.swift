/// The frames seen while a live recognition is under way, at half size, so that what it finds can
/// be flowed forward frame by frame to the present however late it lands (on a slow core a
/// recognition takes a second or more, and a moving card is far from where it was found).
///
/// No result is ever too late for it: past `capacity` frames every other frame is let go, so a
/// longer wait means longer steps, never a lost result.
final class CardTrail {
    struct Entry {
        let frameIndex: Int
        let gray: Image
    }

    /// Most frames kept (at 640x480, 77 KB each).
    let capacity: Int
    private(set) var entries: [Entry] = []
    /// Buffers of cleared entries, for the next trail.
    private var spare: [Image] = []

    init(capacity: Int = 120) {
        self.capacity = max(2, capacity)
    }

    var isEmpty: Bool { entries.isEmpty }

    /// Trail pixels per frame pixel.
    static let scale = 0.5

    /// Keeps `gray` (a full-size frame) as frame `frameIndex`, unless that frame is kept already.
    func append(_ gray: Image, frameIndex: Int) throws {
        if let last = entries.last, last.frameIndex >= frameIndex { return }
        let image = spare.popLast() ?? Image()
        try gray.resize(into: image, width: max(1, Int(Double(gray.width) * Self.scale)),
                        height: max(1, Int(Double(gray.height) * Self.scale)), interpolation: .area)
        entries.append(Entry(frameIndex: frameIndex, gray: image))
        if entries.count > capacity { thin() }
    }

    /// The first kept frame after `frameIndex`.
    func entry(after frameIndex: Int) -> Entry? {
        entries.first { $0.frameIndex > frameIndex }
    }

    func entry(at frameIndex: Int) -> Entry? {
        entries.first { $0.frameIndex == frameIndex }
    }

    /// Lets every frame go. Only when nothing flows along the trail: their buffers are reused.
    func clear() {
        spare.append(contentsOf: entries.map(\.gray))
        entries.removeAll()
    }

    /// Every other frame between the first and the last is let go (not reused: a flow in progress
    /// may still hold one).
    private func thin() {
        let last = entries.count - 1
        entries = entries.enumerated().filter { k, _ in k == 0 || k == last || k % 2 == 0 }.map(\.element)
    }
}
