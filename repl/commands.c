/* commands.c - the list of command groups, and command lookup.
 *
 * To add a group: write repl/cmd_NAME.c exporting
 *     const struct cmd cmd_NAME[] = { {...}, ..., { 0 } };
 * and add one line `X(cmd_NAME)` below. `help` lists groups in this order.
 */
#include "repl/cmd.h"
#include "repl/i18n.h"
#include "repl/parse.h"
#include "viz/render.h" /* viz_name_in_list */

#include <stdio.h>
#include <string.h>

#define CMD_GROUPS(X) \
    X(cmd_core)       \
    X(cmd_info)       \
    X(cmd_set)        \
    X(cmd_run)        \
    X(cmd_program_group) \
    X(cmd_trace)      \
    X(cmd_animate)    \
    X(cmd_sweep)      \
    X(cmd_occupancy)  \
    X(cmd_export)     \
    X(cmd_profile)    \
    X(cmd_lesson_group) \
    X(cmd_puzzle_group) \
    X(cmd_check_group) \
    X(cmd_grade_group) \
    X(cmd_code_group) \
    /* end of the list */

#define CMD_DECLARE(g) extern const struct cmd g[];
CMD_GROUPS(CMD_DECLARE)

#define CMD_ENTRY(g) g,
const struct cmd *const cmd_groups[] = {CMD_GROUPS(CMD_ENTRY) NULL};

const struct cmd *cmd_at(int i)
{
    for (int g = 0; cmd_groups[g]; g++) {
        for (const struct cmd *c = cmd_groups[g]; c->name; c++)
            if (i-- == 0) return c;
    }
    return NULL;
}

const struct cmd *cmd_find(const char *name, char *err, size_t errlen)
{
    const struct cmd *c;
    int n = 0;
    for (n = 0; cmd_at(n); n++) {}
    const char *names[256];
    if (n > 256) n = 256;
    for (int i = 0; i < n; i++) {
        c = cmd_at(i);
        if (strcmp(c->name, name) == 0) return c;
        names[i] = c->name;
    }
    for (int i = 0; i < n; i++) {
        c = cmd_at(i);
        if (viz_name_in_list(c->aliases, name)) return c;
    }
    int amb[16], namb = 0;
    int k = parse_lookup(name, names, n, amb, 16, &namb);
    if (k >= 0) return cmd_at(k);
    if (k == -2) {
        size_t off = (size_t)snprintf(err, errlen, _("ambiguous command \"%s\": could be "), name);
        for (int i = 0; i < namb && i < 16 && off < errlen; i++)
            off += (size_t)snprintf(err + off, errlen - off, "%s%s", i ? ", " : "", names[amb[i]]);
        return NULL;
    }
    /* A hint for near misses: the closest name, when it is close. */
    int best = -1, bestd = 3;
    for (int i = 0; i < n; i++) {
        int d = parse_edit_distance(name, names[i]);
        if (d < bestd) {
            bestd = d;
            best = i;
        }
    }
    if (best >= 0 && strlen(name) > 1)
        snprintf(err, errlen, _("unknown command \"%s\": did you mean %s? (help lists the commands)"),
                 name, names[best]);
    else
        snprintf(err, errlen, _("unknown command \"%s\" (help lists the commands)"), name);
    return NULL;
}
