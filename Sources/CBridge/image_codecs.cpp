// Image files without OpenCV's imgcodecs: linking that module loads GDAL and its dependency tree
// (xerces, geos, proj, poppler, hdf5...), 0.2 s of dynamic loading at every start. PNG and JPEG
// go through the libpng and libjpeg-turbo OpenCV itself uses, set up as OpenCV 4.6 sets them up
// (grfmt_png.cpp, grfmt_jpeg.cpp), so their pixels, and the JPEG bytes written, are the ones
// OpenCV gave. The rarer formats go through FFmpeg, linked for video anyway: the right picture,
// not necessarily OpenCV's exact pixels.
//
// libpng and libjpeg report errors by longjmp. The functions that set a jump point (png_* and
// jpeg_* below, taking plain pointers) hold no C++ object a jump could skip the destructor of: the
// matrices, buffers and clean-up guards live in their C++ callers, outside the jump.
#include "internal.hpp"
#include <opencv2/imgproc.hpp>
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <csetjmp>
#include <cstdio>
#include <cstring>
#include <memory>
#include <sys/stat.h>

#include <jerror.h>
#include <jpeglib.h>
#include <png.h>
#include <zlib.h>

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/pixdesc.h>
#include <libswscale/swscale.h>
}

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "16-bit PNG samples are swapped for a little-endian host");

namespace {

// OpenCV's limits on a decoded image (CV_IO_MAX_IMAGE_WIDTH, _HEIGHT, _PIXELS): a header that
// claims more is refused before anything is allocated for it.
bool size_allowed(int64_t width, int64_t height) {
    constexpr int64_t side = int64_t(1) << 20, pixels = int64_t(1) << 30;
    return width > 0 && height > 0 && width <= side && height <= side && width * height <= pixels;
}

const char *const kTooLarge = "larger than 1048576 pixels a side or 2^30 pixels in all; scale it down first";

// Called from inside libpng and libjpeg, where an exception must not pass: false when memory ran
// out, and the caller reports it the library's way.
bool grow(std::vector<uint8_t> &bytes, size_t size) noexcept {
    try {
        bytes.resize(size);
        return true;
    } catch (...) {
        return false;
    }
}

// ---------------------------------------------------------------------------------------------
// PNG

struct PngFailure {
    char message[200];
};

void png_failed(png_structp png, png_const_charp message) {
    auto *failure = static_cast<PngFailure *>(png_get_error_ptr(png));
    std::snprintf(failure->message, sizeof failure->message, "%s", message);
    if (cbridge::library_logs) std::fprintf(stderr, "libpng error: %s\n", message);
    png_longjmp(png, 1);
}

// "iCCP: known incorrect sRGB profile" and the like: the image is read all the same.
void png_warned(png_structp, png_const_charp message) {
    if (cbridge::library_logs) std::fprintf(stderr, "libpng warning: %s\n", message);
}

struct PngSource {
    const uint8_t *data;
    size_t size, at;
};

void png_read_memory(png_structp png, png_bytep to, png_size_t n) {
    auto *source = static_cast<PngSource *>(png_get_io_ptr(png));
    if (n > source->size - source->at) png_error(png, "the file ends early");
    std::memcpy(to, source->data + source->at, n);
    source->at += n;
}

struct PngSink {
    std::vector<uint8_t> *out;
    size_t used;
};

void png_write_memory(png_structp png, png_bytep data, png_size_t n) {
    auto *sink = static_cast<PngSink *>(png_get_io_ptr(png));
    std::vector<uint8_t> &out = *sink->out;
    if (n > out.size() - sink->used && !grow(out, std::max(out.size() * 2, sink->used + n)))
        png_error(png, "out of memory");
    std::memcpy(out.data() + sink->used, data, n);
    sink->used += n;
}

void png_flush_memory(png_structp) {}

// The PNG's size, and the type OpenCV 4.6 reads it as under IMREAD_UNCHANGED: its depth, and 4
// channels for an alpha channel or a tRNS chunk on colour (gray keeps 1 channel and loses tRNS).
bool png_header(png_structp png, png_infop info, png_uint_32 *width, png_uint_32 *height, int *bit_depth,
                int *color_type, int *type) {
    if (setjmp(png_jmpbuf(png))) return false;
    png_read_info(png, info);
    png_get_IHDR(png, info, width, height, bit_depth, color_type, nullptr, nullptr, nullptr);
    int channels = 1;
    if (*color_type == PNG_COLOR_TYPE_RGB || *color_type == PNG_COLOR_TYPE_PALETTE) {
        png_bytep trans = nullptr;
        int count = 0;
        png_color_16p values = nullptr;
        png_get_tRNS(png, info, &trans, &count, &values);
        channels = count > 0 ? 4 : 3;
    } else if (*color_type == PNG_COLOR_TYPE_GRAY_ALPHA || *color_type == PNG_COLOR_TYPE_RGB_ALPHA) {
        channels = 4;
    }
    *type = CV_MAKETYPE(*bit_depth == 16 ? CV_16U : CV_8U, channels);
    return true;
}

// OpenCV 4.6's transformations, in its order: a gray image with alpha comes out BGRA.
bool png_pixels(png_structp png, png_infop info, png_infop end, int bit_depth, int color_type, int channels,
                png_bytepp rows) {
    if (setjmp(png_jmpbuf(png))) return false;
    if (bit_depth == 16) png_set_swap(png);
    if (channels < 4) png_set_strip_alpha(png);
    else png_set_tRNS_to_alpha(png);
    if (color_type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if ((color_type & PNG_COLOR_MASK_COLOR) == 0 && bit_depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    if ((color_type & PNG_COLOR_MASK_COLOR) && channels > 1) png_set_bgr(png);
    else if (channels > 1) png_set_gray_to_rgb(png);
    else png_set_rgb_to_gray(png, 1, 0.299, 0.587);
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    png_read_image(png, rows);
    // A file cut after its pixels fails here, as in OpenCV.
    png_read_end(png, end);
    return true;
}

// OpenCV 4.6's settings, tuned for speed: the SUB filter, zlib level 1, run-length strategy.
bool png_compress(png_structp png, png_infop info, int width, int height, int bit_depth, int color_type,
                  png_bytepp rows) {
    if (setjmp(png_jmpbuf(png))) return false;
    png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_SUB);
    png_set_compression_level(png, Z_BEST_SPEED);
    png_set_compression_strategy(png, Z_RLE);
    png_set_IHDR(png, info, png_uint_32(width), png_uint_32(height), bit_depth, color_type, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    png_set_bgr(png);
    if (bit_depth == 16) png_set_swap(png);
    png_write_image(png, rows);
    png_write_end(png, info);
    return true;
}

bool decode_png(const uint8_t *data, size_t size, cv::Mat &out, std::string &error) {
    PngFailure failure{};
    PngSource source{data, size, 0};
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &failure, png_failed, png_warned);
    png_infop info = png ? png_create_info_struct(png) : nullptr;
    png_infop end = png ? png_create_info_struct(png) : nullptr;
    struct Release {
        png_structp &png;
        png_infop &info, &end;
        ~Release() { png_destroy_read_struct(&png, &info, &end); }
    } release{png, info, end};
    if (!png || !info || !end) throw std::bad_alloc();
    png_set_read_fn(png, &source, png_read_memory);

    png_uint_32 width = 0, height = 0;
    int bit_depth = 0, color_type = 0, type = 0;
    if (!png_header(png, info, &width, &height, &bit_depth, &color_type, &type)) {
        error = std::string("libpng error: ") + failure.message;
        return false;
    }
    if (!size_allowed(width, height)) {
        error = kTooLarge;
        return false;
    }
    cv::Mat image(int(height), int(width), type);
    std::vector<png_bytep> rows(height);
    for (png_uint_32 y = 0; y < height; ++y) rows[y] = image.ptr<uint8_t>(int(y));
    if (!png_pixels(png, info, end, bit_depth, color_type, image.channels(), rows.data())) {
        error = std::string("libpng error: ") + failure.message;
        return false;
    }
    out = image;
    return true;
}

bool encode_png(const cv::Mat &img, std::vector<uint8_t> &out, std::string &error) {
    PngFailure failure{};
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &failure, png_failed, png_warned);
    png_infop info = png ? png_create_info_struct(png) : nullptr;
    struct Release {
        png_structp &png;
        png_infop &info;
        ~Release() { png_destroy_write_struct(&png, &info); }
    } release{png, info};
    if (!png || !info) throw std::bad_alloc();

    // Sized once up front, so that the writer rarely has to grow it from inside libpng.
    out.resize(std::max(out.capacity(), size_t(img.total() * img.elemSize() / 2 + 1024)));
    PngSink sink{&out, 0};
    png_set_write_fn(png, &sink, png_write_memory, png_flush_memory);
    std::vector<png_bytep> rows(size_t(img.rows));
    for (int y = 0; y < img.rows; ++y) rows[size_t(y)] = const_cast<png_bytep>(img.ptr<uint8_t>(y));
    const int channels = img.channels();
    const int color_type = channels == 1 ? PNG_COLOR_TYPE_GRAY : channels == 3 ? PNG_COLOR_TYPE_RGB : PNG_COLOR_TYPE_RGBA;
    if (!png_compress(png, info, img.cols, img.rows, img.depth() == CV_16U ? 16 : 8, color_type, rows.data())) {
        error = std::string("libpng error: ") + failure.message;
        out.clear();
        return false;
    }
    out.resize(sink.used);
    return true;
}

// ---------------------------------------------------------------------------------------------
// JPEG

struct JpegFailure {
    jpeg_error_mgr pub;  // first: libjpeg hands back a pointer to it
    jmp_buf jump;
    char message[JMSG_LENGTH_MAX];
};

void jpeg_failed(j_common_ptr cinfo) {
    auto *failure = reinterpret_cast<JpegFailure *>(cinfo->err);
    cinfo->err->format_message(cinfo, failure->message);
    longjmp(failure->jump, 1);
}

// libjpeg prints its first warning ("Corrupt JPEG data: ...", "Premature end of JPEG file") to
// stderr and decodes on; only library logs let it through.
void jpeg_warned(j_common_ptr cinfo, int level) {
    if (level >= 0) return;
    if (cbridge::library_logs && cinfo->err->num_warnings == 0) cinfo->err->output_message(cinfo);
    cinfo->err->num_warnings++;
}

void jpeg_watch(JpegFailure *failure) {
    jpeg_std_error(&failure->pub);
    failure->pub.error_exit = jpeg_failed;
    failure->pub.emit_message = jpeg_warned;
}

struct JpegReader {
    jpeg_decompress_struct cinfo;
    JpegFailure failure;
    bool pixels_done;
};

// The whole JPEG is in memory: past its end libjpeg's memory source inserts an end-of-image
// marker with a warning, so a file cut short reads with gray below the cut, as imread reads one.
bool jpeg_header(JpegReader *r, const uint8_t *data, size_t size) {
    r->cinfo.err = &r->failure.pub;
    if (setjmp(r->failure.jump)) return false;
    jpeg_create_decompress(&r->cinfo);
    jpeg_mem_src(&r->cinfo, data, (unsigned long)size);
    jpeg_read_header(&r->cinfo, TRUE);
    return true;
}

// OpenCV's own CMYK to BGR (icvCvt_CMYK2BGR_8u_C4C3R): libjpeg-turbo converts no CMYK to BGR.
void cmyk_to_bgr(const uint8_t *cmyk, uint8_t *bgr, JDIMENSION width) {
    for (JDIMENSION x = 0; x < width; ++x, cmyk += 4, bgr += 3) {
        const int k = cmyk[3];
        bgr[2] = uint8_t(k - ((255 - cmyk[0]) * k >> 8));
        bgr[1] = uint8_t(k - ((255 - cmyk[1]) * k >> 8));
        bgr[0] = uint8_t(k - ((255 - cmyk[2]) * k >> 8));
    }
}

// As OpenCV 4.6: colour straight to BGR (default DCT and upsampling), gray to gray unless `bgr`,
// 4 components (CMYK, YCCK) through CMYK. MJPEG frames without Huffman tables need nothing here:
// libjpeg-turbo falls back on the standard tables, the ones OpenCV loads for them.
bool jpeg_pixels(JpegReader *r, bool bgr, uint8_t *pixels, size_t step) {
    j_decompress_ptr cinfo = &r->cinfo;
    // An error after the last row (in the data that follows it) leaves the image whole: OpenCV
    // takes it too.
    if (setjmp(r->failure.jump)) return r->pixels_done;
    const bool cmyk = cinfo->num_components == 4;
    cinfo->out_color_space = cmyk ? JCS_CMYK : bgr ? JCS_EXT_BGR : JCS_GRAYSCALE;
    jpeg_start_decompress(cinfo);
    JSAMPARRAY scratch = cmyk ? cinfo->mem->alloc_sarray(j_common_ptr(cinfo), JPOOL_IMAGE, cinfo->output_width * 4, 1)
                              : nullptr;
    while (cinfo->output_scanline < cinfo->output_height) {
        JSAMPROW row = pixels + size_t(cinfo->output_scanline) * step;
        if (jpeg_read_scanlines(cinfo, cmyk ? scratch : &row, 1) != 1) {
            std::snprintf(r->failure.message, sizeof r->failure.message, "the decoder stopped early");
            return false;
        }
        if (cmyk) cmyk_to_bgr(scratch[0], row, cinfo->output_width);
    }
    r->pixels_done = true;
    jpeg_finish_decompress(cinfo);
    return true;
}

struct JpegWriter {
    jpeg_compress_struct cinfo;
    JpegFailure failure;
    jpeg_destination_mgr sink;
    std::vector<uint8_t> *out;
};

void jpeg_sink_start(j_compress_ptr cinfo) {
    auto *w = reinterpret_cast<JpegWriter *>(cinfo);
    w->sink.next_output_byte = w->out->data();
    w->sink.free_in_buffer = w->out->size();
}

boolean jpeg_sink_full(j_compress_ptr cinfo) {
    auto *w = reinterpret_cast<JpegWriter *>(cinfo);
    const size_t used = w->out->size();
    if (!grow(*w->out, used * 2)) ERREXIT1(cinfo, JERR_OUT_OF_MEMORY, 0);
    w->sink.next_output_byte = w->out->data() + used;
    w->sink.free_in_buffer = w->out->size() - used;
    return TRUE;
}

void jpeg_sink_end(j_compress_ptr cinfo) {
    auto *w = reinterpret_cast<JpegWriter *>(cinfo);
    w->out->resize(w->out->size() - w->sink.free_in_buffer);
}

// OpenCV 4.6's encoder with no options but the quality: defaults (4:2:0, baseline, standard
// Huffman tables), no restart markers, quality tables limited to baseline values; BGR and BGRX
// are taken as they are.
bool jpeg_compress(JpegWriter *w, const uint8_t *pixels, size_t step, int width, int height, int channels,
                   int quality) {
    j_compress_ptr cinfo = &w->cinfo;
    cinfo->err = &w->failure.pub;
    if (setjmp(w->failure.jump)) return false;
    jpeg_create_compress(cinfo);
    w->sink.init_destination = jpeg_sink_start;
    w->sink.empty_output_buffer = jpeg_sink_full;
    w->sink.term_destination = jpeg_sink_end;
    cinfo->dest = &w->sink;
    cinfo->image_width = JDIMENSION(width);
    cinfo->image_height = JDIMENSION(height);
    cinfo->input_components = channels;
    cinfo->in_color_space = channels == 3 ? JCS_EXT_BGR : channels == 4 ? JCS_EXT_BGRX : JCS_GRAYSCALE;
    jpeg_set_defaults(cinfo);
    cinfo->restart_interval = 0;
    jpeg_set_quality(cinfo, quality, TRUE);
    jpeg_start_compress(cinfo, TRUE);
    while (cinfo->next_scanline < cinfo->image_height) {
        JSAMPROW row = const_cast<JSAMPROW>(pixels + size_t(cinfo->next_scanline) * step);
        jpeg_write_scanlines(cinfo, &row, 1);
    }
    jpeg_finish_compress(cinfo);
    return true;
}

// `bgr`: always BGR (imdecode with IMREAD_COLOR); otherwise a gray JPEG stays gray
// (IMREAD_UNCHANGED).
bool decode_jpeg_as(const uint8_t *data, size_t size, bool bgr, cv::Mat &out, std::string &error) {
    JpegReader r{};
    jpeg_watch(&r.failure);
    struct Release {
        JpegReader &r;
        ~Release() { jpeg_destroy_decompress(&r.cinfo); }
    } release{r};
    if (!jpeg_header(&r, data, size)) {
        error = std::string("libjpeg error: ") + r.failure.message;
        return false;
    }
    const j_decompress_ptr cinfo = &r.cinfo;
    if (!size_allowed(cinfo->image_width, cinfo->image_height)) {
        error = kTooLarge;
        return false;
    }
    const bool color = bgr || cinfo->num_components > 1;
    cv::Mat image(int(cinfo->image_height), int(cinfo->image_width), color ? CV_8UC3 : CV_8UC1);
    if (!jpeg_pixels(&r, color, image.data, image.step[0])) {
        error = std::string("libjpeg error: ") + r.failure.message;
        return false;
    }
    out = image;
    return true;
}

bool encode_jpeg_8u(const cv::Mat &img, int quality, std::vector<uint8_t> &out, std::string &error) {
    JpegWriter w{};
    jpeg_watch(&w.failure);
    struct Release {
        JpegWriter &w;
        ~Release() { jpeg_destroy_compress(&w.cinfo); }
    } release{w};
    // Sized once up front: a quarter of the pixels' bytes holds all but the least compressible.
    out.resize(std::max(out.capacity(), img.total() * size_t(img.channels()) / 4 + 4096));
    w.out = &out;
    if (!jpeg_compress(&w, img.data, img.step[0], img.cols, img.rows, img.channels(), std::clamp(quality, 0, 100))) {
        error = std::string("libjpeg error: ") + w.failure.message;
        out.clear();
        return false;
    }
    return true;
}

// ---------------------------------------------------------------------------------------------
// The other formats, through FFmpeg

struct OtherFormat {
    const char *name;     // for messages
    const char *demuxer;  // FFmpeg's, for this signature alone
};

// Whether the picture has alpha, when the file says so more truly than FFmpeg's pixel format
// does: FFmpeg decodes every lossless WebP to ARGB and a 32-bit BMP to BGRA when its spare byte is
// not all 0; OpenCV reads them with 3 channels unless the file declares alpha. Every GIF comes
// out of FFmpeg with alpha: it counts only when some pixel is transparent.
enum class Alpha { decoder, no, yes, if_used };

Alpha declared_alpha(const OtherFormat &kind, const uint8_t *head, size_t n) {
    if (std::strcmp(kind.demuxer, "bmp_pipe") == 0) {
        // BI_RGB: the fourth byte of a 32-bit pixel is reserved, not alpha.
        return n >= 34 && head[30] == 0 && head[31] == 0 && head[32] == 0 && head[33] == 0 ? Alpha::no : Alpha::decoder;
    }
    if (std::strcmp(kind.demuxer, "webp_pipe") == 0 && n >= 30) {
        if (std::memcmp(head + 12, "VP8 ", 4) == 0) return Alpha::no;
        if (std::memcmp(head + 12, "VP8L", 4) == 0) return (head[24] & 0x10) ? Alpha::yes : Alpha::no;
        if (std::memcmp(head + 12, "VP8X", 4) == 0) return (head[20] & 0x10) ? Alpha::yes : Alpha::no;
    }
    if (std::strcmp(kind.demuxer, "gif") == 0) return Alpha::if_used;
    return Alpha::decoder;
}

// By the file's first bytes, never its name: a PNG saved as .jpg is still read.
const OtherFormat *other_format(const uint8_t *head, size_t n) {
    static const OtherFormat bmp{"BMP", "bmp_pipe"}, tiff{"TIFF", "tiff_pipe"}, webp{"WebP", "webp_pipe"},
        pbm{"PNM", "pbm_pipe"}, pgm{"PNM", "pgm_pipe"}, ppm{"PNM", "ppm_pipe"}, pam{"PAM", "pam_pipe"},
        gif{"GIF", "gif"}, sun{"Sun raster", "sunrast_pipe"};
    auto starts = [&](const char *s, size_t k) { return n >= k && std::memcmp(head, s, k) == 0; };
    if (starts("BM", 2)) return &bmp;
    if (starts("II*\0", 4) || starts("MM\0*", 4) || starts("II+\0", 4) || starts("MM\0+", 4)) return &tiff;
    if (starts("RIFF", 4) && n >= 12 && std::memcmp(head + 8, "WEBP", 4) == 0) return &webp;
    if (starts("GIF87a", 6) || starts("GIF89a", 6)) return &gif;
    if (starts("\x59\xA6\x6A\x95", 4)) return &sun;
    if (n >= 3 && head[0] == 'P' && head[2] != 0 && std::strchr(" \t\r\n", head[2])) {
        switch (head[1]) {
        case '1': case '4': return &pbm;
        case '2': case '5': return &pgm;
        case '3': case '6': return &ppm;
        case '7': return &pam;
        }
    }
    return nullptr;
}

std::string lowercase_first(std::string text) {
    if (text.size() > 1 && text[0] >= 'A' && text[0] <= 'Z' && !(text[1] >= 'A' && text[1] <= 'Z'))
        text[0] = char(text[0] - 'A' + 'a');
    return text;
}

std::string av_words(int code) { return lowercase_first(cbridge::ffmpeg_error(code)); }

// What one picture's decoding or encoding through FFmpeg holds, freed together.
struct FfmpegImage {
    AVFormatContext *format = nullptr;
    AVCodecContext *codec = nullptr;
    AVPacket *packet = nullptr;
    AVFrame *frame = nullptr;
    SwsContext *scaler = nullptr;
    ~FfmpegImage() {
        sws_freeContext(scaler);
        av_frame_free(&frame);
        av_packet_free(&packet);
        avcodec_free_context(&codec);
        if (format) avformat_close_input(&format);
    }
};

// What the picture holds: alpha, gray, or colour. A palette is judged by the entries the pixels
// use (FFmpeg leaves the others transparent black): an 8-bit gray BMP is gray, as OpenCV reads it.
enum class Shape { gray, bgr, bgra };

Shape shape_of(const AVFrame *frame, Alpha alpha) {
    const AVPixFmtDescriptor *d = av_pix_fmt_desc_get(AVPixelFormat(frame->format));
    if (d->flags & AV_PIX_FMT_FLAG_PAL) {
        bool used[256] = {false};
        for (int y = 0; y < frame->height; ++y) {
            const uint8_t *row = frame->data[0] + ptrdiff_t(y) * frame->linesize[0];
            for (int x = 0; x < frame->width; ++x) used[row[x]] = true;
        }
        const uint32_t *palette = reinterpret_cast<const uint32_t *>(frame->data[1]);
        bool gray = true, transparent = false;
        for (int i = 0; i < 256; ++i) {
            if (!used[i]) continue;
            const uint32_t c = palette[i];
            if ((c >> 24) != 0xFF) transparent = true;
            if (((c >> 16) & 0xFF) != ((c >> 8) & 0xFF) || ((c >> 8) & 0xFF) != (c & 0xFF)) gray = false;
        }
        if (alpha == Alpha::yes || (alpha != Alpha::no && transparent)) return Shape::bgra;
        return gray ? Shape::gray : Shape::bgr;
    }
    if (alpha == Alpha::yes || (alpha != Alpha::no && (d->flags & AV_PIX_FMT_FLAG_ALPHA))) return Shape::bgra;
    return d->nb_components <= 2 && !(d->flags & AV_PIX_FMT_FLAG_RGB) ? Shape::gray : Shape::bgr;
}

bool read_with_ffmpeg(const std::string &path, const OtherFormat &kind, Alpha alpha, cv::Mat &out,
                      std::string &error) {
    const std::string damaged = std::string("damaged or unsupported ") + kind.name + " (FFmpeg: ";
    const AVInputFormat *demuxer = av_find_input_format(kind.demuxer);
    if (!demuxer) {
        error = std::string("this FFmpeg reads no ") + kind.name + " files; convert it to PNG";
        return false;
    }
    FfmpegImage f;
    AVDictionary *options = nullptr;
    // "file:" and nothing else: a name with a colon in it is not taken for a protocol.
    av_dict_set(&options, "protocol_whitelist", "file", 0);
    int status = avformat_open_input(&f.format, ("file:" + path).c_str(), demuxer, &options);
    av_dict_free(&options);
    if (status < 0) {
        error = damaged + av_words(status) + ")";
        return false;
    }
    if (f.format->nb_streams < 1) {
        error = damaged + "no picture in it)";
        return false;
    }
    const AVStream *stream = f.format->streams[0];
    const AVCodec *codec = avcodec_find_decoder(stream->codecpar->codec_id);
    if (!codec) {
        error = std::string("this FFmpeg has no decoder for this ") + kind.name + "; convert it to PNG";
        return false;
    }
    f.codec = avcodec_alloc_context3(codec);
    f.packet = av_packet_alloc();
    f.frame = av_frame_alloc();
    if (!f.codec || !f.packet || !f.frame) throw std::bad_alloc();
    avcodec_parameters_to_context(f.codec, stream->codecpar);
    // One thread: a frame-threaded decoder would hold the only picture back until drained.
    f.codec->thread_count = 1;
    if ((status = avcodec_open2(f.codec, codec, nullptr)) < 0) {
        error = damaged + av_words(status) + ")";
        return false;
    }
    bool draining = false;
    while (true) {
        status = avcodec_receive_frame(f.codec, f.frame);
        if (status >= 0) break;
        if (status != AVERROR(EAGAIN) || draining) {
            error = damaged + (status == AVERROR_EOF ? std::string("no picture in it") : av_words(status)) + ")";
            return false;
        }
        status = av_read_frame(f.format, f.packet);
        if (status == AVERROR_EOF) {
            avcodec_send_packet(f.codec, nullptr);
            draining = true;
            continue;
        }
        if (status < 0) {
            error = damaged + av_words(status) + ")";
            return false;
        }
        if (f.packet->stream_index == stream->index) status = avcodec_send_packet(f.codec, f.packet);
        av_packet_unref(f.packet);
        if (status < 0) {
            error = damaged + av_words(status) + ")";
            return false;
        }
    }

    const AVFrame *frame = f.frame;
    if (!size_allowed(frame->width, frame->height)) {
        error = kTooLarge;
        return false;
    }
    const Shape shape = shape_of(frame, alpha);
    cv::Mat image(frame->height, frame->width, shape == Shape::gray ? CV_8UC1 : shape == Shape::bgra ? CV_8UC4 : CV_8UC3);
    if (shape == Shape::gray && frame->format == AV_PIX_FMT_PAL8) {
        // swscale would weigh the entries' R, G and B and round: a gray entry is its own value.
        const uint32_t *palette = reinterpret_cast<const uint32_t *>(frame->data[1]);
        for (int y = 0; y < frame->height; ++y) {
            const uint8_t *from = frame->data[0] + ptrdiff_t(y) * frame->linesize[0];
            uint8_t *to = image.ptr<uint8_t>(y);
            for (int x = 0; x < frame->width; ++x) to[x] = uint8_t(palette[from[x]] & 0xFF);
        }
        out = image;
        return true;
    }
    const AVPixelFormat to = shape == Shape::gray ? AV_PIX_FMT_GRAY8 : shape == Shape::bgra ? AV_PIX_FMT_BGRA : AV_PIX_FMT_BGR24;
    // Same size, so only the colour conversion counts: full chroma resolution, exact rounding.
    f.scaler = sws_getContext(frame->width, frame->height, AVPixelFormat(frame->format), frame->width, frame->height, to,
                              SWS_POINT | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT | SWS_FULL_CHR_H_INP, nullptr, nullptr,
                              nullptr);
    if (!f.scaler) {
        error = std::string("cannot convert this ") + kind.name + "'s pixels (" +
                av_get_pix_fmt_name(AVPixelFormat(frame->format)) + "); convert it to PNG";
        return false;
    }
    if (frame->color_range == AVCOL_RANGE_JPEG || frame->colorspace != AVCOL_SPC_UNSPECIFIED) {
        int *inv = nullptr, *table = nullptr, src_range = 0, dst_range = 0, brightness = 0, contrast = 0, saturation = 0;
        if (sws_getColorspaceDetails(f.scaler, &inv, &src_range, &table, &dst_range, &brightness, &contrast,
                                     &saturation) >= 0) {
            const int space = frame->colorspace == AVCOL_SPC_UNSPECIFIED ? SWS_CS_DEFAULT : int(frame->colorspace);
            if (frame->color_range == AVCOL_RANGE_JPEG) src_range = 1;
            sws_setColorspaceDetails(f.scaler, sws_getCoefficients(space), src_range, table, dst_range, brightness,
                                     contrast, saturation);
        }
    }
    uint8_t *planes[4] = {image.data, nullptr, nullptr, nullptr};
    int strides[4] = {int(image.step[0]), 0, 0, 0};
    sws_scale(f.scaler, frame->data, frame->linesize, 0, frame->height, planes, strides);
    if (shape == Shape::bgra && alpha == Alpha::if_used) {
        bool opaque = true;
        for (int y = 0; y < image.rows && opaque; ++y) {
            const uint8_t *p = image.ptr<uint8_t>(y);
            for (int x = 0; x < image.cols; ++x) opaque &= p[4 * x + 3] == 0xFF;
        }
        if (opaque) cv::cvtColor(image, image, cv::COLOR_BGRA2BGR);
    }
    out = image;
    return true;
}

bool read_file(std::FILE *file, size_t size, std::vector<uint8_t> &bytes, std::string &error) {
    bytes.resize(size);
    size_t n = 0;
    while (n < size) {
        const size_t got = std::fread(bytes.data() + n, 1, size - n, file);
        if (got == 0) break;
        n += got;
    }
    if (std::ferror(file)) {
        error = std::string("cannot read it: ") + std::strerror(errno);
        return false;
    }
    bytes.resize(n);
    return true;
}

// One picture through FFmpeg's encoder for `codec` (BMP, PNM, TIFF, WebP): these encoders give a
// whole file as their one packet. Of the encoder's pixel formats, the one that keeps most of what
// the image has (gray, colour, alpha) is taken; WebP is written lossless.
bool encode_with_ffmpeg(const cv::Mat &img, AVCodecID codec_id, std::vector<uint8_t> &out, std::string &error) {
    // libwebp's still-image encoder rather than the animation one FFmpeg lists first.
    const AVCodec *codec = codec_id == AV_CODEC_ID_WEBP ? avcodec_find_encoder_by_name("libwebp") : nullptr;
    if (codec == nullptr) codec = avcodec_find_encoder(codec_id);
    if (codec == nullptr) {
        error = std::string("FFmpeg has no ") + avcodec_get_name(codec_id) + " encoder; use .png or .jpg";
        return false;
    }
    const AVPixelFormat source = img.channels() == 1 ? AV_PIX_FMT_GRAY8 : img.channels() == 3 ? AV_PIX_FMT_BGR24 : AV_PIX_FMT_BGRA;
    // The source's own format, else one of the same kind (gray; colour as RGB, with alpha as the
    // image has it), else colour RGB with alpha (libwebp's lossless input), else the first.
    AVPixelFormat chosen = AV_PIX_FMT_NONE;
    int best = 0;
    for (const AVPixelFormat *f = codec->pix_fmts; f != nullptr && *f != AV_PIX_FMT_NONE; ++f) {
        const AVPixFmtDescriptor *d = av_pix_fmt_desc_get(*f);
        if (d == nullptr || (d->flags & (AV_PIX_FMT_FLAG_PAL | AV_PIX_FMT_FLAG_BITSTREAM))) continue;
        const bool alpha = (d->flags & AV_PIX_FMT_FLAG_ALPHA) != 0;
        const bool gray = d->nb_components - (alpha ? 1 : 0) == 1;
        const bool rgb = (d->flags & AV_PIX_FMT_FLAG_RGB) != 0;
        int rank = 1;
        if (*f == source) rank = 4;
        else if (img.channels() == 1 ? gray && !alpha : rgb && alpha == (img.channels() == 4)) rank = 3;
        else if (img.channels() != 1 && rgb) rank = 2;
        if (rank > best) {
            best = rank;
            chosen = *f;
        }
    }
    if (chosen == AV_PIX_FMT_NONE) {
        error = std::string("FFmpeg's ") + codec->name + " encoder lists no pixel format; use .png or .jpg";
        return false;
    }
    FfmpegImage parts;
    parts.codec = avcodec_alloc_context3(codec);
    parts.frame = av_frame_alloc();
    parts.packet = av_packet_alloc();
    if (parts.codec == nullptr || parts.frame == nullptr || parts.packet == nullptr) throw std::bad_alloc();
    parts.codec->width = img.cols;
    parts.codec->height = img.rows;
    parts.codec->pix_fmt = chosen;
    parts.codec->time_base = AVRational{1, 25};
    AVDictionary *options = nullptr;
    if (codec_id == AV_CODEC_ID_WEBP) av_dict_set(&options, "lossless", "1", 0);
    int err = avcodec_open2(parts.codec, codec, &options);
    av_dict_free(&options);
    if (err < 0) {
        error = std::string("FFmpeg's ") + codec->name + " encoder would not start: " + av_words(err);
        return false;
    }
    parts.frame->format = chosen;
    parts.frame->width = img.cols;
    parts.frame->height = img.rows;
    if (av_frame_get_buffer(parts.frame, 32) < 0) throw std::bad_alloc();
    parts.scaler = sws_getContext(img.cols, img.rows, source, img.cols, img.rows, chosen, SWS_BICUBIC, nullptr, nullptr, nullptr);
    if (parts.scaler == nullptr) {
        error = std::string("FFmpeg cannot convert the image for its ") + codec->name + " encoder";
        return false;
    }
    const uint8_t *planes[1] = {img.data};
    const int steps[1] = {int(img.step)};
    sws_scale(parts.scaler, planes, steps, 0, img.rows, parts.frame->data, parts.frame->linesize);
    parts.frame->pts = 0;
    if ((err = avcodec_send_frame(parts.codec, parts.frame)) < 0 || (err = avcodec_send_frame(parts.codec, nullptr)) < 0 ||
        (err = avcodec_receive_packet(parts.codec, parts.packet)) < 0) {
        error = std::string("FFmpeg's ") + codec->name + " encoder failed: " + av_words(err);
        return false;
    }
    out.assign(parts.packet->data, parts.packet->data + parts.packet->size);
    return true;
}

bool is_png(const uint8_t *data, size_t n) { return n >= 8 && std::memcmp(data, "\x89PNG\r\n\x1a\n", 8) == 0; }
bool is_jpeg(const uint8_t *data, size_t n) { return n >= 3 && data[0] == 0xFF && data[1] == 0xD8 && data[2] == 0xFF; }

}  // namespace

namespace cbridge {

bool read_image_file(const std::string &path, cv::Mat &out, std::string &error) {
    std::unique_ptr<std::FILE, int (*)(std::FILE *)> file(std::fopen(path.c_str(), "rb"), std::fclose);
    if (!file) {
        error = "cannot open it: " + lowercase_first(std::strerror(errno));
        return false;
    }
    struct stat st {};
    if (fstat(fileno(file.get()), &st) != 0 || !S_ISREG(st.st_mode)) {
        error = S_ISDIR(st.st_mode) ? "is a folder, not an image file" : "not a regular file; give an image file";
        return false;
    }
    if (st.st_size == 0) {
        error = "the file is empty (0 bytes)";
        return false;
    }
    uint8_t head[64] = {0};
    const size_t n = std::fread(head, 1, sizeof head, file.get());
    if (is_png(head, n) || is_jpeg(head, n)) {
        std::vector<uint8_t> bytes;
        if (std::fseek(file.get(), 0, SEEK_SET) != 0 || !read_file(file.get(), size_t(st.st_size), bytes, error)) {
            if (error.empty()) error = "cannot read it: " + lowercase_first(std::strerror(errno));
            return false;
        }
        return is_png(head, n) ? decode_png(bytes.data(), bytes.size(), out, error)
                               : decode_jpeg_as(bytes.data(), bytes.size(), false, out, error);
    }
    const OtherFormat *kind = other_format(head, n);
    if (!kind) {
        error = "its first bytes are not those of a PNG, JPEG, BMP, TIFF, WebP or PNM file";
        return false;
    }
    file.reset();
    return read_with_ffmpeg(path, *kind, declared_alpha(*kind, head, n), out, error);
}

bool decode_image(const uint8_t *data, size_t size, cv::Mat &out, std::string &error) {
    if (is_png(data, size)) return decode_png(data, size, out, error);
    if (is_jpeg(data, size)) return decode_jpeg_as(data, size, false, out, error);
    error = "neither PNG nor JPEG data";
    return false;
}

bool decode_jpeg(const uint8_t *data, size_t size, cv::Mat &out, std::string &error) {
    // As imdecode, which picks its decoder by these bytes: libjpeg alone would skip a damaged
    // header's bytes to the next marker it finds and make a picture of what follows.
    if (!is_jpeg(data, size)) {
        error = "not JPEG data";
        return false;
    }
    return decode_jpeg_as(data, size, true, out, error);
}

bool encode_jpeg(const cv::Mat &img, int quality, std::vector<uint8_t> &out, std::string &error) {
    if (img.empty() || img.depth() != CV_8U || (img.channels() != 1 && img.channels() != 3 && img.channels() != 4)) {
        error = "JPEG needs an 8-bit gray, BGR or BGRA image";
        return false;
    }
    return encode_jpeg_8u(img, quality, out, error);
}

bool encode_image(const cv::Mat &img, const std::string &extension, std::vector<uint8_t> &out, std::string &error) {
    const size_t dot = extension.rfind('.');
    std::string ext = extension.substr(dot == std::string::npos ? 0 : dot + 1);
    for (char &c : ext) c = char(std::tolower(static_cast<unsigned char>(c)));
    const bool png = ext == "png", jpeg = ext == "jpg" || ext == "jpeg" || ext == "jpe";
    AVCodecID other = ext == "bmp" ? AV_CODEC_ID_BMP
                      : ext == "ppm" || ext == "pnm" ? AV_CODEC_ID_PPM
                      : ext == "pgm" ? AV_CODEC_ID_PGM
                      : ext == "tif" || ext == "tiff" ? AV_CODEC_ID_TIFF
                      : ext == "webp" ? AV_CODEC_ID_WEBP
                      : AV_CODEC_ID_NONE;
    if (!png && !jpeg && other == AV_CODEC_ID_NONE) {
        error = "cannot encode as " + extension + "; use .png, .jpg, .bmp, .ppm, .pgm, .tiff or .webp";
        return false;
    }
    if (img.empty()) {
        error = "the image is empty";
        return false;
    }
    if (img.channels() != 1 && img.channels() != 3 && img.channels() != 4) {
        error = "cannot encode a " + std::to_string(img.channels()) + "-channel image; give 1, 3 or 4 channels";
        return false;
    }
    // As imencode: a depth the format cannot hold is brought to 8 bits by saturation, unscaled.
    cv::Mat converted;
    const cv::Mat *source = &img;
    if (img.depth() != CV_8U && !(png && img.depth() == CV_16U)) {
        img.convertTo(converted, CV_8U);
        source = &converted;
    }
    if (other != AV_CODEC_ID_NONE) {
        // PGM holds gray and PPM colour: the image is brought to what the format holds.
        cv::Mat shaped;
        if (other == AV_CODEC_ID_PGM && source->channels() != 1) {
            cv::cvtColor(*source, shaped, source->channels() == 4 ? cv::COLOR_BGRA2GRAY : cv::COLOR_BGR2GRAY);
            source = &shaped;
        } else if (other == AV_CODEC_ID_PPM && source->channels() != 3) {
            cv::cvtColor(*source, shaped, source->channels() == 4 ? cv::COLOR_BGRA2BGR : cv::COLOR_GRAY2BGR);
            source = &shaped;
        }
        return encode_with_ffmpeg(*source, other, out, error);
    }
    return png ? encode_png(*source, out, error) : encode_jpeg_8u(*source, 95, out, error);
}

}  // namespace cbridge
