/* cmp_list.h - the candidates of a completion (cmp_list.c): a custom
 * completer adds candidate words (all of them; the caller keeps those that
 * start with what was typed) to a list without repeats. */
#ifndef GPULAB_CMP_LIST_H
#define GPULAB_CMP_LIST_H

struct cmp_list {
    char **words;
    int n, cap;
};
void cmp_add(struct cmp_list *l, const char *word);
void cmp_free(struct cmp_list *l);

#endif
