// cv::Mat buffers: allocation that reuses memory, reading, conversion, simple statistics.
#include "internal.hpp"
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

extern "C" {

cb_image *cb_image_create(void) { CB_GUARD(nullptr, { return new cb_image(); }) }
void cb_image_free(cb_image *img) { delete img; }
int32_t cb_image_width(const cb_image *img) { return img->mat.cols; }
int32_t cb_image_height(const cb_image *img) { return img->mat.rows; }
int32_t cb_image_channels(const cb_image *img) { return img->mat.empty() ? 0 : img->mat.channels(); }
int32_t cb_image_depth(const cb_image *img) { return img->mat.depth(); }
uint8_t *cb_image_data(cb_image *img) { return img->mat.data; }
size_t cb_image_step(const cb_image *img) { return img->mat.step[0]; }

int32_t cb_image_allocate(cb_image *img, int32_t w, int32_t h, int32_t channels) {
    CB_GUARD(-1, {
        if (w <= 0 || h <= 0 || channels < 1 || channels > 4) {
            cbridge::set_error("invalid image shape");
            return -1;
        }
        img->mat.create(h, w, CV_MAKETYPE(CV_8U, channels));
        return 0;
    })
}

int32_t cb_image_copy(const cb_image *src, cb_image *dst) {
    CB_GUARD(-1, {
        src->mat.copyTo(dst->mat);
        return 0;
    })
}

int32_t cb_image_fill(cb_image *img, double b, double g, double r, double a) {
    CB_GUARD(-1, {
        img->mat.setTo(cv::Scalar(b, g, r, a));
        return 0;
    })
}

int32_t cb_image_read(cb_image *dst, const char *path) {
    CB_GUARD(-1, {
        cv::Mat m = cv::imread(path, cv::IMREAD_UNCHANGED);
        if (m.empty()) {
            cbridge::set_error("not an image OpenCV can decode");
            return -1;
        }
        dst->mat = m;
        return 0;
    })
}

int32_t cb_image_normalize_bgr(cb_image *img) {
    CB_GUARD(-1, {
        cv::Mat &m = img->mat;
        if (m.empty()) {
            cbridge::set_error("empty image");
            return -1;
        }
        if (m.depth() != CV_8U) {
            double scale = 1.0;
            if (m.depth() == CV_16U) scale = 1.0 / 257.0;
            else if (m.depth() == CV_16S) scale = 1.0 / 128.0;
            else if (m.depth() == CV_32F || m.depth() == CV_64F) {
                double lo, hi;
                cv::minMaxLoc(m.reshape(1), &lo, &hi);
                scale = hi <= 1.0 ? 255.0 : 1.0;
            }
            cv::Mat converted;
            m.convertTo(converted, CV_MAKETYPE(CV_8U, m.channels()), scale);
            m = converted;
        }
        if (m.channels() == 1) cv::cvtColor(m, m, cv::COLOR_GRAY2BGR);
        else if (m.channels() == 4) cv::cvtColor(m, m, cv::COLOR_BGRA2BGR);
        else if (m.channels() == 2) {
            std::vector<cv::Mat> planes;
            cv::split(m, planes);
            cv::cvtColor(planes[0], m, cv::COLOR_GRAY2BGR);
        }
        return 0;
    })
}

int32_t cb_image_write(const cb_image *img, const char *path) {
    CB_GUARD(-1, {
        if (!cv::imwrite(path, img->mat)) {
            cbridge::set_error("imwrite failed (unknown extension or unwritable path)");
            return -1;
        }
        return 0;
    })
}

int32_t cb_image_to_gray(const cb_image *src, cb_image *dst) {
    CB_GUARD(-1, {
        const cv::Mat &m = src->mat;
        if (m.channels() == 3) cv::cvtColor(m, dst->mat, cv::COLOR_BGR2GRAY);
        else if (m.channels() == 4) cv::cvtColor(m, dst->mat, cv::COLOR_BGRA2GRAY);
        else m.copyTo(dst->mat);
        return 0;
    })
}

int32_t cb_image_resize(const cb_image *src, cb_image *dst, int32_t w, int32_t h, int32_t interp) {
    CB_GUARD(-1, {
        cv::resize(src->mat, dst->mat, cv::Size(w, h), 0, 0, interp);
        return 0;
    })
}

int32_t cb_image_crop(const cb_image *src, cb_image *dst, int32_t x, int32_t y, int32_t w, int32_t h) {
    CB_GUARD(-1, {
        cv::Rect r = cv::Rect(x, y, w, h) & cv::Rect(0, 0, src->mat.cols, src->mat.rows);
        if (r.area() == 0) {
            cbridge::set_error("crop rectangle lies outside the image");
            return -1;
        }
        src->mat(r).copyTo(dst->mat);
        return 0;
    })
}

int32_t cb_image_apply_light(cb_image *img, double gain_left, double gain_right, double offset) {
    CB_GUARD(-1, {
        cv::Mat &m = img->mat;
        if (m.depth() != CV_8U) {
            cbridge::set_error("lighting needs an 8-bit image");
            return -1;
        }
        const int ch = m.channels();
        std::vector<float> gain(m.cols);
        for (int x = 0; x < m.cols; ++x)
            gain[x] = float(gain_left + (gain_right - gain_left) * (m.cols > 1 ? double(x) / (m.cols - 1) : 0.0));
        for (int y = 0; y < m.rows; ++y) {
            uchar *p = m.ptr<uchar>(y);
            for (int x = 0; x < m.cols; ++x)
                for (int c = 0; c < ch; ++c) {
                    if (ch == 4 && c == 3) continue;
                    p[x * ch + c] = cv::saturate_cast<uchar>(p[x * ch + c] * gain[x] + offset);
                }
        }
        return 0;
    })
}

int32_t cb_image_jpeg_roundtrip(cb_image *img, int32_t quality) {
    CB_GUARD(-1, {
        std::vector<uchar> buffer;
        cv::imencode(".jpg", img->mat, buffer, {cv::IMWRITE_JPEG_QUALITY, quality});
        cv::imdecode(buffer, cv::IMREAD_UNCHANGED, &img->mat);
        return 0;
    })
}

struct cb_bytes {
    std::vector<uchar> data;
};

cb_bytes *cb_bytes_create(void) { CB_GUARD(nullptr, { return new cb_bytes(); }) }
void cb_bytes_free(cb_bytes *bytes) { delete bytes; }
const uint8_t *cb_bytes_data(const cb_bytes *bytes) { return bytes->data.data(); }
size_t cb_bytes_size(const cb_bytes *bytes) { return bytes->data.size(); }

int32_t cb_image_encode_jpeg(const cb_image *img, int32_t quality, cb_bytes *out) {
    CB_GUARD(-1, {
        if (img->mat.empty() || img->mat.depth() != CV_8U || (img->mat.channels() != 1 && img->mat.channels() != 3)) {
            cbridge::set_error("JPEG needs an 8-bit gray or BGR image");
            return -1;
        }
        if (!cv::imencode(".jpg", img->mat, out->data, {cv::IMWRITE_JPEG_QUALITY, quality})) {
            cbridge::set_error("imencode(.jpg) failed");
            return -1;
        }
        return 0;
    })
}

double cb_image_mean_abs_diff(const cb_image *a, const cb_image *b) {
    CB_GUARD(-1.0, {
        if (a->mat.size() != b->mat.size() || a->mat.type() != b->mat.type()) {
            cbridge::set_error("images differ in size or type");
            return -1.0;
        }
        cv::Mat diff;
        cv::absdiff(a->mat, b->mat, diff);
        cv::Scalar s = cv::mean(diff);
        double total = 0;
        for (int c = 0; c < a->mat.channels(); ++c) total += s[c];
        return total / a->mat.channels();
    })
}

double cb_image_mean_in_rect(const cb_image *img, int32_t c, int32_t x, int32_t y, int32_t w, int32_t h) {
    CB_GUARD(-1.0, {
        cv::Rect r = cv::Rect(x, y, w, h) & cv::Rect(0, 0, img->mat.cols, img->mat.rows);
        if (r.area() == 0 || c < 0 || c >= img->mat.channels()) {
            cbridge::set_error("empty rectangle or bad channel");
            return -1.0;
        }
        return cv::mean(img->mat(r))[c];
    })
}

}  // extern "C"
