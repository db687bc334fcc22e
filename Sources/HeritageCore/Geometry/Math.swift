#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// One place that reaches the C math library, so the rest of the module reads as plain Swift.
@inline(__always) func _cos(_ x: Double) -> Double { cos(x) }
@inline(__always) func _sin(_ x: Double) -> Double { sin(x) }
@inline(__always) func _atan2(_ y: Double, _ x: Double) -> Double { atan2(y, x) }
@inline(__always) func _tan(_ x: Double) -> Double { tan(x) }
@inline(__always) func _exp(_ x: Double) -> Double { exp(x) }
@inline(__always) func _asin(_ x: Double) -> Double { asin(x) }
@inline(__always) func _acos(_ x: Double) -> Double { acos(x) }

/// Degrees per radian.
public let degreesPerRadian = 180.0 / Double.pi
