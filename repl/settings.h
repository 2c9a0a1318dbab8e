/* settings.h - the settings of `set KEY VALUE` and `show`, as a table.
 * Each setting parses and validates its own value, says what is allowed, and
 * lists its values for completion. (settings.c; the set and reset commands
 * are cmd_set.c, show is cmd_info.c) */
#ifndef GPULAB_SETTINGS_H
#define GPULAB_SETTINGS_H

#include <stddef.h>

#include "repl/cmd.h"

struct session;

struct setting {
    const char *name;
    const char *allowed;  /* what values it takes, for messages and help */
    const char *help;     /* one line */
    /* Parse v and store it in s->cfg. 0 ok; -1 with a message in err. */
    int (*set)(struct session *s, const char *v, char *err, size_t errlen);
    /* The current value as text. */
    void (*show)(const struct session *s, char *buf, size_t len);
    /* Candidate values for completion, or NULL. */
    void (*complete)(struct session *s, struct cmp_list *out);
};

/* Every setting, in the order show lists them; NULL past the end. */
const struct setting *setting_at(int i);
/* Exact name, then unique prefix; NULL with a message. */
const struct setting *setting_find(const char *name, char *err, size_t errlen);
/* Every setting's name, "n, block, grid, ...", in out. */
void setting_names(char *out, size_t len);

#endif
