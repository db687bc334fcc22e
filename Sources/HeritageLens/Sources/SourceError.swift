import HeritageCore

/// Why a source could not deliver frames, phrased for the person who named it.
public enum SourceError: Error, CustomStringConvertible, Equatable {
    case fileNotFound(String)
    case isDirectory(String)
    case notReadable(String)
    case emptyFile(String)
    case notAFile(String, kind: String)
    case notAVideo(String, reason: String)
    case cutRecording(String)
    case tooLarge(String, size: Size, limit: Int)
    case noFramesDecoded(String)
    case notAnImage(String, reason: String)
    case noImages(inFolder: String)
    case cameraNotFound(String)
    case cameraBusy(String)
    case cameraBandwidth(String)
    case cameraPermissionDenied(String)
    case notACaptureDevice(String, detail: String)
    case cameraFailed(String, reason: String)
    case cameraLost(String)
    case cameraStalled(String, seconds: Double)
    case loopFailed(String, reason: String)

    public var description: String {
        switch self {
        case .fileNotFound(let p):
            return "\(p): no such file; check the path"
        case .isDirectory(let p):
            return "\(p): is a folder, not a video file; name a video file inside it"
        case .notReadable(let p):
            return "\(p): permission denied; make the file readable (chmod +r)"
        case .emptyFile(let p):
            return "\(p): the file is empty (0 bytes); re-export or re-download it"
        case .notAFile(let p, let kind):
            let camera = kind == "a character device" ? " (for a camera: heritage-lens run --camera \(p))" : ""
            return "\(p): is \(kind), not a file; process reads video and image files it can seek in\(camera): save the stream to a file first"
        case .notAVideo(let p, let reason):
            return "\(p): not a video FFmpeg can read (\(reason)); check that it is a whole video file"
        case .cutRecording(let p):
            return "\(p): the recording was cut short before its index (the MP4 'moov' box) was written, so no program can find its frames, and converting it with ffmpeg cannot help; record it again (MP4s from heritage-lens keep what was recorded)"
        case .tooLarge(let p, let size, let limit):
            return "\(p): \(size.width)x\(size.height) pixels is larger than \(limit) a side; scale it down first, or raise the limit with --max-frame-side"
        case .noFramesDecoded(let p):
            return "\(p): no frame could be decoded; the file is truncated or corrupt"
        case .notAnImage(let p, let reason):
            let kinds = "PNG, JPEG, BMP, TIFF, WebP or PNM"
            // The reader's own reason may already name the kinds it reads.
            if reason.contains(kinds) { return "\(p): not an image this tool can read: \(reason)" }
            return "\(p): not an image this tool can read (\(reason)); check that it is a whole \(kinds) file"
        case .noImages(let folder):
            let kinds = ImageSource.imageExtensions.sorted().map { "." + $0 }.joined(separator: ", ")
            return "\(folder): no images (\(kinds)) in this folder"
        case .cameraNotFound(let d):
            return "\(d): no such camera; list cameras with 'heritage-lens cameras'"
        case .cameraBusy(let d):
            return "\(d): the camera is busy; close the other program using it and try again"
        case .cameraBandwidth(let d):
            return "\(d): not enough USB bandwidth for this mode (another camera on the same USB controller?); ask for a smaller --size or a lower --fps, or use another USB port"
        case .cameraPermissionDenied(let d):
            return "\(d): permission denied; add yourself to the 'video' group (sudo usermod -aG video $USER) and log in again"
        case .notACaptureDevice(let d, let detail):
            return "\(d): not a video capture device (\(detail)); list cameras with 'heritage-lens cameras'"
        case .cameraFailed(let d, let reason):
            return "\(d): the camera failed (\(reason))"
        case .loopFailed(let p, let reason):
            return "\(p): cannot play it again for --loop (\(reason)); was the file replaced or truncated during the run?"
        case .cameraLost(let d):
            return "\(d): the camera was disconnected"
        case .cameraStalled(let d, let seconds):
            return "\(d): no frame for \(Int(seconds.rounded())) s; the camera has stalled"
        }
    }
}
