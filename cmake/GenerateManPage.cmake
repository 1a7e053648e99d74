# Writes the evalcli(1) man page from the program's own --help output, so the
# page never drifts from the options: `cmake -DEVALCLI=path -DOUTPUT=evalcli.1
# -DVERSION=x.y.z -P GenerateManPage.cmake` (run at build time by Install.cmake).
# Every subcommand listed under "Subcommands:" gets its own section.

function(run_help out_var)
  execute_process(COMMAND ${EVALCLI} ${ARGN} --help OUTPUT_VARIABLE text RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "'evalcli ${ARGN} --help' failed (${rc})")
  endif()
  set(${out_var} "${text}" PARENT_SCOPE)
endfunction()

# roff: backslashes are written \e; a line starting with . or ' is protected by \&.
function(roff_escape out_var text)
  string(REPLACE "\\" "\\e" text "${text}")
  string(REGEX REPLACE "(^|\n)([.'])" "\\1\\\\&\\2" text "${text}")
  set(${out_var} "${text}" PARENT_SCOPE)
endfunction()

run_help(top)
string(REGEX MATCH "Subcommands:\n(.*)$" _ "${top}")
string(REGEX MATCHALL "\n  [a-z][a-z0-9-]*" subcommand_lines "\n${CMAKE_MATCH_1}")

# string(TIMESTAMP) honours SOURCE_DATE_EPOCH, for reproducible builds.
string(TIMESTAMP today "%Y-%m-%d" UTC)

roff_escape(top_roff "${top}")
set(page ".TH EVALCLI 1 \"${today}\" \"evalcli ${VERSION}\" \"User Commands\"
.SH NAME
evalcli \\- reproducible text-generation metrics (BLEU, chrF, TER, ROUGE, METEOR, CIDEr, PPL)
.SH SYNOPSIS
.B evalcli
.I SUBCOMMAND
[\\fIOPTIONS\\fR]
.SH DESCRIPTION
.nf
${top_roff}
.fi
")
foreach(line IN LISTS subcommand_lines)
  string(STRIP "${line}" sub)
  run_help(sub_help ${sub})
  roff_escape(sub_roff "${sub_help}")
  string(TOUPPER "${sub}" upper)
  string(APPEND page ".SH EVALCLI ${upper}\n.nf\n${sub_roff}\n.fi\n")
endforeach()
string(APPEND page ".SH EXIT STATUS
0 success; 2 usage error; 3 bad input data; 4 missing resource; 5 check failed; 70 internal error.
See /usr/share/doc/evalcli/errors.md.
.SH SEE ALSO
sacrebleu(1)
")
file(WRITE "${OUTPUT}" "${page}")
