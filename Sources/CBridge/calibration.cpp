// Camera calibration files in OpenCV's FileStorage format (what calibrate writes, what any
// OpenCV program can read back).
#include "internal.hpp"
#include <cstring>
#include <opencv2/core/persistence.hpp>

namespace {

// OpenCV's parse errors in words a user can act on: 4.6 puts "file(line): what" in the
// exception's function name and its own function's name in the message, so both are looked at.
std::string parse_problem(const cv::Exception &e) {
    for (const std::string &text : {e.func, e.err}) {
        size_t open = text.find('('), close = text.find("): ");
        if (open != std::string::npos && close != std::string::npos && close > open)
            return "not valid YAML, XML or JSON: line " + text.substr(open + 1, close - open - 1) + ": " +
                   text.substr(close + 3);
    }
    return "not valid YAML, XML or JSON";
}

}  // namespace

extern "C" {

int32_t cb_calibration_read(const char *path, cb_calibration *out) {
    // Which field was being read, for an exception in the middle of one.
    std::string field;
    try {
        std::memset(out, 0, sizeof *out);
        cv::FileStorage fs(path, cv::FileStorage::READ);
        if (!fs.isOpened()) {
            cbridge::set_error("not an OpenCV YAML/XML file");
            return -1;
        }
        cv::Mat K, D;
        field = "camera_matrix";
        fs["camera_matrix"] >> K;
        if (K.empty() || K.rows != 3 || K.cols != 3) {
            cbridge::set_error("field camera_matrix: missing or not a 3x3 matrix");
            return -1;
        }
        K.convertTo(K, CV_64F);
        for (int i = 0; i < 9; ++i) out->camera_matrix[i] = K.at<double>(i / 3, i % 3);
        field = "distortion_coefficients";
        fs["distortion_coefficients"] >> D;
        if (!D.empty()) {
            D.convertTo(D, CV_64F);
            D = D.reshape(1, 1);
            if (D.cols < 4) {
                cbridge::set_error("field distortion_coefficients: needs at least 4 values");
                return -1;
            }
            for (int i = 0; i < std::min(5, D.cols); ++i) out->distortion[i] = D.at<double>(0, i);
        }
        field = "image_width/image_height";
        cv::FileNode w = fs["image_width"], h = fs["image_height"];
        if (w.empty() || h.empty() || !w.isInt() || !h.isInt()) {
            cbridge::set_error("fields image_width/image_height: missing or not integers");
            return -1;
        }
        out->width = int(w);
        out->height = int(h);
        field = "rms";
        cv::FileNode rms = fs["rms"];
        out->rms = rms.isReal() || rms.isInt() ? double(rms) : -1;
        field = "camera";
        std::string camera;
        if (fs["camera"].isString()) fs["camera"] >> camera;
        std::strncpy(out->camera, camera.c_str(), sizeof out->camera - 1);
        return 0;
    } catch (const cv::Exception &e) {
        if (e.code == cv::Error::StsParseError) cbridge::set_error(parse_problem(e));
        else if (!field.empty()) cbridge::set_error("field " + field + ": is not a well-formed value (a matrix's data must hold rows x cols numbers)");
        else cbridge::set_error("OpenCV cannot read it");
        return -1;
    } catch (const std::exception &e) {
        cbridge::set_error(e.what());
        return -1;
    }
}

const char *cb_calibration_text(const cb_calibration *cal, const char *date, const char *path) {
    CB_GUARD(nullptr, {
        // In memory, in the format the path's extension names: the caller writes the file, so
        // that every write is checked (FileStorage's own writes are not).
        std::string name(path);
        std::string ext = name.size() >= 4 ? name.substr(name.size() - 4) : "";
        int format = ext == ".xml" ? cv::FileStorage::FORMAT_XML
                     : (name.size() >= 5 && name.substr(name.size() - 5) == ".json") ? cv::FileStorage::FORMAT_JSON
                                                                                      : cv::FileStorage::FORMAT_YAML;
        cv::FileStorage fs("", cv::FileStorage::WRITE | cv::FileStorage::MEMORY | format);
        fs << "camera" << std::string(cal->camera);
        fs << "date" << std::string(date ? date : "");
        fs << "image_width" << cal->width << "image_height" << cal->height;
        fs << "camera_matrix" << cv::Mat(3, 3, CV_64F, const_cast<double *>(cal->camera_matrix));
        fs << "distortion_coefficients" << cv::Mat(1, 5, CV_64F, const_cast<double *>(cal->distortion));
        fs << "rms" << cal->rms;
        thread_local std::string text;
        text = fs.releaseAndGetString();
        return text.c_str();
    })
}

}  // extern "C"
