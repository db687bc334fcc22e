import Foundation
import HeritageCore

/// One piece of detection work.
public enum FaceDetectionJob: Hashable, Sendable {
    /// The whole frame, for new faces; with `roll` (radians) not 0, searched turned so that faces
    /// rolled by that much stand upright for the detector (it finds faces within about 12° of
    /// upright).
    case search(roll: Double, sizes: SearchSizes = .all)
    /// Around one track, to confirm a face is still there.
    case verify(trackID: Int, region: Rect)
    /// Where a track was just lost without a cut: the face is most likely still there, its look
    /// dipped (turned, blurred) for longer than the track could wait. Searched at the face's own
    /// scale; what it finds starts tracks as a search's detections do.
    case recover(region: Rect)

    /// Its detections start tracks (a verification's only confirm one).
    var findsNewFaces: Bool {
        if case .verify = self { return false }
        return true
    }

    /// A whole-frame search on the frame turned, whose detections near 0 start nothing
    /// (`FaceTracker.Options.rolledDetectionThreshold`).
    var searchesTurned: Bool {
        if case .search(let roll, _) = self { return roll != 0 }
        return false
    }
}

extension FaceDetectionJob: CustomStringConvertible {
    public var description: String {
        switch self {
        case .search(let roll, let sizes): "search (\(sizes), roll \(roll))"
        case .verify(let id, _): "verification of track \(id)"
        case .recover(let region): "recovery around \(region.centre)"
        }
    }
}

/// The face sizes a whole-frame search looks for. A live search split in two parts finds the
/// faces most scenes have in about half a search's time, and the smallest ones a part later:
/// the detector's pyramid cut between its second and third level, so the parts together cost what
/// one whole search does.
public enum SearchSizes: Hashable, Sendable {
    /// From the smallest face asked for up.
    case all
    /// From 1.44 times the smallest up: the whole search's pyramid without its two finest levels
    /// (the same level images, so it finds there what the whole search finds).
    case larger
    /// Under `larger`'s: the two finest levels alone.
    case smaller

    /// Pyramid steps between the smallest faces and `larger`'s.
    static let finestLevels = 2
    /// How much smaller `larger`'s finest level is than a whole search's: the smallest face it
    /// finds is the smallest asked for divided by this (1.44 times it).
    static let largerScale = pow(5.0 / 6, Double(finestLevels))
}

/// What a job found, on which frame, at what cost.
public struct FaceDetectionResult: Sendable {
    public var job: FaceDetectionJob
    public var frameIndex: Int
    public var detections: [FaceDetection]
    /// Thread CPU time the job took.
    public var milliseconds: Double
    /// Wall time it took: longer than its CPU time where the worker waits for a share of a core.
    public var wallMilliseconds: Double = 0
    /// Live only: the frame a search or recovery found faces on, for following them from there
    /// to the frame their result is taken on.
    public var searched: Image? = nil
}

/// Turns a job into detector calls: search scale from the smallest face wanted, verification
/// regions scaled so the face fills the detector's window.
public struct DetectionRunner {
    let detector: FaceDetector
    let predictor: LandmarkPredictor
    /// Search scale: above 1 lets the detector's 80 px window see faces this many px between the eyes.
    let searchScale: Double
    let exposure = SearchExposure()

    init(detector: FaceDetector, predictor: LandmarkPredictor, minimumEyeDistance: Double) {
        self.detector = detector
        self.predictor = predictor
        searchScale = Self.searchScale(minimumEyeDistance: minimumEyeDistance)
    }

    /// The whole-frame search scale at which a face `minimumEyeDistance` px between the eyes fills
    /// the detector's window.
    public static func searchScale(minimumEyeDistance: Double) -> Double {
        min(2.5, max(0.25, 90 / (FaceFrame.detectorBoxWidth * minimumEyeDistance)))
    }

    /// The frame's tone corrected for the search, and for the landmarks of what it finds as the
    /// tracker fits them (`SearchExposure`).
    func exposed(_ gray: Image) throws -> (search: Image, landmarks: Image) {
        try exposure.corrections(of: gray)
    }

    func run(_ job: FaceDetectionJob, on gray: Image) throws -> [FaceDetection] {
        switch job {
        case .search(let roll, _) where roll != 0:
            let image = try exposed(gray)
            let turned = Image()
            try image.search.derotate(by: roll, into: turned)
            let centre = Point2(Double(gray.width - 1) / 2, Double(gray.height - 1) / 2)
            return try detector.detect(in: turned, region: nil, scale: searchScale).map { d in
                // Back in the frame: the box's centre turned back, the fit rolled as the search was.
                let c = d.box.centre.rotated(by: roll, about: centre)
                let side = (d.box.width + d.box.height) / 2
                var found = FaceDetection(box: Rect(x: c.x - side / 2, y: c.y - side / 2, width: side, height: side),
                                          score: d.score)
                found.landmarks = try predictor.fit(in: image.landmarks, centre: c, side: side, roll: roll)
                return found
            }
        case .search(_, let sizes):
            // New faces get their landmarks here, on the frame they were found in: exact dlib
            // boxes for the fit, and the cost stays with the worker.
            let image = try exposed(gray)
            let found: [FaceDetection]
            switch sizes {
            case .all: found = try detector.detect(in: image.search, region: nil, scale: searchScale)
            case .larger:
                found = try detector.detectLarger(in: image.search, region: nil, scale: searchScale,
                                                  skipping: SearchSizes.finestLevels)
            case .smaller:
                found = try detector.detectSmallest(in: image.search, region: nil, scale: searchScale,
                                                    levels: SearchSizes.finestLevels)
            }
            return try found.map { d in
                var d = d
                d.landmarks = try predictor.fit(in: image.landmarks, box: d.box)
                return d
            }
        case .verify(_, let region):
            return try detector.detect(in: gray, region: region, scale: Self.regionScale(region))
        case .recover(let region):
            let image = try exposed(gray)
            return try detector.detect(in: image.search, region: region, scale: Self.regionScale(region)).map { d in
                var d = d
                d.landmarks = try predictor.fit(in: image.landmarks, box: d.box)
                return d
            }
        }
    }

    /// A region 1.8 face boxes wide: the face brought to ~110 px (the detector's window is 80).
    static func regionScale(_ region: Rect) -> Double {
        min(2.5, max(0.4, 110 / (region.width / 1.8)))
    }
}
