// The frame gate: background detection threads hold still while a frame is in progress.
//
// Detection runs on background threads on the frame thread's core, meant to use only the time
// between frames. Priorities cannot say that: at SCHED_IDLE (tried first) Linux's EEVDF scheduler
// still handed a detection thread the core at a tick once the frame thread's slice was used, until
// the next tick (4 ms at HZ=250), in the middle of a 5 ms frame; any nice value does the same. So
// the threads are stopped from running during frames instead:
//
// - a job waits at its start while a frame is in progress (cb_gate_wait);
// - a paced source announces a frame a few ms before it is due (cb_frame_expected), so that the
//   threads are asleep when it arrives: a waking frame thread that finds a detection thread
//   running can wait for the next tick too;
// - a job already running is sent a signal when a frame begins and at each stage boundary; its
//   handler waits until the frame ends, so the thread sleeps instead of being runnable.
//
// A thread stopped in the middle of arbitrary code could hold a lock the frame thread needs (the
// allocator's, the Swift runtime's), so the handler only waits when the interrupted instruction
// lies in compute code that holds no such lock: this executable's own code (the bridge, dlib's
// templates, our Swift code -- whose background work takes no lock the frame thread takes),
// OpenCV's libraries and libm; never libc, libstdc++, the Swift runtime or Foundation. Elsewhere
// it returns at once and the next stage boundary tries again. Every wait also ends after
// `kBackstopNanoseconds`, so a lock missed here costs one late frame, never a hang.
//
// Measured (bench, low tier, one core): end-to-end p95 9.5 -> 6.7 ms, p99 10.6-11.9 -> 7.0-7.4 ms;
// 95 % of the signals found the thread in such code and paused it.
#include "internal.hpp"
#include <algorithm>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <pthread.h>
#include <cstring>
#include <ctime>
#include <link.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

namespace {

constexpr int kSlots = 16;
constexpr int kRanges = 32;
constexpr long kBackstopNanoseconds = 40 * 1000 * 1000;

struct Slot {
    std::atomic<int32_t> tid{0};
    std::atomic<int32_t> working{0};
    std::atomic<int32_t> signalled{0};
    std::atomic<int32_t> paused{0};
    // The frame thread let this thread's job through the frames (cb_gate_release): it is not
    // paused again and a pause in progress ends. Cleared by the thread between jobs.
    std::atomic<int32_t> released{0};
};

struct Range {
    uintptr_t begin, end;
};

Slot slots[kSlots];
std::atomic<int32_t> frames_in_progress{0};
// Until then (CLOCK_MONOTONIC ns) a frame announced by a paced source is about to arrive. A time,
// not a count: a source read without a pipeline leaves nothing behind.
std::atomic<int64_t> quiet_until{0};
// Changes whenever the last frame in progress ends; waiters sleep on it.
std::atomic<uint32_t> generation{0};
std::atomic<int64_t> pauses{0};
Range safe[kRanges];
int safe_count = 0;
int pause_signal = 0;
pid_t process_id = 0;

long futex(std::atomic<uint32_t> *word, int op, uint32_t value, const timespec *timeout) {
    return syscall(SYS_futex, reinterpret_cast<uint32_t *>(word), op | FUTEX_PRIVATE_FLAG, value, timeout,
                   nullptr, 0);
}

int64_t now_ns() {
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return int64_t(ts.tv_sec) * 1000000000LL + ts.tv_nsec;
}

bool frame_near(int64_t now) {
    return frames_in_progress.load(std::memory_order_acquire) > 0 ||
           now < quiet_until.load(std::memory_order_acquire);
}

// Sleeps while a frame is in progress or announced, at most `limit` ns; with `slot`, not once the
// frame thread has released it. Async-signal-safe.
void wait_for_frame_end(int64_t limit, const Slot *slot = nullptr) {
    int64_t now = now_ns();
    int64_t deadline = now + limit;
    while (frame_near(now)) {
        if (slot && slot->released.load()) break;
        uint32_t seen = generation.load(std::memory_order_acquire);
        if (!frame_near(now)) break;
        int64_t until = deadline;
        if (frames_in_progress.load(std::memory_order_acquire) == 0)
            until = std::min(until, quiet_until.load(std::memory_order_acquire));
        int64_t left = until - now;
        if (left <= 0) break;
        timespec ts{time_t(left / 1000000000LL), long(left % 1000000000LL)};
        futex(&generation, FUTEX_WAIT, seen, &ts);
        now = now_ns();
        if (now >= deadline) break;
    }
}

bool is_safe(uintptr_t pc) {
    for (int i = 0; i < safe_count; ++i)
        if (pc >= safe[i].begin && pc < safe[i].end) return true;
    return false;
}

Slot *slot_of(pid_t tid) {
    for (auto &s : slots)
        if (s.tid.load(std::memory_order_relaxed) == tid) return &s;
    return nullptr;
}

void on_pause_signal(int, siginfo_t *, void *context) {
    int saved = errno;
    Slot *s = slot_of(pid_t(syscall(SYS_gettid)));
    if (s) {
        s->signalled.store(0, std::memory_order_release);
        auto *uc = static_cast<ucontext_t *>(context);
#if defined(__x86_64__)
        uintptr_t pc = uintptr_t(uc->uc_mcontext.gregs[REG_RIP]);
#elif defined(__aarch64__)
        uintptr_t pc = uintptr_t(uc->uc_mcontext.pc);
#else
        uintptr_t pc = 0;
#endif
        if (s->working.load(std::memory_order_acquire) && is_safe(pc) && frame_near(now_ns())) {
            s->paused.store(1, std::memory_order_release);
            pauses.fetch_add(1, std::memory_order_relaxed);
            wait_for_frame_end(kBackstopNanoseconds, s);
            s->paused.store(0, std::memory_order_release);
        }
    }
    errno = saved;
}

bool is_safe_module(const char *name) {
    if (name == nullptr || name[0] == '\0') return true;  // the executable itself
    const char *base = std::strrchr(name, '/');
    base = base ? base + 1 : name;
    // OpenCV's core is allowed: its locks guard one-time set-up (TLS slots, the allocator) that
    // the background threads have long done; its matrix code is where card recognition spends
    // much of its time. libm is pure arithmetic. LAPACK is not: it may be OpenBLAS underneath.
    // libjpeg: the MJPEG stream's encoding (it takes no locks).
    static const char *const allowed[] = {"libopencv_core.",     "libopencv_imgproc.", "libopencv_features2d.",
                                          "libopencv_objdetect.", "libopencv_video.",   "libopencv_calib3d.",
                                          "libjpeg.",             "libdlib.",           "libm."};
    for (const char *prefix : allowed)
        if (std::strncmp(base, prefix, std::strlen(prefix)) == 0) return true;
    return false;
}

int collect_ranges(dl_phdr_info *info, size_t, void *) {
    if (!is_safe_module(info->dlpi_name)) return 0;
    for (int i = 0; i < info->dlpi_phnum && safe_count < kRanges; ++i) {
        const auto &ph = info->dlpi_phdr[i];
        if (ph.p_type == PT_LOAD && (ph.p_flags & PF_X)) {
            uintptr_t begin = info->dlpi_addr + ph.p_vaddr;
            safe[safe_count++] = Range{begin, begin + ph.p_memsz};
        }
    }
    return 0;
}

bool install() {
    static bool done = [] {
        dl_iterate_phdr(collect_ranges, nullptr);
        process_id = getpid();
        pause_signal = SIGRTMIN + 4;
        struct sigaction sa {};
        sa.sa_sigaction = on_pause_signal;
        sa.sa_flags = SA_SIGINFO | SA_RESTART;
        sigemptyset(&sa.sa_mask);
        return sigaction(pause_signal, &sa, nullptr) == 0;
    }();
    return done;
}

void poke_workers() {
    for (auto &s : slots) {
        int32_t tid = s.tid.load(std::memory_order_acquire);
        if (tid == 0 || !s.working.load(std::memory_order_acquire) || s.paused.load(std::memory_order_acquire))
            continue;
        int32_t expected = 0;
        if (s.signalled.compare_exchange_strong(expected, 1))
            syscall(SYS_tgkill, process_id, tid, pause_signal);
    }
}

}  // namespace

extern "C" {

int32_t cb_gate_register_thread(void) {
    if (!install()) {
        cbridge::set_error(std::string("sigaction: ") + std::strerror(errno));
        return -1;
    }
    // Threads inherit their creator's signal mask, and libdispatch's workers (which Swift's
    // concurrency and test runners start threads from) block everything.
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, pause_signal);
    pthread_sigmask(SIG_UNBLOCK, &set, nullptr);
    int32_t tid = int32_t(syscall(SYS_gettid));
    for (int i = 0; i < kSlots; ++i) {
        int32_t expected = 0;
        if (slots[i].tid.compare_exchange_strong(expected, tid)) return i;
    }
    cbridge::set_error("frame gate: more than 16 background threads");
    return -1;
}

void cb_gate_unregister_thread(int32_t slot) {
    if (slot < 0 || slot >= kSlots) return;
    slots[slot].working.store(0);
    slots[slot].tid.store(0);
}

void cb_gate_set_working(int32_t slot, int32_t working) {
    if (slot < 0 || slot >= kSlots) return;
    Slot &s = slots[slot];
    // Sequentially consistent with cb_gate_release's stores: whichever runs first, a released
    // thread ends up not working.
    s.working.store(working ? 1 : 0);
    if (working && s.released.load()) s.working.store(0);
}

void cb_gate_wait(int64_t limit_ns) { wait_for_frame_end(limit_ns); }

void cb_gate_wait_slot(int32_t slot, int64_t limit_ns) {
    wait_for_frame_end(limit_ns, slot >= 0 && slot < kSlots ? &slots[slot] : nullptr);
}

void cb_gate_release(int32_t slot) {
    if (slot < 0 || slot >= kSlots) return;
    Slot &s = slots[slot];
    s.released.store(1);
    s.working.store(0);
    // Wakes every paused thread: the others find their frame still in progress and sleep again.
    generation.fetch_add(1, std::memory_order_acq_rel);
    futex(&generation, FUTEX_WAKE, INT32_MAX, nullptr);
}

void cb_gate_clear_release(int32_t slot) {
    if (slot < 0 || slot >= kSlots) return;
    slots[slot].released.store(0);
}

void cb_frame_expected(int64_t in_ns) {
    // Until a little after it is due: the frame thread begins it then.
    int64_t until = now_ns() + in_ns + 2000000;
    int64_t seen = quiet_until.load(std::memory_order_acquire);
    while (seen < until && !quiet_until.compare_exchange_weak(seen, until)) {}
    poke_workers();
}

void cb_frame_began(void) {
    frames_in_progress.fetch_add(1, std::memory_order_acq_rel);
    poke_workers();
}

void cb_frame_stage_ended(void) { poke_workers(); }

void cb_frame_ended(void) {
    if (frames_in_progress.fetch_sub(1, std::memory_order_acq_rel) == 1) {
        generation.fetch_add(1, std::memory_order_acq_rel);
        futex(&generation, FUTEX_WAKE, INT32_MAX, nullptr);
    }
}

int64_t cb_gate_pauses(void) { return pauses.load(std::memory_order_relaxed); }

}  // extern "C"
