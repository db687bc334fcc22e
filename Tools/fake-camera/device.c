/* The emulated camera's V4L2 side: what uvcvideo (formats, frame intervals, controls,
 * privileges) and videobuf2 (buffer states, streaming, poll) answer, with their error codes.
 * Where the two disagree with the V4L2 specification, the kernel's behaviour is kept, since that
 * is what programs meet; docs/camera.md lists what is not emulated. */
#include "fakecam.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

fc_device fc_dev = {.lock = PTHREAD_MUTEX_INITIALIZER};
bool fc_enabled;

/* ------------------------------------------------------------------ modes */

/* A common USB webcam: YUYV is limited by USB 2.0 bandwidth at larger sizes, MJPEG is not. */
const fc_format fc_formats[] = {
    {V4L2_PIX_FMT_YUYV, "YUYV 4:2:2", 0, 2, {
        {640, 480, 2, {{1, 30}, {1, 15}}},
        {1280, 720, 2, {{1, 10}, {1, 5}}},
    }},
    {V4L2_PIX_FMT_MJPEG, "Motion-JPEG", V4L2_FMT_FLAG_COMPRESSED, 3, {
        {640, 480, 2, {{1, 30}, {1, 15}}},
        {1280, 720, 2, {{1, 30}, {1, 15}}},
        {1920, 1080, 2, {{1, 30}, {1, 15}}},
    }},
};
const int fc_format_count = sizeof fc_formats / sizeof fc_formats[0];

/* The formats this camera offers, in order: all of them, or those FAKECAM_FORMATS names (a
 * YUYV-only camera, as many older and industrial ones are). */
static const fc_format *offered[sizeof fc_formats / sizeof fc_formats[0]];
static int offered_count;

uint32_t fc_max_frame_size(const fc_format *f, const fc_frame *fr) {
    (void)f;
    return fr->width * fr->height * 2; /* what UVC cameras report for both formats */
}

uint32_t fc_bytes_per_line(const fc_format *f, const fc_frame *fr) {
    return f->fourcc == V4L2_PIX_FMT_YUYV ? fr->width * 2 : 0;
}

static const fc_format *find_format(uint32_t fourcc) {
    for (int i = 0; i < offered_count; ++i)
        if (offered[i]->fourcc == fourcc) return offered[i];
    return NULL;
}

static const fc_frame *find_frame(const fc_format *f, uint32_t w, uint32_t h) {
    for (int i = 0; i < f->frame_count; ++i)
        if (f->frames[i].width == w && f->frames[i].height == h) return &f->frames[i];
    return NULL;
}

/* ------------------------------------------------------------------ controls */

typedef struct {
    uint32_t id, type;
    const char *name;
    int32_t minimum, maximum, step, default_value;
} fc_control;

/* In id order, class entries included, as VIDIOC_QUERYCTRL with V4L2_CTRL_FLAG_NEXT_CTRL walks them. */
static const fc_control controls[] = {
    {V4L2_CID_USER_CLASS, V4L2_CTRL_TYPE_CTRL_CLASS, "User Controls", 0, 0, 0, 0},
    {V4L2_CID_BRIGHTNESS, V4L2_CTRL_TYPE_INTEGER, "Brightness", 0, 255, 1, 128},
    {V4L2_CID_CONTRAST, V4L2_CTRL_TYPE_INTEGER, "Contrast", 0, 255, 1, 32},
    {V4L2_CID_SATURATION, V4L2_CTRL_TYPE_INTEGER, "Saturation", 0, 255, 1, 32},
    {V4L2_CID_AUTO_WHITE_BALANCE, V4L2_CTRL_TYPE_BOOLEAN, "White Balance, Automatic", 0, 1, 1, 1},
    {V4L2_CID_GAIN, V4L2_CTRL_TYPE_INTEGER, "Gain", 0, 255, 1, 0},
    {V4L2_CID_POWER_LINE_FREQUENCY, V4L2_CTRL_TYPE_MENU, "Power Line Frequency", 0, 2, 1, 2},
    {V4L2_CID_CAMERA_CLASS, V4L2_CTRL_TYPE_CTRL_CLASS, "Camera Controls", 0, 0, 0, 0},
    {V4L2_CID_EXPOSURE_AUTO, V4L2_CTRL_TYPE_MENU, "Auto Exposure", 0, 3, 1, V4L2_EXPOSURE_APERTURE_PRIORITY},
    {V4L2_CID_EXPOSURE_ABSOLUTE, V4L2_CTRL_TYPE_INTEGER, "Exposure Time, Absolute", 3, 2047, 1, 250},
    {V4L2_CID_EXPOSURE_AUTO_PRIORITY, V4L2_CTRL_TYPE_BOOLEAN, "Exposure, Dynamic Framerate", 0, 1, 1, 0},
};
static const int control_count = sizeof controls / sizeof controls[0];

static int control_index(uint32_t id) {
    for (int i = 0; i < control_count; ++i)
        if (controls[i].id == id) return i;
    return -1;
}

static const char *menu_entry(uint32_t id, uint32_t index) {
    if (id == V4L2_CID_POWER_LINE_FREQUENCY) {
        static const char *names[] = {"Disabled", "50 Hz", "60 Hz"};
        return index < 3 ? names[index] : NULL;
    }
    if (id == V4L2_CID_EXPOSURE_AUTO) {
        /* UVC cameras offer manual and aperture priority only; the others are masked out. */
        if (index == V4L2_EXPOSURE_MANUAL) return "Manual Mode";
        if (index == V4L2_EXPOSURE_APERTURE_PRIORITY) return "Aperture Priority Mode";
    }
    return NULL;
}

static void reset_controls(fc_device *d) {
    for (int i = 0; i < control_count; ++i) d->controls[i] = controls[i].default_value;
    /* Common webcams report "default=0 value=1" here: they power up with a dynamic frame rate. */
    d->controls[control_index(V4L2_CID_EXPOSURE_AUTO_PRIORITY)] = 1;
}

int32_t fc_control_value(const fc_device *d, uint32_t id) {
    int i = control_index(id);
    return i < 0 ? 0 : d->controls[i];
}

static uint32_t control_flags(const fc_device *d, const fc_control *c) {
    if (c->type == V4L2_CTRL_TYPE_CTRL_CLASS) return V4L2_CTRL_FLAG_READ_ONLY | V4L2_CTRL_FLAG_WRITE_ONLY;
    if (c->id == V4L2_CID_EXPOSURE_ABSOLUTE && fc_control_value(d, V4L2_CID_EXPOSURE_AUTO) != V4L2_EXPOSURE_MANUAL)
        return V4L2_CTRL_FLAG_INACTIVE;
    return 0;
}

/* ------------------------------------------------------------------ time, logging */

int64_t fc_now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

double fc_now(void) { return (double)fc_now_ns() / 1e9; }

static int log_fd = -1;
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;

static void write_line(int fd, const char *prefix, const char *fmt, va_list ap) {
    char line[512];
    int n = snprintf(line, sizeof line, "%s%.6f ", prefix, fc_now());
    n += vsnprintf(line + n, sizeof line - (size_t)n - 1, fmt, ap);
    if (n > (int)sizeof line - 2) n = (int)sizeof line - 2;
    line[n++] = '\n';
    pthread_mutex_lock(&log_lock);
    ssize_t ignored = fc_libc.write(fd, line, (size_t)n);
    (void)ignored;
    pthread_mutex_unlock(&log_lock);
}

void fc_log(const char *fmt, ...) {
    if (log_fd < 0) return;
    va_list ap;
    va_start(ap, fmt);
    write_line(log_fd, "", fmt, ap);
    va_end(ap);
}

void fc_warn(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    char line[512];
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    fc_log("warning %s", line);
    char out[600];
    int n = snprintf(out, sizeof out, "fakecam: %s\n", line);
    ssize_t ignored = fc_libc.write(2, out, (size_t)(n < (int)sizeof out ? n : (int)sizeof out - 1));
    (void)ignored;
}

/* ------------------------------------------------------------------ descriptors */

#define FC_MAX_FD 65536
static _Atomic(fc_handle *) fd_table[FC_MAX_FD];

fc_handle *fc_handle_for(int fd) {
    if (!fc_enabled || fd < 0 || fd >= FC_MAX_FD) return NULL;
    return atomic_load_explicit(&fd_table[fd], memory_order_acquire);
}

static bool is_dead(const fc_handle *h) { return h->generation != h->dev->generation; }

static void set_signalled(fc_handle *h, bool ready) {
    if (ready == h->signalled) return;
    uint64_t v = 1;
    /* The counter is only read when it is known to be non-zero, so this never blocks. */
    ssize_t r = ready ? fc_libc.write(h->signal_fd, &v, sizeof v) : fc_libc.read(h->signal_fd, &v, sizeof v);
    if (r == (ssize_t)sizeof v) h->signalled = ready;
}

/* What vb2_core_poll and v4l2_poll answer, as poll() flags. */
static short poll_mask(const fc_handle *h) {
    const fc_device *d = h->dev;
    if (is_dead(h)) return POLLERR | POLLHUP | POLLPRI;
    if (h->meta || !d->streaming) return POLLERR;
    return d->done_count > 0 ? (POLLIN | POLLRDNORM) : 0;
}

void fc_refresh_readiness(fc_device *d) {
    for (fc_handle *h = d->handles; h; h = h->next) set_signalled(h, poll_mask(h) != 0);
}

short fc_poll_events(int fd, short requested) {
    fc_handle *h = fc_handle_for(fd);
    if (!h) return 0;
    pthread_mutex_lock(&h->dev->lock);
    short mask = poll_mask(h);
    pthread_mutex_unlock(&h->dev->lock);
    return mask & (short)(requested | POLLERR | POLLHUP);
}

/* ------------------------------------------------------------------ plug state */

static void set_paths(fc_device *d, int number) {
    if (d->capture_number < 0) return;
    snprintf(d->capture_path, sizeof d->capture_path, "/dev/video%d", number);
    snprintf(d->meta_path, sizeof d->meta_path, "/dev/video%d", number + 1);
}

static int path_number(const char *path) {
    const char *p = strrchr(path, '/');
    p = p ? p + 1 : path;
    if (strncmp(p, "video", 5) != 0 || !p[5]) return -1;
    for (const char *q = p + 5; *q; ++q)
        if (*q < '0' || *q > '9') return -1;
    return atoi(p + 5);
}

static void free_buffers(fc_device *d) {
    if (d->memory) fc_libc.munmap(d->memory, (size_t)d->buffer_stride * d->buffer_count);
    if (d->memfd >= 0) fc_libc.close(d->memfd); /* mappings the application holds keep the pages */
    d->memory = NULL;
    d->memfd = -1;
    d->buffer_count = 0;
    d->queued_count = d->done_count = 0;
    d->allocation++;
}

static void power_on(fc_device *d) {
    d->format = offered[0];
    d->frame = &d->format->frames[0];
    d->interval = d->frame->intervals[0];
    reset_controls(d);
}

/* Stops streaming: every buffer goes back to the application (vb2_core_streamoff). */
static void stop_stream(fc_device *d) {
    d->streaming = false;
    d->stream_id++;
    for (unsigned i = 0; i < d->buffer_count; ++i) {
        d->buffers[i].state = FC_BUF_DEQUEUED;
        d->buffers[i].flags &= ~V4L2_BUF_FLAG_ERROR;
    }
    d->queued_count = d->done_count = 0;
    pthread_cond_broadcast(&d->changed);
    fc_sensor_wait_gone(d);
}

void fc_unplug_locked(fc_device *d, double seconds) {
    fc_log("unplug for %.3f s", seconds);
    d->present = false;
    d->replug_at = seconds < 0 ? -1 : fc_now() + seconds;
    d->generation++;
    d->streaming = false;
    d->stream_id++;
    for (fc_handle *h = d->handles; h; h = h->next) h->privileged = false;
    /* The sensor thread calling this is the one that would use the buffers; it ends next. */
    if (d->memory) fc_libc.munmap(d->memory, (size_t)d->buffer_stride * d->buffer_count);
    if (d->memfd >= 0) fc_libc.close(d->memfd);
    d->memory = NULL;
    d->memfd = -1;
    d->buffer_count = 0;
    d->queued_count = d->done_count = 0;
    d->allocation++;
    fc_refresh_readiness(d);
    pthread_cond_broadcast(&d->changed);
}

/* Plugs the camera back when its time has come. A number still held by a descriptor of the old
 * device stays taken, so the camera then comes back under the next free one, as with uvcvideo. */
static void check_replug(fc_device *d) {
    if (d->present || d->replug_at < 0 || fc_now() < d->replug_at) return;
    if (d->capture_number >= 0) {
        bool held[256] = {false};
        for (fc_handle *h = d->handles; h; h = h->next)
            if (is_dead(h) && h->number >= 0 && h->number < 256) held[h->number] = true;
        int n = d->capture_number;
        while (n < 254 && held[n]) ++n;
        int meta = n + 1;
        while (meta < 255 && held[meta]) ++meta;
        set_paths(d, n);
        snprintf(d->meta_path, sizeof d->meta_path, "/dev/video%d", meta);
    }
    d->present = true;
    power_on(d);
    fc_log("replug as %s", d->capture_path);
}

static int node_number(const char *path) { return path_number(path); }

int fc_path_kind(const char *path) {
    if (!fc_enabled || !path || path[0] != '/') return 0;
    fc_device *d = &fc_dev;
    pthread_mutex_lock(&d->lock);
    check_replug(d);
    int kind = strcmp(path, d->capture_path) == 0 ? 1 : (d->meta_path[0] && strcmp(path, d->meta_path) == 0) ? 2 : 0;
    pthread_mutex_unlock(&d->lock);
    return kind;
}

int fc_dev_entries(char names[][32], int max) {
    fc_device *d = &fc_dev;
    int n = 0;
    if (!fc_enabled) return 0;
    pthread_mutex_lock(&d->lock);
    check_replug(d);
    if (d->present) {
        const char *paths[2] = {d->capture_path, d->meta_path};
        for (int i = 0; i < 2 && n < max; ++i) {
            if (paths[i][0] && strncmp(paths[i], "/dev/", 5) == 0 && !strchr(paths[i] + 5, '/'))
                snprintf(names[n++], 32, "%s", paths[i] + 5);
        }
    }
    pthread_mutex_unlock(&d->lock);
    return n;
}

static void fill_stat(struct stat *st, int number) {
    memset(st, 0, sizeof *st);
    st->st_dev = makedev(0, 5); /* devtmpfs */
    st->st_ino = 1000 + (ino_t)(number < 0 ? 0 : number);
    st->st_mode = S_IFCHR | 0660;
    st->st_nlink = 1;
    st->st_uid = 0;
    st->st_gid = 44; /* video */
    st->st_rdev = makedev(81, number < 0 ? 0 : (unsigned)number);
    st->st_blksize = 4096;
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    st->st_atim = st->st_mtim = st->st_ctim = now;
}

int fc_stat_path(const char *path, struct stat *st) {
    int kind = fc_path_kind(path);
    if (!kind) return 1;
    pthread_mutex_lock(&fc_dev.lock);
    bool present = fc_dev.present;
    pthread_mutex_unlock(&fc_dev.lock);
    if (!present) {
        errno = ENOENT;
        return -1;
    }
    fill_stat(st, node_number(path));
    return 0;
}

int fc_fstat(int fd, struct stat *st) {
    fc_handle *h = fc_handle_for(fd);
    if (!h) return 1;
    fill_stat(st, h->number);
    return 0;
}

/* ------------------------------------------------------------------ open, close, dup */

static bool busy_now(fc_device *d, bool at_format) {
    const fc_fault *b = &d->faults.busy;
    if (!b->on || b->at_format != at_format) return false;
    if (d->busy_until == -2) d->busy_until = b->seconds < 0 ? -1 : fc_now() + b->seconds;
    return d->busy_until == -1 || fc_now() < d->busy_until;
}

int fc_open(const char *path, int flags) {
    int kind = fc_path_kind(path);
    fc_device *d = &fc_dev;
    if (kind == 1) fc_open_scene(d);
    pthread_mutex_lock(&d->lock);
    int error = 0;
    if (!d->present) error = ENOENT;
    else if (flags & O_DIRECTORY) error = ENOTDIR;
    else if ((flags & O_CREAT) && (flags & O_EXCL)) error = EEXIST;
    else if (kind == 1 && busy_now(d, false)) error = EBUSY;
    if (error) {
        pthread_mutex_unlock(&d->lock);
        fc_log("open %s: %s", path, strerror(error));
        errno = error;
        return -1;
    }
    /* The file status flags (O_NONBLOCK) live in the shared open file, so fcntl(F_SETFL) on the
     * application's descriptor is seen on ours too. */
    int own = eventfd(0, EFD_CLOEXEC | (flags & O_NONBLOCK ? EFD_NONBLOCK : 0));
    int fd = own < 0 ? -1 : (int)fc_libc.syscall(SYS_fcntl, own, (flags & O_CLOEXEC) ? F_DUPFD_CLOEXEC : F_DUPFD, 0);
    fc_handle *h = fd >= 0 && fd < FC_MAX_FD ? calloc(1, sizeof *h) : NULL;
    if (!h) {
        error = own < 0 || fd < 0 ? errno : fd >= FC_MAX_FD ? EMFILE : ENOMEM;
        if (fd >= 0) fc_libc.close(fd);
        if (own >= 0) fc_libc.close(own);
        pthread_mutex_unlock(&d->lock);
        errno = error;
        return -1;
    }
    h->dev = d;
    h->meta = kind == 2;
    h->generation = d->generation;
    h->signal_fd = own;
    h->number = node_number(path);
    h->refs = 1;
    h->priority = V4L2_PRIORITY_DEFAULT;
    h->next = d->handles;
    d->handles = h;
    set_signalled(h, poll_mask(h) != 0);
    atomic_store_explicit(&fd_table[fd], h, memory_order_release);
    pthread_mutex_unlock(&d->lock);
    fc_log("open %s -> fd %d", path, fd);
    return fd;
}

static void release_handle(fc_device *d, fc_handle *h) {
    if (h->privileged && !is_dead(h)) {
        /* uvc_v4l2_release: the streaming owner's stream stops and its buffers go. */
        stop_stream(d);
        free_buffers(d);
    }
    for (fc_handle **p = &d->handles; *p; p = &(*p)->next) {
        if (*p == h) {
            *p = h->next;
            break;
        }
    }
    fc_libc.close(h->signal_fd);
    free(h);
}

int fc_close(int fd) {
    fc_handle *h = fc_handle_for(fd);
    fc_device *d = h->dev;
    pthread_mutex_lock(&d->lock);
    atomic_store_explicit(&fd_table[fd], NULL, memory_order_release);
    if (--h->refs == 0) release_handle(d, h);
    pthread_mutex_unlock(&d->lock);
    fc_log("close fd %d", fd);
    return fc_libc.close(fd);
}

/* After a real dup of oldfd to newfd: newfd now means what oldfd means (one of ours or not), and
 * whatever newfd meant before is let go, as dup2 closes it. */
int fc_dup(int oldfd, int newfd) {
    if (!fc_enabled || newfd < 0 || oldfd == newfd) return newfd;
    fc_handle *h = fc_handle_for(oldfd);
    if (h && newfd >= FC_MAX_FD) {
        fc_libc.close(newfd);
        errno = EMFILE;
        return -1;
    }
    if (newfd >= FC_MAX_FD) return newfd;
    fc_device *d = &fc_dev;
    pthread_mutex_lock(&d->lock);
    fc_handle *previous = atomic_exchange(&fd_table[newfd], h);
    if (h) h->refs++;
    if (previous && --previous->refs == 0) release_handle(d, previous);
    pthread_mutex_unlock(&d->lock);
    return newfd;
}

/* ------------------------------------------------------------------ formats */

static void fill_pix(const fc_device *d, const fc_format *f, const fc_frame *fr, struct v4l2_pix_format *pix) {
    memset(pix, 0, sizeof *pix);
    (void)d;
    pix->width = fr->width;
    pix->height = fr->height;
    pix->pixelformat = f->fourcc;
    pix->field = V4L2_FIELD_NONE;
    pix->bytesperline = fc_bytes_per_line(f, fr);
    pix->sizeimage = fc_max_frame_size(f, fr);
    pix->colorspace = V4L2_COLORSPACE_SRGB;
    pix->priv = V4L2_PIX_FMT_PRIV_MAGIC;
    pix->xfer_func = V4L2_XFER_FUNC_SRGB;
    pix->ycbcr_enc = V4L2_YCBCR_ENC_601;
}

/* uvc_v4l2_try_format: an unknown format becomes the default one, the size the nearest offered. */
static void try_format(const struct v4l2_pix_format *asked, const fc_format **f_out, const fc_frame **fr_out) {
    const fc_format *f = find_format(asked->pixelformat);
    if (!f) f = offered[0];
    const fc_frame *best = &f->frames[0];
    uint64_t best_d = UINT64_MAX;
    for (int i = 0; i < f->frame_count; ++i) {
        uint64_t w = f->frames[i].width, h = f->frames[i].height, rw = asked->width, rh = asked->height;
        uint64_t overlap = (w < rw ? w : rw) * (h < rh ? h : rh);
        uint64_t dist = w * h + rw * rh - 2 * overlap;
        if (dist < best_d) {
            best_d = dist;
            best = &f->frames[i];
        }
    }
    *f_out = f;
    *fr_out = best;
}

/* uvc_try_frame_interval: the nearest offered interval, intervals compared in 100 ns units. */
static fc_fract nearest_interval(const fc_frame *fr, fc_fract asked) {
    uint64_t want = asked.denominator == 0 || asked.numerator == 0
                        ? 0
                        : (uint64_t)asked.numerator * 10000000ull / asked.denominator;
    fc_fract best = fr->intervals[0];
    uint64_t best_d = UINT64_MAX;
    for (int i = 0; i < fr->interval_count; ++i) {
        uint64_t v = (uint64_t)fr->intervals[i].numerator * 10000000ull / fr->intervals[i].denominator;
        uint64_t dist = v > want ? v - want : want - v;
        if (dist < best_d) {
            best_d = dist;
            best = fr->intervals[i];
        }
    }
    return best;
}

static int acquire_privileges(fc_device *d, fc_handle *h) {
    if (h->privileged) return 0;
    for (fc_handle *o = d->handles; o; o = o->next)
        if (o->privileged && !is_dead(o)) return EBUSY;
    h->privileged = true;
    return 0;
}

/* What S_FMT, S_PARM and REQBUFS ask first: the stream for this handle (or EBUSY). */
static int take_stream(fc_device *d, fc_handle *h) {
    int r = acquire_privileges(d, h);
    return r ? r : busy_now(d, true) ? EBUSY : 0;
}

/* ------------------------------------------------------------------ buffers */

static void fill_buffer(const fc_device *d, unsigned index, struct v4l2_buffer *b) {
    const fc_buffer *buf = &d->buffers[index];
    uint32_t type = b->type;
    memset(b, 0, sizeof *b);
    b->index = index;
    b->type = type;
    b->memory = V4L2_MEMORY_MMAP;
    b->m.offset = index * d->buffer_stride;
    b->length = d->buffer_length;
    b->field = V4L2_FIELD_NONE;
    b->flags = V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC | V4L2_BUF_FLAG_TSTAMP_SRC_SOE;
    if (buf->map_count > 0) b->flags |= V4L2_BUF_FLAG_MAPPED;
    switch (buf->state) {
    case FC_BUF_QUEUED:
    case FC_BUF_ACTIVE: b->flags |= V4L2_BUF_FLAG_QUEUED; break;
    case FC_BUF_DONE: b->flags |= V4L2_BUF_FLAG_DONE; break;
    case FC_BUF_DEQUEUED: break;
    }
    b->flags |= buf->flags & V4L2_BUF_FLAG_ERROR;
    if (buf->state == FC_BUF_DONE || buf->state == FC_BUF_DEQUEUED) {
        b->bytesused = buf->bytesused;
        b->timestamp = buf->timestamp;
        b->sequence = buf->sequence;
    }
}

static int reqbufs(fc_device *d, fc_handle *h, struct v4l2_requestbuffers *rb) {
    if (rb->type != V4L2_BUF_TYPE_VIDEO_CAPTURE) return EINVAL;
    /* uvcvideo also takes USERPTR and DMABUF; the emulator offers mmap only. */
    if (rb->memory != V4L2_MEMORY_MMAP) return EINVAL;
    int r = take_stream(d, h);
    if (r) return r;
    if (d->streaming) return EBUSY;
    rb->flags = 0; /* no cache hints */
    memset(rb->reserved, 0, sizeof rb->reserved);
    rb->capabilities = V4L2_BUF_CAP_SUPPORTS_MMAP | V4L2_BUF_CAP_SUPPORTS_ORPHANED_BUFS;
    free_buffers(d); /* buffers still mapped are orphaned: their mappings stay valid */
    if (rb->count == 0) {
        h->privileged = false; /* uvc_ioctl_reqbufs dismisses privileges on a release */
        fc_refresh_readiness(d);
        return 0;
    }
    unsigned count = rb->count > FC_MAX_BUFFERS ? FC_MAX_BUFFERS : rb->count;
    uint32_t length = fc_max_frame_size(d->format, d->frame);
    long page = sysconf(_SC_PAGESIZE);
    uint32_t stride = (uint32_t)((length + page - 1) / page * page);
    int memfd = memfd_create("fakecam-buffers", MFD_CLOEXEC);
    if (memfd < 0) return ENOMEM;
    if (ftruncate(memfd, (off_t)stride * count) != 0) {
        fc_libc.close(memfd);
        return ENOMEM;
    }
    void *memory = fc_libc.mmap(NULL, (size_t)stride * count, PROT_READ | PROT_WRITE, MAP_SHARED, memfd, 0);
    if (memory == MAP_FAILED) {
        fc_libc.close(memfd);
        return ENOMEM;
    }
    d->memfd = memfd;
    d->memory = memory;
    d->buffer_count = count;
    d->buffer_length = length;
    d->buffer_stride = stride;
    memset(d->buffers, 0, sizeof d->buffers);
    rb->count = count;
    fc_log("reqbufs %u x %u bytes", count, length);
    return 0;
}

static int check_buffer(const fc_device *d, const struct v4l2_buffer *b) {
    if (b->type != V4L2_BUF_TYPE_VIDEO_CAPTURE) return EINVAL;
    if (b->index >= d->buffer_count) return EINVAL;
    return 0;
}

static int qbuf(fc_device *d, fc_handle *h, struct v4l2_buffer *b) {
    if (!h->privileged) return EBUSY;
    int r = check_buffer(d, b);
    if (r) return r;
    if (b->memory != V4L2_MEMORY_MMAP) return EINVAL;
    fc_buffer *buf = &d->buffers[b->index];
    if (buf->state != FC_BUF_DEQUEUED) return EINVAL; /* "buffer already in use" */
    buf->state = FC_BUF_QUEUED;
    buf->flags = 0;
    d->queued[d->queued_count++] = b->index;
    fill_buffer(d, b->index, b);
    return 0;
}

static int dqbuf(fc_device *d, fc_handle *h, struct v4l2_buffer *b, bool blocking) {
    if (!h->privileged) return EBUSY;
    if (b->type != V4L2_BUF_TYPE_VIDEO_CAPTURE) return EINVAL;
    if (b->memory != V4L2_MEMORY_MMAP) return EINVAL;
    for (;;) {
        if (is_dead(h)) return blocking ? EIO : ENODEV;
        if (!d->streaming) return EINVAL; /* "streaming off, nothing to wait for" */
        if (d->done_count > 0) break;
        if (!blocking) return EAGAIN;
        pthread_cond_wait(&d->changed, &d->lock);
    }
    unsigned index = d->done[0];
    memmove(d->done, d->done + 1, (--d->done_count) * sizeof d->done[0]);
    d->buffers[index].state = FC_BUF_DEQUEUED;
    fill_buffer(d, index, b);
    fc_refresh_readiness(d);
    fc_log("dqbuf index %u seq %u bytes %u", index, b->sequence, b->bytesused);
    return 0;
}

static int streamon(fc_device *d, fc_handle *h, const int *type) {
    if (*type != V4L2_BUF_TYPE_VIDEO_CAPTURE) return EINVAL;
    if (d->buffer_count == 0) return EINVAL; /* vb2: no buffers allocated */
    if (!h->privileged) return EBUSY;
    if (d->streaming) return 0; /* the specification: a second STREAMON does nothing */
    if (busy_now(d, true)) return EBUSY;
    const fc_fault *ns = &d->faults.nospace;
    if (ns->on) {
        static double until = -2;
        if (until == -2) until = ns->seconds < 0 ? -1 : fc_now() + ns->seconds;
        if (until == -1 || fc_now() < until) return ENOSPC; /* no alternate setting has the bandwidth */
    }
    fc_sensor_wait_gone(d);
    d->streaming = true;
    d->sequence = 0;
    int r = fc_sensor_start(d);
    if (r) {
        d->streaming = false;
        return r;
    }
    fc_refresh_readiness(d);
    fc_log("streamon %.4s %ux%u 1/%u", (const char *)&d->format->fourcc, d->frame->width, d->frame->height,
           d->interval.denominator / (d->interval.numerator ? d->interval.numerator : 1));
    return 0;
}

static int streamoff(fc_device *d, fc_handle *h, const int *type) {
    if (*type != V4L2_BUF_TYPE_VIDEO_CAPTURE) return EINVAL;
    if (!h->privileged) {
        for (fc_handle *o = d->handles; o; o = o->next)
            if (o->privileged && !is_dead(o)) return EBUSY; /* another program's stream */
        return 0;
    }
    stop_stream(d);
    fc_refresh_readiness(d);
    fc_log("streamoff");
    return 0;
}

void *fc_mmap(void *addr, size_t length, int prot, int flags, int fd, off_t offset);

/* ------------------------------------------------------------------ mappings */

typedef struct {
    uint8_t *start;
    size_t length;
    unsigned allocation, index;
} fc_mapping;
static fc_mapping mappings[256];

void *fc_mmap(void *addr, size_t length, int prot, int flags, int fd, off_t offset) {
    fc_handle *h = fc_handle_for(fd);
    fc_device *d = h->dev;
    pthread_mutex_lock(&d->lock);
    int error = 0;
    unsigned index = 0;
    if (is_dead(h)) error = ENODEV;
    else if (h->meta || d->buffer_count == 0) error = EINVAL;
    else if (!(flags & MAP_SHARED) || !(prot & PROT_READ) || length == 0) error = EINVAL;
    else {
        for (index = 0; index < d->buffer_count; ++index)
            if ((off_t)index * d->buffer_stride == offset) break;
        if (index == d->buffer_count || length > d->buffer_stride) error = EINVAL;
    }
    void *p = MAP_FAILED;
    if (!error) {
        p = fc_libc.mmap(addr, length, prot, flags, d->memfd, offset);
        if (p == MAP_FAILED) error = errno;
    }
    if (!error) {
        d->buffers[index].map_count++;
        for (size_t i = 0; i < sizeof mappings / sizeof mappings[0]; ++i) {
            if (!mappings[i].start) {
                mappings[i] = (fc_mapping){p, length, d->allocation, index};
                break;
            }
        }
    }
    pthread_mutex_unlock(&d->lock);
    if (error) {
        fc_log("mmap fd %d offset %lld length %zu: %s", fd, (long long)offset, length, strerror(error));
        errno = error;
    }
    return p;
}

void fc_munmap_seen(void *addr, size_t length) {
    if (!fc_enabled) return;
    fc_device *d = &fc_dev;
    uint8_t *a = addr;
    pthread_mutex_lock(&d->lock);
    for (size_t i = 0; i < sizeof mappings / sizeof mappings[0]; ++i) {
        fc_mapping *m = &mappings[i];
        if (m->start && m->start >= a && m->start < a + length) {
            if (m->allocation == d->allocation && m->index < d->buffer_count && d->buffers[m->index].map_count > 0)
                d->buffers[m->index].map_count--;
            m->start = NULL;
        }
    }
    pthread_mutex_unlock(&d->lock);
}

/* ------------------------------------------------------------------ controls */

static int query_control(const fc_device *d, uint32_t asked, const fc_control **out) {
    bool next = asked & (V4L2_CTRL_FLAG_NEXT_CTRL | V4L2_CTRL_FLAG_NEXT_COMPOUND);
    uint32_t id = asked & ~(V4L2_CTRL_FLAG_NEXT_CTRL | V4L2_CTRL_FLAG_NEXT_COMPOUND);
    (void)d;
    for (int i = 0; i < control_count; ++i) {
        if (next ? controls[i].id > id : controls[i].id == id) {
            if (next && !(asked & V4L2_CTRL_FLAG_NEXT_CTRL)) continue; /* only compound ones asked: none here */
            *out = &controls[i];
            return 0;
        }
    }
    return EINVAL;
}

static int get_control(const fc_device *d, uint32_t id, int32_t *value) {
    int i = control_index(id);
    if (i < 0) return EINVAL;
    if (controls[i].type == V4L2_CTRL_TYPE_CTRL_CLASS) return EACCES;
    *value = d->controls[i];
    return 0;
}

static int set_control(fc_device *d, uint32_t id, int32_t *value, bool apply) {
    int i = control_index(id);
    if (i < 0) return EINVAL;
    const fc_control *c = &controls[i];
    if (c->type == V4L2_CTRL_TYPE_CTRL_CLASS) return EACCES;
    int32_t v = *value;
    if (c->type == V4L2_CTRL_TYPE_MENU) {
        if (v < c->minimum || v > c->maximum) return ERANGE;
        if (!menu_entry(id, (uint32_t)v)) return EINVAL;
    } else {
        /* uvc_ctrl_set clamps integers into range and onto the step */
        if (v < c->minimum) v = c->minimum;
        if (v > c->maximum) v = c->maximum;
        v = c->minimum + (v - c->minimum + c->step / 2) / c->step * c->step;
    }
    *value = v;
    if (apply) {
        d->controls[i] = v;
        fc_log("control %s = %d", c->name, v);
    }
    return 0;
}

/* The control framework's rules (the V4L2 specification, as v4l2-compliance checks them): ids,
 * classes and access are checked before anything is read or written, and an error found then
 * leaves error_idx at count (a try names the control). */
static int ext_controls(fc_device *d, unsigned long request, struct v4l2_ext_controls *ec) {
    if (ec->count > 0 && !ec->controls) return EFAULT;
    uint32_t which = ec->which;
    bool defaults = which == V4L2_CTRL_WHICH_DEF_VAL;
    if (which == V4L2_CTRL_WHICH_REQUEST_VAL) return EINVAL; /* no Request API */
    if (defaults && request != VIDIOC_G_EXT_CTRLS) return EINVAL;
    ec->error_idx = ec->count;
    for (uint32_t i = 0; i < ec->count; ++i) {
        int index = control_index(ec->controls[i].id);
        int r = index < 0 ? EINVAL
                : which && !defaults && V4L2_CTRL_ID2WHICH(ec->controls[i].id) != which ? EINVAL
                /* class entries are write-only for reading, read-only for writing */
                : controls[index].type == V4L2_CTRL_TYPE_CTRL_CLASS ? EACCES : 0;
        if (r) {
            if (request == VIDIOC_TRY_EXT_CTRLS) ec->error_idx = i;
            return r;
        }
    }
    for (uint32_t i = 0; i < ec->count; ++i) {
        struct v4l2_ext_control *c = &ec->controls[i];
        int32_t value = c->value; /* the struct is packed */
        int r = defaults ? (value = controls[control_index(c->id)].default_value, 0)
                : request == VIDIOC_G_EXT_CTRLS ? get_control(d, c->id, &value)
                                                 : set_control(d, c->id, &value, false);
        if (r) {
            ec->error_idx = request == VIDIOC_G_EXT_CTRLS ? i : ec->count;
            return r;
        }
        c->value = value;
    }
    if (request == VIDIOC_S_EXT_CTRLS) {
        for (uint32_t i = 0; i < ec->count; ++i) {
            int32_t value = ec->controls[i].value;
            set_control(d, ec->controls[i].id, &value, true);
        }
    }
    return 0;
}

/* ------------------------------------------------------------------ the ioctl switch */

static uint32_t max_priority(const fc_device *d) {
    uint32_t p = V4L2_PRIORITY_UNSET;
    for (const fc_handle *h = d->handles; h; h = h->next)
        if (!is_dead(h) && h->priority > p) p = h->priority;
    return p;
}

static const char *fourcc_text(uint32_t f, char out[5]) {
    memcpy(out, &f, 4);
    out[4] = 0;
    return out;
}

static int capture_ioctl(fc_device *d, fc_handle *h, unsigned long request, void *arg, bool blocking) {
    switch (request) {
    case VIDIOC_ENUM_FMT: {
        struct v4l2_fmtdesc *f = arg;
        if (f->type != V4L2_BUF_TYPE_VIDEO_CAPTURE || f->index >= (uint32_t)offered_count) return EINVAL;
        const fc_format *fmt = offered[f->index];
        uint32_t index = f->index, type = f->type;
        memset(f, 0, sizeof *f);
        f->index = index;
        f->type = type;
        f->flags = fmt->flags;
        snprintf((char *)f->description, sizeof f->description, "%s", fmt->description);
        f->pixelformat = fmt->fourcc;
        return 0;
    }
    case VIDIOC_ENUM_FRAMESIZES: {
        struct v4l2_frmsizeenum *s = arg;
        const fc_format *fmt = find_format(s->pixel_format);
        if (!fmt || s->index >= (uint32_t)fmt->frame_count) return EINVAL;
        const fc_frame *fr = &fmt->frames[s->index];
        memset(s->reserved, 0, sizeof s->reserved);
        s->type = V4L2_FRMSIZE_TYPE_DISCRETE;
        s->discrete.width = fr->width;
        s->discrete.height = fr->height;
        return 0;
    }
    case VIDIOC_ENUM_FRAMEINTERVALS: {
        struct v4l2_frmivalenum *iv = arg;
        const fc_format *fmt = find_format(iv->pixel_format);
        const fc_frame *fr = fmt ? find_frame(fmt, iv->width, iv->height) : NULL;
        if (!fr || iv->index >= (uint32_t)fr->interval_count) return EINVAL;
        memset(iv->reserved, 0, sizeof iv->reserved);
        iv->type = V4L2_FRMIVAL_TYPE_DISCRETE;
        iv->discrete.numerator = fr->intervals[iv->index].numerator;
        iv->discrete.denominator = fr->intervals[iv->index].denominator;
        return 0;
    }
    case VIDIOC_G_FMT: {
        struct v4l2_format *f = arg;
        if (f->type != V4L2_BUF_TYPE_VIDEO_CAPTURE) return EINVAL;
        fill_pix(d, d->format, d->frame, &f->fmt.pix);
        return 0;
    }
    case VIDIOC_TRY_FMT:
    case VIDIOC_S_FMT: {
        struct v4l2_format *f = arg;
        if (f->type != V4L2_BUF_TYPE_VIDEO_CAPTURE) return EINVAL;
        int r = request == VIDIOC_S_FMT ? take_stream(d, h) : 0;
        if (r) return r;
        const fc_format *fmt;
        const fc_frame *fr;
        try_format(&f->fmt.pix, &fmt, &fr);
        if (request == VIDIOC_S_FMT) {
            if (d->buffer_count > 0) return EBUSY; /* uvc_queue_allocated */
            d->format = fmt;
            d->frame = fr;
            d->interval = fr->intervals[0]; /* a new format starts at its default interval */
            char cc[5];
            fc_log("s_fmt %s %ux%u", fourcc_text(fmt->fourcc, cc), fr->width, fr->height);
        }
        fill_pix(d, fmt, fr, &f->fmt.pix);
        return 0;
    }
    case VIDIOC_G_PARM:
    case VIDIOC_S_PARM: {
        struct v4l2_streamparm *p = arg;
        if (p->type != V4L2_BUF_TYPE_VIDEO_CAPTURE) return EINVAL;
        if (request == VIDIOC_S_PARM) {
            int r = take_stream(d, h);
            if (r) return r;
            if (d->streaming) return EBUSY;
            fc_fract asked = {p->parm.capture.timeperframe.numerator, p->parm.capture.timeperframe.denominator};
            d->interval = nearest_interval(d->frame, asked);
            fc_log("s_parm %u/%u -> %u/%u", asked.numerator, asked.denominator, d->interval.numerator,
                   d->interval.denominator);
        }
        memset(&p->parm, 0, sizeof p->parm);
        p->parm.capture.capability = V4L2_CAP_TIMEPERFRAME;
        p->parm.capture.timeperframe.numerator = d->interval.numerator;
        p->parm.capture.timeperframe.denominator = d->interval.denominator;
        return 0;
    }
    case VIDIOC_REQBUFS: return reqbufs(d, h, arg);
    case VIDIOC_QUERYBUF: {
        struct v4l2_buffer *b = arg;
        int r = check_buffer(d, b);
        if (r) return r;
        fill_buffer(d, b->index, b);
        return 0;
    }
    case VIDIOC_QBUF: return qbuf(d, h, arg);
    case VIDIOC_DQBUF: return dqbuf(d, h, arg, blocking);
    case VIDIOC_STREAMON: return streamon(d, h, arg);
    case VIDIOC_STREAMOFF: return streamoff(d, h, arg);
    case VIDIOC_ENUMINPUT: {
        struct v4l2_input *in = arg;
        if (in->index != 0) return EINVAL;
        memset(in, 0, sizeof *in);
        snprintf((char *)in->name, sizeof in->name, "Camera 1");
        in->type = V4L2_INPUT_TYPE_CAMERA;
        return 0;
    }
    case VIDIOC_G_INPUT: *(int *)arg = 0; return 0;
    case VIDIOC_S_INPUT: {
        int r = acquire_privileges(d, h);
        if (r) return r;
        return *(int *)arg == 0 ? 0 : EINVAL;
    }
    case VIDIOC_QUERYCTRL: {
        struct v4l2_queryctrl *q = arg;
        const fc_control *c;
        int r = query_control(d, q->id, &c);
        if (r) return r;
        memset(q, 0, sizeof *q);
        q->id = c->id;
        q->type = c->type;
        snprintf((char *)q->name, sizeof q->name, "%s", c->name);
        q->minimum = c->minimum;
        q->maximum = c->maximum;
        q->step = c->step;
        q->default_value = c->default_value;
        q->flags = control_flags(d, c);
        return 0;
    }
    case VIDIOC_QUERY_EXT_CTRL: {
        struct v4l2_query_ext_ctrl *q = arg;
        const fc_control *c;
        int r = query_control(d, q->id, &c);
        if (r) return r;
        memset(q, 0, sizeof *q);
        q->id = c->id;
        q->type = c->type;
        snprintf(q->name, sizeof q->name, "%s", c->name);
        q->minimum = c->minimum;
        q->maximum = c->maximum;
        q->step = (uint64_t)c->step;
        q->default_value = c->default_value;
        q->flags = control_flags(d, c);
        q->elem_size = c->type == V4L2_CTRL_TYPE_CTRL_CLASS ? 0 : 4;
        q->elems = 1;
        return 0;
    }
    case VIDIOC_QUERYMENU: {
        struct v4l2_querymenu *m = arg;
        int i = control_index(m->id);
        if (i < 0 || controls[i].type != V4L2_CTRL_TYPE_MENU) return EINVAL;
        const char *name = menu_entry(m->id, m->index);
        if (!name) return EINVAL;
        memset(m->name, 0, sizeof m->name);
        snprintf((char *)m->name, sizeof m->name, "%s", name);
        m->reserved = 0;
        return 0;
    }
    case VIDIOC_G_CTRL: {
        struct v4l2_control *c = arg;
        return get_control(d, c->id, &c->value);
    }
    case VIDIOC_S_CTRL: {
        struct v4l2_control *c = arg;
        return set_control(d, c->id, &c->value, true);
    }
    case VIDIOC_G_EXT_CTRLS:
    case VIDIOC_S_EXT_CTRLS:
    case VIDIOC_TRY_EXT_CTRLS: return ext_controls(d, request, arg);
    default: return ENOTTY;
    }
}

static int meta_ioctl(unsigned long request, void *arg) {
    switch (request) {
    case VIDIOC_ENUM_FMT: {
        struct v4l2_fmtdesc *f = arg;
        if (f->type != V4L2_BUF_TYPE_META_CAPTURE || f->index != 0) return EINVAL;
        memset(f->reserved, 0, sizeof f->reserved);
        f->flags = 0;
        snprintf((char *)f->description, sizeof f->description, "UVC Payload Header Metadata");
        f->pixelformat = V4L2_META_FMT_UVC;
        return 0;
    }
    case VIDIOC_G_FMT:
    case VIDIOC_TRY_FMT:
    case VIDIOC_S_FMT: {
        struct v4l2_format *f = arg;
        if (f->type != V4L2_BUF_TYPE_META_CAPTURE) return EINVAL;
        memset(&f->fmt, 0, sizeof f->fmt);
        f->fmt.meta.dataformat = V4L2_META_FMT_UVC;
        f->fmt.meta.buffersize = 10240;
        return 0;
    }
    /* The metadata stream itself is not emulated. */
    case VIDIOC_REQBUFS:
    case VIDIOC_QUERYBUF:
    case VIDIOC_QBUF:
    case VIDIOC_DQBUF:
    case VIDIOC_STREAMON:
    case VIDIOC_STREAMOFF: return EINVAL;
    default: return ENOTTY;
    }
}

static const unsigned long answered_requests[] = {
    VIDIOC_QUERYCAP, VIDIOC_ENUM_FMT, VIDIOC_ENUM_FRAMESIZES, VIDIOC_ENUM_FRAMEINTERVALS, VIDIOC_G_FMT,
    VIDIOC_TRY_FMT, VIDIOC_S_FMT, VIDIOC_G_PARM, VIDIOC_S_PARM, VIDIOC_REQBUFS, VIDIOC_QUERYBUF, VIDIOC_QBUF,
    VIDIOC_DQBUF, VIDIOC_STREAMON, VIDIOC_STREAMOFF, VIDIOC_ENUMINPUT, VIDIOC_G_INPUT, VIDIOC_S_INPUT,
    VIDIOC_QUERYCTRL, VIDIOC_QUERY_EXT_CTRL, VIDIOC_QUERYMENU, VIDIOC_G_CTRL, VIDIOC_S_CTRL, VIDIOC_G_EXT_CTRLS,
    VIDIOC_S_EXT_CTRLS, VIDIOC_TRY_EXT_CTRLS, VIDIOC_G_PRIORITY, VIDIOC_S_PRIORITY,
};

static bool answered(unsigned long request) {
    for (size_t i = 0; i < sizeof answered_requests / sizeof answered_requests[0]; ++i)
        if (answered_requests[i] == request) return true;
    return false;
}

int fc_ioctl(int fd, unsigned long request, void *arg) {
    fc_handle *h = fc_handle_for(fd);
    fc_device *d = h->dev;
    request = (unsigned int)request; /* what the kernel looks at */
    if (!arg && answered(request)) {
        errno = EFAULT; /* an unknown request is ENOTTY whatever its argument */
        return -1;
    }
    bool blocking = false;
    if (request == VIDIOC_DQBUF) blocking = !(fcntl(fd, F_GETFL) & O_NONBLOCK);
    pthread_mutex_lock(&d->lock);
    int r;
    if (is_dead(h)) {
        r = ENODEV; /* video_unregister_device: every ioctl of an unplugged device */
    } else if (request == VIDIOC_G_PRIORITY) {
        *(uint32_t *)arg = max_priority(d);
        r = 0;
    } else if (request == VIDIOC_S_PRIORITY) {
        /* v4l2_prio_change: a handle below the highest priority may not change it */
        uint32_t p = *(uint32_t *)arg;
        r = p > V4L2_PRIORITY_RECORD ? EINVAL : h->priority < max_priority(d) ? EBUSY : 0;
        if (!r) h->priority = p == V4L2_PRIORITY_UNSET ? V4L2_PRIORITY_DEFAULT : p;
    } else if (request == VIDIOC_QUERYCAP) {
        struct v4l2_capability *cap = arg;
        memset(cap, 0, sizeof *cap);
        snprintf((char *)cap->driver, sizeof cap->driver, "uvcvideo");
        snprintf((char *)cap->card, sizeof cap->card, "%s", d->card);
        snprintf((char *)cap->bus_info, sizeof cap->bus_info, "usb-0000:00:14.0-1");
        cap->version = (6u << 16) | (1u << 8);
        cap->capabilities = V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_META_CAPTURE | V4L2_CAP_STREAMING |
                            V4L2_CAP_EXT_PIX_FORMAT | V4L2_CAP_DEVICE_CAPS;
        cap->device_caps = (h->meta ? V4L2_CAP_META_CAPTURE : V4L2_CAP_VIDEO_CAPTURE) | V4L2_CAP_STREAMING |
                           V4L2_CAP_EXT_PIX_FORMAT;
        r = 0;
    } else {
        r = h->meta ? meta_ioctl(request, arg) : capture_ioctl(d, h, request, arg, blocking);
    }
    pthread_mutex_unlock(&d->lock);
    if (r) {
        if (r != EAGAIN) fc_log("ioctl fd %d nr %lu: %s", fd, (unsigned long)_IOC_NR(request), strerror(r));
        errno = r;
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------ set-up */

void fc_device_init(void) {
    fc_device *d = &fc_dev;
    const char *video = getenv("FAKECAM_VIDEO");
    if (!video || !*video) return;
    const char *path = getenv("FAKECAM_DEVICE");
    if (!path || !*path) path = "/dev/video0";
    const char *log = getenv("FAKECAM_LOG");
    if (log && *log) log_fd = fc_libc.open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    char err[256];
    if (!fc_faults_parse(getenv("FAKECAM_FAULTS"), &d->faults, err, sizeof err)) {
        fc_warn("FAKECAM_FAULTS: %s", err);
        _exit(2);
    }
    if (path[0] != '/' || strlen(path) >= sizeof d->capture_path) {
        fc_warn("FAKECAM_DEVICE: '%s' should be an absolute path such as /dev/video0", path);
        _exit(2);
    }
    pthread_condattr_t attr;
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_cond_init(&d->changed, &attr);
    snprintf(d->video_path, sizeof d->video_path, "%s", video);
    const char *formats = getenv("FAKECAM_FORMATS");
    for (int i = 0; i < fc_format_count; ++i) {
        const char *name = fc_formats[i].fourcc == V4L2_PIX_FMT_YUYV ? "yuyv" : "mjpeg";
        if (!formats || !*formats || strstr(formats, name)) offered[offered_count++] = &fc_formats[i];
    }
    if (offered_count == 0) {
        fc_warn("FAKECAM_FORMATS: '%s' names no format (known: yuyv, mjpeg)", formats);
        _exit(2);
    }
    const char *stamp = getenv("FAKECAM_STAMP");
    d->stamp = stamp && *stamp && strcmp(stamp, "0") != 0;
    const char *card = getenv("FAKECAM_CARD");
    snprintf(d->card, sizeof d->card, "%s", card && *card ? card : "HeritageLens Emulated Webcam");
    d->capture_number = path_number(path);
    snprintf(d->capture_path, sizeof d->capture_path, "%s", path);
    if (d->capture_number >= 0) set_paths(d, d->capture_number);
    d->memfd = -1;
    d->present = true;
    d->replug_at = -1;
    d->busy_until = -2;
    d->scene_start = -1;
    power_on(d);
    fc_enabled = true;
    fc_log("emulating %s (metadata %s) from %s", d->capture_path, d->meta_path[0] ? d->meta_path : "none", video);
}
