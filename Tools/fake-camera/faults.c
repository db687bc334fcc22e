/* FAKECAM_FAULTS: what goes wrong, and when. One entry per fault, separated by ';':
 *
 *   unplug[:after=N][,for=T]      after N frames the camera is pulled out: open handles answer
 *                                 ENODEV, the nodes vanish from /dev, and come back after T s
 *                                 (for=never: they stay away)
 *   stall[:after=N][,for=T]       after N frames no frame comes for T s, then frames resume
 *   corrupt[:every=K][,after=N][,where=header|scan]
 *                                 every Kth MJPEG frame is damaged: its header (no decoder reads
 *                                 it) or its entropy-coded data (decodes with visible errors)
 *   truncate[:every=K][,after=N][,keep=F]
 *                                 every Kth MJPEG frame ends early, F of it kept (no EOI marker);
 *                                 uncompressed frames that arrive short are dropped by the driver
 *   lowlight[:after=N][,for=T]    the scene darkens: with auto exposure and exposure priority on
 *                                 (the power-on state) the rate halves, otherwise frames darken
 *   busy[:for=T][,at=open|format] EBUSY from open() (or from S_FMT, S_PARM, REQBUFS and STREAMON,
 *                                 as when another program streams) for T s from the first try
 *                                 (default: for ever)
 *   nospace[:for=T]               STREAMON fails with ENOSPC, as when the USB bus lacks bandwidth
 *   burst[:after=N][,frames=K]    K frames held back and handed over at once, as a late USB
 *                                 completion (a busy hub, interrupt latency) does
 *
 * N counts frames the camera produced since the emulator loaded; T is in seconds.
 */
#include "fakecam.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool parse_number(const char *text, double *out) {
    char *end = NULL;
    double v = strtod(text, &end);
    if (end == text || *end != 0 || v < 0) return false;
    *out = v;
    return true;
}

static bool apply(fc_fault *f, const char *kind, const char *key, const char *value, char *err, size_t errlen) {
    double v = 0;
    if (strcmp(key, "for") == 0) {
        if (strcmp(value, "never") == 0 || strcmp(value, "ever") == 0) {
            f->seconds = -1;
            return true;
        }
        if (!parse_number(value, &v)) goto bad_value;
        f->seconds = v;
        return true;
    }
    if (strcmp(key, "after") == 0 || strcmp(key, "every") == 0) {
        if (!parse_number(value, &v) || v != (long)v) goto bad_value;
        if (strcmp(key, "every") == 0 && v < 1) goto bad_value;
        *(strcmp(key, "after") == 0 ? &f->after : &f->every) = (long)v;
        return true;
    }
    if (strcmp(key, "frames") == 0 && strcmp(kind, "burst") == 0) {
        if (!parse_number(value, &v) || v != (long)v || v < 2 || v >= FC_MAX_BUFFERS) goto bad_value;
        f->frames = (long)v;
        return true;
    }
    if (strcmp(key, "keep") == 0 && strcmp(kind, "truncate") == 0) {
        if (!parse_number(value, &v) || v >= 1) goto bad_value;
        f->keep = v;
        return true;
    }
    if (strcmp(key, "where") == 0 && strcmp(kind, "corrupt") == 0) {
        if (strcmp(value, "header") != 0 && strcmp(value, "scan") != 0) goto bad_value;
        f->scan = strcmp(value, "scan") == 0;
        return true;
    }
    if (strcmp(key, "at") == 0 && strcmp(kind, "busy") == 0) {
        if (strcmp(value, "open") != 0 && strcmp(value, "format") != 0) goto bad_value;
        f->at_format = strcmp(value, "format") == 0;
        return true;
    }
    snprintf(err, errlen, "fault '%s' has no setting '%s'", kind, key);
    return false;
bad_value:
    snprintf(err, errlen, "fault '%s': '%s=%s' is not a valid value", kind, key, value);
    return false;
}

bool fc_faults_parse(const char *spec, fc_faults *out, char *err, size_t errlen) {
    memset(out, 0, sizeof *out);
    if (!spec) return true;
    char *copy = strdup(spec);
    if (!copy) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    bool ok = true;
    char *save = NULL;
    for (char *entry = strtok_r(copy, "; \t\n", &save); entry && ok; entry = strtok_r(NULL, "; \t\n", &save)) {
        char *settings = strchr(entry, ':');
        if (settings) *settings++ = 0;
        struct {
            const char *name;
            fc_fault *fault;
            fc_fault defaults;
        } kinds[] = {
            {"unplug", &out->unplug, {.on = true, .after = 60, .seconds = 2}},
            {"stall", &out->stall, {.on = true, .after = 60, .seconds = 4}},
            {"corrupt", &out->corrupt, {.on = true, .every = 10, .seconds = -1}},
            {"truncate", &out->truncate, {.on = true, .every = 10, .keep = 0.5, .seconds = -1}},
            {"lowlight", &out->lowlight, {.on = true, .after = 60, .seconds = -1}},
            {"busy", &out->busy, {.on = true, .seconds = -1}},
            {"nospace", &out->nospace, {.on = true, .seconds = -1}},
            {"burst", &out->burst, {.on = true, .after = 60, .frames = 3}},
        };
        fc_fault *fault = NULL;
        for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; ++i) {
            if (strcmp(entry, kinds[i].name) == 0) {
                fault = kinds[i].fault;
                *fault = kinds[i].defaults;
            }
        }
        if (!fault) {
            snprintf(err, errlen, "unknown fault '%s' (known: unplug, stall, corrupt, truncate, lowlight, busy, nospace, burst)", entry);
            ok = false;
            break;
        }
        char *save2 = NULL;
        for (char *kv = settings ? strtok_r(settings, ",", &save2) : NULL; kv && ok; kv = strtok_r(NULL, ",", &save2)) {
            char *value = strchr(kv, '=');
            if (!value) {
                snprintf(err, errlen, "fault '%s': '%s' should be key=value", entry, kv);
                ok = false;
                break;
            }
            *value++ = 0;
            ok = apply(fault, entry, kv, value, err, errlen);
        }
    }
    free(copy);
    return ok;
}
