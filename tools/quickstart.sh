#!/bin/sh
# Set up Clankwork in ./.venv and run it: `sh tools/quickstart.sh run` checks the bundled pack
# and simulates a batch of games; `sh tools/quickstart.sh test` runs the linter and the tests.
# Needs Python 3.11+. Installs Debian's graphviz (for `dot`), libcairo2 and fonts-dejavu-core (to
# print cards) when they are missing and we are root, and for `test` Debian's chromium (the replay
# page's browser test drives it with Playwright) and poppler-utils (pdfinfo, pdftoppm).
set -eu
cd "$(dirname "$0")/.."

say() { printf '%s\n' "quickstart: $*" >&2; }

PY=${PYTHON:-python3}
if ! command -v "$PY" >/dev/null 2>&1; then
  say "python3 is not installed; install Python 3.11 or newer (apt-get install python3 python3-venv)"
  exit 1
fi
if ! "$PY" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
  say "Clankwork needs Python 3.11 or newer; $PY is $("$PY" -V 2>&1)"
  exit 1
fi

is_root() { [ "$(id -u)" = 0 ]; }
apt_install() {
  if is_root && command -v apt-get >/dev/null 2>&1; then
    say "installing $* with apt-get"
    apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
  else
    return 1
  fi
}

if [ ! -x .venv/bin/python ]; then
  say "creating .venv"
  if ! "$PY" -m venv .venv 2>/dev/null; then
    rm -rf .venv
    apt_install python3-venv || { say "cannot create a venv: install python3-venv (as root: apt-get install python3-venv)"; exit 1; }
    "$PY" -m venv .venv
  fi
fi

# The compiled core is built when clankwork is installed (setup.py): it needs a C compiler and
# Python's headers, installed first; without them the install is pure Python, same games.
if ! .venv/bin/python -c 'import shutil, sys, sysconfig, os
cc = (sysconfig.get_config_var("CC") or "cc").split()[0]
h = os.path.join(sysconfig.get_paths()["include"], "Python.h")
sys.exit(not (shutil.which(cc) and os.path.isfile(h)))'; then
  apt_install gcc python3-dev || true
fi

# Reinstall only when the project metadata changed since the last install.
stamp=.venv/.clankwork-installed
want=$(cat pyproject.toml setup.py | cksum)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  say "installing clankwork and its test tools into .venv"
  # pip's output (and the build backend's warnings) goes to a log, shown only if it fails.
  log=.venv/install.log
  if ! { .venv/bin/python -m pip install -q --disable-pip-version-check --upgrade pip &&
    .venv/bin/python -m pip install -q --disable-pip-version-check -e ".[test,fast]"; } >"$log" 2>&1; then
    cat "$log" >&2
    say "pip could not install clankwork (its output is above and in $log)"
    exit 1
  fi
  printf '%s' "$want" >"$stamp"
fi

if ! command -v dot >/dev/null 2>&1; then
  apt_install graphviz || say "Graphviz is missing: install it (apt-get install graphviz) to draw boards; drawing tests are skipped without it"
fi

# `render pnp`, PNG cards and `export tts` draw with cairo, and set text in DejaVu Sans.
if ! .venv/bin/python -c 'import cairocffi' >/dev/null 2>&1 || ! fc-list 2>/dev/null | grep -q "DejaVu Sans"; then
  apt_install libcairo2 fontconfig fonts-dejavu-core || say "cairo or DejaVu Sans is missing: install them (apt-get install libcairo2 fonts-dejavu-core) to print cards; PNG and PDF tests are skipped without cairo"
fi

# After an edit, a pull or a checkout, the modules whose source changed are compiled again
# (until then they run as Python, with one line on stderr saying so).
.venv/bin/clankwork build-core || say "continuing without the compiled core: games run as Python, slower"

case "${1:-run}" in
  run)
    .venv/bin/clankwork check
    .venv/bin/clankwork simulate --games 200 --players 4 --seed 1
    ;;
  test)
    if ! command -v chromium >/dev/null 2>&1; then
      # Playwright launches this browser (`playwright install` downloads are not used).
      apt_install chromium || say "chromium is missing: install it (apt-get install chromium) to run the replay page's browser test; it is skipped without it"
    fi
    if ! command -v pdftoppm >/dev/null 2>&1; then
      # The print-and-play PDF's test reads it back with pdfinfo and pdftoppm.
      apt_install poppler-utils || say "poppler-utils is missing: install it (apt-get install poppler-utils) to run the PDF reading test; it is skipped without it"
    fi
    .venv/bin/ruff check .
    .venv/bin/ruff format --check .
    .venv/bin/clankwork fmt --check content/
    .venv/bin/python -m pytest
    ;;
  *)
    say "usage: sh tools/quickstart.sh [run|test]"
    exit 2
    ;;
esac
