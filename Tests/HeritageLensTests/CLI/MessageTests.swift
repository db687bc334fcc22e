import Foundation
import HeritageCore
import Testing
@testable import HeritageLens

/// Issue items 8 and 10-14 through the command line: each used to crash, hang on a huge input,
/// leave the caller's CPU choice, or say something misleading; each now gives one accurate line
/// (or the right behaviour).
@Suite(.enabled(if: CLI.available && TestPaths.debianAsset("astronaut.png") != nil,
                "needs the built heritage-lens and Samples/debian (scripts/fetch-debian-assets.sh)"))
struct MessageTests {
    /// One error line on stderr containing `expected`, nothing on stdout, a failing status.
    func expectOneLine(_ args: [String], in dir: String, _ expected: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let r = try CLI.run(args, in: dir)
        #expect(r.status != 0, "\(args): exit 0", sourceLocation: sourceLocation)
        #expect(r.stderr.contains(expected), "\(args): \(r.stderr)", sourceLocation: sourceLocation)
        #expect(r.stdout.isEmpty, "\(args): stdout \(String(decoding: r.stdout, as: UTF8.self))", sourceLocation: sourceLocation)
        let errors = r.stderrLines.filter { $0.hasPrefix("heritage-lens: error:") || $0.hasPrefix("Error:") }
        #expect(errors.count == 1, "\(args): \(r.stderr)", sourceLocation: sourceLocation)
    }

    /// A PNG header claiming `width` x `height` (no pixels: the header is all a check may read).
    func pngHeader(width: UInt32, height: UInt32) -> Data {
        func be(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        let ihdr: [UInt8] = Array("IHDR".utf8) + be(width) + be(height) + [8, 2, 0, 0, 0]
        return Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + be(13) + ihdr + [0, 0, 0, 0])
    }

    @Test func landmarkFilesWithoutA68PointFaceAreOneLineNotACrash() throws {
        let dir = TestPaths.scratch()
        try FileManager.default.createDirectory(atPath: "\(dir)/faces", withIntermediateDirectories: true)
        try """
            <dataset><images><image file='a.jpg'><box top='1' left='2' width='30' height='40'>
            <part name='00' x='1' y='1'/><part name='01' x='2' y='2'/></box></image></images></dataset>
            """.write(toFile: "\(dir)/faces/few.xml", atomically: true, encoding: .utf8)
        try expectOneLine(["eval-faces", "--faces", "faces"], in: dir, "no face with all 68 landmark points")
    }

    @Test func hugeFramesAreRefusedBeforeDecoding() throws {
        let dir = TestPaths.scratch()
        _ = try CLI.sample(in: dir)
        try pngHeader(width: 20000, height: 20000).write(to: URL(fileURLWithPath: "\(dir)/huge.png"))
        try expectOneLine(["process", "huge.png"], in: dir, "20000x20000 pixels is larger than 8192 a side")
        try expectOneLine(["process", "in.mp4", "--max-frame-side", "320"], in: dir, "640x480 pixels is larger than 320 a side")
        // In a folder the huge image is skipped, named, and the rest is processed.
        try FileManager.default.createDirectory(atPath: "\(dir)/frames", withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: "\(dir)/huge.png", toPath: "\(dir)/frames/b.png")
        try FileManager.default.copyItem(atPath: TestPaths.debianAsset("astronaut.png")!, toPath: "\(dir)/frames/a.png")
        let r = try CLI.run(["process", "frames", "--detector", "none", "--no-cards"], in: dir)
        #expect(r.status == 0)
        #expect(r.stderr.contains("skipped frames/b.png: 20000x20000 pixels"), "\(r.stderr)")
    }

    @Test func benchStaysOnTheCPUsTheCallerAllowed() throws {
        let dir = TestPaths.scratch()
        _ = try CLI.sample(in: dir)
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/taskset") else { return }
        let r = try CLI.run(["bench", "in.mp4", "--tier", "low", "--frames", "3", "--detector", "none", "--no-cards"],
                            in: dir, wrapper: ["/usr/bin/taskset", "-c", "0"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(String(decoding: r.stdout, as: UTF8.self).contains("pinned to 0"))
        let two = try CLI.run(["bench", "in.mp4", "--cores", "2", "--frames", "3"], in: dir, wrapper: ["/usr/bin/taskset", "-c", "0"])
        #expect(two.status == 1 && two.stderr.contains("--cores 2: this process may run on 1 CPU (0)"), "\(two.stderr)")
    }

    @Test func misleadingMessagesSayWhatIsWrong() throws {
        let dir = TestPaths.scratch()
        _ = try CLI.sample(in: dir)
        // An MP4 cut before its index: ftyp, then an mdat that runs past the end.
        var cut = Data([0, 0, 0, 16] + Array("ftypisom".utf8) + [0, 0, 2, 0])
        cut += Data([0x00, 0x10, 0x00, 0x00] + Array("mdat".utf8)) + Data(repeating: 7, count: 4000)
        try cut.write(to: URL(fileURLWithPath: "\(dir)/cut.mp4"))
        try expectOneLine(["process", "cut.mp4"], in: dir, "cut short before its index")
        #expect(mkfifo("\(dir)/fifo", 0o600) == 0)
        try expectOneLine(["process", "fifo"], in: dir, "is a FIFO (named pipe), not a file")
        try expectOneLine(["process", "/dev/zero"], in: dir, "is a character device, not a file")
        try expectOneLine(["process", String(repeating: "n", count: 300) + ".mp4"], in: dir, "304 bytes long; Linux allows 255")
        try expectOneLine(["process", "in.mp4", "--frames", "-1"], in: dir, "--frames must be at least 1")
        try expectOneLine(["process", "in.mp4", "--budget-ms", "0"], in: dir, "--budget-ms must be more than 0")
        try expectOneLine(["process", "in.mp4", "--image-rate", "0"], in: dir, "--image-rate must be more than 0")
        try expectOneLine(["run", "--fps", "0"], in: dir, "--fps must be more than 0")
        try expectOneLine(["process", "in.mp4", "-o", ".mp4"], in: dir, "name the file, e.g. out.mp4")
        try expectOneLine(["kernels", "in.mp4", "--at-frame", "5000", "--kernel", "convert"], in: dir,
                          "--at-frame 5000 is past the video's")
        try FileManager.default.createDirectory(atPath: "\(dir)/boards", withIntermediateDirectories: true)
        try Image(width: 64, height: 48).write(to: "\(dir)/boards/blank.png")
        try expectOneLine(["calibrate", "--images", "boards", "-o", "cal.yml"], in: dir, "--images boards: the board was found in 0 of 1 images")
        let camera = try CLI.run(["cameras", "/dev/video77"], in: dir)
        #expect(camera.status == 1 && camera.stdout.isEmpty)
        #expect(camera.stderr.components(separatedBy: "/dev/video77").count == 2, "path once: \(camera.stderr)")
        try expectOneLine(["eval-cards", "--only", "bogus"], in: TestPaths.packageRoot, "--only bogus: no such sequence")
        #expect(try CLI.run(["eval-cards", "--only", "bogus"], in: TestPaths.packageRoot).status == 64)

        try FileManager.default.createDirectory(atPath: "\(dir)/cards", withIntermediateDirectories: true)
        try #"{"cards": [{"image": "x.png", "width_m": 0.1}]}"#.write(toFile: "\(dir)/cards/cards.json", atomically: true, encoding: .utf8)
        try expectOneLine(["process", "in.mp4", "--cards", "cards"], in: dir, "missing field cards[0].id")

        try "%YAML:1.0\n camera_matrix: [ :\n  x".write(toFile: "\(dir)/bad.yml", atomically: true, encoding: .utf8)
        try expectOneLine(["process", "in.mp4", "--calibration", "bad.yml"], in: dir, "not valid YAML, XML or JSON: line 3")
        let tiny = Intrinsics(fx: 1e-30, fy: 1e-30, cx: 320, cy: 240, distortion: [0, 0, 0, 0, 0],
                              size: Size(width: 640, height: 480), origin: "test")
        try CalibrationFile.write(tiny, camera: "c", rms: 0.1, date: "", to: "\(dir)/tiny.yml")
        try expectOneLine(["process", "in.mp4", "--calibration", "tiny.yml"], in: dir, "fx = 1e-30, not a focal length")

        // A blank image is no target at all.
        try Image(width: 200, height: 200).write(to: "\(dir)/blank.png")
        let check = try CLI.run(["cards", "check", "blank.png"], in: dir)
        #expect(String(decoding: check.stdout, as: UTF8.self).contains("blank          ....."), "\(check.stdout)")
    }

    /// eval-faces' defaults (the shared faces, the Debian photos) are the repository's files, found
    /// from wherever it runs, as `process` finds the sample: from another folder it said "no
    /// landmark XML files".
    @Test(.enabled(if: TestPaths.sharedFaces != nil && TestPaths.debianAsset("chelsea.png") != nil,
                   "needs ../shared/data/faces and Samples/debian"))
    func evalFacesFindsItsDefaultFilesFromAnyFolder() throws {
        let r = try CLI.run(["eval-faces", "--only", "motion"], in: TestPaths.scratch())
        #expect(r.status == 0, "\(r.stderr)")
        #expect(String(decoding: r.stdout, as: UTF8.self).contains("motion"), "\(r.stdout)")
    }

    /// `eval-cards` the same: from another folder it said its cards folder did not exist, and with
    /// the cards named it left the other pictures out of `no-card` without a word.
    @Test(.enabled(if: TestPaths.debianAsset("chelsea.png") != nil, "needs Samples/debian"))
    func evalCardsFindsItsDefaultFilesFromAnyFolder() throws {
        let r = try CLI.run(["eval-cards", "--only", "no-card"], in: TestPaths.scratch())
        #expect(r.status == 0, "\(r.stderr)")
        #expect(String(decoding: r.stdout, as: UTF8.self).contains("no-card"), "\(r.stdout)")
    }

    /// Found by a new user's pass over the commands: each said too little, too much or the wrong
    /// thing, or took a value it then ignored.
    @Test func valuesAndFailuresAreStatedOnceAndRight() throws {
        let dir = TestPaths.scratch()
        _ = try CLI.sample(in: dir)
        try expectOneLine(["process", "in.mp4", "--stream-fps", "0"], in: dir, "--stream-fps must be more than 0 and at most 120")
        // A negative number is the option's value, not an option: it said "Missing value".
        try expectOneLine(["run", "--camera", "-1"], in: dir, "--camera -1: camera indexes start at 0")
        try expectOneLine(["calibrate", "--camera", "-2"], in: dir, "--camera -2: camera indexes start at 0")
        try expectOneLine(["run", "--camera", "--fps", "10"], in: dir, "--camera needs a value before --fps")
        try expectOneLine(["process", "in.mp4", "--realtime", "--serve", "-5"], in: dir, "--serve -5: write PORT")
        try expectOneLine(["process", "in.mp4", "--realtime", "--serve", "8080", "--stream-quality", "-1"], in: dir,
                          "--stream-quality must be between 1 and 100")
        // Taken and then ignored without a server to stream from.
        try expectOneLine(["process", "in.mp4", "--realtime", "--stream-fps", "10"], in: dir, "add --serve")
        try FileManager.default.createDirectory(atPath: "\(dir)/empty", withIntermediateDirectories: true)
        try expectOneLine(["calibrate", "--images", "empty"], in: dir, "--images empty")
        for shard in ["auto/0", "-1/2"] {
            let r = try CLI.run(["process", "in.mp4", "--output-dir", ".", "--shard", shard], in: dir)
            #expect(r.status == 64 && r.stderr.contains("--shard \(shard)"), "\(shard): \(r.status) \(r.stderr)")
        }
        // The evaluations' sequences have their own length: no --frames to ignore.
        #expect(try CLI.run(["eval-cards", "--only", "still", "--frames", "5"], in: TestPaths.packageRoot).status == 64)
        try "not a video".write(toFile: "\(dir)/text.mp4", atomically: true, encoding: .utf8)
        try expectOneLine(["cards", "check", "text.mp4"], in: dir, "not those of a PNG, JPEG")
        let notImage = try CLI.run(["cards", "check", "text.mp4"], in: dir)
        #expect(notImage.stderr.components(separatedBy: "PNG").count == 2, "said once: \(notImage.stderr)")
        try Data("not an image".utf8).write(to: URL(fileURLWithPath: "\(dir)/text.png"))
        let source = try CLI.run(["process", "text.png"], in: dir)
        #expect(source.stderr.components(separatedBy: "PNG").count == 2, "said once: \(source.stderr)")
        try expectOneLine(["calibrate", "--images", "nodir"], in: dir, "--images nodir: no such folder")
        try expectOneLine(["calibrate", "--images", "in.mp4"], in: dir, "--images in.mp4: is a file, not a folder")
        try FileManager.default.createDirectory(atPath: "\(dir)/empty", withIntermediateDirectories: true)
        try expectOneLine(["process", "empty"], in: dir, "for a folder of videos, process them as a batch with --output-dir")
        try expectOneLine(["bench", "empty"], in: dir, "empty: is a folder, not a video file; name a video file inside it")

        // A file that opens but decodes no frame leaves no output behind that this run made.
        let whole = try Data(contentsOf: URL(fileURLWithPath: "\(dir)/in.mp4"))
        try whole.prefix(20_000).write(to: URL(fileURLWithPath: "\(dir)/head.mp4"))
        try expectOneLine(["process", "head.mp4", "--anchors", "head.jsonl", "-o", "head-out.mp4"], in: dir,
                          "head.mp4: no frame could be decoded")
        #expect(!FileManager.default.fileExists(atPath: "\(dir)/head.jsonl"))
        #expect(!FileManager.default.fileExists(atPath: "\(dir)/head-out.mp4"))
        // Nor empties the files of an earlier run of the same names.
        let earlier = Data("{\"schema\":1,\"frame\":0}\n".utf8)
        for name in ["head.jsonl", "head-out.mp4", "head.metrics.jsonl"] {
            try earlier.write(to: URL(fileURLWithPath: "\(dir)/\(name)"))
        }
        try expectOneLine(["process", "head.mp4", "--anchors", "head.jsonl", "-o", "head-out.mp4",
                           "--metrics", "head.metrics.jsonl"], in: dir, "head.mp4: no frame could be decoded")
        for name in ["head.jsonl", "head-out.mp4", "head.metrics.jsonl"] {
            #expect(FileManager.default.contents(atPath: "\(dir)/\(name)") == earlier, "\(name) was changed")
        }

        // A batch names a failed input once on its line, and again at the end.
        try FileManager.default.createDirectory(atPath: "\(dir)/videos", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: "\(dir)/out", withIntermediateDirectories: true)
        try Data(repeating: 7, count: 2000).write(to: URL(fileURLWithPath: "\(dir)/videos/broken.mp4"))
        let batch = try CLI.run(["process", "videos", "--output-dir", "out"], in: dir)
        #expect(batch.status == 1)
        let named = batch.stderrLines.filter { $0.contains("videos/broken.mp4") }
        #expect(named.count == 2 && named.allSatisfy { $0.components(separatedBy: "videos/broken.mp4").count == 2 },
                "\(batch.stderr)")
    }

    @Test func anAbsoluteCardImagePathIsKept() throws {
        let dir = TestPaths.scratch()
        let card = TestPaths.packageRoot + "/Samples/cards/chunfen.png"
        guard FileManager.default.fileExists(atPath: card) else { return }
        try FileManager.default.createDirectory(atPath: "\(dir)/cards", withIntermediateDirectories: true)
        try #"{"cards": [{"id": "c", "image": "\#(card)", "width_m": 0.1}]}"#
            .write(toFile: "\(dir)/cards/cards.json", atomically: true, encoding: .utf8)
        #expect(try CardSet(folder: "\(dir)/cards", cacheFolder: nil).cards.count == 1)
    }

    /// Image codecs' own lines stay off stderr unless asked for; a failed decode quotes them.
    @Test func libraryLinesStayQuietUnlessAskedFor() throws {
        let dir = TestPaths.scratch()
        try FileManager.default.createDirectory(atPath: "\(dir)/frames", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: TestPaths.debianAsset("astronaut.png")!, toPath: "\(dir)/frames/a.png")
        if let chelsea = TestPaths.debianAsset("chelsea.png") {  // carries an sRGB profile libpng warns about
            try FileManager.default.copyItem(atPath: chelsea, toPath: "\(dir)/frames/b.png")
        }
        let png = try Image(width: 64, height: 64).encoded(as: ".png")
        try Data(png.prefix(png.count / 2)).write(to: URL(fileURLWithPath: "\(dir)/frames/c.png"))
        try "%YAML:1.0\n camera_matrix: [ :\n".write(toFile: "\(dir)/bad.yml", atomically: true, encoding: .utf8)

        let quiet = try CLI.run(["process", "frames", "--detector", "none", "--no-cards"], in: dir)
        #expect(quiet.status == 0)
        #expect(quiet.stderrLines.allSatisfy { $0.hasPrefix("heritage-lens: ") || $0.hasPrefix("frame ") }, "\(quiet.stderr)")
        #expect(quiet.stderr.contains("skipped frames/c.png: not an image this tool can read (libpng error"), "\(quiet.stderr)")
        let calibration = try CLI.run(["process", "frames", "--calibration", "bad.yml"], in: dir)
        #expect(calibration.stderrLines.count == 1 && !calibration.stderr.contains("[ERROR"), "\(calibration.stderr)")
        let check = try CLI.run(["cards", "check", "frames/a.png", "frames/b.png"], in: dir)
        #expect(!check.stderr.contains("libpng"), "\(check.stderr)")

        let loud = try CLI.run(["process", "frames", "--detector", "none", "--no-cards", "--library-logs"], in: dir)
        #expect(loud.stderrLines.contains { $0.hasPrefix("libpng") }, "\(loud.stderr)")
    }

    @Test func realtimePacesImageInputs() throws {
        let dir = TestPaths.scratch()
        try FileManager.default.copyItem(atPath: TestPaths.debianAsset("astronaut.png")!, toPath: "\(dir)/still.png")
        // 30 frames at 30 fps cannot take less than a second when paced.
        let r = try CLI.run(["process", "still.png", "--repeat", "30", "--realtime", "--detector", "none", "--no-cards",
                             "--metrics", "m.jsonl"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let report = try #require(r.stderr.firstMatch(of: /(\d+) frames in ([0-9.]+) s/), "\(r.stderr)")
        #expect(Int(report.1)! + CLI.lines(of: "\(dir)/m.jsonl").lines.count > 0)
        #expect(Double(report.2)! >= 0.9, "30 frames at 30 fps in \(report.2) s")
        let source = try ImageSource(path: "\(dir)/still.png", framesPerSecond: 30, repeats: 15, realtime: true)
        let started = Date()
        var n = 0
        while try source.nextFrame() != nil { n += 1 }
        #expect(n + source.droppedFrameCount == 15)
        #expect(Date().timeIntervalSince(started) >= 14.0 / 30 - 0.01)
    }
}
