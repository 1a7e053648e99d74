// The executable's own pages in the resident set.
#pragma once

namespace evalcli::memory {

// Drops this process's mappings of the executable's read-only segments (code,
// constants), to be called once start-up is over (before a long scoring loop).
//
// Why: a page fault on a file mapping maps the page and up to 15 neighbours
// already in the page cache (the kernel's fault-around, 64 KiB), so start-up
// code spread over the 6 MB of text (each file's static initialisers, the
// option tables) keeps about 2 MB resident for the whole run, as much as a
// small model. These pages are unmodified copies of the file: they stay in
// the page cache, and what the rest of the run executes is mapped back on
// its first use (a minor fault). Writable segments (data, relocations) and
// executables with text relocations are left alone. A no-op where unsupported,
// and unless the executable opted in (evalcli's main does; a program or Python
// embedding the library keeps its own pages).
void release_executable_pages();
void allow_releasing_executable_pages();

}  // namespace evalcli::memory
