import HeritageCore

/// How much of the frame changed since a reference moment (the last search), away from regions
/// whose change is already explained (tracked faces and cards).
///
/// A search finds what is new in a frame; where nothing new can have appeared, it finds what the
/// last one did. The frame is shrunk to a thumbnail of cells (32 x 24: a cell is 20 x 20 at
/// 640x480) and compared with the thumbnail of the last search's frame after matching their mean
/// brightness (exposure drift is not a new object). Sensor noise averages out over a cell's pixels
/// (sigma 12 per pixel is under 1 per cell); an object entering the frame changes the cells it
/// covers by tens of levels.
public final class RegionChangeMeter {
    public let columns: Int
    public let rows: Int
    /// A cell's change (0-255) that counts.
    public let cellThreshold: Int
    private let thumbnail = Image()
    private var current: [UInt8] = []
    private var reference: [UInt8]?
    private var referenceBusy: [Rect] = []
    private var frameSize = Size(width: 0, height: 0)

    public init(columns: Int = 32, rows: Int = 24, cellThreshold: Int = 14) {
        self.columns = columns
        self.rows = rows
        self.cellThreshold = cellThreshold
    }

    /// What a face at `box` (its landmarks' or detector's box) moves with it: the head around the
    /// box and the shoulders below.
    public static func regionMovingWith(face box: Rect) -> Rect {
        let c = box.centre
        return Rect(x: c.x - 1.5 * box.width, y: c.y - 1.5 * box.height, width: 3 * box.width, height: 4 * box.height)
    }

    /// Takes this frame's thumbnail; call before asking about it.
    public func observe(_ gray: Image) throws {
        try gray.resize(into: thumbnail, width: columns, height: rows, interpolation: .area)
        current = thumbnail.samples()
        frameSize = gray.size
    }

    /// Cells that differ from the reference, outside `busy` regions (gray pixels) now and at the
    /// reference; every cell when there is no reference yet.
    public func changedCells(busy: [Rect]) -> Int {
        guard let reference, reference.count == current.count, !current.isEmpty else { return columns * rows }
        let ignored = mask(for: busy + referenceBusy)
        var sumNow = 0, sumThen = 0, counted = 0
        for i in current.indices where !ignored[i] {
            sumNow += Int(current[i])
            sumThen += Int(reference[i])
            counted += 1
        }
        guard counted > 0 else { return 0 }
        let offset = (sumNow - sumThen) / counted
        var changed = 0
        for i in current.indices where !ignored[i] && abs(Int(current[i]) - Int(reference[i]) - offset) > cellThreshold {
            changed += 1
        }
        return changed
    }

    /// The observed frame becomes the reference; `busy` regions stay ignored until the next one.
    public func markReference(busy: [Rect]) {
        reference = current
        referenceBusy = busy
    }

    /// Cells touched by any region, grown by one cell (a moving object's edge blurs into its neighbours).
    private func mask(for regions: [Rect]) -> [Bool] {
        var ignored = [Bool](repeating: false, count: columns * rows)
        guard frameSize.width > 0, frameSize.height > 0 else { return ignored }
        let cellWidth = Double(frameSize.width) / Double(columns)
        let cellHeight = Double(frameSize.height) / Double(rows)
        for r in regions where r.x.isFinite && r.y.isFinite && r.width.isFinite && r.height.isFinite {
            let x0 = max(0, Int((r.x / cellWidth).rounded(.down)) - 1)
            let x1 = min(columns - 1, Int(((r.x + r.width) / cellWidth).rounded(.down)) + 1)
            let y0 = max(0, Int((r.y / cellHeight).rounded(.down)) - 1)
            let y1 = min(rows - 1, Int(((r.y + r.height) / cellHeight).rounded(.down)) + 1)
            guard x0 <= x1, y0 <= y1 else { continue }
            for y in y0...y1 { for x in x0...x1 { ignored[y * columns + x] = true } }
        }
        return ignored
    }
}
