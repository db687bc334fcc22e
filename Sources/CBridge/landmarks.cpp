// dlib's 68-point shape predictor (Kazemi & Sullivan's cascade of regression trees), evaluated from
// a compact copy of the model.
//
// Why not dlib's own evaluation: a fit walks 15 cascades of 500 trees and adds one leaf of 136
// floats per tree, so it reads 7500 leaves (4 MB) scattered over 65 MB of separately allocated
// vectors. On one core that is memory-bound (about 4 M instructions but 2-4 ms), and it is the
// largest cost of a tracked face. Here the same trees are repacked on load: splits as 8-byte
// records, leaves as 16-bit integers with one scale per cascade (quantization error below
// 1e-4 of the face box), contiguous and on huge pages: half the bytes and no pointer chasing.
// Leaf indices of a cascade are found first and the leaves are then summed with prefetching, so
// the memory reads overlap. Points come out as floats instead of dlib's integer pixels.
#include "internal.hpp"
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <dlib/image_processing.h>
#include <dlib/opencv.h>
#include <fstream>
#include <memory>
#include <opencv2/imgproc.hpp>
#include <cstring>
#include <sys/mman.h>
#include <sys/stat.h>

namespace {

struct packed_split {
    uint16_t idx1, idx2;
    float thresh;
};

struct compact_cascade {
    std::vector<unsigned long> anchor_idx;
    std::vector<dlib::vector<float, 2>> deltas;
    std::vector<packed_split> splits;  // trees * splits_per_tree
    float leaf_unit = 0;               // leaf value = int16 * leaf_unit
    size_t first_leaf = 0;             // into the model's leaf storage, in leaf vectors
};

struct huge_page_buffer {
    int16_t *data = nullptr;
    size_t bytes = 0;
    explicit huge_page_buffer(size_t count) {
        const size_t page = size_t(2) << 20;
        bytes = (count * sizeof(int16_t) + page - 1) / page * page;
        data = static_cast<int16_t *>(std::aligned_alloc(page, bytes));
        if (!data) throw std::bad_alloc();
        // Advice only: where transparent huge pages are off this is a no-op.
        madvise(data, bytes, MADV_HUGEPAGE);
    }
    ~huge_page_buffer() { std::free(data); }
    huge_page_buffer(const huge_page_buffer &) = delete;
    huge_page_buffer &operator=(const huge_page_buffer &) = delete;
};

}  // namespace

struct cb_shape_predictor {
    dlib::matrix<float, 0, 1> initial_shape;
    std::vector<compact_cascade> cascades;
    unsigned long trees = 0, splits_per_tree = 0, leaves_per_tree = 0, values = 0;
    std::unique_ptr<huge_page_buffer> leaves;
    // dlib's own predictor on the same file, kept only when asked (tests compare the two).
    std::unique_ptr<dlib::shape_predictor> reference;
};

namespace {

// The file in memory, read by dlib's own deserializers for the small parts and by `forest_reader`
// for the forests (98% of the bytes).
struct memory_buffer : std::streambuf {
    memory_buffer(char *begin, char *end) { setg(begin, begin, end); }
    const unsigned char *position() const { return reinterpret_cast<const unsigned char *>(gptr()); }
    const unsigned char *end() const { return reinterpret_cast<const unsigned char *>(egptr()); }
    void move_to(const unsigned char *p) { setg(eback(), reinterpret_cast<char *>(const_cast<unsigned char *>(p)), egptr()); }
};

// dlib's serialization format read straight from memory. dlib::deserialize(float&) reads each of
// the model's 33 million floats through two virtual stream calls (about a second on one core, the
// whole start-up of `process`); the format is simple: an integer is a control byte (its low four
// bits the byte count, bit 7 the sign) and that many little-endian bytes; a float is an int64
// mantissa and an int16 exponent; a vector is its size and its elements; a matrix is -rows,
// -columns and its elements row by row.
struct forest_reader {
    const unsigned char *p, *end;

    uint64_t magnitude(unsigned char control, unsigned limit) {
        const unsigned size = control & 0x0F;
        if (size == 0 || size > limit || end - p < long(size)) throw dlib::serialization_error("corrupt integer in the landmark model");
        uint64_t v = 0;
        for (unsigned i = size; i-- > 0;) v = (v << 8) | p[i];
        p += size;
        return v;
    }
    unsigned char control() {
        if (p >= end) throw dlib::serialization_error("landmark model ends early");
        return *p++;
    }
    uint64_t unsigned_int() {
        const unsigned char c = control();
        if (c & 0xF0) throw dlib::serialization_error("corrupt integer in the landmark model");
        return magnitude(c, 8);
    }
    int64_t signed_int(unsigned limit = 8) {
        const unsigned char c = control();
        const int64_t v = int64_t(magnitude(c, limit));
        return (c & 0x80) ? -v : v;
    }
    float real() {
        // dlib's older ASCII format has bits in 0x70 of its first byte; no Debian model uses it.
        if (p < end && (*p & 0x70)) throw dlib::serialization_error("landmark model in dlib's old text format");
        const int64_t mantissa = signed_int(8);
        const int64_t exponent = signed_int(2);
        if (exponent < 32000) return std::ldexp(float(mantissa), int(exponent));
        return exponent == 32000 ? HUGE_VALF : exponent == 32001 ? -HUGE_VALF : NAN;
    }
};

// Reads the model as dlib::deserialize(shape_predictor&) would, one cascade at a time, so the
// float leaves of only one cascade are in memory at once.
void load_compact(cb_shape_predictor &p, const char *path) {
    std::ifstream file(path, std::ios::binary | std::ios::ate);
    if (!file) throw dlib::serialization_error(std::string("cannot open ") + path);
    const std::streamsize length = file.tellg();
    if (length <= 0) throw dlib::serialization_error(std::string("empty file ") + path);
    std::vector<char> bytes(static_cast<size_t>(length));
    file.seekg(0);
    if (!file.read(bytes.data(), length)) throw dlib::serialization_error(std::string("cannot read ") + path);
    memory_buffer buffer(bytes.data(), bytes.data() + bytes.size());
    std::istream in(&buffer);
    int version = 0;
    dlib::deserialize(version, in);
    if (version != 1) throw dlib::serialization_error("not a dlib shape predictor (version " + std::to_string(version) + ")");
    dlib::deserialize(p.initial_shape, in);
    p.values = p.initial_shape.size();
    unsigned long cascade_count = 0;
    dlib::deserialize(cascade_count, in);
    if (cascade_count == 0 || cascade_count > 100) throw dlib::serialization_error("implausible cascade count");
    p.cascades.resize(cascade_count);
    forest_reader r{buffer.position(), buffer.end()};
    std::vector<float> values;
    for (unsigned long c = 0; c < cascade_count; ++c) {
        const uint64_t trees = r.unsigned_int();
        if (trees == 0 || trees > 100000) throw dlib::serialization_error("implausible cascade size");
        auto &cascade = p.cascades[c];
        float largest = 0;
        values.clear();
        for (uint64_t t = 0; t < trees; ++t) {
            const uint64_t splits = r.unsigned_int();
            if (c == 0 && t == 0) {
                p.trees = trees;
                p.splits_per_tree = splits;
                p.leaves_per_tree = splits + 1;
                p.leaves.reset(new huge_page_buffer(cascade_count * p.trees * p.leaves_per_tree * p.values));
            }
            if (trees != p.trees) throw dlib::serialization_error("cascades of different sizes");
            if (splits != p.splits_per_tree) throw dlib::serialization_error("trees of different depths");
            for (uint64_t i = 0; i < splits; ++i) {
                const uint64_t idx1 = r.unsigned_int(), idx2 = r.unsigned_int();
                if (idx1 > 65535 || idx2 > 65535) throw dlib::serialization_error("feature index out of range");
                cascade.splits.push_back(packed_split{uint16_t(idx1), uint16_t(idx2), r.real()});
            }
            if (r.unsigned_int() != p.leaves_per_tree) throw dlib::serialization_error("tree is not complete");
            for (unsigned long l = 0; l < p.leaves_per_tree; ++l) {
                const int64_t rows = std::abs(r.signed_int()), cols = std::abs(r.signed_int());
                if (uint64_t(rows * cols) != p.values) throw dlib::serialization_error("leaf of the wrong size");
                for (unsigned long j = 0; j < p.values; ++j) {
                    const float v = r.real();
                    largest = std::max(largest, std::fabs(v));
                    values.push_back(v);
                }
            }
        }
        cascade.leaf_unit = largest > 0 ? largest / 32767.0f : 1.0f;
        cascade.first_leaf = c * p.trees * p.leaves_per_tree;
        int16_t *out = p.leaves->data + cascade.first_leaf * p.values;
        for (const float v : values) *out++ = int16_t(std::lround(v / cascade.leaf_unit));
    }
    buffer.move_to(r.p);
    unsigned long count = 0;
    dlib::deserialize(count, in);
    if (count != cascade_count) throw dlib::serialization_error("anchor table does not match the cascades");
    for (auto &cascade : p.cascades) dlib::deserialize(cascade.anchor_idx, in);
    dlib::deserialize(count, in);
    if (count != cascade_count) throw dlib::serialization_error("pixel table does not match the cascades");
    for (auto &cascade : p.cascades) {
        dlib::deserialize(cascade.deltas, in);
        if (cascade.deltas.size() != cascade.anchor_idx.size() || cascade.deltas.size() > 65536)
            throw dlib::serialization_error("pixel table of the wrong size");
    }
}

// The compact copy as a cache payload: sizes, the initial shape, each cascade's tables and
// splits, then every leaf. Native byte order (a cache is this machine's); the file name carries
// the model file's size and modification time, so a replaced model is unpacked again.
template <typename T> void put(std::string &out, const T &v) { out.append(reinterpret_cast<const char *>(&v), sizeof v); }
template <typename T> void put_array(std::string &out, const T *v, size_t n) {
    put(out, uint64_t(n));
    out.append(reinterpret_cast<const char *>(v), n * sizeof(T));
}

std::string compact_payload(const cb_shape_predictor &p) {
    std::string out;
    for (uint64_t v : {uint64_t(p.values), uint64_t(p.trees), uint64_t(p.splits_per_tree), uint64_t(p.leaves_per_tree),
                       uint64_t(p.cascades.size())})
        put(out, v);
    put_array(out, &p.initial_shape(0), p.values);
    for (const auto &c : p.cascades) {
        put(out, c.leaf_unit);
        put(out, uint64_t(c.first_leaf));
        put_array(out, c.anchor_idx.data(), c.anchor_idx.size());
        std::vector<float> deltas;
        for (const auto &d : c.deltas) { deltas.push_back(d.x()); deltas.push_back(d.y()); }
        put_array(out, deltas.data(), deltas.size());
        put_array(out, c.splits.data(), c.splits.size());
    }
    put_array(out, p.leaves->data, p.cascades.size() * p.trees * p.leaves_per_tree * p.values);
    return out;
}

struct payload_reader {
    const char *p, *end;
    template <typename T> T get() {
        if (size_t(end - p) < sizeof(T)) throw dlib::serialization_error("cached model ends early");
        T v;
        std::memcpy(&v, p, sizeof v);
        p += sizeof v;
        return v;
    }
    template <typename T> void get_array(T *out, uint64_t expected) {
        const uint64_t n = get<uint64_t>();
        if (n != expected || uint64_t(end - p) < n * sizeof(T)) throw dlib::serialization_error("cached model has the wrong size");
        std::memcpy(out, p, n * sizeof(T));
        p += n * sizeof(T);
    }
    uint64_t count(uint64_t limit) {
        const uint64_t n = get<uint64_t>();
        if (n > limit) throw dlib::serialization_error("cached model has the wrong size");
        p -= sizeof n;  // get_array reads it again
        return n;
    }
};

void load_payload(cb_shape_predictor &p, const std::string &payload) {
    payload_reader r{payload.data(), payload.data() + payload.size()};
    p.values = r.get<uint64_t>();
    p.trees = r.get<uint64_t>();
    p.splits_per_tree = r.get<uint64_t>();
    p.leaves_per_tree = r.get<uint64_t>();
    const uint64_t cascades = r.get<uint64_t>();
    if (p.values == 0 || p.values > 1000 || p.trees == 0 || p.trees > 100000 || p.leaves_per_tree != p.splits_per_tree + 1 ||
        cascades == 0 || cascades > 100)
        throw dlib::serialization_error("implausible cached model");
    p.initial_shape.set_size(long(p.values));
    r.get_array(&p.initial_shape(0), p.values);
    p.cascades.resize(cascades);
    for (auto &c : p.cascades) {
        c.leaf_unit = r.get<float>();
        c.first_leaf = r.get<uint64_t>();
        c.anchor_idx.resize(r.count(65536));
        r.get_array(c.anchor_idx.data(), c.anchor_idx.size());
        std::vector<float> deltas(r.count(2 * 65536));
        r.get_array(deltas.data(), deltas.size());
        if (deltas.size() != 2 * c.anchor_idx.size()) throw dlib::serialization_error("cached model has the wrong size");
        c.deltas.resize(c.anchor_idx.size());
        for (size_t i = 0; i < c.deltas.size(); ++i) c.deltas[i] = dlib::vector<float, 2>(deltas[2 * i], deltas[2 * i + 1]);
        c.splits.resize(p.trees * p.splits_per_tree);
        r.get_array(c.splits.data(), c.splits.size());
        for (const auto &s : c.splits)
            if (s.idx1 >= c.anchor_idx.size() || s.idx2 >= c.anchor_idx.size()) throw dlib::serialization_error("cached model is corrupt");
    }
    const uint64_t leaves = cascades * p.trees * p.leaves_per_tree * p.values;
    p.leaves.reset(new huge_page_buffer(leaves));
    r.get_array(p.leaves->data, leaves);
    if (r.p != r.end) throw dlib::serialization_error("cached model has trailing bytes");
}

// From the cache when it holds this model file's compact copy, else from the model (and into
// the cache for the next run).
void load_cached(cb_shape_predictor &p, const char *path, const char *cache_folder) {
    struct stat st;
    if (!cache_folder || !*cache_folder || stat(path, &st) != 0) return load_compact(p, path);
    const std::string name = "landmarks-" + std::to_string(uint64_t(st.st_size)) + "-" +
                             std::to_string(int64_t(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec) + "-v1.bin";
    std::string payload;
    if (cbridge::read_cache(std::string(cache_folder) + "/" + name, payload)) {
        try {
            load_payload(p, payload);
            return;
        } catch (const std::exception &) {
            p = cb_shape_predictor();
        }
    }
    load_compact(p, path);
    cbridge::write_cache(cache_folder, name, compact_payload(p));
}

// The fit in normalized face-box coordinates (dlib's shape space), as dlib's operator() does it.
template <typename image_type>
void fit_compact(const cb_shape_predictor &p, const image_type &img, const dlib::rectangle &rect,
                 dlib::matrix<float, 0, 1> &shape) {
    shape = p.initial_shape;
    thread_local std::vector<float> pixels;
    thread_local std::vector<uint32_t> chosen;
    thread_local std::vector<int32_t> sum;
    chosen.resize(p.trees);
    sum.resize(p.values);
    const unsigned long splits = p.splits_per_tree;
    for (const auto &cascade : p.cascades) {
        dlib::impl::extract_feature_pixel_values(img, rect, shape, p.initial_shape, cascade.anchor_idx, cascade.deltas, pixels);
        const float *px = pixels.data();
        for (unsigned long t = 0; t < p.trees; ++t) {
            const packed_split *s = cascade.splits.data() + t * splits;
            unsigned long i = 0;
            while (i < splits) i = px[s[i].idx1] - px[s[i].idx2] > s[i].thresh ? 2 * i + 1 : 2 * i + 2;
            chosen[t] = uint32_t(cascade.first_leaf + t * p.leaves_per_tree + (i - splits));
        }
        std::fill(sum.begin(), sum.end(), 0);
        const int16_t *leaves = p.leaves->data;
        const size_t n = p.values;
        constexpr unsigned long ahead = 4;
        for (unsigned long t = 0; t < p.trees; ++t) {
            if (t + ahead < p.trees) {
                const char *next = reinterpret_cast<const char *>(leaves + size_t(chosen[t + ahead]) * n);
                for (size_t b = 0; b < n * sizeof(int16_t); b += 64) __builtin_prefetch(next + b);
            }
            const int16_t *leaf = leaves + size_t(chosen[t]) * n;
            int32_t *acc = sum.data();
            for (size_t j = 0; j < n; ++j) acc[j] += leaf[j];
        }
        for (size_t j = 0; j < n; ++j) shape(long(j)) += float(sum[j]) * cascade.leaf_unit;
    }
}

// The upright crop a fit runs on: the rotated box (centre, side `size`, roll) with a margin,
// at most 192 px wide, contrast-stretched when the face is dark or flat.
struct face_crop {
    cv::Mat *pixels;
    double side, k, cx, cy, c, s;
    dlib::rectangle box;
};

face_crop prepare_crop(const cv::Mat &gray, double cx, double cy, double size, double angle_rad) {
    // An upright crop around the box: the predictor was trained on upright faces, and a small
    // crop keeps the warp cheap.
    const double margin = 1.5;
    const double side = std::min(192.0, std::max(48.0, size * margin));
    const double k = side / (size * margin);  // crop pixels per image pixel
    const double c = std::cos(angle_rad), s = std::sin(angle_rad);
    // image -> crop: rotate by -angle about (cx, cy), scale by k, move to the crop's centre.
    cv::Matx23d M(k * c, k * s, side / 2 - k * (c * cx + s * cy), -k * s, k * c, side / 2 - k * (-s * cx + c * cy));
    thread_local cv::Mat crop;
    const int n = int(std::ceil(side));
    cv::warpAffine(gray, crop, M, cv::Size(n, n), cv::INTER_LINEAR, cv::BORDER_REPLICATE);
    // The predictor compares pixel differences against thresholds learnt on well-exposed faces:
    // a dark or flat face is stretched to ordinary contrast first (measured on the face box).
    {
        const int inner = int(std::lround(size * k * 0.8));
        cv::Rect face_box(n / 2 - inner / 2, n / 2 - inner / 2, inner, inner);
        face_box &= cv::Rect(0, 0, n, n);
        cv::Scalar mean, stddev;
        cv::meanStdDev(crop(face_box), mean, stddev);
        const double wanted = 45.0;
        if (stddev[0] > 1.0 && stddev[0] < wanted * 0.75) {
            const double gain = std::min(4.0, wanted / stddev[0]);
            crop.convertTo(crop, CV_8U, gain, 120.0 - mean[0] * gain);
        }
    }
    const double half = size * k / 2;
    dlib::rectangle box(long(std::lround(side / 2 - half)), long(std::lround(side / 2 - half)),
                        long(std::lround(side / 2 + half)) - 1, long(std::lround(side / 2 + half)) - 1);
    return face_crop{&crop, side, k, cx, cy, c, s, box};
}

// crop -> image: the inverse similarity.
cb_point2f to_image(const face_crop &f, double x, double y) {
    const double u = (x - f.side / 2) / f.k, v = (y - f.side / 2) / f.k;
    return cb_point2f{float(f.cx + f.c * u - f.s * v), float(f.cy + f.s * u + f.c * v)};
}

bool valid_input(const cb_image *gray, double size) {
    if (gray->mat.type() != CV_8UC1 || !(size > 4)) {
        cbridge::set_error("landmarks need an 8-bit gray image and a face box larger than 4 px");
        return false;
    }
    return true;
}

}  // namespace

extern "C" {

cb_shape_predictor *cb_shape_predictor_load(const char *dat_path, int32_t keep_reference, const char *cache_folder) {
    CB_GUARD(nullptr, {
        std::unique_ptr<cb_shape_predictor> p(new cb_shape_predictor());
        load_cached(*p, dat_path, cache_folder);
        if (p->values != 136) {
            cbridge::set_error("the model does not predict 68 points");
            return nullptr;
        }
        if (keep_reference) {
            p->reference.reset(new dlib::shape_predictor());
            dlib::deserialize(dat_path) >> *p->reference;
        }
        return p.release();
    })
}

void cb_shape_predictor_free(cb_shape_predictor *p) { delete p; }

int32_t cb_shape_predict(const cb_shape_predictor *p, const cb_image *gray, double cx, double cy, double size,
                         double angle_rad, cb_point2f *out68) {
    CB_GUARD(-1, {
        if (!valid_input(gray, size)) return -1;
        const face_crop f = prepare_crop(gray->mat, cx, cy, size, angle_rad);
        dlib::cv_image<unsigned char> image(cvIplImage(*f.pixels));
        thread_local dlib::matrix<float, 0, 1> shape;
        fit_compact(*p, image, f.box, shape);
        const dlib::point_transform_affine to_crop = dlib::impl::unnormalizing_tform(f.box);
        for (long i = 0; i < 68; ++i) {
            const dlib::vector<double, 2> q = to_crop(dlib::vector<double, 2>(shape(2 * i), shape(2 * i + 1)));
            out68[i] = to_image(f, q.x(), q.y());
        }
        return 68;
    })
}

int32_t cb_shape_predict_reference(const cb_shape_predictor *p, const cb_image *gray, double cx, double cy,
                                   double size, double angle_rad, cb_point2f *out68) {
    CB_GUARD(-1, {
        if (!p->reference) {
            cbridge::set_error("the predictor was loaded without dlib's reference model");
            return -1;
        }
        if (!valid_input(gray, size)) return -1;
        const face_crop f = prepare_crop(gray->mat, cx, cy, size, angle_rad);
        dlib::cv_image<unsigned char> image(cvIplImage(*f.pixels));
        const dlib::full_object_detection shape = (*p->reference)(image, f.box);
        for (unsigned i = 0; i < 68; ++i) out68[i] = to_image(f, double(shape.part(i).x()), double(shape.part(i).y()));
        return 68;
    })
}

}  // extern "C"
