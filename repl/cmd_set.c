/* cmd_set.c - the set and reset commands over the settings table
 * (repl/settings.c). */
#include <stdio.h>

#include "repl/cmd.h"
#include "kernels/lab.h"
#include "repl/i18n.h"
#include "repl/out.h"
#include "repl/session.h"
#include "repl/settings.h"

/* ------------------------------------------------------------ commands */

static enum cmd_status do_set(struct session *s, int argc, char **argv)
{
    char err[1024];
    if (argc < 2) {
        setting_names(err, sizeof err);
        return sess_error(s, 1, _("set needs KEY VALUE; settings: %s"), err);
    }
    const struct setting *st = setting_find(argv[1], err, sizeof err);
    if (!st) return sess_error(s, 1, "%s", err);
    if (argc < 3) return sess_error(s, 2, _("set %s needs a value: %s"), st->name, _(st->allowed));
    if (argc > 3)
        return sess_error(s, 3, _("set %s takes one value (quote it if it has spaces)"), st->name);
    err[0] = 0;
    if (st->set(s, st, argv[2], err, sizeof err) != 0)
        return sess_error(s, 2, "%s %s: %s", st->name, argv[2], err[0] ? err : _(st->allowed));
    if (s->interactive) {
        char buf[256];
        st->show(s, buf, sizeof buf);
        out_printf("%s = %s\n", st->name, buf);
    }
    return CMD_OK;
}

static void set_more_help(struct session *s)
{
    out_printf(_("Settings:\n"));
    int i = 0, w = setting_name_width();
    for (const struct setting *st; (st = setting_at(i)); i++) {
        char buf[256];
        st->show(s, buf, sizeof buf);
        out_wrapf(2, w + 3, "%-*s %s", w, st->name, _(st->help));
        out_wrapf(w + 3, w + 3, _("allowed: %s; now: %s"), _(st->allowed), buf);
    }
}

static enum cmd_status do_reset(struct session *s, int argc, char **argv)
{
    settings_reset(s);
    if (s->interactive) out_printf(_("settings back to their defaults\n"));
    return CMD_OK;
}

const struct cmd cmd_set[] = {
    {
        .name = "set",
        .usage = N_("set KEY VALUE"),
        .help = N_("change a setting (n, block, grid, dtype, pattern, repeats, backend, ...)"),
        .long_help =
            N_("Sizes are written as people write them: 1000000, 1e6, 64Mi, 4k, 2^26, 1<<26,\n"
               "3*2^20. n, block, grid and dtype are checked against the chosen variant's\n"
               "limits at once (show lists them), so a refused value says what is allowed.\n"
               "Setting names may be shortened to a unique prefix (set rep 10).\n"),
        .run = do_set,
        .complete = CMP_SETTING,
        .more_help = set_more_help,
    },
    {
        .name = "reset",
        .usage = "reset",
        .help = N_("put every setting back to its default (the algorithm stays)"),
        .run = do_reset, .args = CMD_ARGS(0, 0),
    },
    {0},
};
