// V4L2 cameras through libv4l2: querying modes, mmap streaming, decoding MJPEG or YUYV into BGR.
// Which mode to ask for is decided in Swift (CameraModeNegotiator); this file only does it.
#include "internal.hpp"
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <libv4l2.h>
#include <linux/videodev2.h>
#include <opencv2/imgproc.hpp>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/select.h>
#include <sys/stat.h>
#include <vector>

namespace {

int xioctl(int fd, unsigned long request, void *arg) {
    int r;
    do {
        r = v4l2_ioctl(fd, request, arg);
    } while (r == -1 && errno == EINTR);
    return r;
}

void copy_text(char *dst, size_t cap, const unsigned char *src) {
    std::strncpy(dst, reinterpret_cast<const char *>(src), cap - 1);
    dst[cap - 1] = 0;
}

// Opening with the raw fd first keeps libv4l2's conversion layer out: we negotiate the camera's
// own formats and decode them ourselves (it would otherwise advertise emulated RGB formats).
int open_device(const char *path, int32_t *error_code) {
    struct stat st;
    if (stat(path, &st) != 0) {
        *error_code = errno;
        return -1;
    }
    if (!S_ISCHR(st.st_mode)) {
        *error_code = ENOTTY;
        return -1;
    }
    int fd = open(path, O_RDWR | O_NONBLOCK);
    if (fd < 0) {
        *error_code = errno;
        return -1;
    }
    // Ask the kernel directly first: libv4l2 prints to stderr when a file is not a V4L2 device.
    v4l2_capability probe{};
    if (ioctl(fd, VIDIOC_QUERYCAP, &probe) != 0) {
        *error_code = errno == EINVAL ? ENOTTY : errno;
        close(fd);
        return -1;
    }
    int vfd = v4l2_fd_open(fd, V4L2_DISABLE_CONVERSION);
    if (vfd < 0) {
        *error_code = errno ? errno : ENOTTY;
        close(fd);
        return -1;
    }
    return vfd;
}

bool is_capture(const v4l2_capability &cap, uint32_t *caps_out) {
    uint32_t caps = (cap.capabilities & V4L2_CAP_DEVICE_CAPS) ? cap.device_caps : cap.capabilities;
    *caps_out = caps;
    return (caps & V4L2_CAP_VIDEO_CAPTURE) && (caps & V4L2_CAP_STREAMING);
}

}  // namespace

struct cb_v4l2_camera {
    int fd = -1;
    cb_v4l2_mode mode{};
    uint32_t bytes_per_line = 0;
    struct Buffer {
        void *start = nullptr;
        size_t length = 0;
    };
    std::vector<Buffer> buffers;
    bool streaming = false;
};

extern "C" {

int32_t cb_v4l2_query(const char *path, cb_v4l2_device_info *info, cb_v4l2_mode *modes, int32_t max_modes,
                      int32_t *error_code) {
    CB_GUARD(-1, {
        *error_code = 0;
        std::memset(info, 0, sizeof *info);
        int fd = open_device(path, error_code);
        if (fd < 0) return -1;
        v4l2_capability cap{};
        if (xioctl(fd, VIDIOC_QUERYCAP, &cap) != 0) {
            *error_code = errno;
            v4l2_close(fd);
            return -1;
        }
        copy_text(info->card, sizeof info->card, cap.card);
        copy_text(info->driver, sizeof info->driver, cap.driver);
        copy_text(info->bus_info, sizeof info->bus_info, cap.bus_info);
        info->is_capture = is_capture(cap, &info->capabilities) ? 1 : 0;
        int32_t count = 0;
        if (info->is_capture) {
            v4l2_fmtdesc fmt{};
            fmt.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
            for (fmt.index = 0; xioctl(fd, VIDIOC_ENUM_FMT, &fmt) == 0; ++fmt.index) {
                v4l2_frmsizeenum size{};
                size.pixel_format = fmt.pixelformat;
                for (size.index = 0; xioctl(fd, VIDIOC_ENUM_FRAMESIZES, &size) == 0; ++size.index) {
                    // Stepwise/continuous ranges are reported by their largest size only.
                    uint32_t w = size.type == V4L2_FRMSIZE_TYPE_DISCRETE ? size.discrete.width : size.stepwise.max_width;
                    uint32_t h = size.type == V4L2_FRMSIZE_TYPE_DISCRETE ? size.discrete.height : size.stepwise.max_height;
                    v4l2_frmivalenum ival{};
                    ival.pixel_format = fmt.pixelformat;
                    ival.width = w;
                    ival.height = h;
                    bool any = false;
                    for (ival.index = 0; xioctl(fd, VIDIOC_ENUM_FRAMEINTERVALS, &ival) == 0; ++ival.index) {
                        any = true;
                        if (count < max_modes) {
                            const v4l2_fract f = ival.type == V4L2_FRMIVAL_TYPE_DISCRETE ? ival.discrete : ival.stepwise.min;
                            // A frame interval of n/d seconds is d/n frames per second.
                            modes[count] = {fmt.pixelformat, w, h, f.denominator, f.numerator,
                                            (fmt.flags & V4L2_FMT_FLAG_COMPRESSED) ? 1 : 0};
                        }
                        ++count;
                        if (ival.type != V4L2_FRMIVAL_TYPE_DISCRETE) break;
                    }
                    if (!any) {
                        if (count < max_modes)
                            modes[count] = {fmt.pixelformat, w, h, 0, 1, (fmt.flags & V4L2_FMT_FLAG_COMPRESSED) ? 1 : 0};
                        ++count;
                    }
                    if (size.type != V4L2_FRMSIZE_TYPE_DISCRETE) break;
                }
            }
        }
        v4l2_close(fd);
        return count;
    })
}

cb_v4l2_camera *cb_v4l2_camera_open(const char *path, cb_v4l2_mode mode, int32_t buffer_count,
                                    int32_t *error_code) {
    CB_GUARD(nullptr, {
        *error_code = 0;
        int fd = open_device(path, error_code);
        if (fd < 0) return nullptr;
        auto *cam = new cb_v4l2_camera();
        cam->fd = fd;
        auto fail = [&](const char *what) -> cb_v4l2_camera * {
            *error_code = errno ? errno : EINVAL;
            cbridge::set_error(std::string(what) + ": " + std::strerror(*error_code));
            cb_v4l2_camera_close(cam);
            return nullptr;
        };
        v4l2_capability cap{};
        uint32_t caps = 0;
        if (xioctl(fd, VIDIOC_QUERYCAP, &cap) != 0) return fail("VIDIOC_QUERYCAP");
        if (!is_capture(cap, &caps)) {
            errno = ENOTTY;
            return fail("not a streaming capture device");
        }
        v4l2_format fmt{};
        fmt.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
        fmt.fmt.pix.width = mode.width;
        fmt.fmt.pix.height = mode.height;
        fmt.fmt.pix.pixelformat = mode.pixel_format;
        fmt.fmt.pix.field = V4L2_FIELD_ANY;
        if (xioctl(fd, VIDIOC_S_FMT, &fmt) != 0) return fail("VIDIOC_S_FMT");
        cam->mode = mode;
        cam->mode.width = fmt.fmt.pix.width;
        cam->mode.height = fmt.fmt.pix.height;
        cam->mode.pixel_format = fmt.fmt.pix.pixelformat;
        cam->bytes_per_line = fmt.fmt.pix.bytesperline;
        if (mode.fps_numerator > 0) {
            v4l2_streamparm parm{};
            parm.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
            parm.parm.capture.timeperframe.numerator = mode.fps_denominator;
            parm.parm.capture.timeperframe.denominator = mode.fps_numerator;
            if (xioctl(fd, VIDIOC_S_PARM, &parm) == 0 && parm.parm.capture.timeperframe.numerator > 0) {
                cam->mode.fps_numerator = parm.parm.capture.timeperframe.denominator;
                cam->mode.fps_denominator = parm.parm.capture.timeperframe.numerator;
            }
        }
        v4l2_requestbuffers req{};
        req.count = uint32_t(buffer_count < 2 ? 2 : buffer_count);
        req.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
        req.memory = V4L2_MEMORY_MMAP;
        if (xioctl(fd, VIDIOC_REQBUFS, &req) != 0) return fail("VIDIOC_REQBUFS");
        for (uint32_t i = 0; i < req.count; ++i) {
            v4l2_buffer buf{};
            buf.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
            buf.memory = V4L2_MEMORY_MMAP;
            buf.index = i;
            if (xioctl(fd, VIDIOC_QUERYBUF, &buf) != 0) return fail("VIDIOC_QUERYBUF");
            void *start = v4l2_mmap(nullptr, buf.length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, buf.m.offset);
            if (start == MAP_FAILED) return fail("mmap");
            cam->buffers.push_back({start, buf.length});
            if (xioctl(fd, VIDIOC_QBUF, &buf) != 0) return fail("VIDIOC_QBUF");
        }
        v4l2_buf_type type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
        if (xioctl(fd, VIDIOC_STREAMON, &type) != 0) return fail("VIDIOC_STREAMON");
        cam->streaming = true;
        return cam;
    })
}

cb_v4l2_mode cb_v4l2_camera_mode(const cb_v4l2_camera *cam) { return cam->mode; }

int32_t cb_v4l2_camera_read(cb_v4l2_camera *cam, cb_image *bgr, cb_image *gray, int32_t timeout_ms,
                            double *timestamp_s, uint32_t *sequence, int32_t *error_code) {
    CB_GUARD(-1, {
        *error_code = 0;
        fd_set fds;
        FD_ZERO(&fds);
        FD_SET(cam->fd, &fds);
        timeval tv{timeout_ms / 1000, (timeout_ms % 1000) * 1000};
        int r = select(cam->fd + 1, &fds, nullptr, nullptr, &tv);
        if (r == 0) return 0;
        if (r < 0) {
            if (errno == EINTR) return 0;
            *error_code = errno;
            cbridge::set_error(std::string("select: ") + std::strerror(errno));
            return -1;
        }
        // Take every buffer the driver has done and keep the newest: when this thread was late (a
        // slow decode, a busy machine), the driver's queue holds older frames first, and decoding
        // them in turn would leave every frame behind by the queue's length.
        v4l2_buffer buf{};
        bool have = false;
        for (;;) {
            v4l2_buffer next{};
            next.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
            next.memory = V4L2_MEMORY_MMAP;
            if (xioctl(cam->fd, VIDIOC_DQBUF, &next) != 0) {
                if (errno == EAGAIN) break;
                *error_code = errno;
                cbridge::set_error(std::string("VIDIOC_DQBUF: ") + std::strerror(errno));
                return -1;
            }
            if (have && xioctl(cam->fd, VIDIOC_QBUF, &buf) != 0) {
                *error_code = errno;
                cbridge::set_error(std::string("VIDIOC_QBUF: ") + std::strerror(errno));
                return -1;
            }
            buf = next;
            have = true;
        }
        if (!have) return 0;
        *timestamp_s = double(buf.timestamp.tv_sec) + double(buf.timestamp.tv_usec) * 1e-6;
        *sequence = buf.sequence;
        const uint8_t *data = static_cast<const uint8_t *>(cam->buffers[buf.index].start);
        const int w = int(cam->mode.width), h = int(cam->mode.height);
        bool ok = true;
        switch (cam->mode.pixel_format) {
        case V4L2_PIX_FMT_MJPEG:
        case V4L2_PIX_FMT_JPEG: {
            // A frame cut short (lost USB packets, a camera's own fault) still decodes, grey below
            // the cut: without its end-of-image marker it is not taken.
            size_t n = buf.bytesused;
            while (n > 2 && data[n - 1] == 0) --n;  // some cameras pad after the marker
            ok = n > 4 && data[0] == 0xFF && data[1] == 0xD8 && data[n - 2] == 0xFF && data[n - 1] == 0xD9;
            if (!ok) break;
            // Decoded into a new matrix: decode_jpeg leaves its output untouched when it fails,
            // which would pass an older frame off as this one.
            cv::Mat decoded;
            std::string reason;
            ok = cbridge::decode_jpeg(data, n, decoded, reason) && decoded.cols == w && decoded.rows == h;
            if (!ok) break;
            bgr->mat = decoded;
            if (gray) cv::cvtColor(bgr->mat, gray->mat, cv::COLOR_BGR2GRAY);
            break;
        }
        case V4L2_PIX_FMT_YUYV: {
            cv::Mat yuyv(h, w, CV_8UC2, const_cast<uint8_t *>(data), cam->bytes_per_line ? cam->bytes_per_line : size_t(w) * 2);
            cv::cvtColor(yuyv, bgr->mat, cv::COLOR_YUV2BGR_YUYV);
            // Luma is every other byte: the gray image costs a channel extract, not a conversion.
            if (gray) cv::extractChannel(yuyv, gray->mat, 0);
            break;
        }
        case V4L2_PIX_FMT_GREY: {
            cv::Mat g(h, w, CV_8UC1, const_cast<uint8_t *>(data), cam->bytes_per_line ? cam->bytes_per_line : size_t(w));
            cv::cvtColor(g, bgr->mat, cv::COLOR_GRAY2BGR);
            if (gray) g.copyTo(gray->mat);
            break;
        }
        case V4L2_PIX_FMT_BGR24: {
            cv::Mat m(h, w, CV_8UC3, const_cast<uint8_t *>(data), cam->bytes_per_line ? cam->bytes_per_line : size_t(w) * 3);
            m.copyTo(bgr->mat);
            if (gray) cv::cvtColor(m, gray->mat, cv::COLOR_BGR2GRAY);
            break;
        }
        default:
            ok = false;
        }
        if (xioctl(cam->fd, VIDIOC_QBUF, &buf) != 0) {
            *error_code = errno;
            cbridge::set_error(std::string("VIDIOC_QBUF: ") + std::strerror(errno));
            return -1;
        }
        if (!ok) {
            // Skipped, not fatal: the next frame is a thirtieth of a second away.
            *error_code = EBADMSG;
            cbridge::set_error("a frame could not be decoded");
            return 0;
        }
        return 1;
    })
}

void cb_v4l2_camera_close(cb_v4l2_camera *cam) {
    if (!cam) return;
    if (cam->streaming) {
        v4l2_buf_type type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
        xioctl(cam->fd, VIDIOC_STREAMOFF, &type);
    }
    for (auto &b : cam->buffers) v4l2_munmap(b.start, b.length);
    if (cam->fd >= 0) v4l2_close(cam->fd);
    delete cam;
}

}  // extern "C"
