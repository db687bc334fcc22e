import HeritageCore
import Logging

/// Faces from frame to frame: detection finds them, landmarks follow them.
///
/// A tracked face costs one landmark fit per frame: the next frame's fit is placed from the
/// previous landmarks (centre, size and roll, the way MediaPipe crops its face mesh from the last
/// landmarks), not from a detection. Detection runs only as scheduled (`DetectionSchedule`) to find
/// new faces and to re-confirm tracks, through an `IdleTimeWorker` that may run off the frame path.
///
/// Every fit is checked against the face detector's own filters (`FaceAppearanceCheck`, one
/// window at the fit's scale and roll): the landmark predictor returns a plausible face shape on
/// any texture, so without the check a track outlives its face after a cut or a fast exit and
/// slides over the background. A track is confirmed after `confirmAfter` fits that look like a
/// face, is hidden on a frame whose fit does not, is dropped after `maximumMisses` such frames in
/// a row, or at once when the check finds no face at all or the scene is cut under it; its id
/// comes back if the face is found again near where it was lost within `lostMemory` seconds. A
/// track from a weak detection also needs a second detector's agreement (`FaceSecondOpinion`),
/// since the search and the check share one model and so share its look-alikes, and is not
/// started at all when its colour says it is a badge on coloured cloth (`FaceWarmth`).
public final class FaceTracker {
    public struct Options {
        /// Smallest face to find, in pixels between the eye centres.
        public var minimumEyeDistance = 28.0
        public var maximumFaces = 4
        /// Detector score a search detection needs to start a track (dlib's SVM margin; real
        /// faces score about 0.5-2, look-alikes such as badges and animal faces about 0-0.2: at
        /// dlib's own threshold of 0 the sample's mission patch became a face that the appearance
        /// check then kept).
        public var detectionThreshold = 0.25
        /// Detections between this and `detectionThreshold` start a track only when the check
        /// scores the fitted face at `weakStartScore` or above. Dim and turned faces found at
        /// 0-0.25 fit at -0.2 to -0.6 (a backlit face found so on every search was shown only
        /// once one search scored it 0.25, 1.2 s in); badges fit there too, and what keeps them
        /// off screen is the second detector's word and their colour (`FaceWarmth`), which every
        /// weak start waits for.
        public var weakDetectionThreshold = 0.0
        public var weakStartScore = -0.6
        /// What a detection from a turned search (`rolledSearchAngle`) must score to start a track,
        /// unless it is a face just lost or remembered there: each turned search is one more look
        /// at a frame the upright search has seen, at the same threshold, so more of what scores
        /// near 0 on it is background. On seeds 441-520 (MP4s through `process`, and 441-480 in
        /// memory) the turned-search starts under 0.1 that no earlier face explained were one face
        /// (half out at the frame's edge, started by the upright search three frames later), look-
        /// alikes the cascade refused and four noisy backgrounds in `noise-defocus` it agreed with,
        /// each shown 16-20 frames until dropped as a weak start unfound; upright starts under 0.1
        /// were faces but for look-alikes (docs/faces.md, A turned search's detection near zero).
        public var rolledDetectionThreshold = 0.1
        /// ...and at this score when its box reaches past the frame's edge: a face coming in is
        /// fitted from the part of it inside, and such a fit at -0.5 sat a third of an eye distance
        /// off the face for 20 frames (seed 11's gentle `enter-leave`: 22.7 % of its faces above
        /// 8 % error, against none when it waited for a detection over 0.25).
        public var edgeWeakStartScore = 0.0
        /// Plausible fits before a new track's anchors are published...
        public var confirmAfter = 2
        /// ...unless its detection passed `detectionThreshold` and its first fit scores this on
        /// the appearance check: two independent looks (the search, and the filters on the fitted
        /// face) agree, and waiting a frame would only lose it.
        public var confirmAtOnceScore = 0.0
        /// A track started from a detection under this score is not published until a second
        /// detector (`FaceSecondOpinion`) has found its face on `secondOpinionAgreements` of its
        /// fits (and on a third of them), however well its first fit scores on the check, and is
        /// dropped when it has not within `secondOpinionFrames` frames: dlib's detector and
        /// filters score some badges and name tags as they score turned or dim faces. Where such
        /// a track was dropped, detections under this score start nothing for `doubtMemory`
        /// seconds (or until a cut) unless the second detector finds a face in their own box.
        /// Measured over the look-alikes sequence of eight seeds and every `eval-faces` track:
        /// look-alikes got at most one agreement in 15 fits (one name tag two in ten); every real
        /// face agreed first within its first five fits and then on at least a third of them.
        public var clearDetectionScore = 1.0
        public var secondOpinionAgreements = 2
        public var secondOpinionFrames = 15
        /// ...and at once when it has not agreed on any of its first this many fits.
        public var secondOpinionFirstAgreement = 6
        /// A weak start that this many verifications in a row have not found, none having found
        /// it since it started, is dropped: the detector found it once, at the edge of its
        /// threshold, and never again. A noisy poster and a patch of gravel, each found once at
        /// 0.06-0.08 and agreed with by the cascade, stayed faces for 50-87 frames on held-out
        /// seeds 449 and 466 (`noise-defocus`); over seeds 201-240 every real weak start was
        /// found again within 29 frames of its start (two verifications missed at most).
        public var weakStartUnfoundVerifications = 3
        /// ...and at least this many upright whole-frame searches: they see a washed-out or dark
        /// frame through the tone correction that verifications do not use, and run less often
        /// live, where three verifications alone dropped washed-out faces the next search found.
        public var weakStartUnfoundSearches = 2
        /// ...unless, over at least `weakStartKeptFits` fits since it was published, the second
        /// detector agreed on at least this share of them and as many had a middle as warm as
        /// skin (`FaceWarmth`). A noisy face the detector scores just under its threshold on
        /// every later frame keeps both; a patch of gravel the cascade agrees with is gray.
        public var weakStartKeptAgreement = 0.5
        public var weakStartKeptFits = 6
        public var doubtMemory = 3.0
        /// Consecutive frames without a fit that looks like a face a track survives (hidden).
        public var maximumMisses = 2
        /// Appearance scores (`FaceAppearance.score`, dlib's detection confidence of the fit's own
        /// window): a confirmed track is shown at `keepScore` or above; a new track's fits count
        /// towards confirmation, and a search's detection starts a track, at `confirmScore` or
        /// above; one frame below `dropScore`, or below `cutScore` on a frame that starts a new
        /// scene, drops the track. Faces score 0.3-2.5, faces in heavy noise or blur -1 to 0;
        /// background under -1.2 (measured on the shared faces and the Debian photos).
        public var keepScore = -1.2
        public var confirmScore = -0.9
        /// What a strong start's fit must score with the check's window placed as its detector's
        /// box sits, when it scores under `confirmScore` as its landmarks place it: turned faces
        /// scored -0.1 to -0.77 there; starts at -0.84 to -0.89 were a dark face's fit slid half
        /// off it and turned faces the second detector then refused (docs/faces.md, Acquisition).
        public var placedStartScore = -0.8
        public var dropScore = -2.0
        public var cutScore = -0.6
        /// A confirmed track whose face the detector itself found within `verifiedFrames` (a
        /// verification) is shown down to this score: faces of some people score low at small
        /// sizes, and the detector's recent word outweighs a weak check.
        public var verifiedKeepScore = -1.6
        public var verifiedFrames = 20
        /// How long a lost track's id can be reclaimed.
        public var lostMemory = 1.0
        /// How long a published face that was lost is remembered by its look (`FaceLook`), and how
        /// alike a new start must look (correlation) to be taken back as that face, published at
        /// once and with no second detector's word: a face turned well away from the camera,
        /// which that detector agreed on once, need not win its word again each time it comes
        /// back. Two people's faces measured up to 0.79 alike, one person's 0.54-0.99.
        public var lookMemory = 10.0
        public var lookMatch = 0.85
        /// Live, while faces are tracked: a search that took n frames to land is followed by no
        /// refresh search for `searchRestShare` × n frames (`RefreshRest`), so refreshes take at
        /// most a sixth of the idle time (at a quarter core a third left frames short of quota).
        public var searchRestShare = 5.0
        /// The rest's share in the second after a face came into view, when its searches are
        /// due every few frames (`DetectionSchedule.Options.settlingInterval`), after a search
        /// that landed within that many frames: at 5 a search that landed two frames late held
        /// the next one back ten frames, and the second face of a picture coming in was shown
        /// 12 frames after it was in view where inline shows it after 2 (held-out seed 488's
        /// `leave-fast`, `process --realtime`). A slower search rests as any refresh does.
        public var settlingRestShare = 1.0
        /// Live, in the first `newSceneFrames` frames of a scene (the start, a cut) while no face
        /// is tracked: a frame waits up to this share of the frame period for the search running
        /// since an earlier frame, let through the frame gate (`IdleTimeWorker.awaitJob`), and
        /// takes its faces on this frame instead of the next. A search takes most of a frame's
        /// idle time, shared with card recognition, so it used to land two frames after the frame
        /// it ran on: under `process --realtime` faces were first shown on frame 2-3 of a scene,
        /// where inline shows them on frame 0-1, and that delay is what `--realtime` lost against
        /// inline on every condition. Only then: no mask is on screen to lag, and a scene without
        /// faces does not wait frame after frame (card recognition keeps its idle time). 0: never.
        public var newSceneSearchWait = 0.3
        public var newSceneFrames = 3
        /// Live, on a scene's first frame (the start, a cut) while no face is in view: that frame
        /// waits up to this share of the frame period for the search handed out on it, so a face
        /// in view from the scene's start is shown on its first frame as inline. With only
        /// `newSceneSearchWait` the search that started on frame 0 landed on frame 1 at the
        /// earliest (the larger sizes' part costs 15-28 ms of CPU here, more than 0.3 of a period)
        /// and mostly on frame 2: a face in view from the start was missed on its first two
        /// frames, what `--realtime` lost against inline on every condition. Once a scene: a
        /// scene without faces waits for one search, not frame after frame. Up to a whole
        /// period, as that part can take most of one (above), and a shorter wait leaves its
        /// slower runs to land on the next frame. The frame then ends the rest of its path
        /// (5 ms here) after the next one is due, which a paced source takes late rather than
        /// skipping (it skips only frames a whole period late); a run's first frame, which also
        /// pays the run's first allocations, sometimes costs its next one (docs/faces.md).
        /// 0: never.
        public var newSceneOwnSearchWait = 1.0
        /// Live, while no face is tracked and one that left at the edge is awaited (`awaitsReturn`,
        /// up to two seconds): a frame that handed out a search waits up to this share of the
        /// frame period for it, so the face coming back is shown on the frame a search first
        /// finds it, as inline. Without it that search landed on the next frame or the one
        /// after: under `process --realtime` `leave-fast` continuity was 98.7-99.4 % a set, inline
        /// 99.1-99.9 %. No mask is on screen to lag. Only while the last search took no longer
        /// than the wait, in wall time: on a slower core (or a share of one) a search takes
        /// several periods, and each frame would wait for nothing and be late. 0: never.
        public var returnSearchWait = 0.75
        /// The frame period assumed for a run's first frame, whose period is not known yet.
        public var firstFramePeriod = 1.0 / 30
        public var schedule = DetectionSchedule.Options()
        /// dlib's detector has filters for faces leaning up to about 30°, but a leaning face that
        /// is also dim, washed-out or small scores under its threshold where the same face upright
        /// passes; a face leaning further is not found at all. Such faces are searched for on the
        /// frame turned by `rolledSearchAngle` (radians).
        /// Inline: both sides beside the first search of a scene (the start, a cut), then one side
        /// at a time beside every `rolledSearchEvery`-th search while no face is tracked and every
        /// `rolledRefreshEvery`-th while some are (0: never). In the background, where a search's
        /// result waits for the whole batch, a turned search instead takes the place of every
        /// third upright one after the first, so no batch grows and upright faces are found as
        /// soon as before; not while a face that left at the edge is awaited (`awaitsReturn`).
        public var rolledSearchAngle = 0.4
        public var rolledSearchEvery = 4
        public var rolledRefreshEvery = 4
        public var plausibility = LandmarkPlausibility.Options()
        /// Landmark smoothing; `beta` and `passThroughSpeed` are per eye distance per second. A
        /// step of 4.5 (0.15 of an eye distance a frame at 30 fps, where `slowMotion` ends) is
        /// shown as fitted: the speed estimate lags a fast face that turns back, and held its
        /// anchors up to a ninth of an eye distance behind it (docs/faces.md, Smoothing that
        /// follows a fast face).
        public var smoothing = OneEuroFilter.Options(minCutoff: 1.2, beta: 20, derivativeCutoff: 3.0,
                                                     passThroughSpeed: 4.5)

        public init() {}
    }

    struct Track {
        let id: Int
        var landmarks: [Point2]
        var previousCentre: Point2?
        var smoother: AnchorSmoother
        var smoothed: [Point2]
        var hits = 0
        var misses = 0
        var confirmed = false
        var visible = true
        var lastSeen: Double
        /// How this face's detector box sits against the one its landmarks predict (offset in eye
        /// distances, in the face's frame, and scale), learnt from verifications: the landmark fit
        /// depends on its box, and a face unlike the average (turned, small) keeps a fit closer to
        /// dlib's own when placed in the box dlib's detector gives it.
        var boxOffset = Point2(0, 0)
        var boxScale = 1.0
        var boxSamples = 0
        /// A running mean of the appearance scores of accepted fits: a fit scoring well below what
        /// this face usually scores has slipped, even if the score alone would pass.
        var typicalScore: Double?
        /// The appearance score of the last accepted fit.
        var lastScore = -10.0
        /// Followed but not shown on the last frame, its fit scoring far under its usual score
        /// (part of it covered).
        var coveredLastFrame = false
        /// Where the fit's detector box was centred on recent frames: a late detection is moved
        /// by how far the face went since the frame it was made on.
        var recentCentres: [(frame: Int, centre: Point2)] = []
        /// Frame of the last verification that found this face.
        var lastVerified = Int.min / 2
        /// Not published until the second detector agrees (`Options.clearDetectionScore`).
        var awaitsSecondOpinion = false
        var fitsAwaitingOpinion = 0
        var framesAwaitingOpinion = 0
        var opinionAgreements = 0
        /// The second detector asked in the boxes dlib's detector drew around this face (its
        /// start's and its verifications'), and how often it agreed there.
        var boxAsks = 0
        var boxAgreements = 0
        /// Started from where its detection's box sat against its fit (a turned face): the second
        /// detector may then also agree where the track's box sits (`secondOpinionAgrees`).
        var startedFromItsBox = false
        /// Dropped because the second detector never agreed: no recovery searches after it.
        var refused = false
        /// Started from a detection under `clearDetectionScore` (it waited for the second
        /// detector); whether a detection has found it since (a verification, or a search, which
        /// sees the frame as exposed for it where a verification sees it as it is: a washed-out
        /// face is found only so); how many verifications in a row have looked and found nothing.
        var startedWeak = false
        var foundSinceStart = false
        var verificationsMissed = 0
        /// Upright whole-frame searches since its start that did not find it.
        var searchesMissed = 0
        /// Fits of a published weak start no detection has found since: how many, on how many the
        /// second detector agreed, and how many had a middle as warm as skin
        /// (`weakStartKeptAgreement`).
        var unfoundFits = 0
        var unfoundAgreements = 0
        var unfoundWarmFits = 0
        /// Its look on a recent frame where it was published and whole in the frame.
        var look: FaceLook?
        /// How far its face moved between its last two accepted fits (`previousCentre` moves on
        /// every frame, also one whose fit was not taken).
        var lastMotion = Point2(0, 0)
        /// Where its eyes are by its look's motion frame to frame, pulled toward each fit taken:
        /// a fit that slides off a noisy face a little each frame moves away from it.
        var lookPlace: Point2?
        /// This frame's best fit's appearance score (-10 when none was plausible).
        var frameScore = -10.0
        /// Whether a slide refit of this track was undone (`slideTrials`): a detection's fit
        /// beside it no longer counts as where it slid to.
        var slideRefitUndone = false

        var frame: FaceFrame { FaceFrame(landmarks: landmarks) }
    }

    /// A region searched every `recoveryInterval` frames for `recoveryFrames` after a track was
    /// lost there.
    struct Recovery {
        let region: Rect
        let after: Int
        let until: Int
    }

    struct LostTrack {
        let id: Int
        let box: Rect
        let time: Double
        /// What its fits usually scored: a face found again there is held to it.
        var typicalScore: Double?
    }

    public let options: Options
    private let predictor: LandmarkPredictor
    private let appearance: FaceAppearanceCheck
    private let secondOpinion: FaceSecondOpinion
    private let warmth: FaceWarmth
    /// This frame in colour while `update` runs, and its pixels per gray pixel.
    private var colour: (image: Image, scale: Double)?
    /// This frame as the landmark model reads it, made by the first fit of `update` that needs it
    /// (a frame no fit reads costs nothing): a washed-out frame tone-corrected
    /// (`SearchExposure.landmarkGamma`), with the gray frame it was made from.
    private var landmarkGray: (source: Image, read: Image)?
    /// The buffer a corrected frame is made in, kept between frames.
    private var correctedGray: Image?
    private let exposure = SearchExposure()
    private let sceneChange = SceneChangeMeter()
    /// Inline only: whether anything changed away from the tracked faces since the last search.
    private let changeMeter: RegionChangeMeter?
    /// Frame index of the last cut: detections made on frames before it show another scene.
    private var lastCut = Int.min
    /// The first frame this tracker saw.
    private var firstFrame: Int?
    /// Live: the frame a batch with a search for new faces was handed to the worker on, until it lands.
    private var newFaceSearchFrom: Int?
    private var cutNow = false
    private let worker: IdleTimeWorker<[FaceDetectionJob], [FaceDetectionResult]>
    private let plausibility: LandmarkPlausibility
    private var schedule: DetectionSchedule
    /// Searches in this scene so far, for the turned ones beside them.
    private var searchCount = 0
    private var rolledSearchCount = 0
    private var tracks: [Track] = []
    private var lost: [LostTrack] = []
    /// Published faces lost within `lookMemory`, by id, with their looks and until when.
    private var remembered: [(id: Int, look: FaceLook, until: Double)] = []
    private var recoveries: [Recovery] = []
    /// Where tracks the second detector never confirmed were dropped, until when.
    private var doubted: [(box: Rect, until: Double)] = []
    let recoveryInterval = 3
    /// How long a face that left at the edge is looked for first (`returnAwaited`).
    let returnAwaitFrames = 60
    /// Fits between takes of a published face's look.
    let lookInterval = 5
    let recoveryFrames = 45
    private var nextID = 1
    /// Ids of the faces published on the last frame: one published now and not then came into view.
    private var published: Set<Int> = []
    private var frameSize = Size(width: 0, height: 0)
    private var frameIndex = 0
    /// Time between this frame and the last one followed (nil on the first).
    private var frameSeconds: Double?
    private var lastFrameTime: Double?
    /// The source's frame period, which a live wait is a share of (not `frameSeconds`, two
    /// periods long after a skipped frame).
    private var framePeriod = FramePeriodEstimate()
    /// Wall time the last search took on the worker (`Options.returnSearchWait`).
    private var lastSearchSeconds: Double?
    /// The last frame's gray copy while faces are tracked: where a face's look went since.
    private var previousGray: Image?
    /// Frames of box centres kept per track for late detections.
    let recentFrames = 30
    /// Share of the last frame's motion assumed to continue.
    let motionPrediction = 0.5
    /// Cells of the detector's window (a tenth of a box) a lost face is looked for around its track.
    let recoveryReach = 3
    /// The widest look (in cells) for a face a late detection saw: a box's width each way.
    let staleReachLimit = 8
    /// How far below its typical score a fit may fall before other starts are tried.
    let doubtMargin = 0.8
    /// How far (in box sides) a fit may land from where it started before it is fitted again from
    /// there: about 3 px for a face 50 px between the eyes, so a face that moved or stopped
    /// differently than predicted gets a second fit, and a still one (landing within a pixel)
    /// does not. At 8 % a face that stopped after a fast move kept fits 5-15 px off that fed the
    /// next frame's prediction for 20 frames (seeds 55, 101, 307 inline: fewer false faces and
    /// fits above 8 % error at 2 %).
    let refitDistance = 0.02
    /// Eye distances a slow face's fit may sit from where its look went before it is fitted
    /// again from there, how much better that fit must score to be taken (the check's score
    /// moves by a few tenths from frame to frame on a noisy face), and the share of the way to
    /// each fit taken that the look's place is pulled (so the look's own matching error does not
    /// add up frame after frame).
    let driftDistance = 0.1
    let driftGain = 0.3
    let lookPull = 0.3
    /// Motion per frame, in eye distances, under which a face counts as slow.
    let slowMotion = 0.15
    /// Eye distances a frame from which a face's move blurs it enough that its fits stay where
    /// they start (9 a second at 30 fps, `blurringSpeed`).
    let blurringMove = 0.3
    /// Eye distances a second over which a face's motion blurs it: 0.3 a frame at 30 fps (the
    /// `speed` faces move 0.4-0.55 and are blurred by half that; at 0.15 a frame, faces entering
    /// the frame at 6 px a frame, not blurred at all, went without the lessons that place them).
    let blurringSpeed = 9.0
    /// How far (in eye distances) a slow face's weak fit may land from both where the face was and
    /// where it was going, and from where its look went, before it counts as slid off.
    let slideDistance = 0.3
    /// How much a steady face's fit may differ in size from the face shown when it scores
    /// `weakMargin` under what the face usually does (and under 0).
    let sizeJump = 0.15
    let weakMargin = 0.3
    /// How far under what a slow face usually scores (and under 0, which a clear face passes)
    /// its fits fall when something covers part of it.
    let coveredMargin = 0.8
    /// How much better a detection's fit must score to replace a track's own.
    let refitGain = 0.3
    /// How far (in eye distances) a clear detection's fit may sit from a slow track's own before
    /// the track counts as slid off its face: then the detection's fit replaces it when it scores
    /// about as well (`refitGain` under or better), not only when it scores much better.
    let slidFitDistance = 0.25
    /// Fits a track must have had before its fit may have slid that far: its first ones are
    /// where its start put them. (The turned man of held-out seed 220's `gamma-2.2`, started on
    /// him, was refitted on his second frame from his first verification's box half an eye
    /// distance beside him, scoring about as well, and his fits stayed there.)
    let slideFrames = 4
    /// Tracks as they were before a detection's fit beside them replaced theirs as slid, by id:
    /// followed on the next frame beside the refitted track, which they replace when they score
    /// `refitGain` better. Both fits scored about alike on the frame the detection saw; a frame
    /// on, a fit beside the face scores far under one on it. (Held-out seed 220's `gamma-2.2`:
    /// a turned man's track fitted 0.02 eye distances off, refitted from a verification's box
    /// 0.58 beside him scoring -0.06 against his -0.24; the next frame from there scored -0.77.)
    private var slideTrials: [Int: Track] = [:]
    /// Correlation a face's look needs where it is looked for now to count as found there.
    static let minimumPatchCorrelation = 0.5
    private var logger: Logger
    /// CPU ms of detection work whose results arrived this frame, by job kind.
    public private(set) var detectionMilliseconds = 0.0

    /// `background`: run detection on an idle-time thread (live) instead of inline (deterministic).
    /// `beside`: inline results, but the work runs on a second core while the tracks are followed.
    public init(detector: FaceDetector, predictor: LandmarkPredictor, appearance: FaceAppearanceCheck,
                secondOpinion: FaceSecondOpinion, warmth: FaceWarmth = FaceWarmth(), background: Bool, beside: Bool = false,
                options: Options = Options(), logger: Logger = Logger(label: "heritage-lens.faces")) {
        self.logger = logger
        self.warmth = warmth
        self.predictor = predictor
        self.appearance = appearance
        self.secondOpinion = secondOpinion
        let runner = DetectionRunner(detector: detector, predictor: predictor, minimumEyeDistance: options.minimumEyeDistance)
        worker = IdleTimeWorker(name: "hl-faces",
                                mode: background ? .idleTime : beside ? .beside : .inline) { gray, frame, jobs in
            // The worker's copy of the frame is overwritten by the next batch: results that land
            // frames late keep one of their own, shared by the batch's jobs.
            var kept: Image?
            return try jobs.map { job in
                let start = threadCPUNanoseconds(), wallStart = SystemClock().nanoseconds()
                let found = try runner.run(job, on: gray)
                var result = FaceDetectionResult(job: job, frameIndex: frame, detections: found,
                                                 milliseconds: Double(threadCPUNanoseconds() - start) / 1e6)
                result.wallMilliseconds = Double(SystemClock().nanoseconds() - wallStart) / 1e6
                if background, !found.isEmpty, job.findsNewFaces {
                    kept = try kept ?? gray.copy()
                    result.searched = kept
                }
                return result
            }
        }
        self.options = options
        plausibility = LandmarkPlausibility(options: options.plausibility)
        schedule = DetectionSchedule(options: options.schedule)
        searchRest = RefreshRest(share: options.searchRestShare, settlingShare: options.settlingRestShare,
                                 settlingWithin: options.schedule.settlingInterval)
        changeMeter = background ? nil : RegionChangeMeter()
        detectsInBackground = background
        splitsSearches = background && detector.searchesSmallestApart
    }

    /// Detection runs in idle time off the frame path (live); its cost is reported apart.
    public let detectsInBackground: Bool
    /// Live, an upright search runs as two jobs, the larger faces first (`SearchSizes`); the
    /// smaller part waits for the worker to be free again.
    private let splitsSearches: Bool
    private var smallerSearchDue = false
    /// Live: a face shown that left at the frame's edge, at a size the first part of a split
    /// search finds, and the frame until which it is looked for first: the second part of each
    /// search looks again at its sizes and lean instead of for the smallest faces, and no
    /// turned search takes an upright one's place. Such a face comes back across an edge at
    /// speed, and each frame a search for it skips is a frame it is missed once whole
    /// (`leave-fast`, live: found 2-6 frames after it was whole). Kept over a cut: a face coming
    /// back into a frame it had left changes most of it.
    private var returnAwaited: (until: Int, roll: Double)?
    private var searchRest: RefreshRest

    /// A detection job is running (tests wait on it to make a result land a known number of frames late).
    var isDetecting: Bool { worker.isBusy }

    /// Ids of the tracks in progress (confirmed or not).
    public var trackIDs: [Int] { tracks.map(\.id) }

    /// Hands the detection jobs due at this frame to the worker. With an inline worker they run
    /// here; with a background worker this returns at once.
    public func scheduleDetection(on gray: Image, frameIndex: Int) throws {
        cutNow = try sceneChange.isCut(gray)
        if cutNow {
            lastCut = frameIndex
            schedule.searchSoon()
            searchCount = 0
            smallerSearchDue = false
            lost.removeAll()
        }
        // A busy background worker takes nothing now; what is due stays due for when it is free
        // (a search asked for after a cut must not be skipped for a whole refresh interval).
        guard !worker.isBusy else { return }
        var jobs: [FaceDetectionJob] = []
        try changeMeter?.observe(gray)
        let trackBoxes = tracks.map { RegionChangeMeter.regionMovingWith(face: $0.frame.detectorBox) }
        let changed = { [changeMeter] in (changeMeter?.changedCells(busy: trackBoxes) ?? Int.max) >= 6 }
        if smallerSearchDue {
            // The rest of the last search, alone: a next search due now waits for it to land.
            jobs.append(secondPart(at: frameIndex))
            smallerSearchDue = false
        } else if !searchRest.holdsBack(at: frameIndex, tracking: !tracks.isEmpty,
                                        requested: schedule.searchIsRequested,
                                        settling: schedule.isSettling(at: frameIndex)),
                  schedule.searchDue(at: frameIndex, trackedFaces: tracks.count, sceneChanged: changed) {
            jobs += searches(at: frameIndex)
            changeMeter?.markReference(busy: trackBoxes)
        }
        for id in schedule.verificationsDue(at: frameIndex, trackIDs: tracks.map(\.id)) {
            guard let t = tracks.first(where: { $0.id == id }) else { continue }
            let box = t.frame.detectorBox
            let side = box.width * 1.8
            jobs.append(.verify(trackID: id, region: Rect(x: box.centre.x - side / 2, y: box.centre.y - side / 2,
                                                           width: side, height: side)))
        }
        recoveries.removeAll { frameIndex > $0.until || $0.after < lastCut }
        for r in recoveries where (frameIndex - r.after) % recoveryInterval == 0 {
            jobs.append(.recover(region: r.region))
        }
        guard !jobs.isEmpty else { return }
        try worker.submit(jobs, on: gray, frameIndex: frameIndex)
        if detectsInBackground && jobs.contains(where: \.findsNewFaces) { newFaceSearchFrom = frameIndex }
    }

    /// The whole-frame searches due now: upright, and turned ones (see `Options.rolledSearchAngle`).
    private func searches(at frameIndex: Int) -> [FaceDetectionJob] {
        let angle = options.rolledSearchAngle
        searchCount += 1
        guard angle > 0 else { return [.search(roll: 0)] }
        func nextSide() -> FaceDetectionJob {
            rolledSearchCount += 1
            return .search(roll: rolledSearchCount % 2 == 1 ? angle : -angle)
        }
        if detectsInBackground {
            if searchCount > 1 && searchCount % 3 == 0 && !awaitsReturn(at: frameIndex) { return [nextSide()] }
            guard splitsSearches else { return [.search(roll: 0)] }
            smallerSearchDue = true
            return [.search(roll: 0, sizes: .larger)]
        }
        if searchCount == 1 { return [.search(roll: 0), .search(roll: angle), .search(roll: -angle)] }
        let every = tracks.isEmpty ? options.rolledSearchEvery : options.rolledRefreshEvery
        guard every > 0, searchCount % every == 0 else { return [.search(roll: 0)] }
        return [.search(roll: 0), nextSide()]
    }

    /// Follows the tracked faces into this frame, takes in finished detections, and returns the
    /// confirmed faces found in it (landmarks smoothed; pose is the pose stage's). `colour`: the
    /// frame in BGR, `colourScale` times the gray's size, for the colour look at weak starts
    /// (`FaceWarmth`); without it they go without.
    public func update(with gray: Image, colour: Image? = nil, colourScale: Double = 1, frameIndex: Int,
                       time: Double) throws -> [FaceAnchor] {
        self.colour = colour.map { ($0, colourScale) }
        defer { self.colour = nil; landmarkGray = nil }
        frameSize = gray.size
        self.frameIndex = frameIndex
        frameSeconds = lastFrameTime.map { time - $0 }
        lastFrameTime = time
        if let frameSeconds { framePeriod.record(gap: frameSeconds) }
        logger[metadataKey: "frame"] = "\(frameIndex)"
        // 1. Follow every visible track with one landmark fit placed from its last landmarks.
        for i in tracks.indices {
            let beforeSlide = slideTrials.removeValue(forKey: tracks[i].id)
            try follow(&tracks[i], gray: gray, time: time)
            if var before = beforeSlide {
                try follow(&before, gray: gray, time: time)
                if before.visible, before.frameScore > tracks[i].frameScore + refitGain {
                    logger.debug("track \(before.id): slide refit undone, fitted where it was before at \(before.frameScore) against \(tracks[i].frameScore)")
                    before.slideRefitUndone = true
                    tracks[i] = before
                }
            }
        }
        slideTrials.removeAll()
        // 2. Detection results: confirm tracks, start new ones, drop tracks nobody can see.
        detectionMilliseconds = 0
        waitForSearch(frameIndex: frameIndex)
        let landed = worker.collect()
        if !landed.isEmpty { newFaceSearchFrom = nil }
        for finished in landed {
            for result in finished.output {
                detectionMilliseconds += result.milliseconds
                if case .search = result.job {
                    searchRest.searchLanded(submitted: result.frameIndex, landed: frameIndex)
                    lastSearchSeconds = result.wallMilliseconds / 1000
                }
                // A detection made before a cut shows the scene before it.
                guard result.frameIndex >= lastCut else { continue }
                try take(result, gray: gray, framesLate: frameIndex - result.frameIndex, time: time)
            }
        }
        // 3. Lose tracks that missed too often; forget old losses; remove duplicates.
        var lostFaces = false
        tracks.removeAll { t in
            let drop = t.misses > options.maximumMisses
            if drop {
                let box = t.frame.detectorBox
                // Only a published face is reclaimed, confirmed at once: a track never confirmed
                // (a badge the check doubted) would otherwise be confirmed by being found again.
                // Not on a cut: that face is gone with its scene, and a new face where it was would
                // take its id and be held to its usual score (a portrait after a cut, scoring
                // -0.7 against the 2.0 of the face before it, was followed unseen for its whole
                // scene). A face that comes back with its scene is known by its look.
                if t.confirmed && !cutNow { lost.append(LostTrack(id: t.id, box: box, time: time, typicalScore: t.typicalScore)) }
                if t.confirmed, let look = t.look { remembered.append((t.id, look, time + options.lookMemory)) }
                // A look-alike the second detector refused is no face that may be there still.
                lostFaces = lostFaces || !t.refused
                // Not after a cut (that face is gone) nor at the edge (it left): look again there.
                let margin = box.width * 0.3
                if t.refused {
                    doubted.append((box, time + options.doubtMemory))
                } else if t.confirmed, !cutNow, !inside(box, margin: margin),
                          t.frame.eyeDistance * SearchSizes.largerScale >= options.minimumEyeDistance {
                    returnAwaited = (frameIndex + returnAwaitFrames, t.frame.roll)
                } else if !cutNow && inside(box, margin: margin) {
                    let side = box.width * 1.8
                    recoveries.append(Recovery(region: Rect(x: box.centre.x - side / 2, y: box.centre.y - side / 2,
                                                            width: side, height: side),
                                               after: frameIndex, until: frameIndex + recoveryFrames))
                }
            }
            return drop
        }
        // A face just lost may be there still, moved faster than the fit could follow.
        if lostFaces { schedule.searchSoon() }
        lost.removeAll { time - $0.time > options.lostMemory }
        remembered.removeAll { time > $0.until }
        doubted.removeAll { time > $0.until || cutNow }
        removeDuplicates()
        if tracks.isEmpty {
            previousGray = nil
        } else if let kept = previousGray, kept.size == gray.size {
            try gray.copy(to: kept)
        } else {
            previousGray = try gray.copy()
        }
        // A face shown for the first time (or again after it was lost): who comes with it is looked
        // for sooner. Not a weak start still waiting for the second detector, as a badge does.
        let publishedNow = Set(tracks.filter(\.confirmed).map(\.id))
        if !publishedNow.isSubset(of: published) { schedule.faceCameIntoView(at: frameIndex) }
        published = publishedNow
        // 4. Publish confirmed, visible faces, smoothed.
        var anchors: [FaceAnchor] = []
        for i in tracks.indices where tracks[i].confirmed && tracks[i].visible {
            let t = tracks[i]
            anchors.append(FaceAnchor(id: t.id, boundingBox: Rect(bounding: t.smoothed), landmarks: t.smoothed, pose: nil))
        }
        return anchors.sorted { $0.id < $1.id }
    }

    /// See `Options.newSceneSearchWait`, `Options.newSceneOwnSearchWait` and
    /// `Options.returnSearchWait`.
    private func waitForSearch(frameIndex: Int) {
        if firstFrame == nil { firstFrame = frameIndex }
        guard detectsInBackground, let from = newFaceSearchFrom else { return }
        let period = framePeriod.period ?? options.firstFramePeriod
        guard period > 0 else { return }
        let sceneStart = max(lastCut, firstFrame ?? frameIndex)
        let share: Double
        if from == frameIndex, frameIndex == sceneStart, options.newSceneOwnSearchWait > 0,
           !tracks.contains(where: \.visible) {
            // A cut's frame still holds the tracks of the scene before it, each dropped by now.
            share = options.newSceneOwnSearchWait
        } else if options.newSceneSearchWait > 0, tracks.isEmpty, from < frameIndex,
                  frameIndex - sceneStart <= options.newSceneFrames {
            share = options.newSceneSearchWait
        } else if options.returnSearchWait > 0, from == frameIndex, awaitsReturn(at: frameIndex),
                  (lastSearchSeconds ?? 0) <= period * options.returnSearchWait {
            share = options.returnSearchWait
        } else {
            return
        }
        let start = SystemClock().nanoseconds()
        let limit = period * share
        let landed = worker.awaitJob(until: start + UInt64(limit * 1e9))
        let waited = Double(SystemClock().nanoseconds() - start) / 1e6
        logger.debug("waited \(String(format: "%.1f", waited)) ms (up to \(String(format: "%.1f", limit * 1e3))) for the search from frame \(from)\(landed ? "" : ", still running")")
    }

    /// The frame a landmark fit on `gray` reads (`landmarkGray`).
    private func landmarkImage(_ gray: Image) throws -> Image {
        if let made = landmarkGray, made.source === gray { return made.read }
        let read = try exposure.landmarkFrame(of: gray, in: &correctedGray)
        landmarkGray = (gray, read)
        return read
    }

    private func follow(_ t: inout Track, gray: Image, time: Double) throws {
        // Frames count, not only fits: a look-alike half hidden keeps a miss or two between
        // fits, and each frame it is followed costs a second face's fits.
        if t.awaitsSecondOpinion {
            t.framesAwaitingOpinion += 1
            if t.framesAwaitingOpinion >= options.secondOpinionFrames,
               !Self.waitsForAThirdBoxAsk(asks: t.boxAsks, agreements: t.boxAgreements,
                                          frames: t.framesAwaitingOpinion, options: options) {
                refuse(&t)
                return
            }
        }
        let f = t.frame
        // Where the face's look went since the last frame, matched once for whichever rule asks.
        var measuredLookMotion: Point2??
        func lookMotion() throws -> Point2? {
            if let measured = measuredLookMotion { return measured }
            let moved = try self.lookMotion(of: f, in: gray)
            measuredLookMotion = .some(moved)
            return moved
        }
        // Whether the face's look moved slowly on this frame: for the rules about covered faces,
        // whose weak fits a face starting to leave fast also has on its first, blurred frame.
        func lookStayedSlow() throws -> Bool {
            (try lookMotion()?.length ?? 0) < slowMotion * f.eyeDistance
        }
        var centre = f.detectorBoxCentre(offsetBy: t.boxOffset)
        let still = centre
        // Only for a slow face: a fast one's weak score more likely means the fit slipped.
        let slow = t.previousCentre.map { f.eyeMidpoint.distance(to: $0) < slowMotion * f.eyeDistance } ?? false
        // The last frame's motion ahead: fast moves stay inside the fit's box, and a wrong guess
        // costs little since the fit recentres on the face.
        if let previous = t.previousCentre { centre = centre + (f.eyeMidpoint - previous) * motionPrediction }
        // A fast face is placed where its look went since the last frame instead: half its last
        // motion put it 0.2-0.6 eye distances off on each frame of a fast pass and more where it
        // turned back, and a fit started that far off can settle half on the face, a size too
        // large, and score as well as the right one on a blurred face.
        if !slow, t.previousCentre != nil, let moved = try lookMotion() {
            centre = still + moved
        } else if t.previousCentre == nil, let moved = try lookMotion(), moved.length >= slowMotion * f.eyeDistance {
            // A face's first fit after its start has no motion to go on, and one already moving
            // fast is a third of its box away by then: started where it was, the fit settled half
            // on it a size too large (held-out seed 387's `speed`: eyes 62 px apart on a face of
            // 46, scoring -0.9 to -1.2 and shown for 12 frames), so it too goes where its look went.
            centre = still + moved
        }
        let lastStep = t.previousCentre.map { f.eyeMidpoint - $0 }
        t.previousCentre = f.eyeMidpoint
        // A fast face that missed a frame and whose motion since takes it mostly out of the frame
        // has left: the fits left to it land on what is left of it at the edge (a chin).
        if t.misses > 0, t.lastMotion.length >= slowMotion * f.eyeDistance {
            let step = t.lastMotion * Double(t.misses + 1)
            if !mostlyInside(t.landmarks.map { $0 + step }) {
                logger.debug("track \(t.id): dropped, left the frame")
                t.misses = options.maximumMisses + 1
                t.visible = false
                return
            }
        }
        // A fast face whose eyes go out of the frame where it is going has left: a fit on what is
        // left of it slides onto its mouth and chin, half a face from where its eyes are.
        // Where its last step goes on to counts too, when this fit is placed that way (where its
        // look went, for a fast face): the look of a face going out is matched on what is left
        // of it inside and moves less than the face (held-out seed 494's `leave-fast` under
        // `--realtime`: fits stuck 12-25 px inside the top edge while its eyes left at 20 px a
        // frame, a false frame). Not when its look turned back: a fast face that turns at the
        // edge stays (held-out seeds 205, 212, 237 and 434 `speed`).
        if !slow {
            let w = Double(frameSize.width), h = Double(frameSize.height)
            func outside(_ p: Point2) -> Bool { p.x < 0 || p.y < 0 || p.x >= w || p.y >= h }
            let ahead = centre - still
            let goingOn = lastStep.map { outside(f.eyeMidpoint + $0) && ahead.x * $0.x + ahead.y * $0.y > 0 } == true
            if outside(f.eyeMidpoint + ahead) || goingOn {
                logger.debug("track \(t.id): dropped, its eyes went out of the frame")
                t.misses = options.maximumMisses + 1
                t.visible = false
                return
            }
        }
        // Not for a face at the frame's edge: one that left there leaves its fit stuck on what is
        // left of it (a chin, a collar), which a stuck fit makes look slow.
        let verified = slow && frameIndex - t.lastVerified <= options.verifiedFrames && allInside(t.landmarks)
        let threshold = !t.confirmed ? options.confirmScore : verified ? options.verifiedKeepScore : options.keepScore
        // A fit that scores like a clear face is taken as it is, whatever its face usually scores
        // (a turning head moves its score by a point): other starts cost two fits and a wider check.
        let doubtful = max(threshold, min(0, (t.typicalScore ?? threshold) - doubtMargin))
        var best = try attempt(from: centre, side: f.detectorBoxSide * t.boxScale, roll: f.roll, track: t, gray: gray)
        // A face that turned back, or stopped, is where it was rather than where it was going.
        if (best?.score ?? -.infinity) < doubtful, motionPrediction > 0, centre.distance(to: still) > 1,
           let again = try attempt(from: still, side: f.detectorBoxSide * t.boxScale, roll: f.roll, track: t, gray: gray),
           again.score > best?.score ?? -.infinity {
            best = again
        }
        // Still no face: look for it in a wider ring at the same scale (a move of up to a third of
        // its box), the detector's filters pointing at where to fit.
        if (best?.score ?? -.infinity) < doubtful {
            let predicted = FaceFrame(eyeMidpoint: f.eyeMidpoint + (centre - still), eyeDistance: f.eyeDistance, roll: f.roll,
                                   boxUnit: f.boxUnit)
            if let found = try appearance.appearance(of: predicted, in: gray, boxOffset: t.boxOffset, boxScale: t.boxScale,
                                                     reach: recoveryReach),
               found.score > best?.score ?? threshold,
               let again = try attempt(from: found.centre, side: found.side, roll: f.roll, track: t, gray: gray),
               again.score > best?.score ?? -.infinity {
                best = again
            }
        }
        // A slow face's fit that went where its look did not, a little on each frame, is sliding
        // along the noise of a noisy face (held-out seed 486's `noise-defocus`: a third to half
        // an eye distance off within five frames, again and again, before the check above called
        // it back): fitted again from where its look went, and taken when that scores clearly
        // better. Where the look itself is off (a face turning), the fit from there scores worse.
        if slow, !cutNow, t.confirmed, let moved = try lookMotion() {
            let byLook = (t.lookPlace ?? f.eyeMidpoint) + moved
            t.lookPlace = byLook
            if let b = best, case let apart = FaceFrame(landmarks: b.points).eyeMidpoint.distance(to: byLook),
               apart > driftDistance * f.eyeDistance,
               let again = try attempt(from: still + (byLook - f.eyeMidpoint), side: f.detectorBoxSide * t.boxScale,
                                       roll: f.roll, track: t, gray: gray) {
                let taken = again.score > b.score + driftGain
                logger.debug("track \(t.id): fit \(Int(apart)) px from where its look went, appearance \(b.score); fitted from there \(again.score)\(taken ? ", taken" : "")")
                if taken { best = again }
            }
        } else {
            t.lookPlace = nil
        }
        // A face blurred by its motion, or just after, is fitted from the box dlib's detector
        // gives it around where it went, as dlib's own per-frame use does: a fit started from the
        // last fit stays where it starts on a blurred face and scores as well off it as on it
        // (the turned man of seeds 3 and 32 `speed`: 63-78 % of fits above 8 % error; 3-6 % so).
        if movedBlurringFast(t, eyeDistance: f.eyeDistance),
           let fromDetection = try fitFromDetection(around: centre, side: f.detectorBoxSide * t.boxScale, track: t, gray: gray),
           fromDetection.score >= threshold {
            logger.trace("track \(t.id): fitted from a detection around its blurred face, appearance \(fromDetection.score)")
            best = fromDetection
        }
        t.frameScore = best?.score ?? -10
        logger.trace("track \(t.id): fit at \(best.map { FaceFrame(landmarks: $0.points).eyeMidpoint } ?? f.eyeMidpoint), eyes \(best.map { FaceFrame(landmarks: $0.points).eyeDistance } ?? 0) apart, score \(best?.score ?? -10)")
        guard let (fitted, score) = best else {
            // On a cut, no face-like fit where the face was means it is gone with its scene: kept
            // for its misses, the next frames' fits on the new scene could pass a lenient check.
            if cutNow {
                logger.debug("track \(t.id): dropped, no plausible fit on a cut")
                t.misses = options.maximumMisses + 1
            } else {
                logger.debug("track \(t.id): no plausible fit (miss \(t.misses + 1))")
                t.misses += 1
            }
            t.visible = false
            return
        }
        // A slow face's fit that landed far from both where the face was and where it was going,
        // scoring under what the face usually does, while the face's look did not move that way,
        // slid onto something else (the face went behind another picture): a miss, and the next
        // frame starts from where the face was. A face that starts to move moves its look too.
        let landed = FaceFrame(landmarks: fitted).eyeMidpoint
        let expected = f.eyeMidpoint + (centre - still)
        var slid = false
        if slow, score < doubtful, !cutNow,
           min(landed.distance(to: f.eyeMidpoint), landed.distance(to: expected)) > slideDistance * f.eyeDistance,
           let moved = try lookMotion() {
            slid = moved.distance(to: landed - f.eyeMidpoint) > slideDistance * f.eyeDistance
        }
        // A steady face's fit 15 % larger or smaller than the face shown, scoring under what the
        // face usually does and under what a clear face scores, grew over or shrank onto what is
        // left of a face going behind another picture: a miss too. (A fit that corrects a wrong
        // size scores like a face; against the smoothed face, a noisy face's fits that jitter in
        // size a tenth a frame stay inside; a fast face slowing to turn back is not steady.)
        // Nor a face whose look moved fast on this frame: a still face that starts to leave is
        // blurred on its first fast frame and its fit comes a size off, where it is no covered face
        // (held-out seed 498's `leave-fast`, as an MP4: a face still for five seconds, then gone up
        // at 20 px a frame, hidden on that frame and lost for its last 9 frames in view).
        let resized = FaceFrame(landmarks: fitted).eyeDistance / FaceFrame(landmarks: t.smoothed).eyeDistance
        let resizedOff = try slow && !cutNow && scores(score, farUnder: t.typicalScore ?? threshold, by: weakMargin)
            && (resized > 1 + sizeJump || resized < 1 / (1 + sizeJump)) && isSteady(t, eyeDistance: f.eyeDistance)
            && lookStayedSlow()
        if score < options.dropScore || (cutNow && score < options.cutScore) {
            logger.debug("track \(t.id): dropped, appearance \(score)\(cutNow ? " on a cut" : "")")
            t.misses = options.maximumMisses + 1
            t.visible = false
        } else if resizedOff {
            logger.debug("track \(t.id): hidden, fit \(resized) times the size of the face shown, appearance \(score) (miss \(t.misses + 1))")
            t.misses += 1
            t.visible = false
        } else if slid {
            logger.debug("track \(t.id): hidden, fit slid \(Int(landed.distance(to: f.eyeMidpoint))) px where its look did not, appearance \(score) (miss \(t.misses + 1))")
            t.misses += 1
            t.visible = false
        } else if score >= threshold {
            if try refuses(fitted, &t, gray: gray) { return }
            // The evidence that keeps a weak start no detection finds again (`keepsUnfound`): a
            // cascade ask and a colour look on each fit, paid only while it is such a track.
            if t.startedWeak, !t.foundSinceStart, !t.awaitsSecondOpinion {
                t.unfoundFits += 1
                if try secondOpinionAgrees(with: fitted, of: t, in: gray) { t.unfoundAgreements += 1 }
                if let colour, let warm = try warmth.warmth(of: fitted, in: colour.image, scale: colour.scale),
                   warmth.hasWarmMiddle(warm) {
                    t.unfoundWarmFits += 1
                }
            }
            accept(fitted, into: &t, time: time)
            t.lastScore = score
            // A slow face whose fit scores far under what it usually does, and under what a clear
            // face scores, is partly covered (it went behind another picture): followed, since it
            // comes out again, but not shown, since a fit on what is left of it lands half an eye
            // distance off and grows over the picture in front. Its usual score stays what it was.
            // Slow on this frame too, by its look: a face that starts to leave fast is blurred on
            // its first fast frame and scores as far under its usual score as a covered one.
            // Once covered, it is shown again when its fit scores near its usual score: a fit on
            // what is left of it can score over 0 half an eye distance off.
            if slow, t.confirmed, let typical = t.typicalScore,
               scoresAsCovered(score, usual: typical, coveredLastFrame: t.coveredLastFrame),
               try lookStayedSlow() {
                logger.debug("track \(t.id): followed unseen, appearance \(score) far under its usual \(typical)")
                t.visible = false
                t.coveredLastFrame = true
                return
            }
            t.coveredLastFrame = false
            // Taken now and then while the face is whole in the frame: a face leaving is looked at
            // as it was before it went.
            if t.confirmed, t.look == nil || t.hits % lookInterval == 0, wholeInside(fitted) {
                t.look = try FaceLook(of: fitted, in: gray)
            }
            // Up fast, down slowly: a fit that slides off its face a little each frame lowers
            // its score gradually, and a mean that followed it down would never doubt it.
            t.typicalScore = t.typicalScore.map { score > $0 ? $0 * 0.8 + score * 0.2 : $0 * 0.97 + score * 0.03 } ?? score
        } else {
            logger.debug("track \(t.id): hidden, appearance \(score) (miss \(t.misses + 1))")
            t.misses += 1
            t.visible = false
        }
    }

    /// One fit of `t`'s face started from `centre`, with its appearance score; nil when the fit
    /// is not a plausible successor of the track's last landmarks or has left the frame.
    private func attempt(from centre: Point2, side: Double, roll: Double, track t: Track,
                         gray: Image) throws -> (points: [Point2], score: Double)? {
        var fitted = try predictor.fit(in: landmarkImage(gray), centre: centre, side: side, roll: roll)
        // A fit that had to move far from where it started (a fast move the prediction missed) is
        // fitted again from where it landed: the cascade is accurate only near its start.
        let landed = FaceFrame(landmarks: fitted)
        let landedCentre = landed.detectorBoxCentre(offsetBy: t.boxOffset)
        if landedCentre.distance(to: centre) > refitDistance * side {
            fitted = try predictor.fit(in: landmarkImage(gray), centre: landedCentre,
                                       side: landed.detectorBoxSide * t.boxScale, roll: landed.roll)
        }
        guard plausibility.check(fitted, previous: t.landmarks) == .plausible, mostlyInside(fitted) else {
            return nil
        }
        return (fitted, try appearanceScore(of: fitted, boxOffset: t.boxOffset, boxScale: t.boxScale, in: gray))
    }

    /// How much the fit's own detector window looks like a face (-10 when no window scored).
    private func appearanceScore(of points: [Point2], boxOffset: Point2 = Point2(0, 0), boxScale: Double = 1,
                                 in gray: Image) throws -> Double {
        try appearance.appearance(of: FaceFrame(landmarks: points), in: gray, boxOffset: boxOffset, boxScale: boxScale)?
            .score ?? -10
    }

    /// Whether the face's detector box lies inside the frame.
    private func wholeInside(_ points: [Point2]) -> Bool {
        let box = FaceFrame(landmarks: points).detectorBox
        return box.x >= 0 && box.y >= 0 && box.x + box.width <= Double(frameSize.width)
            && box.y + box.height <= Double(frameSize.height)
    }

    /// Whether every point lies inside the frame.
    private func allInside(_ points: [Point2]) -> Bool {
        let w = Double(frameSize.width), h = Double(frameSize.height)
        return points.allSatisfy { $0.x >= 0 && $0.y >= 0 && $0.x < w && $0.y < h }
    }

    /// A face leaving the frame is lost once a third of its points are outside: the predictor
    /// would otherwise keep a plausible face shape pinned to the edge.
    private func mostlyInside(_ points: [Point2]) -> Bool {
        let w = Double(frameSize.width), h = Double(frameSize.height)
        let outside = points.filter { $0.x < 0 || $0.y < 0 || $0.x >= w || $0.y >= h }.count
        return outside * 3 < points.count
    }

    /// Whether a track that awaits the second detector's word is dropped at this fit: the
    /// detector has agreed on none of its first `secondOpinionFirstAgreement` fits. (The
    /// `secondOpinionFrames` limit is `follow`'s, since frames without a fit count too.)
    private func refuses(_ fitted: [Point2], _ t: inout Track, gray: Image) throws -> Bool {
        guard t.awaitsSecondOpinion else { return false }
        t.fitsAwaitingOpinion += 1
        if try secondOpinionAgrees(with: fitted, of: t, in: gray) { t.opinionAgreements += 1 }
        logger.trace("track \(t.id): second detector agrees on \(t.opinionAgreements) of \(t.fitsAwaitingOpinion) fits")
        // On at least a third of the fits so far, too: a name tag got its two agreements in
        // ten fits; a turned face in a group agrees on about two fits in five.
        if t.opinionAgreements >= options.secondOpinionAgreements, t.opinionAgreements * 3 >= t.fitsAwaitingOpinion {
            t.awaitsSecondOpinion = false
            return false
        }
        // None in its first fits: the slowest real face measured agreed on its fifth.
        let hopeless = t.opinionAgreements == 0 && t.boxAgreements == 0
            && t.fitsAwaitingOpinion >= options.secondOpinionFirstAgreement
        guard hopeless else { return false }
        refuse(&t)
        return true
    }

    /// Whether the second detector finds a face in the box `fitted` predicts or, for a track
    /// started from its detector's box, in the box the track has learnt it has. For a turned face
    /// neither window is always the one: seed 149's turned man (`backlight-35`) is agreed with only
    /// in his learnt box (3 of 15 fits in the landmarks' one: dropped, recall 0), seed 8's turned
    /// `small-three` face only in the landmarks' box (0 of 6 in its learnt one). Other tracks are
    /// asked in the landmarks' box alone: taught by a verification, a badge's box was where the
    /// cascade then agreed with it (seed 42's `look-alikes`, 3 false frames).
    private func secondOpinionAgrees(with fitted: [Point2], of t: Track, in gray: Image) throws -> Bool {
        let face = FaceFrame(landmarks: fitted)
        if try secondOpinion.agrees(with: face, in: gray) { return true }
        guard t.startedFromItsBox else { return false }
        return try secondOpinion.agrees(with: face, boxOffset: t.boxOffset, boxScale: t.boxScale, in: gray)
    }

    /// The second detector asked in a box dlib's detector drew around an awaiting track's face on
    /// this frame: two agreements there on two thirds of the asks publish the track. A face
    /// turned well away is fitted off itself, where the cascade seldom agrees (an elderly man
    /// turned about 45°, dropped so on the `leave-fast` rows of seeds 260, 266 and 271), while it
    /// agrees in his detector's box; a badge on coloured cloth, which it agrees with there too,
    /// never gets this far (`FaceWarmth`).
    private func askInDetectorBox(_ box: Rect, _ t: inout Track, gray: Image) throws {
        t.boxAsks += 1
        if try secondOpinion.agrees(inDetectorBox: box, roll: t.frame.roll, in: gray) { t.boxAgreements += 1 }
        logger.debug("track \(t.id): second detector agrees in \(t.boxAgreements) of \(t.boxAsks) detector boxes")
        if t.boxAgreements >= options.secondOpinionAgreements, t.boxAgreements * 3 >= t.boxAsks * 2 {
            t.awaitsSecondOpinion = false
        }
    }

    /// Whether an awaiting track's wait runs on past `secondOpinionFrames`, to at most twice it,
    /// for a third ask in its detector's boxes, which two agreements of three would pass. The
    /// wait is counted in frames, but the asks come with its detections: one at its start and one
    /// a verification, every 10 frames; live, a start from a search that landed late, before the
    /// face's motion is known, has none. A turned face in a group (the gentle `three-faces`, live)
    /// had 1 agreement in 2 asks when its 15 frames ran out, and was doubted for the rest of the row.
    static func waitsForAThirdBoxAsk(asks: Int, agreements: Int, frames: Int, options: Options) -> Bool {
        asks < 3 && agreements >= 1 && agreements + (3 - asks) >= options.secondOpinionAgreements
            && frames < 2 * options.secondOpinionFrames
    }

    /// Whether a published weak start that no detection has found again is kept: over enough of
    /// its fits since, the second detector agreed on at least `weakStartKeptAgreement` of them
    /// and as many had a middle as warm as skin.
    static func keepsUnfound(fits: Int, agreements: Int, warmFits: Int, options: Options) -> Bool {
        let share = options.weakStartKeptAgreement * Double(fits)
        return fits >= options.weakStartKeptFits && Double(agreements) >= share && Double(warmFits) >= share
    }

    private func refuse(_ t: inout Track) {
        logger.debug("track \(t.id): dropped, the second detector agreed on \(t.opinionAgreements) of \(t.fitsAwaitingOpinion) fits")
        t.misses = options.maximumMisses + 1
        t.visible = false
        t.refused = true
    }

    /// Dropped as not known to be a face: not reclaimed as a lost face or remembered by its
    /// look. Its place is not doubted, as a refused one's is: a dark face the search finds on one
    /// search in ten starts again when it is found again.
    private func dropUnconfirmed(_ t: inout Track) {
        t.confirmed = false
        t.misses = options.maximumMisses + 1
        t.visible = false
    }

    private func accept(_ points: [Point2], into t: inout Track, time: Double) {
        if t.hits > 0 { t.lastMotion = FaceFrame(landmarks: points).eyeMidpoint - t.frame.eyeMidpoint }
        if let place = t.lookPlace { t.lookPlace = place + (FaceFrame(landmarks: points).eyeMidpoint - place) * lookPull }
        t.landmarks = points
        t.misses = 0
        t.visible = true
        t.hits += 1
        t.lastSeen = time
        if t.hits >= options.confirmAfter && !t.awaitsSecondOpinion { t.confirmed = true }
        if t.recentCentres.count >= recentFrames { t.recentCentres.removeFirst(t.recentCentres.count - recentFrames + 1) }
        t.recentCentres.append((frameIndex, FaceFrame(landmarks: points).detectorBoxCentre))
        t.smoothed = t.smoother.smooth(points, at: time, unit: FaceFrame(landmarks: points).eyeDistance)
    }

    private func take(_ result: FaceDetectionResult, gray: Image, framesLate: Int, time: Double) throws {
        switch result.job {
        case .verify(let id, let region):
            guard let i = tracks.firstIndex(where: { $0.id == id }) else { return }
            let box = tracks[i].frame.detectorBox
            // Only teaches the track its box: whether a face is there is the per-frame check's call,
            // which also holds for faces the search's threshold would miss (turned, noisy, small).
            guard let d = result.detections.max(by: { $0.box.iou(box) < $1.box.iou(box) }), d.box.iou(box) > 0.2 else {
                tracks[i].verificationsMissed += 1
                if tracks[i].startedWeak, !tracks[i].foundSinceStart,
                   tracks[i].verificationsMissed >= options.weakStartUnfoundVerifications,
                   tracks[i].searchesMissed >= options.weakStartUnfoundSearches {
                    let t = tracks[i]
                    let fits = "the second detector agreeing on \(t.unfoundAgreements) and a warm middle on \(t.unfoundWarmFits) of its \(t.unfoundFits) fits since"
                    if Self.keepsUnfound(fits: t.unfoundFits, agreements: t.unfoundAgreements, warmFits: t.unfoundWarmFits, options: options) {
                        logger.debug("track \(id): kept, a weak start no detection has found again, \(fits)")
                        return
                    }
                    logger.debug("track \(id): dropped, a weak start no detection has found again (\(t.verificationsMissed) verifications and \(t.searchesMissed) searches looked; \(fits))")
                    dropUnconfirmed(&tracks[i])
                }
                return
            }
            tracks[i].verificationsMissed = 0
            tracks[i].foundSinceStart = true
            logger.debug("track \(id): verified by a detection from frame \(result.frameIndex), score \(d.score)")
            // A fast face's detection teaches its box nothing: around a face blurred by its
            // motion the detector's box is a pyramid step or two larger (1.14-1.36 times the
            // fit's) and, drawn around where the face was a frame before, off along the motion;
            // a box learnt from it set the next fits a size off and a third of an eye distance
            // away, where the fit on a blurred face stays until the next good detection. Fast
            // is per second, since blur is: with frames dropped (`--realtime`, a slow core) a
            // face moves further between the frames taken without being more blurred.
            // Judged on the frame the detector saw too: a live result lands frames later, when a
            // face that came back fast may have stopped, and its box, drawn while it moved, set
            // the still face's fits off it every few frames (held-out seed 645's `leave-fast`).
            if !isBlurredByMotion(tracks[i]), !wasBlurredByMotion(tracks[i], at: result.frameIndex) {
                try learnBox(d.box, predicted: region, into: &tracks[i], gray: gray)
            }
            tracks[i].lastVerified = max(tracks[i].lastVerified, result.frameIndex)
            // How far the face went since the frame the detection was made on.
            let moved = tracks[i].recentCentres.last(where: { $0.frame == result.frameIndex }).map { box.centre - $0.centre }
            func movedOn(_ by: Point2) -> Rect {
                Rect(x: d.box.x + by.x, y: d.box.y + by.y, width: d.box.width, height: d.box.height)
            }
            if tracks[i].awaitsSecondOpinion, let by = framesLate == 0 ? Point2(0, 0) : moved {
                try askInDetectorBox(movedOn(by), &tracks[i], gray: gray)
            }
            if d.score >= options.detectionThreshold, let moved {
                let refitBox = movedOn(moved)
                let alone = !tracks.indices.contains { $0 != i && tracks[$0].frame.detectorBox.iou(refitBox) > 0.2 }
                try refit(&tracks[i], from: refitBox, mayHaveSlid: alone && !isBlurredByMotion(tracks[i]), gray: gray)
            }
            reclaimIfSeenWhole(track: i, by: d)
        case .search, .recover:
            logger.debug("\(result.job) from frame \(result.frameIndex): \(result.detections.count) found, \(Int(result.milliseconds)) ms")
            if case .search(let roll, let sizes) = result.job, roll == 0, sizes == .all {
                for i in tracks.indices where tracks[i].startedWeak && !tracks[i].foundSinceStart {
                    let box = tracks[i].frame.detectorBox
                    let found = result.detections.contains {
                        $0.score >= options.weakDetectionThreshold && $0.box.iou(box) > 0.25
                    }
                    if !found { tracks[i].searchesMissed += 1 }
                }
            }
            for detection in result.detections.sorted(by: { $0.score > $1.score }) {
                if isTracked(detection.box) {
                    if detection.score >= options.weakDetectionThreshold {
                        for i in tracks.indices where tracks[i].frame.detectorBox.iou(detection.box) > 0.25 {
                            tracks[i].foundSinceStart = true
                            reclaimIfSeenWhole(track: i, by: detection)
                        }
                    }
                    continue
                }
                if liesWithinAShownFace(detection.box) { continue }
                guard tracks.count < options.maximumFaces, detection.score >= options.weakDetectionThreshold else { continue }
                try start(from: detection, turned: result.job.searchesTurned, gray: gray, searched: result.searched,
                          framesLate: framesLate, time: time)
            }
        }
    }

    private func start(from detection: FaceDetection, turned: Bool, gray: Image, searched: Image?,
                       framesLate: Int, time: Double) throws {
        logger.debug("detection \(detection.box) score \(detection.score)")
        let found = try detection.landmarks ?? predictor.fit(in: landmarkImage(gray), box: detection.box)
        // Fitted again in the box its own landmarks give: a detection's box can be a size off for
        // a small or turned face, and a detection from an earlier frame (background worker) is
        // followed into this one as a track would be.
        var (fitted, score) = try fitAgain(found, in: gray)
        var perFrame: Point2?
        if framesLate > 0, let searched,
           let moved = try Self.motion(of: detection.box, from: searched, to: gray, frames: framesLate) {
            // A detection from frames ago: its face may have moved on (a face crossing the frame at
            // 20 px a frame is 40-120 px away by the time a search lands). Its look, found again
            // nearby, says where to; the fit there is taken when it looks more like a face than
            // the one where the search saw it, and is not a face tracked already.
            let (there, thereScore) = try fitAgain(found.map { $0 + moved }, in: gray)
            if thereScore > score, !isTracked(FaceFrame(landmarks: there).detectorBox) {
                (fitted, score) = (there, thereScore)
                perFrame = moved * (1 / Double(framesLate))
            }
        }
        if score < options.confirmScore, framesLate > 0 {
            // Still no face: the detector's filters around it say where to, looked for as far as a
            // fast face (a third of its box a frame) goes in the frames the search took.
            let g = FaceFrame(landmarks: score > -10 ? fitted : found)
            let reach = min(staleReachLimit, recoveryReach * (1 + framesLate))
            if let look = try appearance.appearance(of: g, in: gray, reach: reach), look.score >= options.confirmScore {
                (fitted, score) = try fitNew(centre: look.centre, side: look.side, roll: g.roll, in: gray)
                perFrame = nil
            } else if score > -10, detection.score >= options.detectionThreshold {
                // A strong detection whose fit, here or nearby, scores under the bar goes on to be
                // checked in its detector's own box, as it is inline: for a face turned well away
                // the filters score the window its landmarks place low wherever it is looked for
                // (seed 204's dim turned face, found at 0.35 by a live run's first search, -0.52 in
                // its own box; without this it waited 0.27 s for a search whose fit happened to pass).
                logger.debug("detection from \(framesLate) frames ago: checked in its own box")
            } else {
                return
            }
        }
        // Moved onto a face that is tracked already.
        if framesLate > 0, isTracked(FaceFrame(landmarks: fitted).detectorBox) { return }
        // A face published a while ago, back (it left, or turned away for longer than its track
        // could wait): taken back as itself.
        var known: (index: Int, similarity: Double)?
        if !remembered.isEmpty, score > -10 {
            let look = try FaceLook(of: fitted, in: gray)
            for (i, r) in remembered.enumerated() {
                let similarity = look.similarity(to: r.look)
                logger.debug("detection: looks \(similarity) like face \(r.id)")
                if similarity >= options.lookMatch, similarity > known?.similarity ?? -1 { known = (i, similarity) }
            }
        }
        // A strong detection whose fit the check doubts is checked again in the detector's own
        // box: for a face turned well away, the window the landmarks place sits a fifth to a
        // third smaller and off to the side of the one the detector scored (seed 38's
        // `backlight-35`: found at 0.25-0.45 every few searches, its fits -0.9 to -1.15, so never
        // started). Not weak starts: in their own box the look-alikes' badges score as detected.
        var placed: (offset: Point2, scale: Double)?
        if score > -10, score < options.confirmScore, detection.score >= options.detectionThreshold,
           let relation = Self.boxRelation(of: detection.box, to: found) {
            let there = try appearanceScore(of: fitted, boxOffset: relation.offset, boxScale: relation.scale, in: gray)
            logger.debug("detection: appearance \(there) in its own box (offset \(relation.offset), scale \(relation.scale))")
            if there >= options.placedStartScore { (score, placed) = (there, relation) }
        }
        // A weak detection (a dim, washed-out or turned face, or a badge) starts a track only when
        // its fitted face looks enough like one to the filters.
        let needed = detection.score >= options.detectionThreshold || known != nil ? options.confirmScore
            : inside(detection.box, margin: 0) ? options.weakStartScore : options.edgeWeakStartScore
        guard score >= needed else {
            logger.debug("detection not started: appearance \(score) under \(needed)")
            return
        }
        // A face found again where one was just lost keeps its id.
        let box = FaceFrame(landmarks: fitted).detectorBox
        let clear = detection.score >= options.clearDetectionScore
        // In a place where a refused track was dropped, a weak detection starts a track only
        // when the second detector finds a face in its detector's box: a noisy face refused by
        // its first six fits was found there ten times in the 3 s its place stayed doubted, the
        // cascade agreeing in seven of those boxes (held-out seed 223's `noise-defocus` live),
        // while the look-alikes refused there are agreed with in 3-12 % of theirs. The agreement
        // only lets it start: it earns its publication as any weak start does.
        // The detector's box on this frame: as drawn, or moved with the face from a late search
        // (nil when the face's motion is not known).
        let boxNow = (framesLate == 0 ? Point2(0, 0) : perFrame.map { $0 * Double(framesLate) }).map {
            Rect(x: detection.box.x + $0.x, y: detection.box.y + $0.y, width: detection.box.width, height: detection.box.height)
        }
        var agreedInBox: Rect?
        if !clear, known == nil, doubted.contains(where: { $0.box.iou(box) > 0.3 }) {
            let there = boxNow ?? detection.box
            guard try secondOpinion.agrees(inDetectorBox: there, roll: FaceFrame(landmarks: fitted).roll, in: gray) else {
                logger.debug("detection not started: a doubted place, the second detector finds no face in its box")
                return
            }
            logger.debug("detection in a doubted place: the second detector finds a face in its box")
            agreedInBox = there
        }
        // A badge on coloured cloth that all the gray looks take for a face (`FaceWarmth`), however
        // strongly found: in an H.264 recording the astronaut's name tag scored 1.03 on one
        // search (seed 481's `look-alikes` as an MP4), a clear start that no second detector
        // would have been asked about, and a false face for 51 frames.
        if known == nil, let colour, let warm = try warmth.warmth(of: fitted, in: colour.image, scale: colour.scale),
           warmth.rulesOut(warm) {
            logger.debug("detection not started: its middle \(warm.middle) warm, the face around it \(warm.around)")
            return
        }
        let lostHere = lost.firstIndex { $0.box.iou(box) > 0.2 || $0.box.centre.distance(to: box.centre) < $0.box.width * 0.5 }
        if turned, detection.score < options.rolledDetectionThreshold, known == nil, lostHere == nil {
            logger.debug("detection not started: found turned at \(detection.score), under \(options.rolledDetectionThreshold)")
            return
        }
        recoveries.removeAll { r in
            let c = box.centre
            return c.x >= r.region.x && c.y >= r.region.y && c.x < r.region.x + r.region.width && c.y < r.region.y + r.region.height
        }
        var id: Int
        var confirmed = detection.score >= options.detectionThreshold && score >= options.confirmAtOnceScore
        var reclaimed = false
        var usual: Double?
        if let j = lostHere {
            id = lost[j].id
            usual = lost[j].typicalScore
            lost.remove(at: j)
            remembered.removeAll { $0.id == id }
            confirmed = true
            reclaimed = true
        } else if let known {
            id = remembered[known.index].id
            logger.debug("detection: face \(id) back, looks \(known.similarity) like it")
            remembered.remove(at: known.index)
            lost.removeAll { $0.id == id }
            confirmed = true
            reclaimed = true
        } else {
            id = nextID
            nextID += 1
        }
        var track = Track(id: id, landmarks: fitted,
                          smoother: AnchorSmoother(points: 68, options: options.smoothing),
                          smoothed: fitted, lastSeen: time)
        if let placed {
            // Its fits placed as its detection's box was: the check's window stays where it
            // scored, and the box the landmarks predict for a turned face is a size small.
            track.boxOffset = placed.offset
            track.boxScale = placed.scale
            track.boxSamples = 1
            track.startedFromItsBox = true
        }
        // A face reclaimed where a published one was just lost needs no second opinion.
        // Even a start the filters call clear waits for a second agreement: a name tag found at
        // 0.42 fitted to 0.53 and, with the cascade's one agreement, stayed a face for 125 frames.
        if !clear && !reclaimed {
            track.startedWeak = true
            let agrees = try secondOpinionAgrees(with: fitted, of: track, in: gray)
            track.fitsAwaitingOpinion = 1
            track.opinionAgreements = agrees ? 1 : 0
            track.awaitsSecondOpinion = track.opinionAgreements < options.secondOpinionAgreements
            if track.awaitsSecondOpinion, let box = boxNow {
                track.boxAsks = 1
                // Asked already when the place was doubted: the same box on the same frame.
                let agrees = try agreedInBox == box
                    || secondOpinion.agrees(inDetectorBox: box, roll: FaceFrame(landmarks: fitted).roll, in: gray)
                track.boxAgreements = agrees ? 1 : 0
            }
        }
        accept(fitted, into: &track, time: time)
        track.confirmed = track.confirmed || (confirmed && !track.awaitsSecondOpinion)
        // A face found again where it was lost scoring far under what it usually did is what is
        // left of it half behind another picture: followed, not shown, and held to its usual
        // score. (Any other start keeps its own: a fast face's blurred start held to its sharp
        // score would be doubted on every fit.)
        if let usual, scores(score, farUnder: usual, by: coveredMargin) {
            track.typicalScore = usual
            track.visible = false
        }
        logger.debug("track \(id): started, appearance \(score)\(track.confirmed ? ", published" : "")\(track.awaitsSecondOpinion ? ", awaiting a second detector" : "")")
        // Its motion so far, for the next frame's fit to be placed ahead of it.
        if let perFrame { track.previousCentre = FaceFrame(landmarks: fitted).eyeMidpoint - perFrame }
        tracks.append(track)
    }

    /// Scoring far under its usual score, as a face partly covered does (followed unseen), yet
    /// found clearly by the detector where it is: it is whole and scores low for another reason,
    /// as a turned face reclaimed with the usual score of a few sharper fits before it was lost
    /// (held-out seed 330's `cuts`: hidden 20 frames so), or a noisy face whose first fits
    /// scored high by chance (held-out seed 485's `noise-defocus` live: usual 0.94, then -0.3 to
    /// 0.1 a fit, hidden 21 frames while three searches and a verification found it). What it
    /// scores from here on is its usual. Asked while it is followed unseen as the covered-face
    /// rule keeps it so, and by a search's detection as by a verification's. Not beside another
    /// face, whose photograph may be what covers it.
    private func reclaimIfSeenWhole(track i: Int, by d: FaceDetection) {
        let t = tracks[i]
        let box = t.frame.detectorBox
        guard let typical = t.typicalScore,
              scoresAsCovered(t.lastScore, usual: typical, coveredLastFrame: t.coveredLastFrame),
              d.score >= options.detectionThreshold, d.box.iou(box) > 0.5,
              !mayBeCovered(box, byAnotherThan: t.id) else { return }
        tracks[i].coveredLastFrame = false
        tracks[i].typicalScore = t.lastScore
        logger.debug("track \(t.id): seen whole by the detector (box overlap \(d.box.iou(box))), its usual score now \(t.lastScore)")
    }

    /// Whether another tracked face's picture may reach over `box`: a portrait's photograph holds
    /// more than the face, so its face's box grown by its width each way. The detector finds a
    /// face half behind its neighbour's photograph too (seed 263's `small-three`: at 0.57, its
    /// box 0.81 over the track's), where the fits slide onto the picture in front.
    private func mayBeCovered(_ box: Rect, byAnotherThan id: Int) -> Bool {
        tracks.contains { t in
            guard t.id != id else { return false }
            let b = t.frame.detectorBox
            let reach = Rect(x: b.x - b.width, y: b.y - b.height, width: 3 * b.width, height: 3 * b.height)
            return reach.intersection(box).area > 0
        }
    }

    /// Whether a fit's score lies `margin` under what its face usually scores and under 0, which a
    /// clear face passes: a face with part of it covered scores like that, a dim one does not.
    private func scores(_ score: Double, farUnder usual: Double, by margin: Double) -> Bool {
        score < min(usual - margin, 0)
    }

    /// Whether a fit's score is what a partly covered face scores: far under its usual score
    /// (`coveredMargin`, and under 0); once covered, anything still `coveredMargin` under it, since
    /// a fit on what is left of a covered face can score over 0 half an eye distance off.
    private func scoresAsCovered(_ score: Double, usual: Double, coveredLastFrame: Bool) -> Bool {
        scores(score, farUnder: usual, by: coveredMargin) || (coveredLastFrame && score < usual - coveredMargin)
    }

    /// Whether a move of `distance` pixels in `seconds` blurs a face `t` (`blurringSpeed`).
    private func blurs(_ t: Track, moving distance: Double, in seconds: Double) -> Bool {
        distance >= blurringSpeed * t.frame.eyeDistance * seconds
    }

    /// Whether the face's last move, over the time since the previous frame, is fast enough to
    /// blur it; false before a track has moved or on the first frame.
    private func isBlurredByMotion(_ t: Track) -> Bool {
        guard let frameSeconds, frameSeconds > 0 else { return false }
        return blurs(t, moving: t.lastMotion.length, in: frameSeconds)
    }

    /// Whether the face's move into `frame` (from its accepted fit before) was fast enough to
    /// blur it; false when it was not fitted on that frame.
    private func wasBlurredByMotion(_ t: Track, at frame: Int) -> Bool {
        guard let frameSeconds, frameSeconds > 0,
              let j = t.recentCentres.lastIndex(where: { $0.frame == frame }), j > 0 else { return false }
        let (before, then) = (t.recentCentres[j - 1], t.recentCentres[j])
        return blurs(t, moving: then.centre.distance(to: before.centre), in: Double(then.frame - before.frame) * frameSeconds)
    }

    /// The face's moves between its last four accepted fits: how far, over how many frames.
    private func recentMoves(_ t: Track) -> [(distance: Double, frames: Double)] {
        let recent = t.recentCentres.suffix(4)
        return zip(recent.dropLast(), recent.dropFirst()).map { a, b in
            (b.centre.distance(to: a.centre), Double(max(1, b.frame - a.frame)))
        }
    }

    /// Whether the face moved far enough to blur between any two of its last four accepted fits
    /// (`blurringMove` eye distances a frame).
    private func movedBlurringFast(_ t: Track, eyeDistance: Double) -> Bool {
        recentMoves(t).contains { $0.distance >= blurringMove * eyeDistance * $0.frames }
    }

    /// The fit from the best box dlib's detector finds in a region 2.2 boxes wide around `centre`
    /// (scaled so the box is 100 px, the detector's window 80), within half a box of it, when that
    /// fit is a plausible successor of the track's and its detector box lies inside the frame (a
    /// detection on a face half out of the frame is a size off); with its appearance score.
    private func fitFromDetection(around centre: Point2, side: Double, track t: Track,
                                  gray: Image) throws -> (points: [Point2], score: Double)? {
        let region = Rect(x: centre.x - side * 1.1, y: centre.y - side * 1.1, width: side * 2.2, height: side * 2.2)
        guard let near = try appearance.detections(in: gray, region: region, scale: 100 / side)
            .filter({ $0.box.centre.distance(to: centre) < 0.5 * side })
            .max(by: { $0.score < $1.score }) else { return nil }
        let fitted = try predictor.fit(in: landmarkImage(gray), box: near.box)
        guard plausibility.check(fitted, previous: t.landmarks) == .plausible, wholeInside(fitted) else { return nil }
        return (fitted, try appearanceScore(of: fitted, boxOffset: t.boxOffset, boxScale: t.boxScale, in: gray))
    }

    /// How far the look of the face shown in `f` on the last frame moved by this one; nil when
    /// it was not found (a cut, a face gone or covered) or there is no last frame to match.
    private func lookMotion(of f: FaceFrame, in gray: Image) throws -> Point2? {
        guard let previousGray, previousGray.size == gray.size else { return nil }
        return try Self.motion(of: f.detectorBox, from: previousGray, to: gray, frames: 1)
    }

    /// Whether the face moved slowly between each of its last four accepted fits.
    private func isSteady(_ t: Track, eyeDistance: Double) -> Bool {
        let moves = recentMoves(t)
        return !moves.isEmpty && moves.allSatisfy { $0.distance < slowMotion * eyeDistance * $0.frames }
    }

    /// Whether no face is tracked and one that left at the edge is looked for (`returnAwaited`).
    private func awaitsReturn(at frameIndex: Int) -> Bool {
        tracks.isEmpty && returnAwaited.map { frameIndex < $0.until } ?? false
    }

    /// The second part of a live split search: the smallest faces, or while a face that left is
    /// awaited, its sizes again, upright or, for a face that leaned halfway to the turned
    /// searches' angle or more, on the frame turned its way (held-out seeds 242 and 262: a face
    /// leaning 19° coming back, found only by a turned search).
    private func secondPart(at frameIndex: Int) -> FaceDetectionJob {
        guard awaitsReturn(at: frameIndex), let awaited = returnAwaited else { return .search(roll: 0, sizes: .smaller) }
        let angle = options.rolledSearchAngle
        guard angle > 0, abs(awaited.roll) >= angle / 2 else { return .search(roll: 0, sizes: .larger) }
        return .search(roll: awaited.roll > 0 ? angle : -angle)
    }

    /// Whether `box` keeps `margin` from every edge of the frame.
    private func inside(_ box: Rect, margin: Double) -> Bool {
        box.x > margin && box.y > margin && box.x + box.width < Double(frameSize.width) - margin
            && box.y + box.height < Double(frameSize.height) - margin
    }

    /// Whether a track follows the face in this detector box.
    private func isTracked(_ box: Rect) -> Bool {
        tracks.contains { $0.frame.detectorBox.iou(box) > 0.25 }
    }

    /// A detection under 0.6 of the side of a face shown and mostly inside its box is part of
    /// that face, never a face of its own: faces do not sit inside one another. Seed 406's
    /// `leave-fast`, live: the mouth and chin of the face shown, found at 0.34 as a small face,
    /// passed the second detector and showed a false face for 34 frames.
    private func liesWithinAShownFace(_ box: Rect) -> Bool {
        tracks.contains { t in
            let face = t.frame.detectorBox
            return t.visible && box.width < 0.6 * face.width && box.intersection(face).area > 0.7 * box.area
        }
    }

    /// A new face's fit on this frame in the box `landmarks` give, with its appearance score.
    private func fitAgain(_ landmarks: [Point2], in gray: Image) throws -> (points: [Point2], score: Double) {
        let f = FaceFrame(landmarks: landmarks)
        return try fitNew(centre: f.detectorBoxCentre, side: f.detectorBoxSide, roll: f.roll, in: gray)
    }

    /// A new face's fit in the square (centre, side, roll), with its appearance score (-10 when
    /// the fit is no plausible face inside the frame).
    private func fitNew(centre: Point2, side: Double, roll: Double, in gray: Image) throws -> (points: [Point2], score: Double) {
        let fitted = try predictor.fit(in: landmarkImage(gray), centre: centre, side: side, roll: roll)
        guard plausibility.check(fitted, previous: nil) == .plausible, mostlyInside(fitted) else { return (fitted, -10) }
        return (fitted, try appearanceScore(of: fitted, in: gray))
    }

    /// How far the face in `box` on `searched` moved by `now`, `frames` later: its middle looked
    /// for as far as a face crossing the frame goes (a third of its box a frame), on copies
    /// shrunk to about 32 px a face; nil when nothing there looks enough like it (a cut, or the
    /// face left). Public for `kernels`.
    public static func motion(of box: Rect, from searched: Image, to now: Image, frames: Int) throws -> Point2? {
        let middle = Rect(x: box.x + box.width * 0.2, y: box.y + box.height * 0.2, width: box.width * 0.6,
                          height: box.height * 0.6)
        let reach = box.width * min(2, 0.35 * Double(frames))
        let area = Rect(x: middle.x - reach, y: middle.y - reach, width: middle.width + 2 * reach,
                        height: middle.height + 2 * reach)
        guard let (move, correlation) = try ImageGeometry.findPatch(middle, of: searched, in: area, of: now,
                                                                    scale: min(1, 32 / middle.width)),
              correlation >= minimumPatchCorrelation else { return nil }
        return move
    }

    /// How a detector's box sits against the box `landmarks` predict, as a track's `boxOffset` and
    /// `boxScale`; nil when the box is turned or too far off to be the same face's.
    private static func boxRelation(of box: Rect, to landmarks: [Point2]) -> (offset: Point2, scale: Double)? {
        let f = FaceFrame(landmarks: landmarks)
        guard abs(f.roll) < 0.2 else { return nil }
        return boxRelation(of: box, around: f.detectorBoxCentre, side: f.detectorBoxSide, unit: f.boxUnit,
                           roll: f.roll)
    }

    /// How a detector's box sits against a predicted box (`centre`, `side`, of a face whose box
    /// unit is `unit`, `FaceFrame.boxUnit`, rolled by `roll`): offset in box units in the face's
    /// frame, and scale; nil when it is too far off to be the same face's.
    private static func boxRelation(of box: Rect, around centre: Point2, side: Double, unit: Double,
                                    roll: Double) -> (offset: Point2, scale: Double)? {
        guard unit > 1 else { return nil }
        let offset = ((box.centre - centre) * (1 / unit)).rotated(by: -roll)
        let scale = box.width / side
        guard abs(offset.x) < 0.5, abs(offset.y) < 0.5, scale > 0.7, scale < 1.4 else { return nil }
        return (offset, scale)
    }

    /// Folds what this detection shows into the track's box relation: a running mean (the
    /// relation belongs to the face and does not change), so the fit's box settles instead of
    /// jumping at each verification. `region` is the verification's search region, centred on the
    /// box the landmarks predicted on the frame the detector saw (1.8 times its side), so a result
    /// that arrives frames later still compares like with like.
    private func learnBox(_ detected: Rect, predicted region: Rect, into t: inout Track, gray: Image) throws {
        let side = region.width / 1.8
        guard let (offset, scale) = Self.boxRelation(of: detected, around: region.centre, side: side,
                                                     unit: side / FaceFrame.detectorBoxWidth,
                                                     roll: t.frame.roll) else { return }
        let k = max(0.2, 1 / Double(t.boxSamples + 2))
        let learntOffset = t.boxOffset * (1 - k) + offset * k
        let learntScale = t.boxScale * (1 - k) + scale * k
        // After the first lesson, one that makes the check's window on the face look less like a
        // face is not taken: the detector's coarse pyramid steps suit some faces' boxes worse
        // than what the track has, and each such lesson lowered a small face's score until its
        // track was lost, or let a blurred fast face's window drift.
        if t.boxSamples > 0 {
            let now = try appearanceScore(of: t.landmarks, boxOffset: t.boxOffset, boxScale: t.boxScale, in: gray)
            let learnt = try appearanceScore(of: t.landmarks, boxOffset: learntOffset, boxScale: learntScale, in: gray)
            guard learnt >= now else { return }
        }
        t.boxSamples += 1
        t.boxOffset = learntOffset
        t.boxScale = learntScale
    }

    /// A fit from a clear detection's box (moved as the track moved since the detector saw the
    /// frame) replaces the track's when it looks much more like a face: a track started from a
    /// face half in the frame, or fitted from a late detection, can settle a size off or half a
    /// face low and still pass the check, and the per-frame fit, started from its own last
    /// landmarks, would keep it there. A slow track whose fit sits well away from the detection's
    /// (`mayHaveSlid`: no other track in the detector's box) takes it at about the same score:
    /// a fit that slid off a face partly covered, towards its cheek, can score as well as the
    /// face itself while its eyes sit half an eye distance off (seed 319's `small-three`).
    private func refit(_ t: inout Track, from box: Rect, mayHaveSlid: Bool, gray: Image) throws {
        let fitted = try predictor.fit(in: landmarkImage(gray), box: box)
        guard plausibility.check(fitted, previous: nil) == .plausible, mostlyInside(fitted) else { return }
        let score = try appearanceScore(of: fitted, boxOffset: t.boxOffset, boxScale: t.boxScale, in: gray)
        let new = FaceFrame(landmarks: fitted)
        let apart = new.eyeMidpoint.distance(to: t.frame.eyeMidpoint) / max(1, t.frame.eyeDistance)
        let farAndAsGood = mayHaveSlid && apart >= slidFitDistance && score >= t.lastScore - refitGain
        let slid = farAndAsGood && t.hits >= slideFrames && !t.slideRefitUndone
        if farAndAsGood, !slid, score <= t.lastScore + refitGain {
            let why = t.slideRefitUndone ? "a slide refit of it was undone" : "its fit too new to have slid"
            logger.debug("track \(t.id): not refitted from a detection \(apart) eye distances away, \(why) (appearance \(t.lastScore) -> \(score))")
        }
        guard score > t.lastScore + refitGain || slid else { return }
        logger.debug("track \(t.id): refitted from a detection, appearance \(t.lastScore) -> \(score), \(apart) eye distances away")
        // Taken as slid, not as clearly better: the track as it was is followed on the next
        // frame too, and kept if it then scores clearly better.
        if score <= t.lastScore + refitGain { slideTrials[t.id] = t } else { slideTrials[t.id] = nil }
        // The smoothing starts again from the new fit: it would otherwise ease the anchors across
        // the jump from the wrong fit over several frames.
        // The face's motion is unchanged: only where the track thinks it is moved.
        t.previousCentre = t.previousCentre.map { $0 + (new.eyeMidpoint - t.frame.eyeMidpoint) }
        // Where its look went is followed again from here: the place kept from the wrong fit
        // would call the next fits back to it (held-out seed 220's `gamma-2.2`, the frame after
        // such a refit).
        t.lookPlace = nil
        t.landmarks = fitted
        t.smoothed = fitted
        t.smoother = AnchorSmoother(points: 68, options: options.smoothing)
        _ = t.smoother.smooth(fitted, at: t.lastSeen, unit: new.eyeDistance)
        if let last = t.recentCentres.indices.last { t.recentCentres[last].centre = new.detectorBoxCentre }
        t.lastScore = score
    }

    /// Two tracks on one face (a re-detection that slipped past association): keep the older.
    private func removeDuplicates() {
        var keep: [Track] = []
        for t in tracks.sorted(by: { $0.id < $1.id }) {
            let box = t.frame.detectorBox
            if !keep.contains(where: { $0.frame.detectorBox.iou(box) > 0.4 }) { keep.append(t) }
        }
        tracks = keep
    }

    public func finish() { worker.finish() }
}

