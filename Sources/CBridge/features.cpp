// ORB features, brute-force matching (own popcount loop), Lucas-Kanade flow, patch matching and a
// photometric check: following cards and faces from frame to frame.
#include "internal.hpp"
#include <algorithm>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>
#include <cmath>
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
// One train descriptor at distance d and index j into a query's two nearest (ties keep the first).
__attribute__((always_inline)) static inline void knn2_consider(int64_t d, int64_t j, int64_t &best, int64_t &second,
                                                                int64_t &index) {
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

__attribute__((always_inline)) static inline int64_t knn2_distance(const uint64_t a[4], const uint8_t *t) {
    uint64_t b[4];
    std::memcpy(b, t, 32);
    return __builtin_popcountll(a[0] ^ b[0]) + __builtin_popcountll(a[1] ^ b[1]) + __builtin_popcountll(a[2] ^ b[2]) +
           __builtin_popcountll(a[3] ^ b[3]);
}

__attribute__((always_inline)) static inline void knn2_body(const uint8_t *query, int32_t query_count,
                                                            const uint8_t *train, int32_t train_count,
                                                            cb_match2 *out) {
    for (int32_t i = 0; i < query_count; ++i) {
        uint64_t a[4];
        std::memcpy(a, query + size_t(i) * 32, 32);
        int64_t best = INT32_MAX, second = INT32_MAX, index = -1;
        const uint8_t *t = train;
        for (int32_t j = 0; j < train_count; ++j, t += 32) knn2_consider(knn2_distance(a, t), j, best, second, index);
        out[i] = {i, int32_t(index), int32_t(best), int32_t(second)};
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

// The vector kernels compare one query with eight train descriptors at once. The train set is
// laid out word-major in blocks of eight (block b: word k of descriptors 8b..8b+7 side by side),
// so a block's eight distances are four XORs and four popcounts of whole registers with no
// horizontal sums; each of the eight lanes keeps its own best, second and index, merged at the
// end. With AVX-512's popcount that is about 2 instructions a pair instead of about 20.
struct knn2_lanes {
    int64_t best[8], second[8], index[8];
};

// The lanes' two smallest distances and the first index of the smallest (the scalar loop's ties),
// then the train descriptors past the last whole block.
static inline cb_match2 knn2_merge(int32_t i, const knn2_lanes &lanes, const uint64_t a[4], const uint8_t *train,
                                   int32_t from, int32_t train_count) {
    int64_t best = INT32_MAX, second = INT32_MAX, index = -1;
    for (int l = 0; l < 8; ++l) {
        if (lanes.best[l] < best || (lanes.best[l] == best && lanes.index[l] < index)) best = lanes.best[l], index = lanes.index[l];
    }
    // The second smallest of all distances is the second smallest of the lanes' bests and seconds.
    bool skipped = false;
    for (int l = 0; l < 8; ++l) {
        if (!skipped && lanes.index[l] == index && lanes.best[l] == best) {
            skipped = true;
        } else if (lanes.best[l] < second) {
            second = lanes.best[l];
        }
        if (lanes.second[l] < second) second = lanes.second[l];
    }
    const uint8_t *t = train + size_t(from) * 32;
    for (int32_t j = from; j < train_count; ++j, t += 32) knn2_consider(knn2_distance(a, t), j, best, second, index);
    return {i, int32_t(index), int32_t(best), int32_t(second)};
}

// Whole blocks of eight train descriptors, word-major (see above).
static const uint64_t *knn2_blocks(const uint8_t *train, int32_t blocks) {
    thread_local std::vector<uint64_t> layout;
    layout.resize(size_t(blocks) * 32);
    for (int32_t b = 0; b < blocks; ++b)
        for (int l = 0; l < 8; ++l) {
            uint64_t w[4];
            std::memcpy(w, train + (size_t(b) * 8 + l) * 32, 32);
            for (int k = 0; k < 4; ++k) layout[size_t(b) * 32 + k * 8 + l] = w[k];
        }
    return layout.data();
}

#if defined(__x86_64__)
#include <immintrin.h>

__attribute__((target("avx512f,avx512vpopcntdq"))) static void knn2_avx512(const uint8_t *query, int32_t query_count,
                                                                           const uint8_t *train, int32_t train_count,
                                                                           cb_match2 *out) {
    const int32_t blocks = train_count / 8;
    const uint64_t *layout = knn2_blocks(train, blocks);
    const __m512i first = _mm512_setr_epi64(0, 1, 2, 3, 4, 5, 6, 7), step = _mm512_set1_epi64(8);
    for (int32_t i = 0; i < query_count; ++i) {
        uint64_t a[4];
        std::memcpy(a, query + size_t(i) * 32, 32);
        const __m512i q0 = _mm512_set1_epi64(int64_t(a[0])), q1 = _mm512_set1_epi64(int64_t(a[1])),
                      q2 = _mm512_set1_epi64(int64_t(a[2])), q3 = _mm512_set1_epi64(int64_t(a[3]));
        __m512i best = _mm512_set1_epi64(INT32_MAX), second = best, index = _mm512_set1_epi64(-1), at = first;
        const uint64_t *p = layout;
        for (int32_t b = 0; b < blocks; ++b, p += 32) {
            __m512i d = _mm512_add_epi64(
                _mm512_add_epi64(_mm512_popcnt_epi64(_mm512_xor_si512(q0, _mm512_loadu_si512(p))),
                                 _mm512_popcnt_epi64(_mm512_xor_si512(q1, _mm512_loadu_si512(p + 8)))),
                _mm512_add_epi64(_mm512_popcnt_epi64(_mm512_xor_si512(q2, _mm512_loadu_si512(p + 16))),
                                 _mm512_popcnt_epi64(_mm512_xor_si512(q3, _mm512_loadu_si512(p + 24)))));
            const __mmask8 closer = _mm512_cmplt_epi64_mask(d, best);
            second = _mm512_min_epi64(second, _mm512_max_epi64(d, best));
            best = _mm512_min_epi64(best, d);
            index = _mm512_mask_mov_epi64(index, closer, at);
            at = _mm512_add_epi64(at, step);
        }
        knn2_lanes lanes;
        _mm512_storeu_si512(lanes.best, best);
        _mm512_storeu_si512(lanes.second, second);
        _mm512_storeu_si512(lanes.index, index);
        out[i] = knn2_merge(i, lanes, a, train, blocks * 8, train_count);
    }
}

// Popcount of each 64-bit lane without AVX-512: per-nibble table lookups, summed over bytes.
__attribute__((target("avx2"))) static inline __m256i knn2_byte_counts(__m256i v) {
    const __m256i table = _mm256_setr_epi8(0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4, 0, 1, 1, 2, 1, 2, 2, 3, 1, 2,
                                           2, 3, 2, 3, 3, 4);
    const __m256i low = _mm256_set1_epi8(0x0f);
    return _mm256_add_epi8(_mm256_shuffle_epi8(table, _mm256_and_si256(v, low)),
                           _mm256_shuffle_epi8(table, _mm256_and_si256(_mm256_srli_epi16(v, 4), low)));
}

__attribute__((target("avx2"))) static void knn2_avx2(const uint8_t *query, int32_t query_count, const uint8_t *train,
                                                      int32_t train_count, cb_match2 *out) {
    const int32_t blocks = train_count / 8;
    const uint64_t *layout = knn2_blocks(train, blocks);
    const __m256i zero = _mm256_setzero_si256(), step = _mm256_set1_epi64x(8);
    for (int32_t i = 0; i < query_count; ++i) {
        uint64_t a[4];
        std::memcpy(a, query + size_t(i) * 32, 32);
        const __m256i q0 = _mm256_set1_epi64x(int64_t(a[0])), q1 = _mm256_set1_epi64x(int64_t(a[1])),
                      q2 = _mm256_set1_epi64x(int64_t(a[2])), q3 = _mm256_set1_epi64x(int64_t(a[3]));
        // Lanes 0-3 and 4-7 of each block, as two halves.
        __m256i best[2], second[2], index[2], at[2];
        for (int h = 0; h < 2; ++h) {
            best[h] = _mm256_set1_epi64x(INT32_MAX), second[h] = best[h], index[h] = _mm256_set1_epi64x(-1);
            at[h] = _mm256_setr_epi64x(4 * h, 4 * h + 1, 4 * h + 2, 4 * h + 3);
        }
        const uint64_t *p = layout;
        for (int32_t b = 0; b < blocks; ++b, p += 32) {
            for (int h = 0; h < 2; ++h) {
                const uint64_t *w = p + 4 * h;
                const __m256i counts = _mm256_add_epi8(
                    _mm256_add_epi8(knn2_byte_counts(_mm256_xor_si256(q0, _mm256_loadu_si256((const __m256i *)w))),
                                    knn2_byte_counts(_mm256_xor_si256(q1, _mm256_loadu_si256((const __m256i *)(w + 8))))),
                    _mm256_add_epi8(knn2_byte_counts(_mm256_xor_si256(q2, _mm256_loadu_si256((const __m256i *)(w + 16)))),
                                    knn2_byte_counts(_mm256_xor_si256(q3, _mm256_loadu_si256((const __m256i *)(w + 24))))));
                const __m256i d = _mm256_sad_epu8(counts, zero);
                const __m256i closer = _mm256_cmpgt_epi64(best[h], d);
                const __m256i larger = _mm256_blendv_epi8(d, best[h], closer);  // max(d, best)
                second[h] = _mm256_blendv_epi8(second[h], larger, _mm256_cmpgt_epi64(second[h], larger));
                best[h] = _mm256_blendv_epi8(best[h], d, closer);
                index[h] = _mm256_blendv_epi8(index[h], at[h], closer);
                at[h] = _mm256_add_epi64(at[h], step);
            }
        }
        knn2_lanes lanes;
        for (int h = 0; h < 2; ++h) {
            _mm256_storeu_si256((__m256i *)(lanes.best + 4 * h), best[h]);
            _mm256_storeu_si256((__m256i *)(lanes.second + 4 * h), second[h]);
            _mm256_storeu_si256((__m256i *)(lanes.index + 4 * h), index[h]);
        }
        out[i] = knn2_merge(i, lanes, a, train, blocks * 8, train_count);
    }
}
#endif

// The kernels this CPU can run, best first (CB_MATCH_KERNEL_*).
static int32_t knn2_available() {
    int32_t kernels = 1 << CB_MATCH_KERNEL_PORTABLE;
#if defined(__x86_64__) || defined(__i386__)
    if (__builtin_cpu_supports("popcnt")) kernels |= 1 << CB_MATCH_KERNEL_POPCNT;
#endif
#if defined(__x86_64__)
    if (__builtin_cpu_supports("avx2")) kernels |= 1 << CB_MATCH_KERNEL_AVX2;
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vpopcntdq"))
        kernels |= 1 << CB_MATCH_KERNEL_AVX512;
#endif
    return kernels;
}

// ORB on `area` of `gray` (under `mask` when not empty), keypoints back in image pixels.
static int32_t orb_detect(cb_orb *orb, const cv::Mat &gray, cv::Rect area, const cv::Mat &mask, cb_keypoint *keypoints,
                          uint8_t *descriptors, int32_t max_out) {
    std::vector<cv::KeyPoint> kps;
    cv::Mat desc;
    orb->orb->detectAndCompute(gray(area), mask, kps, desc);
    int32_t n = std::min<int32_t>(int32_t(kps.size()), max_out);
    for (int32_t i = 0; i < n; ++i) {
        const auto &k = kps[i];
        keypoints[i] = {k.pt.x + area.x, k.pt.y + area.y, k.size, k.angle, k.response, k.octave};
        std::memcpy(descriptors + size_t(i) * 32, desc.ptr(i), 32);
    }
    return n;
}

extern "C" {

cb_orb *cb_orb_create(int32_t features, double scale_factor, int32_t levels, int32_t fast_threshold,
                      int32_t edge_threshold) {
    CB_GUARD(nullptr, {
        auto *o = new cb_orb();
        o->orb = cv::ORB::create(features, float(scale_factor), levels, edge_threshold, 0, 2, cv::ORB::HARRIS_SCORE, 31,
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
        return orb_detect(orb, gray->mat, r, cv::Mat(), keypoints, descriptors, max_out);
    })
}

int32_t cb_orb_detect_outside(cb_orb *orb, const cb_image *gray, const cb_point2f *quads, int32_t quad_count,
                              int32_t margin, cb_keypoint *keypoints, uint8_t *descriptors, int32_t max_out) {
    CB_GUARD(-1, {
        thread_local cv::Mat mask;
        mask.create(gray->mat.size(), CV_8U);
        mask.setTo(cv::Scalar(255));
        for (int32_t q = 0; q < quad_count; ++q) {
            std::vector<cv::Point> corners;
            for (int k = 0; k < 4; ++k)
                corners.emplace_back(int(std::lround(quads[q * 4 + k].x)), int(std::lround(quads[q * 4 + k].y)));
            cv::fillConvexPoly(mask, corners, cv::Scalar(0));
            if (margin > 0) cv::polylines(mask, corners, true, cv::Scalar(0), 2 * margin);
        }
        return orb_detect(orb, gray->mat, cv::Rect(0, 0, gray->mat.cols, gray->mat.rows), mask, keypoints, descriptors,
                          max_out);
    })
}

int32_t cb_match_kernels(void) { return knn2_available(); }

int32_t cb_match_knn2_with(int32_t kernel, const uint8_t *query, int32_t query_count, const uint8_t *train,
                           int32_t train_count, cb_match2 *out) {
    CB_GUARD(-1, {
        if (kernel < 0 || kernel > CB_MATCH_KERNEL_AVX512 || !(knn2_available() & (1 << kernel)))
            throw std::runtime_error("matching kernel " + std::to_string(kernel) + " is not available on this CPU");
        if (query_count == 0 || train_count < 2) return 0;
        switch (kernel) {
#if defined(__x86_64__)
        case CB_MATCH_KERNEL_AVX512: knn2_avx512(query, query_count, train, train_count, out); break;
        case CB_MATCH_KERNEL_AVX2: knn2_avx2(query, query_count, train, train_count, out); break;
#endif
#if defined(__x86_64__) || defined(__i386__)
        case CB_MATCH_KERNEL_POPCNT: knn2_popcnt(query, query_count, train, train_count, out); break;
#endif
        default: knn2_portable(query, query_count, train, train_count, out); break;
        }
        return query_count;
    })
}

int32_t cb_match_knn2(const uint8_t *query, int32_t query_count, const uint8_t *train, int32_t train_count,
                      cb_match2 *out) {
    static const int32_t kernels = knn2_available();
    const int32_t best = kernels & (1 << CB_MATCH_KERNEL_AVX512) ? CB_MATCH_KERNEL_AVX512
                         : kernels & (1 << CB_MATCH_KERNEL_AVX2) ? CB_MATCH_KERNEL_AVX2
                         : kernels & (1 << CB_MATCH_KERNEL_POPCNT) ? CB_MATCH_KERNEL_POPCNT
                                                                   : CB_MATCH_KERNEL_PORTABLE;
    return cb_match_knn2_with(best, query, query_count, train, train_count, out);
}

int32_t cb_optical_flow(const cb_image *prev, const cb_image *next, const cb_point2f *points, int32_t n,
                        cb_point2f *out, uint8_t *status, int32_t window, int32_t levels) {
    CB_GUARD(-1, {
        if (n == 0) return 0;
        // Flow only inside the points' box, grown by the farthest motion the pyramid can follow
        // (half a window at the top level) and a window: the pyramids and image derivatives are
        // most of LK's cost, and over the whole frame they cost 2-3x more for a card a sixth of
        // the frame wide (callgrind: 84 % of a card's tracking in them).
        float x0 = points[0].x, y0 = points[0].y, x1 = x0, y1 = y0;
        for (int i = 1; i < n; ++i) {
            x0 = std::min(x0, points[i].x), x1 = std::max(x1, points[i].x);
            y0 = std::min(y0, points[i].y), y1 = std::max(y1, points[i].y);
        }
        const int margin = ((window / 2) << levels) + window / 2 + 2;
        cv::Rect roi(int(std::floor(x0)) - margin, int(std::floor(y0)) - margin, int(x1 - x0) + 2 * margin + 2,
                     int(y1 - y0) + 2 * margin + 2);
        roi &= cv::Rect(0, 0, std::min(prev->mat.cols, next->mat.cols), std::min(prev->mat.rows, next->mat.rows));
        if (roi.width < window || roi.height < window) {
            std::fill(status, status + n, uint8_t(0));
            return n;
        }
        std::vector<cv::Point2f> in(n), moved;
        for (int i = 0; i < n; ++i) in[i] = {points[i].x - roi.x, points[i].y - roi.y};
        std::vector<uchar> st;
        std::vector<float> err;
        cv::calcOpticalFlowPyrLK(prev->mat(roi), next->mat(roi), in, moved, st, err, cv::Size(window, window), levels,
                                 cv::TermCriteria(cv::TermCriteria::COUNT | cv::TermCriteria::EPS, 20, 0.03));
        for (int i = 0; i < n; ++i) {
            out[i] = {moved[i].x + roi.x, moved[i].y + roi.y};
            status[i] = st[i];
        }
        return n;
    })
}

int32_t cb_find_patch(const cb_image *from, cb_rect patch, const cb_image *to, cb_rect area, double scale,
                      double *dx, double *dy, double *score) {
    CB_GUARD(-1, {
        cv::Rect p(patch.x, patch.y, patch.width, patch.height), a(area.x, area.y, area.width, area.height);
        p &= cv::Rect(0, 0, from->mat.cols, from->mat.rows);
        a &= cv::Rect(0, 0, to->mat.cols, to->mat.rows);
        if (p.width * scale < 8 || p.height * scale < 8 || a.width < p.width || a.height < p.height) return 0;
        thread_local cv::Mat small_patch, small_area, result;
        // A wide area (a search that landed many frames late) is matched at half the scale first,
        // then at `scale` only around the coarse best: a single pass over an area five patches
        // wide took up to 2 ms of the frame thread, eight times that in wall time at a quarter core.
        const double positions = (a.width - p.width) * scale * (a.height - p.height) * scale;
        const double coarse = scale / 2;
        if (positions > 1600 && p.width * coarse >= 8 && p.height * coarse >= 8) {
            cv::resize(from->mat(p), small_patch, cv::Size(), coarse, coarse, cv::INTER_AREA);
            cv::resize(to->mat(a), small_area, cv::Size(), coarse, coarse, cv::INTER_AREA);
            if (small_area.cols >= small_patch.cols && small_area.rows >= small_patch.rows) {
                cv::matchTemplate(small_area, small_patch, result, cv::TM_CCOEFF_NORMED);
                cv::Point at;
                cv::minMaxLoc(result, nullptr, nullptr, nullptr, &at);
                const int margin = static_cast<int>(std::ceil(3 / coarse));
                const cv::Rect near(a.x + static_cast<int>(std::lround(at.x / coarse)) - margin,
                                    a.y + static_cast<int>(std::lround(at.y / coarse)) - margin,
                                    p.width + 2 * margin, p.height + 2 * margin);
                const cv::Rect kept = near & a;
                if (kept.width >= p.width && kept.height >= p.height) a = kept;
            }
        }
        cv::resize(from->mat(p), small_patch, cv::Size(), scale, scale, cv::INTER_AREA);
        cv::resize(to->mat(a), small_area, cv::Size(), scale, scale, cv::INTER_AREA);
        if (small_area.cols < small_patch.cols || small_area.rows < small_patch.rows) return 0;
        cv::matchTemplate(small_area, small_patch, result, cv::TM_CCOEFF_NORMED);
        double best;
        cv::Point at;
        cv::minMaxLoc(result, nullptr, &best, nullptr, &at);
        // Sub-cell: a parabola through the best score and its neighbours, each way.
        auto offset = [](float l, float c, float r) {
            const float d = l - 2 * c + r;
            return std::abs(d) > 1e-6f ? 0.5 * (l - r) / d : 0.0;
        };
        double fx = at.x, fy = at.y;
        if (at.x > 0 && at.x < result.cols - 1)
            fx += offset(result.at<float>(at.y, at.x - 1), result.at<float>(at.y, at.x), result.at<float>(at.y, at.x + 1));
        if (at.y > 0 && at.y < result.rows - 1)
            fy += offset(result.at<float>(at.y - 1, at.x), result.at<float>(at.y, at.x), result.at<float>(at.y + 1, at.x));
        // The move of the part of the patch inside `from` (a patch over the edge is clipped).
        *dx = a.x + fx / scale - p.x;
        *dy = a.y + fy / scale - p.y;
        *score = best;
        return 1;
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

// Normalised cross-correlation of a and b, over the pixels of `mask` when given; -3 when fewer
// than `minimum` pixels count or b has no texture there.
static double ncc(const cv::Mat &a, const cv::Mat &b, const cv::Mat *mask, int minimum) {
    cv::Scalar am, as, bm, bs;
    if (!mask) {
        cv::meanStdDev(b, bm, bs);
        if (bs[0] < 1e-6) return -3.0;
        cv::Mat result;
        cv::matchTemplate(a, b, result, cv::TM_CCOEFF_NORMED);
        return double(result.at<float>(0, 0));
    }
    const int n = cv::countNonZero(*mask);
    if (n < minimum) return -3.0;
    cv::meanStdDev(a, am, as, *mask);
    cv::meanStdDev(b, bm, bs, *mask);
    if (bs[0] < 1e-6) return -3.0;
    if (as[0] < 1e-6) return 0.0;
    double sum = 0;
    for (int y = 0; y < a.rows; ++y) {
        const uint8_t *pa = a.ptr<uint8_t>(y), *pb = b.ptr<uint8_t>(y), *pm = mask->ptr<uint8_t>(y);
        for (int x = 0; x < a.cols; ++x)
            if (pm[x]) sum += (pa[x] - am[0]) * (pb[x] - bm[0]);
    }
    return sum / (double(n) * as[0] * bs[0]);
}

double cb_warped_correlation(const cb_image *frame_gray, const double h[9], const cb_image *reference,
                             cb_image *scratch, int32_t cells) {
    CB_GUARD(-2.0, {
        const cv::Mat &ref = reference->mat, &frame = frame_gray->mat;
        cv::Matx33d H(h);
        // frame -> reference sampling: warp with the inverse map.
        cv::warpPerspective(frame, scratch->mat, cv::Mat(H), ref.size(), cv::INTER_LINEAR | cv::WARP_INVERSE_MAP,
                            cv::BORDER_CONSTANT, cv::Scalar(0));
        // A card partly out of view is judged on the part in view: a mask of the covered pixels.
        // Only needed when a corner is outside the frame (the usual case skips it).
        std::vector<cv::Point2d> c = {{0, 0}, {double(ref.cols), 0}, {double(ref.cols), double(ref.rows)}, {0, double(ref.rows)}}, w;
        cv::perspectiveTransform(c, w, cv::Mat(H));
        bool whole = true;
        for (const auto &p : w) whole = whole && p.x >= 0 && p.y >= 0 && p.x <= frame.cols - 1 && p.y <= frame.rows - 1;
        cv::Mat mask;
        if (!whole) {
            cv::Mat inside(frame.size(), CV_8U, cv::Scalar(255));
            cv::warpPerspective(inside, mask, cv::Mat(H), ref.size(), cv::INTER_NEAREST | cv::WARP_INVERSE_MAP,
                                cv::BORDER_CONSTANT, cv::Scalar(0));
            // Too little of the card in view to say anything.
            if (cv::countNonZero(mask) < int(ref.total() / 4)) return -1.0;
        }
        if (cells <= 1) {
            double r = ncc(scratch->mat, ref, whole ? nullptr : &mask, 1);
            return r < -2.5 ? 0.0 : r;
        }
        // Occlusion-tolerant: the card judged by its better-matching half of cells, since a hand
        // over part of it spoils those cells and no others.
        std::vector<double> scores;
        for (int cy = 0; cy < cells; ++cy) {
            for (int cx = 0; cx < cells; ++cx) {
                cv::Rect r(cx * ref.cols / cells, cy * ref.rows / cells, (cx + 1) * ref.cols / cells - cx * ref.cols / cells,
                           (cy + 1) * ref.rows / cells - cy * ref.rows / cells);
                cv::Mat cellMask = whole ? cv::Mat() : mask(r);
                double v = ncc(scratch->mat(r), ref(r), whole ? nullptr : &cellMask, int(r.area() / 2));
                if (v > -2.5) scores.push_back(v);
            }
        }
        if (scores.size() < 4) return -1.0;
        std::sort(scores.begin(), scores.end(), std::greater<double>());
        const size_t half = (scores.size() + 1) / 2;
        double sum = 0;
        for (size_t i = 0; i < half; ++i) sum += scores[i];
        return sum / double(half);
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
        // Around and between the card's edges the rendering shows the frame itself, so optical
        // flow near the border compares like with like. The whole frame, not a margin around the
        // card: the flow's region and its pyramids' borders reach up to ~100 px past the card, and
        // whatever lay there before (an earlier frame, or memory never written, whose contents
        // depend on the heap's history) made batch anchors differ from run to run.
        frame.copyTo(dst->mat);
        cv::Matx33d T(1, 0, -r.x, 0, 1, -r.y, 0, 0, 1);
        thread_local cv::Mat warped, mask;
        cv::warpPerspective(ref, warped, cv::Mat(T * H), r.size(), cv::INTER_LINEAR, cv::BORDER_REPLICATE);
        // The card's quad, filled: where the rendering replaces the frame.
        mask.create(r.size(), CV_8U);
        mask.setTo(cv::Scalar(0));
        std::vector<cv::Point> quad;
        for (const auto &p : w) quad.emplace_back(int(std::lround(p.x - r.x)), int(std::lround(p.y - r.y)));
        cv::fillConvexPoly(mask, quad, cv::Scalar(255));
        // Brightness and contrast as the frame shows them on the card: optical flow assumes
        // constant intensity.
        cv::Scalar fm, fs, rm, rs;
        cv::meanStdDev(frame(r), fm, fs, mask);
        cv::meanStdDev(warped, rm, rs, mask);
        if (rs[0] > 1) warped.convertTo(warped, CV_8U, fs[0] / rs[0], fm[0] - rm[0] * fs[0] / rs[0]);
        warped.copyTo(dst->mat(r), mask);
        return 1;
    })
}

int32_t cb_upright_patch(const cb_image *gray, double cx, double cy, double side, double angle_rad, int32_t n,
                         float *out) {
    CB_GUARD(-1, {
        if (gray->mat.type() != CV_8UC1 || n < 4 || n > 128 || !(side > 1)) {
            cbridge::set_error("an upright patch needs an 8-bit gray image, a side above 1 px and 4-128 samples");
            return -1;
        }
        // Shrunk with an area filter's worth of blur first, so the few samples average their
        // cells rather than pick single noisy pixels.
        const double k = n / side;
        thread_local cv::Mat source, patch;
        const cv::Mat *from = &gray->mat;
        double x = cx, y = cy;
        if (k < 0.5) {
            const cv::Rect region = cv::Rect(int(std::floor(cx - side)), int(std::floor(cy - side)),
                                             int(std::ceil(2 * side)), int(std::ceil(2 * side))) &
                                    cv::Rect(0, 0, gray->mat.cols, gray->mat.rows);
            if (region.empty()) {
                std::fill(out, out + n * n, 0.0f);
                return n * n;
            }
            const double sigma = 0.5 / k;
            cv::GaussianBlur(gray->mat(region), source, cv::Size(0, 0), sigma);
            from = &source;
            x = cx - region.x;
            y = cy - region.y;
        }
        cbridge::warp_upright(*from, x, y, angle_rad, k, n, patch);
        cv::Scalar mean, stddev;
        cv::meanStdDev(patch, mean, stddev);
        const double scale_out = stddev[0] > 1e-3 ? 1.0 / stddev[0] : 0.0;
        for (int r = 0; r < n; ++r)
            for (int col = 0; col < n; ++col)
                out[r * n + col] = float((patch.at<uint8_t>(r, col) - mean[0]) * scale_out);
        return n * n;
    })
}

}  // extern "C"
