/* record_where.cpp - the source line of an access site (record.h's
 * sim_rec_site_where and sim_rec_site_where_exe): the program's own debug
 * information read through libdw, climbing out of the simulator's inlined
 * functions to the kernel's line. Built with GPULAB_HAVE_LIBDW into gpulab
 * itself (kernels/CMakeLists.txt); without it (the runtime a student's
 * program links) no site is known there, and gpulab reads the program's
 * executable after it ran (sim_rec_site_where_exe). */
#include "kernels/sim/internal.h"
#include "kernels/sim/record.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if defined(GPULAB_HAVE_LIBDW)
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#endif

#if defined(GPULAB_HAVE_LIBDW)
static int rec_internal(const char *path)
{
    /* the simulator's headers, a student program's runtime header
     * (program-rt/progrt.h in the build) and the system's */
    return !path || strstr(path, "kernels/sim/") != nullptr || strstr(path, "kernels/program/") != nullptr ||
           strstr(path, "program-rt/") != nullptr || strncmp(path, "/usr/", 5) == 0;
}

static int site_where(Dwfl *dwfl, uintptr_t site, char *file, size_t filelen, int *line);

extern "C" int sim_rec_site_where(uintptr_t site, char *file, size_t filelen, int *line)
{
    static Dwfl *dwfl;
    static const Dwfl_Callbacks cb = {dwfl_linux_proc_find_elf, dwfl_standard_find_debuginfo, nullptr, nullptr};
    if (!dwfl) {
        dwfl = dwfl_begin(&cb);
        if (!dwfl) return -1;
        if (dwfl_linux_proc_report(dwfl, getpid()) != 0 || dwfl_report_end(dwfl, nullptr, nullptr) != 0) {
            dwfl_end(dwfl);
            dwfl = nullptr;
            return -1;
        }
    }
    return site_where(dwfl, site, file, filelen, line);
}

extern "C" int sim_rec_site_where_exe(const char *exe, uintptr_t site, char *file, size_t filelen, int *line)
{
    /* the executable read last stays open: a trace asks for all its sites */
    static Dwfl *dwfl;
    static char path[1024];
    static const Dwfl_Callbacks cb = {dwfl_build_id_find_elf, dwfl_standard_find_debuginfo,
                                      dwfl_offline_section_address, nullptr};
    if (!exe || strcmp(exe, path) != 0) {
        if (dwfl) dwfl_end(dwfl);
        dwfl = nullptr;
        path[0] = 0;
        if (!exe) return -1;
        dwfl = dwfl_begin(&cb);
        if (!dwfl) return -1;
        if (!dwfl_report_offline(dwfl, "prog", exe, -1) || dwfl_report_end(dwfl, nullptr, nullptr) != 0) {
            dwfl_end(dwfl);
            dwfl = nullptr;
            return -1;
        }
        snprintf(path, sizeof path, "%s", exe);
    }
    return site_where(dwfl, site, file, filelen, line);
}

static int site_where(Dwfl *dwfl, uintptr_t site, char *file, size_t filelen, int *line)
{
    Dwarf_Addr pc = (Dwarf_Addr)site - 1; /* inside the call instruction */
    Dwfl_Module *m = dwfl_addrmodule(dwfl, pc);
    if (!m) return -1;
    Dwfl_Line *l = dwfl_module_getsrc(m, pc);
    int ln = 0;
    const char *src = l ? dwfl_lineinfo(l, nullptr, &ln, nullptr, nullptr, nullptr) : nullptr;
    Dwarf_Addr bias = 0;
    Dwarf_Die *cu = dwfl_module_addrdie(m, pc, &bias);
    if (cu && rec_internal(src)) {
        /* the access is inside an inlined shim function: climb to the
         * inlined call's site until it is the kernel's own source */
        Dwarf_Die *scopes = nullptr;
        int n = dwarf_getscopes(cu, pc - bias, &scopes);
        /* by address libdw finds the innermost inlined call only; the DIE
         * tree above it holds the whole chain of inlined calls */
        if (n > 0) {
            Dwarf_Die *chain = nullptr;
            int m = dwarf_getscopes_die(&scopes[0], &chain);
            if (m > 0) {
                free(scopes);
                scopes = chain;
                n = m;
            }
        }
        Dwarf_Files *files = nullptr;
        size_t nfiles = 0;
        if (n > 0 && dwarf_getsrcfiles(cu, &files, &nfiles) == 0) {
            for (int i = 0; i < n && rec_internal(src); i++) {
                if (dwarf_tag(&scopes[i]) != DW_TAG_inlined_subroutine) continue;
                Dwarf_Attribute at;
                Dwarf_Word fi = 0, cl = 0;
                if (dwarf_formudata(dwarf_attr(&scopes[i], DW_AT_call_file, &at), &fi) != 0 ||
                    dwarf_formudata(dwarf_attr(&scopes[i], DW_AT_call_line, &at), &cl) != 0)
                    continue;
                const char *f = fi < nfiles ? dwarf_filesrc(files, fi, nullptr, nullptr) : nullptr;
                if (f) {
                    src = f;
                    ln = (int)cl;
                }
            }
        }
        free(scopes);
    }
    if (!src || ln <= 0) return -1;
    snprintf(file, filelen, "%s", sim_basename(src));
    *line = ln;
    return 0;
}
#else
extern "C" int sim_rec_site_where(uintptr_t site, char *file, size_t filelen, int *line)
{
    (void)site;
    if (filelen) file[0] = '\0';
    *line = 0;
    return -1;
}
extern "C" int sim_rec_site_where_exe(const char *exe, uintptr_t site, char *file, size_t filelen, int *line)
{
    (void)exe;
    return sim_rec_site_where(site, file, filelen, line);
}
#endif
