// dlib's HOG face detector and OpenCV's cascades.
#include "internal.hpp"
#include "hog_avx2.hpp"
#include "hog_parts.hpp"
#include <cmath>
#include <dlib/revision.h>
#include <memory>
#include <mutex>
#include <sstream>
#include <dlib/image_processing.h>
#include <dlib/image_processing/frontal_face_detector.h>
#include <dlib/opencv.h>
#include <opencv2/imgproc.hpp>
#include <opencv2/objdetect.hpp>

namespace {
// dlib ships its detector compressed inside the library: unpacking it takes about 0.3 s of one
// core, and the search detector and the appearance check each need one. Both copy one unpacked
// original (a copy is its filters: microseconds).
// The unpacked detector is also kept in the model cache (model_cache.cpp) for the next run; the
// file name carries dlib's version, whose headers hold the packed original.
std::string cache_folder_for_detector;

dlib::frontal_face_detector unpack_frontal_detector() {
    const std::string name = "frontal_face_detector-dlib-" + std::to_string(DLIB_MAJOR_VERSION) + "." +
                             std::to_string(DLIB_MINOR_VERSION) + "." + std::to_string(DLIB_PATCH_VERSION) + ".dat";
    const std::string &folder = cache_folder_for_detector;
    std::string payload;
    if (!folder.empty() && cbridge::read_cache(folder + "/" + name, payload)) {
        try {
            std::istringstream in(payload);
            dlib::frontal_face_detector d;
            dlib::deserialize(d, in);
            return d;
        } catch (const std::exception &) {
        }
    }
    dlib::frontal_face_detector d = dlib::get_frontal_face_detector();
    if (!folder.empty()) {
        std::ostringstream out;
        dlib::serialize(d, out);
        cbridge::write_cache(folder, name, out.str());
    }
    return d;
}

const dlib::frontal_face_detector &shared_frontal_detector() {
    static const dlib::frontal_face_detector original = unpack_frontal_detector();
    return original;
}

// The original's filters as bytes, for the AVX2 copy's own detector type (hog_avx2.hpp).
const std::string &serialized_frontal_detector() {
    static const std::string bytes = [] {
        std::ostringstream out;
        dlib::serialize(shared_frontal_detector(), out);
        return out.str();
    }();
    return bytes;
}

struct avx2_detector_deleter {
    void operator()(cbridge::hog_avx2::detector *d) const { cbridge::hog_avx2::destroy(d); }
};
}  // namespace

struct cb_hog_detector {
    dlib::frontal_face_detector detector = shared_frontal_detector();
    cv::Mat scaled;
    // The detector's five filters unpacked for scoring single windows (cb_hog_score_window):
    // filters[j][plane] is rows x cols cells, bias[j] the threshold its scores are measured from.
    // Each filter's rows with the 31 features of a cell side by side ([row][col][plane]), the
    // layout `cells` holds the frame's HOG in, so a window's score is one dot product per row.
    std::vector<std::vector<float>> filters;
    std::vector<double> bias;
    long rows = 0, cols = 0, planes = 0;
    dlib::array<dlib::array2d<float>> hog;
    std::vector<float> cells;
    // The search and the features compiled for AVX2, when chosen (CB_HOG_KERNEL_AVX2).
    std::unique_ptr<cbridge::hog_avx2::detector, avx2_detector_deleter> avx2;
    // The same filters over a pyramid of at most `limited_levels` levels (0: not made yet).
    dlib::frontal_face_detector limited;
    unsigned long limited_levels = 0;
    // The scaled image's pyramid levels a search that skips the finest ones starts from.
    dlib::array2d<unsigned char> level, next_level;
};

struct cb_cascade {
    cv::CascadeClassifier classifier;
    cv::Mat scaled;
    cv::Mat upright;
};

namespace {

// The region of gray to search, scaled: returns the view to run on and fills `scaled` if needed.
cv::Mat prepare_region(const cv::Mat &gray, cb_rect roi, double scale, cv::Mat &scaled, cv::Point &origin) {
    cv::Rect r = roi.width > 0 ? cv::Rect(roi.x, roi.y, roi.width, roi.height) : cv::Rect(0, 0, gray.cols, gray.rows);
    r &= cv::Rect(0, 0, gray.cols, gray.rows);
    origin = r.tl();
    if (r.area() == 0) return cv::Mat();
    cv::Mat view = gray(r);
    if (std::abs(scale - 1.0) < 1e-6) return view;
    cv::resize(view, scaled, cv::Size(), scale, scale, scale < 1.0 ? cv::INTER_AREA : cv::INTER_LINEAR);
    return scaled;
}

// The detector with its pyramid cut to `levels` levels, kept while the same number is asked for.
dlib::frontal_face_detector &detector_with_levels(cb_hog_detector *d, unsigned long levels) {
    if (d->limited_levels != levels) {
        d->limited = cbridge::hog_parts::with_levels(d->detector, levels);
        d->limited_levels = levels;
    }
    return d->limited;
}

cb_rect to_image(const cv::Rect2d &r, double scale, cv::Point origin) {
    return cb_rect{int32_t(std::lround(r.x / scale + origin.x)), int32_t(std::lround(r.y / scale + origin.y)),
                   int32_t(std::lround(r.width / scale)), int32_t(std::lround(r.height / scale))};
}

}  // namespace

extern "C" {

int32_t cb_hog_kernels_available(void) {
    return (1 << CB_HOG_KERNEL_BASELINE) | (cbridge::hog_avx2::available() ? 1 << CB_HOG_KERNEL_AVX2 : 0);
}

cb_hog_detector *cb_hog_detector_create(const char *cache_folder, int32_t kernel) {
    CB_GUARD(nullptr, {
        if (kernel != CB_HOG_KERNEL_BASELINE && !(kernel == CB_HOG_KERNEL_AVX2 && cbridge::hog_avx2::available())) {
            cbridge::set_error("this CPU or build cannot run the requested HOG kernel");
            return nullptr;
        }
        static std::once_flag configured;
        std::call_once(configured, [&] { cache_folder_for_detector = cache_folder ? cache_folder : ""; });
        std::unique_ptr<cb_hog_detector> d(new cb_hog_detector());
        if (kernel == CB_HOG_KERNEL_AVX2) d->avx2.reset(cbridge::hog_avx2::create(serialized_frontal_detector()));
        return d.release();
    })
}

void cb_hog_detector_free(cb_hog_detector *d) { delete d; }

int32_t cb_hog_detect(cb_hog_detector *d, const cb_image *gray, cb_rect roi, double scale, int32_t levels,
                      int32_t skip, cb_rect *out, double *scores, int32_t max_out) {
    CB_GUARD(-1, {
        if (gray->mat.type() != CV_8UC1) {
            cbridge::set_error("HOG detection needs an 8-bit gray image");
            return -1;
        }
        cv::Point origin;
        cv::Mat region = prepare_region(gray->mat, roi, scale, d->scaled, origin);
        if (region.empty() || region.cols < 80 || region.rows < 80) return 0;
        // Down the pyramid as dlib's scanner goes (each level made from the one before), so the
        // levels searched are the whole search's own: a face it finds at 0.03 is not lost to the
        // rounding of another resize.
        dlib::pyramid_down<6> pyramid;
        if (skip > 0) {
            dlib::cv_image<unsigned char> scaled(cvIplImage(region));
            pyramid(scaled, d->level);
            for (int32_t i = 1; i < skip; ++i) {
                pyramid(d->level, d->next_level);
                dlib::swap(d->level, d->next_level);
            }
            if (d->level.nc() < 80 || d->level.nr() < 80) return 0;
            region = cv::Mat(int(d->level.nr()), int(d->level.nc()), CV_8UC1, dlib::image_data(d->level),
                             size_t(dlib::width_step(d->level)));
        }
        thread_local std::vector<cbridge::hog_avx2::hit> hits;
        hits.clear();
        if (d->avx2) {
            cbridge::hog_avx2::detect(d->avx2.get(), region, levels > 0 ? (unsigned long)levels : 0, hits);
        } else {
            // cv_image needs a continuous-or-not 8-bit Mat; it reads rows through step, no copy.
            dlib::cv_image<unsigned char> image(cvIplImage(region));
            std::vector<dlib::rect_detection> found;
            if (levels > 0) {
                detector_with_levels(d, (unsigned long)levels)(image, found, 0.0);
            } else {
                d->detector(image, found, 0.0);
            }
            for (const auto &f : found)
                hits.push_back({f.rect.left(), f.rect.top(), long(f.rect.width()), long(f.rect.height()), f.detection_confidence});
        }
        int32_t n = 0;
        for (const auto &h : hits) {
            if (n >= max_out) break;
            cv::Rect2d r(h.left, h.top, h.width, h.height);
            if (skip > 0) {
                const dlib::rectangle up = pyramid.rect_up(dlib::rectangle(h.left, h.top, h.left + h.width - 1,
                                                                           h.top + h.height - 1), (unsigned int)skip);
                r = cv::Rect2d(up.left(), up.top(), up.width(), up.height());
            }
            out[n] = to_image(r, scale, origin);
            if (scores) scores[n] = h.confidence;
            ++n;
        }
        return n;
    })
}

namespace {

void unpack_filters(cb_hog_detector *d) {
    if (!d->filters.empty()) return;
    const auto &scanner = d->detector.get_scanner();
    for (unsigned long j = 0; j < d->detector.num_detectors(); ++j) {
        const auto bank = scanner.build_fhog_filterbank(d->detector.get_w(j));
        const auto &planes = bank.get_filters();
        d->planes = long(planes.size());
        d->rows = planes[0].nr();
        d->cols = planes[0].nc();
        std::vector<float> packed(size_t(d->rows * d->cols * d->planes));
        for (long y = 0; y < d->rows; ++y)
            for (long x = 0; x < d->cols; ++x)
                for (long p = 0; p < d->planes; ++p) packed[size_t((y * d->cols + x) * d->planes + p)] = planes[p](y, x);
        d->filters.push_back(std::move(packed));
        d->bias.push_back(d->detector.get_w(j)(scanner.get_num_dimensions()));
    }
}

}  // namespace

int32_t cb_hog_score_window(cb_hog_detector *d, const cb_image *gray, double cx, double cy, double side,
                            double angle_rad, int32_t reach, double *score, double *found_cx, double *found_cy,
                            double *found_side) {
    CB_GUARD(-1, {
        if (gray->mat.type() != CV_8UC1 || !(side > 8) || reach < 0 || reach > 8) {
            cbridge::set_error("a face check needs an 8-bit gray image, a box larger than 8 px and a reach of 0-8 cells");
            return -1;
        }
        unpack_filters(d);
        // De-rolled and scaled so the box is the detector's 80 px window (10 cells of 8 px; the
        // filters add a cell of context each side), centred in a crop that lets the window sit
        // `reach` cells off either way. Scoring only those few windows, instead of running the
        // detector's padded pyramid over the crop, is what makes a check cheap enough for
        // every face every frame.
        const int cell = 8;
        const double window = 80.0;
        const int crop_side = int(d->cols + 2 + 2 * reach) * cell;
        const double k = window / side;
        const double c = std::cos(angle_rad), s = std::sin(angle_rad);
        const double mid = crop_side / 2.0;
        cv::Matx23d M(k * c, k * s, mid - k * (c * cx + s * cy), -k * s, k * c, mid - k * (-s * cx + c * cy));
        cv::warpAffine(gray->mat, d->scaled, M, cv::Size(crop_side, crop_side), k < 1 ? cv::INTER_AREA : cv::INTER_LINEAR,
                       cv::BORDER_REPLICATE);
        // Sensor noise is what most often hides a face from HOG: gradients of σ 12 noise swamp a
        // face's at this scale. A light blur costs clean faces little (median score 1.4 -> 1.3)
        // and lifts noisy ones (σ 12 with defocus: -1.0 -> -0.3).
        cv::GaussianBlur(d->scaled, d->scaled, cv::Size(0, 0), 1.0);
        long hog_rows = 0, hog_cols = 0, planes = 0;
        if (d->avx2) {
            cbridge::hog_avx2::fhog_cells(d->scaled, cell, d->cells, hog_rows, hog_cols, planes);
        } else {
            dlib::cv_image<unsigned char> image(cvIplImage(d->scaled));
            dlib::extract_fhog_features(image, d->hog, cell);
            cbridge::hog_parts::pack_cells(d->hog, d->cells, hog_rows, hog_cols, planes);
        }
        if (planes != d->planes) {
            cbridge::set_error("HOG features do not match the detector's filters");
            return -1;
        }
        const long span = d->cols * planes;  // one filter row's floats
        double best = -1e9;
        long best_r = -1, best_c = -1;
        for (long r0 = 0; r0 + d->rows <= hog_rows; ++r0) {
            for (long c0 = 0; c0 + d->cols <= hog_cols; ++c0) {
                for (size_t j = 0; j < d->filters.size(); ++j) {
                    // Eight running sums, so the compiler can keep them in one vector register.
                    float acc[8] = {0, 0, 0, 0, 0, 0, 0, 0};
                    for (long y = 0; y < d->rows; ++y) {
                        const float *f = &d->filters[j][size_t(y * span)];
                        const float *h = &d->cells[size_t(((r0 + y) * hog_cols + c0) * planes)];
                        long k = 0;
                        for (; k + 8 <= span; k += 8)
                            for (int l = 0; l < 8; ++l) acc[l] += f[k + l] * h[k + l];
                        for (; k < span; ++k) acc[0] += f[k] * h[k];
                    }
                    double sum = -d->bias[j];
                    for (float a : acc) sum += a;
                    if (sum > best) {
                        best = sum;
                        best_r = r0;
                        best_c = c0;
                    }
                }
            }
        }
        if (best_r < 0) return 0;
        *score = best;
        // fhog cell i starts at image pixel cell * (i + 1) + 1; the box leaves out the filter's
        // context cell on each side.
        const double box_x = cell * (best_c + 2) + 1, box_y = cell * (best_r + 2) + 1;
        const double bw = double(d->cols - 2) * cell;
        const double u = (box_x + bw / 2 - mid) / k, v = (box_y + bw / 2 - mid) / k;
        *found_cx = cx + c * u - s * v;
        *found_cy = cy + s * u + c * v;
        *found_side = bw / k;
        return 1;
    })
}

cb_cascade *cb_cascade_load(const char *xml_path) {
    CB_GUARD(nullptr, {
        auto *c = new cb_cascade();
        if (!c->classifier.load(xml_path) || c->classifier.empty()) {
            delete c;
            cbridge::set_error("not a cascade classifier file OpenCV can load");
            return nullptr;
        }
        return c;
    })
}

void cb_cascade_free(cb_cascade *c) { delete c; }

int32_t cb_cascade_detect(cb_cascade *c, const cb_image *gray, cb_rect roi, double scale, double scale_factor,
                          int32_t min_neighbors, int32_t min_size, cb_rect *out, int32_t max_out) {
    CB_GUARD(-1, {
        cv::Point origin;
        cv::Mat region = prepare_region(gray->mat, roi, scale, c->scaled, origin);
        if (region.empty()) return 0;
        std::vector<cv::Rect> found;
        c->classifier.detectMultiScale(region, found, scale_factor, min_neighbors, 0, cv::Size(min_size, min_size));
        int32_t n = 0;
        for (const auto &r : found) {
            if (n >= max_out) break;
            out[n++] = to_image(cv::Rect2d(r), scale, origin);
        }
        return n;
    })
}

int32_t cb_cascade_confirm(cb_cascade *c, const cb_image *gray, double cx, double cy, double side, double angle_rad,
                           double window, int32_t min_neighbors) {
    CB_GUARD(-1, {
        if (side <= 1 || window < 8) return 0;
        // The box turned upright and scaled to `window` pixels inside a crop two boxes wide: the
        // cascade sees the face as it was trained, at one small scale, whatever the face's size.
        const double k = window / side;
        const int n = static_cast<int>(std::lround(2 * window));
        cbridge::warp_upright(gray->mat, cx, cy, angle_rad, k, n, c->upright);
        // Dark, backlit and washed-out faces pass once the crop's histogram is spread.
        cv::equalizeHist(c->upright, c->upright);
        std::vector<cv::Rect> found;
        c->classifier.detectMultiScale(c->upright, found, 1.1, min_neighbors, 0,
                                       cv::Size(static_cast<int>(window * 0.55), static_cast<int>(window * 0.55)),
                                       cv::Size(static_cast<int>(window * 1.6), static_cast<int>(window * 1.6)));
        for (const auto &r : found) {
            const double dx = r.x + r.width / 2.0 - n / 2.0, dy = r.y + r.height / 2.0 - n / 2.0;
            if (std::abs(dx) < window * 0.35 && std::abs(dy) < window * 0.4) return 1;
        }
        return 0;
    })
}

}  // extern "C"
