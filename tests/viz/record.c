/* record.c - see record.h. */
#include "tests/viz/record.h"

#include <stdio.h>
#include <string.h>

int viz_test_record(const char *algo, const char *variant, long long n, int block, lab_dtype dt,
                    const char *pattern, lab_backend backend, lab_trace *t, lab_result *r, char *err,
                    size_t errlen)
{
    lab_result scratch;
    if (!r) r = &scratch;
    memset(t, 0, sizeof *t);
    const lab_algo *a = lab_algo_find(algo);
    const lab_variant *v = a ? lab_variant_find(a, variant) : NULL;
    if (!v) {
        snprintf(err, errlen, "no variant %s/%s in the registry", algo, variant);
        return -1;
    }
    lab_config cfg;
    lab_config_defaults(&cfg);
    cfg.n = n;
    cfg.block = block;
    cfg.dtype = dt;
    cfg.repeats = 1;
    cfg.backend = backend;
    if (pattern) snprintf(cfg.pattern, sizeof cfg.pattern, "%s", pattern);
    lab_input *in = lab_input_new(a, &cfg, err, errlen);
    if (!in) return -1;
    int rc = lab_run(in, v, r, t);
    lab_input_delete(in);
    if (rc != 0) {
        snprintf(err, errlen, "%s/%s did not run: %s", algo, variant, r->note);
        lab_trace_free(t);
        return -1;
    }
    return 0;
}
