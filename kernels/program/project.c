/* project.c - a program as a student has it: a source file, several, a
 * folder of them, or the CMakeLists.txt or Makefile that names them. What
 * open is given becomes the list of source files and the compiler options
 * (-I, -D, -std) the build uses; nothing of the project's build is run. */
#define _GNU_SOURCE
#include "kernels/program/program.h"
#include "kernels/program/program_build.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int is_source(const char *name)
{
    const char *dot = strrchr(name, '.');
    if (!dot) return 0;
    return strcmp(dot, ".cu") == 0 || strcmp(dot, ".cpp") == 0 || strcmp(dot, ".cc") == 0 ||
           strcmp(dot, ".cxx") == 0;
}

static int add_file(prog_project *pr, const char *dir, const char *name, char *msg, size_t msglen)
{
    char path[PROG_PATH_MAX];
    if (name[0] == '/' || !dir) snprintf(path, sizeof path, "%s", name);
    else snprintf(path, sizeof path, "%s/%s", dir, name);
    for (int i = 0; i < pr->nfiles; i++)
        if (strcmp(pr->files[i], path) == 0) return 0;
    if (pr->nfiles == PROG_MAX_SOURCES) {
        snprintf(msg, msglen, "more than %d source files", PROG_MAX_SOURCES);
        return -1;
    }
    snprintf(pr->files[pr->nfiles++], PROG_PATH_MAX, "%s", path);
    return 0;
}

static int add_option(prog_project *pr, const char *opt, const char *dir, char *msg, size_t msglen)
{
    char o[PROG_PATH_MAX + 8];
    if (strncmp(opt, "-I", 2) == 0) {
        char joined[PROG_PATH_MAX * 2], abs[PROG_PATH_MAX];
        if (opt[2] == '/' || !dir) snprintf(joined, sizeof joined, "%s", opt + 2);
        else snprintf(joined, sizeof joined, "%s/%s", dir, opt + 2);
        if (!realpath(joined, abs)) {
            snprintf(msg, msglen, "-I%s: no such folder (%s)", opt + 2, strerror(errno));
            return -1;
        }
        snprintf(o, sizeof o, "-I%s", abs);
    } else {
        snprintf(o, sizeof o, "%s", opt);
    }
    for (int i = 0; i < pr->noptions; i++)
        if (strcmp(pr->options[i], o) == 0) return 0;
    if (pr->noptions == PROG_MAX_OPTIONS) {
        snprintf(msg, msglen, "more than %d compiler options", PROG_MAX_OPTIONS);
        return -1;
    }
    snprintf(pr->options[pr->noptions++], sizeof pr->options[0], "%s", o);
    return 0;
}

int prog_option_ok(const char *a)
{
    if ((a[0] != '-') || strlen(a) < 3) return 0;
    if (a[1] == 'D' || a[1] == 'U' || a[1] == 'I') return 1;
    if (strncmp(a, "-std=", 5) == 0) return strncmp(a + 5, "c++", 3) == 0 || strncmp(a + 5, "gnu++", 5) == 0;
    if (strcmp(a, "-fmad=true") == 0 || strcmp(a, "-fmad=false") == 0) return 1;
    return a[1] == 'O' && strchr("0123s", a[2]) && a[3] == 0;
}

/* ---------------------------------------------------------------- cmake */

/* The words of a CMake command's arguments, `${CMAKE_CURRENT_SOURCE_DIR}`
 * and the other source-folder variables as the folder itself; a word with
 * any other variable or a generator expression is left out. */
static int cmake_words(const char *args, const char *dir, char words[][PROG_PATH_MAX], int max)
{
    int n = 0;
    const char *c = args;
    while (*c && n < max) {
        while (*c && (isspace((unsigned char)*c))) c++;
        if (!*c) break;
        char w[PROG_PATH_MAX];
        size_t l = 0;
        int quoted = *c == '"', bad = 0;
        if (quoted) c++;
        while (*c && (quoted ? *c != '"' : !isspace((unsigned char)*c)) && l + 1 < sizeof w) {
            if (*c == '$' && (c[1] == '{' || c[1] == '<')) {
                static const char *const same[] = {"${CMAKE_CURRENT_SOURCE_DIR}", "${CMAKE_CURRENT_LIST_DIR}",
                                                   "${PROJECT_SOURCE_DIR}", "${CMAKE_SOURCE_DIR}", NULL};
                int k = 0;
                for (; same[k]; k++)
                    if (strncmp(c, same[k], strlen(same[k])) == 0) break;
                if (same[k]) {
                    l += (size_t)snprintf(w + l, sizeof w - l, "%s", dir);
                    if (l >= sizeof w) l = sizeof w - 1;
                    c += strlen(same[k]);
                    continue;
                }
                bad = 1;
            }
            w[l++] = *c++;
        }
        if (quoted && *c == '"') c++;
        w[l] = 0;
        if (!bad && l) snprintf(words[n++], PROG_PATH_MAX, "%s", w);
    }
    return n;
}

static int is_keyword(const char *w)
{
    static const char *const kw[] = {"PRIVATE", "PUBLIC", "INTERFACE", "SYSTEM", "BEFORE", "AFTER", "WIN32",
                                     "MACOSX_BUNDLE", "EXCLUDE_FROM_ALL", NULL};
    for (int i = 0; kw[i]; i++)
        if (strcmp(w, kw[i]) == 0) return 1;
    return 0;
}

static int from_cmake(prog_project *pr, const char *file, const char *dir, char *msg, size_t msglen)
{
    size_t len;
    char *text = prog_read_file(file, &len);
    if (!text) {
        snprintf(msg, msglen, "cannot read %s: %s", file, strerror(errno));
        return -1;
    }
    /* comments out */
    for (char *c = text; *c; c++) {
        if (*c == '"') { for (c++; *c && *c != '"'; c++) {} if (!*c) break; continue; }
        if (*c == '#') while (*c && *c != '\n') *c++ = ' ';
        if (!*c) break;
    }
    static char words[64][PROG_PATH_MAX];
    int executables = 0, rc = 0;
    char first[128] = "";
    for (char *c = text; *c && rc == 0;) {
        while (*c && !isalpha((unsigned char)*c) && *c != '_') c++;
        char name[64];
        size_t l = 0;
        while (*c && (isalnum((unsigned char)*c) || *c == '_') && l + 1 < sizeof name) name[l++] = (char)tolower((unsigned char)*c++);
        name[l] = 0;
        while (*c == ' ' || *c == '\t') c++;
        if (*c != '(') continue;
        char *open = ++c;
        int depth = 1;
        while (*c && depth) {
            if (*c == '(') depth++;
            else if (*c == ')') depth--;
            if (depth) c++;
        }
        if (!*c) break;
        *c++ = 0;
        int n = cmake_words(open, dir, words, 64);
        if (strcmp(name, "add_executable") == 0 && n > 1) {
            if (executables++) continue; /* the first program of the file */
            snprintf(first, sizeof first, "%s", words[0]);
            for (int i = 1; i < n && rc == 0; i++)
                if (is_source(words[i])) rc = add_file(pr, dir, words[i], msg, msglen);
        } else if (strcmp(name, "include_directories") == 0 || strcmp(name, "target_include_directories") == 0) {
            for (int i = name[0] == 't' ? 1 : 0; i < n && rc == 0; i++) {
                if (is_keyword(words[i])) continue;
                char o[PROG_PATH_MAX + 4];
                snprintf(o, sizeof o, "-I%s", words[i]);
                rc = add_option(pr, o, dir, msg, msglen);
            }
        } else if (strcmp(name, "add_compile_definitions") == 0 || strcmp(name, "target_compile_definitions") == 0 ||
                   strcmp(name, "add_definitions") == 0) {
            for (int i = name[0] == 't' ? 1 : 0; i < n && rc == 0; i++) {
                if (is_keyword(words[i])) continue;
                char o[PROG_PATH_MAX + 4];
                snprintf(o, sizeof o, "%s%s", strncmp(words[i], "-D", 2) == 0 ? "" : "-D", words[i]);
                rc = add_option(pr, o, dir, msg, msglen);
            }
        } else if (strcmp(name, "set") == 0 && n == 2 &&
                   (strcmp(words[0], "CMAKE_CUDA_STANDARD") == 0 || strcmp(words[0], "CMAKE_CXX_STANDARD") == 0)) {
            char o[64];
            snprintf(o, sizeof o, "-std=c++%.8s", words[1]);
            /* the standard of the file, whichever of the two it sets last */
            for (int i = 0; i < pr->noptions; i++)
                if (strncmp(pr->options[i], "-std=", 5) == 0) pr->options[i][0] = 0;
            int k = 0;
            for (int i = 0; i < pr->noptions; i++)
                if (pr->options[i][0]) memmove(pr->options[k++], pr->options[i], sizeof pr->options[0]);
            pr->noptions = k;
            rc = add_option(pr, o, dir, msg, msglen);
        }
    }
    free(text);
    if (rc == 0 && pr->nfiles == 0) {
        snprintf(msg, msglen, "%s names no source files in an add_executable(NAME FILE.cu ...)", file);
        rc = -1;
    }
    if (rc == 0 && executables > 1)
        snprintf(pr->note, sizeof pr->note, "%s has %d programs; this is the first, %s", file, executables, first);
    return rc;
}

/* ------------------------------------------------------------- makefile */

/* A Makefile is read simply: the words of its lines that name source files
 * of the folder, and the -I, -D and -std options among them; variables are
 * not expanded. */
static int from_makefile(prog_project *pr, const char *file, const char *dir, char *msg, size_t msglen)
{
    size_t len;
    char *text = prog_read_file(file, &len);
    if (!text) {
        snprintf(msg, msglen, "cannot read %s: %s", file, strerror(errno));
        return -1;
    }
    int rc = 0;
    for (char *line = strtok(text, "\n"); line && rc == 0; line = strtok(NULL, "\n")) {
        char *hash = strchr(line, '#');
        if (hash) *hash = 0;
        for (char *c = line; *c && rc == 0;) {
            while (*c && (isspace((unsigned char)*c) || *c == '=' || *c == ':')) c++;
            char w[PROG_PATH_MAX];
            size_t l = 0;
            while (*c && !isspace((unsigned char)*c) && l + 1 < sizeof w) w[l++] = *c++;
            w[l] = 0;
            if (!l || strchr(w, '$')) continue;
            if (is_source(w)) {
                char path[PROG_PATH_MAX * 2];
                struct stat st;
                snprintf(path, sizeof path, "%s/%s", dir, w);
                if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) rc = add_file(pr, dir, w, msg, msglen);
            } else if (prog_option_ok(w) && w[1] != 'O' && w[1] != 'U') {
                rc = add_option(pr, w, dir, msg, msglen);
            }
        }
    }
    free(text);
    if (rc == 0 && pr->nfiles == 0) {
        snprintf(msg, msglen, "%s names no source file of its folder (.cu, .cpp, .cc)", file);
        rc = -1;
    }
    return rc;
}

/* --------------------------------------------------------------- folder */

static int cmp_str(const void *a, const void *b) { return strcmp(a, b); }

static int from_folder(prog_project *pr, const char *dir, char *msg, size_t msglen)
{
    char f[PROG_PATH_MAX + 16];
    struct stat st;
    snprintf(f, sizeof f, "%s/CMakeLists.txt", dir);
    if (stat(f, &st) == 0) return from_cmake(pr, f, dir, msg, msglen);
    static const char *const mk[] = {"Makefile", "makefile", "GNUmakefile", NULL};
    for (int i = 0; mk[i]; i++) {
        snprintf(f, sizeof f, "%s/%s", dir, mk[i]);
        if (stat(f, &st) == 0) return from_makefile(pr, f, dir, msg, msglen);
    }
    DIR *d = opendir(dir);
    if (!d) {
        snprintf(msg, msglen, "cannot read the folder %s: %s", dir, strerror(errno));
        return -1;
    }
    static char names[PROG_MAX_SOURCES + 1][256];
    int n = 0, more = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.' || !is_source(e->d_name)) continue;
        if (n == PROG_MAX_SOURCES) { more = 1; break; }
        snprintf(names[n++], sizeof names[0], "%s", e->d_name);
    }
    closedir(d);
    if (more) {
        snprintf(msg, msglen, "%s holds more than %d source files: open the ones of one program", dir,
                 PROG_MAX_SOURCES);
        return -1;
    }
    if (!n) {
        snprintf(msg, msglen, "%s holds no source file (.cu, .cpp, .cc), CMakeLists.txt or Makefile", dir);
        return -1;
    }
    qsort(names, (size_t)n, sizeof names[0], cmp_str);
    for (int i = 0; i < n; i++)
        if (add_file(pr, dir, names[i], msg, msglen) != 0) return -1;
    return 0;
}

/* ----------------------------------------------------------------- open */

int prog_project_add(prog_project *pr, const char *arg, const char *base, char *msg, size_t msglen)
{
    if (arg[0] == '-') {
        if (!prog_option_ok(arg)) {
            snprintf(msg, msglen, "%s: open takes files and the compiler options -IFOLDER, -DNAME[=VALUE], -UNAME, "
                                  "-std=c++NN, -O0..-O3 and -fmad=true|false",
                     arg);
            return -1;
        }
        return add_option(pr, arg, base, msg, msglen);
    }
    char path[PROG_PATH_MAX * 2];
    if (arg[0] == '/' || !base) snprintf(path, sizeof path, "%s", arg);
    else snprintf(path, sizeof path, "%s/%s", base, arg);
    struct stat st;
    char abs[PROG_PATH_MAX];
    if (stat(path, &st) != 0 || !realpath(path, abs)) {
        snprintf(msg, msglen, "cannot open %s: %s", arg, strerror(errno));
        return -1;
    }
    /* a project's folders are named from its own, whatever the working folder */
    if (S_ISDIR(st.st_mode)) return from_folder(pr, abs, msg, msglen);
    snprintf(path, sizeof path, "%s", abs);
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    char dir[PROG_PATH_MAX];
    snprintf(dir, sizeof dir, "%.*s", b > path ? (int)(b - path - 1) : 1, b > path ? path : ".");
    if (strcmp(b, "CMakeLists.txt") == 0) return from_cmake(pr, path, dir, msg, msglen);
    if (strcmp(b, "Makefile") == 0 || strcmp(b, "makefile") == 0 || strcmp(b, "GNUmakefile") == 0)
        return from_makefile(pr, path, dir, msg, msglen);
    return add_file(pr, NULL, path, msg, msglen);
}
