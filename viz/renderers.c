/* renderers.c - the list of renderers, and what every renderer shares:
 * frame info, number formatting.
 *
 * To add a renderer, add one line X(viz_render_NAME) below. */
#include "viz/render.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "viz/intl.h"

#define VIZ_RENDERERS(X) \
    X(viz_render_reduce) \
    X(viz_render_histogram) \
    X(viz_render_bitonic) \
    X(viz_render_banks) \
    X(viz_render_blocksum) \
    X(viz_render_coverage) \
    X(viz_render_image) \
    /* end of the list */

#define VIZ_DECLARE(r) extern const viz_renderer r;
VIZ_RENDERERS(VIZ_DECLARE)

#define VIZ_ENTRY(r) &r,
static const viz_renderer *const renderers[] = {VIZ_RENDERERS(VIZ_ENTRY) NULL};

const viz_renderer *viz_renderer_at(int i)
{
    int n = (int)(sizeof renderers / sizeof renderers[0]) - 1;
    return i >= 0 && i < n ? renderers[i] : NULL;
}

int viz_name_in_list(const char *list, const char *word)
{
    size_t wl = strlen(word);
    for (const char *p = list; p && *p;) {
        while (*p == ' ') p++;
        const char *e = p;
        while (*e && *e != ' ') e++;
        if ((size_t)(e - p) == wl && wl > 0 && strncmp(p, word, wl) == 0) return 1;
        p = e;
    }
    return 0;
}

const viz_renderer *viz_renderer_find(const char *algo, const char *variant)
{
    if (!algo) return NULL;
    for (int i = 0; viz_renderer_at(i); i++) {
        const viz_renderer *r = viz_renderer_at(i);
        if (!viz_name_in_list(r->algos, algo)) continue;
        if (r->variants && (!variant || !viz_name_in_list(r->variants, variant))) continue;
        return r;
    }
    return NULL;
}

/* ------------------------------------------------------------ frame info */

void viz_info_clear(viz_frame_info *info)
{
    memset(info, 0, sizeof *info);
}

/* After vsnprintf wrote n bytes of a text into cap: when it was cut, cut it
 * before the last character that did not fit whole, so that a translation
 * longer than the room never ends in half a UTF-8 sequence. */
static void utf8_cut(char *s, size_t cap, int n)
{
    if (n < 0 || (size_t)n < cap || cap == 0) return;
    size_t len = strlen(s), i = len;
    while (i > 0 && ((unsigned char)s[i - 1] & 0xC0) == 0x80) i--; /* back to the last lead byte */
    if (i == 0) return;
    unsigned char lead = (unsigned char)s[i - 1];
    size_t need = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
    if (i - 1 + need > len) s[i - 1] = '\0';
}

void viz_info_title(viz_frame_info *info, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(info->title, sizeof info->title, fmt, ap);
    va_end(ap);
    utf8_cut(info->title, sizeof info->title, n);
}

void viz_info_caption(viz_frame_info *info, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(info->caption, sizeof info->caption, fmt, ap);
    va_end(ap);
    utf8_cut(info->caption, sizeof info->caption, n);
}

void viz_info_counter(viz_frame_info *info, const char *name, long long value, const char *unit)
{
    if (info->ncounters >= VIZ_MAX_COUNTERS) return;
    viz_counter *c = &info->counters[info->ncounters++];
    c->name = intl_tr(name); /* names and units are marked where they are written (po/update.sh) */
    c->value = value;
    c->unit = intl_tr(unit);
}

int viz_info_counters_text(const viz_frame_info *info, char *buf, size_t len)
{
    size_t off = 0;
    if (len == 0) return 0;
    buf[0] = '\0';
    for (int i = 0; i < info->ncounters && off < len; i++) {
        const viz_counter *c = &info->counters[i];
        if (c->value == VIZ_COUNTER_NONE)
            off += (size_t)snprintf(buf + off, len - off, "%s%s \u2013", i ? " \u00b7 " : "", c->name);
        else if (c->value == VIZ_COUNTER_WORD)
            off += (size_t)snprintf(buf + off, len - off, "%s%s %s", i ? " \u00b7 " : "", c->name,
                                    c->unit ? c->unit : "");
        else
            off += (size_t)snprintf(buf + off, len - off, "%s%s %lld%s", i ? " \u00b7 " : "",
                                    c->name, c->value, c->unit ? c->unit : "");
    }
    if (off >= len) buf[len - 1] = '\0';
    return viz_text_width(buf);
}

/* ------------------------------------------------------ number formatting */

static int fits(const char *s, int width)
{
    return (int)strlen(s) <= width;
}

/* "%.*f" without trailing zeros after the point. */
static void fixed(double v, int decimals, char *buf, size_t len)
{
    snprintf(buf, len, "%.*f", decimals, v);
    if (strchr(buf, '.')) {
        char *e = buf + strlen(buf) - 1;
        while (*e == '0') *e-- = '\0';
        if (*e == '.') *e = '\0';
    }
    if (strcmp(buf, "-0") == 0) snprintf(buf, len, "0");
}

char *viz_fmt_value(double v, lab_dtype dt, int width, char *buf, size_t len)
{
    char tmp[64];
    if (len == 0) return buf;
    if (width < 1) width = 1;
    if (isnan(v)) {
        snprintf(buf, len, "%s", width >= 3 ? "nan" : "?");
        return buf;
    }
    if (isinf(v)) {
        snprintf(buf, len, "%s", width >= 4 ? (v < 0 ? "-inf" : "inf") : "\u221e");
        return buf;
    }
    int integral = dt == LAB_INT || dt == LAB_U8 || v == floor(v);
    if (integral) {
        fixed(v, 0, tmp, sizeof tmp);
        if (fits(tmp, width)) goto done;
    } else {
        for (int d = 3; d >= 0; d--) {
            fixed(v, d, tmp, sizeof tmp);
            if (fits(tmp, width)) goto done;
        }
    }
    /* Too wide: a suffix, then an exponent. */
    {
        static const char suffix[] = "kMGTPE";
        double a = fabs(v);
        for (int k = 0; k < 6; k++) {
            double scale = pow(1000.0, k + 1);
            if (a < scale) break;
            for (int d = 2; d >= 0; d--) {
                fixed(v / scale, d, tmp, sizeof tmp);
                size_t n = strlen(tmp);
                if (n + 1 < sizeof tmp) {
                    tmp[n] = suffix[k];
                    tmp[n + 1] = '\0';
                }
                if (fits(tmp, width)) goto done;
            }
        }
        int e = v != 0 ? (int)floor(log10(a)) : 0;
        double m = v / pow(10.0, e);
        snprintf(tmp, sizeof tmp, "%.0fe%d", m, e);
        if (fits(tmp, width)) goto done;
        snprintf(tmp, sizeof tmp, "%s", "\u2026");
    }
done:
    snprintf(buf, len, "%s", tmp);
    return buf;
}
