import Foundation

/// Where the face models live on a Debian system, and what to install when they are missing.
public enum FaceModelFiles {
    public static let landmarks68 = "/usr/share/dlib/shape_predictor_68_face_landmarks.dat"
    public static let cascadeFolder = "/usr/share/opencv4"

    /// Where unpacked models are kept between runs ($XDG_CACHE_HOME/heritage-lens/models, else
    /// ~/.cache/heritage-lens/models): dlib's detector unpacked and the landmark model in its
    /// compact form load in a tenth of the time. Nil (no cache) without a home, or with
    /// HERITAGE_LENS_MODEL_CACHE=off.
    public static var cacheFolder: String? {
        let env = ProcessInfo.processInfo.environment
        if env["HERITAGE_LENS_MODEL_CACHE"] == "off" { return nil }
        if let xdg = env["XDG_CACHE_HOME"], !xdg.isEmpty { return xdg + "/heritage-lens/models" }
        if let home = env["HOME"], !home.isEmpty { return home + "/.cache/heritage-lens/models" }
        return nil
    }

    /// How dlib's HOG search runs: AVX2 where the CPU has it, unless HERITAGE_LENS_DLIB_AVX2=off
    /// (a cluster of mixed machines whose outputs must match byte for byte: scores differ between
    /// the two in the last float bits).
    public static var hogKernel: DlibFaceScanner.Kernel {
        ProcessInfo.processInfo.environment["HERITAGE_LENS_DLIB_AVX2"] == "off" ? .baseline : .fastest
    }

    /// OpenCV cascades by short name.
    public static let cascades: [String: String] = [
        "lbp": "lbpcascades/lbpcascade_frontalface_improved.xml",
        "haar": "haarcascades/haarcascade_frontalface_default.xml",
        "haar-alt2": "haarcascades/haarcascade_frontalface_alt2.xml",
    ]

    /// The OpenCV cascade at `path`, or an error that names the package to install.
    static func cascade(at path: String) throws -> OpenCVCascade {
        guard FileManager.default.fileExists(atPath: path) else {
            throw ModelFileError(path: path, package: "opencv-data", reason: "cascade file missing")
        }
        do {
            return try OpenCVCascade(path: path)
        } catch {
            throw ModelFileError(path: path, package: "opencv-data", reason: error.message)
        }
    }
}

/// A model file that is missing or unusable, with the Debian package that provides it.
public struct ModelFileError: Error, CustomStringConvertible {
    public let path: String
    public let package: String
    public let reason: String

    public var description: String {
        "\(path): \(reason); install it with 'sudo apt-get install \(package)' (or run scripts/setup.sh)"
    }
}
