/* repl.c - the input loop shared by -c, scripts, pipes, `source` and the
 * prompt: split a line into commands, look each one up, run it. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "repl/cmd.h"
#include "repl/i18n.h"
#include "repl/input.h"
#include "repl/out.h"
#include "repl/safefile.h"
#include "repl/session.h"
#include "repl/signals.h"
#include "repl/repl.h"

/* What the entry declares (cmd.h): the words after the name and what must
 * be chosen first. CMD_OK when the line may run. */
static enum cmd_status check_entry(struct session *s, const struct cmd *cmd, int argc)
{
    if (cmd->program && s->prog) return CMD_OK;
    if (cmd->needs != CMD_NEEDS_NOTHING && (!s->algo || (cmd->needs == CMD_NEEDS_VARIANT && !s->variant)))
        return sess_error(s, -1, "%s", cmd->needs == CMD_NEEDS_VARIANT ? _("choose an algorithm first: use ALGO/VARIANT")
                                                                   : _("choose an algorithm first: use ALGO"));
    if (!cmd->args.declared) return CMD_OK;
    int words = argc - 1;
    if (cmd->args.max != CMD_ANY && words > cmd->args.max) {
        if (cmd->args.max == 0) return sess_error(s, 1, _("%s takes no arguments"), cmd->name);
        return sess_error(s, cmd->args.max + 1, _("too many arguments; usage: %s"), _(cmd->usage));
    }
    if (words < cmd->args.min) return sess_error(s, argc - 1, _("usage: %s"), _(cmd->usage));
    return CMD_OK;
}

enum cmd_status repl_exec_cmd(struct session *s, const struct tok_cmd *c)
{
    char err[512];
    const struct tok_cmd *saved = s->cur;
    const struct cmd *saved_entry = s->cur_entry;
    s->cur = c;
    const struct cmd *cmd = cmd_find(c->argv[0], err, sizeof err);
    s->cur_entry = cmd;
    enum cmd_status st;
    if (!cmd) {
        st = sess_error(s, 0, "%s", err);
    } else if ((st = check_entry(s, cmd, c->argc)) != CMD_OK) {
        /* refused as declared: the message is out */
    } else {
        lab_interrupted = 0; /* a Ctrl-C belongs to the command it interrupted */
        /* At the prompt, output longer than the screen goes to the pager. */
        int paged = s->interactive && !s->script && s->depth == 0 && !cmd->screen && out_page_begin();
        st = cmd->run(s, c->argc, c->argv);
        if (paged) out_page_end();
        if (lab_interrupted && st == CMD_OK) out_note(_("interrupted"));
        lab_interrupted = 0;
    }
    out_flush();
    s->cur = saved;
    s->cur_entry = saved_entry;
    return st;
}

enum cmd_status repl_exec_line(struct session *s, const char *line)
{
    struct tok_line t;
    char err[256];
    int errpos = -1;
    const char *saved_text = s->cur_text;
    s->cur_text = line;
    if (tok_split(line, &t, err, sizeof err, &errpos) != 0) {
        sess_error_at(s, errpos, 1, "%s", err);
        s->cur_text = saved_text;
        return CMD_ERROR;
    }
    enum cmd_status result = CMD_OK;
    for (int i = 0; i < t.ncmds; i++) {
        enum cmd_status st = repl_exec_cmd(s, &t.cmds[i]);
        if (st == CMD_QUIT || s->quit) {
            s->quit = 1;
            result = CMD_QUIT;
            break;
        }
        if (st == CMD_ERROR) {
            result = CMD_ERROR;
            if (s->bail) break;
        }
        if (sig_int_count > 0) break; /* Ctrl-C: skip the rest of the line */
    }
    tok_line_free(&t);
    s->cur_text = saved_text;
    return result;
}

static int interrupted(void) { return sig_int_count > 0; }

enum cmd_status repl_run_stream(struct session *s, FILE *f, const char *name)
{
    const char *saved_script = s->script;
    int saved_line = s->line;
    struct input in = {.f = f, .interrupted = interrupted};
    enum cmd_status result = CMD_OK;
    s->script = name;
    s->line = 0;
    for (;;) {
        enum input_status got = input_line(&in);
        if (sig_int_count > 0) {
            /* Ctrl-C stops the script, also a sourced one at the prompt. */
            out_error(NULL, _("interrupted: %s stopped at line %d"), name, s->line + (got != INPUT_EOF));
            s->errors++;
            result = CMD_ERROR;
            break;
        }
        if (got == INPUT_EOF) break;
        s->line++;
        struct out_loc at = {.script = name, .line = s->line};
        if (got == INPUT_ERROR) {
            out_error(NULL, _("cannot read %s: %s (stopped at line %d)"), name, strerror(in.err), s->line);
            s->errors++;
            result = CMD_ERROR;
            break;
        }
        if (got == INPUT_NUL) {
            out_error(&at, _("a NUL byte at column %d: %s is not a text script; stopped here"), in.col, name);
            s->errors++;
            result = CMD_ERROR;
            break;
        }
        if (got == INPUT_LONG) {
            out_error(&at, _("the line is longer than %d KiB; it was not run"), INPUT_MAX_LINE / 1024);
            s->errors++;
            result = CMD_ERROR;
            if (s->bail) break;
            continue;
        }
        enum cmd_status st = repl_exec_line(s, in.buf);
        if (st == CMD_QUIT) {
            result = CMD_QUIT;
            break;
        }
        if (st == CMD_ERROR) {
            result = CMD_ERROR;
            if (s->bail) break;
        }
        if (sig_int_count > 0) {
            out_error(NULL, _("interrupted: %s stopped after line %d"), name, s->line);
            s->errors++;
            result = CMD_ERROR;
            break;
        }
    }
    input_free(&in);
    s->script = saved_script;
    s->line = saved_line;
    return result;
}

enum cmd_status repl_run_file(struct session *s, const char *path)
{
    char err[1024];
    if (s->depth >= SESS_MAX_DEPTH) {
        out_error(NULL, _("%s: scripts nested more than %d deep (does it source itself?)"), path,
                  SESS_MAX_DEPTH);
        s->errors++;
        return CMD_ERROR;
    }
    FILE *f = safefile_fopen_read(path, SAFEFILE_SCRIPT_MAX, err, sizeof err);
    if (!f) {
        if (errno == EISDIR) out_error(NULL, _("%s is a directory, not a script"), path);
        else out_error(NULL, "%s", err);
        s->errors++;
        return CMD_ERROR;
    }
    if (input_check(f, path, err, sizeof err) != 0) {
        out_error(NULL, "%s", err);
        fclose(f);
        s->errors++;
        return CMD_ERROR;
    }
    s->depth++;
    enum cmd_status st = repl_run_stream(s, f, path);
    s->depth--;
    fclose(f);
    return st;
}
