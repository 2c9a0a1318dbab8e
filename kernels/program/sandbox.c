/* sandbox.c - a student's build or program confined (see sandbox.h).
 *
 * The processes, with namespaces:
 *
 *   gpulab --fork--> outer --unshare(user, mount, pid, net, ipc, uts)
 *                      |    --fork--> init (PID 1 of the new namespace):
 *                      |              builds the root, --fork--> the program
 *                      waits
 *
 * Every one of them has PR_SET_PDEATHSIG = SIGKILL: gpulab ending for any
 * reason ends the outer process, that ends init, and the kernel ends every
 * process of a PID namespace whose init has ended. init writes how the
 * program ended on a pipe only gpulab reads, then ends, so nothing the
 * program started outlives it. gpulab stops it all by killing the outer
 * process.
 *
 * Without namespaces (the kernel or a container refuses them) the outer
 * process is a child subreaper: every orphan of the program becomes its
 * child, and it kills them all when the program ends or on SIGTERM. */
#define _GNU_SOURCE
#include "kernels/program/sandbox.h"
#include "kernels/program/program.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <seccomp.h>

#ifndef MOUNT_ATTR_RDONLY
#  define MOUNT_ATTR_RDONLY 0x00000001
#  define MOUNT_ATTR_NOSUID 0x00000002
#  define MOUNT_ATTR_NODEV 0x00000004
struct mount_attr {
    unsigned long long attr_set, attr_clr, propagation, userns_fd;
};
#endif
#ifndef AT_RECURSIVE
#  define AT_RECURSIVE 0x8000
#endif
#ifndef SYS_mount_setattr
#  define SYS_mount_setattr 442
#endif
#ifndef CLOSE_RANGE_CLOEXEC
#  define CLOSE_RANGE_CLOEXEC (1U << 2)
#endif
#ifndef SYS_close_range
#  define SYS_close_range 436
#endif

#define SBX_ROOT_NPROC 512 /* = PROG_NPROC: each slot's cgroup is one for every run in it */
#define NS_FLAGS (CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWIPC | CLONE_NEWUTS)

static int g_enabled = 1;
/* the outer processes of the runs under way, one a slot (0: a free slot) */
static volatile pid_t g_current[SBX_SLOTS];
static volatile int g_current_isolated[SBX_SLOTS];

void sbx_set_enabled(int on) { g_enabled = on; }
int sbx_enabled(void) { return g_enabled; }

/* ------------------------------------------------------------ reporting */

/* A line on the status pipe: "error TEXT", "exit N", "signal N". Only
 * write(2): this runs in children of a possibly multithreaded process. */
static void say(int fd, const char *fmt, ...)
{
    char buf[300];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf - 1, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    if (n > (int)sizeof buf - 2) n = (int)sizeof buf - 2;
    buf[n++] = '\n';
    ssize_t w = write(fd, buf, (size_t)n);
    (void)w;
}

static void fail(int fd, const char *what, const char *path)
{
    say(fd, "error %s%s%s: %s", what, path ? " " : "", path ? path : "", strerror(errno));
    _exit(126);
}

/* ------------------------------------------------------------- seccomp */

static void rule(scmp_filter_ctx c, uint32_t act, const char *name, unsigned n, const struct scmp_arg_cmp *a)
{
    int nr = seccomp_syscall_resolve_name(name);
    if (nr == __NR_SCMP_ERROR) return; /* not on this architecture */
    seccomp_rule_add_array(c, act, nr, n, a);
}

/* The filter: everything is allowed but what reaches beyond the program
 * (network, other processes' memory, mounts, the kernel's keyring, BPF,
 * io_uring, which seccomp cannot see into, new namespaces) and typing into
 * a terminal. Without namespaces it also protects gpulab and this sandbox's
 * own process from signals. 0 loaded; -1 with errno. */
static int load_filter(int isolated, pid_t protect1, pid_t protect2)
{
    scmp_filter_ctx c = seccomp_init(SCMP_ACT_ALLOW);
    if (!c) return -1;
    const uint32_t kill = SCMP_ACT_KILL_PROCESS;
    static const char *const banned[] = {
        "ptrace", "process_vm_readv", "process_vm_writev", "mount", "umount2", "pivot_root", "chroot",
        "move_mount", "open_tree", "fsopen", "fsconfig", "fsmount", "fspick", "mount_setattr", "unshare",
        "setns", "keyctl", "add_key", "request_key", "bpf", "userfaultfd", "io_uring_setup",
        "io_uring_enter", "io_uring_register", "kexec_load", "kexec_file_load", "init_module",
        "finit_module", "delete_module", "reboot", "swapon", "swapoff", "syslog", "acct", "quotactl",
        "open_by_handle_at", "name_to_handle_at", "iopl", "ioperm", "fanotify_init", "perf_event_open",
        NULL};
    for (int i = 0; banned[i]; i++) rule(c, kill, banned[i], 0, NULL);
    static const int families[] = {AF_INET, AF_INET6, AF_PACKET, 40 /* AF_VSOCK */, 31 /* AF_BLUETOOTH */,
                                   44 /* AF_XDP */};
    for (size_t i = 0; i < sizeof families / sizeof families[0]; i++) {
        struct scmp_arg_cmp a = SCMP_A0(SCMP_CMP_EQ, (scmp_datum_t)families[i]);
        rule(c, kill, "socket", 1, &a);
    }
    static const unsigned long nsbits[] = {CLONE_NEWUSER, CLONE_NEWNS,  CLONE_NEWPID,   CLONE_NEWNET,
                                           CLONE_NEWIPC,  CLONE_NEWUTS, CLONE_NEWCGROUP};
    for (size_t i = 0; i < sizeof nsbits / sizeof nsbits[0]; i++) {
        struct scmp_arg_cmp a = SCMP_A0(SCMP_CMP_MASKED_EQ, nsbits[i], nsbits[i]);
        rule(c, kill, "clone", 1, &a);
    }
    /* clone3's flags are in memory seccomp cannot read: "not here", and
     * the C library falls back to clone */
    rule(c, SCMP_ACT_ERRNO(ENOSYS), "clone3", 0, NULL);
    static const unsigned long ioctls[] = {TIOCSTI, TIOCLINUX};
    for (size_t i = 0; i < 2; i++) {
        struct scmp_arg_cmp a = SCMP_A1(SCMP_CMP_MASKED_EQ, 0xffffffffu, ioctls[i]);
        rule(c, kill, "ioctl", 1, &a);
    }
    if (!isolated) {
        /* no PID namespace: the program could see gpulab and this sandbox */
        static const char *const sig[] = {"kill", "tkill", "tgkill", "rt_sigqueueinfo", "rt_tgsigqueueinfo",
                                          "pidfd_open", NULL};
        for (int i = 0; sig[i]; i++) {
            struct scmp_arg_cmp neg = SCMP_A0(SCMP_CMP_MASKED_EQ, 0x80000000u, 0x80000000u);
            struct scmp_arg_cmp p1 = SCMP_A0(SCMP_CMP_MASKED_EQ, 0xffffffffu, (uint32_t)protect1);
            struct scmp_arg_cmp p2 = SCMP_A0(SCMP_CMP_MASKED_EQ, 0xffffffffu, (uint32_t)protect2);
            rule(c, kill, sig[i], 1, &neg);
            rule(c, kill, sig[i], 1, &p1);
            rule(c, kill, sig[i], 1, &p2);
        }
    }
    int rc = seccomp_load(c);
    seccomp_release(c);
    if (rc != 0) {
        errno = -rc;
        return -1;
    }
    return 0;
}

/* ----------------------------------------------------------------- probe */

static int g_probed, g_ns_ok, g_seccomp_ok;
static char g_why[256];

static int write_text(const char *path, const char *text)
{
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    ssize_t n = write(fd, text, strlen(text));
    int e = errno;
    close(fd);
    errno = e;
    return n == (ssize_t)strlen(text) ? 0 : -1;
}

/* The user and group inside: the same numbers, but for root, who becomes
 * "nobody" inside, so that exec drops every capability. */
static int map_ids(uid_t uid, gid_t gid)
{
    char m[64];
    snprintf(m, sizeof m, "%u %u 1\n", uid == 0 ? 65534u : (unsigned)uid, (unsigned)uid);
    if (write_text("/proc/self/uid_map", m) != 0) return -1;
    if (write_text("/proc/self/setgroups", "deny\n") != 0 && errno != ENOENT) return -1;
    snprintf(m, sizeof m, "%u %u 1\n", gid == 0 ? 65534u : (unsigned)gid, (unsigned)gid);
    return write_text("/proc/self/gid_map", m);
}

/* A child tries what a run needs; its exit status names the first step
 * that failed (the errno comes back on the pipe). */
static void probe(void)
{
    g_probed = 1;
    int pfd[2];
    if (pipe2(pfd, O_CLOEXEC) != 0) {
        snprintf(g_why, sizeof g_why, "cannot make a pipe: %s", strerror(errno));
        return;
    }
    uid_t uid = getuid();
    gid_t gid = getgid();
    pid_t pid = fork();
    if (pid == 0) {
        close(pfd[0]);
        int step = 1;
        if (unshare(NS_FLAGS) != 0) goto bad;
        step = 2;
        if (map_ids(uid, gid) != 0) goto bad;
        step = 3;
        if (mount(NULL, "/", NULL, MS_REC | MS_SLAVE, NULL) != 0 ||
            mount("tmpfs", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, "size=64k") != 0)
            goto bad;
        pid_t c = fork();
        if (c == 0) {
            step = 4;
            if (mkdir("/tmp/p", 0755) != 0 || mount("proc", "/tmp/p", "proc", MS_NOSUID | MS_NODEV, NULL) != 0)
                goto bad;
            step = 5;
            if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 || load_filter(1, 0, 0) != 0) goto bad;
            _exit(0);
        }
        int st = 0;
        while (c > 0 && waitpid(c, &st, 0) < 0 && errno == EINTR) {}
        _exit(c > 0 && WIFEXITED(st) ? WEXITSTATUS(st) : 9);
    bad:;
        int e = errno;
        ssize_t w = write(pfd[1], &e, sizeof e);
        (void)w;
        _exit(step);
    }
    close(pfd[1]);
    int st = 0, e = 0;
    if (pid > 0) {
        while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {}
        if (read(pfd[0], &e, sizeof e) != sizeof e) e = 0;
    }
    close(pfd[0]);
    int step = pid < 0 ? 9 : WIFEXITED(st) ? WEXITSTATUS(st) : 9;
    static const char *const what[] = {"",
                                       "the kernel refuses new namespaces (unshare)",
                                       "the kernel refuses to map the user into a user namespace",
                                       "the kernel refuses mounts in a new mount namespace",
                                       "the kernel refuses a /proc of the program's own",
                                       "the kernel refuses a seccomp filter"};
    if (step == 0) {
        g_ns_ok = g_seccomp_ok = 1;
        return;
    }
    if (step == 5) {
        g_ns_ok = 1;
    } else {
        /* is seccomp there without namespaces? */
        pid_t c = fork();
        if (c == 0) _exit(prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 && load_filter(0, 1, 1) == 0 ? 0 : 1);
        int s2 = 1;
        while (c > 0 && waitpid(c, &s2, 0) < 0 && errno == EINTR) {}
        g_seccomp_ok = c > 0 && WIFEXITED(s2) && WEXITSTATUS(s2) == 0;
    }
    snprintf(g_why, sizeof g_why, "%s%s%s", step < 6 ? what[step] : "the namespace test failed",
             e ? ": " : "", e ? strerror(e) : "");
}


/* ------------------------------------------------------- process limit */

/* RLIMIT_NPROC does not count for a process whose user is root outside its
 * namespaces (the kernel exempts root's own user). For root gpulab uses a
 * pids cgroup of its own instead, made once beside its own cgroup (v1's
 * pids hierarchy or v2's) and removed at exit; none where the cgroup file
 * system is read-only (most containers): then sbx_state's why says so. */
static char g_cg[PATH_MAX];     /* the cgroup's folder, "" when there is none */
static int g_cg_tried;
static char g_cg_why[160];
/* the cgroups of slots 1.. (runs at once), beside g_cg: g_cg.N, made when
 * first needed, with g_cg's limit, so that runs at once do not share one */
static char g_cg_slot_made[SBX_SLOTS];
static int g_cg_nproc;

static void cg_slot_path(int slot, char *buf, size_t len)
{
    if (slot == 0) snprintf(buf, len, "%s", g_cg);
    else snprintf(buf, len, "%.4000s.%d", g_cg, slot);
}

static void cg_remove(void)
{
    if (!g_cg[0]) return;
    for (int i = 1; i < SBX_SLOTS; i++) {
        char p[PATH_MAX + 16];
        cg_slot_path(i, p, sizeof p);
        if (g_cg_slot_made[i]) rmdir(p);
    }
    rmdir(g_cg);
}

static int cg_write(const char *dir, const char *file, const char *text)
{
    char p[PATH_MAX + 64];
    snprintf(p, sizeof p, "%s/%s", dir, file);
    return write_text(p, text);
}

static void cg_make(int nproc)
{
    g_cg_tried = 1;
    FILE *m = fopen("/proc/self/mountinfo", "re");
    char line[1024], v1[PATH_MAX] = "", v2[PATH_MAX] = "";
    while (m && fgets(line, sizeof line, m)) {
        char mnt[PATH_MAX];
        /* id parent maj:min root MOUNTPOINT opts ... - FSTYPE SOURCE SUPEROPTS */
        if (sscanf(line, "%*s %*s %*s %*s %1023s", mnt) != 1) continue;
        const char *dash = strstr(line, " - ");
        if (!dash) continue;
        if (!strncmp(dash + 3, "cgroup ", 7) && strstr(dash, "pids")) snprintf(v1, sizeof v1, "%s", mnt);
        else if (!strncmp(dash + 3, "cgroup2 ", 8) && !v2[0]) snprintf(v2, sizeof v2, "%s", mnt);
    }
    if (m) fclose(m);
    FILE *c = fopen("/proc/self/cgroup", "re");
    char own1[PATH_MAX] = "", own2[PATH_MAX] = "";
    while (c && fgets(line, sizeof line, c)) {
        line[strcspn(line, "\n")] = 0;
        char *a = strchr(line, ':'), *b = a ? strchr(a + 1, ':') : NULL;
        if (!b) continue;
        *b = 0;
        if (!strcmp(a + 1, "pids")) snprintf(own1, sizeof own1, "%s", b + 1);
        else if (a[1] == 0) snprintf(own2, sizeof own2, "%s", b + 1);
    }
    if (c) fclose(c);
    char num[32];
    snprintf(num, sizeof num, "%d\n", nproc);
    const char *mnt[2] = {v1, v2}, *own[2] = {own1, own2};
    for (int i = 0; i < 2; i++) {
        if (!mnt[i][0] || !own[i][0]) continue;
        char parent[PATH_MAX];
        snprintf(parent, sizeof parent, "%s%s", mnt[i], strcmp(own[i], "/") ? own[i] : "");
        if (i == 1) cg_write(parent, "cgroup.subtree_control", "+pids\n"); /* may be refused: then no pids.max */
        snprintf(g_cg, sizeof g_cg, "%.3900s/gpulab-%d", parent, (int)getpid());
        if (mkdir(g_cg, 0700) != 0 && errno != EEXIST) {
            g_cg[0] = 0;
            continue;
        }
        if (cg_write(g_cg, "pids.max", num) == 0) {
            g_cg_nproc = nproc;
            atexit(cg_remove);
            return;
        }
        rmdir(g_cg);
        g_cg[0] = 0;
    }
    snprintf(g_cg_why, sizeof g_cg_why, "no pids cgroup could be made (the cgroup file system is not writable)");
}

/* The cgroup of a slot's runs, made for slots past the first when first
 * used: 0 with its path in buf ("" without cgroups), -1 when it cannot be made. */
static int cg_slot(int slot, char *buf, size_t len)
{
    buf[0] = 0;
    if (!g_cg[0]) return 0;
    cg_slot_path(slot, buf, len);
    if (slot == 0 || g_cg_slot_made[slot]) return 0;
    char num[32];
    snprintf(num, sizeof num, "%d\n", g_cg_nproc);
    if ((mkdir(buf, 0700) != 0 && errno != EEXIST) || cg_write(buf, "pids.max", num) != 0) {
        rmdir(buf);
        return -1;
    }
    g_cg_slot_made[slot] = 1;
    return 0;
}

int sbx_state(char *why, size_t len)
{
    if (!g_probed) probe();
    if (!g_cg_tried && getuid() == 0) cg_make(SBX_ROOT_NPROC);
    if (why && len) {
        snprintf(why, len, "%s", g_why);
        if (g_cg_why[0])
            snprintf(why + strlen(why), len - strlen(why), "%sno process limit for root: %s", g_why[0] ? "; " : "",
                     g_cg_why);
    }
    return g_ns_ok && g_seccomp_ok && !g_cg_why[0];
}

/* ------------------------------------------------------------- the root */

/* mkdir -p, each folder 0755; ok when it is there */
static int mkdirs(const char *path)
{
    char buf[PATH_MAX];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/') continue;
        *p = 0;
        if (mkdir(buf, 0755) != 0 && errno != EEXIST) return -1;
        *p = '/';
    }
    return mkdir(buf, 0755) != 0 && errno != EEXIST ? -1 : 0;
}

/* Read-only (and without set-user-ID or devices) from path down. */
static int make_ro(const char *path, int recursive, int nodev)
{
    struct mount_attr a;
    memset(&a, 0, sizeof a);
    a.attr_set = MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | (nodev ? MOUNT_ATTR_NODEV : 0);
    if (syscall(SYS_mount_setattr, AT_FDCWD, path, recursive ? AT_RECURSIVE : 0, &a, sizeof a) == 0) return 0;
    if (errno != ENOSYS) return -1;
    /* before Linux 5.12: the top mount only, keeping the flags it has */
    struct statvfs v;
    unsigned long fl = MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | (nodev ? MS_NODEV : 0);
    if (statvfs(path, &v) == 0) {
        if (v.f_flag & ST_NODEV) fl |= MS_NODEV;
        if (v.f_flag & ST_NOEXEC) fl |= MS_NOEXEC;
        if (v.f_flag & ST_NOATIME) fl |= MS_NOATIME;
        if (v.f_flag & ST_NODIRATIME) fl |= MS_NODIRATIME;
        if (v.f_flag & ST_RELATIME) fl |= MS_RELATIME;
    }
    return mount(NULL, path, NULL, fl, NULL);
}

/* Bind the host's src (an O_PATH descriptor) at root+dst. */
static void bind_fd(int sfd, int fd, const char *root, const char *dst, int ro, int nodev)
{
    char where[PATH_MAX], from[64];
    struct stat st;
    if (fstat(fd, &st) != 0) fail(sfd, "cannot look at", dst);
    snprintf(where, sizeof where, "%s%s", root, dst);
    if (S_ISDIR(st.st_mode)) {
        if (mkdirs(where) != 0) fail(sfd, "cannot make", dst);
    } else {
        char *sl = strrchr(where, '/');
        *sl = 0;
        if (mkdirs(where) != 0) fail(sfd, "cannot make", dst);
        *sl = '/';
        int f = open(where, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
        if (f < 0 && errno != EEXIST && errno != EROFS) fail(sfd, "cannot make", dst);
        if (f >= 0) close(f);
    }
    snprintf(from, sizeof from, "/proc/self/fd/%d", fd);
    if (mount(from, where, NULL, MS_BIND | MS_REC, NULL) != 0) fail(sfd, "cannot show", dst);
    if (ro && make_ro(where, 1, nodev) != 0) fail(sfd, "cannot make read-only", dst);
}

static void bind_path(int sfd, const char *root, const char *src, const char *dst, int ro, int nodev, int need)
{
    int fd = open(src, O_PATH | O_CLOEXEC);
    if (fd < 0) {
        if (!need && (errno == ENOENT || errno == EACCES || errno == ENOTDIR)) return;
        fail(sfd, "cannot open", src);
    }
    bind_fd(sfd, fd, root, dst, ro, nodev);
    close(fd);
}

static void mount_tmpfs(int sfd, const char *where, const char *mode, long long size)
{
    char opt[96];
    if (size > 0) snprintf(opt, sizeof opt, "mode=%s,size=%lld", mode, size);
    else snprintf(opt, sizeof opt, "mode=%s", mode);
    if (mkdirs(where) != 0 || mount("tmpfs", where, "tmpfs", MS_NOSUID | MS_NODEV, opt) != 0)
        fail(sfd, "cannot make a private folder at", where);
}

/* The GPU's device files (/dev/nvidia0, nvidiactl, nvidia-uvm, the
 * nvidia-caps folder, ...): their paths in d, their count. */
#define GPU_DEVS 64
static int gpu_devices(char d[GPU_DEVS][300])
{
    int n = 0;
    DIR *dd = opendir("/dev");
    struct dirent *e;
    while (dd && n < GPU_DEVS && (e = readdir(dd)))
        if (strncmp(e->d_name, "nvidia", 6) == 0) snprintf(d[n++], 300, "/dev/%s", e->d_name);
    if (dd) closedir(dd);
    return n;
}

/* Is path one of the folders the sandbox makes itself? */
static int managed(const char *path)
{
    static const char *const own[] = {"/", "/tmp", "/usr", "/dev", "/proc", "/sys", "/etc", NULL};
    for (int i = 0; own[i]; i++)
        if (!strcmp(path, own[i])) return 1;
    return !strncmp(path, "/proc/", 6) || !strncmp(path, "/dev/", 5) || !strncmp(path, "/sys/", 5);
}

/* Does the working folder's entry name lead to a path bound below it (the
 * build in $HOME/.cache when the program is in $HOME)? */
static int holds_bind(const sbx_spec *sp, const char *name)
{
    size_t wl = strlen(sp->workdir), nl = strlen(name);
    for (int i = 0; i < sp->nro + sp->nrw; i++) {
        const char *p = i < sp->nro ? sp->ro[i] : sp->rw[i - sp->nro];
        if (!strncmp(p, sp->workdir, wl) && p[wl] == '/' && !strncmp(p + wl + 1, name, nl) &&
            (p[wl + 1 + nl] == '/' || p[wl + 1 + nl] == 0))
            return 1;
    }
    return 0;
}

/* The program's root, made in a tmpfs at R and then entered. */
static void build_root(int sfd, const sbx_spec *sp)
{
    static const char R[] = "/tmp";
    char p[PATH_MAX];
    /* every source opened before the tmpfs hides /tmp: binds come from these */
    int ro_fd[SBX_MAX_PATHS], rw_fd[4], work_fd = -1;
    for (int i = 0; i < sp->nro; i++) {
        ro_fd[i] = open(sp->ro[i], O_PATH | O_CLOEXEC);
        if (ro_fd[i] < 0) fail(sfd, "cannot open", sp->ro[i]);
    }
    for (int i = 0; i < sp->nrw; i++) {
        rw_fd[i] = open(sp->rw[i], O_PATH | O_CLOEXEC);
        if (rw_fd[i] < 0) fail(sfd, "cannot open", sp->rw[i]);
    }
    if (sp->workdir && (work_fd = open(sp->workdir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
        fail(sfd, "cannot open", sp->workdir);

    if (mount(NULL, "/", NULL, MS_REC | MS_SLAVE, NULL) != 0) fail(sfd, "cannot make the mounts private", NULL);
    if (mount("tmpfs", R, "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755,size=1m") != 0)
        fail(sfd, "cannot make the root", NULL);

    /* the system: /usr and the top-level links or folders into it */
    static const char *const top[] = {"usr", "bin", "sbin", "lib", "lib32", "lib64", "libx32", NULL};
    for (int i = 0; top[i]; i++) {
        char host[64], link[PATH_MAX];
        snprintf(host, sizeof host, "/%s", top[i]);
        ssize_t n = readlink(host, link, sizeof link - 1);
        if (n > 0) {
            link[n] = 0;
            snprintf(p, sizeof p, "%s/%s", R, top[i]);
            if (symlink(link, p) != 0) fail(sfd, "cannot make", host);
        } else {
            bind_path(sfd, R, host, host, 1, 1, 0);
        }
    }
    /* of /etc only what the loader and the compilers read */
    static const char *const etc[] = {"/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d",
                                      "/etc/alternatives", "/etc/localtime", NULL};
    for (int i = 0; etc[i]; i++) bind_path(sfd, R, etc[i], etc[i], 1, 1, 0);

    /* /dev: the harmless devices, and the GPU's */
    snprintf(p, sizeof p, "%s/dev", R);
    mount_tmpfs(sfd, p, "0755", 1 << 16);
    static const char *const dev[] = {"null", "zero", "full", "random", "urandom", NULL};
    for (int i = 0; dev[i]; i++) {
        char d[32];
        snprintf(d, sizeof d, "/dev/%s", dev[i]);
        bind_path(sfd, R, d, d, 0, 0, 0);
    }
    if (sp->gpu) {
        char gd[GPU_DEVS][300];
        for (int i = 0, n = gpu_devices(gd); i < n; i++) bind_path(sfd, R, gd[i], gd[i], 0, 0, 0);
        bind_path(sfd, R, "/sys", "/sys", 1, 1, 0);
    }
    static const char *const links[][2] = {{"/proc/self/fd", "fd"},     {"/proc/self/fd/0", "stdin"},
                                           {"/proc/self/fd/1", "stdout"}, {"/proc/self/fd/2", "stderr"}};
    for (int i = 0; i < 4; i++) {
        snprintf(p, sizeof p, "%s/dev/%s", R, links[i][1]);
        if (symlink(links[i][0], p) != 0) fail(sfd, "cannot make", p);
    }
    snprintf(p, sizeof p, "%s/dev/shm", R);
    mount_tmpfs(sfd, p, "1777", sp->tmp_size);

    /* its own /proc (this process is PID 1 of the namespace) */
    snprintf(p, sizeof p, "%s/proc", R);
    if (mkdirs(p) != 0 || mount("proc", p, "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) != 0)
        fail(sfd, "cannot mount /proc", NULL);
    snprintf(p, sizeof p, "%s/tmp", R);
    mount_tmpfs(sfd, p, "1777", sp->tmp_size);

    if (work_fd >= 0) {
        /* the folder read-only out of the way, and a private writable one
         * in its place whose entries lead to it */
        static const char hidden[] = "/.program";
        bind_fd(sfd, work_fd, R, hidden, 1, 1);
        snprintf(p, sizeof p, "%s%s", R, sp->workdir);
        mount_tmpfs(sfd, p, "0755", sp->tmp_size);
        int dfd = dup(work_fd);
        DIR *d = dfd >= 0 ? fdopendir(dfd) : NULL;
        struct dirent *e;
        int n = 0;
        while (d && (e = readdir(d)) && n < 4096) {
            if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
            if (holds_bind(sp, e->d_name)) continue; /* a real folder, made for the bind below */
            char to[PATH_MAX], at[PATH_MAX * 2];
            snprintf(to, sizeof to, "%s/%s", hidden, e->d_name);
            snprintf(at, sizeof at, "%s/%s", p, e->d_name);
            if (symlink(to, at) == 0) n++;
        }
        if (d) closedir(d);
    }
    /* after the working folder, which may hold them ($HOME and its cache);
     * never over what the root is made of (a program in /tmp itself) */
    for (int i = 0; i < sp->nro; i++)
        if (!managed(sp->ro[i])) bind_fd(sfd, ro_fd[i], R, sp->ro[i], 1, 1);
    for (int i = 0; i < sp->nrw; i++)
        if (!managed(sp->rw[i])) bind_fd(sfd, rw_fd[i], R, sp->rw[i], 0, 1);
    if (sethostname("gpulab", 6) != 0) { /* the UTS namespace is the program's: harmless either way */
    }
    /* enter it: the old root goes, the new one is read-only */
    if (chdir(R) != 0 || syscall(SYS_pivot_root, ".", ".") != 0 || umount2(".", MNT_DETACH) != 0 || chdir("/") != 0)
        fail(sfd, "cannot enter the new root", NULL);
    if (make_ro("/", 0, 1) != 0 || make_ro("/dev", 0, 0) != 0) fail(sfd, "cannot make the root read-only", NULL);
    for (int i = 0; i < sp->nro; i++) close(ro_fd[i]);
    for (int i = 0; i < sp->nrw; i++) close(rw_fd[i]);
    if (work_fd >= 0) close(work_fd);
}

/* -------------------------------------------------------------- Landlock */

/* Without namespaces the file system is confined by Landlock where the
 * kernel has it: the program reads the system's folders, its build and its
 * own folder, and writes only /tmp, /dev/shm and what spec->rw names; with
 * ABI 6 it can signal no process outside its domain (gpulab, the user's).
 * The ABI's fields and rights are spelt out here: the C library's headers
 * may be older than the kernel. */
#define LL_EXEC (1ULL << 0)
#define LL_WRITE (1ULL << 1)
#define LL_READ (1ULL << 2)
#define LL_READ_DIR (1ULL << 3)
#define LL_TRUNCATE (1ULL << 14)
#define LL_IOCTL_DEV (1ULL << 15)
#define LL_FILE_RIGHTS (LL_EXEC | LL_WRITE | LL_READ | LL_TRUNCATE | LL_IOCTL_DEV)
#define LL_SCOPE_ABSTRACT_UNIX (1ULL << 0)
#define LL_SCOPE_SIGNAL (1ULL << 1)
#ifndef SYS_landlock_create_ruleset
#  define SYS_landlock_create_ruleset 444
#  define SYS_landlock_add_rule 445
#  define SYS_landlock_restrict_self 446
#endif

static int ll_abi(void)
{
    long v = syscall(SYS_landlock_create_ruleset, NULL, 0, 1UL /* LANDLOCK_CREATE_RULESET_VERSION */);
    return v > 0 ? (int)v : 0;
}

static void ll_allow(int rs, const char *path, unsigned long long rights, unsigned long long handled)
{
    struct {
        unsigned long long allowed_access;
        int parent_fd;
    } __attribute__((packed)) pb;
    int fd = open(path, O_PATH | O_CLOEXEC);
    if (fd < 0) return;
    struct stat st;
    if (fstat(fd, &st) == 0 && !S_ISDIR(st.st_mode)) rights &= LL_FILE_RIGHTS;
    pb.allowed_access = rights & handled;
    pb.parent_fd = fd;
    syscall(SYS_landlock_add_rule, rs, 1 /* LANDLOCK_RULE_PATH_BENEATH */, &pb, 0);
    close(fd);
}

/* 0 confined (or no Landlock here: *on 0); -1 with errno. */
static int landlock_confine(const sbx_spec *sp, int *on)
{
    *on = 0;
    int abi = ll_abi();
    if (abi < 1) return 0;
    struct {
        unsigned long long handled_access_fs, handled_access_net, scoped;
    } ra = {0, 0, 0};
    ra.handled_access_fs = (1ULL << 13) - 1; /* ABI 1: bits 0..12 */
    if (abi >= 2) ra.handled_access_fs |= 1ULL << 13; /* refer */
    if (abi >= 3) ra.handled_access_fs |= LL_TRUNCATE;
    if (abi >= 5) ra.handled_access_fs |= LL_IOCTL_DEV;
    if (abi >= 6) ra.scoped = LL_SCOPE_ABSTRACT_UNIX | LL_SCOPE_SIGNAL;
    size_t size = abi >= 6 ? 24 : 8;
    int rs = (int)syscall(SYS_landlock_create_ruleset, &ra, size, 0);
    if (rs < 0) return -1;
    const unsigned long long h = ra.handled_access_fs, rx = LL_EXEC | LL_READ | LL_READ_DIR,
                             rw = LL_READ | LL_WRITE | LL_TRUNCATE, all = h;
    static const char *const sys[] = {"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32",
                                      "/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d",
                                      "/etc/alternatives", "/etc/localtime", "/proc", NULL};
    for (int i = 0; sys[i]; i++) ll_allow(rs, sys[i], rx, h);
    static const char *const dev[] = {"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom", NULL};
    for (int i = 0; dev[i]; i++) ll_allow(rs, dev[i], rw, h);
    for (int i = 0; i < sp->nro; i++) ll_allow(rs, sp->ro[i], rx, h);
    if (sp->workdir) ll_allow(rs, sp->workdir, rx, h);
    for (int i = 0; i < sp->nrw; i++) ll_allow(rs, sp->rw[i], all, h);
    ll_allow(rs, "/tmp", all, h);
    ll_allow(rs, "/dev/shm", all, h);
    if (sp->gpu) {
        char gd[GPU_DEVS][300];
        for (int i = 0, n = gpu_devices(gd); i < n; i++) ll_allow(rs, gd[i], rw | LL_IOCTL_DEV | LL_READ_DIR, h);
        ll_allow(rs, "/sys", rx, h);
    }
    int rc = (int)syscall(SYS_landlock_restrict_self, rs, 0);
    int e = errno;
    close(rs);
    errno = e;
    if (rc == 0) *on = 1;
    return rc;
}

/* ------------------------------------------------------------ the program */

static void set_limit(int res, long long v)
{
    struct rlimit rl = {(rlim_t)v, (rlim_t)v};
    setrlimit(res, &rl);
}

/* The program itself: descriptors, limits, filter, exec. Never returns. */
static void exec_program(int sfd, const sbx_spec *sp, int isolated, pid_t gpulab)
{
    prctl(PR_SET_PDEATHSIG, SIGKILL); /* kept across exec: the program dies with the sandbox */
    setpgid(0, 0);
    int tmp[6];
    for (int i = 0; i < 6; i++) tmp[i] = sp->fd[i] >= 0 ? fcntl(sp->fd[i], F_DUPFD_CLOEXEC, 64) : -1;
    for (int i = 0; i < 6; i++) {
        if (tmp[i] >= 0) {
            if (dup2(tmp[i], i) < 0) fail(sfd, "cannot set up its descriptors", NULL);
        } else {
            close(i);
        }
    }
    /* everything else closes at exec (the status pipe stays until then) */
    syscall(SYS_close_range, 6u, ~0u, CLOSE_RANGE_CLOEXEC);
    set_limit(RLIMIT_CORE, 0);
    if (sp->mem_limit > 0) set_limit(RLIMIT_AS, sp->mem_limit);
    if (sp->file_limit > 0) set_limit(RLIMIT_FSIZE, sp->file_limit);
    /* counted per user of the namespace; without one only for a user that
     * is not root (root's count is not limited) and the count is the user's
     * whole */
    if (sp->nproc > 0 && isolated) set_limit(RLIMIT_NPROC, sp->nproc);
    const char *wd = sp->workdir ? sp->workdir : "/tmp";
    if (chdir(wd) != 0) fail(sfd, "cannot enter", wd);
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) fail(sfd, "cannot set no-new-privileges", NULL);
    int ll_on = 0;
    if (!isolated && g_enabled && landlock_confine(sp, &ll_on) != 0) fail(sfd, "cannot apply the Landlock rules", NULL);
    if (g_enabled && g_seccomp_ok && load_filter(isolated, gpulab, getppid()) != 0)
        fail(sfd, "cannot load the seccomp filter", NULL);
    sigset_t all;
    sigemptyset(&all);
    sigprocmask(SIG_SETMASK, &all, NULL);
    for (int s = 1; s < NSIG; s++) signal(s, SIG_DFL);
    const char *path = sp->path ? sp->path : sp->argv[0];
    execve(path, sp->argv, sp->env);
    fail(sfd, "cannot start", path);
}

static volatile sig_atomic_t g_stop;
static void on_stop(int sig)
{
    (void)sig;
    g_stop = 1;
}

/* Kill every child of this (subreaper) process until there is none. */
static void sweep(pid_t prog)
{
    if (prog > 0) kill(-prog, SIGKILL);
    for (int round = 0; round < 2000; round++) {
        char path[64], buf[4096];
        snprintf(path, sizeof path, "/proc/self/task/%d/children", (int)getpid());
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        ssize_t n = fd >= 0 ? read(fd, buf, sizeof buf - 1) : -1;
        if (fd >= 0) close(fd);
        if (n > 0) {
            buf[n] = 0;
            for (char *s = buf, *e; *s; s = e) {
                long pid = strtol(s, &e, 10);
                if (e == s) break;
                if (pid > 0) {
                    kill((pid_t)-pid, SIGKILL);
                    kill((pid_t)pid, SIGKILL);
                }
            }
        }
        int st;
        while (waitpid(-1, &st, WNOHANG) > 0) {}
        if (waitpid(-1, &st, WNOHANG) < 0 && errno == ECHILD) return;
        usleep(1000);
    }
}

/* Start the program, wait for it, say how it ended. Never returns. As
 * PID 1 of a namespace the end of this process ends all the others. */
static void supervise(int sfd, const sbx_spec *sp, int isolated, pid_t gpulab)
{
    pid_t prog = fork();
    if (prog < 0) fail(sfd, "cannot start the program", NULL);
    if (prog == 0) exec_program(sfd, sp, isolated, gpulab);
    for (int i = 0; i < 6; i++)
        if (sp->fd[i] >= 0) close(sp->fd[i]);
    int st = 0, have = 0;
    for (;;) {
        int s;
        pid_t w = waitpid(-1, &s, 0);
        if (w == prog) {
            st = s;
            have = 1;
            break;
        }
        if (w < 0 && errno == EINTR && g_stop) break;
        if (w < 0 && errno == ECHILD) break;
    }
    if (!isolated) sweep(prog);
    if (!have) say(sfd, "signal %d", SIGKILL);
    else if (WIFEXITED(st)) say(sfd, "exit %d", WEXITSTATUS(st));
    else if (WIFSIGNALED(st)) say(sfd, "signal %d", WTERMSIG(st));
    _exit(0);
}

/* gpulab's child; cg: the cgroup it enters ("": none). Never returns. */
static void outer(int sfd, int life, const sbx_spec *sp, int isolated, pid_t gpulab, const char *cg)
{
    /* out of the way of descriptors 0..5, which the program's become */
    sfd = fcntl(sfd, F_DUPFD_CLOEXEC, 64);
    life = fcntl(life, F_DUPFD_CLOEXEC, 64);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    struct pollfd pl = {life, POLLIN, 0};
    if (poll(&pl, 1, 0) > 0) _exit(1); /* gpulab ended before the line above */
    setsid(); /* no terminal: gpulab's cannot be reached, nor taken */
    if (cg[0] && cg_write(cg, "cgroup.procs", "0\n") != 0) fail(sfd, "cannot enter the process limit's cgroup", cg);
    if (!isolated) {
        prctl(PR_SET_CHILD_SUBREAPER, 1);
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_stop;
        sigaction(SIGTERM, &sa, NULL); /* no SA_RESTART: the wait ends */
        supervise(sfd, sp, isolated, gpulab);
    }
    uid_t uid = getuid();
    gid_t gid = getgid();
    if (unshare(NS_FLAGS) != 0) fail(sfd, "cannot make the namespaces", NULL);
    if (map_ids(uid, gid) != 0) fail(sfd, "cannot map the user into the namespace", NULL);
    pid_t init = fork();
    if (init < 0) fail(sfd, "cannot start the namespace's first process", NULL);
    if (init == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (poll(&pl, 1, 0) > 0) _exit(1);
        build_root(sfd, sp);
        supervise(sfd, sp, isolated, gpulab);
    }
    for (int i = 0; i < 6; i++)
        if (sp->fd[i] >= 0) close(sp->fd[i]);
    close(sfd);
    int st;
    while (waitpid(init, &st, 0) < 0 && errno == EINTR) {}
    _exit(0);
}

int sbx_start(const sbx_spec *sp, sbx_proc *p, char *err, size_t errlen)
{
    memset(p, 0, sizeof *p);
    p->pid = -1;
    p->status_fd = -1;
    p->life_fd = -1;
    sbx_state(NULL, 0);
    /* namespaces wherever the kernel grants them, also when another part
     * (root's process limit) is missing */
    int isolated = g_enabled && g_ns_ok && g_seccomp_ok;
    int slot = 0;
    while (slot < SBX_SLOTS && g_current[slot]) slot++;
    if (slot == SBX_SLOTS) {
        snprintf(err, errlen, "more than %d runs at once", SBX_SLOTS);
        return -1;
    }
    char cg[PATH_MAX + 16];
    if (cg_slot(slot, cg, sizeof cg) != 0) {
        snprintf(err, errlen, "cannot make the process limit's cgroup %s: %s", cg, strerror(errno));
        return -1;
    }
    int sp_[2], life[2];
    if (pipe2(sp_, O_CLOEXEC) != 0) {
        snprintf(err, errlen, "cannot make a pipe: %s", strerror(errno));
        return -1;
    }
    if (pipe2(life, O_CLOEXEC) != 0) {
        snprintf(err, errlen, "cannot make a pipe: %s", strerror(errno));
        close(sp_[0]);
        close(sp_[1]);
        return -1;
    }
    pid_t gpulab = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(err, errlen, "cannot start the program: %s", strerror(errno));
        close(sp_[0]); close(sp_[1]); close(life[0]); close(life[1]);
        return -1;
    }
    if (pid == 0) {
        close(sp_[0]);
        close(life[1]);
        outer(sp_[1], life[0], sp, isolated, gpulab, cg);
    }
    close(sp_[1]);
    close(life[0]);
    /* the lifeline's write end stays open in gpulab until the run's end
     * (sbx_wait); it is close-on-exec, so no program holds it */
    p->life_fd = life[1];
    p->pid = pid;
    p->status_fd = sp_[0];
    p->isolated = isolated;
    p->slot = slot;
    g_current_isolated[slot] = isolated;
    g_current[slot] = pid;
    return 0;
}

void sbx_kill(const sbx_proc *p)
{
    if (p->pid <= 0) return;
    if (p->isolated) kill(p->pid, SIGKILL);
    else kill(p->pid, SIGTERM); /* it kills every process it adopted, then ends */
}

void sbx_kill_current(void)
{
    pid_t adopted[SBX_SLOTS];
    int n = 0;
    for (int i = 0; i < SBX_SLOTS; i++) {
        pid_t pid = g_current[i];
        if (pid <= 0) continue;
        if (g_current_isolated[i]) {
            kill(pid, SIGKILL);
            continue;
        }
        kill(pid, SIGTERM);
        adopted[n++] = pid;
    }
    /* without namespaces the outer process kills what it adopted: let it
     * finish before gpulab's end kills it (at most a second) */
    for (int k = 0; k < n; k++)
        for (int i = 0; i < 100; i++) {
            int st;
            if (waitpid(adopted[k], &st, WNOHANG) != 0) break;
            struct timespec ts = {0, 10 * 1000 * 1000};
            nanosleep(&ts, NULL);
        }
}

void sbx_wait(sbx_proc *p, sbx_end *e)
{
    memset(e, 0, sizeof *e);
    if (p->reaped) {
        g_current[p->slot] = 0;
        p->pid = -1;
    } else if (p->pid > 0) {
        int st;
        struct rusage ru;
        /* without namespaces the outer process sweeps; give it a moment */
        for (int i = 0; !p->isolated && i < 300; i++) {
            if (wait4(p->pid, &st, WNOHANG, &ru) == p->pid) goto reaped;
            usleep(10000);
        }
        if (!p->isolated) kill(p->pid, SIGKILL);
        memset(&ru, 0, sizeof ru);
        while (wait4(p->pid, &st, 0, &ru) < 0 && errno == EINTR) {}
    reaped:
        /* its own and its waited-for descendants' largest: the program's */
        p->peak_kb = ru.ru_maxrss;
        g_current[p->slot] = 0;
        p->pid = -1;
    }
    e->peak_kb = p->peak_kb;
    if (p->life_fd >= 0) close(p->life_fd);
    p->life_fd = -1;
    char buf[1024];
    size_t n = 0;
    ssize_t k;
    while (n + 1 < sizeof buf && (k = read(p->status_fd, buf + n, sizeof buf - 1 - n)) != 0) {
        if (k < 0) {
            if (errno == EINTR) continue;
            break;
        }
        n += (size_t)k;
    }
    buf[n] = 0;
    close(p->status_fd);
    p->status_fd = -1;
    e->started = 1;
    for (char *line = strtok(buf, "\n"); line; line = strtok(NULL, "\n")) {
        if (!strncmp(line, "error ", 6)) {
            /* the last word of a failed exec is its own: the program did not start */
            e->started = 0;
            snprintf(e->why, sizeof e->why, "%s", line + 6);
        } else if (!strncmp(line, "exit ", 5)) {
            e->exited = 1;
            e->code = atoi(line + 5);
        } else if (!strncmp(line, "signal ", 7)) {
            e->signal = atoi(line + 7);
        }
    }
    if (e->started && !e->exited && !e->signal) e->signal = SIGKILL; /* killed with the sandbox */
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int sbx_job_start(sbx_job *j, sbx_spec *sp, int merge, double time_limit, volatile sig_atomic_t *interrupt,
                  void (*out)(void *ctx, int fd, const char *buf, size_t n), void *ctx, sbx_run_end *r, char *err,
                  size_t errlen)
{
    memset(j, 0, sizeof *j);
    memset(r, 0, sizeof *r);
    j->fd[0] = j->fd[1] = j->fd[2] = -1;
    int po[2] = {-1, -1}, pe[2] = {-1, -1};
    if (pipe2(po, O_CLOEXEC) != 0 || (!merge && pipe2(pe, O_CLOEXEC) != 0)) {
        snprintf(err, errlen, "cannot make pipes: %s", strerror(errno));
        for (int i = 0; i < 2; i++) {
            if (po[i] >= 0) close(po[i]);
            if (pe[i] >= 0) close(pe[i]);
        }
        return -1;
    }
    sp->fd[1] = po[1];
    sp->fd[2] = merge ? po[1] : pe[1];
    j->t0 = now_s();
    int rc = sbx_start(sp, &j->p, err, errlen);
    close(po[1]);
    if (!merge) close(pe[1]);
    sp->fd[1] = sp->fd[2] = -1;
    if (rc != 0) {
        close(po[0]);
        if (!merge) close(pe[0]);
        return -1;
    }
    j->fd[0] = po[0];
    j->fd[1] = merge ? -1 : pe[0];
    /* the outer process's end, as a descriptor poll wakes on: once the
     * output has closed, the wait ends when the process does rather than
     * at the next 50 ms tick (without pidfd_open: at the tick) */
    j->fd[2] = (int)syscall(SYS_pidfd_open, j->p.pid, 0);
    j->open_fds = merge ? 1 : 2;
    j->merge = merge;
    j->time_limit = time_limit;
    j->interrupt = interrupt;
    j->out = out;
    j->ctx = ctx;
    j->r = r;
    return 0;
}

void sbx_job_kill(sbx_job *j)
{
    if (j->done || j->killed) return;
    j->r->interrupted = j->killed = 1;
    sbx_kill(&j->p);
}

static void job_finish(sbx_job *j)
{
    for (int i = 0; i < 3; i++)
        if (j->fd[i] >= 0) close(j->fd[i]);
    j->fd[0] = j->fd[1] = j->fd[2] = -1;
    sbx_wait(&j->p, &j->r->end);
    j->r->seconds = now_s() - j->t0;
    j->done = 1;
}

int sbx_jobs_step(sbx_job *const *jobs, int n)
{
    struct pollfd pf[3 * SBX_SLOTS];
    int finished = 0, np = 0;
    if (n > SBX_SLOTS) n = SBX_SLOTS;
    for (int k = 0; k < n; k++) {
        sbx_job *j = jobs[k];
        if (j->done) continue;
        if (j->open_fds == 0) {
            /* its output closed: wait for its end, still under the limits */
            int st;
            struct rusage ru;
            if (wait4(j->p.pid, &st, WNOHANG, &ru) == j->p.pid) {
                j->p.reaped = 1;
                j->p.peak_kb = ru.ru_maxrss;
                job_finish(j);
                finished++;
            }
        }
    }
    for (int k = 0; k < n; k++) {
        sbx_job *j = jobs[k];
        for (int i = 0; i < 3; i++) {
            pf[np + i].fd = j->done ? -1 : i < 2 ? j->fd[i] : j->open_fds == 0 ? j->fd[2] : -1;
            pf[np + i].events = POLLIN;
            pf[np + i].revents = 0;
        }
        np += 3;
    }
    int ready = poll(pf, (nfds_t)np, finished ? 0 : 50);
    for (int k = 0; k < n; k++) {
        sbx_job *j = jobs[k];
        if (j->done) continue;
        for (int i = 0; ready > 0 && i < 2; i++) {
            struct pollfd *q = &pf[3 * k + i];
            if (q->fd < 0 || !(q->revents & (POLLIN | POLLHUP | POLLERR))) continue;
            char buf[8192];
            ssize_t got = read(q->fd, buf, sizeof buf);
            if (got > 0) {
                if (j->out) j->out(j->ctx, i + 1, buf, (size_t)got);
            } else if (got == 0 || (errno != EINTR && errno != EAGAIN)) {
                close(j->fd[i]);
                j->fd[i] = -1;
                j->open_fds--;
            }
        }
        if (!j->killed && j->time_limit > 0 && now_s() - j->t0 > j->time_limit) {
            j->r->timed_out = j->killed = 1;
            sbx_kill(&j->p);
        }
        if (!j->killed && j->interrupt && *j->interrupt) {
            j->r->interrupted = j->killed = 1;
            sbx_kill(&j->p);
        }
        if (j->killed && !j->killed_at) j->killed_at = now_s();
        /* all of it is gone in a moment; a pipe still open after that is
         * held by a process the sandbox could not reach */
        if (j->killed_at && now_s() - j->killed_at > 2.0) {
            job_finish(j);
            finished++;
        }
    }
    return finished;
}

int sbx_run(sbx_spec *sp, int merge, double time_limit, volatile sig_atomic_t *interrupt,
            void (*out)(void *ctx, int fd, const char *buf, size_t n), void *ctx, sbx_run_end *r, char *err,
            size_t errlen)
{
    sbx_job j;
    if (sbx_job_start(&j, sp, merge, time_limit, interrupt, out, ctx, r, err, errlen) != 0) return -1;
    sbx_job *const one[1] = {&j};
    while (!j.done) sbx_jobs_step(one, 1);
    return 0;
}

/* ------------------------------------------------------ program.h's face */

int prog_sandbox_state(char *why, size_t len)
{
    int whole = sbx_state(why, len);
    if (!g_enabled) {
        if (why && len) snprintf(why, len, "set sandbox off");
        return 0;
    }
    return whole ? 2 : g_ns_ok && g_seccomp_ok ? 1 : 0;
}

int prog_sandbox_landlock(void)
{
    sbx_state(NULL, 0);
    return g_enabled && !(g_ns_ok && g_seccomp_ok) ? ll_abi() : 0;
}

void prog_sandbox_set(int on) { sbx_set_enabled(on); }
int prog_sandbox_on(void) { return sbx_enabled(); }
void prog_kill_running(void) { sbx_kill_current(); }
