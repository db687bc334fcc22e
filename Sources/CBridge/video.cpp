// Video files read through FFmpeg's libraries directly (written in video_writer.cpp), and cameras
// through OpenCV's V4L2 backend loaded only when asked for.
//
// OpenCV's videoio is not linked: with its image codecs it brings GDAL, Xerces, GEOS, PROJ,
// Poppler and HDF5 into every process, and the dynamic loader's symbol lookups for them took
// 0.2-0.3 s of each start (docs/batch.md, "Libraries loaded at start"). The reader below decodes
// as OpenCV 4.6's FFmpeg backend does where it decides pixels or times (the colour conversion at
// the coded size with a bicubic filter, the timestamp taken, the frame count and rate asked of
// the container, the rotation in the stream's display matrix), so a video gives the same frames
// as it did through OpenCV, and the same times but for the frames a decoder gives back only at
// the end of a file, which carry their own times where OpenCV gave 0.
#include "internal.hpp"
#include <cmath>
#include <cstring>
#include <dlfcn.h>
#include <memory>
#include <sched.h>
#include <opencv2/core.hpp>
#include <opencv2/videoio.hpp>  // the camera class's layout and constants only; its library is opened on demand

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/display.h>
#include <libswscale/swscale.h>
}

namespace {

double seconds_of(AVRational r) { return r.num == 0 || r.den == 0 ? 0.0 : double(r.num) / double(r.den); }

// Decoder threads as OpenCV gives them: one per CPU this process may run on, at most 16.
int decoder_threads() {
    cpu_set_t set;
    CPU_ZERO(&set);
    int n = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 1;
    return std::max(1, std::min(n, 16));
}

// A camera through OpenCV's own V4L2 backend: the fallback to our V4L2 capture (v4l2.cpp). Its
// library is opened the first time one is asked for, and its few entry points looked up by their
// C++ names, so that no other run pays for loading it.
class OpenCVCamera {
  public:
    static std::unique_ptr<OpenCVCamera> open(const char *path, std::string &error) {
        static Library lib = Library::load();
        if (!lib.ok()) {
            error = lib.error;
            return nullptr;
        }
        std::unique_ptr<OpenCVCamera> camera(new OpenCVCamera(lib));
        if (!lib.open(camera->capture(), std::string(path), cv::CAP_V4L2) || !lib.is_opened(camera->capture())) {
            error = "OpenCV's V4L2 backend cannot open it";
            return nullptr;
        }
        return camera;
    }
    ~OpenCVCamera() { lib_.destroy(capture()); }

    bool set(int property, double value) { return lib_.set(capture(), property, value); }
    double get(int property) const { return lib_.get(capture(), property); }
    bool grab() { return lib_.grab(capture()); }
    bool retrieve(cv::Mat &into) {
        cv::_OutputArray out(into);
        return lib_.retrieve(capture(), out, 0);
    }

  private:
    struct Library {
        using Construct = void (*)(cv::VideoCapture *);
        using Destroy = void (*)(cv::VideoCapture *);
        using Open = bool (*)(cv::VideoCapture *, const std::string &, int);
        using IsOpened = bool (*)(const cv::VideoCapture *);
        using Set = bool (*)(cv::VideoCapture *, int, double);
        using Get = double (*)(const cv::VideoCapture *, int);
        using Grab = bool (*)(cv::VideoCapture *);
        using Retrieve = bool (*)(cv::VideoCapture *, const cv::_OutputArray &, int);
        Construct construct = nullptr;
        Destroy destroy = nullptr;
        Open open = nullptr;
        IsOpened is_opened = nullptr;
        Set set = nullptr;
        Get get = nullptr;
        Grab grab = nullptr;
        Retrieve retrieve = nullptr;
        std::string error;

        bool ok() const { return error.empty(); }

        static Library load() {
            Library lib;
            const std::string name = "libopencv_videoio.so." + std::to_string(CV_VERSION_MAJOR * 100 + CV_VERSION_MINOR);
            void *handle = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
            if (handle == nullptr) {
                const char *said = dlerror();
                lib.error = "OpenCV's video library (" + name + ") cannot be loaded" + (said ? std::string(": ") + said : "") +
                            "; install libopencv-videoio406 or use --backend v4l2";
                return lib;
            }
            auto find = [&](const char *symbol, auto &into) {
                into = reinterpret_cast<std::remove_reference_t<decltype(into)>>(dlsym(handle, symbol));
                if (into == nullptr && lib.error.empty())
                    lib.error = name + " lacks " + symbol + "; use --backend v4l2";
            };
            find("_ZN2cv12VideoCaptureC1Ev", lib.construct);
            find("_ZN2cv12VideoCaptureD1Ev", lib.destroy);
            find("_ZN2cv12VideoCapture4openERKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEEi", lib.open);
            find("_ZNK2cv12VideoCapture8isOpenedEv", lib.is_opened);
            find("_ZN2cv12VideoCapture3setEid", lib.set);
            find("_ZNK2cv12VideoCapture3getEi", lib.get);
            find("_ZN2cv12VideoCapture4grabEv", lib.grab);
            find("_ZN2cv12VideoCapture8retrieveERKNS_12_OutputArrayEi", lib.retrieve);
            return lib;
        }
    };

    explicit OpenCVCamera(const Library &lib) : lib_(lib) { lib_.construct(capture()); }
    cv::VideoCapture *capture() { return reinterpret_cast<cv::VideoCapture *>(storage_); }
    const cv::VideoCapture *capture() const { return reinterpret_cast<const cv::VideoCapture *>(storage_); }

    const Library &lib_;
    alignas(cv::VideoCapture) unsigned char storage_[sizeof(cv::VideoCapture)];
};

}  // namespace

struct cb_video_reader {
    // A file:
    AVFormatContext *format = nullptr;
    AVCodecContext *decoder = nullptr;
    AVStream *stream = nullptr;
    int stream_index = -1;
    AVFrame *picture = nullptr;
    AVPacket *packet = nullptr;
    SwsContext *scaler = nullptr;
    AVFrame *converted = nullptr;  // BGR at the coded size, as OpenCV converts
    int width = 0, height = 0;     // the stream's, before rotation
    int rotation = 0;              // the display matrix's angle, 0-359: the picture is turned by it to show upright
    int64_t frames_grabbed = 0;
    int64_t picture_pts = AV_NOPTS_VALUE;
    std::string failure;  // why the last retrieve failed, when known
    // A camera:
    std::unique_ptr<OpenCVCamera> camera;

    ~cb_video_reader() {
        sws_freeContext(scaler);
        av_frame_free(&converted);
        av_frame_free(&picture);
        av_packet_free(&packet);
        avcodec_free_context(&decoder);
        if (format) avformat_close_input(&format);
    }

    double fps() const { return seconds_of(av_guess_frame_rate(format, stream, nullptr)); }

    int64_t total_frames() const {
        int64_t n = stream->nb_frames;
        if (n == 0) {
            double duration = double(format->duration) / double(AV_TIME_BASE);
            if (duration < 0.000025) duration = double(stream->duration) * seconds_of(stream->time_base);
            n = int64_t(std::floor(duration * fps() + 0.5));
        }
        return n;
    }

    double pts_milliseconds() const {
        if (picture_pts == AV_NOPTS_VALUE) return 0;
        return double(picture_pts - stream->start_time) * seconds_of(stream->time_base) * 1000;
    }

    bool grab() {
        if (stream->nb_frames > 0 && frames_grabbed > stream->nb_frames) return false;
        picture_pts = AV_NOPTS_VALUE;
        // Frames the decoder still holds from the last packet come first.
        bool valid = avcodec_receive_frame(decoder, picture) >= 0;
        size_t other_packets = 0, failed_decodes = 0;
        while (!valid) {
            av_packet_unref(packet);
            int ret = av_read_frame(format, packet);
            if (ret == AVERROR(EAGAIN)) continue;
            if (ret == AVERROR_EOF) {
                // Drains the decoder of the frames it holds back.
                packet->data = nullptr;
                packet->size = 0;
                packet->stream_index = stream_index;
            } else if (ret < 0) {
                break;
            }
            if (packet->stream_index != stream_index) {
                av_packet_unref(packet);
                if (++other_packets > 4096) break;
                continue;
            }
            if (avcodec_send_packet(decoder, packet) < 0) break;
            ret = avcodec_receive_frame(decoder, picture);
            if (ret >= 0) valid = true;
            else if (ret == AVERROR(EAGAIN)) continue;
            else if (++failed_decodes > 64) break;
        }
        if (valid) {
            picture_pts = picture->pts != AV_NOPTS_VALUE && picture->pts != 0 ? picture->pts : picture->pkt_dts;
            ++frames_grabbed;
        }
        return valid;
    }

    bool retrieve(cv::Mat &into) {
        if (picture == nullptr || picture->data[0] == nullptr) return false;
        // Converted at the coded size (a 1080-line H.264 stream is coded with 1088), then the
        // shown part taken: the chroma filter near the bottom rows sees the rows OpenCV's did.
        const int coded_width = decoder->coded_width, coded_height = decoder->coded_height;
        if (converted == nullptr || converted->width != coded_width || converted->height != coded_height ||
            scaler == nullptr) {
            scaler = sws_getCachedContext(scaler, coded_width, coded_height, AVPixelFormat(picture->format), coded_width,
                                          coded_height, AV_PIX_FMT_BGR24, SWS_BICUBIC, nullptr, nullptr, nullptr);
            if (scaler == nullptr) {
                failure = "FFmpeg cannot convert its pixel format to BGR";
                return false;
            }
            av_frame_free(&converted);
            converted = av_frame_alloc();
            converted->format = AV_PIX_FMT_BGR24;
            converted->width = coded_width;
            converted->height = coded_height;
            if (av_frame_get_buffer(converted, 32) != 0) {
                av_frame_free(&converted);
                throw std::bad_alloc();
            }
        }
        sws_scale(scaler, picture->data, picture->linesize, 0, coded_height, converted->data, converted->linesize);
        cv::Mat shown(height, width, CV_8UC3, converted->data[0], size_t(converted->linesize[0]));
        switch (rotation) {
        case 90: cv::rotate(shown, into, cv::ROTATE_90_COUNTERCLOCKWISE); break;
        case 180: cv::rotate(shown, into, cv::ROTATE_180); break;
        case 270: cv::rotate(shown, into, cv::ROTATE_90_CLOCKWISE); break;
        default: shown.copyTo(into); break;
        }
        return !into.empty();
    }

    // Why a file did not open, for the one-line error.
    std::string open(const char *path) {
        AVDictionary *options = nullptr;
        av_dict_set(&options, "rtsp_flags", "prefer_tcp", 0);
        int err = avformat_open_input(&format, path, nullptr, &options);
        av_dict_free(&options);
        if (err < 0) return "FFmpeg cannot open it as a video";
        if (avformat_find_stream_info(format, nullptr) < 0) return "FFmpeg cannot read its streams (damaged or not a video)";
        for (unsigned i = 0; i < format->nb_streams; ++i) {
            AVCodecParameters *par = format->streams[i]->codecpar;
            if (par->codec_type != AVMEDIA_TYPE_VIDEO) continue;
            const AVCodec *codec = avcodec_find_decoder(par->codec_id);
            if (codec == nullptr) return std::string("FFmpeg has no decoder for its ") + avcodec_get_name(par->codec_id) + " video";
            decoder = avcodec_alloc_context3(codec);
            if (decoder == nullptr) throw std::bad_alloc();
            decoder->thread_count = decoder_threads();
            avcodec_parameters_to_context(decoder, par);
            if (avcodec_open2(decoder, codec, nullptr) < 0)
                return std::string("FFmpeg cannot open its ") + avcodec_get_name(par->codec_id) + " decoder";
            // Some decoders change the size they report; the container's is the one shown.
            if (par->width && decoder->width != par->width) decoder->width = par->width;
            if (par->height && decoder->height != par->height) decoder->height = par->height;
            stream_index = int(i);
            stream = format->streams[i];
            width = decoder->width;
            height = decoder->height;
            if (const uint8_t *matrix = av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, nullptr)) {
                rotation = -int(std::lround(av_display_rotation_get(reinterpret_cast<const int32_t *>(matrix))));
                if (rotation < 0) rotation += 360;
            }
            picture = av_frame_alloc();
            packet = av_packet_alloc();
            if (picture == nullptr || packet == nullptr) throw std::bad_alloc();
            return {};
        }
        return "it holds no video stream";
    }
};

extern "C" {

cb_video_reader *cb_video_reader_open(const char *path) {
    CB_GUARD(nullptr, {
        std::unique_ptr<cb_video_reader> r(new cb_video_reader());
        std::string why = r->open(path);
        if (!why.empty()) {
            cbridge::set_error(why);
            return nullptr;
        }
        return r.release();
    })
}

cb_video_reader *cb_video_reader_open_camera(const char *path, int32_t width, int32_t height, double fps) {
    CB_GUARD(nullptr, {
        std::string why;
        auto camera = OpenCVCamera::open(path, why);
        if (!camera) {
            cbridge::set_error(why);
            return nullptr;
        }
        camera->set(cv::CAP_PROP_FRAME_WIDTH, width);
        camera->set(cv::CAP_PROP_FRAME_HEIGHT, height);
        if (fps > 0) camera->set(cv::CAP_PROP_FPS, fps);
        camera->set(cv::CAP_PROP_BUFFERSIZE, 1);
        auto *r = new cb_video_reader();
        r->camera = std::move(camera);
        return r;
    })
}

int32_t cb_video_reader_info(const cb_video_reader *r, cb_video_info *out) {
    CB_GUARD(-1, {
        std::memset(out, 0, sizeof *out);
        int fourcc = 0;
        if (r->camera) {
            out->width = int32_t(r->camera->get(cv::CAP_PROP_FRAME_WIDTH));
            out->height = int32_t(r->camera->get(cv::CAP_PROP_FRAME_HEIGHT));
            out->fps = r->camera->get(cv::CAP_PROP_FPS);
            out->frame_count = int64_t(r->camera->get(cv::CAP_PROP_FRAME_COUNT));
            fourcc = int(r->camera->get(cv::CAP_PROP_FOURCC));
            std::strncpy(out->backend, "V4L2", sizeof out->backend - 1);
        } else {
            const bool turned = r->rotation % 180 != 0;
            out->width = turned ? r->height : r->width;
            out->height = turned ? r->width : r->height;
            out->fps = r->fps();
            out->frame_count = r->total_frames();
            const AVCodecParameters *par = r->stream->codecpar;
            // The container's tag, else the codec's name when it is four letters ("h264").
            fourcc = int(par->codec_tag);
            const char *name = avcodec_get_name(par->codec_id);
            if (fourcc == 0 && name != nullptr && std::strlen(name) == 4)
                fourcc = name[0] | (name[1] << 8) | (name[2] << 16) | (name[3] << 24);
            std::strncpy(out->backend, "FFMPEG", sizeof out->backend - 1);
        }
        for (int i = 0; i < 4; ++i) {
            char c = char((fourcc >> (8 * i)) & 0xff);
            out->fourcc[i] = (c >= 32 && c < 127) ? c : '?';
        }
        return 0;
    })
}

int32_t cb_video_reader_grab(cb_video_reader *r, double *pts_ms) {
    CB_GUARD(-1, {
        if (r->camera) {
            if (!r->camera->grab()) return 0;
            if (pts_ms) *pts_ms = r->camera->get(cv::CAP_PROP_POS_MSEC);
            return 1;
        }
        if (!r->grab()) return 0;
        if (pts_ms) *pts_ms = r->pts_milliseconds();
        return 1;
    })
}

int32_t cb_video_reader_retrieve(cb_video_reader *r, cb_image *dst) {
    CB_GUARD(-1, {
        // Written into dst's own buffer when the shape matches: no allocation a frame.
        r->failure.clear();
        bool ok = r->camera ? r->camera->retrieve(dst->mat) : r->retrieve(dst->mat);
        if (!ok || dst->mat.empty()) {
            cbridge::set_error(r->failure.empty() ? "a frame could not be decoded" : r->failure);
            return -1;
        }
        return 1;
    })
}

int32_t cb_video_reader_read(cb_video_reader *r, cb_image *dst, double *pts_ms) {
    int32_t grabbed = cb_video_reader_grab(r, pts_ms);
    if (grabbed <= 0) return grabbed;
    return cb_video_reader_retrieve(r, dst);
}

void cb_video_reader_free(cb_video_reader *r) { delete r; }

}  // extern "C"
