/*
 * fakecam: a USB (UVC) webcam emulated in user space at the V4L2 API level, for testing the live
 * camera path on machines without a camera. Loaded with LD_PRELOAD; see docs/camera.md.
 *
 * Layout: hooks.c interposes the C library (open, ioctl, syscall, mmap, stat, readdir, poll…),
 * device.c answers the V4L2 requests the way uvcvideo and videobuf2 do, sensor.c is the
 * camera's frame clock (one thread per stream), scene.c turns the video file into frames of the
 * mode asked for (libavformat, libswscale, libavcodec's MJPEG encoder), faults.c reads the
 * faults asked for in FAKECAM_FAULTS.
 */
#ifndef FAKECAM_H
#define FAKECAM_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <linux/videodev2.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

/* ------------------------------------------------------------------ the C library underneath */

/* The next definitions of what hooks.c interposes; device.c and sensor.c use these so that
 * their own I/O never loops back into the emulator. Nothing that may reach a hook (FFmpeg's file
 * I/O, above all) runs with the device lock held: the hooks take it. */
struct fc_libc {
    int (*open)(const char *, int, ...);
    int (*close)(int);
    ssize_t (*read)(int, void *, size_t);
    ssize_t (*write)(int, const void *, size_t);
    void *(*mmap)(void *, size_t, int, int, int, off_t);
    int (*munmap)(void *, size_t);
    long (*syscall)(long, ...);
};
extern struct fc_libc fc_libc;

/* ------------------------------------------------------------------ modes */

typedef struct {
    uint32_t numerator, denominator; /* seconds per frame, as V4L2 gives it */
} fc_fract;

typedef struct {
    uint32_t width, height;
    int interval_count;
    fc_fract intervals[4]; /* shortest first, as UVC descriptors list them; [0] is the default */
} fc_frame;

typedef struct {
    uint32_t fourcc;
    const char *description;
    uint32_t flags; /* V4L2_FMT_FLAG_* */
    int frame_count;
    fc_frame frames[4];
} fc_format;

extern const fc_format fc_formats[];
extern const int fc_format_count;

/* Bytes a frame of this format and size may take (UVC's dwMaxVideoFrameSize). */
uint32_t fc_max_frame_size(const fc_format *f, const fc_frame *fr);
uint32_t fc_bytes_per_line(const fc_format *f, const fc_frame *fr);

/* ------------------------------------------------------------------ faults (faults.c) */

typedef struct {
    bool on;
    long after;     /* frames the camera has produced (since the emulator loaded) before it starts */
    long every;     /* for corrupt/truncate: every Nth frame */
    long frames;    /* burst: frames held back */
    double seconds; /* how long it lasts; < 0 for ever */
    double keep;    /* truncate: fraction of the frame kept */
    bool scan;      /* corrupt: damage the entropy-coded data instead of the header */
    bool at_format; /* busy: EBUSY from S_FMT/REQBUFS/STREAMON instead of open */
} fc_fault;

typedef struct {
    fc_fault unplug, stall, corrupt, truncate, lowlight, busy, nospace, burst;
} fc_faults;

/* Parses FAKECAM_FAULTS ("unplug:after=30,for=1.5;corrupt:every=10"). Returns false with a
 * message in err on a spelling it does not know. */
bool fc_faults_parse(const char *spec, fc_faults *out, char *err, size_t errlen);

/* ------------------------------------------------------------------ the scene (scene.c) */

typedef struct fc_scene fc_scene;
fc_scene *fc_scene_open(const char *path, char *err, size_t errlen);
/* Renders what the camera sees at scene time t (seconds; the video loops) in the format and
 * size given, its luma scaled by gain, with `stamp` drawn in when it is >= 0. Returns the bytes
 * written to out, or -1. */
long fc_scene_render(fc_scene *s, double t, uint32_t fourcc, uint32_t width, uint32_t height, double gain,
                     long stamp, uint8_t *out, size_t capacity);

/* ------------------------------------------------------------------ the device (device.c) */

#define FC_MAX_BUFFERS 32 /* UVC_MAX_VIDEO_BUFFERS */

enum fc_buf_state { FC_BUF_DEQUEUED, FC_BUF_QUEUED, FC_BUF_ACTIVE, FC_BUF_DONE };

typedef struct {
    enum fc_buf_state state;
    uint32_t bytesused, flags, sequence;
    struct timeval timestamp;
    int map_count;
} fc_buffer;

typedef struct fc_device fc_device;
typedef struct fc_handle fc_handle;

/* One open file of an emulated node; dup()ed descriptors share it, as they share a kernel file. */
struct fc_handle {
    fc_device *dev;
    bool meta;           /* the metadata node (/dev/videoN+1), as uvcvideo registers beside each camera */
    unsigned generation; /* the plug-in it was opened on: after an unplug it answers ENODEV */
    int signal_fd;       /* an eventfd, readable when poll would report the device ready; the
                            descriptors the application holds are dups of it (so poll and select
                            wait on it natively); this one is the emulator's own */
    int number;          /* N of the /dev/videoN it was opened as, for fstat */
    int refs;            /* descriptors pointing at it */
    bool privileged;     /* uvcvideo's streaming owner (S_FMT, S_PARM, REQBUFS take it) */
    uint32_t priority;   /* VIDIOC_S_PRIORITY */
    bool signalled;      /* signal_fd's counter is non-zero */
    fc_handle *next;
};

struct fc_device {
    pthread_mutex_t lock;
    pthread_cond_t changed; /* buffers done, stream stopped, unplugged; CLOCK_MONOTONIC */
    char capture_path[64], meta_path[64];
    int capture_number; /* N of /dev/videoN, or -1 when the path has no number */
    char card[32];
    char video_path[4096];
    bool stamp; /* FAKECAM_STAMP: each frame shows its sequence number (a test aid, as vivid's counter) */
    fc_scene *scene;
    fc_faults faults;
    /* Plug state */
    bool present;
    double replug_at; /* monotonic seconds; < 0 never */
    unsigned generation;
    double busy_until; /* < 0: not decided yet */
    /* Stream state, kept across opens as a camera keeps it while powered */
    const fc_format *format;
    const fc_frame *frame;
    fc_fract interval;
    int32_t controls[16];
    fc_handle *handles;
    /* Buffers */
    unsigned buffer_count;
    uint32_t buffer_length, buffer_stride;
    int memfd;
    uint8_t *memory; /* the emulator's own mapping of memfd */
    unsigned allocation; /* bumps on every REQBUFS, so stale mappings are told apart */
    fc_buffer buffers[FC_MAX_BUFFERS];
    unsigned queued[FC_MAX_BUFFERS], queued_count; /* FIFO of indices owned by the driver */
    unsigned done[FC_MAX_BUFFERS], done_count;     /* FIFO of filled indices */
    bool streaming;
    unsigned stream_id; /* bumps when a stream stops: its sensor thread then ends */
    bool sensor_alive;  /* a sensor thread runs (it clears this, under the lock, as it ends) */
    uint32_t sequence;
    /* Counters since the emulator loaded */
    long frames_produced;
    double scene_start; /* monotonic seconds at the first STREAMON, < 0 before */
};

extern fc_device fc_dev;
extern bool fc_enabled;

void fc_device_init(void);
/* Returns the node an absolute path names (capture or metadata), or 0 when the path is not ours.
 * 1 = capture, 2 = metadata. Missing nodes (unplugged) still answer so that they fail with ENOENT. */
int fc_path_kind(const char *path);
int fc_open(const char *path, int flags);
fc_handle *fc_handle_for(int fd);
int fc_close(int fd);
int fc_dup(int oldfd, int newfd);
int fc_ioctl(int fd, unsigned long request, void *arg);
void *fc_mmap(void *addr, size_t length, int prot, int flags, int fd, off_t offset);
void fc_munmap_seen(void *addr, size_t length);
int fc_stat_path(const char *path, struct stat *st); /* 0, -1 with errno, or 1 not ours */
int fc_fstat(int fd, struct stat *st);
short fc_poll_events(int fd, short requested);
/* Names of present nodes in /dev (without "/dev/"), for directory listings. */
int fc_dev_entries(char names[][32], int max);

/* Device internals shared with sensor.c; called with fc_dev.lock held. */
void fc_refresh_readiness(fc_device *d);
void fc_unplug_locked(fc_device *d, double seconds);
int32_t fc_control_value(const fc_device *d, uint32_t id);

/* ------------------------------------------------------------------ the sensor (sensor.c) */

/* Opens the video the first time a node is opened. Without the device lock: FFmpeg opens files
 * through the hooked open(). */
void fc_open_scene(fc_device *d);
/* Starts the frame clock for the stream just turned on (lock held). Returns 0 or an errno. */
int fc_sensor_start(fc_device *d);
/* Waits (lock held) until the sensor thread of a stopped stream has ended, so that buffers can go. */
void fc_sensor_wait_gone(fc_device *d);

/* ------------------------------------------------------------------ misc */

double fc_now(void);     /* CLOCK_MONOTONIC seconds */
int64_t fc_now_ns(void); /* CLOCK_MONOTONIC nanoseconds */
void fc_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void fc_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
