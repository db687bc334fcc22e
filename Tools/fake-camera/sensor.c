/* The camera's frame clock: one thread per stream. Each frame has a start-of-exposure time (the
 * driver timestamp, CLOCK_MONOTONIC, as uvcvideo stamps V4L2_BUF_FLAG_TSTAMP_SRC_SOE); the
 * buffer the application queued first is taken at that moment (a buffer queued later misses the
 * frame, which the driver then drops, as uvcvideo does), filled, and handed back once the frame
 * has crossed the USB bus. Sequence numbers count every frame the camera sent, delivered or not,
 * so gaps show frames lost in the driver. */
#include "fakecam.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* USB 2.0 high-bandwidth isochronous: 3 x 1024 bytes per 125 us microframe. */
static const double usb_bytes_per_second = 24.576e6;

/* Faults that happen once per process (the count of frames runs across streams). */
static bool unplug_done, stall_done, burst_done;
static double lowlight_since = -1;

/* Sleeps until the monotonic time t (ns); false when the stream stopped meanwhile. */
static bool wait_until(fc_device *d, int64_t t, unsigned id) {
    struct timespec ts = {(time_t)(t / 1000000000), (long)(t % 1000000000)};
    pthread_mutex_lock(&d->lock);
    while (d->stream_id == id && fc_now_ns() < t) pthread_cond_timedwait(&d->changed, &d->lock, &ts);
    bool running = d->stream_id == id;
    pthread_mutex_unlock(&d->lock);
    return running;
}

static bool damaged(const fc_fault *f, long n) { return f->on && n >= f->after && (n - f->after) % f->every == f->every - 1; }

/* A header no decoder reads (scan=false), or bytes flipped in the entropy-coded data (scan=true),
 * which decoders read with visible errors. */
static void corrupt_jpeg(uint8_t *data, long size, bool scan, unsigned seed) {
    if (size < 64) return;
    long start = scan ? size / 2 : 2, count = scan ? size / 16 : 160;
    if (start + count > size - 2) count = size - 2 - start;
    for (long i = 0; i < count; ++i) {
        seed = seed * 1103515245u + 12345u;
        data[start + i] = (uint8_t)(seed >> 16);
    }
}

typedef struct {
    unsigned id;
} sensor_args;

static void *sensor_main(void *arg) {
    fc_device *d = &fc_dev;
    unsigned id = ((sensor_args *)arg)->id;
    free(arg);
    pthread_mutex_lock(&d->lock);
    const fc_format *format = d->format;
    const fc_frame *frame = d->frame;
    const int64_t period = (int64_t)d->interval.numerator * 1000000000 / d->interval.denominator;
    const uint32_t capacity = fc_max_frame_size(format, frame);
    const fc_faults faults = d->faults;
    pthread_mutex_unlock(&d->lock);
    const bool mjpeg = format->fourcc == V4L2_PIX_FMT_MJPEG;
    uint8_t *staging = malloc(capacity);
    int64_t soe = fc_now_ns() + period; /* the first frame comes a frame period after STREAMON */
    bool warned = false;
    /* Frames filled but held back by a burst, handed over together with the last of it */
    struct {
        int index;
        uint32_t sequence;
        int64_t soe;
        long size;
    } held[FC_MAX_BUFFERS];
    int held_count = 0;

    while (staging) {
        /* What happens to this frame */
        pthread_mutex_lock(&d->lock);
        if (d->stream_id != id) {
            pthread_mutex_unlock(&d->lock);
            break;
        }
        const long n = d->frames_produced;
        if (faults.unplug.on && !unplug_done && n >= faults.unplug.after) {
            unplug_done = true;
            fc_unplug_locked(d, faults.unplug.seconds);
            pthread_mutex_unlock(&d->lock);
            break;
        }
        if (faults.stall.on && !stall_done && n >= faults.stall.after) {
            stall_done = true;
            soe += (int64_t)(faults.stall.seconds * 1e9);
            fc_log("stall for %.3f s", faults.stall.seconds);
        }
        int64_t frame_period = period;
        double gain = 1.0;
        if (faults.lowlight.on && n >= faults.lowlight.after) {
            if (lowlight_since < 0) {
                lowlight_since = fc_now();
                fc_log("low light");
            }
            if (faults.lowlight.seconds < 0 || fc_now() - lowlight_since < faults.lowlight.seconds) {
                /* Auto exposure lengthens the exposure; with exposure priority the rate gives way,
                 * otherwise the rate holds and the picture darkens. */
                bool automatic = fc_control_value(d, V4L2_CID_EXPOSURE_AUTO) == V4L2_EXPOSURE_APERTURE_PRIORITY;
                if (automatic && fc_control_value(d, V4L2_CID_EXPOSURE_AUTO_PRIORITY)) frame_period = period * 2;
                else gain = 0.45;
            }
        }
        const double scene_time = (double)soe / 1e9 - d->scene_start;
        /* Numbered now, so that the stamp can show it; a frame that is then dropped keeps it. */
        const uint32_t sequence = d->sequence++;
        const bool stamp = d->stamp;
        pthread_mutex_unlock(&d->lock);

        /* The picture, made ahead of its start of exposure */
        long size = fc_scene_render(d->scene, scene_time < 0 ? 0 : scene_time, format->fourcc, frame->width,
                                    frame->height, gain, stamp ? (long)sequence : -1, staging, capacity);
        if (size < 0) {
            if (!warned) fc_warn("%s: could not render a frame; sending empty frames", d->video_path);
            warned = true;
            size = 0;
        }
        bool drop = false;
        if (damaged(&faults.truncate, n)) {
            if (mjpeg) {
                size = (long)(size * faults.truncate.keep);
                fc_log("frame seq %u truncated to %ld bytes", sequence, size);
            } else {
                drop = true; /* uvc_video_validate_buffer: a short uncompressed frame is an error, dropped */
                fc_log("frame seq %u dropped: short", sequence);
            }
        }
        if (mjpeg && damaged(&faults.corrupt, n)) {
            corrupt_jpeg(staging, size, faults.corrupt.scan, (unsigned)n);
            fc_log("frame seq %u corrupted (%s)", sequence, faults.corrupt.scan ? "scan" : "header");
        }
        int64_t transfer = (int64_t)((double)size / usb_bytes_per_second * 1e9);
        if (transfer > period * 9 / 10) transfer = period * 9 / 10;

        /* Start of exposure: the driver takes the first queued buffer */
        if (!wait_until(d, soe, id)) break;
        pthread_mutex_lock(&d->lock);
        if (d->stream_id != id) {
            pthread_mutex_unlock(&d->lock);
            break;
        }
        int index = -1;
        if (!drop && d->queued_count > 0) {
            index = (int)d->queued[0];
            memmove(d->queued, d->queued + 1, (--d->queued_count) * sizeof d->queued[0]);
            d->buffers[index].state = FC_BUF_ACTIVE;
        }
        pthread_mutex_unlock(&d->lock);
        /* Buffers are freed only once this thread has ended (fc_sensor_wait_gone), so the copy
         * can go without the lock. */
        if (index >= 0) memcpy(d->memory + (size_t)index * d->buffer_stride, staging, (size_t)size);

        /* End of transfer: the buffer is done */
        if (!wait_until(d, soe + transfer, id)) break;
        pthread_mutex_lock(&d->lock);
        if (d->stream_id != id) {
            pthread_mutex_unlock(&d->lock);
            break;
        }
        if (index >= 0) {
            held[held_count].index = index;
            held[held_count].sequence = sequence;
            held[held_count].soe = soe;
            held[held_count++].size = size;
            const fc_fault *burst = &faults.burst;
            bool holding = burst->on && !burst_done && n >= burst->after && n < burst->after + burst->frames - 1 &&
                           held_count < FC_MAX_BUFFERS;
            if (burst->on && n >= burst->after + burst->frames - 1) burst_done = true;
            for (int i = 0; !holding && i < held_count; ++i) {
                fc_buffer *b = &d->buffers[held[i].index];
                b->bytesused = (uint32_t)held[i].size;
                b->sequence = held[i].sequence;
                b->timestamp.tv_sec = (time_t)(held[i].soe / 1000000000);
                b->timestamp.tv_usec = (suseconds_t)(held[i].soe % 1000000000 / 1000);
                b->state = FC_BUF_DONE;
                d->done[d->done_count++] = (unsigned)held[i].index;
                fc_log("frame seq %u ts %.6f index %d bytes %ld%s", held[i].sequence, (double)held[i].soe / 1e9,
                       held[i].index, held[i].size, held_count > 1 ? " burst" : "");
            }
            if (!holding) {
                held_count = 0;
                fc_refresh_readiness(d);
                pthread_cond_broadcast(&d->changed);
            }
        } else if (!drop) {
            fc_log("frame seq %u ts %.6f dropped: no buffer queued", sequence, (double)soe / 1e9);
        }
        d->frames_produced++;
        /* The emulator itself fell behind (a starved machine): the frames it could not make are
         * frames the driver never got; they count in the sequence as lost ones. */
        soe += frame_period;
        int64_t now = fc_now_ns();
        while (soe + frame_period < now) {
            soe += frame_period;
            d->sequence++;
            fc_log("frame seq %u lost: emulator behind", d->sequence - 1);
        }
        pthread_mutex_unlock(&d->lock);
    }

    free(staging);
    pthread_mutex_lock(&d->lock);
    d->sensor_alive = false;
    pthread_cond_broadcast(&d->changed);
    pthread_mutex_unlock(&d->lock);
    return NULL;
}

int fc_sensor_start(fc_device *d) {
    if (!d->scene) return EIO; /* fc_open_scene failed and said why */
    if (d->scene_start < 0) d->scene_start = fc_now();
    sensor_args *args = malloc(sizeof *args);
    if (!args) return ENOMEM;
    args->id = d->stream_id;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    pthread_t thread;
    d->sensor_alive = true;
    int r = pthread_create(&thread, &attr, sensor_main, args);
    pthread_attr_destroy(&attr);
    if (r) {
        d->sensor_alive = false;
        free(args);
        return ENOMEM;
    }
    return 0;
}

void fc_open_scene(fc_device *d) {
    static pthread_mutex_t once = PTHREAD_MUTEX_INITIALIZER;
    static bool tried;
    pthread_mutex_lock(&once);
    if (!tried) {
        tried = true;
        char err[512];
        fc_scene *scene = fc_scene_open(d->video_path, err, sizeof err);
        if (!scene) fc_warn("%s", err);
        pthread_mutex_lock(&d->lock);
        d->scene = scene;
        pthread_mutex_unlock(&d->lock);
    }
    pthread_mutex_unlock(&once);
}

void fc_sensor_wait_gone(fc_device *d) {
    while (d->sensor_alive) pthread_cond_wait(&d->changed, &d->lock);
}
