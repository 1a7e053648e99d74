#include "evalcli/core/code_pages.hpp"

#if defined(__linux__)
#include <elf.h>
#include <link.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#endif

namespace evalcli::memory {

namespace {
bool allowed = false;  // set once by main, before any thread
}  // namespace

void allow_releasing_executable_pages() { allowed = true; }

#if defined(__linux__)
namespace {

// True if the object's dynamic section asks for relocations in its text:
// then its "read-only" pages were written at load and must not be dropped.
bool has_text_relocations(const dl_phdr_info& info) {
  for (int i = 0; i < info.dlpi_phnum; ++i) {
    const ElfW(Phdr)& segment = info.dlpi_phdr[i];
    if (segment.p_type != PT_DYNAMIC) continue;
    const auto* entry = reinterpret_cast<const ElfW(Dyn)*>(info.dlpi_addr + segment.p_vaddr);
    for (; entry->d_tag != DT_NULL; ++entry) {
      if (entry->d_tag == DT_TEXTREL) return true;
      if (entry->d_tag == DT_FLAGS && (entry->d_un.d_val & DF_TEXTREL) != 0) return true;
    }
  }
  return false;
}

int release_read_only_segments(dl_phdr_info* info, std::size_t, void*) {
  // The first object listed is the executable.
  if (has_text_relocations(*info)) return 1;
  const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& segment = info->dlpi_phdr[i];
    if (segment.p_type != PT_LOAD || (segment.p_flags & PF_W) != 0) continue;
    // Whole pages inside the segment only: a page shared with a writable segment stays.
    const std::uintptr_t begin = (info->dlpi_addr + segment.p_vaddr + page - 1) / page * page;
    const std::uintptr_t end = (info->dlpi_addr + segment.p_vaddr + segment.p_filesz) / page * page;
    if (begin < end) ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_DONTNEED);
  }
  return 1;  // stop after the executable
}

}  // namespace

void release_executable_pages() {
  if (allowed) ::dl_iterate_phdr(release_read_only_segments, nullptr);
}
#else
void release_executable_pages() {}
#endif

}  // namespace evalcli::memory
