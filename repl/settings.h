/* settings.h - the settings of `set KEY VALUE`, `show` and `reset`, as one
 * typed table, as tmux keeps its options: every setting is a row that says
 * what kind of value it takes, its range, its default, where the value
 * lives, and its help. `set`, `show`, `reset`, completion, the settings an
 * export records and the settings lists of the documentation all come from
 * the rows. (settings.c; set and reset are cmd_set.c, show is cmd_info.c) */
#ifndef GPULAB_SETTINGS_H
#define GPULAB_SETTINGS_H

#include <stddef.h>

#include "kernels/lab.h"
#include "repl/cmd.h"

struct session;

/* The kind of value a setting takes. */
enum setting_kind {
    SETTING_SIZE,   /* a size as people write it (1e6, 64Mi, 2^20), maybe auto */
    SETTING_SHAPE,  /* a number or AxB (block, grid), or auto */
    SETTING_INT,    /* a whole number in min..max */
    SETTING_NUMBER, /* a real number (in min..max when they differ) */
    SETTING_FLAG,   /* on or off */
    SETTING_WORD,   /* one of a list of names (Tab lists them) */
    SETTING_FILE,   /* a file, or none */
};

/* Where a setting's value lives. */
enum setting_home {
    SETTING_RUN,     /* lab_config (s->cfg): a run of a built-in variant reads it, and
                        the tables it prints and their exports record it */
    SETTING_SESSION, /* struct session: how a student's program runs and is recorded */
    SETTING_OUTPUT,  /* repl/out.c: how output is shown */
};

struct setting {
    const char *name;
    enum setting_kind kind;
    enum setting_home home;
    double min, max;      /* SIZE, INT, NUMBER: the values the parser takes (min == max: any) */
    const char *def;      /* the default as one types it; NULL: the algorithm's own */
    const char *example;  /* a value other than the default, for help and the tests */
    const char *allowed;  /* what values it takes, for messages and help */
    const char *help;     /* one line */
    /* Parse v and store it where the setting lives. 0 ok; -1 with a message in err. */
    int (*set)(struct session *s, const struct setting *st, const char *v, char *err, size_t errlen);
    /* The current value as text, in words (show). */
    void (*show)(const struct session *s, char *buf, size_t len);
    /* Candidate values for completion, or NULL (a FILE setting completes file names). */
    void (*complete)(struct session *s, struct cmp_list *out);
    /* SETTING_RUN: the value in c as an export records it: plain, never translated. */
    void (*value)(const lab_config *c, char *buf, size_t len);
};

/* Every setting, in the order show lists them; NULL past the end. */
const struct setting *setting_at(int i);
/* Exact name, then unique prefix; NULL with a message. */
const struct setting *setting_find(const char *name, char *err, size_t errlen);
/* Every setting's name, "n, block, grid, ...", in out. */
void setting_names(char *out, size_t len);
/* The longest name, for lining up lists. */
int setting_name_width(void);

/* The settings an algorithm brings when it is chosen: n back to auto, its
 * dtype and first pattern, block and grid auto. */
void settings_use_algo(struct session *s, const lab_algo *a);

/* Every setting back to its default: the ones a run reads through
 * lab_config_defaults() and the chosen algorithm's own defaults (the
 * algorithm and variant stay), the others through their row's default. */
void settings_reset(struct session *s);

#endif
