import Foundation
import HeritageCore

/// One animated effect per card: willow buds opening for lichun, rain for yushui, lightning and
/// insects for jingzhe, swallows circling for chunfen, kites rising for qingming, grain sprouting
/// for guyu; a sparkle for custom cards.
///
/// Low tier: flat particles placed in the card's own coordinates and drawn where its homography puts them. High
/// tier: particles in 3D above the card, projected through the card's pose, anti-aliased.
public final class CardEffects {
    /// The card's own coordinates the low tier's particles are placed in.
    private let spriteSize = Size(width: 150, height: 211)
    private let intrinsics: Intrinsics
    private let planes: [String: CardPlane]

    public init(intrinsics: Intrinsics, cards: CardSet) throws {
        self.intrinsics = intrinsics
        planes = Dictionary(uniqueKeysWithValues: cards.cards.map { ($0.id, $0.plane) })
    }

    /// A particle: position on the card as fractions of width and height, height above it as a
    /// fraction of the width (toward the camera), a size, and a colour.
    struct Particle {
        var u: Double, v: Double, lift: Double, size: Double
        var colour: Colour
        var kind: Kind
        enum Kind { case dot, streak, bird, kite, sprout, bolt }
    }

    static func particles(for id: String, time t: Double) -> [Particle] {
        var rng = SplitMix64(seed: UInt64(id.utf8.reduce(0) { $0 &* 131 &+ Int($1) }.magnitude))
        var out: [Particle] = []
        func r(_ a: Double, _ b: Double) -> Double { rng.next(in: a...b) }
        switch id {
        case "lichun":
            for _ in 0..<14 {
                let phase = r(0, 1), open = (sin(2 * .pi * (t * 0.4 + phase)) + 1) / 2
                out.append(Particle(u: r(0.1, 0.9), v: r(0.1, 0.9), lift: 0.05 + 0.15 * open, size: 0.02 + 0.03 * open,
                                    colour: Colour(red: 120 + 100 * open, green: 200, blue: 90), kind: .dot))
            }
        case "yushui":
            for _ in 0..<40 {
                let fall = (r(0, 1) + t * 0.8).truncatingRemainder(dividingBy: 1)
                out.append(Particle(u: r(0, 1), v: r(0, 1), lift: 0.6 * (1 - fall), size: 0.05, colour: Colour(red: 170, green: 210, blue: 255),
                                    kind: .streak))
            }
        case "jingzhe":
            let flash = (t.truncatingRemainder(dividingBy: 2.0)) < 0.15
            if flash { out.append(Particle(u: 0.5, v: 0.3, lift: 0.5, size: 0.4, colour: Colour(red: 255, green: 245, blue: 140), kind: .bolt)) }
            for _ in 0..<10 {
                let a = r(0, 2 * .pi) + t * r(0.3, 0.8)
                out.append(Particle(u: 0.5 + 0.35 * cos(a), v: 0.6 + 0.25 * sin(a), lift: 0.01, size: 0.025,
                                    colour: Colour(red: 90, green: 170, blue: 60), kind: .dot))
            }
        case "chunfen":
            for k in 0..<5 {
                let a = t * 1.2 + Double(k) * 2 * .pi / 5
                out.append(Particle(u: 0.5 + 0.4 * cos(a), v: 0.45 + 0.3 * sin(a), lift: 0.35 + 0.05 * sin(3 * a), size: 0.08,
                                    colour: Colour(red: 30, green: 30, blue: 50), kind: .bird))
            }
        case "qingming":
            for k in 0..<3 {
                let rise = ((t * 0.15) + Double(k) / 3).truncatingRemainder(dividingBy: 1)
                out.append(Particle(u: 0.25 + 0.25 * Double(k), v: 0.5 - 0.2 * rise, lift: 0.1 + 0.9 * rise, size: 0.09,
                                    colour: [Colour(red: 230, green: 60, blue: 50), Colour(red: 60, green: 110, blue: 220),
                                             Colour(red: 250, green: 190, blue: 40)][k], kind: .kite))
            }
        case "guyu":
            for i in 0..<5 {
                for j in 0..<4 {
                    let grow = min(1, max(0, (t * 0.3 - Double(i + j) * 0.05).truncatingRemainder(dividingBy: 1.5)))
                    out.append(Particle(u: 0.15 + 0.175 * Double(i), v: 0.2 + 0.2 * Double(j), lift: 0.25 * grow, size: 0.03,
                                        colour: Colour(red: 110, green: 190, blue: 70), kind: .sprout))
                }
            }
        default:
            for _ in 0..<16 {
                let tw = (sin(t * r(2, 5) + r(0, 6)) + 1) / 2
                out.append(Particle(u: r(0, 1), v: r(0, 1), lift: 0.1 + 0.2 * tw, size: 0.015 + 0.02 * tw,
                                    colour: Colour(red: 255, green: 240, blue: 180), kind: .dot))
            }
        }
        return out
    }

    /// Draws `card`'s effect at `time`. In the high tier, particles behind any of `occluders` (faces
    /// nearer the camera than they are) are hidden.
    public func draw(_ card: CardAnchor, time: Double, tier: Tier, into image: Image, occluders: [EffectOccluder] = []) throws {
        let ps = Self.particles(for: card.id, time: time)
        switch tier {
        case .low:
            // Flat: each particle's place on the card (lift ignored) carried into the frame by the
            // card's homography and drawn there, at the card's scale at that place. Drawing only
            // the particles costs what they cover; warping a sprite of the card cost its whole area.
            let w = Double(spriteSize.width), h = Double(spriteSize.height)
            let corners = [Point2(0, 0), Point2(w, 0), Point2(w, h), Point2(0, h)]
            guard let homography = Homography(from: corners, to: card.corners) else { return }
            func scale(at c: Point2) -> Double {
                let a = homography.apply(c), dx = homography.apply(c + Point2(1, 0)), dy = homography.apply(c + Point2(0, 1))
                return max(0.05, (a.distance(to: dx) + a.distance(to: dy)) / 2)
            }
            for p in ps {
                let c = Point2(p.u * w, p.v * h), s = max(1.5, p.size * w), k = scale(at: c)
                switch p.kind {
                case .streak:
                    image.drawLine(from: homography.apply(c), to: homography.apply(c + Point2(-s * 0.2, s)), colour: p.colour,
                                   thickness: max(1, Int((2 * k).rounded())), antialiased: false)
                case .bolt:
                    image.drawPolygon(card.corners, colour: p.colour, filled: false, thickness: max(1, Int((6 * k).rounded())),
                                      antialiased: false)
                default:
                    image.drawCircle(at: homography.apply(c), radius: max(0.75, s / 2 * k), colour: p.colour, antialiased: false)
                }
            }
        case .high:
            guard let pose = card.pose, let plane = planes[card.id] else { return }
            func projectWithDepth(_ u: Double, _ v: Double, _ lift: Double) -> (Point2, Double)? {
                let c = pose.transform(Vector3(u * plane.width, v * plane.height, -lift * plane.width))
                guard c.z > 0.01 else { return nil }
                return (intrinsics.project(c), c.z)
            }
            func project(_ u: Double, _ v: Double, _ lift: Double) -> Point2? { projectWithDepth(u, v, lift)?.0 }
            let pixelsPerMetre = intrinsics.fx / max(0.05, pose.translation.z)
            for p in ps {
                guard let (at, depth) = projectWithDepth(p.u, p.v, p.lift) else { continue }
                if occluders.contains(where: { $0.hides(at, depth: depth) }) { continue }
                let s = max(1.5, p.size * plane.width * pixelsPerMetre)
                switch p.kind {
                case .dot:
                    image.drawCircle(at: at, radius: s / 2, colour: p.colour)
                case .streak:
                    if let tail = project(p.u, p.v, p.lift + 0.08) { image.drawLine(from: tail, to: at, colour: p.colour, thickness: 2) }
                    if p.lift < 0.05, let ground = project(p.u, p.v, 0) {
                        image.drawCircle(at: ground, radius: s * 0.6, colour: p.colour, thickness: 1)
                    }
                case .bird:
                    image.drawLine(from: at + Point2(-s, -s * 0.4), to: at, colour: p.colour, thickness: 3)
                    image.drawLine(from: at, to: at + Point2(s, -s * 0.5), colour: p.colour, thickness: 3)
                case .kite:
                    image.drawPolygon([at + Point2(0, -s), at + Point2(s * 0.6, 0), at + Point2(0, s * 1.2), at + Point2(-s * 0.6, 0)],
                                      colour: p.colour, filled: true)
                    if let anchor = project(p.u, 0.95, 0) { image.drawLine(from: at, to: anchor, colour: .white, thickness: 1) }
                case .sprout:
                    if let base = project(p.u, p.v, 0) {
                        image.drawLine(from: base, to: at, colour: p.colour, thickness: 2)
                        image.drawCircle(at: at, radius: s / 2, colour: Colour(red: 230, green: 200, blue: 90))
                    }
                case .bolt:
                    if let ground = project(0.5, 0.5, 0) {
                        var points = [at]
                        var rng = SplitMix64(seed: UInt64(time * 10))
                        for k in 1...5 {
                            let f = Double(k) / 5
                            points.append(at + (ground - at) * f + Point2(rng.next(in: -12...12), 0))
                        }
                        for (a, b) in zip(points, points.dropFirst()) { image.drawLine(from: a, to: b, colour: p.colour, thickness: 4) }
                    }
                }
            }
        }
    }
}
