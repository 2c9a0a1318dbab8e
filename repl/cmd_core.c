/* cmd_core.c - help, source, echo, quit: the commands of the loop itself. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "repl/cmd.h"
#include "repl/i18n.h"
#include "repl/out.h"
#include "repl/safefile.h"
#include "repl/session.h"
#include "repl/repl.h"

/* The code point of the UTF-8 character at s (s[0] >= 0x80), or 0. */
static unsigned cp_at(const unsigned char *s)
{
    if (s[0] >= 0xE0 && s[0] <= 0xEF && (s[1] & 0xC0) == 0x80 && (s[2] & 0xC0) == 0x80)
        return (s[0] & 0x0Fu) << 12 | (s[1] & 0x3Fu) << 6 | (s[2] & 0x3Fu);
    return 0;
}

/* Chinese and Japanese text has no spaces between words. */
static int is_cjk(unsigned c)
{
    return (c >= 0x2E80 && c <= 0x9FFF) || (c >= 0x3000 && c <= 0x303F) || (c >= 0xFF00 && c <= 0xFFEF);
}

/* A line that lines up columns (two spaces inside it), is empty, or
 * starts with a label ("Examples: ..."). */
static int is_layout(const char *l, size_t n)
{
    size_t i = 0;
    while (i < n && l[i] == ' ') i++;
    if (i == n || i > 0) return 1; /* empty, or indented: kept as written */
    size_t w = strcspn(l, " ");
    if (w < n && w > 1 && l[w - 1] == ':' && isalpha((unsigned char)l[0])) return 1;
    for (; i + 1 < n; i++)
        if (l[i] == ' ' && l[i + 1] == ' ') return 1;
    return 0;
}

/* Long help is written in lines of about 80 columns; joined back into
 * paragraphs here so that out_wrapped fills the terminal's width instead of
 * breaking each written line a second time ("theoretical" alone on a line).
 * Lines that line up columns, indented lines and the line after one ending
 * in ':' keep their line breaks. malloc'd. */
static char *help_paragraphs(const char *text)
{
    size_t n = strlen(text);
    char *out = malloc(n + 1);
    if (!out) return NULL;
    size_t o = 0;
    const char *p = text;
    while (*p) {
        size_t l = strcspn(p, "\n");
        memcpy(out + o, p, l);
        o += l;
        p += l;
        if (!*p) break;
        p++; /* the newline */
        size_t nl = strcspn(p, "\n");
        int join = l > 0 && nl > 0 && !is_layout(p - 1 - l, l) && !is_layout(p, nl) && p[-2] != ':';
        if (!join) {
            out[o++] = '\n';
            continue;
        }
        /* no space between two Chinese characters */
        const unsigned char *end = (const unsigned char *)p - 2;
        while (end > (const unsigned char *)text && (*end & 0xC0) == 0x80) end--;
        int cjk = *end >= 0x80 && (unsigned char)*p >= 0x80 && is_cjk(cp_at(end)) &&
                  is_cjk(cp_at((const unsigned char *)p));
        if (!cjk) out[o++] = ' ';
    }
    out[o] = 0;
    return out;
}

static void help_one(struct session *s, const struct cmd *c)
{
    out_printf(_("%susage:%s %s\n"), out_color(OUT_BOLD), out_color(OUT_RESET),
               c->usage ? _(c->usage) : c->name);
    if (c->aliases && *c->aliases) out_printf(_("aliases: %s\n"), c->aliases);
    out_printf("\n");
    out_wrapped(c->help ? _(c->help) : "", 0, 0);
    if (c->long_help && *c->long_help) {
        out_printf("\n");
        char *para = out_width() > 0 ? help_paragraphs(_(c->long_help)) : NULL;
        out_wrapped(para ? para : _(c->long_help), 0, 0);
        free(para);
    }
    if (c->more_help) {
        out_printf("\n");
        c->more_help(s);
    }
}

static enum cmd_status cmd_help(struct session *s, int argc, char **argv)
{
    if (argc == 2) {
        char err[512];
        const struct cmd *c = cmd_find(argv[1], err, sizeof err);
        if (!c) return sess_error(s, 1, "%s", err);
        help_one(s, c);
        return CMD_OK;
    }
    int w = 0;
    for (int i = 0; cmd_at(i); i++) {
        const struct cmd *c = cmd_at(i);
        const char *u = c->usage ? _(c->usage) : c->name;
        int l = out_text_width(u, strlen(u));
        if (l > w) w = l;
    }
    if (w > 22) w = 22;
    out_printf(_("Commands (any unique prefix works; help COMMAND says more):\n"));
    for (int g = 0; cmd_groups[g]; g++) {
        for (const struct cmd *c = cmd_groups[g]; c->name; c++) {
            const char *u = c->usage ? _(c->usage) : c->name;
            const char *h = c->help ? _(c->help) : "";
            int l = out_text_width(u, strlen(u));
            if (l > w) {
                out_printf("  %s\n", u);
                out_wrapf(w + 4, w + 4, "%s", h);
            } else {
                out_wrapf(2, w + 4, "%s%*s  %s", u, w - l, "", h); /* padded by columns, not bytes */
            }
        }
    }
    out_printf(_("\nSeveral commands on one line are separated by ';'; '#' starts a comment.\n"));
    return CMD_OK;
}

static enum cmd_status cmd_quit(struct session *s, int argc, char **argv)
{
    s->quit = 1;
    return CMD_QUIT;
}

static enum cmd_status cmd_echo(struct session *s, int argc, char **argv)
{
    for (int i = 1; i < argc; i++) out_printf("%s%s", i > 1 ? " " : "", out_vis(argv[i]));
    out_printf("\n");
    return CMD_OK;
}

static enum cmd_status cmd_source(struct session *s, int argc, char **argv)
{
    char err[PATH_MAX + 256];
    if (s->confined && !safefile_lesson_read_ok(argv[1], s->confined_from, 0, err, sizeof err))
        return sess_error(s, 1, "%s", err);
    int fd = safefile_open_read(argv[1], SAFEFILE_SCRIPT_MAX, err, sizeof err);
    if (fd < 0 && errno == EISDIR) return sess_error(s, 1, _("%s is a directory, not a script"), argv[1]);
    if (fd < 0) return sess_error(s, 1, "%s", err);
    close(fd);
    if (s->depth >= SESS_MAX_DEPTH)
        return sess_error(s, 1, _("scripts nested more than %d deep (does %s source itself?)"),
                          SESS_MAX_DEPTH, argv[1]);
    /* The script's errors are reported and counted where they happen. */
    enum cmd_status st = repl_run_file(s, argv[1]);
    return st;
}

const struct cmd cmd_core[] = {
    {
        .name = "help",
        .aliases = "?",
        .usage = N_("help [COMMAND]"),
        .help = N_("list the commands, or explain one"),
        .long_help = N_("Without an argument, lists every command with one line about it.\n"
                        "With a command name (or a unique prefix of one), shows its usage and\n"
                        "a longer explanation.\n"),
        .run = cmd_help, .args = CMD_ARGS(0, 1),
        .complete = CMP_COMMAND,
    },
    {
        .name = "source",
        .aliases = ".",
        .usage = N_("source FILE"),
        .help = N_("run the commands in FILE, as if typed"),
        .long_help = N_("Reads FILE line by line and runs each line. Lines may hold several\n"
                        "commands separated by ';'; '#' starts a comment. Errors name the line\n"
                        "(\"line N of FILE\") and the script goes on, unless gpulab was started\n"
                        "with --bail. A quit in the file ends gpulab.\n"),
        .run = cmd_source, .args = CMD_ARGS(1, 1), .screen = 1,
        .complete = CMP_FILE,
    },
    {
        .name = "echo",
        .usage = N_("echo [TEXT...]"),
        .help = N_("print the words given (useful in scripts and lessons)"),
        .run = cmd_echo,
    },
    {
        .name = "quit",
        .aliases = "exit",
        .usage = "quit",
        .help = N_("leave gpulab (Ctrl-D at the prompt does the same)"),
        .run = cmd_quit, .args = CMD_ARGS(0, 0), .screen = 1,
    },
    {0},
};
