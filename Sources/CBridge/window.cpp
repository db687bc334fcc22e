// The preview window. Qt aborts the whole process when it cannot reach a display, so no highgui
// call is made unless one is configured.
#include "internal.hpp"
#include <cstdlib>
#include <opencv2/highgui.hpp>
#include <set>

static bool display_configured() {
    auto set = [](const char *name) {
        const char *v = std::getenv(name);
        return v && *v;
    };
    return set("DISPLAY") || set("WAYLAND_DISPLAY") || set("QT_QPA_PLATFORM");
}

static std::set<std::string> &opened() {
    static std::set<std::string> names;
    return names;
}

extern "C" {

int32_t cb_window_show(const char *name, const cb_image *img) {
    CB_GUARD(-1, {
        if (!display_configured()) {
            cbridge::set_error("no display (DISPLAY, WAYLAND_DISPLAY and QT_QPA_PLATFORM are unset)");
            return -1;
        }
        if (opened().insert(name).second) cv::namedWindow(name, cv::WINDOW_AUTOSIZE | cv::WINDOW_GUI_NORMAL);
        cv::imshow(name, img->mat);
        return 0;
    })
}

int32_t cb_window_poll_key(int32_t ms) {
    CB_GUARD(-1, {
        if (opened().empty()) return -1;
        return cv::waitKey(ms);
    })
}

void cb_window_close_all(void) {
    try {
        if (!opened().empty()) cv::destroyAllWindows();
        opened().clear();
    } catch (...) {
    }
}

}  // extern "C"
