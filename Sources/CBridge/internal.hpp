// Shared by the bridge's C++ files: the cv::Mat handle and the guard that keeps exceptions in C++.
#pragma once
#include "CBridge.h"
#include <cstdint>
#include <opencv2/core.hpp>
#include <string>
#include <vector>

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

// FFmpeg's words for an AVERROR code ("Invalid data found when processing input").
std::string ffmpeg_error(int code);

// Image files and bytes without OpenCV's imgcodecs (image_codecs.cpp). Each returns false with a
// one-line reason in `error`; a decoder then leaves `out` as it was. They throw only when memory
// runs out.
// A file as cv::imread(path, IMREAD_UNCHANGED) reads it, the format told by its first bytes: PNG
// and JPEG pixel for pixel (8 or 16 bits; gray 1 channel, colour BGR, with alpha BGRA); BMP,
// TIFF, WebP, PNM, Sun raster and GIF through FFmpeg, in 8 bits.
bool read_image_file(const std::string &path, cv::Mat &out, std::string &error);
// PNG or JPEG bytes as cv::imdecode(IMREAD_UNCHANGED) reads them.
bool decode_image(const uint8_t *data, size_t size, cv::Mat &out, std::string &error);
// JPEG bytes as cv::imdecode(IMREAD_COLOR) reads them: always 8-bit BGR.
bool decode_jpeg(const uint8_t *data, size_t size, cv::Mat &out, std::string &error);
// As cv::imencode(extension, img, out): ".png" (8 or 16 bits) or ".jpg" / ".jpeg" (quality 95);
// 1, 3 or 4 channels. ".bmp", ".ppm", ".pgm", ".tiff" and ".webp" (lossless) through FFmpeg.
bool encode_image(const cv::Mat &img, const std::string &extension, std::vector<uint8_t> &out, std::string &error);
// The bytes cv::imencode(".jpg", img, out, {IMWRITE_JPEG_QUALITY, quality}) gives, for 8-bit
// gray, BGR or BGRA (alpha dropped).
bool encode_jpeg(const cv::Mat &img, int quality, std::vector<uint8_t> &out, std::string &error);
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
