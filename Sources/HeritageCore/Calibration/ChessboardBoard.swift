/// A printed chessboard for calibration: its inner-corner grid and square size.
public struct ChessboardBoard: Hashable, Sendable {
    /// Inner corners across and down (a board of 10 x 7 squares has 9 x 6).
    public var columns: Int
    public var rows: Int
    /// Side of one square, in metres.
    public var square: Double

    public init(columns: Int, rows: Int, square: Double) {
        self.columns = columns
        self.rows = rows
        self.square = square
    }

    public static let standard = ChessboardBoard(columns: 9, rows: 6, square: 0.025)

    public var cornerCount: Int { columns * rows }

    /// Inner corners in the board's plane (metres, z = 0), row by row, as OpenCV orders them.
    public var objectPoints: [Vector3] {
        (0..<rows).flatMap { r in (0..<columns).map { c in Vector3(Double(c) * square, Double(r) * square, 0) } }
    }

    /// An SVG of the whole board (a white margin of half a square: the detector needs white round
    /// the outer squares), at true size in millimetres; 9 x 6 at 25 mm fits A4 landscape.
    public var svg: String {
        let mm = square * 1000, margin = mm / 2
        let w = Double(columns + 1) * mm, h = Double(rows + 1) * mm
        var out = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(w + 2 * margin)mm\" height=\"\(h + 2 * margin + 8)mm\" "
            + "viewBox=\"0 0 \(w + 2 * margin) \(h + 2 * margin + 8)\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
        for r in 0...rows {
            for c in 0...columns where (r + c) % 2 == 0 {
                out += "<rect x=\"\(margin + Double(c) * mm)\" y=\"\(margin + Double(r) * mm)\" width=\"\(mm)\" height=\"\(mm)\" fill=\"black\"/>\n"
            }
        }
        out += "<text x=\"\(margin)\" y=\"\(h + 2 * margin + 5)\" font-size=\"4\" font-family=\"sans-serif\">HeritageLens calibration board: "
            + "\(columns) x \(rows) inner corners, \(Int(mm.rounded())) mm squares. Print at 100 %, check one square with a ruler.</text>\n"
        return out + "</svg>\n"
    }
}

/// How well a set of calibration views covers the image and the range of tilts: the feedback a
/// person needs while collecting views.
public struct CalibrationCoverage: Sendable {
    public let imageSize: Size
    public let grid: Int
    private var cells: Set<Int> = []
    public private(set) var tilts: [Double] = []

    public init(imageSize: Size, grid: Int = 5) {
        self.imageSize = imageSize
        self.grid = grid
    }

    /// Adds one view's corners; `board` gives the aspect to estimate the tilt from.
    public mutating func add(corners: [Point2], board: ChessboardBoard) {
        for p in corners {
            let cx = min(grid - 1, max(0, Int(p.x / Double(imageSize.width) * Double(grid))))
            let cy = min(grid - 1, max(0, Int(p.y / Double(imageSize.height) * Double(grid))))
            cells.insert(cy * grid + cx)
        }
        tilts.append(Self.tilt(corners: corners, board: board))
    }

    /// Share of the image's grid cells that some view's corners reached.
    public var covered: Double { Double(cells.count) / Double(grid * grid) }

    /// Rough tilt of a view in degrees from foreshortening: the board's outer corner quad against
    /// its true aspect (0 when seen square-on).
    public static func tilt(corners: [Point2], board: ChessboardBoard) -> Double {
        guard corners.count == board.cornerCount else { return 0 }
        let c = board.columns, r = board.rows
        let tl = corners[0], tr = corners[c - 1], bl = corners[(r - 1) * c], br = corners[r * c - 1]
        let width = (tl.distance(to: tr) + bl.distance(to: br)) / 2
        let height = (tl.distance(to: bl) + tr.distance(to: br)) / 2
        let trueAspect = Double(c - 1) / Double(r - 1)
        let seen = width / max(1e-9, height)
        let k = min(seen / trueAspect, trueAspect / seen)
        return _acos(max(-1, min(1, k))) * degreesPerRadian
    }
}
