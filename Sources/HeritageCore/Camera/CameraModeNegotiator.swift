/// Picks the mode to ask a camera for, from what it offers and what the user wants.
///
/// The rules, in order:
/// 1. Only formats the bridge decodes (MJPEG, JPEG, YUYV, GREY, BGR3) are considered.
/// 2. Size: the asked size if offered; else the smallest offered size at least as large in both
///    dimensions (frames are then processed at that size); else the largest offered size.
/// 3. At that size, a format that reaches the asked rate beats one that does not (USB cameras
///    often offer YUYV at full size only at a few frames per second).
/// 4. Among those, MJPEG (or JPEG) first, then YUYV (whose luma plane is the gray image for free),
///    then GREY, then BGR3.
/// 5. Rate: the lowest offered rate that reaches the asked one, else the highest offered.
public struct CameraModeNegotiator: Sendable {
    public var requestedSize: Size
    public var requestedFramesPerSecond: Double

    public init(requestedSize: Size, requestedFramesPerSecond: Double) {
        self.requestedSize = requestedSize
        self.requestedFramesPerSecond = requestedFramesPerSecond
    }

    public enum Failure: Error, Equatable, CustomStringConvertible {
        case noDecodableMode(offered: [String])

        public var description: String {
            switch self {
            case .noDecodableMode(let offered):
                return "the camera offers no format HeritageLens decodes (offered: "
                    + (offered.isEmpty ? "none" : offered.joined(separator: ", "))
                    + "; supported: MJPG, JPEG, YUYV, GREY, BGR3)"
            }
        }
    }

    static func formatRank(_ f: FourCC) -> Int {
        switch f {
        case .mjpeg, .jpeg: return 0
        case .yuyv: return 1
        case .grey: return 2
        default: return 3
        }
    }

    public func choose(from offered: [CameraMode]) throws -> CameraMode {
        let usable = offered.filter { FourCC.decodable.contains($0.pixelFormat) }
        guard !usable.isEmpty else {
            throw Failure.noDecodableMode(offered: Array(Set(offered.map { $0.pixelFormat.description })).sorted())
        }
        let sizes = Set(usable.map(\.size))
        let size: Size
        if sizes.contains(requestedSize) {
            size = requestedSize
        } else if let larger = sizes.filter({ $0.width >= requestedSize.width && $0.height >= requestedSize.height })
            .min(by: { $0.width * $0.height < $1.width * $1.height })
        {
            size = larger
        } else {
            size = sizes.max { $0.width * $0.height < $1.width * $1.height }!
        }
        let atSize = usable.filter { $0.size == size }
        // A driver that reports no rate (0) is taken at its word that it can keep up.
        func reaches(_ m: CameraMode) -> Bool {
            m.framesPerSecond == 0 || m.framesPerSecond + 0.01 >= requestedFramesPerSecond
        }
        let best = atSize.min { a, b in
            let ka = (reaches(a) ? 0 : 1, Self.formatRank(a.pixelFormat))
            let kb = (reaches(b) ? 0 : 1, Self.formatRank(b.pixelFormat))
            if ka != kb { return ka < kb }
            // Same format class: the lowest sufficient rate, or the highest insufficient one.
            return reaches(a) ? a.framesPerSecond < b.framesPerSecond : a.framesPerSecond > b.framesPerSecond
        }!
        return best
    }
}
