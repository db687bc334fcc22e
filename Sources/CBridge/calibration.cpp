// Camera calibration files in OpenCV's FileStorage format (what calibrate writes, what any
// OpenCV program can read back).
#include "internal.hpp"
#include <cstring>
#include <opencv2/core/persistence.hpp>

extern "C" {

int32_t cb_calibration_read(const char *path, cb_calibration *out) {
    CB_GUARD(-1, {
        std::memset(out, 0, sizeof *out);
        cv::FileStorage fs(path, cv::FileStorage::READ);
        if (!fs.isOpened()) {
            cbridge::set_error("not an OpenCV YAML/XML file");
            return -1;
        }
        cv::Mat K, D;
        fs["camera_matrix"] >> K;
        if (K.empty() || K.rows != 3 || K.cols != 3) {
            cbridge::set_error("field camera_matrix: missing or not a 3x3 matrix");
            return -1;
        }
        K.convertTo(K, CV_64F);
        for (int i = 0; i < 9; ++i) out->camera_matrix[i] = K.at<double>(i / 3, i % 3);
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
        cv::FileNode w = fs["image_width"], h = fs["image_height"];
        if (w.empty() || h.empty() || !w.isInt() || !h.isInt()) {
            cbridge::set_error("fields image_width/image_height: missing or not integers");
            return -1;
        }
        out->width = int(w);
        out->height = int(h);
        cv::FileNode rms = fs["rms"];
        out->rms = rms.isReal() || rms.isInt() ? double(rms) : -1;
        std::string camera;
        if (fs["camera"].isString()) fs["camera"] >> camera;
        std::strncpy(out->camera, camera.c_str(), sizeof out->camera - 1);
        return 0;
    })
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
