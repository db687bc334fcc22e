// dlib's HOG face detector and OpenCV's cascades.
#include "internal.hpp"
#include <cmath>
#include <dlib/image_processing.h>
#include <dlib/image_processing/frontal_face_detector.h>
#include <dlib/opencv.h>
#include <opencv2/imgproc.hpp>
#include <opencv2/objdetect.hpp>

struct cb_hog_detector {
    dlib::frontal_face_detector detector = dlib::get_frontal_face_detector();
    cv::Mat scaled;
};

struct cb_cascade {
    cv::CascadeClassifier classifier;
    cv::Mat scaled;
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

cb_rect to_image(const cv::Rect2d &r, double scale, cv::Point origin) {
    return cb_rect{int32_t(std::lround(r.x / scale + origin.x)), int32_t(std::lround(r.y / scale + origin.y)),
                   int32_t(std::lround(r.width / scale)), int32_t(std::lround(r.height / scale))};
}

}  // namespace

extern "C" {

cb_hog_detector *cb_hog_detector_create(void) { CB_GUARD(nullptr, { return new cb_hog_detector(); }) }
void cb_hog_detector_free(cb_hog_detector *d) { delete d; }

int32_t cb_hog_detect(cb_hog_detector *d, const cb_image *gray, cb_rect roi, double scale, cb_rect *out,
                      double *scores, int32_t max_out) {
    CB_GUARD(-1, {
        if (gray->mat.type() != CV_8UC1) {
            cbridge::set_error("HOG detection needs an 8-bit gray image");
            return -1;
        }
        cv::Point origin;
        cv::Mat region = prepare_region(gray->mat, roi, scale, d->scaled, origin);
        if (region.empty() || region.cols < 80 || region.rows < 80) return 0;
        // cv_image needs a continuous-or-not 8-bit Mat; it reads rows through step, no copy.
        dlib::cv_image<unsigned char> image(cvIplImage(region));
        std::vector<dlib::rect_detection> found;
        d->detector(image, found, 0.0);
        int32_t n = 0;
        for (const auto &f : found) {
            if (n >= max_out) break;
            const auto &r = f.rect;
            out[n] = to_image(cv::Rect2d(r.left(), r.top(), r.width(), r.height()), scale, origin);
            if (scores) scores[n] = f.detection_confidence;
            ++n;
        }
        return n;
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

}  // extern "C"
