import CBridge

/// The process's CPUs, CPU time and memory, as measuring commands report them.
public enum ProcessResources {
    /// Peak resident set size, in megabytes.
    public static var peakResidentMegabytes: Double { Double(cb_peak_rss_kb()) / 1024 }

    /// CPU time of the whole process (all threads), in nanoseconds.
    public static var cpuNanoseconds: Int64 { cb_process_cpu_ns() }

    /// The CPUs this process may run on (taskset, cgroups), ascending.
    public static func allowedCPUs() throws(BridgeError) -> [Int] {
        var cpus = [Int32](repeating: 0, count: 1024)
        let n = cb_allowed_cpus(&cpus, Int32(cpus.count))
        guard n > 0 else { throw BridgeError.last("read this process's CPU affinity") }
        return cpus.prefix(Int(n)).map(Int.init)
    }

    /// Restricts the process's threads (this one and those started later) to `cpus`.
    public static func pin(to cpus: [Int]) throws(BridgeError) {
        let list = cpus.map(Int32.init)
        if cb_pin_to_cpu_list(list, Int32(list.count)) != 0 { throw BridgeError.last("pin to CPUs") }
    }
}

/// OpenCV's process-wide settings and identity.
public enum OpenCVRuntime {
    /// OpenCV's worker threads (1: single-threaded, as weak hardware runs).
    public static func setThreadCount(_ n: Int) { cb_set_num_threads(Int32(n)) }

    /// OpenCV's own log: warnings and worse, or fatal errors only.
    public static func setLogging(warnings: Bool) { cb_set_log_level(warnings ? 3 : 1) }

    public static var version: String { String(cString: cb_opencv_version()) }

    /// getBuildInformation(), line by line.
    public static var buildInformation: [Substring] {
        String(cString: cb_opencv_build_information()).split(separator: "\n")
    }
}

/// A window for callgrind: `body` runs inside one call of the C function cb_bench_section, which
/// `--toggle-collect=cb_bench_section --dump-after=cb_bench_section` count and dump on its own.
public enum ProfilerSection {
    public static func run(_ body: () -> Void) {
        withoutActuallyEscaping(body) { body in
            final class Box { let body: () -> Void; init(_ b: @escaping () -> Void) { body = b } }
            let box = Box(body)
            cb_bench_section({ context in
                Unmanaged<Box>.fromOpaque(context!).takeUnretainedValue().body()
            }, Unmanaged.passUnretained(box).toOpaque())
        }
    }
}
