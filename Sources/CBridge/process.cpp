// Errors, threads, logging and signals.
#include "internal.hpp"
#include <atomic>
#include <csignal>
#include <opencv2/core/utils/logger.hpp>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <pthread.h>
#include <sched.h>
#include <sys/syscall.h>
#include <sys/resource.h>
#include <ctime>
#include <unistd.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <cstdio>

extern "C" {
#include <libavutil/log.h>
}

namespace cbridge {
bool library_logs = false;
static thread_local std::string last_error;
void set_error(const std::string &message) { last_error = message; }
void clear_error() { last_error.clear(); }
}  // namespace cbridge

// Quiet from the start, for every command: OpenCV's "[ERROR:0@...] persistence.cpp" lines and
// FFmpeg's notes are not for our users unless they ask (--library-logs), or set OpenCV's own
// variable.
static const bool quiet_libraries = [] {
    if (!std::getenv("OPENCV_LOG_LEVEL")) cb_set_log_level(1);
    return true;
}();

extern "C" {

const char *cb_last_error(void) { return cbridge::last_error.c_str(); }

void cb_set_num_threads(int32_t n) { cv::setNumThreads(n); }

void cb_set_log_level(int32_t level) {
    using namespace cv::utils::logging;
    static const LogLevel levels[] = {LOG_LEVEL_SILENT, LOG_LEVEL_FATAL, LOG_LEVEL_ERROR,
                                      LOG_LEVEL_WARNING, LOG_LEVEL_INFO, LOG_LEVEL_DEBUG};
    if (level < 0) level = 0;
    if (level > 5) level = 5;
    setLogLevel(levels[level]);
    cbridge::library_logs = level >= 3;
    // FFmpeg's own messages ("moov atom not found") go through av_log: our writer's directly,
    // OpenCV's reader sets it from this variable when it first loads FFmpeg. A user's own
    // setting wins.
    setenv("OPENCV_FFMPEG_LOGLEVEL", level >= 3 ? "24" : "-8", 0);
    av_log_set_level(level >= 3 ? AV_LOG_WARNING : AV_LOG_QUIET);
}

const char *cb_opencv_version(void) { return CV_VERSION; }

const char *cb_opencv_build_information(void) {
    static const std::string info = cv::getBuildInformation();
    return info.c_str();
}

int32_t cb_current_thread_id(void) { return int32_t(syscall(SYS_gettid)); }

void cb_name_current_thread(const char *name) {
    char shortened[16] = {0};
    std::strncpy(shortened, name, sizeof shortened - 1);
    pthread_setname_np(pthread_self(), shortened);
}

int32_t cb_set_thread_background(int32_t tid, int32_t nice) {
    // Nice 10: a tenth of a core the frame thread or another program also wants, all of an idle
    // one. Keeping detection out of frames is the frame gate's job (gate.cpp). SCHED_IDLE was
    // tried first: it starves completely next to another busy program, and an unprivileged
    // thread cannot leave it again (RLIMIT_NICE is 0 by default), so it could not be lifted.
    // The fair class explicitly: under `chrt -f` the thread would inherit real-time priority.
    sched_param param{};
    if (sched_setscheduler(pid_t(tid), SCHED_OTHER, &param) != 0) {
        cbridge::set_error(std::string("sched_setscheduler(SCHED_OTHER): ") + std::strerror(errno));
        return -1;
    }
    if (nice < 1 || nice > 19) {
        cbridge::set_error("a background thread's nice value is 1-19");
        return -1;
    }
    if (setpriority(PRIO_PROCESS, id_t(tid), nice) != 0) {
        cbridge::set_error("setpriority(" + std::to_string(nice) + "): " + std::strerror(errno));
        return -1;
    }
    return 0;
}

int32_t cb_allowed_cpus(int32_t *out, int32_t capacity) {
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) != 0) {
        cbridge::set_error(std::string("sched_getaffinity: ") + std::strerror(errno));
        return -1;
    }
    int32_t n = 0;
    for (int cpu = 0; cpu < CPU_SETSIZE && n < capacity; ++cpu)
        if (CPU_ISSET(cpu, &set)) out[n++] = cpu;
    return n;
}

int32_t cb_pin_to_cpu_list(const int32_t *cpus, int32_t count) {
    cpu_set_t set;
    CPU_ZERO(&set);
    for (int i = 0; i < count; ++i) CPU_SET(cpus[i], &set);
    if (sched_setaffinity(0, sizeof set, &set) != 0) {
        cbridge::set_error(std::string("sched_setaffinity: ") + std::strerror(errno));
        return -1;
    }
    return 0;
}

int64_t cb_peak_rss_kb(void) {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return u.ru_maxrss;
}

int64_t cb_process_cpu_ns(void) {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return int64_t(ts.tv_sec) * 1000000000LL + ts.tv_nsec;
}

// noinline: callgrind must see this frame to toggle collection on it.
__attribute__((noinline)) void cb_bench_section(void (*fn)(void *), void *context) {
    fn(context);
    asm volatile("" ::: "memory");
}

static volatile std::sig_atomic_t stop_count = 0;
static volatile std::sig_atomic_t stop_signal = 0;

static void on_stop_signal(int sig) {
    if (stop_count == 0) stop_signal = sig;
    stop_count = stop_count + 1;
    if (stop_count >= 2) {
        // Nothing here may allocate or lock; what reached the disk stays: every whole anchors
        // and metrics line, and the video up to its last flushed fragment.
        static const char msg[] =
            "\nheritage-lens: second stop signal: exiting now; the outputs keep what was flushed "
            "(a video, all but its last fraction of a second)\n";
        ssize_t ignored = write(2, msg, sizeof msg - 1);
        (void)ignored;
        _exit(128 + (stop_signal ? stop_signal : sig));
    }
}

// A blocked signal stays pending forever, handler or not, and the mask is inherited: a parent
// that blocks them (a test runner's thread, some supervisors) made Ctrl-C and SIGTERM do nothing.
static void unblock(std::initializer_list<int> signals) {
    sigset_t set;
    sigemptyset(&set);
    for (int sig : signals) sigaddset(&set, sig);
    pthread_sigmask(SIG_UNBLOCK, &set, nullptr);
}

void cb_install_stop_handlers(void) {
    struct sigaction sa = {};
    sa.sa_handler = on_stop_signal;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT}) sigaction(sig, &sa, nullptr);
    unblock({SIGINT, SIGTERM, SIGHUP, SIGQUIT});
    // A closed pipe is an EPIPE from write(), which the writer reports, not a silent death.
    signal(SIGPIPE, SIG_IGN);
}

void cb_default_quit_signal(void) {
    signal(SIGQUIT, SIG_DFL);
    unblock({SIGINT, SIGTERM, SIGHUP, SIGQUIT});
}

static char cgroup_parent_procs[512];
static char cgroup_group[512];
static char cgroup_pid[32];
static size_t cgroup_pid_length = 0;

static void on_stop_leave_cgroup(int sig) {
    // Only system calls here: the process moves back to its parent group (every thread with it),
    // which leaves its own group empty, so that it can be removed.
    int fd = open(cgroup_parent_procs, O_WRONLY);
    if (fd >= 0) {
        ssize_t ignored = write(fd, cgroup_pid, cgroup_pid_length);
        (void)ignored;
        close(fd);
    }
    rmdir(cgroup_group);
    signal(sig, SIG_DFL);
    raise(sig);
}

void cb_leave_cgroup_on_stop(const char *parent_procs, const char *group) {
    snprintf(cgroup_parent_procs, sizeof cgroup_parent_procs, "%s", parent_procs);
    snprintf(cgroup_group, sizeof cgroup_group, "%s", group);
    int n = snprintf(cgroup_pid, sizeof cgroup_pid, "%d\n", static_cast<int>(getpid()));
    cgroup_pid_length = n > 0 ? static_cast<size_t>(n) : 0;
    struct sigaction sa = {};
    sa.sa_handler = on_stop_leave_cgroup;
    sigemptyset(&sa.sa_mask);
    for (int sig : {SIGINT, SIGTERM, SIGHUP}) sigaction(sig, &sa, nullptr);
    unblock({SIGINT, SIGTERM, SIGHUP});
}

int32_t cb_stop_requested(void) { return stop_count > 0 ? 1 : 0; }
int32_t cb_stop_signal(void) { return stop_signal; }
void cb_request_stop(void) { if (stop_count == 0) stop_count = 1; }

}  // extern "C"
