/* stubs.c - what the fuzz targets' sources call from the rest of gpulab,
 * for the libFuzzer build, which compiles only the code under test (with
 * clang, without the CUDA kernels). The replay build links the real
 * libraries instead. cmd_find knows the real command names, so lesson
 * files take the same paths as in the program. */
#include <stdio.h>
#include <string.h>

#include "repl/cmd.h"
#include "repl/i18n.h"
#include "kernels/lab.h"

static const char *const names[] = {
    "help", "?", "source", ".", "echo", "quit", "exit", "use", "set", "reset", "show", "info",
    "list", "run", "compare", "trace", "animate", "sweep", "export", "occupancy", "lessons",
    "lesson", "next", "back", "again", "answer", "beside", "lecture", NULL,
};

static const struct cmd stub = {.name = "stub"};

const struct cmd *cmd_find(const char *word, char *err, size_t errlen)
{
    for (int i = 0; names[i]; i++)
        if (strcmp(word, names[i]) == 0) return &stub;
    if (err && errlen) snprintf(err, errlen, "unknown command \"%s\"", word);
    return NULL;
}

int lab_gpu_available(void) { return 0; }
const char *lab_backend_name(lab_backend b) { return b == LAB_BACKEND_SIM ? "sim" : "gpu"; }
const char *lab_dtype_name(lab_dtype t) { return t == LAB_INT ? "int" : "float"; }
lab_backend lab_kernel_backend(const lab_config *cfg) { (void)cfg; return LAB_BACKEND_SIM; }
/* no shipped lessons: a fuzzed lesson keeps its progress as any other file */
const char *i18n_lessondir(void) { return ""; }
