// ORB features, brute-force matching (own popcount loop), Lucas-Kanade flow and a photometric check: card work.
#include "internal.hpp"
#include <cstdint>
#include <cstring>
#include <opencv2/features2d.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/video/tracking.hpp>

struct cb_orb {
    cv::Ptr<cv::ORB> orb;
};

// Brute-force two-nearest matching of 256-bit descriptors. cv::BFMatcher's Hamming distance is
// built for the SSE3 baseline without the popcnt instruction; four hardware popcounts per pair
// make matching six cards against a frame about 6x cheaper (22 -> 3.6 ms per card, measured on one
// core). Ties keep the first train index, as BFMatcher does.
__attribute__((always_inline)) static inline void knn2_body(const uint8_t *query, int32_t query_count,
                                                            const uint8_t *train, int32_t train_count,
                                                            cb_match2 *out) {
    for (int32_t i = 0; i < query_count; ++i) {
        uint64_t a[4];
        std::memcpy(a, query + size_t(i) * 32, 32);
        int32_t best = INT32_MAX, second = INT32_MAX, index = -1;
        const uint8_t *t = train;
        for (int32_t j = 0; j < train_count; ++j, t += 32) {
            uint64_t b[4];
            std::memcpy(b, t, 32);
            int32_t d = __builtin_popcountll(a[0] ^ b[0]) + __builtin_popcountll(a[1] ^ b[1]) +
                        __builtin_popcountll(a[2] ^ b[2]) + __builtin_popcountll(a[3] ^ b[3]);
            if (d < second) {
                if (d < best) {
                    second = best;
                    best = d;
                    index = j;
                } else {
                    second = d;
                }
            }
        }
        out[i] = {i, index, best, second};
    }
}

#if defined(__x86_64__) || defined(__i386__)
__attribute__((target("popcnt"))) static void knn2_popcnt(const uint8_t *q, int32_t nq, const uint8_t *t,
                                                          int32_t nt, cb_match2 *out) {
    knn2_body(q, nq, t, nt, out);
}
#endif

static void knn2_portable(const uint8_t *q, int32_t nq, const uint8_t *t, int32_t nt, cb_match2 *out) {
    knn2_body(q, nq, t, nt, out);
}

extern "C" {

cb_orb *cb_orb_create(int32_t features, double scale_factor, int32_t levels, int32_t fast_threshold) {
    CB_GUARD(nullptr, {
        auto *o = new cb_orb();
        o->orb = cv::ORB::create(features, float(scale_factor), levels, 31, 0, 2, cv::ORB::HARRIS_SCORE, 31,
                                 fast_threshold);
        return o;
    })
}

void cb_orb_free(cb_orb *orb) { delete orb; }

int32_t cb_orb_detect(cb_orb *orb, const cb_image *gray, cb_rect roi, cb_keypoint *keypoints, uint8_t *descriptors,
                      int32_t max_out) {
    CB_GUARD(-1, {
        cv::Rect r = roi.width > 0 ? cv::Rect(roi.x, roi.y, roi.width, roi.height)
                                   : cv::Rect(0, 0, gray->mat.cols, gray->mat.rows);
        r &= cv::Rect(0, 0, gray->mat.cols, gray->mat.rows);
        if (r.width < 32 || r.height < 32) return 0;
        std::vector<cv::KeyPoint> kps;
        cv::Mat desc;
        orb->orb->detectAndCompute(gray->mat(r), cv::noArray(), kps, desc);
        int32_t n = std::min<int32_t>(int32_t(kps.size()), max_out);
        for (int32_t i = 0; i < n; ++i) {
            const auto &k = kps[i];
            keypoints[i] = {k.pt.x + r.x, k.pt.y + r.y, k.size, k.angle, k.response, k.octave};
            std::memcpy(descriptors + size_t(i) * 32, desc.ptr(i), 32);
        }
        return n;
    })
}

int32_t cb_match_knn2(const uint8_t *query, int32_t query_count, const uint8_t *train, int32_t train_count,
                      cb_match2 *out) {
    CB_GUARD(-1, {
        if (query_count == 0 || train_count < 2) return 0;
#if defined(__x86_64__) || defined(__i386__)
        if (__builtin_cpu_supports("popcnt")) {
            knn2_popcnt(query, query_count, train, train_count, out);
            return query_count;
        }
#endif
        knn2_portable(query, query_count, train, train_count, out);
        return query_count;
    })
}

int32_t cb_optical_flow(const cb_image *prev, const cb_image *next, const cb_point2f *points, int32_t n,
                        cb_point2f *out, uint8_t *status, int32_t window, int32_t levels) {
    CB_GUARD(-1, {
        if (n == 0) return 0;
        std::vector<cv::Point2f> in(n), moved;
        for (int i = 0; i < n; ++i) in[i] = {points[i].x, points[i].y};
        std::vector<uchar> st;
        std::vector<float> err;
        cv::calcOpticalFlowPyrLK(prev->mat, next->mat, in, moved, st, err, cv::Size(window, window), levels,
                                 cv::TermCriteria(cv::TermCriteria::COUNT | cv::TermCriteria::EPS, 20, 0.03));
        for (int i = 0; i < n; ++i) {
            out[i] = {moved[i].x, moved[i].y};
            status[i] = st[i];
        }
        return n;
    })
}

int32_t cb_good_features(const cb_image *gray, int32_t max_corners, double quality, double min_distance,
                         cb_point2f *out) {
    CB_GUARD(-1, {
        std::vector<cv::Point2f> corners;
        cv::goodFeaturesToTrack(gray->mat, corners, max_corners, quality, min_distance);
        int32_t n = std::min<int32_t>(int32_t(corners.size()), max_corners);
        for (int32_t i = 0; i < n; ++i) out[i] = {corners[i].x, corners[i].y};
        return n;
    })
}

double cb_warped_correlation(const cb_image *frame_gray, const double h[9], const cb_image *reference,
                             cb_image *scratch) {
    CB_GUARD(-2.0, {
        const cv::Mat &ref = reference->mat;
        cv::Matx33d H(h);
        // frame -> reference sampling: warp with the inverse map.
        cv::warpPerspective(frame_gray->mat, scratch->mat, cv::Mat(H), ref.size(),
                            cv::INTER_LINEAR | cv::WARP_INVERSE_MAP, cv::BORDER_CONSTANT, cv::Scalar(0));
        cv::Mat result;
        cv::matchTemplate(scratch->mat, ref, result, cv::TM_CCOEFF_NORMED);
        return double(result.at<float>(0, 0));
    })
}

int32_t cb_render_reference(const cb_image *reference, const double h[9], const cb_image *frame_gray, cb_image *dst,
                            cb_rect *box) {
    CB_GUARD(-1, {
        const cv::Mat &ref = reference->mat, &frame = frame_gray->mat;
        if (dst->mat.size() != frame.size() || dst->mat.type() != CV_8UC1) dst->mat.create(frame.size(), CV_8UC1);
        cv::Matx33d H(h);
        std::vector<cv::Point2d> c = {{0, 0}, {double(ref.cols), 0}, {double(ref.cols), double(ref.rows)}, {0, double(ref.rows)}}, w;
        cv::perspectiveTransform(c, w, cv::Mat(H));
        cv::Rect r = cv::boundingRect(std::vector<cv::Point2f>(w.begin(), w.end()));
        r &= cv::Rect(0, 0, frame.cols, frame.rows);
        *box = {r.x, r.y, r.width, r.height};
        if (r.area() == 0) return 0;
        cv::Matx33d T(1, 0, -r.x, 0, 1, -r.y, 0, 0, 1);
        cv::Mat roi = dst->mat(r);
        cv::warpPerspective(ref, roi, cv::Mat(T * H), r.size(), cv::INTER_LINEAR, cv::BORDER_REPLICATE);
        // Brightness and contrast as the frame shows them: optical flow assumes constant intensity.
        cv::Scalar fm, fs, rm, rs;
        cv::meanStdDev(frame(r), fm, fs);
        cv::meanStdDev(roi, rm, rs);
        if (rs[0] > 1) roi.convertTo(roi, CV_8U, fs[0] / rs[0], fm[0] - rm[0] * fs[0] / rs[0]);
        return 1;
    })
}

}  // extern "C"
