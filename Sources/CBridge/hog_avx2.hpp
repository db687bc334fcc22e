// dlib's HOG search and feature extraction compiled a second time for AVX2 (hog_avx2.cpp), used
// when the CPU has it. Debian builds for the x86-64 baseline (SSE2), where dlib's feature pyramid
// and filter sums run four floats at a time; with AVX2 they run eight, and a search of a 640x480
// frame takes two thirds of the time. The same filters, the same windows: scores differ from the
// baseline's only in the last float bits (summation order), boxes not at all.
#pragma once
#include <opencv2/core.hpp>
#include <string>
#include <vector>

namespace cbridge::hog_avx2 {

struct detector;

// Whether this build holds the AVX2 copy (x86-64 with clang) and this CPU can run it.
bool available();

// A detector from dlib's serialized frontal face detector (dlib::serialize of the original).
detector *create(const std::string &serialized);
void destroy(detector *d);

struct hit {
    long left, top, width, height;
    double confidence;
};

// As object_detector::operator()(image, hits, 0.0) on an 8-bit gray image, with the pyramid cut
// to `levels` levels when above 0.
void detect(detector *d, const cv::Mat &gray, unsigned long levels, std::vector<hit> &out);

// dlib's fHOG of an 8-bit gray image at `cell` pixels a cell, laid out [row][column][plane].
void fhog_cells(const cv::Mat &gray, int cell, std::vector<float> &cells, long &rows, long &cols, long &planes);

}  // namespace cbridge::hog_avx2
