/// Builds one compact JSON object as text, with fixed decimals per field.
///
/// Hand-written rather than JSONEncoder: the anchors line is built every frame on the hot path,
/// its key order is part of what people read, and fixed decimals make batch output byte-identical
/// across runs and machines.
public struct JSONLineBuilder {
    public private(set) var text: String = ""

    public init(capacity: Int = 256) {
        text.reserveCapacity(capacity)
    }

    public mutating func raw(_ s: String) { text += s }

    public mutating func key(_ name: String) {
        if let last = text.utf8.last, last != UInt8(ascii: "{"), last != UInt8(ascii: "[") { text += "," }
        string(name)
        text += ":"
    }

    public mutating func string(_ s: String) {
        text += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    text.unicodeScalars.append(scalar)
                }
            }
        }
        text += "\""
    }

    public mutating func int(_ v: Int) { text += String(v) }

    /// A number with `decimals` digits after the point, trailing zeros dropped; NaN and ±inf as null.
    public mutating func number(_ v: Double, decimals: Int) {
        text += Self.format(v, decimals: decimals)
    }

    public mutating func numbers(_ values: [Double], decimals: Int) {
        text += "["
        for (i, v) in values.enumerated() {
            if i > 0 { text += "," }
            number(v, decimals: decimals)
        }
        text += "]"
    }

    public mutating func point(_ p: Point2, decimals: Int) { numbers([p.x, p.y], decimals: decimals) }

    public mutating func points(_ ps: [Point2], decimals: Int) {
        text += "["
        for (i, p) in ps.enumerated() {
            if i > 0 { text += "," }
            point(p, decimals: decimals)
        }
        text += "]"
    }

    static let powersOfTen: [Double] = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000]

    public static func format(_ v: Double, decimals: Int) -> String {
        guard v.isFinite else { return "null" }
        let d = max(0, min(decimals, powersOfTen.count - 1))
        let scaled = (abs(v) * powersOfTen[d]).rounded()
        guard scaled < 9e15 else { return String(v) }
        var units = UInt64(scaled)
        if units == 0 { return "0" }
        var digits: [UInt8] = []
        var fraction = d
        // Drop trailing zeros of the fraction.
        while fraction > 0 && units % 10 == 0 {
            units /= 10
            fraction -= 1
        }
        var n = units
        repeat {
            digits.append(UInt8(ascii: "0") + UInt8(n % 10))
            n /= 10
        } while n > 0
        while digits.count <= fraction { digits.append(UInt8(ascii: "0")) }
        var out = v < 0 ? "-" : ""
        for (i, c) in digits.reversed().enumerated() {
            if i == digits.count - fraction { out += "." }
            out.unicodeScalars.append(Unicode.Scalar(c))
        }
        return out
    }
}
