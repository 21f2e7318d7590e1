# Shared helpers of the real-project tests (sourced, not run). They build real
# projects with alea's wrappers; CTest passes ALEA_BUILD (the CMake build dir)
# and ALEA_PROJECTS_CACHE (downloaded Debian sources, kept between runs).
# Every failure is loud: `fail` prints "FAIL: ..." and exits 1.
set -euo pipefail

fail() {
  echo "FAIL: $*" >&2
  exit 1
}
note() { echo "== $*"; }

: "${ALEA_BUILD:?set ALEA_BUILD to the CMake build directory}"
ALEA_BUILD=$(cd "$ALEA_BUILD" && pwd)
ALEA_PROJECTS_CACHE=${ALEA_PROJECTS_CACHE:-$ALEA_BUILD/projects-cache}
PROJECTS_SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
mkdir -p "$ALEA_PROJECTS_CACHE"

# Never inherit the developer's alea configuration; tests set what they need.
for v in $(env | sed -n 's/^\(ALEA_[A-Z_]*\)=.*/\1/p'); do
  case $v in ALEA_BUILD | ALEA_PROJECTS_CACHE) ;; *) unset "$v" ;; esac
done
export PATH="$ALEA_BUILD/bin:$PATH"

ALEA="$ALEA_BUILD/bin/alea"
for tool in alea alea-cc alea-c++; do
  [[ -x $ALEA_BUILD/bin/$tool ]] || fail "$ALEA_BUILD/bin/$tool is not built"
done
[[ -f $ALEA_BUILD/lib/AleaPlugin.so ]] || fail "$ALEA_BUILD/lib/AleaPlugin.so is not built"
command -v clang-19 >/dev/null || fail "clang-19 not on PATH (scripts/setup.sh installs it)"

# fetch_source PACKAGE [--skip-patches] -> prints the directory of the unpacked
# Debian source. Downloads once with `apt-get source --download-only` into the
# cache; unpacks with dpkg-source (applying Debian's patches unless
# --skip-patches). Fails loudly without network.
fetch_source() {
  local pkg=$1 dir="$ALEA_PROJECTS_CACHE/$1" skip=${2:-}
  mkdir -p "$dir"
  if ! compgen -G "$dir/*.dsc" >/dev/null; then
    (cd "$dir" && apt-get source --download-only "$pkg" >"$dir/download.log" 2>&1) ||
      fail "apt-get source --download-only $pkg failed (no network or no deb-src entry?" \
        "run scripts/setup.sh); see $dir/download.log"
  fi
  local dsc
  dsc=$(compgen -G "$dir/*.dsc" | head -n1)
  local out="$dir/src${skip:+-unpatched}"
  if [[ ! -d $out ]]; then
    rm -rf "$out.tmp"
    dpkg-source --no-check $skip -x "$dsc" "$out.tmp" >"$dir/unpack.log" 2>&1 ||
      fail "dpkg-source -x $dsc failed; see $dir/unpack.log"
    mv "$out.tmp" "$out"
  fi
  echo "$out"
}

# fresh_copy SRC DEST: a clean copy of a source tree to build in.
fresh_copy() {
  rm -rf "$2"
  cp -a "$1" "$2"
}

# seed_hex DECIMAL -> the 16-hex-digit form the ELF note records.
seed_hex() { printf '%016x' "$1"; }

# check_recorded BINARY SEED: `alea layout` shows the seed, all seven factors
# and notes that agree.
check_recorded() {
  local out
  out=$("$ALEA" layout "$1") || fail "alea layout $1 failed"
  grep -q "^seed: *0x$(seed_hex "$2")\$" <<<"$out" ||
    fail "alea layout $1 does not show seed $2:"$'\n'"$(head -5 <<<"$out")"
  grep -q "^factors: *function-order,global-order,symbol-names,code-padding,stack-offset,link-order,section-order\$" <<<"$out" ||
    fail "alea layout $1 does not show all factors:"$'\n'"$(head -5 <<<"$out")"
  grep -q "^notes: .*(all agree)" <<<"$out" ||
    fail "alea layout $1: notes disagree:"$'\n'"$(head -8 <<<"$out")"
}

# check_unrandomized BINARY: no alea note.
check_unrandomized() {
  local out
  out=$("$ALEA" layout "$1") || fail "alea layout $1 failed"
  grep -q "^seed: *none (not randomized by alea)" <<<"$out" ||
    fail "$1 (built without ALEA_SEED) carries an alea note"
}

# check_layouts_differ A B: fingerprints differ and the diff says so.
check_layouts_differ() {
  local out
  out=$("$ALEA" layout --diff "$1" "$2") || fail "alea layout --diff $1 $2 failed"
  echo "$out" | sed 's/^/   /'
  grep -q "^layouts: *different" <<<"$out" || fail "$1 and $2 have the same layout"
  [[ $("$ALEA" layout --fingerprint "$1") != $("$ALEA" layout --fingerprint "$2") ]] ||
    fail "$1 and $2 have the same fingerprint"
}
