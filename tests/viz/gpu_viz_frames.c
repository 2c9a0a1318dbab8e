/* gpu_viz_frames.c - frames drawn from a GPU trace equal the frames drawn
 * from a simulator trace of the same variant and input (label gpu; exit 77
 * when there is no GPU).
 *
 * Every frame of every reduction variant is drawn as plain text at 120x40
 * from both traces and compared. Integers only: float atomics add in
 * whatever order the blocks finish, so their last bits may differ by
 * design. The vector variant's last block (the one that adds the block
 * sums) is whichever finishes last on the GPU, so for it only the frames up
 * to the block sums are compared. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/viz/record.h"
#include "viz/render.h"
#include "viz/term.h"

static char *frame_text(const viz_renderer *r, const lab_trace *t, int f, viz_frame_info *info)
{
    canvas *c = canvas_new(120, 40);
    viz_info_clear(info);
    r->draw(t, f, c, canvas_bounds(c), info);
    viz_text_opts o = {VIZ_TEXT_PLAIN, 0, 0};
    char *s = viz_text_render(c, &o, NULL);
    canvas_free(c);
    return s;
}

int main(void)
{
    if (!lab_gpu_available()) {
        printf("no GPU: skipped\n");
        return 77;
    }
    static const char *const variants[] = {"interleaved", "sequential", "warp-shuffle", "atomic-float",
                                           "vector"};
    static const long long sizes[] = {64, 200, 256};
    int failures = 0, compared = 0;
    for (size_t v = 0; v < sizeof variants / sizeof variants[0]; v++) {
        for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
            lab_trace g, s;
            char err[LAB_ERR_MAX];
            if (viz_test_record("reduce", variants[v], sizes[k], 64, LAB_INT, NULL, LAB_BACKEND_GPU, &g, NULL, err,
                                sizeof err) != 0 ||
                viz_test_record("reduce", variants[v], sizes[k], 64, LAB_INT, NULL, LAB_BACKEND_SIM, &s, NULL, err,
                                sizeof err) != 0) {
                fprintf(stderr, "%s n=%lld: %s\n", variants[v], sizes[k], err);
                failures++;
                continue;
            }
            const viz_renderer *r = viz_renderer_find("reduce", variants[v]);
            int ng = r->frames(&g), ns = r->frames(&s);
            int last = ng < ns ? ng : ns;
            int partial = strcmp(variants[v], "vector") == 0;
            if (ng != ns && !partial) {
                fprintf(stderr, "%s n=%lld: %d frames from the GPU trace, %d from the simulator's\n",
                        variants[v], sizes[k], ng, ns);
                failures++;
            }
            for (int f = 0; f < last; f++) {
                viz_frame_info ig, is;
                char *a = frame_text(r, &g, f, &ig), *b = frame_text(r, &s, f, &is);
                int differ = strcmp(a, b) != 0 || strcmp(ig.caption, is.caption) != 0;
                int stop = partial && (strcmp(is.title, "block sums") == 0 || strcmp(ig.title, "block sums") == 0);
                if (differ && !stop) {
                    fprintf(stderr, "%s n=%lld: frame %d (%s) differs\n--- GPU\n%s--- simulator\n%s",
                            variants[v], sizes[k], f + 1, is.title, a, b);
                    failures++;
                }
                compared++;
                free(a);
                free(b);
                if (stop) break;
            }
            lab_trace_free(&g);
            lab_trace_free(&s);
        }
    }
    printf("%d frames compared, %d differences\n", compared, failures);
    return failures ? 1 : 0;
}
