import HeritageCore

/// "render": masks on faces and effects on cards, at the frame's tier, drawn into the frame.
///
/// It reads only the frame's anchors (the same values the anchors stream carries), so another
/// renderer can stand in for it by reading the JSON lines.
public final class RenderStage: FrameStage {
    public let name = "render"
    public let reads: Set<FrameField> = [.image]
    public let writes: Set<FrameField> = [.rendering]

    /// Which mask each face wears.
    public enum MaskChoice: Equatable, Sendable {
        /// Cycle through the five by track id, so faces side by side wear different masks.
        case byFace
        case all(MaskKind)
    }

    public var maskChoice: MaskChoice
    public var cardsVisible = true
    private let masks: MaskRenderer?
    private let effects: CardEffects?

    /// `focalLength` (pixels) lets the high tier place mask parts by the head pose.
    public init(masks: MaskLibrary?, effects: CardEffects?, maskChoice: MaskChoice = .byFace, focalLength: Double? = nil) {
        self.masks = masks.map { MaskRenderer(library: $0, focalLength: focalLength) }
        self.effects = effects
        self.maskChoice = maskChoice
    }

    /// The next choice for the preview's mask key: by face, then each mask in turn.
    public func cycleMask() {
        switch maskChoice {
        case .byFace: maskChoice = .all(.ox)
        case .all(let k):
            let all = MaskKind.allCases
            let i = all.firstIndex(of: k)!
            maskChoice = i + 1 < all.count ? .all(all[i + 1]) : .byFace
        }
    }

    public func mask(for face: FaceAnchor) -> MaskKind {
        switch maskChoice {
        case .byFace: return MaskKind.allCases[(face.id - 1) % MaskKind.allCases.count]
        case .all(let k): return k
        }
    }

    public func process(_ work: inout FrameWork) throws {
        if let masks {
            for face in work.anchors.faces {
                try masks.draw(mask(for: face), on: face, tier: work.tier, into: work.frame.image, gray: work.gray,
                               grayScale: work.analysisScale)
            }
        }
        if let effects, cardsVisible {
            // Faces hide the 3D effects behind them (high tier; the flat low tier draws on the card).
            let occluders = work.tier == .high ? work.anchors.faces.compactMap(EffectOccluder.init(face:)) : []
            for card in work.anchors.cards {
                try effects.draw(card, time: work.frame.time, tier: work.tier, into: work.frame.image, occluders: occluders)
            }
        }
    }
}
