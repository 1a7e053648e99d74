# `cmake --install` layout and the .deb (CPack DEB generator):
#   bin/evalcli, <libdir>/evalcli/libevalcli_spm.so (XLM-R's tokenizer), share/man/man1/evalcli.1.gz
#   (generated from --help at build time), share/bash-completion/completions/evalcli, share/doc/evalcli/*.md.
include(GNUInstallDirs)

install(TARGETS evalcli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# dlopen'd by evalcli bertscore for XLM-R models (CMakeLists.txt, evalcli_spm).
install(TARGETS evalcli_spm LIBRARY DESTINATION ${EVALCLI_SPM_INSTALL_DIR})

set(EVALCLI_MAN_PAGE ${CMAKE_CURRENT_BINARY_DIR}/evalcli.1)
add_custom_command(
  OUTPUT ${EVALCLI_MAN_PAGE}.gz
  COMMAND ${CMAKE_COMMAND} -DEVALCLI=$<TARGET_FILE:evalcli> -DOUTPUT=${EVALCLI_MAN_PAGE}
          -DVERSION=${PROJECT_VERSION} -P ${CMAKE_CURRENT_SOURCE_DIR}/cmake/GenerateManPage.cmake
  COMMAND gzip -9 -n -f ${EVALCLI_MAN_PAGE}
  DEPENDS evalcli ${CMAKE_CURRENT_SOURCE_DIR}/cmake/GenerateManPage.cmake
  COMMENT "Generating the evalcli(1) man page from --help"
  VERBATIM)
add_custom_target(evalcli_man ALL DEPENDS ${EVALCLI_MAN_PAGE}.gz)
install(FILES ${EVALCLI_MAN_PAGE}.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)

install(FILES ${CMAKE_CURRENT_SOURCE_DIR}/completions/evalcli.bash
        DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions RENAME evalcli)

file(GLOB EVALCLI_DOCS CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/docs/*.md)
install(FILES ${EVALCLI_DOCS} DESTINATION ${CMAKE_INSTALL_DOCDIR})

# The .deb: `cpack -G DEB` in the build directory (scripts/test-package.sh).
set(CPACK_GENERATOR "DEB")
set(CPACK_PACKAGE_NAME "evalcli")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "evalcli maintainers <evalcli@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "reproducible text-generation metrics (BLEU, chrF, TER, ROUGE, METEOR, CIDEr, PPL)")
set(CPACK_PACKAGING_INSTALL_PREFIX "/usr")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION "science")
# Depends: computed by dpkg-shlibdeps from the shared libraries evalcli links
# (fmt, libstdc++ ...; ICU and MeCab too with EVALCLI_STATIC_TEXT_LIBS=OFF),
# so it follows whatever the build uses.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# Data files that some subcommands load at run time (exit 4 names them when
# missing). Metrics that need more append to this list before include(Install).
list(APPEND EVALCLI_DEB_RECOMMENDS "mecab-ipadic-utf8")
list(REMOVE_DUPLICATES EVALCLI_DEB_RECOMMENDS)
string(REPLACE ";" ", " CPACK_DEBIAN_PACKAGE_RECOMMENDS "${EVALCLI_DEB_RECOMMENDS}")
include(CPack)
