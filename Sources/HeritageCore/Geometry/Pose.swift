/// A 6-DoF pose in OpenCV's camera convention: x right, y down, z forward (away from the camera).
///
/// `rotation` is a Rodrigues vector (axis times angle in radians), `translation` is in metres.
public struct Pose: Hashable, Sendable {
    public var rotation: Vector3
    public var translation: Vector3

    public init(rotation: Vector3, translation: Vector3) {
        self.rotation = rotation
        self.translation = translation
    }

    /// The 3x3 rotation matrix, row-major.
    public var rotationMatrix: Matrix3 { Matrix3(rodrigues: rotation) }

    /// Pitch (about x), yaw (about y) and roll (about z) in degrees, for R = Rz(roll)·Ry(yaw)·Rx(pitch).
    /// A face looking straight at the camera has all three near 0 with the project's head model.
    public var eulerDegrees: Vector3 {
        let r = rotationMatrix.m
        let pitch = _atan2(r[7], r[8])
        let yaw = _asin(max(-1, min(1, -r[6])))
        let roll = _atan2(r[3], r[0])
        return Vector3(pitch * degreesPerRadian, yaw * degreesPerRadian, roll * degreesPerRadian)
    }

    /// A point of the object's frame, in the camera's frame.
    public func transform(_ p: Vector3) -> Vector3 { rotationMatrix * p + translation }
}

/// Three doubles: a 3D point, a translation or a Rodrigues vector.
public struct Vector3: Hashable, Sendable {
    public var x: Double
    public var y: Double
    public var z: Double

    public init(_ x: Double, _ y: Double, _ z: Double) {
        self.x = x
        self.y = y
        self.z = z
    }

    public static let zero = Vector3(0, 0, 0)
    public var length: Double { (x * x + y * y + z * z).squareRoot() }
    public static func + (a: Vector3, b: Vector3) -> Vector3 { Vector3(a.x + b.x, a.y + b.y, a.z + b.z) }
    public static func - (a: Vector3, b: Vector3) -> Vector3 { Vector3(a.x - b.x, a.y - b.y, a.z - b.z) }
    public static func * (a: Vector3, k: Double) -> Vector3 { Vector3(a.x * k, a.y * k, a.z * k) }
    public var array: [Double] { [x, y, z] }
}

/// A row-major 3x3 matrix.
public struct Matrix3: Hashable, Sendable {
    public var m: [Double]

    public init(_ m: [Double]) {
        precondition(m.count == 9, "a 3x3 matrix has 9 values")
        self.m = m
    }

    public static let identity = Matrix3([1, 0, 0, 0, 1, 0, 0, 0, 1])

    /// The rotation of a Rodrigues vector (OpenCV's cv::Rodrigues).
    public init(rodrigues v: Vector3) {
        let theta = v.length
        if theta < 1e-12 {
            self = .identity
            return
        }
        let kx = v.x / theta, ky = v.y / theta, kz = v.z / theta
        let c = _cos(theta), s = _sin(theta), t = 1 - c
        self.init([
            c + kx * kx * t, kx * ky * t - kz * s, kx * kz * t + ky * s,
            ky * kx * t + kz * s, c + ky * ky * t, ky * kz * t - kx * s,
            kz * kx * t - ky * s, kz * ky * t + kx * s, c + kz * kz * t,
        ])
    }

    public static func * (a: Matrix3, p: Vector3) -> Vector3 {
        let m = a.m
        return Vector3(m[0] * p.x + m[1] * p.y + m[2] * p.z,
                       m[3] * p.x + m[4] * p.y + m[5] * p.z,
                       m[6] * p.x + m[7] * p.y + m[8] * p.z)
    }

    public static func * (a: Matrix3, b: Matrix3) -> Matrix3 {
        var r = [Double](repeating: 0, count: 9)
        for i in 0..<3 {
            for j in 0..<3 {
                r[i * 3 + j] = a.m[i * 3] * b.m[j] + a.m[i * 3 + 1] * b.m[3 + j] + a.m[i * 3 + 2] * b.m[6 + j]
            }
        }
        return Matrix3(r)
    }

    public var transposed: Matrix3 {
        Matrix3([m[0], m[3], m[6], m[1], m[4], m[7], m[2], m[5], m[8]])
    }

    /// The Rodrigues vector of this rotation (inverse of `init(rodrigues:)`).
    public var rodrigues: Vector3 {
        let trace = m[0] + m[4] + m[8]
        let cosTheta = max(-1, min(1, (trace - 1) / 2))
        let theta = _atan2((1 - cosTheta * cosTheta).squareRoot(), cosTheta)
        if theta < 1e-9 { return .zero }
        if Double.pi - theta < 1e-6 {
            // Near 180°: the axis comes from the diagonal.
            let x = ((m[0] + 1) / 2).squareRoot(), y = ((m[4] + 1) / 2).squareRoot() * (m[1] >= 0 ? 1 : -1)
            let z = ((m[8] + 1) / 2).squareRoot() * (m[2] >= 0 ? 1 : -1)
            return Vector3(x, y, z) * theta
        }
        let k = theta / (2 * _sin(theta))
        return Vector3((m[7] - m[5]) * k, (m[2] - m[6]) * k, (m[3] - m[1]) * k)
    }
}
