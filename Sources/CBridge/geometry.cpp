// calib3d: pose from points, undistortion, projection, homographies.
#include "internal.hpp"
#include <opencv2/calib3d.hpp>

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
                           double h_out[9], uint8_t *inlier_mask) {
    CB_GUARD(-1, {
        if (n < 4) {
            cbridge::set_error("a homography needs at least 4 points");
            return -1;
        }
        cv::Mat mask;
        cv::Mat H = cv::findHomography(points(src, n), points(dst, n), cv::RANSAC, ransac_px, mask);
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

}  // extern "C"
