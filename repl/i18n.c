/* i18n.c - choosing the language and binding gpulab's message catalogs. */
#include "repl/i18n.h"

#include <ctype.h>
#include <dirent.h>
#include <limits.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kernels/intl.h"
#include "kernels/paths.h"
#include "viz/canvas.h"


#define I18N_MAX 32

static int is_dir(const char *p)
{
    struct stat sb;
    return stat(p, &sb) == 0 && S_ISDIR(sb.st_mode);
}

const char *i18n_localedir(void) { return lab_path(LAB_PLACE_LOCALE); }

const char *i18n_lessondir(void) { return lab_path(LAB_PLACE_LESSONS); }

/* A language code as folders name it: two or three lower-case letters,
 * optionally _XX (pt_BR). */
static int code_ok(const char *s)
{
    size_t n = 0;
    while (islower((unsigned char)s[n])) n++;
    if (n < 2 || n > 3) return 0;
    if (!s[n]) return 1;
    return s[n] == '_' && isupper((unsigned char)s[n + 1]) && isupper((unsigned char)s[n + 2]) &&
           !s[n + 3];
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* The known languages other than en, sorted: the folders of the catalogs
 * and of the lessons. */
static int known_list(char names[][16])
{
    int n = 0;
    const char *roots[2] = {i18n_localedir(), i18n_lessondir()};
    for (int r = 0; r < 2; r++) {
        DIR *d = opendir(roots[r]);
        if (!d) continue;
        struct dirent *e;
        while ((e = readdir(d)) && n < I18N_MAX) {
            if (!code_ok(e->d_name) || strcmp(e->d_name, "en") == 0) continue;
            char p[PATH_MAX];
            if (r == 0) snprintf(p, sizeof p, "%s/%s/LC_MESSAGES/gpulab.mo", roots[r], e->d_name);
            else snprintf(p, sizeof p, "%s/%s", roots[r], e->d_name);
            if (r == 0 ? access(p, R_OK) != 0 : !is_dir(p)) continue;
            int dup = 0;
            for (int i = 0; i < n; i++) dup |= strcmp(names[i], e->d_name) == 0;
            if (!dup) snprintf(names[n++], 16, "%s", e->d_name);
        }
        closedir(d);
    }
    char *ptr[I18N_MAX];
    for (int i = 0; i < n; i++) ptr[i] = names[i];
    qsort(ptr, (size_t)n, sizeof *ptr, cmp_str);
    char sorted[I18N_MAX][16];
    for (int i = 0; i < n; i++) snprintf(sorted[i], 16, "%s", ptr[i]);
    memcpy(names, sorted, sizeof sorted[0] * (size_t)n);
    return n;
}

int i18n_known(const char *code)
{
    if (strcmp(code, "en") == 0) return 1;
    char names[I18N_MAX][16];
    int n = known_list(names);
    for (int i = 0; i < n; i++)
        if (strcmp(names[i], code) == 0) return 1;
    return 0;
}

void i18n_languages(char *out, size_t len)
{
    char names[I18N_MAX][16];
    int n = known_list(names);
    size_t off = (size_t)snprintf(out, len, "en");
    for (int i = 0; i < n && off < len; i++) off += (size_t)snprintf(out + off, len - off, ", %s", names[i]);
}

/* Chinese in traditional characters: Taiwan, Hong Kong, Macau, or the
 * script named (zh_Hant). gpulab's zh is Simplified Chinese (zh_CN, zh_SG),
 * which a reader of traditional characters should not be given unasked. */
static int traditional_chinese(const char *code)
{
    if (strncmp(code, "zh_", 3) != 0) return 0;
    const char *rest = code + 3;
    return strncmp(rest, "TW", 2) == 0 || strncmp(rest, "HK", 2) == 0 || strncmp(rest, "MO", 2) == 0 ||
           strncmp(rest, "Hant", 4) == 0;
}

/* The language gpulab knows that a name stands for: itself (pt_BR, when
 * there is such a folder), else its language part (de_AT.UTF-8 -> de; not
 * zh_TW -> zh, see traditional_chinese). "" when neither is known. */
static void match(const char *name, char *out, size_t len)
{
    char code[16];
    out[0] = '\0';
    size_t n = strcspn(name, ".@");
    if (n == 0 || n >= sizeof code) return;
    snprintf(code, sizeof code, "%.*s", (int)n, name);
    if (code_ok(code) && i18n_known(code)) {
        snprintf(out, len, "%s", code);
        return;
    }
    if (traditional_chinese(code)) return;
    code[strcspn(code, "_")] = '\0';
    if (code_ok(code) && i18n_known(code)) snprintf(out, len, "%s", code);
}

/* The language the environment asks for, when gpulab knows it. */
static void from_env(char *out, size_t len)
{
    out[0] = '\0';
    const char *language = getenv("LANGUAGE");
    if (language && *language) {
        char list[512];
        snprintf(list, sizeof list, "%s", language);
        for (char *save = NULL, *e = strtok_r(list, ":", &save); e; e = strtok_r(NULL, ":", &save)) {
            match(e, out, len);
            if (*out) return;
        }
    }
    const char *vars[] = {"LC_ALL", "LC_MESSAGES", "LANG"};
    for (int i = 0; i < 3; i++) {
        const char *v = getenv(vars[i]);
        if (v && *v) {
            match(v, out, len); /* C and POSIX match nothing: English */
            return;
        }
    }
}

/* kernels/ formats some messages itself (lab_validate's): they are looked
 * up in the same catalog. */
static const char *translate(const char *msgid) { return gettext(msgid); }

static int is_c(const char *loc) { return !loc || strcmp(loc, "C") == 0 || strcmp(loc, "POSIX") == 0; }

/* LC_CTYPE and LC_MESSAGES from the environment, never LC_ALL: LC_NUMERIC
 * stays "C", so every number, JSON line and CSV cell keeps its '.'. */
static void take_locale(void)
{
    static int done;
    if (done) return;
    done = 1;
    /* A UTF-8 terminal whose locale is not installed leaves LC_CTYPE at C:
     * its glyphs and the catalogs' UTF-8 still want a UTF-8 LC_CTYPE
     * (viz_locale_utf8 then reads the locale's name from the environment). */
    if (is_c(setlocale(LC_CTYPE, "")) && viz_locale_utf8()) setlocale(LC_CTYPE, "C.UTF-8");
    /* gettext ignores LANGUAGE in the C locale, and a locale that is not
     * installed leaves C: C.UTF-8 is not C, and always there. */
    if (is_c(setlocale(LC_MESSAGES, ""))) setlocale(LC_MESSAGES, "C.UTF-8");
}

int i18n_init(const char *opt, char *lang, size_t langlen, char *err, size_t errlen)
{
    take_locale();
    char chosen[16] = "";
    if (opt) {
        match(opt, chosen, sizeof chosen);
        if (!*chosen) {
            char known[256];
            i18n_languages(known, sizeof known);
            snprintf(err, errlen, _("--lang %s: no such language; there are %s"), opt, known);
            return -1;
        }
    } else {
        from_env(chosen, sizeof chosen);
        if (!*chosen) snprintf(chosen, sizeof chosen, "en");
    }
    snprintf(lang, langlen, "%s", chosen);
    /* The choice made: gettext (and the C library's own messages) follow
     * LANGUAGE, and so do the programs gpulab starts. */
    setenv("LANGUAGE", chosen, 1);
    bindtextdomain("gpulab", i18n_localedir());
    bind_textdomain_codeset("gpulab", "UTF-8");
    textdomain("gpulab");
    lab_set_translate(translate);
    return 0;
}
