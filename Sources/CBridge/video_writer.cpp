// Video files written through FFmpeg's libraries directly, not OpenCV's VideoWriter: OpenCV 4.6
// drops the result of every packet write and of the trailer (a full disk gave exit 0 and an
// unplayable file), and passes no options to the muxer, so its MP4 keeps the whole index in
// memory until the end (a killed run left nothing playable). Here every write is checked and
// the containers are written so that what is on disk plays at any moment:
//
// - MP4/MOV/M4V: fragmented (an empty moov up front, then a moof+mdat fragment at every
//   keyframe and at least every quarter second), each fragment flushed to the file when complete;
// - Matroska: clusters of at most a quarter second, flushed when complete;
// - AVI (MJPEG): written as it comes; FFmpeg reads an AVI without its final index.
//
// The encoder keeps a few frames in flight (x264's lookahead), so a killed run loses those and
// the unfinished fragment: measured, the last 7-14 frames at 30 fps (docs/reliability.md).
#include "internal.hpp"
#include <cmath>
#include <cstring>
#include <memory>
#include <sys/stat.h>
#include <unistd.h>
#include <cerrno>

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libswscale/swscale.h>
}

namespace {

// Longest stretch of video held back by the muxer before it reaches the file.
constexpr int kFlushMilliseconds = 250;

}  // namespace

std::string cbridge::ffmpeg_error(int code) {
    char text[AV_ERROR_MAX_STRING_SIZE] = {0};
    av_strerror(code, text, sizeof text);
    return text;
}

struct cb_video_writer {
    AVFormatContext *format = nullptr;
    AVCodecContext *encoder = nullptr;
    AVStream *stream = nullptr;
    AVFrame *frame = nullptr;
    AVPacket *packet = nullptr;
    SwsContext *scaler = nullptr;
    cv::Size size;
    std::string path;
    int64_t next_pts = 0;
    // Bytes of the file known to be written whole: after a write that succeeded, every fragment
    // or cluster handed out so far is on disk. A failed write is cut back to this, so no torn
    // fragment is left at the end.
    int64_t whole_bytes = 0;
    // A write failed: the file is closed without a trailer, and further frames are refused.
    bool failed = false;

    ~cb_video_writer() {
        if (format && format->pb) avio_closep(&format->pb);
        avformat_free_context(format);
        avcodec_free_context(&encoder);
        av_frame_free(&frame);
        av_packet_free(&packet);
        sws_freeContext(scaler);
    }

    // Hands every packet the encoder has ready to the muxer. `frame` nullptr drains the encoder.
    bool encode(const AVFrame *input) {
        int status = avcodec_send_frame(encoder, input);
        if (status < 0) return fail("the encoder refused a frame", status);
        while (true) {
            status = avcodec_receive_packet(encoder, packet);
            if (status == AVERROR(EAGAIN) || status == AVERROR_EOF) return true;
            if (status < 0) return fail("the encoder failed", status);
            av_packet_rescale_ts(packet, encoder->time_base, stream->time_base);
            packet->stream_index = stream->index;
            status = av_interleaved_write_frame(format, packet);
            av_packet_unref(packet);
            if (status < 0) return fail(nullptr, status);
            if (format->pb && format->pb->error < 0) return fail(nullptr, format->pb->error);
            if (format->pb) whole_bytes = avio_tell(format->pb);
        }
    }

    // `what` nullptr: the system's own words ("No space left on device") say it all.
    bool fail(const char *what, int code) {
        failed = true;
        cbridge::set_error(what ? std::string(what) + ": " + cbridge::ffmpeg_error(code) : cbridge::ffmpeg_error(code));
        return false;
    }
};

extern "C" {

cb_video_writer *cb_video_writer_open(const char *path, const char *fourcc, double fps, int32_t width,
                                      int32_t height) {
    CB_GUARD(nullptr, {
        if (std::strlen(fourcc) != 4 || width <= 0 || height <= 0 || !(fps > 0)) {
            cbridge::set_error("bad codec, size or rate");
            return nullptr;
        }
        std::unique_ptr<cb_video_writer> w(new cb_video_writer());
        w->size = cv::Size(width, height);
        w->path = path;
        if (avformat_alloc_output_context2(&w->format, nullptr, nullptr, path) < 0 || !w->format) {
            cbridge::set_error("FFmpeg has no container for this extension");
            return nullptr;
        }
        const std::string code(fourcc);
        const AVCodec *codec = code == "avc1"   ? avcodec_find_encoder_by_name("libx264")
                               : code == "mp4v" ? avcodec_find_encoder(AV_CODEC_ID_MPEG4)
                               : code == "MJPG" ? avcodec_find_encoder(AV_CODEC_ID_MJPEG)
                                                : nullptr;
        if (!codec) {
            cbridge::set_error("FFmpeg has no " + code + " encoder");
            return nullptr;
        }
        w->encoder = avcodec_alloc_context3(codec);
        w->frame = av_frame_alloc();
        w->packet = av_packet_alloc();
        if (!w->encoder || !w->frame || !w->packet) throw std::bad_alloc();
        AVCodecContext *e = w->encoder;
        // 4:2:0 needs even sides: an odd frame is scaled by one pixel rather than refused.
        e->width = (width + 1) & ~1;
        e->height = (height + 1) & ~1;
        e->pix_fmt = code == "MJPG" ? AV_PIX_FMT_YUVJ420P : AV_PIX_FMT_YUV420P;
        AVRational rate = av_d2q(fps, 100000);
        e->framerate = rate;
        e->time_base = av_inv_q(rate);
        // A keyframe a second: a fragment (and a place to start playing) at least that often.
        e->gop_size = std::max(1, int(std::lround(fps)));
        if (code == "avc1") {
            // veryfast, a 5-frame lookahead: less than the medium preset's cost on the frame
            // thread (sinks p50 4.5-5.7 against 6.1 ms with OpenCV's writer, a file as large),
            // and few frames in flight to lose on a kill (medium holds 40). One thread: the
            // pipeline is meant to leave the other cores alone.
            av_opt_set(e->priv_data, "preset", "veryfast", 0);
            av_opt_set(e->priv_data, "crf", "23", 0);
            av_opt_set(e->priv_data, "rc-lookahead", "5", 0);
            e->thread_count = 1;
        } else if (code == "mp4v") {
            e->bit_rate = int64_t(std::min(8e6, 0.15 * fps * e->width * e->height));
            e->thread_count = 1;
        } else {
            e->qmin = e->qmax = 4;
        }
        if (w->format->oformat->flags & AVFMT_GLOBALHEADER) e->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
        int status = avcodec_open2(e, codec, nullptr);
        if (status < 0) {
            cbridge::set_error("cannot open the " + code + " encoder: " + cbridge::ffmpeg_error(status));
            return nullptr;
        }
        w->stream = avformat_new_stream(w->format, nullptr);
        if (!w->stream) throw std::bad_alloc();
        w->stream->time_base = e->time_base;
        w->stream->avg_frame_rate = rate;
        avcodec_parameters_from_context(w->stream->codecpar, e);
        w->frame->format = e->pix_fmt;
        w->frame->width = e->width;
        w->frame->height = e->height;
        if (av_frame_get_buffer(w->frame, 0) < 0) throw std::bad_alloc();
        w->scaler = sws_getContext(width, height, AV_PIX_FMT_BGR24, e->width, e->height, e->pix_fmt,
                                   SWS_BILINEAR, nullptr, nullptr, nullptr);
        if (!w->scaler) throw std::bad_alloc();

        status = avio_open(&w->format->pb, path, AVIO_FLAG_WRITE);
        if (status < 0) {
            cbridge::set_error("cannot create the file: " + cbridge::ffmpeg_error(status));
            return nullptr;
        }
        // Every packet's bytes go to the file as soon as the muxer lets them out.
        w->format->flags |= AVFMT_FLAG_FLUSH_PACKETS;
        AVDictionary *options = nullptr;
        const std::string muxer = w->format->oformat->name;
        if (muxer == "mp4" || muxer == "mov" || muxer == "ipod") {
            av_dict_set(&options, "movflags", "frag_keyframe+empty_moov+default_base_moof", 0);
            av_dict_set_int(&options, "frag_duration", int64_t(kFlushMilliseconds) * 1000, 0);
        } else if (muxer == "matroska") {
            av_dict_set_int(&options, "cluster_time_limit", kFlushMilliseconds, 0);
        }
        status = avformat_write_header(w->format, &options);
        av_dict_free(&options);
        if (status >= 0 && w->format->pb->error < 0) status = w->format->pb->error;
        if (status < 0) {
            cbridge::set_error("cannot write the container's header: " + cbridge::ffmpeg_error(status));
            return nullptr;
        }
        w->whole_bytes = avio_tell(w->format->pb);
        return w.release();
    })
}

int32_t cb_video_writer_write(cb_video_writer *w, const cb_image *frame) {
    CB_GUARD(-1, {
        if (w->failed) {
            cbridge::set_error("an earlier write to it failed");
            return -1;
        }
        if (frame->mat.size() != w->size || frame->mat.type() != CV_8UC3) {
            cbridge::set_error("frame size or type differs from the video's");
            return -1;
        }
        if (av_frame_make_writable(w->frame) < 0) throw std::bad_alloc();
        const uint8_t *planes[1] = {frame->mat.data};
        const int strides[1] = {int(frame->mat.step[0])};
        sws_scale(w->scaler, planes, strides, 0, frame->mat.rows, w->frame->data, w->frame->linesize);
        w->frame->pts = w->next_pts++;
        return w->encode(w->frame) ? 0 : -1;
    })
}

int32_t cb_video_writer_close(cb_video_writer *w) {
    if (!w) return 0;
    int32_t result = 0;
    try {
        cbridge::clear_error();
        // After a failed write (a full disk) the trailer would fail too: the fragments already
        // on disk are what is left, and they play.
        if (!w->failed && w->encode(nullptr)) {
            int status = av_write_trailer(w->format);
            if (status < 0) w->fail("cannot write the container's trailer", status);
        }
        if (w->format->pb) {
            avio_flush(w->format->pb);
            int status = w->format->pb->error;
            if (status < 0 && !w->failed) w->fail(nullptr, status);
            status = avio_closep(&w->format->pb);
            if (status < 0 && !w->failed) w->fail("closing the file failed", status);
        }
        struct stat st {};
        if (w->failed && stat(w->path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && st.st_size > w->whole_bytes) {
            if (truncate(w->path.c_str(), w->whole_bytes) != 0) {
                cbridge::set_error(cb_last_error() + std::string("; cutting off the torn end failed: ") + std::strerror(errno));
            }
        }
        result = w->failed ? -1 : 0;
    } catch (const std::exception &e) {
        cbridge::set_error(e.what());
        result = -1;
    }
    delete w;
    return result;
}

}  // extern "C"
