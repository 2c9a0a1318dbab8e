/* lesson_files.c - which lesson files there are: the folder of each
 * language's lessons (under i18n_lessondir()), the list `lessons` shows, in
 * which a translation stands in for the English file of the same name, and
 * whether a listed file is English standing in for a missing translation.
 * Reading a file is lesson.c's. */
#include "repl/lessons/lesson.h"

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "repl/i18n.h"

int lesson_lang_dir(const char *lang, char *out, size_t len)
{
    snprintf(out, len, "%s/%s", i18n_lessondir(), lang && *lang ? lang : "en");
    DIR *d = opendir(out);
    if (!d) return 0;
    closedir(d);
    return 1;
}

void lesson_dir(const char *lang, char *out, size_t len)
{
    if (!lesson_lang_dir(lang, out, len)) lesson_lang_dir("en", out, len); /* no lessons yet */
}

static int cmp_base(const void *a, const void *b)
{
    return strcmp(strrchr(*(char *const *)a, '/') + 1, strrchr(*(char *const *)b, '/') + 1);
}

/* Add the lesson files of dir to *list: a file of the same name already
 * there is replaced (a translation stands in for the English lesson). */
static void list_add_dir(const char *dir, char ***list, int *n)
{
    DIR *d = opendir(dir);
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t l = strlen(e->d_name);
        if (l < 4 || strcmp(e->d_name + l - 3, ".md") != 0 || e->d_name[0] == '.') continue;
        if (!isdigit((unsigned char)e->d_name[0])) continue; /* README.md and notes */
        char p[8192];
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        int i;
        for (i = 0; i < *n; i++)
            if (strcmp(strrchr((*list)[i], '/') + 1, e->d_name) == 0) break;
        char *copy = strdup(p);
        if (!copy) break; /* out of memory: the lessons found so far */
        if (i < *n) {
            free((*list)[i]);
        } else {
            char **more = realloc(*list, sizeof **list * (size_t)(*n + 1));
            if (!more) {
                free(copy);
                break;
            }
            *list = more;
            (*n)++;
        }
        (*list)[i] = copy;
    }
    closedir(d);
}

char **lesson_list(const char *lang, int *n)
{
    char dir[4096];
    char **out = NULL;
    *n = 0;
    lesson_lang_dir("en", dir, sizeof dir);
    list_add_dir(dir, &out, n);
    if (lang && *lang && strcmp(lang, "en") != 0 && lesson_lang_dir(lang, dir, sizeof dir))
        list_add_dir(dir, &out, n);
    if (*n) qsort(out, (size_t)*n, sizeof *out, cmp_base);
    return out;
}

int lesson_in_english(const char *lang, const char *path)
{
    if (!lang || !*lang || strcmp(lang, "en") == 0) return 0;
    char dir[4096];
    lesson_lang_dir("en", dir, sizeof dir);
    size_t l = strlen(dir);
    return strncmp(path, dir, l) == 0 && path[l] == '/' && !strchr(path + l + 1, '/');
}

void lesson_list_free(char **paths, int n)
{
    for (int i = 0; i < n; i++) free(paths[i]);
    free(paths);
}
