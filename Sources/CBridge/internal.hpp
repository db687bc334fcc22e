// Shared by the bridge's C++ files: the cv::Mat handle and the guard that keeps exceptions in C++.
#pragma once
#include "CBridge.h"
#include <opencv2/core.hpp>
#include <string>

struct cb_image {
    cv::Mat mat;
};

namespace cbridge {
void set_error(const std::string &message);
void clear_error();
// Whether OpenCV's, FFmpeg's and the image codecs' own messages may reach stderr (--library-logs).
extern bool library_logs;
// Unpacked models between runs (model_cache.cpp): false / nothing written on any problem.
bool read_cache(const std::string &path, std::string &payload);
void write_cache(const std::string &folder, const std::string &name, const std::string &payload);
// The square of `from` centred at (cx, cy), rotated by angle_rad, turned upright into an n x n
// `to` at k output pixels per input pixel (bilinear, borders replicated).
void warp_upright(const cv::Mat &from, double cx, double cy, double angle_rad, double k, int n, cv::Mat &to);
}  // namespace cbridge

// Every entry point runs its body inside this: cv::Exception, dlib::error and anything else
// become a thread-local message and a failure value.
#define CB_GUARD(fail_value, ...)                                    \
    try {                                                            \
        cbridge::clear_error();                                      \
        __VA_ARGS__                                                  \
    } catch (const cv::Exception &e) {                               \
        cbridge::set_error(e.err.empty() ? e.what() : e.err);        \
        return fail_value;                                           \
    } catch (const std::exception &e) {                              \
        cbridge::set_error(e.what());                                \
        return fail_value;                                           \
    } catch (...) {                                                  \
        cbridge::set_error("unknown C++ exception");                 \
        return fail_value;                                           \
    }
