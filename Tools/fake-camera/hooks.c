/* The C library calls a V4L2 program makes, caught on their way: the emulated device's paths and
 * descriptors go to device.c, everything else goes on to the C library unchanged. libv4l2 and
 * libv4lconvert issue their requests through syscall(SYS_ioctl, …), syscall(SYS_mmap, …) and
 * friends rather than ioctl() and mmap(), so syscall() is caught too. select() and epoll need no
 * hook: the descriptors handed out are eventfds kept readable exactly when the device is. */
#include "fakecam.h"


#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/sysmacros.h>
#include <sys/syscall.h>
#include <unistd.h>

struct fc_libc fc_libc;

/* Only the interposed C library functions leave the library (built with -fvisibility=hidden). */
#define EXPORT __attribute__((visibility("default")))

static int (*real_openat)(int, const char *, int, ...);
static int (*real_ioctl)(int, unsigned long, ...);
static int (*real_stat)(const char *, struct stat *);
static int (*real_lstat)(const char *, struct stat *);
static int (*real_fstat)(int, struct stat *);
static int (*real_fstatat)(int, const char *, struct stat *, int);
static int (*real_statx)(int, const char *, int, unsigned, struct statx *);
static int (*real_xstat)(int, const char *, struct stat *);
static int (*real_lxstat)(int, const char *, struct stat *);
static int (*real_fxstat)(int, int, struct stat *);
static int (*real_access)(const char *, int);
static int (*real_faccessat)(int, const char *, int, int);
static DIR *(*real_opendir)(const char *);
static struct dirent *(*real_readdir)(DIR *);
static int (*real_closedir)(DIR *);
static int (*real_poll)(struct pollfd *, nfds_t, int);
static int (*real_ppoll)(struct pollfd *, nfds_t, const struct timespec *, const sigset_t *);
static int (*real_dup)(int);
static int (*real_dup2)(int, int);
static int (*real_dup3)(int, int, int);
static int (*real_fcntl)(int, int, ...);
static FILE *(*real_fopen)(const char *, const char *);

static pthread_once_t resolved = PTHREAD_ONCE_INIT;

static void resolve(void) {
#define NEXT(var, name) var = dlsym(RTLD_NEXT, name)
    NEXT(fc_libc.open, "open");
    NEXT(fc_libc.close, "close");
    NEXT(fc_libc.read, "read");
    NEXT(fc_libc.write, "write");
    NEXT(fc_libc.mmap, "mmap");
    NEXT(fc_libc.munmap, "munmap");
    NEXT(fc_libc.syscall, "syscall");
    NEXT(real_openat, "openat");
    NEXT(real_ioctl, "ioctl");
    NEXT(real_stat, "stat");
    NEXT(real_lstat, "lstat");
    NEXT(real_fstat, "fstat");
    NEXT(real_fstatat, "fstatat");
    NEXT(real_statx, "statx");
    NEXT(real_xstat, "__xstat");
    NEXT(real_lxstat, "__lxstat");
    NEXT(real_fxstat, "__fxstat");
    NEXT(real_access, "access");
    NEXT(real_faccessat, "faccessat");
    NEXT(real_opendir, "opendir");
    NEXT(real_readdir, "readdir");
    NEXT(real_closedir, "closedir");
    NEXT(real_poll, "poll");
    NEXT(real_ppoll, "ppoll");
    NEXT(real_dup, "dup");
    NEXT(real_dup2, "dup2");
    NEXT(real_dup3, "dup3");
    NEXT(real_fcntl, "fcntl");
    NEXT(real_fopen, "fopen");
#undef NEXT
}

#define READY() pthread_once(&resolved, resolve)

__attribute__((constructor)) static void fakecam_load(void) {
    READY();
    fc_device_init();
}

static bool ours(const char *path) { return fc_enabled && path && path[0] == '/' && fc_path_kind(path) != 0; }

static int fail(int error) {
    errno = error;
    return -1;
}

/* ------------------------------------------------------------------ open, close */

static mode_t mode_arg(int flags, va_list ap) {
    return (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE ? (mode_t)va_arg(ap, int) : 0;
}

static int open_at(int dirfd, const char *path, int flags, mode_t mode) {
    READY();
    if (ours(path)) return fc_open(path, flags);
    return real_openat(dirfd, path, flags, mode);
}

EXPORT int open(const char *path, int flags, ...) {
    va_list ap;
    va_start(ap, flags);
    mode_t mode = mode_arg(flags, ap);
    va_end(ap);
    return open_at(AT_FDCWD, path, flags, mode);
}

EXPORT int open64(const char *path, int flags, ...) __attribute__((alias("open")));

EXPORT int __open_2(const char *path, int flags) { return open(path, flags); }
EXPORT int __open64_2(const char *path, int flags) { return open(path, flags); }

EXPORT int openat(int dirfd, const char *path, int flags, ...) {
    va_list ap;
    va_start(ap, flags);
    mode_t mode = mode_arg(flags, ap);
    va_end(ap);
    return open_at(dirfd, path, flags, mode);
}

EXPORT int openat64(int dirfd, const char *path, int flags, ...) __attribute__((alias("openat")));

EXPORT int __openat_2(int dirfd, const char *path, int flags) { return openat(dirfd, path, flags); }
EXPORT int __openat64_2(int dirfd, const char *path, int flags) { return openat(dirfd, path, flags); }

EXPORT int close(int fd) {
    READY();
    if (fc_handle_for(fd)) return fc_close(fd);
    return fc_libc.close(fd);
}

/* uvcvideo has no read() or write(): the kernel answers EINVAL. */
EXPORT ssize_t read(int fd, void *buf, size_t count) {
    READY();
    if (fc_handle_for(fd)) return fail(EINVAL);
    return fc_libc.read(fd, buf, count);
}

EXPORT ssize_t write(int fd, const void *buf, size_t count) {
    READY();
    if (fc_handle_for(fd)) return fail(EINVAL);
    return fc_libc.write(fd, buf, count);
}

EXPORT int dup(int fd) {
    READY();
    int r = real_dup(fd);
    return r >= 0 && fc_handle_for(fd) ? fc_dup(fd, r) : r;
}

EXPORT int dup2(int fd, int newfd) {
    READY();
    int r = real_dup2(fd, newfd);
    return r >= 0 ? fc_dup(fd, r) : r;
}

EXPORT int dup3(int fd, int newfd, int flags) {
    READY();
    int r = real_dup3(fd, newfd, flags);
    return r >= 0 ? fc_dup(fd, r) : r;
}

EXPORT int fcntl(int fd, int cmd, ...) {
    READY();
    va_list ap;
    va_start(ap, cmd);
    void *arg = va_arg(ap, void *);
    va_end(ap);
    int r = real_fcntl(fd, cmd, arg);
    if (r >= 0 && (cmd == F_DUPFD || cmd == F_DUPFD_CLOEXEC) && fc_handle_for(fd)) return fc_dup(fd, r);
    return r;
}

EXPORT int fcntl64(int fd, int cmd, ...) __attribute__((alias("fcntl")));

/* ------------------------------------------------------------------ ioctl, mmap, syscall */

EXPORT int ioctl(int fd, unsigned long request, ...) {
    READY();
    va_list ap;
    va_start(ap, request);
    void *arg = va_arg(ap, void *);
    va_end(ap);
    if (fc_handle_for(fd)) return fc_ioctl(fd, request, arg);
    return real_ioctl(fd, request, arg);
}

EXPORT void *mmap(void *addr, size_t length, int prot, int flags, int fd, off_t offset) {
    READY();
    if (!(flags & MAP_ANONYMOUS) && fc_handle_for(fd)) return fc_mmap(addr, length, prot, flags, fd, offset);
    return fc_libc.mmap(addr, length, prot, flags, fd, offset);
}

EXPORT void *mmap64(void *addr, size_t length, int prot, int flags, int fd, off_t offset) __attribute__((alias("mmap")));

EXPORT int munmap(void *addr, size_t length) {
    READY();
    int r = fc_libc.munmap(addr, length);
    if (r == 0) fc_munmap_seen(addr, length);
    return r;
}

EXPORT long syscall(long number, ...) {
    READY();
    va_list ap;
    va_start(ap, number);
    long a[6];
    for (int i = 0; i < 6; ++i) a[i] = va_arg(ap, long);
    va_end(ap);
    switch (number) {
    case SYS_ioctl:
        if (fc_handle_for((int)a[0])) return fc_ioctl((int)a[0], (unsigned long)a[1], (void *)a[2]);
        break;
    case SYS_mmap:
        if (!(a[3] & MAP_ANONYMOUS) && fc_handle_for((int)a[4]))
            return (long)fc_mmap((void *)a[0], (size_t)a[1], (int)a[2], (int)a[3], (int)a[4], (off_t)a[5]);
        break;
    case SYS_munmap: return munmap((void *)a[0], (size_t)a[1]);
    case SYS_close:
        if (fc_handle_for((int)a[0])) return fc_close((int)a[0]);
        break;
    case SYS_read:
    case SYS_write:
        if (fc_handle_for((int)a[0])) return fail(EINVAL);
        break;
    case SYS_open:
        if (ours((const char *)a[0])) return fc_open((const char *)a[0], (int)a[1]);
        break;
    case SYS_openat:
        if (ours((const char *)a[1])) return fc_open((const char *)a[1], (int)a[2]);
        break;
    case SYS_dup: return dup((int)a[0]);
    case SYS_dup2: return dup2((int)a[0], (int)a[1]);
    case SYS_dup3: return dup3((int)a[0], (int)a[1], (int)a[2]);
    default: break;
    }
    return fc_libc.syscall(number, a[0], a[1], a[2], a[3], a[4], a[5]);
}

/* ------------------------------------------------------------------ stat, access */

EXPORT int stat(const char *path, struct stat *st) {
    READY();
    int r = fc_stat_path(path, st);
    return r <= 0 ? r : real_stat(path, st);
}

EXPORT int lstat(const char *path, struct stat *st) {
    READY();
    int r = fc_stat_path(path, st);
    return r <= 0 ? r : real_lstat(path, st);
}

EXPORT int fstat(int fd, struct stat *st) {
    READY();
    int r = fc_fstat(fd, st);
    return r <= 0 ? r : real_fstat(fd, st);
}

/* The C library declares paths non-null, so a compiler may drop a test for NULL; callers pass
 * NULL with AT_EMPTY_PATH all the same. The pointer goes through an empty asm to keep the test. */
static bool empty_path(const char *path) {
    __asm__("" : "+r"(path));
    return !path || !*path;
}

EXPORT int fstatat(int dirfd, const char *path, struct stat *st, int flags) {
    READY();
    int r = (flags & AT_EMPTY_PATH) && empty_path(path) ? fc_fstat(dirfd, st) : fc_stat_path(path, st);
    return r <= 0 ? r : real_fstatat(dirfd, path, st, flags);
}

_Static_assert(sizeof(struct stat) == sizeof(struct stat64), "the 64-bit stat calls share struct stat");
EXPORT int stat64(const char *path, struct stat64 *st) { return stat(path, (struct stat *)st); }
EXPORT int lstat64(const char *path, struct stat64 *st) { return lstat(path, (struct stat *)st); }
EXPORT int fstat64(int fd, struct stat64 *st) { return fstat(fd, (struct stat *)st); }
EXPORT int fstatat64(int dirfd, const char *path, struct stat64 *st, int flags) {
    return fstatat(dirfd, path, (struct stat *)st, flags);
}

/* The pre-2.33 glibc entry points, for programs built against an older glibc. */
EXPORT int __xstat(int ver, const char *path, struct stat *st) {
    READY();
    int r = fc_stat_path(path, st);
    return r <= 0 ? r : real_xstat(ver, path, st);
}

EXPORT int __lxstat(int ver, const char *path, struct stat *st) {
    READY();
    int r = fc_stat_path(path, st);
    return r <= 0 ? r : real_lxstat(ver, path, st);
}

EXPORT int __fxstat(int ver, int fd, struct stat *st) {
    READY();
    int r = fc_fstat(fd, st);
    return r <= 0 ? r : real_fxstat(ver, fd, st);
}

EXPORT int __xstat64(int ver, const char *path, struct stat64 *st) { return __xstat(ver, path, (struct stat *)st); }
EXPORT int __lxstat64(int ver, const char *path, struct stat64 *st) { return __lxstat(ver, path, (struct stat *)st); }
EXPORT int __fxstat64(int ver, int fd, struct stat64 *st) { return __fxstat(ver, fd, (struct stat *)st); }

EXPORT int statx(int dirfd, const char *path, int flags, unsigned mask, struct statx *out) {
    READY();
    struct stat st;
    int r = (flags & AT_EMPTY_PATH) && empty_path(path) ? fc_fstat(dirfd, &st) : fc_stat_path(path, &st);
    if (r > 0) return real_statx(dirfd, path, flags, mask, out);
    if (r < 0) return r;
    memset(out, 0, sizeof *out);
    out->stx_mask = STATX_BASIC_STATS;
    out->stx_blksize = (uint32_t)st.st_blksize;
    out->stx_nlink = (uint32_t)st.st_nlink;
    out->stx_uid = st.st_uid;
    out->stx_gid = st.st_gid;
    out->stx_mode = (uint16_t)st.st_mode;
    out->stx_ino = st.st_ino;
    out->stx_atime = (struct statx_timestamp){st.st_atim.tv_sec, (uint32_t)st.st_atim.tv_nsec, 0};
    out->stx_mtime = out->stx_ctime = out->stx_atime;
    out->stx_rdev_major = major(st.st_rdev);
    out->stx_rdev_minor = minor(st.st_rdev);
    out->stx_dev_major = major(st.st_dev);
    out->stx_dev_minor = minor(st.st_dev);
    return 0;
}

/* Access is granted as a desktop session's ACL on /dev/videoN grants it. */
static int node_access(const char *path, int mode) {
    struct stat st;
    int r = fc_stat_path(path, &st);
    if (r != 0) return r;
    return (mode & X_OK) ? fail(EACCES) : 0;
}

EXPORT int access(const char *path, int mode) {
    READY();
    int r = node_access(path, mode);
    return r <= 0 ? r : real_access(path, mode);
}

EXPORT int faccessat(int dirfd, const char *path, int mode, int flags) {
    READY();
    int r = node_access(path, mode);
    return r <= 0 ? r : real_faccessat(dirfd, path, mode, flags);
}

/* ------------------------------------------------------------------ sysfs */

/* Tools such as v4l2-ctl tell a video node from others by its sysfs uevent file. */
EXPORT FILE *fopen(const char *path, const char *mode) {
    READY();
    unsigned major_number, minor_number;
    char rest[16];
    if (fc_enabled && path && sscanf(path, "/sys/dev/char/%u:%u/%15s", &major_number, &minor_number, rest) == 3 &&
        major_number == 81 && strcmp(rest, "uevent") == 0) {
        char node[32];
        snprintf(node, sizeof node, "/dev/video%u", minor_number);
        struct stat st;
        if (fc_stat_path(node, &st) == 0) {
            char text[128];
            int n = snprintf(text, sizeof text, "MAJOR=81\nMINOR=%u\nDEVNAME=video%u\n", minor_number, minor_number);
            /* A real descriptor: C++ streams read through fileno(). */
            int fd = memfd_create("fakecam-uevent", MFD_CLOEXEC);
            if (fd < 0 || fc_libc.write(fd, text, (size_t)n) != n || lseek(fd, 0, SEEK_SET) != 0) {
                if (fd >= 0) fc_libc.close(fd);
                return NULL;
            }
            return fdopen(fd, "r");
        }
    }
    return real_fopen(path, mode);
}

EXPORT FILE *fopen64(const char *path, const char *mode) { return fopen(path, mode); }

/* ------------------------------------------------------------------ /dev listings */

typedef struct {
    DIR *dir;
    int count, next;
    char names[2][32];
    struct dirent entry;
} dev_listing;

static dev_listing listings[8];
static pthread_mutex_t listings_lock = PTHREAD_MUTEX_INITIALIZER;

_Static_assert(sizeof(struct dirent) == sizeof(struct dirent64), "readdir64 shares readdir's entries");

EXPORT DIR *opendir(const char *name) {
    READY();
    DIR *dir = real_opendir(name);
    if (dir && fc_enabled && (strcmp(name, "/dev") == 0 || strcmp(name, "/dev/") == 0)) {
        pthread_mutex_lock(&listings_lock);
        for (size_t i = 0; i < sizeof listings / sizeof listings[0]; ++i) {
            if (!listings[i].dir) {
                listings[i].dir = dir;
                listings[i].next = 0;
                listings[i].count = fc_dev_entries(listings[i].names, 2);
                break;
            }
        }
        pthread_mutex_unlock(&listings_lock);
    }
    return dir;
}

static dev_listing *listing_for(DIR *dir) {
    for (size_t i = 0; i < sizeof listings / sizeof listings[0]; ++i)
        if (listings[i].dir == dir) return &listings[i];
    return NULL;
}

EXPORT struct dirent *readdir(DIR *dir) {
    READY();
    pthread_mutex_lock(&listings_lock);
    dev_listing *l = listing_for(dir);
    pthread_mutex_unlock(&listings_lock);
    for (;;) {
        struct dirent *e = real_readdir(dir);
        if (!l) return e;
        if (e) {
            /* The emulated nodes stand in for real ones of the same name. */
            bool shadowed = false;
            for (int i = 0; i < l->count; ++i) shadowed |= strcmp(e->d_name, l->names[i]) == 0;
            if (shadowed) continue;
            return e;
        }
        if (l->next >= l->count) return NULL;
        memset(&l->entry, 0, sizeof l->entry);
        l->entry.d_ino = 1000 + (ino_t)l->next;
        l->entry.d_reclen = sizeof l->entry;
        l->entry.d_type = DT_CHR;
        snprintf(l->entry.d_name, sizeof l->entry.d_name, "%s", l->names[l->next++]);
        return &l->entry;
    }
}

EXPORT struct dirent64 *readdir64(DIR *dir) { return (struct dirent64 *)readdir(dir); }

EXPORT int closedir(DIR *dir) {
    READY();
    pthread_mutex_lock(&listings_lock);
    dev_listing *l = listing_for(dir);
    if (l) l->dir = NULL;
    pthread_mutex_unlock(&listings_lock);
    return real_closedir(dir);
}

/* ------------------------------------------------------------------ poll */

/* The eventfds wake poll() at the right moments; the flags are then made those a V4L2 device
 * gives (POLLERR when not streaming, POLLERR|POLLHUP once unplugged) instead of an eventfd's. */
static int fix_revents(struct pollfd *fds, nfds_t n, int r) {
    if (r < 0 || !fc_enabled) return r;
    int count = 0;
    for (nfds_t i = 0; i < n; ++i) {
        if (fc_handle_for(fds[i].fd)) fds[i].revents = fc_poll_events(fds[i].fd, fds[i].events);
        count += fds[i].revents != 0;
    }
    return count;
}

EXPORT int poll(struct pollfd *fds, nfds_t n, int timeout) {
    READY();
    return fix_revents(fds, n, real_poll(fds, n, timeout));
}

EXPORT int __poll_chk(struct pollfd *fds, nfds_t n, int timeout, size_t size) {
    (void)size;
    return poll(fds, n, timeout);
}

EXPORT int ppoll(struct pollfd *fds, nfds_t n, const struct timespec *timeout, const sigset_t *mask) {
    READY();
    return fix_revents(fds, n, real_ppoll(fds, n, timeout, mask));
}

EXPORT int __ppoll_chk(struct pollfd *fds, nfds_t n, const struct timespec *timeout, const sigset_t *mask, size_t size) {
    (void)size;
    return ppoll(fds, n, timeout, mask);
}
