/* replay.c - a fuzz target without libFuzzer: runs LLVMFuzzerTestOneInput
 * on every file of the folders given (the seed corpus and the inputs that
 * once crashed), so the normal and sanitizer builds test them with every
 * `make test`. Exits 1 when a folder is missing or empty. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return -1;
    }
    size_t cap = 1 << 16, len = 0, r;
    unsigned char *buf = malloc(cap);
    while (buf && (r = fread(buf + len, 1, cap - len, f)) > 0) {
        len += r;
        if (len == cap) buf = realloc(buf, cap *= 2);
    }
    fclose(f);
    if (!buf) return -1;
    LLVMFuzzerTestOneInput(buf, len);
    free(buf);
    return 0;
}

int main(int argc, char **argv)
{
    int files = 0, bad = 0;
    for (int i = 1; i < argc; i++) {
        DIR *d = opendir(argv[i]);
        if (!d) {
            perror(argv[i]);
            bad = 1;
            continue;
        }
        struct dirent *e;
        int here = 0;
        while ((e = readdir(d))) {
            if (e->d_name[0] == '.') continue;
            char p[4096];
            snprintf(p, sizeof p, "%s/%s", argv[i], e->d_name);
            if (run_file(p) != 0) bad = 1;
            here++;
        }
        closedir(d);
        if (!here) {
            fprintf(stderr, "%s: no inputs\n", argv[i]);
            bad = 1;
        }
        files += here;
    }
    printf("%d inputs replayed\n", files);
    return bad;
}
