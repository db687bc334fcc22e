// Video files read through OpenCV's FFmpeg backend (written in video_writer.cpp) (GStreamer is never asked: it wants pipeline strings
// and logs assertion noise for plain file names).
#include "internal.hpp"
#include <cstring>
#include <opencv2/videoio.hpp>

struct cb_video_reader {
    cv::VideoCapture cap;
    cv::Mat scratch;
};

extern "C" {

cb_video_reader *cb_video_reader_open(const char *path) {
    CB_GUARD(nullptr, {
        auto *r = new cb_video_reader();
        if (!r->cap.open(path, cv::CAP_FFMPEG) || !r->cap.isOpened()) {
            delete r;
            cbridge::set_error("FFmpeg cannot open it as a video");
            return nullptr;
        }
        // RGB conversion is ours to ask for; FFmpeg's converted BGR is what we want.
        r->cap.set(cv::CAP_PROP_CONVERT_RGB, 1);
        return r;
    })
}

cb_video_reader *cb_video_reader_open_camera(const char *path, int32_t width, int32_t height, double fps) {
    CB_GUARD(nullptr, {
        auto *r = new cb_video_reader();
        if (!r->cap.open(path, cv::CAP_V4L2) || !r->cap.isOpened()) {
            delete r;
            cbridge::set_error("OpenCV's V4L2 backend cannot open it");
            return nullptr;
        }
        r->cap.set(cv::CAP_PROP_FRAME_WIDTH, width);
        r->cap.set(cv::CAP_PROP_FRAME_HEIGHT, height);
        if (fps > 0) r->cap.set(cv::CAP_PROP_FPS, fps);
        r->cap.set(cv::CAP_PROP_BUFFERSIZE, 1);
        return r;
    })
}

int32_t cb_video_reader_info(const cb_video_reader *r, cb_video_info *out) {
    CB_GUARD(-1, {
        auto &cap = const_cast<cv::VideoCapture &>(r->cap);
        std::memset(out, 0, sizeof *out);
        out->width = int32_t(cap.get(cv::CAP_PROP_FRAME_WIDTH));
        out->height = int32_t(cap.get(cv::CAP_PROP_FRAME_HEIGHT));
        out->fps = cap.get(cv::CAP_PROP_FPS);
        out->frame_count = int64_t(cap.get(cv::CAP_PROP_FRAME_COUNT));
        int fourcc = int(cap.get(cv::CAP_PROP_FOURCC));
        for (int i = 0; i < 4; ++i) {
            char c = char((fourcc >> (8 * i)) & 0xff);
            out->fourcc[i] = (c >= 32 && c < 127) ? c : '?';
        }
        std::string backend = cap.getBackendName();
        std::strncpy(out->backend, backend.c_str(), sizeof out->backend - 1);
        return 0;
    })
}

int32_t cb_video_reader_read(cb_video_reader *r, cb_image *dst, double *pts_ms) {
    CB_GUARD(-1, {
        if (!r->cap.grab()) return 0;
        if (pts_ms) *pts_ms = r->cap.get(cv::CAP_PROP_POS_MSEC);
        // retrieve() writes into dst's existing buffer when the shape matches: no per-frame alloc.
        if (!r->cap.retrieve(dst->mat) || dst->mat.empty()) {
            cbridge::set_error("a frame could not be decoded");
            return -1;
        }
        return 1;
    })
}

int32_t cb_video_reader_grab(cb_video_reader *r, double *pts_ms) {
    CB_GUARD(-1, {
        if (!r->cap.grab()) return 0;
        if (pts_ms) *pts_ms = r->cap.get(cv::CAP_PROP_POS_MSEC);
        return 1;
    })
}

int32_t cb_video_reader_retrieve(cb_video_reader *r, cb_image *dst) {
    CB_GUARD(-1, {
        if (!r->cap.retrieve(dst->mat) || dst->mat.empty()) {
            cbridge::set_error("a frame could not be decoded");
            return -1;
        }
        return 1;
    })
}

void cb_video_reader_free(cb_video_reader *r) { delete r; }

}  // extern "C"
