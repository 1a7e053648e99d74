"""Shared helpers of the Python tests (run from CTest: python_tests).

The goldens are ../shared/golden/ next to the source tree, as for the C++
conformance tests (tests/support/test_support.hpp): when ../shared is missing
their tests fail under CI=true and are skipped otherwise.
"""
import ast
import json
import os
import pathlib

import pytest

SOURCE_DIR = pathlib.Path(os.environ.get("EVALCLI_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[2]))
SHARED_PARENT = SOURCE_DIR.parent
GOLDEN_DIR = SHARED_PARENT / "shared" / "golden"
EVALCLI_VERSION_TAG = None


def shared_available():
    if GOLDEN_DIR.is_dir():
        return True
    if os.environ.get("CI") == "true":
        pytest.fail("../shared is missing, and CI=true requires it")
    pytest.skip("../shared not found: golden test not run (outside CI only)")


def goldens(family, prefix=""):
    """The golden files of shared/golden/<family>/ starting with `prefix`, for parametrize
    (one entry that fails or skips when ../shared is missing)."""
    folder = GOLDEN_DIR / family
    if not folder.is_dir():
        return [pytest.param(None, id=f"{family}-missing")]
    return [pytest.param(p, id=p.stem) for p in sorted(folder.glob(f"{prefix}*.json"))]


def load_golden(path):
    shared_available()
    assert path is not None
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def value(field):
    """A golden field that holds a Python repr of a dict or list as a string, or the value itself."""
    return ast.literal_eval(field) if isinstance(field, str) and field[:1] in "{[" else field


def shared_path(relative):
    return SHARED_PARENT / relative


def read_lines(relative, strip=True):
    """A corpus file's lines as SacreBLEU's command line reads them (rstripped)."""
    with open(shared_path(relative), encoding="utf-8", newline="\n") as f:
        text = f.read()
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line.rstrip() for line in lines] if strip else lines


def with_evalcli_version(text):
    """SacreBLEU's version in a printed signature becomes evalcli's."""
    import evalcli

    tag = f"evalcli-{evalcli.__version__}"
    for key in ("version:", "v:", '"version": "'):
        text = text.replace(key + "2.6.0", key + tag)
    return text
