/* session.h - everything one REPL session remembers, and the input loop.
 *
 * One struct session lives for the whole program (main.c makes it). Command
 * handlers read and change it; other modules (animate, lessons, sweeps) read
 * the settings and the current variant from it and keep the last results.
 */
#ifndef GPULAB_SESSION_H
#define GPULAB_SESSION_H

#include <stdio.h>

#include "repl/cmd.h"
#include "kernels/lab.h"
#include "repl/parse.h"
#include "viz/export.h"

#define SESS_MAX_DEPTH 16 /* nested `source` files */

struct lesson;
struct puzzle;
struct lesson_step;
struct sweep_data;
struct prof_row;

/* The last result printed that `export FILE.csv|FILE.json` writes: one
 * value, tagged with what it is and numbered, replaced whole by the next. */
enum sess_output_kind {
    SESS_OUTPUT_NONE = 0,
    SESS_OUTPUT_TABLE,   /* run, compare, animate: the table's rows */
    SESS_OUTPUT_SWEEP,   /* sweep, suggest: the sweep (its points are the rows) */
    SESS_OUTPUT_PROFILE, /* profile: its rows (the runs it counted on the simulator are the rows) */
};

struct sess_output {
    enum sess_output_kind kind;
    unsigned long generation;      /* 0 before the first; one more for every result kept */
    lab_result *rows;              /* malloc'd, nrows (ran = 0 rows too) */
    int nrows;
    lab_config cfg;                /* the settings they ran with */
    const lab_algo *algo;
    struct sweep_data *sweep;      /* SWEEP: malloc'd */
    struct prof_row *prof;         /* PROFILE: malloc'd, nprof */
    int nprof;
};

struct session {
    /* ---- what the student chose */
    lab_config cfg;                /* every setting (set/show) */
    const lab_algo *algo;          /* current algorithm; never NULL once started */
    const lab_variant *variant;    /* current variant of algo; never NULL once started */

    /* ---- what the last commands printed, for export and for others to read */
    struct sess_output last;       /* the last table, sweep or profile */
    viz_picture picture;           /* the newest picture shown (a plot or a frame), for export */

    /* ---- how to talk */
    int json;                      /* --json: run/compare/trace print JSON lines */
    int color;                     /* ANSI colours on stdout/stderr */
    int interactive;               /* reading from a terminal: prompt, history */
    int bail;                      /* --bail: stop at the first error */
    char lang[16];                 /* --lang (lesson language), "en" by default */
    char lecture[1024];            /* --lecture FILE, "" when not given */
    int rehearse;                  /* --rehearse: the lecture runs start to end, timed */
    int large;                     /* --large: the lecture's large layout (projectors) */

    /* ---- where the current command came from (for error messages) */
    const char *script;            /* script name, "-c", "stdin", or NULL at the prompt */
    int line;                      /* line number within script (1-based), 0 if none */
    const char *cur_text;          /* the whole input line being run */
    const struct tok_cmd *cur;     /* the command being run: words and positions */
    const struct cmd *cur_entry;   /* its entry in the command table, or NULL */
    int depth;                     /* nesting of `source` */
    int confined;                  /* the command comes from a lesson or a lecture: it may
                                      write files only below the current directory */
    const char *confined_from;     /* ... that lesson's or lecture's file: open, code, check
                                      FILE, source and set image reach only its folder */

    /* ---- a student's own program (open FILE.cu), or NULL: the built-in
     * algorithms. run, compare and show act on it while it is open. */
    struct prog *prog;
    char *prog_defines[33];        /* the compiler options given to open (-D, -U, -I with an absolute
                                      folder, -std=, -O), NULL-terminated */
    char *prog_args[33];           /* set args: the arguments of every run that names none */
    double time_limit;             /* seconds a program may run on the simulator; 0: no limit */
    int check, check_limit;        /* `set check`: PROG_CHECK_* | PROG_CHECK_SET and distinct errors per
                                      launch (0: the defaults) */
    unsigned trace_blocks;         /* blocks of each launch the automatic access trace records */
    int schedule;                  /* `set schedule`: SIM_SCHED_* (kernels/sim/race.h) */
    unsigned long long schedule_seed; /* its seed (0: gpulab's default) */
    int schedules;                 /* `set schedules N`: a run tries N orders (0 or 1: one) */
    int sim_threads;               /* `set sim-threads N`: worker threads of a launch (0: one per core) */

    /* ---- the lesson being taken (cmd_lesson.c), and the step whose lecture
     * numbers `beside` prints (set by the lesson runner and by lecture mode) */
    struct {
        struct lesson *cur;            /* the lesson under way, or NULL */
        int step;                      /* its step shown, 0-based */
        int offer;                     /* the next of the step's commands to offer at the prompt */
        int *right;                    /* per question of the step: answered right */
        int *tries;                    /* per question of the step: wrong answers so far */
        const char *offered;           /* the command last pre-filled at the prompt, or NULL */
        const struct lesson_step *beside;
    } lesson;

    /* ---- the puzzle last named by `puzzle` or `check` (cmd_puzzle.c,
     * cmd_check.c): what `check` checks and `code` shows by default */
    struct {
        const struct puzzle *cur;      /* NULL until one is named */
        int line;                      /* the line the last check's first diagnostic named
                                          (0: none), which `code` highlights */
    } puzzle;

    /* ---- bookkeeping */
    int errors;                    /* commands that failed so far */
    int checks_failed;             /* checks whose verdict was not a pass */
    int quit;                      /* a quit command was seen */
    struct {                       /* what is said once a session, and has been */
        int no_gpu;                /* there is no GPU, and why (sess_note_no_gpu) */
        int check_gpu;             /* check runs on the simulator only, and why */
        int no_lessons;            /* no lessons in the chosen language */
        int progress;              /* lesson progress cannot be saved */
        int history;               /* the prompt's history cannot be saved */
        int sandbox;               /* what the sandbox cannot enforce here (program_sandbox_note) */
        int table_keys;            /* what * and ~ under a timing table mean */
        long long sim_n_asked;     /* the n a run asked for past sim-limit, and that */
        long long sim_n_limit;     /*   limit, said in full (results_note_sim_n) */
    } said;
    char trace_note[320];          /* the last record_trace: how it made n smaller, or "" */
};

/* Make a session with default settings and the first algorithm of the
 * registry (and its first kernel variant) chosen. */
void sess_init(struct session *s);
void sess_free(struct session *s);

/* Choose an algorithm (when it changes: n back to auto, dtype and pattern to
 * the algorithm's defaults, block and grid to auto) and a variant (NULL: its first kernel variant). */
void sess_use(struct session *s, const lab_algo *a, const lab_variant *v);

/* A variant of a by exact name or unique prefix; NULL with a message that
 * lists the variants (or the candidates of an ambiguous prefix). */
const lab_variant *sess_find_variant(const lab_algo *a, const char *name, char *err, size_t errlen);

/* The variant a command's word names: VARIANT or ALGO/VARIANT of the current
 * algorithm (word: argv[argi] of the current command, or another word that
 * stands there, such as one of a comma list). NULL when it names none, with
 * the error reported (caret under word argi). */
const lab_variant *sess_variant_arg(struct session *s, int argi, const char *word);

/* Report a failed command: "error: [line N of FILE: ]message" on stderr, then
 * the input line with a caret under word argi of the current command (argi <
 * 0: no caret). Counts the error. Returns CMD_ERROR so handlers can write
 * `return sess_error(s, 1, "...")`. */
enum cmd_status sess_error(struct session *s, int argi, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The same with the caret at byte offset pos of the line (len bytes). */
enum cmd_status sess_error_at(struct session *s, int pos, int len, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* The last output becomes a table (a copy of rows[0..n), with the current
 * settings), a sweep (takes *d over, leaving it empty) or a profile (takes
 * prof[0..nprof) over; runs[0..nruns), copied, are the rows it counted). */
void sess_output_table(struct session *s, const lab_result *rows, int n);
void sess_output_sweep(struct session *s, struct sweep_data *d);
void sess_output_profile(struct session *s, struct prof_row *prof, int nprof, const lab_result *runs, int nruns);

/* Start writing a file the user asked for (export, trace save) through
 * safefile: refused outside the current directory when the command comes
 * from a lesson or a lecture (s->confined). 0 ok; -1 with the reason in err. */
struct safefile;
int sess_open_output(struct session *s, struct safefile *w, const char *path, char *err, size_t errlen);

/* Say once per session that there is no GPU and why (on stderr). */
void sess_note_no_gpu(struct session *s);

/* Close the open program (use goes back to the built-in algorithms). */
void sess_close_program(struct session *s);

#endif
