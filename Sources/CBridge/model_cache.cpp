// Unpacked models kept on disk between runs (`$XDG_CACHE_HOME/heritage-lens/models`): dlib's face
// detector is shipped compressed inside the library and the landmark model in dlib's portable
// format; unpacking both takes most of a second on one core at every start of `process`. A cache
// file is the unpacked form with a header (magic, format version, payload length, checksum); a
// file that fails any check is ignored and written again, and a cache that cannot be written
// (read-only home) only costs the time. Written under a temporary name and renamed, so parallel
// runs never read a half-written file.
#include "internal.hpp"
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace {
const char magic[8] = {'H', 'L', 'C', 'A', 'C', 'H', 'E', '1'};

uint64_t checksum(const char *data, size_t size) {
    // Words summed with a rotation: catches truncation and corruption, at memory speed.
    uint64_t sum = 0x9e3779b97f4a7c15ull;
    size_t i = 0;
    for (; i + 8 <= size; i += 8) {
        uint64_t w;
        std::memcpy(&w, data + i, 8);
        sum = ((sum << 7) | (sum >> 57)) ^ w;
    }
    for (; i < size; ++i) sum = ((sum << 7) | (sum >> 57)) ^ uint8_t(data[i]);
    return sum;
}

bool make_folders(const std::string &folder) {
    for (size_t i = 1; i <= folder.size(); ++i) {
        if (i == folder.size() || folder[i] == '/') {
            const std::string part = folder.substr(0, i);
            if (mkdir(part.c_str(), 0755) != 0 && errno != EEXIST) return false;
        }
    }
    return true;
}
}  // namespace

namespace cbridge {

bool read_cache(const std::string &path, std::string &payload) {
    FILE *f = std::fopen(path.c_str(), "rb");
    if (!f) return false;
    char header[8];
    uint64_t length = 0, sum = 0;
    bool ok = std::fread(header, 1, 8, f) == 8 && std::memcmp(header, magic, 8) == 0 &&
              std::fread(&length, 8, 1, f) == 1 && std::fread(&sum, 8, 1, f) == 1 && length < (uint64_t(1) << 32);
    if (ok) {
        payload.resize(length);
        ok = std::fread(payload.data(), 1, length, f) == length && checksum(payload.data(), length) == sum;
    }
    std::fclose(f);
    if (!ok) payload.clear();
    return ok;
}

void write_cache(const std::string &folder, const std::string &name, const std::string &payload) {
    if (folder.empty() || !make_folders(folder)) return;
    const std::string path = folder + "/" + name;
    const std::string temporary = path + ".tmp." + std::to_string(getpid());
    FILE *f = std::fopen(temporary.c_str(), "wb");
    if (!f) return;
    const uint64_t length = payload.size(), sum = checksum(payload.data(), payload.size());
    bool ok = std::fwrite(magic, 1, 8, f) == 8 && std::fwrite(&length, 8, 1, f) == 1 && std::fwrite(&sum, 8, 1, f) == 1 &&
              std::fwrite(payload.data(), 1, payload.size(), f) == payload.size();
    ok = (std::fclose(f) == 0) && ok;
    if (!ok || std::rename(temporary.c_str(), path.c_str()) != 0) std::remove(temporary.c_str());
}

}  // namespace cbridge
