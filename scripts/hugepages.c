/* scripts/hugepages.c — loaded into g++ in CI's builds (LD_PRELOAD, scripts/common.sh,
 * build_on_huge_pages gcc): each anonymous mapping of 2 MiB or more that the process makes is
 * advised to the kernel as wanting transparent huge pages.
 *
 * Why. Where the kernel's THP mode is "madvise", as on CI's machines, memory gets huge pages
 * only if it asks, and a compile here spends 10-25% of its time in page faults, one for each
 * 4 KiB page it touches. glibc's tunable glibc.malloc.hugetlb=1 makes malloc ask, which is all
 * clang needs (this changes nothing in its page faults); g++ maps its garbage collector's pages
 * itself, 2 MiB at a time, and only this asks for those (benchmarks/RESULTS.md, "CI time:
 * g++'s collector on huge pages").
 *
 * Nothing else changes: the mapping is the one the process asked for, and a refused advice
 * (another mode, an older kernel) is ignored. Not for sanitized programs: ASan wants its
 * runtime first among the preloaded libraries, and the tests run without this.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>
#include <sys/mman.h>
#include <sys/types.h>

typedef void *mmap_function(void *, size_t, int, int, int, off_t);

static const size_t huge_page_size = (size_t)2 << 20;

void *mmap(void *address, size_t length, int protection, int flags, int fd, off_t offset) {
  static mmap_function *next_mmap;
  if (next_mmap == NULL) {
    next_mmap = (mmap_function *)dlsym(RTLD_NEXT, "mmap");
  }
  void *mapped = next_mmap(address, length, protection, flags, fd, offset);
  if (mapped != MAP_FAILED && (flags & MAP_ANONYMOUS) != 0 && length >= huge_page_size) {
    (void)madvise(mapped, length, MADV_HUGEPAGE);
  }
  return mapped;
}

/* On 64-bit glibc, mmap64 is the same function. */
void *mmap64(void *address, size_t length, int protection, int flags, int fd, off_t offset)
    __attribute__((alias("mmap")));
