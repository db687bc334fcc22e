// calib3d: pose from points, undistortion, projection, homographies.
#include "internal.hpp"
#include <opencv2/calib3d.hpp>
#include <opencv2/imgproc.hpp>

namespace {
std::vector<cv::Point3d> objects(const cb_point3d *p, int n) {
    std::vector<cv::Point3d> v(n);
    for (int i = 0; i < n; ++i) v[i] = {p[i].x, p[i].y, p[i].z};
    return v;
}
std::vector<cv::Point2d> points(const cb_point2f *p, int n) {
    std::vector<cv::Point2d> v(n);
    for (int i = 0; i < n; ++i) v[i] = {p[i].x, p[i].y};
    return v;
}
}  // namespace

extern "C" {

int32_t cb_solve_pnp(const cb_point3d *object, const cb_point2f *image, int32_t n, const double k[9],
                     const double dist[5], int32_t flags, int32_t use_guess, double rvec[3], double tvec[3]) {
    CB_GUARD(-1, {
        cv::Mat K(3, 3, CV_64F, const_cast<double *>(k));
        cv::Mat D = dist ? cv::Mat(1, 5, CV_64F, const_cast<double *>(dist)) : cv::Mat();
        cv::Mat r(3, 1, CV_64F, rvec), t(3, 1, CV_64F, tvec);
        bool ok = cv::solvePnP(objects(object, n), points(image, n), K, D, r, t, use_guess != 0, flags);
        if (!ok) {
            cbridge::set_error("solvePnP found no pose");
            return -1;
        }
        return 0;
    })
}

int32_t cb_undistort_points(cb_point2f *pts, int32_t n, const double k[9], const double dist[5]) {
    CB_GUARD(-1, {
        cv::Mat K(3, 3, CV_64F, const_cast<double *>(k));
        cv::Mat D(1, 5, CV_64F, const_cast<double *>(dist));
        std::vector<cv::Point2f> in(n), out;
        for (int i = 0; i < n; ++i) in[i] = {pts[i].x, pts[i].y};
        cv::undistortPoints(in, out, K, D, cv::noArray(), K);
        for (int i = 0; i < n; ++i) pts[i] = {out[i].x, out[i].y};
        return 0;
    })
}

int32_t cb_project_points(const cb_point3d *object, int32_t n, const double rvec[3], const double tvec[3],
                          const double k[9], const double dist[5], cb_point2f *out) {
    CB_GUARD(-1, {
        cv::Mat K(3, 3, CV_64F, const_cast<double *>(k));
        cv::Mat D = dist ? cv::Mat(1, 5, CV_64F, const_cast<double *>(dist)) : cv::Mat();
        cv::Mat r(3, 1, CV_64F, const_cast<double *>(rvec)), t(3, 1, CV_64F, const_cast<double *>(tvec));
        std::vector<cv::Point2d> projected;
        cv::projectPoints(objects(object, n), r, t, K, D, projected);
        for (int i = 0; i < n; ++i) out[i] = {float(projected[i].x), float(projected[i].y)};
        return 0;
    })
}

int32_t cb_find_homography(const cb_point2f *src, const cb_point2f *dst, int32_t n, double ransac_px,
                           int32_t max_iterations, double h_out[9], uint8_t *inlier_mask) {
    CB_GUARD(-1, {
        if (n < 4) {
            cbridge::set_error("a homography needs at least 4 points");
            return -1;
        }
        cv::Mat mask;
        cv::Mat H = cv::findHomography(points(src, n), points(dst, n), cv::RANSAC, ransac_px, mask,
                                       std::max(1, max_iterations));
        if (H.empty()) {
            cbridge::set_error("no homography fits the points");
            return -1;
        }
        for (int i = 0; i < 9; ++i) h_out[i] = H.at<double>(i / 3, i % 3);
        int inliers = 0;
        for (int i = 0; i < n; ++i) {
            uint8_t m = mask.at<uint8_t>(i);
            if (inlier_mask) inlier_mask[i] = m;
            inliers += m ? 1 : 0;
        }
        return inliers;
    })
}

int32_t cb_find_chessboard(const cb_image *gray, int32_t cols, int32_t rows, cb_point2f *corners) {
    CB_GUARD(-1, {
        std::vector<cv::Point2f> found;
        const cv::Size pattern(cols, rows);
        if (!cv::findChessboardCorners(gray->mat, pattern, found,
                                       cv::CALIB_CB_ADAPTIVE_THRESH | cv::CALIB_CB_NORMALIZE_IMAGE | cv::CALIB_CB_FAST_CHECK))
            return 0;
        cv::cornerSubPix(gray->mat, found, cv::Size(11, 11), cv::Size(-1, -1),
                         cv::TermCriteria(cv::TermCriteria::EPS | cv::TermCriteria::COUNT, 40, 0.001));
        for (size_t i = 0; i < found.size(); ++i) corners[i] = {found[i].x, found[i].y};
        return int32_t(found.size());
    })
}

double cb_calibrate_camera(const cb_point3d *object, const cb_point2f *image, int32_t views, int32_t per_view,
                           int32_t width, int32_t height, double k_out[9], double dist_out[5], double *view_errors) {
    CB_GUARD(-1.0, {
        std::vector<std::vector<cv::Point3f>> obj(views);
        std::vector<std::vector<cv::Point2f>> img(views);
        for (int v = 0; v < views; ++v)
            for (int i = 0; i < per_view; ++i) {
                const auto &o = object[v * per_view + i];
                obj[v].push_back(cv::Point3f(float(o.x), float(o.y), float(o.z)));
                img[v].push_back(cv::Point2f(image[v * per_view + i].x, image[v * per_view + i].y));
            }
        cv::Mat K, D, perView;
        std::vector<cv::Mat> rvecs, tvecs;
        cv::Mat stdIn, stdEx;
        double rms = cv::calibrateCamera(obj, img, cv::Size(width, height), K, D, rvecs, tvecs, stdIn, stdEx, perView);
        for (int i = 0; i < 9; ++i) k_out[i] = K.at<double>(i / 3, i % 3);
        for (int i = 0; i < 5; ++i) dist_out[i] = i < D.total() ? D.at<double>(i) : 0.0;
        for (int v = 0; v < views; ++v) view_errors[v] = perView.at<double>(v);
        return rms;
    })
}

int32_t cb_distort_image(const cb_image *src, cb_image *dst, const double k[9], const double dist[5]) {
    CB_GUARD(-1, {
        cv::Mat K(3, 3, CV_64F, const_cast<double *>(k)), D(1, 5, CV_64F, const_cast<double *>(dist));
        const cv::Size size = src->mat.size();
        // For every pixel of the distorted image, where its ray lands in the ideal image.
        std::vector<cv::Point2f> grid;
        grid.reserve(size.area());
        for (int y = 0; y < size.height; ++y)
            for (int x = 0; x < size.width; ++x) grid.emplace_back(float(x), float(y));
        std::vector<cv::Point2f> ideal;
        cv::undistortPoints(grid, ideal, K, D, cv::noArray(), K);
        cv::Mat mapx(size, CV_32F), mapy(size, CV_32F);
        for (int y = 0; y < size.height; ++y)
            for (int x = 0; x < size.width; ++x) {
                mapx.at<float>(y, x) = ideal[y * size.width + x].x;
                mapy.at<float>(y, x) = ideal[y * size.width + x].y;
            }
        cv::remap(src->mat, dst->mat, mapx, mapy, cv::INTER_LINEAR, cv::BORDER_CONSTANT, cv::Scalar::all(128));
        return 0;
    })
}

}  // extern "C"
