/* What the emulated camera looks at: a video file, played in real time and looped, cropped to the
 * mode's aspect ratio (as webcams crop their sensor for 16:9 modes), scaled, and delivered as
 * YUYV (limited range, as UVC sends it) or as a baseline JPEG with 4:2:2 chroma (full range, as
 * UVC MJPEG cameras send it). */
#include "fakecam.h"

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libavutil/pixdesc.h>
#include <libswscale/swscale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* JPEG quantiser scale: 2 is near lossless, 31 blocky; webcams land around here. */
static const int jpeg_qscale = 4;

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
    AVCodecContext *encoder;
    AVPacket *encoded;
    int64_t pts;
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
    s->encoded = av_packet_alloc();
    if (!open_input(s, err, errlen)) {
        av_frame_free(&s->decoded);
        av_frame_free(&s->cropped);
        av_packet_free(&s->packet);
        av_packet_free(&s->encoded);
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

static bool ensure_encoder(fc_scene *s, uint32_t width, uint32_t height) {
    if (s->encoder && (uint32_t)s->encoder->width == width && (uint32_t)s->encoder->height == height) return true;
    avcodec_free_context(&s->encoder);
    av_frame_free(&s->planar);
    const AVCodec *codec = avcodec_find_encoder(AV_CODEC_ID_MJPEG);
    if (!codec) return false;
    AVCodecContext *c = avcodec_alloc_context3(codec);
    c->width = (int)width;
    c->height = (int)height;
    c->pix_fmt = AV_PIX_FMT_YUV422P;
    c->color_range = AVCOL_RANGE_JPEG;
    c->time_base = (AVRational){1, 30};
    c->flags |= AV_CODEC_FLAG_QSCALE;
    c->global_quality = FF_QP2LAMBDA * jpeg_qscale;
    c->thread_count = 1;
    av_opt_set(c->priv_data, "huffman", "default", 0);
    if (avcodec_open2(c, codec, NULL) < 0) {
        avcodec_free_context(&c);
        return false;
    }
    s->encoder = c;
    s->planar = av_frame_alloc();
    s->planar->format = AV_PIX_FMT_YUV422P;
    s->planar->width = (int)width;
    s->planar->height = (int)height;
    s->planar->color_range = AVCOL_RANGE_JPEG;
    if (av_frame_get_buffer(s->planar, 32) < 0) return false;
    return true;
}

long fc_scene_render(fc_scene *s, double t, uint32_t fourcc, uint32_t width, uint32_t height, double gain,
                     uint8_t *out, size_t capacity) {
    if (!seek_frame(s, (long)floor(t * s->fps + 1e-6))) return -1;
    if (fourcc == V4L2_PIX_FMT_YUYV) {
        size_t size = (size_t)width * height * 2;
        if (size > capacity) return -1;
        uint8_t *dst[4] = {out, NULL, NULL, NULL};
        int linesize[4] = {(int)width * 2, 0, 0, 0};
        if (!scale(s, width, height, AV_PIX_FMT_YUYV422, 0, dst, linesize)) return -1;
        apply_gain(out, (size_t)width * height, 2, gain, 16);
        return (long)size;
    }
    if (fourcc != V4L2_PIX_FMT_MJPEG) return -1;
    if (!ensure_encoder(s, width, height)) return -1;
    if (av_frame_make_writable(s->planar) < 0) return -1;
    if (!scale(s, width, height, AV_PIX_FMT_YUV422P, 1, s->planar->data, s->planar->linesize)) return -1;
    for (uint32_t y = 0; y < height; ++y) apply_gain(s->planar->data[0] + (size_t)y * s->planar->linesize[0], width, 1, gain, 0);
    s->planar->pts = s->pts++;
    s->planar->quality = s->encoder->global_quality;
    if (avcodec_send_frame(s->encoder, s->planar) < 0) return -1;
    if (avcodec_receive_packet(s->encoder, s->encoded) < 0) return -1;
    long size = s->encoded->size;
    if ((size_t)size > capacity) size = -1;
    else memcpy(out, s->encoded->data, (size_t)size);
    av_packet_unref(s->encoded);
    return size;
}
