// swift-tools-version:6.1
import PackageDescription

// OpenCV is linked module by module instead of through opencv4.pc: the .pc file links all 56
// modules (VTK, OpenMPI, tesseract…) and doubles start-up time. Its image codecs and video I/O
// are not linked either: Debian builds them with GDAL and its tree, 0.2-0.3 s of dynamic
// loading at every start; video is read and written through FFmpeg, images through libpng and
// libjpeg (and FFmpeg for other formats), and OpenCV's videoio is opened only for
// `run --backend opencv`. dlib-1.pc lists bare .so paths that SwiftPM rejects, so dlib, BLAS and
// LAPACK are named here too. See README "Dependencies".
let openCVModules = [
    "opencv_core", "opencv_imgproc", "opencv_highgui",
    "opencv_features2d", "opencv_calib3d", "opencv_objdetect", "opencv_video", "opencv_flann",
]

let package = Package(
    name: "HeritageLens",
    products: [
        .executable(name: "heritage-lens", targets: ["heritage-lens"]),
        .library(name: "HeritageLens", targets: ["HeritageLens"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        // The live server (--serve). No default traits: they pull in swift-configuration.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    ],
    targets: [
        // A plain C header over OpenCV, dlib and libv4l2 (and signals, the frame gate, affinity).
        .target(
            name: "CBridge",
            cxxSettings: [
                .unsafeFlags(["-I/usr/include/opencv4"]),
                // dlib is header templates compiled into this target; at -O0 it is ~100x slower,
                // which would make debug test runs useless. The last -O wins.
                .unsafeFlags(["-O2"], .when(configuration: .debug)),
            ],
            linkerSettings: openCVModules.map { .linkedLibrary($0) } + [
                .linkedLibrary("dlib"), .linkedLibrary("blas"), .linkedLibrary("lapack"),
                .linkedLibrary("avformat"), .linkedLibrary("avcodec"), .linkedLibrary("avutil"), .linkedLibrary("swscale"),
                .linkedLibrary("v4l2"), .linkedLibrary("png"), .linkedLibrary("jpeg"), .linkedLibrary("m"), .linkedLibrary("pthread"),
            ]
        ),
        // Value types, protocols and math: no C, no I/O beyond plain files.
        .target(name: "HeritageCore"),
        // The only importer of CBridge: typed handles, typed choices and one error convention
        // (throws BridgeError with the bridge's message) over the C functions.
        .target(name: "HeritageBridge", dependencies: ["CBridge", "HeritageCore"]),
        // Frame sources, sinks, trackers, renderer and the pipeline, over the bridge.
        .target(
            name: "HeritageLens",
            dependencies: [
                "HeritageBridge", "HeritageCore",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Evaluation sequences and scoring, generated sample scenes, bench recording and reports:
        // what the commands measure with, kept out of the library its users link.
        .target(
            name: "HeritageTooling",
            dependencies: ["HeritageLens", "HeritageCore", .product(name: "Logging", package: "swift-log")]
        ),
        // The live server (--serve): viewer page, MJPEG, anchors over WebSocket. Its own target so
        // the library does not depend on Hummingbird.
        .target(
            name: "HeritageServe",
            dependencies: [
                "HeritageLens", "HeritageCore",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .executableTarget(
            name: "heritage-lens",
            dependencies: [
                "HeritageLens", "HeritageCore", "HeritageServe", "HeritageTooling",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(name: "HeritageCoreTests", dependencies: ["HeritageCore"]),
        .testTarget(name: "HeritageServeTests", dependencies: ["HeritageServe", "HeritageLens", "HeritageCore"]),
        .testTarget(name: "HeritageLensTests", dependencies: ["HeritageLens", "HeritageBridge", "HeritageCore", "HeritageTooling"],
                    exclude: ["Fuzz/Corpus"]),
    ],
    cxxLanguageStandard: .cxx17
)
