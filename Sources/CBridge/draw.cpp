// Drawing and warping onto BGR frames: what the sample generator and the renderer need.
#include "internal.hpp"
#include <cmath>
#include <opencv2/imgproc.hpp>

// Opaque alpha, so the same calls draw visible pixels on BGRA sprites.
static cv::Scalar bgr(double b, double g, double r) { return cv::Scalar(b, g, r, 255); }

extern "C" {

int32_t cb_warp_perspective_over(const cb_image *src, cb_image *dst, const double h[9], int32_t interp,
                                 double opacity) {
    CB_GUARD(-1, {
        const cv::Mat &s = src->mat;
        cv::Mat &d = dst->mat;
        if (s.empty() || d.empty() || d.type() != CV_8UC3 || (s.type() != CV_8UC3 && s.type() != CV_8UC4)) {
            cbridge::set_error("warp needs an 8-bit BGR/BGRA source and an 8-bit BGR destination");
            return -1;
        }
        cv::Matx33d H(h);
        std::vector<cv::Point2d> corners = {{0, 0}, {double(s.cols), 0}, {double(s.cols), double(s.rows)},
                                            {0, double(s.rows)}};
        std::vector<cv::Point2d> warped;
        cv::perspectiveTransform(corners, warped, cv::Mat(H));
        double x0 = 1e18, y0 = 1e18, x1 = -1e18, y1 = -1e18;
        for (auto &p : warped) {
            x0 = std::min(x0, p.x); y0 = std::min(y0, p.y);
            x1 = std::max(x1, p.x); y1 = std::max(y1, p.y);
        }
        cv::Rect box(cv::Point(int(std::floor(x0)) - 1, int(std::floor(y0)) - 1),
                     cv::Point(int(std::ceil(x1)) + 2, int(std::ceil(y1)) + 2));
        box &= cv::Rect(0, 0, d.cols, d.rows);
        if (box.area() == 0) return 0;
        // Warp only into the box: shift the homography so the box's corner is the origin.
        cv::Matx33d T(1, 0, -box.x, 0, 1, -box.y, 0, 0, 1);
        cv::Matx33d Hb = T * H;
        cv::Mat patch, alpha;
        int flags = interp == 0 ? cv::INTER_NEAREST : cv::INTER_LINEAR;
        cv::Mat src4;
        if (s.channels() == 4) src4 = s;
        else cv::cvtColor(s, src4, cv::COLOR_BGR2BGRA);
        cv::warpPerspective(src4, patch, cv::Mat(Hb), box.size(), flags, cv::BORDER_CONSTANT,
                            cv::Scalar(0, 0, 0, 0));
        cv::Mat roi = d(box);
        const float k = float(opacity) / 255.0f;
        for (int y = 0; y < patch.rows; ++y) {
            const cv::Vec4b *ps = patch.ptr<cv::Vec4b>(y);
            cv::Vec3b *pd = roi.ptr<cv::Vec3b>(y);
            for (int x = 0; x < patch.cols; ++x) {
                const float a = ps[x][3] * k;
                if (a <= 0.0f) continue;
                for (int c = 0; c < 3; ++c)
                    pd[x][c] = cv::saturate_cast<uchar>(pd[x][c] + (ps[x][c] - pd[x][c]) * a);
            }
        }
        return 0;
    })
}

int32_t cb_warp_triangles(const cb_image *src, cb_image *dst, const cb_point2f *src_pts, const cb_point2f *dst_pts,
                          int32_t n_points, const int32_t *triangles, int32_t n_triangles, double feather, double gain) {
    CB_GUARD(-1, {
        const cv::Mat &s = src->mat;
        cv::Mat &d = dst->mat;
        if (s.type() != CV_8UC4 || d.type() != CV_8UC3) {
            cbridge::set_error("triangle warp needs a BGRA source and a BGR destination");
            return -1;
        }
        std::vector<cv::Point2f> sp(n_points), dp(n_points);
        for (int i = 0; i < n_points; ++i) {
            sp[i] = {src_pts[i].x, src_pts[i].y};
            dp[i] = {dst_pts[i].x, dst_pts[i].y};
        }
        const int margin = int(std::ceil(feather * 2)) + 2;
        cv::Rect box = cv::boundingRect(dp);
        box = cv::Rect(box.x - margin, box.y - margin, box.width + 2 * margin, box.height + 2 * margin);
        box &= cv::Rect(0, 0, d.cols, d.rows);
        if (box.area() == 0) return 0;
        thread_local cv::Mat layer, patch, mask;
        layer.create(box.size(), CV_8UC4);
        layer.setTo(cv::Scalar::all(0));
        for (int t = 0; t < n_triangles; ++t) {
            const int a = triangles[3 * t], b = triangles[3 * t + 1], c = triangles[3 * t + 2];
            cv::Point2f st[3] = {sp[a], sp[b], sp[c]};
            cv::Point2f dt[3] = {dp[a] - cv::Point2f(box.tl()), dp[b] - cv::Point2f(box.tl()), dp[c] - cv::Point2f(box.tl())};
            cv::Rect r = cv::boundingRect(std::vector<cv::Point2f>{dt[0], dt[1], dt[2]});
            r = cv::Rect(r.x - 1, r.y - 1, r.width + 2, r.height + 2) & cv::Rect(0, 0, box.width, box.height);
            if (r.area() == 0) continue;
            cv::Point2f local[3] = {dt[0] - cv::Point2f(r.tl()), dt[1] - cv::Point2f(r.tl()), dt[2] - cv::Point2f(r.tl())};
            cv::Mat A = cv::getAffineTransform(st, local);
            cv::warpAffine(s, patch, A, r.size(), cv::INTER_LINEAR, cv::BORDER_CONSTANT, cv::Scalar::all(0));
            mask.create(r.size(), CV_8UC1);
            mask.setTo(0);
            cv::Point ip[3] = {cv::Point(cvRound(local[0].x * 16), cvRound(local[0].y * 16)),
                               cv::Point(cvRound(local[1].x * 16), cvRound(local[1].y * 16)),
                               cv::Point(cvRound(local[2].x * 16), cvRound(local[2].y * 16))};
            cv::fillConvexPoly(mask, ip, 3, cv::Scalar(255), cv::LINE_8, 4);
            patch.copyTo(layer(r), mask);
        }
        std::vector<cv::Mat> ch;
        cv::split(layer, ch);
        if (feather > 0) cv::GaussianBlur(ch[3], ch[3], cv::Size(0, 0), feather);
        cv::Mat roi = d(box);
        const float g = float(gain);
        for (int y = 0; y < box.height; ++y) {
            const uchar *pa = ch[3].ptr<uchar>(y);
            const cv::Vec4b *pl = layer.ptr<cv::Vec4b>(y);
            cv::Vec3b *pd = roi.ptr<cv::Vec3b>(y);
            for (int x = 0; x < box.width; ++x) {
                const float al = pa[x] / 255.0f;
                if (al <= 0.0f) continue;
                for (int k = 0; k < 3; ++k)
                    pd[x][k] = cv::saturate_cast<uchar>(pd[x][k] + (pl[x][k] * g - pd[x][k]) * al);
            }
        }
        return 0;
    })
}

int32_t cb_delaunay(const cb_point2f *pts, int32_t n, int32_t width, int32_t height, int32_t *triangles,
                    int32_t max_triangles) {
    CB_GUARD(-1, {
        cv::Subdiv2D subdiv(cv::Rect(-1, -1, width + 2, height + 2));
        std::vector<cv::Point2f> v(n);
        for (int i = 0; i < n; ++i) {
            v[i] = {pts[i].x, pts[i].y};
            subdiv.insert(v[i]);
        }
        std::vector<cv::Vec6f> list;
        subdiv.getTriangleList(list);
        auto index = [&](float x, float y) {
            for (int i = 0; i < n; ++i)
                if (std::abs(v[i].x - x) < 0.01f && std::abs(v[i].y - y) < 0.01f) return i;
            return -1;
        };
        int32_t count = 0;
        for (const auto &t : list) {
            int a = index(t[0], t[1]), b = index(t[2], t[3]), c = index(t[4], t[5]);
            if (a < 0 || b < 0 || c < 0 || count >= max_triangles) continue;
            triangles[3 * count] = a;
            triangles[3 * count + 1] = b;
            triangles[3 * count + 2] = c;
            ++count;
        }
        return count;
    })
}

int32_t cb_draw_line(cb_image *img, float x0, float y0, float x1, float y1, double b, double g, double r,
                     int32_t thickness, int32_t antialias) {
    CB_GUARD(-1, {
        cv::line(img->mat, cv::Point2f(x0, y0), cv::Point2f(x1, y1), bgr(b, g, r), thickness,
                 antialias ? cv::LINE_AA : cv::LINE_8);
        return 0;
    })
}

int32_t cb_draw_circle(cb_image *img, float x, float y, float radius, double b, double g, double r,
                       int32_t thickness, int32_t antialias) {
    CB_GUARD(-1, {
        // Sub-pixel centre via the shift argument keeps small moving dots smooth.
        const int shift = 4;
        cv::circle(img->mat, cv::Point(cvRound(x * 16), cvRound(y * 16)), cvRound(radius * 16), bgr(b, g, r),
                   thickness, antialias ? cv::LINE_AA : cv::LINE_8, shift);
        return 0;
    })
}

int32_t cb_draw_rect(cb_image *img, cb_rect rect, double b, double g, double r, double a, int32_t thickness) {
    CB_GUARD(-1, {
        cv::Rect rc(rect.x, rect.y, rect.width, rect.height);
        if (thickness < 0 && a < 1.0) {
            rc &= cv::Rect(0, 0, img->mat.cols, img->mat.rows);
            if (rc.area() == 0) return 0;
            cv::Mat roi = img->mat(rc);
            cv::Mat color(roi.size(), roi.type(), bgr(b, g, r));
            cv::addWeighted(color, a, roi, 1.0 - a, 0, roi);
        } else {
            cv::rectangle(img->mat, rc, bgr(b, g, r), thickness);
        }
        return 0;
    })
}

int32_t cb_draw_polygon(cb_image *img, const cb_point2f *pts, int32_t n, double b, double g, double r, double a,
                        int32_t filled, int32_t thickness, int32_t antialias) {
    CB_GUARD(-1, {
        std::vector<cv::Point> poly(n);
        const int shift = 4;
        for (int i = 0; i < n; ++i) poly[i] = cv::Point(cvRound(pts[i].x * 16), cvRound(pts[i].y * 16));
        const int line = antialias ? cv::LINE_AA : cv::LINE_8;
        if (filled) {
            if (a >= 1.0) {
                cv::fillPoly(img->mat, std::vector<std::vector<cv::Point>>{poly}, bgr(b, g, r), line, shift);
            } else {
                cv::Rect box = cv::boundingRect(poly);
                box = cv::Rect(box.x >> shift, box.y >> shift, (box.width >> shift) + 2, (box.height >> shift) + 2);
                box &= cv::Rect(0, 0, img->mat.cols, img->mat.rows);
                if (box.area() == 0) return 0;
                cv::Mat roi = img->mat(box);
                cv::Mat layer = roi.clone();
                std::vector<cv::Point> shifted(poly);
                for (auto &p : shifted) p -= cv::Point(box.x << shift, box.y << shift);
                cv::fillPoly(layer, std::vector<std::vector<cv::Point>>{shifted}, bgr(b, g, r), line, shift);
                cv::addWeighted(layer, a, roi, 1.0 - a, 0, roi);
            }
        } else {
            cv::polylines(img->mat, std::vector<std::vector<cv::Point>>{poly}, true, bgr(b, g, r), thickness,
                          line, shift);
        }
        return 0;
    })
}

int32_t cb_draw_text(cb_image *img, const char *text, float x, float y, double scale, double b, double g, double r,
                     int32_t thickness) {
    CB_GUARD(-1, {
        cv::putText(img->mat, text, cv::Point(cvRound(x), cvRound(y)), cv::FONT_HERSHEY_SIMPLEX, scale,
                    bgr(b, g, r), thickness, cv::LINE_AA);
        return 0;
    })
}

int32_t cb_gaussian_blur(cb_image *img, int32_t ksize, double sigma) {
    CB_GUARD(-1, {
        if (ksize % 2 == 0) ksize += 1;
        cv::GaussianBlur(img->mat, img->mat, cv::Size(ksize, ksize), sigma);
        return 0;
    })
}

int32_t cb_add_noise(cb_image *img, double sigma, uint64_t seed) {
    CB_GUARD(-1, {
        // A private generator, so that the noise does not depend on OpenCV's global RNG state
        // (which detectors and RANSAC also draw from).
        cv::RNG rng(seed);
        cv::Mat &m = img->mat;
        thread_local cv::Mat noise;
        noise.create(m.size(), CV_MAKETYPE(CV_16S, m.channels()));
        rng.fill(noise, cv::RNG::NORMAL, 0.0, sigma);
        cv::add(m, noise, m, cv::noArray(), m.type());
        return 0;
    })
}

int32_t cb_apply_gamma(cb_image *img, double gamma) {
    CB_GUARD(-1, {
        cv::Mat lut(1, 256, CV_8U);
        for (int v = 0; v < 256; ++v) lut.at<uchar>(v) = cv::saturate_cast<uchar>(255.0 * std::pow(v / 255.0, gamma));
        cv::LUT(img->mat, lut, img->mat);
        return 0;
    })
}

int32_t cb_motion_blur(cb_image *img, double dx, double dy) {
    CB_GUARD(-1, {
        const double length = std::hypot(dx, dy);
        if (length < 1) return 0;
        const int n = int(std::ceil(length)) | 1;
        cv::Mat kernel = cv::Mat::zeros(n, n, CV_32F);
        const double c = (n - 1) / 2.0;
        cv::line(kernel, cv::Point2d(c - dx / 2, c - dy / 2), cv::Point2d(c + dx / 2, c + dy / 2), cv::Scalar(1.0), 1,
                 cv::LINE_AA);
        kernel /= cv::sum(kernel)[0];
        cv::filter2D(img->mat, img->mat, -1, kernel, cv::Point(-1, -1), 0, cv::BORDER_REPLICATE);
        return 0;
    })
}

}  // extern "C"
