#!/usr/bin/env bash
# Checks the install layout and the .deb of the Release build in build/
# (made by scripts/test.sh): `cmake --install` into a scratch prefix must give
# the binary, the man page and the bash completion; `cpack -G DEB` must give a
# package whose Depends name the runtime libraries; as root, `dpkg -i` installs
# it, `evalcli --version` runs from /usr/bin, and `dpkg -r` removes it again.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${EVALCLI_BUILD_DIR:-build}
[[ -f $build/CMakeCache.txt ]] || cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build "$build" -j"${EVALCLI_JOBS:-2}"

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
fail() { echo "test-package.sh: $*" >&2; exit 1; }

# 1. cmake --install
cmake --install "$build" --prefix "$scratch/usr" >/dev/null
for file in bin/evalcli share/man/man1/evalcli.1.gz share/bash-completion/completions/evalcli \
  share/doc/evalcli/errors.md; do
  [[ -f $scratch/usr/$file ]] || fail "cmake --install did not install $file"
done
# Outputs are captured before grep: with pipefail, `producer | grep -q` fails
# when grep exits early and the producer gets SIGPIPE.
version_line=$("$scratch/usr/bin/evalcli" --version)
grep -q '^evalcli ' <<< "$version_line" || fail "installed evalcli --version failed"
man_page=$(zcat "$scratch/usr/share/man/man1/evalcli.1.gz")
grep -q '^\.SH EVALCLI BLEU' <<< "$man_page" || fail "the man page lacks the bleu section"
if command -v man >/dev/null; then
  man -l "$scratch/usr/share/man/man1/evalcli.1.gz" 2>&1 >/dev/null | grep . && fail "man reports problems"
fi
bash -n "$scratch/usr/share/bash-completion/completions/evalcli" || fail "completion has syntax errors"
completions=$(PATH="$scratch/usr/bin:$PATH" bash -c '
  source "$1"; COMP_WORDS=(evalcli bl); COMP_CWORD=1; _evalcli; echo "${COMPREPLY[*]}"' _ \
  "$scratch/usr/share/bash-completion/completions/evalcli")
[[ $completions == *bleu* ]] || fail "bash completion of 'evalcli bl' gave '$completions'"
# The Python module (docs/python.md), unless configured with -DEVALCLI_PYTHON=OFF.
python_module=true
grep -q '^EVALCLI_PYTHON:BOOL=OFF' "$build/CMakeCache.txt" && python_module=false
if $python_module; then
  site=$scratch/usr/lib/python3/dist-packages
  ls "$site"/evalcli/_native*.so >/dev/null 2>&1 || fail "cmake --install did not install the Python module"
  [[ -f $site/evalcli/sacrebleu/__init__.py ]] || fail "cmake --install did not install evalcli.sacrebleu"
  python_line=$(cd / && PYTHONPATH=$site /usr/bin/python3 -c \
    'from evalcli import sacrebleu; print(sacrebleu.corpus_bleu(["a b c d"], [["a b c d"]]).score)')
  [[ $python_line == 100.0* ]] || fail "the installed Python module gave '$python_line'"
fi
# XLM-R's SentencePiece wrapper, dlopen'd by bertscore from <libdir>/evalcli/ relative to bin/.
libdir=$(sed -n 's/^CMAKE_INSTALL_LIBDIR:PATH=//p' "$build/CMakeCache.txt")
[[ -f $scratch/usr/$libdir/evalcli/libevalcli_spm.so ]] || fail "cmake --install did not install libevalcli_spm.so"
xlmr=../shared/bertscore/models/tiny-xlmr
if [[ -d $xlmr ]]; then
  "$scratch/usr/bin/evalcli" bertscore --model "$xlmr" --num-layers 3 -r ../shared/bertscore/data/en.ref \
    -i ../shared/bertscore/data/en.cand -q >/dev/null || fail "the installed evalcli could not score with tiny-xlmr"
fi
echo "install layout: ok"

# 2. the .deb
(cd "$build" && cpack -G DEB >/dev/null)
deb=$(ls -t "$build"/evalcli_*.deb | head -1)
depends=$(dpkg-deb -f "$deb" Depends)
echo "$(basename "$deb"): Depends: $depends"
runtime_libs="libstdc++ libsentencepiece0"  # from the Python module and libevalcli_spm.so (evalcli has both C++ runtime and fmt inside)
# ICU and MeCab are in the binary unless configured with -DEVALCLI_STATIC_TEXT_LIBS=OFF (CMakeLists.txt).
grep -q '^EVALCLI_STATIC_TEXT_LIBS:BOOL=OFF' "$build/CMakeCache.txt" && runtime_libs+=" libicu libmecab"
for lib in $runtime_libs; do
  [[ $depends == *$lib* ]] || fail "Depends lacks $lib"
done
deb_listing=$(dpkg-deb -c "$deb")
grep -q ' ./usr/bin/evalcli$' <<< "$deb_listing" || fail "the .deb lacks /usr/bin/evalcli"
grep -q "/evalcli/libevalcli_spm.so\$" <<< "$deb_listing" || fail "the .deb lacks libevalcli_spm.so"
if $python_module; then
  grep -q ' ./usr/lib/python3/dist-packages/evalcli/_native.*\.so$' <<< "$deb_listing" ||
    fail "the .deb lacks the Python module"
fi

# 3. dpkg -i (root only: CI runs as root)
if [[ $(id -u) -eq 0 ]] && ! dpkg -s evalcli >/dev/null 2>&1; then
  dpkg -i "$deb" >/dev/null
  trap 'dpkg -r evalcli >/dev/null 2>&1 || true; rm -rf "$scratch"' EXIT
  /usr/bin/evalcli --version | grep -q '^evalcli ' || fail "/usr/bin/evalcli --version failed"
  echo "dpkg -i: ok ($(/usr/bin/evalcli --version))"
  if [[ -d $xlmr ]]; then
    /usr/bin/evalcli bertscore --model "$xlmr" --num-layers 3 -r ../shared/bertscore/data/en.ref \
      -i ../shared/bertscore/data/en.cand -q >/dev/null || fail "/usr/bin/evalcli could not score with tiny-xlmr"
    echo "dpkg -i: bertscore with an XLM-R model: ok"
  fi
  if $python_module; then
    (cd / && /usr/bin/python3 -c 'import evalcli.sacrebleu') || fail "import evalcli failed after dpkg -i"
    echo "dpkg -i: python3 -c 'import evalcli': ok"
  fi
  dpkg -r evalcli >/dev/null
  [[ ! -e /usr/bin/evalcli ]] || fail "dpkg -r left /usr/bin/evalcli"
  echo "dpkg -r: ok"
else
  echo "dpkg -i: skipped (needs root and no evalcli package installed already)"
fi
echo "install and package: ok"
