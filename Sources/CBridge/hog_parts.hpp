// What faces.cpp and hog_avx2.cpp both do with a dlib HOG detector, written once: templates over
// the detector and feature types, since the AVX2 copy's dlib lives under another namespace.
#pragma once
#include <vector>

namespace cbridge::hog_parts {

// The detector with its pyramid cut to `levels` levels: a copy of the filters (microseconds).
template <typename Detector> Detector with_levels(const Detector &full, unsigned long levels) {
    typename Detector::image_scanner_type scanner;
    scanner.copy_configuration(full.get_scanner());
    scanner.set_max_pyramid_levels(levels);
    std::vector<typename Detector::feature_vector_type> w;
    for (unsigned long j = 0; j < full.num_detectors(); ++j) w.push_back(full.get_w(j));
    return Detector(scanner, full.get_overlap_tester(), w);
}

// dlib's fHOG planes repacked [row][column][plane], so a window's score is one dot product a row.
template <typename Features>
void pack_cells(const Features &hog, std::vector<float> &cells, long &rows, long &cols, long &planes) {
    planes = long(hog.size());
    rows = hog[0].nr();
    cols = hog[0].nc();
    cells.resize(size_t(rows * cols * planes));
    for (long p = 0; p < planes; ++p)
        for (long r = 0; r < rows; ++r)
            for (long c = 0; c < cols; ++c) cells[size_t((r * cols + c) * planes + p)] = hog[p][r][c];
}

}  // namespace cbridge::hog_parts
