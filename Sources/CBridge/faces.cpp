// dlib's HOG face detector and 68-point shape predictor, OpenCV's cascades.
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

struct cb_shape_predictor {
    dlib::shape_predictor model;
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

cb_shape_predictor *cb_shape_predictor_load(const char *dat_path) {
    CB_GUARD(nullptr, {
        auto *p = new cb_shape_predictor();
        dlib::deserialize(dat_path) >> p->model;
        if (p->model.num_parts() != 68) {
            delete p;
            cbridge::set_error("the model does not predict 68 points");
            return nullptr;
        }
        return p;
    })
}

void cb_shape_predictor_free(cb_shape_predictor *p) { delete p; }

int32_t cb_shape_predict(const cb_shape_predictor *p, const cb_image *gray, double cx, double cy, double size,
                         double angle_rad, cb_point2f *out68) {
    CB_GUARD(-1, {
        if (gray->mat.type() != CV_8UC1 || !(size > 4)) {
            cbridge::set_error("landmarks need an 8-bit gray image and a face box larger than 4 px");
            return -1;
        }
        // An upright crop around the box: the predictor was trained on upright faces, and a small
        // crop keeps the warp cheap. The crop holds the box with a margin, at most 192 px wide.
        const double margin = 1.5;
        const double side = std::min(192.0, std::max(48.0, size * margin));
        const double k = side / (size * margin);  // crop pixels per image pixel
        const double c = std::cos(angle_rad), s = std::sin(angle_rad);
        // image -> crop: rotate by -angle about (cx, cy), scale by k, move to the crop's centre.
        cv::Matx23d M(k * c, k * s, side / 2 - k * (c * cx + s * cy),
                      -k * s, k * c, side / 2 - k * (-s * cx + c * cy));
        thread_local cv::Mat crop;
        const int n = int(std::ceil(side));
        cv::warpAffine(gray->mat, crop, M, cv::Size(n, n), cv::INTER_LINEAR, cv::BORDER_REPLICATE);
        // The predictor compares pixel differences against thresholds learnt on well-exposed faces:
        // a dark or flat face is stretched to ordinary contrast first (measured on the face box).
        {
            const int inner = int(std::lround(size * k * 0.8));
            cv::Rect face_box(n / 2 - inner / 2, n / 2 - inner / 2, inner, inner);
            face_box &= cv::Rect(0, 0, n, n);
            cv::Scalar mean, stddev;
            cv::meanStdDev(crop(face_box), mean, stddev);
            const double wanted = 45.0;
            if (stddev[0] > 1.0 && stddev[0] < wanted * 0.75) {
                const double gain = std::min(4.0, wanted / stddev[0]);
                crop.convertTo(crop, CV_8U, gain, 120.0 - mean[0] * gain);
            }
        }
        dlib::cv_image<unsigned char> image(cvIplImage(crop));
        const double half = size * k / 2;
        dlib::rectangle box(long(std::lround(side / 2 - half)), long(std::lround(side / 2 - half)),
                            long(std::lround(side / 2 + half)) - 1, long(std::lround(side / 2 + half)) - 1);
        dlib::full_object_detection shape = p->model(image, box);
        // crop -> image: the inverse similarity.
        for (unsigned i = 0; i < 68; ++i) {
            const double u = (shape.part(i).x() - side / 2) / k, v = (shape.part(i).y() - side / 2) / k;
            out68[i].x = float(cx + c * u - s * v);
            out68[i].y = float(cy + s * u + c * v);
        }
        return 68;
    })
}

}  // extern "C"
