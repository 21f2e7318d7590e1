#!/usr/bin/env bash
# Installs every Debian package alea needs on a fresh Debian 12 machine, idempotently.
# Runs apt-get only when something is missing; adds a deb-src entry (for apt-get source
# of zlib and Lua in the real-project tests) only once.
set -euo pipefail

PACKAGES=(
  # toolchain and build
  cmake ninja-build g++ make pkg-config dpkg-dev
  clang-19 llvm-19-dev llvm-19-tools lld-19 libclang-rt-19-dev
  # Fortran (alea-fc over flang-new-19) and meson for the drop-in build tests
  flang-19 meson
  # the sqlite3 amalgamation's Tcl test fixture in the large-build overhead benchmark
  # (and tclsh, which makes the amalgamation in bench/build_cache); /usr/bin/time,
  # the builds' CPU time there
  tcl-dev time
  # libraries
  libcli11-dev libboost-math-dev libtomlplusplus-dev libelf-dev libsqlite3-dev sqlite3
  libgtest-dev libgmock-dev libbenchmark-dev zlib1g-dev libzstd-dev nlohmann-json3-dev
  # reference tools for tests and benchmarks
  # (valgrind: also the sim-* metrics, which run benchmarks under its cachegrind)
  r-base-core r-cran-lme4 hyperfine valgrind python3 autoconf automake libtool
  # remote targets: the e2e fixtures (test/e2e/targets_fixture.py) run their own sshd,
  # munged and Slurm daemons on their own ports, sockets and directories; they never use
  # or touch the services these packages may start (where no policy-rc.d forbids it)
  openssh-server openssh-client slurm-wlm munge
  # the HTML report's browser tests (test/e2e/chromium.py): headless Chromium renders
  # the page; DejaVu is the font system-ui falls back to here, named so it is certain
  chromium fonts-dejavu-core
  # the reports' escaping tests (test/e2e/report_escape_test.py): pdflatex compiles the
  # LaTeX report (booktabs is in -recommended), pdftotext reads the PDF back, and
  # Python-Markdown renders the Markdown report for Chromium
  texlive-latex-base texlive-latex-recommended poppler-utils python3-markdown
  # the progress bar's terminal test (test/e2e/progress_terminal_test.py): a tmux
  # server of its own, on a socket in the test's directory
  tmux
  # `alea compare` exports revisions with git archive (its tests make a repository)
  git
  # scripts/long_functions.py finds the functions over 150 lines with libclang's Python
  # bindings (run by Debian's /usr/bin/python3, where this package installs them)
  python3-clang-19
  # the tree's format (.clang-format: LLVM style): `clang-format-19 -i` on a file you edit
  clang-format-19
)

SUDO=""
if [[ $(id -u) -ne 0 ]]; then SUDO="sudo"; fi

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

# deb-src entry for Debian's archive, so tests can `apt-get source zlib lua5.4`.
need_src_update=0
if ! grep -rqsE '^(Types:.*deb-src|deb-src )' /etc/apt/sources.list /etc/apt/sources.list.d/; then
  echo "alea setup: adding deb-src entry for bookworm" >&2
  $SUDO tee /etc/apt/sources.list.d/alea-deb-src.sources >/dev/null <<'SRC'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
  need_src_update=1
fi

if ((${#missing[@]})) || ((need_src_update)); then
  echo "alea setup: installing ${missing[*]:-(sources index only)}" >&2
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  if ((${#missing[@]})); then
    $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  fi
fi
