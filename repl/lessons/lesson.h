/* lesson.h - lesson files: parsing, rendering, progress.
 *
 * A lesson is a CommonMark file (lessons/README.md describes the format):
 * front matter between two `---` lines (title, prerequisites, time,
 * algorithms), then steps, one per level-2 heading. Fenced blocks marked
 * gpulab hold commands, question blocks hold a question and its answers,
 * lecture blocks hold numbers a lecture measured. The parser keeps the cmark
 * tree for rendering and pulls the fenced blocks out of it per step.
 */
#ifndef GPULAB_LESSON_H
#define GPULAB_LESSON_H

#include <stddef.h>

struct session;
struct cmark_node;

struct lesson_cmd {
    char *text;   /* the command as the reader runs it */
    char *sim;    /* what runs instead on the simulator, or NULL */
    int line;     /* line in the file */
};

struct lesson_question {
    char *text;       /* the question */
    char **answers;   /* accepted answers; none: an open question */
    int nanswers;
    char *hint;       /* said after a wrong answer, or NULL */
    char *explain;    /* said after every checked answer, right or wrong, or NULL */
    char **choices;   /* multiple choice: the options, answered by letter or text */
    int nchoices;
    int line;
};

struct lesson_number {
    char *label;  /* a variant name (matched against result rows) or a free label */
    char *value;  /* as the lecture wrote it: "1.17 ms" */
};

struct lesson_lecture {
    char *source;  /* where the numbers come from */
    struct lesson_number *rows;
    int nrows;
    int line;
};

struct lesson_step {
    char *title;
    int line;                     /* where the step starts */
    struct cmark_node *first;     /* first top-level node of the step */
    struct cmark_node *stop;      /* first node after it (NULL: end of document) */
    char *text;                   /* plain text of a script's step (its comments), or NULL */
    struct lesson_cmd *cmds;
    int ncmds;
    struct lesson_question *questions;
    int nquestions;
    struct lesson_lecture *lectures;
    int nlectures;
};

struct lesson {
    char *path;     /* the file */
    char *id;       /* file name without folder and .md: "04-reduction" */
    char *key;      /* what its progress is kept under: the id of a shipped
                       lesson, "id@HASH" (of the full path) of any other file */
    char *title;
    char *prereq;   /* "" when none */
    char *time;     /* "25 min" */
    char *algos;    /* space-separated algorithm names, "" when none */
    struct lesson_step *steps;
    int nsteps;
    struct cmark_node *doc;
};

/* How deep block quotes, lists and inline markup may nest in a lesson. */
#define LESSON_MAX_DEPTH 32

/* The text of a lesson file of len bytes as the reader sees it: LF line
 * ends only (CRLF and lone CR become LF), control characters other than
 * tab and newline made visible (out_escape). NULL with "PATH:LINE: ..." in
 * err when the bytes hold a NUL. malloc'd. */
char *lesson_text_clean(const char *buf, size_t len, const char *path, char *err, size_t errlen);

/* Parse a lesson file. NULL on error with "FILE:LINE: what is wrong" in err. */
struct lesson *lesson_load(const char *path, char *err, size_t errlen);
void lesson_free(struct lesson *l);

/* lesson_load and lesson_load_script on a text already read and cleaned
 * (lesson_text_clean); they take text and free it. path names the lesson
 * in messages. */
struct lesson *lesson_parse(const char *path, char *text, char *err, size_t errlen);
struct lesson *lesson_parse_script(const char *path, char *text, char *err, size_t errlen);

/* Parse a plain script as a lecture: steps separated by blank lines; the
 * comment lines of a step are its text, the rest its commands. */
struct lesson *lesson_load_script(const char *path, char *err, size_t errlen);

/* Check an answer against a question: 1 right, 0 wrong, -1 nothing to
 * check (an open question), -2 the reply names none of the choices.
 * Tolerant as answer.h says; with choices, the reply names a choice (its
 * letter, its text or its words put otherwise) and that choice must be one
 * of the answers (given as letters or texts). */
int lesson_check_answer(const struct lesson_question *q, const char *answer);

/* ---- rendering (lesson_render.c) */

/* Columns to wrap at: the terminal's width (at most 100), else $COLUMNS,
 * else 80. */
int lesson_width(void);

/* Print step i of l through out: heading, wrapped text with ANSI styles
 * when colour is on, commands, questions and the lecture's numbers.
 * margin: spaces before each line (lecture mode uses a wide one). s, the
 * session whose backend decides which form of a command is shown (NULL:
 * the commands as written). */
void lesson_render_step(struct session *s, const struct lesson *l, int i, int width, int margin);

/* Does this session run kernels on the simulator (no GPU, or backend sim)? */
int lesson_on_sim(const struct session *s);

/* The command to run for c in this session: c->sim on the simulator. */
const char *lesson_cmd_text(const struct session *s, const struct lesson_cmd *c);

/* ---- progress (lesson_progress.c) */

struct lesson_progress {
    char id[128];
    int step;      /* the step last shown, 1-based */
    int nsteps;
    int seen;      /* the furthest step shown */
    int correct;   /* questions answered right */
};

/* $XDG_STATE_HOME/gpulab/progress, else ~/.local/state/gpulab/progress;
 * "" when there is no home. */
void lesson_progress_path(char *out, size_t len);

/* Progress of one lesson; 0 found, -1 none (p zeroed with its id). */
int lesson_progress_get(const char *id, struct lesson_progress *p);

/* Store p (replacing the line with its id): written to a temporary file
 * in the same folder and renamed over the old one, so the file is always
 * whole. 0 ok, -1 with errno. */
int lesson_progress_put(const struct lesson_progress *p);

/* ---- which lesson files there are (lesson_files.c) */

/* The folder of the shipped lessons of language lang: 1 when it exists. */
int lesson_lang_dir(const char *lang, char *out, size_t len);

/* The same, but the English folder when lang has none. */
void lesson_dir(const char *lang, char *out, size_t len);

/* The shipped lesson files of a language, sorted by name: the English
 * lessons, each replaced by the language's own file of the same name where
 * there is one (and the language's lessons that English lacks): a malloc'd
 * array of malloc'd paths; *n their count. */
char **lesson_list(const char *lang, int *n);
void lesson_list_free(char **paths, int n);

/* Whether path, from lesson_list(lang), is an English lesson standing in
 * for one that lang does not have yet. */
int lesson_in_english(const char *lang, const char *path);

#endif
