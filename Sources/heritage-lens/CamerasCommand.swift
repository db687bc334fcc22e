import ArgumentParser
import Foundation
import HeritageCore
import HeritageLens

struct Cameras: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List V4L2 cameras with their formats, sizes and frame rates."
    )

    @Argument(help: "Devices to query (default: every /dev/video*).")
    var devices: [String] = []

    func run() throws {
        let paths = devices.isEmpty ? CameraDevices.paths() : devices.map(CameraDevices.path(for:))
        if paths.isEmpty {
            print("No cameras found (no /dev/video* devices). Plug in a USB camera, or process a video file instead:")
            print("  heritage-lens process Samples/sample.mp4")
            return
        }
        var failures = 0
        for path in paths {
            do {
                let device = try CameraDevices.query(path)
                guard device.isCapture else {
                    print("\(path): \(device.card) (\(device.driver)) — not a capture device")
                    continue
                }
                print("\(path): \(device.card) (\(device.driver), \(device.busInfo))")
                var byFormat: [String: [CameraMode]] = [:]
                for mode in device.modes { byFormat[mode.pixelFormat.description, default: []].append(mode) }
                for format in byFormat.keys.sorted() {
                    let supported = FourCC.decodable.contains(FourCC(format)) ? "" : " (not decoded by HeritageLens)"
                    print("  \(format)\(supported)")
                    var rates: [Size: [Double]] = [:]
                    for m in byFormat[format]! { rates[m.size, default: []].append(m.framesPerSecond) }
                    for size in rates.keys.sorted(by: { $0.width * $0.height < $1.width * $1.height }) {
                        let list = rates[size]!.sorted(by: >).map { $0 == $0.rounded() ? String(Int($0)) : String(format: "%.2f", $0) }
                        print("    \(size): \(list.joined(separator: ", ")) fps")
                    }
                }
            } catch {
                // The error names the device itself; it goes where errors go, not into the list.
                failures += 1
                FileHandle.standardError.write(Data("heritage-lens: error: \(error)\n".utf8))
            }
        }
        // Devices named one by one are each asked for, as `ls` takes its files: any of them
        // failing fails the command. A listing of whatever is plugged in fails only when none answered.
        if devices.isEmpty ? failures == paths.count : failures > 0 { throw ExitCode(1) }
    }
}
