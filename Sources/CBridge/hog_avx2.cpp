// dlib's HOG search and fHOG extraction compiled for AVX2 in a build for the x86-64 baseline, so
// one binary runs everywhere and uses AVX2 where the CPU has it (hog_avx2.hpp says why).
//
// How it is kept apart from the rest of the binary:
// - dlib is included here under another namespace (`dlib` is a macro for `dlib_avx2` around the
//   includes), so its templates compiled for AVX2 get names of their own. Under the same names,
//   the linker would keep one copy of each template for the whole program, and the baseline code
//   could end up calling AVX2 instructions on a CPU without them.
// - Only functions declared in dlib's headers get the AVX2 target (the pragma below); the standard
//   library's headers are included before it, so what they instantiate here stays baseline code.
// - full_object_detection.h is included before the pragma: it defines a namespace-scope point
//   whose constructor runs at start-up on every CPU.
// - dlib's SIMD wrappers choose their width from macros the compiler sets only for -mavx; they are
//   set here by hand (DLIB_HAVE_*), which the target attribute makes legal to compile.
// Only hog_avx2::available() decides whether any of this runs.
#include "hog_avx2.hpp"
#include "hog_parts.hpp"

#include <stdexcept>

#if defined(__x86_64__) && defined(__clang__)

#include <algorithm>
#include <array>
#include <cmath>
#include <complex>
#include <cstring>
#include <deque>
#include <functional>
#include <iostream>
#include <istream>
#include <limits>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <ostream>
#include <set>
#include <sstream>
#include <thread>
#include <type_traits>
#include <utility>
#include <immintrin.h>
#include <opencv2/core/core_c.h>

#define DLIB_HAVE_SSE2
#define DLIB_HAVE_SSE3
#define DLIB_HAVE_SSE41
#define DLIB_HAVE_AVX
#define DLIB_HAVE_AVX2
#define dlib dlib_avx2
#include <dlib/image_processing/full_object_detection.h>
#pragma clang attribute push(__attribute__((target("avx2"))), apply_to = function)
#include <dlib/image_processing/object_detector.h>
#include <dlib/image_processing/scan_fhog_pyramid.h>
#include <dlib/image_transforms/fhog.h>
#include <dlib/opencv/cv_image.h>
#pragma clang attribute pop
#undef dlib

namespace cbridge::hog_avx2 {

using frontal_detector = dlib_avx2::object_detector<dlib_avx2::scan_fhog_pyramid<dlib_avx2::pyramid_down<6>>>;

struct detector {
    frontal_detector full;
    // The same filters over a pyramid of at most `limited_levels` levels (0: not made yet).
    frontal_detector limited;
    unsigned long limited_levels = 0;
};

bool available() {
    static const bool cpu_has_avx2 = __builtin_cpu_supports("avx2");
    return cpu_has_avx2;
}

detector *create(const std::string &serialized) {
    auto *d = new detector();
    try {
        std::istringstream in(serialized);
        dlib_avx2::deserialize(d->full, in);
    } catch (...) {
        delete d;
        throw;
    }
    return d;
}

void destroy(detector *d) { delete d; }

namespace {

frontal_detector &with_levels(detector *d, unsigned long levels) {
    if (d->limited_levels != levels) {
        d->limited = hog_parts::with_levels(d->full, levels);
        d->limited_levels = levels;
    }
    return d->limited;
}

}  // namespace

__attribute__((target("avx2"))) void detect(detector *d, const cv::Mat &gray, unsigned long levels, std::vector<hit> &out) {
    dlib_avx2::cv_image<unsigned char> image(cvIplImage(gray));
    std::vector<dlib_avx2::rect_detection> found;
    (levels > 0 ? with_levels(d, levels) : d->full)(image, found, 0.0);
    out.clear();
    for (const auto &f : found) out.push_back(hit{f.rect.left(), f.rect.top(), long(f.rect.width()), long(f.rect.height()), f.detection_confidence});
}

__attribute__((target("avx2"))) void fhog_cells(const cv::Mat &gray, int cell, std::vector<float> &cells, long &rows, long &cols,
                                                 long &planes) {
    thread_local dlib_avx2::array<dlib_avx2::array2d<float>> hog;
    dlib_avx2::cv_image<unsigned char> image(cvIplImage(gray));
    dlib_avx2::extract_fhog_features(image, hog, cell);
    hog_parts::pack_cells(hog, cells, rows, cols, planes);
}

}  // namespace cbridge::hog_avx2

#else

namespace cbridge::hog_avx2 {

struct detector {};

bool available() { return false; }
detector *create(const std::string &) { throw std::runtime_error("this build has no AVX2 copy of dlib's detector"); }
void destroy(detector *d) { delete d; }
void detect(detector *, const cv::Mat &, unsigned long, std::vector<hit> &) {
    throw std::runtime_error("this build has no AVX2 copy of dlib's detector");
}
void fhog_cells(const cv::Mat &, int, std::vector<float> &, long &, long &, long &) {
    throw std::runtime_error("this build has no AVX2 copy of dlib's detector");
}

}  // namespace cbridge::hog_avx2

#endif
