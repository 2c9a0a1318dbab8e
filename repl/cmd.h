/* cmd.h - the command table.
 *
 * Every command is a const struct cmd: its name, aliases, usage, help texts
 * and handler sit together, so help cannot drift from what the handler does.
 * Commands come in groups, one file per group (repl/cmd_run.c, ...), each
 * exporting a table ended by an entry whose name is NULL:
 *
 *     static enum cmd_status cmd_hello(struct session *s, int argc, char **argv)
 *     {
 *         if (argc > 2) return sess_error(s, 2, "hello takes at most one name");
 *         out_printf("hello, %s\n", argc > 1 ? argv[1] : "world");
 *         return CMD_OK;
 *     }
 *     const struct cmd cmd_hello_group[] = {
 *         { .name = "hello", .usage = "hello [NAME]", .help = "say hello",
 *           .run = cmd_hello },
 *         { 0 }
 *     };
 *
 * and one line `X(cmd_hello_group)` in repl/commands.c adds the group.
 *
 * What every handler would check again is declared in the entry, as tmux's
 * cmd_entry declares .args: `.args = CMD_ARGS(0, 1)` (the words after the
 * name: at least 0, at most 1; CMD_ANY: no limit) and `.needs =
 * CMD_NEEDS_VARIANT` (an algorithm and a variant must be chosen). The
 * dispatcher (repl_exec_cmd) refuses a line that breaks them with the usage,
 * so the handler starts from a line of the right shape: the hello above
 * would declare `.args = CMD_ARGS(0, 1)` and lose its first line. A VARIANT
 * word resolves through sess_variant_arg() (session.h), the one lookup of
 * variants. A command that also runs a student's program (`.program = 1`:
 * run, compare, trace, animate) gives its words to the program while one is
 * open (open FILE.cu); neither .args nor .needs applies then.
 *
 * Handlers get argv[0] = the command's name as typed; they report errors
 * through sess_error() (which prints the caret under argv[i]) and return
 * CMD_ERROR; they never exit the process.
 */
#ifndef GPULAB_CMD_H
#define GPULAB_CMD_H

#include <stddef.h>

#include "repl/cmp_list.h"

struct session;

enum cmd_status {
    CMD_OK = 0,
    CMD_ERROR,   /* the command failed; its message has been printed */
    CMD_QUIT     /* leave the REPL (or stop the script) */
};

/* What the arguments of a command complete to at the prompt. */
enum cmd_complete {
    CMP_NONE = 0,
    CMP_COMMAND,  /* command names (help) */
    CMP_ALGO,     /* algorithm names (list) */
    CMP_VARIANT,  /* variants of the current algorithm (run, trace, animate) */
    CMP_SETTING,  /* a setting name, then its values (set) */
    CMP_FILE,     /* file names (source) */
    CMP_CUSTOM    /* call .complete_fn */
};

/* argc/argv: the words typed before the one being completed (argv[0] is the
 * command); text: the partial word. */
typedef void (*cmd_complete_fn)(struct session *s, int argc, char **argv, const char *text,
                                struct cmp_list *out);

/* How many words may follow a command's name. An entry that declares
 * nothing checks its words itself. */
#define CMD_ANY (-1)
struct cmd_args {
    int declared;
    int min, max; /* max CMD_ANY: no limit */
};
#define CMD_ARGS(lo, hi) {1, (lo), (hi)}

/* What must be chosen before the command can run. */
enum cmd_needs {
    CMD_NEEDS_NOTHING = 0,
    CMD_NEEDS_ALGO,    /* an algorithm */
    CMD_NEEDS_VARIANT  /* an algorithm and a variant of it */
};

struct cmd {
    const char *name;       /* full name, lower case */
    const char *aliases;    /* other exact names, space-separated, or NULL */
    const char *usage;      /* "set KEY VALUE" */
    const char *help;       /* one line for `help` */
    const char *long_help;  /* paragraphs for `help NAME`, or NULL */
    enum cmd_status (*run)(struct session *s, int argc, char **argv);
    enum cmd_complete complete;
    cmd_complete_fn complete_fn;          /* for CMP_CUSTOM */
    void (*more_help)(struct session *s); /* printed after long_help, or NULL */
    struct cmd_args args;   /* words after the name, checked before run */
    enum cmd_needs needs;   /* checked before run */
    int program;            /* with a program open, its words are the program's: args and needs unchecked */
    int screen;             /* takes the screen or reads keys: its output never goes to the pager */
};

/* All groups, in the order `help` lists them; NULL-terminated. */
extern const struct cmd *const cmd_groups[];

/* Look up a command: exact name, then an alias, then a unique prefix of a
 * name. NULL when not found, with a message in err ("unknown command ...",
 * "ambiguous: could be run, repeats"). */
const struct cmd *cmd_find(const char *name, char *err, size_t errlen);

/* Iterate over every command: i from 0 until NULL. */
const struct cmd *cmd_at(int i);

#endif
