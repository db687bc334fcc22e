/* What the emulated camera looks at: a video file, played in real time and looped, cropped to the
 * mode's aspect ratio (as webcams crop their sensor for 16:9 modes), scaled, and delivered as
 * YUYV (limited range, as UVC sends it) or as a baseline JPEG with 4:2:2 chroma (full range, as
 * UVC MJPEG cameras send it).
 *
 * A camera encodes in hardware; here the encoding takes CPU from the program under test, so it
 * is kept cheap: libjpeg-turbo straight from the planes, and each JPEG kept for the next time
 * the video loops round to the same frame. */
#include "fakecam.h"

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/imgutils.h>
#include <libavutil/pixdesc.h>
#include <libswscale/swscale.h>
#include <math.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
/* jpeglib.h needs FILE and size_t first */
#include <jpeglib.h>

/* Webcams' MJPEG lands around here. */
static const int jpeg_quality = 85;
/* Encoded frames kept for the next loop of the video, at most this many bytes. */
static const size_t cache_limit = 96u << 20;

typedef struct {
    uint8_t *data;
    long size;
} fc_cached;

struct fc_scene {
    char path[4096];
    AVFormatContext *format;
    AVCodecContext *decoder;
    int stream;
    double fps;
    long count;   /* frames in the file, -1 until its end was seen */
    long current; /* index of `decoded`, -1 for none */
    bool flushing;
    AVFrame *decoded, *cropped;
    AVPacket *packet;
    struct SwsContext *sws;
    AVFrame *planar; /* 4:2:2 full range, the JPEG encoder's input */
    uint8_t *jpeg;
    unsigned long jpeg_capacity;
    /* JPEGs by source frame, for one size and gain */
    fc_cached *cache;
    long cache_slots;
    size_t cache_bytes;
    uint32_t cache_width, cache_height;
    double cache_gain;
};

static void close_input(fc_scene *s) {
    avcodec_free_context(&s->decoder);
    avformat_close_input(&s->format);
    s->current = -1;
    s->flushing = false;
}

static bool open_input(fc_scene *s, char *err, size_t errlen) {
    int r = avformat_open_input(&s->format, s->path, NULL, NULL);
    if (r < 0) {
        snprintf(err, errlen, "%s: cannot open (%s)", s->path, av_err2str(r));
        return false;
    }
    if ((r = avformat_find_stream_info(s->format, NULL)) < 0) {
        snprintf(err, errlen, "%s: cannot read stream info (%s)", s->path, av_err2str(r));
        close_input(s);
        return false;
    }
    const AVCodec *codec = NULL;
    s->stream = av_find_best_stream(s->format, AVMEDIA_TYPE_VIDEO, -1, -1, &codec, 0);
    if (s->stream < 0 || !codec) {
        snprintf(err, errlen, "%s: no video stream FFmpeg can decode", s->path);
        close_input(s);
        return false;
    }
    AVStream *st = s->format->streams[s->stream];
    s->decoder = avcodec_alloc_context3(codec);
    avcodec_parameters_to_context(s->decoder, st->codecpar);
    s->decoder->thread_count = 1; /* the camera's own work should not crowd the program under test */
    if ((r = avcodec_open2(s->decoder, codec, NULL)) < 0) {
        snprintf(err, errlen, "%s: cannot open decoder (%s)", s->path, av_err2str(r));
        close_input(s);
        return false;
    }
    AVRational rate = st->avg_frame_rate.num > 0 ? st->avg_frame_rate : st->r_frame_rate;
    s->fps = rate.num > 0 && rate.den > 0 ? av_q2d(rate) : 30.0;
    s->current = -1;
    s->flushing = false;
    return true;
}

fc_scene *fc_scene_open(const char *path, char *err, size_t errlen) {
    fc_scene *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    snprintf(s->path, sizeof s->path, "%s", path);
    s->count = -1;
    s->decoded = av_frame_alloc();
    s->cropped = av_frame_alloc();
    s->packet = av_packet_alloc();
    if (!open_input(s, err, errlen)) {
        av_frame_free(&s->decoded);
        av_frame_free(&s->cropped);
        av_packet_free(&s->packet);
        free(s);
        return NULL;
    }
    return s;
}

/* 0 a frame, 1 end of file, -1 error. */
static int decode_next(fc_scene *s) {
    for (;;) {
        int r = avcodec_receive_frame(s->decoder, s->decoded);
        if (r == 0) {
            s->current++;
            return 0;
        }
        if (r == AVERROR_EOF) return 1;
        if (r != AVERROR(EAGAIN)) return -1;
        if (s->flushing) return 1;
        r = av_read_frame(s->format, s->packet);
        if (r < 0) {
            avcodec_send_packet(s->decoder, NULL);
            s->flushing = true;
            continue;
        }
        if (s->packet->stream_index == s->stream) avcodec_send_packet(s->decoder, s->packet);
        av_packet_unref(s->packet);
    }
}

static bool rewind_input(fc_scene *s) {
    char err[256];
    close_input(s);
    if (!open_input(s, err, sizeof err)) {
        fc_warn("%s", err);
        return false;
    }
    return true;
}

/* Decodes up to frame `wanted` of the loop. */
static bool seek_frame(fc_scene *s, long wanted) {
    if (s->count > 0) wanted %= s->count;
    if (wanted < s->current && !rewind_input(s)) return false;
    int guard = 0;
    while (s->current < wanted) {
        int r = decode_next(s);
        if (r < 0) return false;
        if (r == 1) {
            if (s->current < 0) return false; /* a file without a single frame */
            s->count = s->current + 1;
            wanted %= s->count;
            if (s->current == wanted) break;
            if (++guard > 2 || !rewind_input(s)) return false;
        }
    }
    return true;
}

static enum AVPixelFormat unjpeg(enum AVPixelFormat f, int *full_range) {
    switch (f) {
    case AV_PIX_FMT_YUVJ420P: *full_range = 1; return AV_PIX_FMT_YUV420P;
    case AV_PIX_FMT_YUVJ422P: *full_range = 1; return AV_PIX_FMT_YUV422P;
    case AV_PIX_FMT_YUVJ444P: *full_range = 1; return AV_PIX_FMT_YUV444P;
    default: return f;
    }
}

/* Scales the decoded frame, cropped to width:height, into dst (format dst_format, range as given). */
static bool scale(fc_scene *s, uint32_t width, uint32_t height, enum AVPixelFormat dst_format, int dst_full_range,
                  uint8_t *const dst[4], const int dst_linesize[4]) {
    AVFrame *src = s->cropped;
    av_frame_unref(src);
    if (av_frame_ref(src, s->decoded) < 0) return false;
    /* Crop the source to the mode's aspect ratio, centred, as a sensor's 16:9 window. */
    int64_t sw = src->width, sh = src->height;
    if (sw * height > (int64_t)width * sh) {
        int64_t keep = sh * width / height;
        src->crop_left = (size_t)((sw - keep) / 2);
        src->crop_right = (size_t)(sw - keep - (int64_t)src->crop_left);
    } else if (sw * height < (int64_t)width * sh) {
        int64_t keep = sw * height / width;
        src->crop_top = (size_t)((sh - keep) / 2);
        src->crop_bottom = (size_t)(sh - keep - (int64_t)src->crop_top);
    }
    if (av_frame_apply_cropping(src, 0) < 0) return false;
    int src_full = src->color_range == AVCOL_RANGE_JPEG;
    enum AVPixelFormat src_format = unjpeg((enum AVPixelFormat)src->format, &src_full);
    s->sws = sws_getCachedContext(s->sws, src->width, src->height, src_format, (int)width, (int)height, dst_format,
                                  SWS_BILINEAR, NULL, NULL, NULL);
    if (!s->sws) return false;
    const int *coefficients = sws_getCoefficients(SWS_CS_ITU601);
    sws_setColorspaceDetails(s->sws, coefficients, src_full, coefficients, dst_full_range, 0, 1 << 16, 1 << 16);
    sws_scale(s->sws, (const uint8_t *const *)src->data, src->linesize, 0, src->height, dst, dst_linesize);
    return true;
}

static void apply_gain(uint8_t *luma, size_t count, size_t step, double gain, int black) {
    if (gain >= 0.999) return;
    for (size_t i = 0; i < count; ++i) {
        uint8_t *p = luma + i * step;
        int v = black + (int)lrint((*p - black) * gain);
        *p = (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
    }
}

typedef struct {
    struct jpeg_error_mgr manager;
    jmp_buf escape;
} jpeg_errors;

static void jpeg_failed(j_common_ptr c) { longjmp(((jpeg_errors *)c->err)->escape, 1); }

/* Baseline JPEG, 4:2:2, from the planar frame (no colour conversion inside libjpeg). */
static long encode_jpeg(fc_scene *s, const AVFrame *f) {
    struct jpeg_compress_struct c;
    jpeg_errors errors;
    c.err = jpeg_std_error(&errors.manager);
    errors.manager.error_exit = jpeg_failed;
    /* volatile: read after a longjmp */
    volatile long size = -1;
    if (setjmp(errors.escape)) {
        jpeg_destroy_compress(&c);
        return -1;
    }
    jpeg_create_compress(&c);
    unsigned long length = s->jpeg_capacity;
    jpeg_mem_dest(&c, &s->jpeg, &length); /* grows (reallocates) s->jpeg when too small */
    c.image_width = (JDIMENSION)f->width;
    c.image_height = (JDIMENSION)f->height;
    c.input_components = 3;
    c.in_color_space = JCS_YCbCr;
    jpeg_set_defaults(&c);
    jpeg_set_quality(&c, jpeg_quality, TRUE);
    c.raw_data_in = TRUE;
    c.dct_method = JDCT_IFAST;
    c.comp_info[0].h_samp_factor = 2;
    c.comp_info[0].v_samp_factor = 1;
    for (int i = 1; i < 3; ++i) c.comp_info[i].h_samp_factor = c.comp_info[i].v_samp_factor = 1;
    jpeg_start_compress(&c, TRUE);
    JSAMPROW rows[3][DCTSIZE];
    JSAMPARRAY planes[3] = {rows[0], rows[1], rows[2]};
    while (c.next_scanline < c.image_height) {
        for (int p = 0; p < 3; ++p) {
            for (int r = 0; r < DCTSIZE; ++r) {
                int y = (int)c.next_scanline + r;
                if (y >= f->height) y = f->height - 1;
                rows[p][r] = f->data[p] + (size_t)y * (size_t)f->linesize[p];
            }
        }
        jpeg_write_raw_data(&c, planes, DCTSIZE);
    }
    jpeg_finish_compress(&c);
    if (length > s->jpeg_capacity) s->jpeg_capacity = length;
    size = (long)length;
    jpeg_destroy_compress(&c);
    return size;
}

static bool ensure_planar(fc_scene *s, uint32_t width, uint32_t height) {
    if (s->planar && (uint32_t)s->planar->width == width && (uint32_t)s->planar->height == height) return true;
    av_frame_free(&s->planar);
    s->planar = av_frame_alloc();
    s->planar->format = AV_PIX_FMT_YUV422P;
    s->planar->width = (int)width;
    s->planar->height = (int)height;
    s->planar->color_range = AVCOL_RANGE_JPEG;
    return av_frame_get_buffer(s->planar, 32) >= 0;
}

static void clear_cache(fc_scene *s) {
    for (long i = 0; i < s->cache_slots; ++i) free(s->cache[i].data);
    free(s->cache);
    s->cache = NULL;
    s->cache_slots = 0;
    s->cache_bytes = 0;
}

static fc_cached *cache_slot(fc_scene *s, long index, uint32_t width, uint32_t height, double gain) {
    if (s->cache_width != width || s->cache_height != height || s->cache_gain != gain) {
        clear_cache(s);
        s->cache_width = width;
        s->cache_height = height;
        s->cache_gain = gain;
    }
    if (index >= s->cache_slots) {
        long slots = index + 64;
        fc_cached *grown = realloc(s->cache, (size_t)slots * sizeof *grown);
        if (!grown) return NULL;
        memset(grown + s->cache_slots, 0, (size_t)(slots - s->cache_slots) * sizeof *grown);
        s->cache = grown;
        s->cache_slots = slots;
    }
    return &s->cache[index];
}

/* The stamp: 16 bits of the number, least significant first, as white (1) or black (0) 16x16
 * blocks along the bottom edge from the left corner (clear of the top-left stats panel of
 * heritage-lens), on the JPEG block grid so that coding leaves them crisp. */
enum { stamp_bits = 16, stamp_block = 16 };

static void stamp_planar(AVFrame *f, long number) {
    for (int b = 0; b < stamp_bits && (b + 1) * stamp_block <= f->width; ++b) {
        uint8_t luma = (number >> b) & 1 ? 255 : 0;
        for (int y = f->height - stamp_block; y < f->height; ++y) {
            memset(f->data[0] + (size_t)y * f->linesize[0] + b * stamp_block, luma, stamp_block);
            memset(f->data[1] + (size_t)y * f->linesize[1] + b * stamp_block / 2, 128, stamp_block / 2);
            memset(f->data[2] + (size_t)y * f->linesize[2] + b * stamp_block / 2, 128, stamp_block / 2);
        }
    }
}

static void stamp_yuyv(uint8_t *out, uint32_t width, uint32_t height, long number) {
    for (uint32_t b = 0; b < stamp_bits && (b + 1) * stamp_block <= width; ++b) {
        uint8_t luma = (number >> b) & 1 ? 235 : 16;
        for (uint32_t y = height - stamp_block; y < height; ++y) {
            uint8_t *p = out + ((size_t)y * width + b * stamp_block) * 2;
            for (int x = 0; x < stamp_block; ++x) {
                p[2 * x] = luma;
                p[2 * x + 1] = 128;
            }
        }
    }
}

long fc_scene_render(fc_scene *s, double t, uint32_t fourcc, uint32_t width, uint32_t height, double gain,
                     long stamp, uint8_t *out, size_t capacity) {
    long wanted = (long)floor(t * s->fps + 1e-6);
    if (s->count > 0) wanted %= s->count;
    if (fourcc == V4L2_PIX_FMT_YUYV) {
        if (!seek_frame(s, wanted)) return -1;
        size_t size = (size_t)width * height * 2;
        if (size > capacity) return -1;
        uint8_t *dst[4] = {out, NULL, NULL, NULL};
        int linesize[4] = {(int)width * 2, 0, 0, 0};
        if (!scale(s, width, height, AV_PIX_FMT_YUYV422, 0, dst, linesize)) return -1;
        apply_gain(out, (size_t)width * height, 2, gain, 16);
        if (stamp >= 0) stamp_yuyv(out, width, height, stamp);
        return (long)size;
    }
    if (fourcc != V4L2_PIX_FMT_MJPEG) return -1;
    fc_cached *slot = stamp >= 0 ? NULL : cache_slot(s, wanted, width, height, gain);
    if (slot && slot->data) {
        if ((size_t)slot->size > capacity) return -1;
        memcpy(out, slot->data, (size_t)slot->size);
        return slot->size;
    }
    if (!seek_frame(s, wanted) || !ensure_planar(s, width, height)) return -1;
    if (stamp < 0) slot = cache_slot(s, s->current, width, height, gain); /* the index the loop wraps to */
    if (!scale(s, width, height, AV_PIX_FMT_YUV422P, 1, s->planar->data, s->planar->linesize)) return -1;
    for (uint32_t y = 0; y < height; ++y) apply_gain(s->planar->data[0] + (size_t)y * s->planar->linesize[0], width, 1, gain, 0);
    if (stamp >= 0) stamp_planar(s->planar, stamp);
    long size = encode_jpeg(s, s->planar);
    if (size < 0 || (size_t)size > capacity) return -1;
    memcpy(out, s->jpeg, (size_t)size);
    if (slot && s->cache_bytes + (size_t)size <= cache_limit && (slot->data = malloc((size_t)size))) {
        memcpy(slot->data, s->jpeg, (size_t)size);
        slot->size = size;
        s->cache_bytes += (size_t)size;
    }
    return size;
}
