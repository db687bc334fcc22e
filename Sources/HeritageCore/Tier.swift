/// A rendering quality level.
public enum Tier: String, CaseIterable, Sendable {
    /// Similarity-warped masks, flat card effects, cards aligned on a half-size copy, no feathering: for weak hardware.
    case low
    /// Mesh-warped, lit and feathered masks, 3D card effects.
    case high
}

/// What the user asks for: a fixed tier, or `auto` (a governor picks from measured frame times).
public enum TierSetting: String, CaseIterable, Sendable {
    case low, high, auto
}
