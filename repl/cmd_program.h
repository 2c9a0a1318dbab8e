/* cmd_program.h - a student's own program (cmd_program.c): what run,
 * compare, show, trace and animate do while one is open, and the one
 * builder of the options every run of a student's kernel goes with (the
 * open program, and the puzzles' and lessons' `check`). */
#ifndef GPULAB_CMD_PROGRAM_H
#define GPULAB_CMD_PROGRAM_H

#include "kernels/program/program.h"
#include "repl/cmd.h"

struct session;

/* The options of a run of a student's kernel on backend b, from the
 * session's settings: the time limit (on the GPU 10 times time-limit), the
 * memory limit (3/4 of this machine's), race-check, the GPU model, Ctrl-C.
 * The caller adds what is its own: arguments, -D defines, output callbacks,
 * what to record. */
void program_run_options(const struct session *s, enum prog_mode b, prog_options *o);
/* The time limit a run on b has, in seconds; 0: none. */
double program_time_limit(const struct session *s, enum prog_mode b);

/* A command about the built-in variants (profile, occupancy, suggest,
 * sweep), given no variant while a program is open: it says it cannot act
 * on the program, and what to do instead. CMD_ERROR. */
enum cmd_status program_refuse(struct session *s, const char *cmd);

/* run, compare and show with a program open (their words after the name). */
enum cmd_status program_run(struct session *s, int argc, char **argv);
enum cmd_status program_compare(struct session *s, int argc, char **argv);
enum cmd_status program_show(struct session *s, int argc, char **argv);
/* set schedules N: the seed of the k-th extra schedule, drawn from base */
unsigned long long program_schedule_seed_at(unsigned long long base, int k);
/* How many of runs further schedules of a program may go at once (1: one
 * after the other), from `set sim-threads`, the cores, the sandbox and
 * the first run's largest size (peak_kb; race_checked: its race check was on). */
int program_schedule_jobs(const struct session *s, int runs, long peak_kb, int race_checked);
/* Run the open program on the simulator without showing its output, with
 * every access of the first trace-blocks blocks of each launch recorded
 * (r->acc). 0 when it ran; -1 when it could not, reported (r freed). */
int program_record(struct session *s, int argc, char **argv, prog_result *r);
/* After a recorded run (trace) that did not end by itself: the time limit's
 * message (how far it got, what to do) or Ctrl-C's; nothing otherwise. */
void program_print_stopped(struct session *s, const prog_result *r);
/* Once a session, before a student's program runs: what the sandbox cannot
 * enforce on this machine (or that set sandbox off turned it off), on
 * stderr. */
void program_sandbox_note(struct session *s);

#endif
