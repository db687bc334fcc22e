import CBridge

/// The process's stop signals (SIGINT, SIGTERM, SIGHUP, SIGQUIT). The first one sets a flag that
/// runs poll to finish cleanly (through `StopRequest`); a second one exits at once with 128 + the
/// first signal. Handlers are C because only async-signal-safe code may run in them.
public enum ProcessSignals {
    /// Installs the handlers, unblocks the signals (a blocked mask is inherited) and ignores
    /// SIGPIPE, so writes to a closed pipe fail with EPIPE instead of killing the process.
    public static func installStopHandlers() { cb_install_stop_handlers() }

    /// SIGQUIT quits with a core dump (status 131) as Unix programs do, instead of the Swift
    /// runtime's crash report after which the program went on.
    public static func restoreDefaultQuit() { cb_default_quit_signal() }

    /// Whether a stop signal (or `requestStop`) came.
    public static var stopRequested: Bool { cb_stop_requested() != 0 }

    /// The first stop signal received, nil when none.
    public static var firstStopSignal: Int32? {
        let s = cb_stop_signal()
        return s > 0 ? s : nil
    }

    /// Sets the flag as a signal would, for every run of the process (a batch's workers).
    public static func requestStop() { cb_request_stop() }

    /// For a process without stop handlers that has moved itself into cgroup `group`: SIGINT,
    /// SIGTERM or SIGHUP first move it back (its id written to `parentProcs`) and remove the
    /// group, then end it as the signal would have.
    public static func leaveCgroupOnStop(parentProcs: String, group: String) {
        cb_leave_cgroup_on_stop(parentProcs, group)
    }
}
