// cv::Mat buffers: allocation that reuses memory, reading, conversion, simple statistics.
#include "internal.hpp"
#include <opencv2/imgproc.hpp>
#include <cmath>
#include <vector>

namespace cbridge {

void warp_upright(const cv::Mat &from, double cx, double cy, double angle_rad, double k, int n, cv::Mat &to) {
    const double c = std::cos(angle_rad), s = std::sin(angle_rad);
    // dst (u, v) -> src = centre + R(angle) ((u, v) - n/2) / k
    const cv::Matx23d m(c / k, -s / k, cx - (c - s) / k * n / 2.0, s / k, c / k, cy - (s + c) / k * n / 2.0);
    cv::warpAffine(from, to, m, cv::Size(n, n), cv::INTER_LINEAR | cv::WARP_INVERSE_MAP, cv::BORDER_REPLICATE);
}

}  // namespace cbridge

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
        std::string error;
        if (!cbridge::read_image_file(path, dst->mat, error)) {
            cbridge::set_error(error);
            return -1;
        }
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

const uint8_t *cb_image_encode(const cb_image *img, const char *extension, size_t *size) {
    CB_GUARD(nullptr, {
        thread_local std::vector<uint8_t> buffer;
        std::string error;
        if (!cbridge::encode_image(img->mat, extension, buffer, error)) {
            cbridge::set_error(error);
            return nullptr;
        }
        *size = buffer.size();
        return buffer.data();
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

int32_t cb_image_derotate(const cb_image *src, cb_image *dst, double angle_rad) {
    CB_GUARD(-1, {
        // The map from dst to src: src = c + R(angle) (dst - c).
        const double c = std::cos(angle_rad), s = std::sin(angle_rad);
        const double cx = (src->mat.cols - 1) / 2.0, cy = (src->mat.rows - 1) / 2.0;
        const cv::Matx23d m(c, -s, cx - c * cx + s * cy,
                            s, c, cy - s * cx - c * cy);
        cv::Mat out;
        cv::warpAffine(src->mat, out, m, src->mat.size(), cv::INTER_LINEAR | cv::WARP_INVERSE_MAP, cv::BORDER_REPLICATE);
        dst->mat = out;
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
        std::vector<uint8_t> buffer;
        std::string error;
        if (!cbridge::encode_jpeg(img->mat, quality, buffer, error) ||
            !cbridge::decode_image(buffer.data(), buffer.size(), img->mat, error)) {
            cbridge::set_error(error);
            return -1;
        }
        return 0;
    })
}

struct cb_bytes {
    std::vector<uint8_t> data;
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
        std::string error;
        if (!cbridge::encode_jpeg(img->mat, quality, out->data, error)) {
            cbridge::set_error(error);
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

double cb_image_mean_abs_diff_matched(const cb_image *a, const cb_image *b, int32_t max_shift) {
    CB_GUARD(-1.0, {
        if (a->mat.size() != b->mat.size() || a->mat.type() != b->mat.type() || max_shift < 0 ||
            2 * max_shift >= std::min(a->mat.cols, a->mat.rows)) {
            cbridge::set_error("images differ in size or type, or the shift is too large for them");
            return -1.0;
        }
        cv::Mat fa, fb;
        a->mat.convertTo(fa, CV_32F);
        b->mat.convertTo(fb, CV_32F);
        const int w = fa.cols - 2 * max_shift, h = fa.rows - 2 * max_shift;
        const cv::Mat core = fa(cv::Rect(max_shift, max_shift, w, h));
        // Both brought to mean 0 and a spread of 50 levels: exposure and contrast are no change.
        cv::Scalar mc, sc;
        cv::meanStdDev(core, mc, sc);
        const double kc = 50.0 / std::max(1.0, sc[0]);
        double best = 1e9;
        for (int dy = -max_shift; dy <= max_shift; ++dy) {
            for (int dx = -max_shift; dx <= max_shift; ++dx) {
                const cv::Mat other = fb(cv::Rect(max_shift + dx, max_shift + dy, w, h));
                cv::Scalar mo, so;
                cv::meanStdDev(other, mo, so);
                const double ko = 50.0 / std::max(1.0, so[0]);
                const cv::Scalar s = cv::mean(cv::abs((core - mc) * kc - (other - mo) * ko));
                double total = 0;
                for (int c = 0; c < fa.channels(); ++c) total += s[c];
                best = std::min(best, total / fa.channels());
            }
        }
        return best;
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

int32_t cb_image_warmth_in_polygons(const cb_image *bgr, const cb_point2f *inner, int32_t inner_count,
                                    const cb_point2f *outer, int32_t outer_count, double *inner_warmth,
                                    double *ring_warmth) {
    CB_GUARD(-1, {
        if (bgr->mat.type() != CV_8UC3 || inner_count < 3 || outer_count < 3) {
            cbridge::set_error("warmth needs an 8-bit BGR image and two polygons of 3 points or more");
            return -1;
        }
        auto polygon = [](const cb_point2f *pts, int32_t n) {
            std::vector<cv::Point> out;
            out.reserve(n);
            for (int32_t i = 0; i < n; ++i)
                out.emplace_back(int(std::lround(pts[i].x)), int(std::lround(pts[i].y)));
            return out;
        };
        const std::vector<cv::Point> in = polygon(inner, inner_count), out = polygon(outer, outer_count);
        cv::Rect area = cv::boundingRect(out) | cv::boundingRect(in);
        area &= cv::Rect(0, 0, bgr->mat.cols, bgr->mat.rows);
        if (area.area() < 16) return 0;
        // Only the polygons' box is converted: this runs on a few candidate faces, not frames.
        thread_local cv::Mat ycrcb, inner_mask, ring_mask;
        cv::cvtColor(bgr->mat(area), ycrcb, cv::COLOR_BGR2YCrCb);
        inner_mask.create(area.size(), CV_8UC1);
        ring_mask.create(area.size(), CV_8UC1);
        inner_mask.setTo(0);
        ring_mask.setTo(0);
        const cv::Point shift(-area.x, -area.y);
        cv::fillPoly(inner_mask, std::vector<std::vector<cv::Point>>{in}, cv::Scalar(255), cv::LINE_8, 0, shift);
        cv::fillPoly(ring_mask, std::vector<std::vector<cv::Point>>{out}, cv::Scalar(255), cv::LINE_8, 0, shift);
        ring_mask.setTo(0, inner_mask);
        if (cv::countNonZero(inner_mask) < 8 || cv::countNonZero(ring_mask) < 8) return 0;
        const cv::Scalar a = cv::mean(ycrcb, inner_mask), b = cv::mean(ycrcb, ring_mask);
        *inner_warmth = a[1] - a[2];
        *ring_warmth = b[1] - b[2];
        return 1;
    })
}

}  // extern "C"
