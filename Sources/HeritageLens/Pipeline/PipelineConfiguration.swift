import HeritageCore
import Logging

/// What a run's frame path consists of, and the one place its stage list is built: `run`,
/// `process`, `bench`, `kernels`, the evaluations and the tests all describe their run here and
/// get their stages (and their pipeline) from it, so the order is decided once and checked before
/// any frame.
///
/// The order: gray conversion; card recognition (handed its frame first, so that on several
/// cores it runs while faces are searched and followed); face detection and tracking; card
/// tracking; pose; the renderer; the anchor overlay; the stats panel.
public struct PipelineConfiguration {
    /// The gray image's long side for detection and tracking (nil: the input's own size); no
    /// conversion stage at all when false (a pipeline that only copies frames).
    public var convertsToGray = true
    public var analysisLongestSide: Int?
    public var faces: FaceTracker?
    public var cards: CardTracker?
    /// Head and card poses from the anchors, with the camera that saw them; nil leaves anchors
    /// without a pose.
    public var pose: Intrinsics?
    /// Masks and card effects drawn on the output; nil draws nothing (anchors do not depend on
    /// drawing).
    public var render: RenderStage?
    /// Landmarks, boxes and axes drawn over the output (`--draw-anchors`, check videos).
    public var anchorOverlay: Intrinsics?
    /// The live stats panel.
    public var statsOverlay: StatsOverlayStage?

    public init(analysisLongestSide: Int? = nil, faces: FaceTracker? = nil, cards: CardTracker? = nil,
                pose: Intrinsics? = nil, render: RenderStage? = nil, anchorOverlay: Intrinsics? = nil,
                statsOverlay: StatsOverlayStage? = nil) {
        self.analysisLongestSide = analysisLongestSide
        self.faces = faces
        self.cards = cards
        self.pose = pose
        self.render = render
        self.anchorOverlay = anchorOverlay
        self.statsOverlay = statsOverlay
    }

    /// Which stages: all of them, or the frame path alone with the searches left out (the
    /// kernels' "frame" measurement, where searches run elsewhere).
    public enum Selection: Sendable {
        case all
        case framePathWithoutSearches
        case searchesOnly
    }

    /// The stages in order, checked (`StageOrder`): a stage that reads what no earlier stage
    /// wrote is an error naming both.
    public func stages(_ selection: Selection = .all) throws -> [FrameStage] {
        let conversion: [FrameStage] = convertsToGray ? [GrayConversionStage(longestSide: analysisLongestSide)] : []
        var searches: [FrameStage] = []
        if let cards { searches.append(CardRecognitionStage(tracker: cards)) }
        if let faces { searches.append(FaceDetectionStage(tracker: faces)) }
        var following: [FrameStage] = []
        if let faces { following.append(FaceTrackingStage(tracker: faces)) }
        if let cards { following.append(CardTrackingStage(tracker: cards)) }
        if let pose { following.append(PoseStage(intrinsics: pose, cards: cards?.cards)) }
        if let render { following.append(render) }
        if let anchorOverlay { following.append(AnchorOverlayStage(intrinsics: anchorOverlay)) }
        if let statsOverlay { following.append(statsOverlay) }
        let stages: [FrameStage]
        switch selection {
        case .all: stages = conversion + searches + following
        case .framePathWithoutSearches: stages = conversion + following
        case .searchesOnly: return searches
        }
        try StageOrder.check(stages)
        return stages
    }

    /// A pipeline over these stages.
    public func makePipeline(source: FrameSource, sinks: [FrameSink], metrics: MetricsSink? = nil,
                             options: Pipeline.Options = Pipeline.Options(),
                             stopRequest: StopRequest = StopRequest(followingProcessSignals: false),
                             logger: Logger = Logger(label: "heritage-lens.pipeline")) throws -> Pipeline {
        Pipeline(source: source, stages: try stages(), sinks: sinks, metrics: metrics, options: options,
                 stopRequest: stopRequest, logger: logger)
    }
}
