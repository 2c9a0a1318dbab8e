/* bitonic_cpu_sort.h - the CPU sorts of bitonic_cpu.c for one key type.
 * Included once per type with KEY (the type) and SFX (a name suffix) defined;
 * every name it makes ends in _SFX. */
#define CAT2(a, b) a##_##b
#define CAT(a, b) CAT2(a, b)
#define FN(name) CAT(name, SFX)

/* The lecture's sequential code, as written there: every i1 is visited and
 * the test i2 > i1 skips the half whose pair was already handled. */
static void FN(net_sort)(KEY *a, long long n)
{
    for (long long k = 2; k <= n; k <<= 1)
        for (long long j = k / 2; j > 0; j >>= 1)
            for (long long i1 = 0; i1 < n; i1++) {
                long long i2 = i1 ^ j;
                long long dec = i1 & k;
                if (i2 > i1)
                    if ((dec == 0 && a[i1] > a[i2]) || (dec != 0 && a[i1] < a[i2])) {
                        KEY t = a[i1];
                        a[i1] = a[i2];
                        a[i2] = t;
                    }
            }
}

static int FN(cmp)(const void *x, const void *y)
{
    KEY a = *(const KEY *)x, b = *(const KEY *)y;
    return (a > b) - (a < b);
}

static void FN(insertion)(KEY *a, long long n)
{
    for (long long i = 1; i < n; i++) {
        KEY v = a[i];
        long long j = i;
        while (j > 0 && a[j - 1] > v) {
            a[j] = a[j - 1];
            j--;
        }
        a[j] = v;
    }
}

static void FN(sift)(KEY *a, long long root, long long n)
{
    for (;;) {
        long long c = 2 * root + 1;
        if (c >= n) return;
        if (c + 1 < n && a[c + 1] > a[c]) c++;
        if (!(a[c] > a[root])) return;
        KEY t = a[c];
        a[c] = a[root];
        a[root] = t;
        root = c;
    }
}

static void FN(heapsort)(KEY *a, long long n)
{
    for (long long i = n / 2 - 1; i >= 0; i--) FN(sift)(a, i, n);
    for (long long e = n - 1; e > 0; e--) {
        KEY t = a[0];
        a[0] = a[e];
        a[e] = t;
        FN(sift)(a, 0, e);
    }
}

static KEY FN(median3)(KEY a, KEY b, KEY c)
{
    if (a > b) { KEY t = a; a = b; b = t; }
    if (b > c) b = c;
    return a > b ? a : b;
}

/* Quicksort with three-way partitioning (runs of equal keys, as in the
 * pattern "few", are done in one pass), a median-of-three pivot (sorted and
 * reversed inputs split evenly), insertion sort for short ranges and heapsort
 * when the recursion gets too deep: n log n whatever the input. */
static void FN(quick)(KEY *a, long long n, int depth)
{
    while (n > 24) {
        if (depth-- <= 0) {
            FN(heapsort)(a, n);
            return;
        }
        KEY p = FN(median3)(a[0], a[n / 2], a[n - 1]);
        long long lt = 0, i = 0, gt = n;
        while (i < gt) {
            if (a[i] < p) {
                KEY t = a[lt]; a[lt] = a[i]; a[i] = t;
                lt++, i++;
            } else if (a[i] > p) {
                gt--;
                KEY t = a[gt]; a[gt] = a[i]; a[i] = t;
            } else {
                i++;
            }
        }
        /* [0, lt) < p, [lt, gt) == p, [gt, n) > p: recurse into the smaller side */
        if (lt < n - gt) {
            FN(quick)(a, lt, depth);
            a += gt;
            n -= gt;
        } else {
            FN(quick)(a + gt, n - gt, depth);
            n = lt;
        }
    }
    FN(insertion)(a, n);
}

/* Merge path: how many of the first d keys of the merge of A and B come from
 * A (equal keys: A's first). */
static long long FN(split)(const KEY *A, long long na, const KEY *B, long long nb, long long d)
{
    long long lo = d > nb ? d - nb : 0, hi = d < na ? d : na;
    while (lo < hi) {
        long long m = lo + (hi - lo) / 2;
        if (A[m] <= B[d - m - 1]) lo = m + 1;
        else hi = m;
    }
    return lo;
}

/* Keys d0 .. d1-1 of the merge of A and B into out[d0 .. d1). */
static void FN(merge_part)(const KEY *A, long long na, const KEY *B, long long nb, KEY *out,
                           long long d0, long long d1)
{
    long long i = FN(split)(A, na, B, nb, d0), j = d0 - i;
    for (long long d = d0; d < d1; d++) {
        if (j >= nb || (i < na && A[i] <= B[j])) out[d] = A[i++];
        else out[d] = B[j++];
    }
}

/* The OpenMP sort: every thread sorts one run, then rounds of pairwise
 * merges. A round with fewer pairs than threads cuts each merge into equal
 * parts along the merge path, so all threads work in every round, the last
 * one too. tmp holds n keys. */
static void FN(omp_sort)(KEY *a, KEY *tmp, long long n)
{
    int threads = omp_get_max_threads();
    long long runs = threads;
    if (runs > n / 4096) runs = n / 4096;
    if (runs < 1) runs = 1;
    long long w = lab_ceil_div(n, runs);
    int depth = 2 * (int)(log2((double)(w > 1 ? w : 2)) + 1);
#pragma omp parallel for schedule(static) if (runs > 1)
    for (long long r = 0; r < runs; r++) {
        long long lo = r * w, hi = lo + w < n ? lo + w : n;
        if (lo < hi) FN(quick)(a + lo, hi - lo, depth);
    }
    KEY *src = a, *dst = tmp;
    for (; w < n; w *= 2) {
        long long pairs = lab_ceil_div(n, 2 * w);
        long long parts = lab_ceil_div(2LL * threads, pairs);
        long long tasks = pairs * parts;
#pragma omp parallel for schedule(dynamic, 1)
        for (long long t = 0; t < tasks; t++) {
            long long pr = t / parts, q = t % parts;
            long long lo = pr * 2 * w;
            long long mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            long long len = hi - lo;
            FN(merge_part)(src + lo, mid - lo, src + mid, hi - mid, dst + lo, len * q / parts,
                           len * (q + 1) / parts);
        }
        KEY *s = src;
        src = dst;
        dst = s;
    }
    if (src != a) memcpy(a, src, sizeof(KEY) * (size_t)n);
}

#undef FN
#undef CAT
#undef CAT2
