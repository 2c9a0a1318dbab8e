/* main.c - gpulab's entry: options, then -c commands, a script, a pipe or
 * the interactive prompt. The exit status is 1 when any command failed or a
 * check (a puzzle's) did not pass. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kernels/intl.h"
#include "repl/i18n.h"
#include "repl/input.h"
#include "repl/lessons/cmd_lesson.h"
#include "repl/lessons/lecture.h"
#include "repl/out.h"
#include "repl/session.h"
#include "repl/signals.h"
#include "repl/readline.h"
#include "repl/repl.h"

#ifndef GPULAB_VERSION
#define GPULAB_VERSION "0.0.0"
#endif

static void usage(void)
{
    char langs[256];
    i18n_languages(langs, sizeof langs);
    out_printf(_("usage: gpulab [OPTIONS] [SCRIPT]\n"));
    out_printf("\n");
    out_printf(_("A terminal lab for GPU parallel algorithms: pick an algorithm and a variant,\n"
                 "run it on the GPU (or on gpulab's CPU simulator), compare it with the CPU and\n"
                 "the vendor libraries, and watch what the threads did.\n"));
    out_printf("\n");
    out_printf(_("Without SCRIPT or -c, gpulab reads commands from the terminal (with a prompt,\n"
                 "completion and history) or, when standard input is not a terminal, from it\n"
                 "as a script.\n"));
    out_printf("\n");
    /* TRANSLATORS: keep the options and their values (CMD, SCRIPT, LANG, N,
       NAME, FILE) as they are, and the descriptions in one column. */
    out_printf(_("options:\n"
                 "  -c \"CMD; CMD\"     run these commands (may be given more than once)\n"
                 "  SCRIPT           run the commands in this file ('#' starts a comment)\n"
                 "  --json           run, compare and trace print JSON lines\n"
                 "  --bail           stop at the first command that fails\n"
                 "  --no-color       no colours (also when NO_COLOR is set)\n"
                 "  --lang LANG      the language of messages and lessons (%s);\n"
                 "                   else LANGUAGE, LC_ALL, LC_MESSAGES or LANG choose\n"
                 "  --lecture N|NAME|FILE\n"
                 "                   present a lesson (a number or name from `lessons`, or a\n"
                 "                   lesson or script file) one step per key; ? lists the keys\n"
                 "  --rehearse       with --lecture: run every step in order and time each one\n"
                 "  --large          with --lecture: the large layout, for a projector\n"
                 "  -h, --help       this text\n"
                 "  -V, --version    the version\n"),
               langs);
    out_printf("\n");
    out_printf(_("Inside, `help` lists the commands. Exit status: 0 when every command\n"
                 "succeeded and every check passed, 1 when one failed, 2 for a bad option.\n"));
}

static int want_color(int no_color_opt)
{
    if (no_color_opt) return 0;
    const char *nc = getenv("NO_COLOR");
    if (nc && *nc) return 0;
    const char *term = getenv("TERM");
    if (!term || strcmp(term, "dumb") == 0) return 0;
    return isatty(STDOUT_FILENO) && isatty(STDERR_FILENO);
}

/* Standard input as a script, once it is known to be one (not a directory
 * or a device). */
static enum cmd_status run_stdin(struct session *s)
{
    char err[256];
    if (input_check(stdin, _("standard input"), err, sizeof err) != 0) {
        out_error(NULL, "%s", err);
        s->errors++;
        return CMD_ERROR;
    }
    return repl_run_stream(s, stdin, "stdin");
}

int main(int argc, char **argv)
{
    enum { OPT_JSON = 256, OPT_BAIL, OPT_NOCOLOR, OPT_LANG, OPT_LECTURE, OPT_REHEARSE, OPT_LARGE };
    static const struct option opts[] = {
        {"json", no_argument, NULL, OPT_JSON},
        {"bail", no_argument, NULL, OPT_BAIL},
        {"no-color", no_argument, NULL, OPT_NOCOLOR},
        {"no-colour", no_argument, NULL, OPT_NOCOLOR},
        {"lang", required_argument, NULL, OPT_LANG},
        {"lecture", required_argument, NULL, OPT_LECTURE},
        {"rehearse", no_argument, NULL, OPT_REHEARSE},
        {"large", no_argument, NULL, OPT_LARGE},
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'},
        {NULL, 0, NULL, 0},
    };
    const char **cmds = calloc((size_t)argc + 1, sizeof *cmds);
    int ncmds = 0, json = 0, bail = 0, no_color = 0, rehearse = 0, large = 0, opt;
    const char *lang = NULL, *lecture = NULL;
    int help = 0;
    char chosen[16], err[512];
    if (!cmds) return 2;
    i18n_init(NULL, chosen, sizeof chosen, err, sizeof err); /* the environment's language */
    opterr = 0;
    while ((opt = getopt_long(argc, argv, "c:hV", opts, NULL)) != -1) {
        switch (opt) {
        case 'c': cmds[ncmds++] = optarg; break;
        case OPT_JSON: json = 1; break;
        case OPT_BAIL: bail = 1; break;
        case OPT_NOCOLOR: no_color = 1; break;
        case OPT_LANG: lang = optarg; break;
        case OPT_LECTURE: lecture = optarg; break;
        case OPT_REHEARSE: rehearse = 1; break;
        case OPT_LARGE: large = 1; break;
        case 'h': help = 1; break; /* after --lang, wherever it is */
        case 'V': out_printf(_("gpulab %s\n"), GPULAB_VERSION); free(cmds); return 0;
        default:
            if (optopt == 'c' || optopt == OPT_LANG || optopt == OPT_LECTURE)
                out_error(NULL, _("option %s needs a value (gpulab --help lists the options)"),
                          argv[optind - 1]);
            else
                out_error(NULL, _("unknown option %s (gpulab --help lists the options)"), argv[optind - 1]);
            free(cmds);
            return 2;
        }
    }
    if (lang && i18n_init(lang, chosen, sizeof chosen, err, sizeof err) != 0) {
        out_error(NULL, "%s", err);
        free(cmds);
        return 2;
    }
    if (help) {
        usage();
        free(cmds);
        return 0;
    }
    const char *script = NULL;
    if (optind < argc) script = argv[optind++];
    if (optind < argc) {
        out_error(NULL, _("one script at a time (got %s and %s)"), script, argv[optind]);
        free(cmds);
        return 2;
    }

    out_set_color(want_color(no_color));
    struct session s;
    sess_init(&s);
    s.json = json;
    /* JSON lines are data: the words kernels/ writes into results and notes
     * (L_) stay English there, as the keys do */
    if (json) lab_set_translate(NULL);
    s.bail = bail;
    s.color = out_color_enabled();
    snprintf(s.lang, sizeof s.lang, "%s", chosen);
    if (lecture) snprintf(s.lecture, sizeof s.lecture, "%s", lecture);
    int interactive = !script && ncmds == 0 && !lecture && isatty(STDIN_FILENO);
    sig_install(interactive);

    int status = 0;
    int quit = 0;
    for (int i = 0; i < ncmds && !quit; i++) {
        s.script = NULL;
        s.line = 0;
        enum cmd_status st = repl_exec_line(&s, cmds[i]);
        if (st == CMD_QUIT) quit = 1;
        if (s.bail && (s.errors || s.checks_failed)) quit = 1;
        if (sig_int_count) quit = 1;
    }
    if (!quit && script) {
        enum cmd_status st = strcmp(script, "-") == 0 ? run_stdin(&s) : repl_run_file(&s, script);
        if (st == CMD_QUIT || (s.bail && (s.errors || s.checks_failed))) quit = 1;
    }
    if (!quit && lecture) {
        s.rehearse = rehearse;
        s.large = large;
        char err[1024];
        char *path = lesson_resolve(&s, lecture, err, sizeof err);
        if (path) {
            status = lecture_main(&s, path);
            free(path);
        } else {
            out_error(NULL, "%s", err);
            s.errors++;
            status = 2;
        }
        quit = 1;
    }
    if (!quit && !script && ncmds == 0) {
        if (isatty(STDIN_FILENO)) {
            s.interactive = 1;
            readline_loop(&s);
        } else {
            run_stdin(&s);
        }
    }
    out_flush();
    /* a check that did not pass fails a script as a failed command does
     * (not a lecture, which may show a skeleton failing on purpose) */
    if (s.errors > 0 || (!s.interactive && !lecture && s.checks_failed > 0)) status = 1;
    sess_free(&s);
    free(cmds);
    return status;
}
