/*
 * CBridge: the only door between HeritageLens's Swift code and OpenCV, dlib and libv4l2, and the
 * few process facilities Swift cannot reach safely (signal handlers, the frame gate's lock-free
 * slots, CPU affinity). Only the HeritageBridge target includes it; it turns every convention
 * below into typed Swift that throws.
 *
 * Rules kept by every function here:
 *  - opaque handles with explicit create/free pairs; plain structs for data;
 *  - no C++ exception ever crosses this header: failures return NULL or a negative value and leave
 *    a message in a thread-local string (cb_last_error), to be read right after the failing call;
 *    the V4L2 functions also give the errno, which decides what the user is told;
 *  - pixel work and process facilities only: decisions (when to detect, which track to keep, which
 *    tier) live in Swift.
 */
#ifndef HERITAGELENS_CBRIDGE_H
#define HERITAGELENS_CBRIDGE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- errors, process settings */

/** The message of the last failure on this thread ("" when none). */
const char *cb_last_error(void);
/** OpenCV's worker threads (1 = single-threaded, as weak hardware runs). */
void cb_set_num_threads(int32_t n);
/** OpenCV's own log: 0 silent, 1 fatal, 2 error, 3 warning, 4 info, 5 debug. */
void cb_set_log_level(int32_t level);
const char *cb_opencv_version(void);
/** OpenCV's getBuildInformation(); the pointer stays valid for the process's life. */
const char *cb_opencv_build_information(void);

/** The calling thread's kernel id. */
int32_t cb_current_thread_id(void);
/** Names the calling thread (top -H, ps -L, debuggers); the kernel keeps the first 15 bytes. */
void cb_name_current_thread(const char *name);
/** Background work's scheduling: nice 1-19 (10: a small share of a busy core, all of an idle
 *  one). 0 ok, -1 fail. */
int32_t cb_set_thread_background(int32_t tid, int32_t nice);

/* The frame gate (gate.cpp): background threads hold still while a frame is in progress. */
/** Registers the calling (background) thread; returns its slot, or -1 (see cb_last_error). */
int32_t cb_gate_register_thread(void);
void cb_gate_unregister_thread(int32_t slot);
/** Whether the slot's thread is doing work that frames should pause (0 while idle or exempt). */
void cb_gate_set_working(int32_t slot, int32_t working);
/** Sleeps while a frame is in progress, at most `limit_ns`. */
void cb_gate_wait(int64_t limit_ns);
/** cb_gate_wait for a registered thread: also ends once the frame thread releases the slot. */
void cb_gate_wait_slot(int32_t slot, int64_t limit_ns);
/** The frame thread lets the slot's thread run on through frames until it clears the release:
 *  not pausable (cb_gate_set_working cannot make it so), and woken if a frame had paused it. */
void cb_gate_release(int32_t slot);
/** The slot's own thread, between jobs: frames may pause it again. */
void cb_gate_clear_release(int32_t slot);
/** The frame path: a frame began / one of its stages ended / it ended. Async-signal-safe, cheap. */
void cb_frame_began(void);
/** A paced source: a frame will arrive in `in_ns`; background threads hold still from now until a
 *  little after that (then the frame's own began/ended take over). */
void cb_frame_expected(int64_t in_ns);
void cb_frame_stage_ended(void);
void cb_frame_ended(void);
/** How many times a background thread has been paused for a frame (tests, diagnostics). */
int64_t cb_gate_pauses(void);

/** The CPUs this process may run on (its affinity: taskset, cgroups), ascending, at most
 *  `capacity` of them: their count, or -1. */
int32_t cb_allowed_cpus(int32_t *out, int32_t capacity);
/** Restricts the process's threads (this one and those it starts later) to these CPUs. 0 ok, -1 fail. */
int32_t cb_pin_to_cpu_list(const int32_t *cpus, int32_t count);
/** Peak resident set size of the process, in kilobytes. */
int64_t cb_peak_rss_kb(void);
/** CPU time of the whole process (all threads), in nanoseconds. */
int64_t cb_process_cpu_ns(void);
/** Calls fn(context). A micro-benchmark runs all its measured calls inside one such call, so
 *  callgrind with --collect-atstart=no --toggle-collect=cb_bench_section
 *  --dump-after=cb_bench_section writes one profile per kernel (scripts/callgrind-kernels.sh). */
void cb_bench_section(void (*fn)(void *), void *context);

/* SIGINT, SIGTERM, SIGHUP, SIGQUIT: the first sets a flag the pipeline polls to finish cleanly;
 * a second one exits at once with status 128 + the first signal. They are unblocked too (a
 * blocked mask is inherited from the parent). SIGPIPE is ignored (writes to a closed pipe fail
 * with EPIPE instead). */
void cb_install_stop_handlers(void);
/** SIGQUIT quits (core dump, status 131) as Unix programs do, instead of the Swift runtime's
 *  crash report after which the program went on. */
void cb_default_quit_signal(void);
int32_t cb_stop_requested(void);
/** The first stop signal received (SIGINT...), 0 when none. */
int32_t cb_stop_signal(void);
/** Sets the flag as a signal would (tests, stall handling). */
void cb_request_stop(void);
/** On SIGINT, SIGTERM or SIGHUP: writes this process's id to `parent_procs` (leaving a cgroup
 *  for its parent), removes `group`, then dies of the signal as it would have. For a process
 *  that has no stop handlers of its own; the paths are copied. */
void cb_leave_cgroup_on_stop(const char *parent_procs, const char *group);

/* ---------------------------------------------------------------- images (cv::Mat) */

typedef struct cb_image cb_image;

enum { CB_U8 = 0, CB_U16 = 2, CB_F32 = 5 };

cb_image *cb_image_create(void);
void cb_image_free(cb_image *img);
int32_t cb_image_width(const cb_image *img);
int32_t cb_image_height(const cb_image *img);
int32_t cb_image_channels(const cb_image *img);
/** OpenCV depth code (CB_U8, CB_U16, …). */
int32_t cb_image_depth(const cb_image *img);
uint8_t *cb_image_data(cb_image *img);
size_t cb_image_step(const cb_image *img);
/** (Re)allocates to w x h x channels of 8-bit; keeps the buffer when the shape already fits. */
int32_t cb_image_allocate(cb_image *img, int32_t w, int32_t h, int32_t channels);
int32_t cb_image_copy(const cb_image *src, cb_image *dst);
int32_t cb_image_fill(cb_image *img, double b, double g, double r, double a);

/** Reads a PNG or JPEG (libpng, libjpeg) or another image FFmpeg decodes (BMP, TIFF, WebP, PNM,
 *  GIF), as it is: depth and channels kept as OpenCV's imread kept them. 0 ok, -1 fail. */
int32_t cb_image_read(cb_image *dst, const char *path);
/** Converts in place to 8-bit BGR: gray, BGRA, 16-bit and float images are brought to 8UC3. */
int32_t cb_image_normalize_bgr(cb_image *img);
/** The image encoded as a file of the format `extension` names (".png", ".jpg"), valid until the
 *  next call on this thread; NULL on failure. The caller writes the file (checked). */
const uint8_t *cb_image_encode(const cb_image *img, const char *extension, size_t *size);
/** BGR (or BGRA) to 8-bit gray into dst, reusing dst's buffer. */
int32_t cb_image_to_gray(const cb_image *src, cb_image *dst);
/** interp: 0 nearest, 1 linear, 3 area. */
int32_t cb_image_resize(const cb_image *src, cb_image *dst, int32_t w, int32_t h, int32_t interp);
/** dst = the rectangle of src (clipped), copied. */
int32_t cb_image_crop(const cb_image *src, cb_image *dst, int32_t x, int32_t y, int32_t w, int32_t h);
/** dst = src turned about its centre so that a line at `angle_rad` in src (image coordinates, y
 *  down) is horizontal in dst; same size, borders replicated (a rolled face searched upright). */
int32_t cb_image_derotate(const cb_image *src, cb_image *dst, double angle_rad);
/** In place: value * gain + offset, where gain runs linearly from gain_left at the left edge to
 *  gain_right at the right edge (lighting for test scenes). */
int32_t cb_image_apply_light(cb_image *img, double gain_left, double gain_right, double offset);
/** In place: JPEG-encodes at `quality` (1-100) and decodes again. */
int32_t cb_image_jpeg_roundtrip(cb_image *img, int32_t quality);
/** A growable byte buffer owned by the bridge (encoded images), reused between calls. */
typedef struct cb_bytes cb_bytes;
cb_bytes *cb_bytes_create(void);
void cb_bytes_free(cb_bytes *bytes);
const uint8_t *cb_bytes_data(const cb_bytes *bytes);
size_t cb_bytes_size(const cb_bytes *bytes);
/** JPEG-encodes an 8-bit gray or BGR image at `quality` (1-100) into `out` (replacing what it
 *  held). 0 ok, -1 fail. */
int32_t cb_image_encode_jpeg(const cb_image *img, int32_t quality, cb_bytes *out);
/** Mean absolute difference per channel value between two images of one shape (tests, checks). */
double cb_image_mean_abs_diff(const cb_image *a, const cb_image *b);
/** The same after bringing both to the same mean (a change of exposure is no difference) and
 *  shifting one against the other by up to `max_shift` pixels each way, the smallest over the
 *  shifts and over the overlap (a pan is no difference either). */
double cb_image_mean_abs_diff_matched(const cb_image *a, const cb_image *b, int32_t max_shift);
/** Mean of channel c inside a rectangle (clipped to the image). */
double cb_image_mean_in_rect(const cb_image *img, int32_t c, int32_t x, int32_t y, int32_t w, int32_t h);

/* ---------------------------------------------------------------- drawing and warping */

typedef struct { float x, y; } cb_point2f;
typedef struct { double x, y, z; } cb_point3d;
typedef struct { int32_t x, y, width, height; } cb_rect;

/** Warps src (BGR or BGRA) by the 3x3 row-major homography h into dst, blending with src's alpha
 *  channel when it has one (or opaquely). Only the destination's bounding box of the warped
 *  quad is touched. interp: 0 nearest, 1 linear. */
int32_t cb_warp_perspective_over(const cb_image *src, cb_image *dst, const double h[9], int32_t interp,
                                 double opacity);
/** Piecewise-affine warp of src (BGRA) onto dst (BGR): each triangle (three indices into the point
 *  lists) of src_pts is mapped onto the same triangle of dst_pts. The warped layer's alpha is
 *  blurred by `feather` px (0: hard edges) and its colour scaled by `gain` before blending. */
int32_t cb_warp_triangles(const cb_image *src, cb_image *dst, const cb_point2f *src_pts, const cb_point2f *dst_pts,
                          int32_t n_points, const int32_t *triangles, int32_t n_triangles, double feather, double gain);
/** Delaunay triangulation of points inside a w x h rectangle; writes index triples, returns the
 *  triangle count. */
int32_t cb_delaunay(const cb_point2f *pts, int32_t n, int32_t width, int32_t height, int32_t *triangles,
                    int32_t max_triangles);
int32_t cb_draw_line(cb_image *img, float x0, float y0, float x1, float y1, double b, double g, double r,
                     int32_t thickness, int32_t antialias);
int32_t cb_draw_circle(cb_image *img, float x, float y, float radius, double b, double g, double r,
                       int32_t thickness /* -1 fills */, int32_t antialias);
int32_t cb_draw_rect(cb_image *img, cb_rect rect, double b, double g, double r, double a,
                     int32_t thickness /* -1 fills, blends by a */);
int32_t cb_draw_polygon(cb_image *img, const cb_point2f *pts, int32_t n, double b, double g, double r,
                        double a, int32_t filled, int32_t thickness, int32_t antialias);
/** ASCII text (Hershey simplex). */
int32_t cb_draw_text(cb_image *img, const char *text, float x, float y, double scale, double b, double g,
                     double r, int32_t thickness);
int32_t cb_gaussian_blur(cb_image *img, int32_t ksize, double sigma);
/** Adds zero-mean gaussian noise of the given sigma (deterministic for a seed). */
int32_t cb_add_noise(cb_image *img, double sigma, uint64_t seed);
/** Maps every 8-bit value v to 255 (v/255)^gamma (below 1 washes out, above 1 darkens). */
int32_t cb_apply_gamma(cb_image *img, double gamma);
/** Blurs along the segment (dx, dy) pixels, as a camera's exposure does to motion. */
int32_t cb_motion_blur(cb_image *img, double dx, double dy);

/* ---------------------------------------------------------------- video files */

typedef struct cb_video_reader cb_video_reader;
typedef struct {
    int32_t width, height;
    double fps;
    int64_t frame_count; /* as the container says; may be 0 or wrong */
    char fourcc[5];
    char backend[16];
} cb_video_info;

cb_video_reader *cb_video_reader_open(const char *path);
/** A camera through OpenCV's own V4L2 backend (the fallback to cb_v4l2_camera), asking for a
 *  size and rate and a one-frame driver queue. */
cb_video_reader *cb_video_reader_open_camera(const char *path, int32_t width, int32_t height, double fps);
int32_t cb_video_reader_info(const cb_video_reader *r, cb_video_info *out);
/** 1 a frame was read into dst (8-bit BGR) with its presentation time in ms, 0 end of stream,
 *  -1 error. */
int32_t cb_video_reader_read(cb_video_reader *r, cb_image *dst, double *pts_ms);
// The two halves of a read: grab decodes the next frame and gives its time (1, 0 at the end, -1
// on failure); retrieve converts the grabbed frame to BGR into dst (1, or -1). A frame that is
// grabbed and not retrieved costs its decoding only.
int32_t cb_video_reader_grab(cb_video_reader *r, double *pts_ms);
int32_t cb_video_reader_retrieve(cb_video_reader *r, cb_image *dst);
void cb_video_reader_free(cb_video_reader *r);

typedef struct cb_video_writer cb_video_writer;
/** fourcc: four characters ("avc1" H.264, "mp4v" MPEG-4 Part 2, "MJPG"); the container follows
 *  the extension. MP4/MOV are fragmented and Matroska clustered, each piece flushed to the file
 *  when complete, so the file plays up to its last second at any moment. NULL on failure. */
cb_video_writer *cb_video_writer_open(const char *path, const char *fourcc, double fps, int32_t width,
                                      int32_t height);
/** 0, or -1 when the frame could not be encoded or written (a full disk: cb_last_error says). */
int32_t cb_video_writer_write(cb_video_writer *w, const cb_image *frame);
/** Drains the encoder, writes the trailer, closes the file and frees w: 0, or -1 when any of it
 *  (or an earlier write) failed. */
int32_t cb_video_writer_close(cb_video_writer *w);

/* ---------------------------------------------------------------- preview window (highgui) */

/** Refuses (returns -1) when no display is reachable, since Qt would abort the process. */
int32_t cb_window_show(const char *name, const cb_image *img);
/** waitKey: the key code, or -1 when none was pressed within ms. */
int32_t cb_window_poll_key(int32_t ms);
void cb_window_close_all(void);

/* ---------------------------------------------------------------- V4L2 cameras (libv4l2) */

typedef struct {
    char card[64];
    char driver[32];
    char bus_info[64];
    uint32_t capabilities; /* device_caps when reported, else capabilities */
    int32_t is_capture;
} cb_v4l2_device_info;

typedef struct {
    uint32_t pixel_format; /* fourcc, little-endian as V4L2 packs it */
    uint32_t width, height;
    uint32_t fps_numerator, fps_denominator; /* frames per second = numerator / denominator */
    int32_t compressed;
} cb_v4l2_mode;

/** Queries a device: fills info and up to max_modes modes; returns the mode count, or -1 with
 *  errno-like code in *error_code (2 missing, 13 no permission, 16 busy, 25 not a V4L2 device). */
int32_t cb_v4l2_query(const char *path, cb_v4l2_device_info *info, cb_v4l2_mode *modes, int32_t max_modes,
                      int32_t *error_code);

typedef struct cb_v4l2_camera cb_v4l2_camera;
/** Opens and starts mmap streaming with the asked mode; the driver may adjust it (see
 *  cb_v4l2_camera_mode). */
cb_v4l2_camera *cb_v4l2_camera_open(const char *path, cb_v4l2_mode mode, int32_t buffer_count,
                                    int32_t *error_code);
cb_v4l2_mode cb_v4l2_camera_mode(const cb_v4l2_camera *cam);
/** Waits up to timeout_ms for a frame, decodes the newest one the driver has (older ones go back
 *  to it undecoded) into bgr, and its luma into gray when gray is not NULL and the format carries
 *  luma. Returns 1 a frame, 0 no frame (timeout, or *error_code 74 when the frame was corrupt or
 *  cut short and was skipped), -1 error (*error_code set; 19 means the device is gone).
 *  timestamp_s is the driver's monotonic capture time, sequence the driver's frame count (a gap
 *  is frames lost or skipped). */
int32_t cb_v4l2_camera_read(cb_v4l2_camera *cam, cb_image *bgr, cb_image *gray, int32_t timeout_ms,
                            double *timestamp_s, uint32_t *sequence, int32_t *error_code);
void cb_v4l2_camera_close(cb_v4l2_camera *cam);

/* ---------------------------------------------------------------- faces (dlib, OpenCV cascades) */

typedef struct cb_hog_detector cb_hog_detector;
/** How the detector's search and features are compiled: for the x86-64 baseline (or the build's
 *  architecture), or for AVX2. The same filters and windows; scores differ in the last float bits. */
enum { CB_HOG_KERNEL_BASELINE = 0, CB_HOG_KERNEL_AVX2 = 1 };
/** The kernels this build and CPU can run, as bits 1 << CB_HOG_KERNEL_*. */
int32_t cb_hog_kernels_available(void);
/** `cache_folder` (or NULL): where the unpacked detector is kept between runs; the first call in a
 *  process decides it. `kernel`: a CB_HOG_KERNEL_* that cb_hog_kernels_available lists. */
cb_hog_detector *cb_hog_detector_create(const char *cache_folder, int32_t kernel);
void cb_hog_detector_free(cb_hog_detector *d);
/** Detects frontal faces in an 8-bit gray image region (roi; width 0 = whole image), after
 *  scaling it by `scale`. Rects are returned in full-image pixels with their detector score.
 *  `levels` > 0 searches only that many of the detector's pyramid levels from the scaled image
 *  down (each 5/6 of the one before): the smallest faces alone; 0 searches them all. `skip` > 0
 *  leaves out that many of the finest levels: the rest are the very images (dlib's pyramid_down<6>
 *  of the scaled image) a whole search scores there, so what it finds there is found. */
int32_t cb_hog_detect(cb_hog_detector *d, const cb_image *gray, cb_rect roi, double scale, int32_t levels,
                      int32_t skip, cb_rect *out, double *scores, int32_t max_out);

/** Scores how much the upright-rolled square at (cx, cy) with side `side` (a detector-style box,
 *  rolled by `angle_rad`) looks like a face to dlib's HOG filters: the crop is de-rolled and scaled
 *  so the box fills the detector's 80 px window, and the best window near its centre and scale is
 *  taken (windows up to `reach` cells of 8 px off the centre, at the box's scale: 1 to check a
 *  track, more to find a face that moved). Writes dlib's detection confidence (faces about 0.3-2.5, background below 0) and the box
 *  that window covers, in image pixels (upright in the de-rolled frame: its centre and side).
 *  Returns 1, or 0 when no window was scored, -1 on error. Not thread-safe per detector. */
int32_t cb_hog_score_window(cb_hog_detector *d, const cb_image *gray, double cx, double cy, double side,
                            double angle_rad, int32_t reach, double *score, double *found_cx, double *found_cy,
                            double *found_side);

typedef struct cb_cascade cb_cascade;
cb_cascade *cb_cascade_load(const char *xml_path);
void cb_cascade_free(cb_cascade *c);
int32_t cb_cascade_detect(cb_cascade *c, const cb_image *gray, cb_rect roi, double scale, double scale_factor,
                          int32_t min_neighbors, int32_t min_size, cb_rect *out, int32_t max_out);
/** Whether the cascade finds a face in the rotated box (centre (cx, cy), side `side`, rotation
 *  `angle_rad`): the box is turned upright, scaled to `window` pixels and its crop's histogram
 *  equalized; a detection 0.55-1.6 windows wide centred within about a third of a window counts.
 *  Returns 1 or 0, -1 on error. Not thread-safe per cascade. */
int32_t cb_cascade_confirm(cb_cascade *c, const cb_image *gray, double cx, double cy, double side, double angle_rad,
                           double window, int32_t min_neighbors);

typedef struct cb_shape_predictor cb_shape_predictor;
/** Loads dlib's model into a compact copy (16-bit leaves, contiguous). With `keep_reference` it
 *  also keeps dlib's own predictor for cb_shape_predict_reference (tests; twice the memory).
 *  `cache_folder` (or NULL): where the compact copy is kept between runs. */
cb_shape_predictor *cb_shape_predictor_load(const char *dat_path, int32_t keep_reference, const char *cache_folder);
void cb_shape_predictor_free(cb_shape_predictor *p);
/** Fits the 68 points inside a rotated box: centre (cx, cy), side `size`, rotation `angle_rad`
 *  (the eye line's angle). The predictor runs on an upright crop, so rolled faces fit as well as
 *  upright ones. Writes 68 points in image pixels. */
int32_t cb_shape_predict(const cb_shape_predictor *p, const cb_image *gray, double cx, double cy, double size,
                         double angle_rad, cb_point2f *out68);
/** The same fit by dlib's own evaluation (integer pixels in the crop), to compare against. */
int32_t cb_shape_predict_reference(const cb_shape_predictor *p, const cb_image *gray, double cx, double cy,
                                   double size, double angle_rad, cb_point2f *out68);

/* ---------------------------------------------------------------- geometry (calib3d) */

/** solvePnP. flags: 0 ITERATIVE, 1 EPNP, 6 IPPE, 8 SQPNP. use_guess seeds ITERATIVE with rvec/tvec. */
int32_t cb_solve_pnp(const cb_point3d *object, const cb_point2f *image, int32_t n, const double k[9],
                     const double dist[5], int32_t flags, int32_t use_guess, double rvec[3], double tvec[3]);
/** Undistorts pixel points in place (output in pixels with the same camera matrix). */
int32_t cb_undistort_points(cb_point2f *pts, int32_t n, const double k[9], const double dist[5]);
int32_t cb_project_points(const cb_point3d *object, int32_t n, const double rvec[3], const double tvec[3],
                          const double k[9], const double dist[5], cb_point2f *out);
/** RANSAC homography src -> dst in at most max_iterations samples (OpenCV's default: 2000);
 *  inlier_mask may be NULL. Returns the inlier count or -1. */
int32_t cb_find_homography(const cb_point2f *src, const cb_point2f *dst, int32_t n, double ransac_px,
                           int32_t max_iterations, double h_out[9], uint8_t *inlier_mask);

/* ---------------------------------------------------------------- features and flow (cards) */

typedef struct { float x, y, size, angle, response; int32_t octave; } cb_keypoint;

typedef struct cb_orb cb_orb;
/** `edge_threshold`: no keypoint within this many pixels of an edge of each pyramid level (OpenCV's
 *  default 31); below 23 the descriptors of the nearest ones sample OpenCV's mirrored border. */
cb_orb *cb_orb_create(int32_t features, double scale_factor, int32_t levels, int32_t fast_threshold,
                      int32_t edge_threshold);
void cb_orb_free(cb_orb *orb);
/** Detects and describes up to max_out keypoints inside `roi` (width 0: whole image) of an 8-bit
 *  gray image; descriptors are 32 bytes each. Returns the count. */
int32_t cb_orb_detect(cb_orb *orb, const cb_image *gray, cb_rect roi, cb_keypoint *keypoints, uint8_t *descriptors,
                      int32_t max_out);
/** cb_orb_detect over the whole image but outside `quad_count` quads (4 corners each, in order)
 *  and a `margin` px band around each. */
int32_t cb_orb_detect_outside(cb_orb *orb, const cb_image *gray, const cb_point2f *quads, int32_t quad_count,
                              int32_t margin, cb_keypoint *keypoints, uint8_t *descriptors, int32_t max_out);

typedef struct { int32_t query, train; int32_t best, second; } cb_match2;
/** For each query descriptor, its two nearest train descriptors by Hamming distance. */
int32_t cb_match_knn2(const uint8_t *query, int32_t query_count, const uint8_t *train, int32_t train_count,
                      cb_match2 *out);
/** Matching kernels (cb_match_knn2 takes the best this CPU has; each gives the same matches). */
enum { CB_MATCH_KERNEL_PORTABLE = 0, CB_MATCH_KERNEL_POPCNT = 1, CB_MATCH_KERNEL_AVX2 = 2, CB_MATCH_KERNEL_AVX512 = 3 };
/** Bit k set when kernel k runs on this CPU. */
int32_t cb_match_kernels(void);
/** cb_match_knn2 with a chosen kernel; an error when this CPU lacks it. */
int32_t cb_match_knn2_with(int32_t kernel, const uint8_t *query, int32_t query_count, const uint8_t *train,
                           int32_t train_count, cb_match2 *out);

/** Pyramidal Lucas-Kanade from prev to next for n points; status[i] is 1 when tracked. */
int32_t cb_optical_flow(const cb_image *prev, const cb_image *next, const cb_point2f *points, int32_t n,
                        cb_point2f *out, uint8_t *status, int32_t window, int32_t levels);
/** Where the `patch` of `from` (8-bit gray) went in `to`, looked for inside `area` of `to`, both
 *  shrunk by `scale` first (normalised cross-correlation, cv::matchTemplate): writes how far it
 *  moved (full pixels; the part of the patch inside `from`) and the correlation. Returns 1, 0 when
 *  the patch or the area is empty or too small, -1 on error. */
int32_t cb_find_patch(const cb_image *from, cb_rect patch, const cb_image *to, cb_rect area, double scale,
                      double *dx, double *dy, double *score);
/** The square (centre (cx, cy), side `side`, rotated by `angle_rad`) of an 8-bit gray image
 *  turned upright and shrunk to n x n, as n * n floats of zero mean and unit variance (all zero
 *  when the square is flat). Returns n * n, -1 on error. */
int32_t cb_upright_patch(const cb_image *gray, double cx, double cy, double side, double angle_rad, int32_t n,
                         float *out);
/** Warmth (mean Cr - Cb of YCrCb, 0 for gray, about 35 for skin in daylight) of an 8-bit BGR
 *  image inside polygon `inner`, and inside polygon `outer` without `inner` (the ring), both
 *  clipped to the image. Returns 1, 0 when either has under 8 pixels, -1 on error. */
int32_t cb_image_warmth_in_polygons(const cb_image *bgr, const cb_point2f *inner, int32_t inner_count,
                                    const cb_point2f *outer, int32_t outer_count, double *inner_warmth,
                                    double *ring_warmth);
/** Shi-Tomasi corners of an 8-bit gray image, best first. */
int32_t cb_good_features(const cb_image *gray, int32_t max_corners, double quality, double min_distance,
                         cb_point2f *out);
/** Warps the frame region that homography h (3x3, reference -> frame) maps from a w x h reference
 *  into scratch (8-bit gray, w x h), then returns the normalised cross-correlation with `reference`
 *  (same size) over the part the frame covers. With cells > 1, the mean over the better half of a
 *  cells x cells grid instead (tolerates occlusion). -1 when under a quarter of the card is in
 *  view, -2 on failure. */
double cb_warped_correlation(const cb_image *frame_gray, const double h[9], const cb_image *reference,
                             cb_image *scratch, int32_t cells);

/** Renders `reference` (8-bit gray) through homography h (reference -> frame) into dst, a frame-sized
 *  8-bit gray image, only inside the warped card's bounding box (rect written to *box); outside it
 *  dst is left as it was. Its mean and contrast inside the box are matched to the frame's. */
int32_t cb_render_reference(const cb_image *reference, const double h[9], const cb_image *frame_gray, cb_image *dst,
                            cb_rect *box);

/* ---------------------------------------------------------------- camera calibration */

/** Finds a chessboard's inner corners (cols x rows) in an 8-bit gray image, refined to sub-pixel.
 *  Returns cols*rows when found, 0 when not. */
int32_t cb_find_chessboard(const cb_image *gray, int32_t cols, int32_t rows, cb_point2f *corners);
/** OpenCV's calibrateCamera over `views` views of `per_view` points each (object points in metres on
 *  z = 0, image points in pixels, view after view). Writes the camera matrix, 5 distortion terms and
 *  each view's RMS reprojection error; returns the overall RMS, or -1. */
double cb_calibrate_camera(const cb_point3d *object, const cb_point2f *image, int32_t views, int32_t per_view,
                           int32_t width, int32_t height, double k_out[9], double dist_out[5], double *view_errors);
/** Renders what a camera with distortion `dist` sees, from the ideal (pinhole) image src. */
int32_t cb_distort_image(const cb_image *src, cb_image *dst, const double k[9], const double dist[5]);

/* ---------------------------------------------------------------- calibration files */

typedef struct {
    double camera_matrix[9];
    double distortion[5];
    int32_t width, height;
    double rms;
    char camera[128];
} cb_calibration;

/** Reads an OpenCV FileStorage (YAML/XML) calibration. On failure cb_last_error names the field. */
int32_t cb_calibration_read(const char *path, cb_calibration *out);
/** The calibration as the text of a file at `path` (YAML, or XML/JSON by extension), valid until
 *  the next call on this thread; NULL on failure. */
const char *cb_calibration_text(const cb_calibration *cal, const char *date, const char *path);

#ifdef __cplusplus
}
#endif
#endif
