/* cmp_list.c - the list of completion candidates that completers fill
 * (cmd.h): words kept once each, in the order they were added. */
#include <stdlib.h>
#include <string.h>

#include "repl/cmd.h"

void cmp_add(struct cmp_list *l, const char *word)
{
    if (!word || !*word) return;
    for (int i = 0; i < l->n; i++)
        if (strcmp(l->words[i], word) == 0) return;
    if (l->n + 1 > l->cap) {
        int cap = l->cap ? l->cap * 2 : 32;
        char **w = realloc(l->words, (size_t)cap * sizeof *w);
        if (!w) return;
        l->words = w;
        l->cap = cap;
    }
    char *d = strdup(word);
    if (d) l->words[l->n++] = d;
}

void cmp_free(struct cmp_list *l)
{
    for (int i = 0; i < l->n; i++) free(l->words[i]);
    free(l->words);
    memset(l, 0, sizeof *l);
}
