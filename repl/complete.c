/* complete.c - what a word at the prompt can complete to. Pure logic over the
 * command table, the registry and the settings table; readline.c turns the
 * list into readline matches, and the unit tests call it directly. */
#include "repl/complete.h"

#include <stdlib.h>
#include <string.h>

#include "kernels/lab.h"
#include "repl/parse.h"
#include "repl/session.h"
#include "repl/settings.h"

static void add_commands(struct cmp_list *out)
{
    for (int i = 0; cmd_at(i); i++) {
        const struct cmd *c = cmd_at(i);
        cmp_add(out, c->name);
        /* word-like aliases (exit), not symbols (?) */
        const char *p = c->aliases;
        while (p && *p) {
            while (*p == ' ') p++;
            const char *e = p;
            while (*e && *e != ' ') e++;
            if (e > p && ((*p >= 'a' && *p <= 'z'))) {
                char buf[64];
                size_t l = (size_t)(e - p) < sizeof buf - 1 ? (size_t)(e - p) : sizeof buf - 1;
                memcpy(buf, p, l);
                buf[l] = 0;
                cmp_add(out, buf);
            }
            p = e;
        }
    }
}

void cmp_algos(struct cmp_list *out)
{
    char buf[2 * LAB_NAME_MAX + 2];
    for (int i = 0; i < lab_algo_count(); i++) {
        const lab_algo *a = lab_algo_at(i);
        snprintf(buf, sizeof buf, "%s/", a->name); /* `use reduce/` takes the first variant */
        cmp_add(out, buf);
        for (int v = 0; v < a->nvariants; v++) {
            snprintf(buf, sizeof buf, "%s/%s", a->name, a->variants[v].name);
            cmp_add(out, buf);
        }
    }
}

void cmp_variants(struct session *s, struct cmp_list *out)
{
    if (!s->algo) return;
    for (int v = 0; v < s->algo->nvariants; v++) cmp_add(out, s->algo->variants[v].name);
}

/* The words of the command being typed at offset `start` of line: the text
 * after the last ';' that is outside quotes. */
static int segment_start(const char *line, int start)
{
    int seg = 0;
    char q = 0;
    for (int i = 0; i < start && line[i]; i++) {
        char c = line[i];
        if (q) {
            if (c == q) q = 0;
            else if (c == '\\' && q == '"' && line[i + 1]) i++;
        } else if (c == '\'' || c == '"') {
            q = c;
        } else if (c == '\\' && line[i + 1]) {
            i++;
        } else if (c == ';') {
            seg = i + 1;
        } else if (c == '#' && (i == 0 || line[i - 1] == ' ' || line[i - 1] == '\t')) {
            return -1; /* inside a comment: nothing to complete */
        }
    }
    return seg;
}

int cmp_candidates(struct session *s, const char *line, int start, const char *text,
                   struct cmp_list *out, int *files)
{
    *files = 0;
    int seg = segment_start(line, start);
    if (seg < 0) return 0;
    size_t len = (size_t)(start - seg);
    char *prefix = malloc(len + 1);
    if (!prefix) return 0;
    memcpy(prefix, line + seg, len);
    prefix[len] = 0;
    struct tok_line t;
    char err[128];
    int errpos;
    if (tok_split(prefix, &t, err, sizeof err, &errpos) != 0) {
        free(prefix);
        return 0;
    }
    free(prefix);
    if (t.ncmds == 0) {
        add_commands(out);
        tok_line_free(&t);
        return out->n;
    }
    struct tok_cmd *c = &t.cmds[0];
    const struct cmd *cmd = cmd_find(c->argv[0], err, sizeof err);
    int argi = c->argc; /* index of the word being completed */
    if (cmd) {
        switch (cmd->complete) {
        case CMP_COMMAND:
            if (argi == 1) add_commands(out);
            break;
        case CMP_ALGO:
            if (argi == 1)
                for (int i = 0; i < lab_algo_count(); i++) cmp_add(out, lab_algo_at(i)->name);
            break;
        case CMP_VARIANT:
            cmp_variants(s, out);
            break;
        case CMP_SETTING:
            if (argi == 1) {
                for (int i = 0; setting_at(i); i++) cmp_add(out, setting_at(i)->name);
            } else if (argi == 2) {
                const struct setting *st = setting_find(c->argv[1], err, sizeof err);
                if (st && st->complete) st->complete(s, out);
                if (st && !st->complete && st->kind == SETTING_FILE) *files = 1;
            }
            break;
        case CMP_FILE:
            *files = 1;
            break;
        case CMP_CUSTOM:
            if (cmd->complete_fn) cmd->complete_fn(s, c->argc, c->argv, text, out);
            break;
        case CMP_NONE:
            break;
        }
    }
    tok_line_free(&t);
    return out->n;
}
