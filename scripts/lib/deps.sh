# Helpers that install what Kindred's tests and benchmarks need, only when it is missing.
# Sourced by scripts/test and the scripts/bench-* scripts; safe to run again.

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
    echo "kindred: need root to run: $*" >&2; return 1; fi
}

# ensure_apt PACKAGE... : installs the Debian packages that are not installed yet.
ensure_apt() {
  local missing=()
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "kindred: installing Debian packages: ${missing[*]}"
  as_root apt-get update -qq
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq "${missing[@]}" >/dev/null
}

# ensure_pip MODULE=PACKAGE[==VERSION]... : installs a PyPI package when its module does not
# import; with a pinned VERSION, also when the installed version is another one (pip then
# replaces it).
ensure_pip() {
  local missing=() pair module spec package installed
  for pair in "$@"; do
    module="${pair%%=*}" spec="${pair#*=}"
    package="${spec%%==*}"
    if [ "$package" != "$spec" ]; then
      installed="$(python3 -c "import importlib.metadata as m, sys; print(m.version(sys.argv[1]))" "$package" 2>/dev/null || true)"
      if [ "$installed" != "${spec#*==}" ]; then missing+=("$spec"); continue; fi
    fi
    python3 -c "import $module" 2>/dev/null || missing+=("$spec")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "kindred: installing PyPI packages: ${missing[*]}"
  python3 -m pip install --quiet --disable-pip-version-check "${missing[@]}"
}

# The schemathesis release the contract fuzzing (OpenAPIConformanceLiveTests, scripts/fuzz-api)
# was written and measured against: its generators, phases and checks change between releases.
SCHEMATHESIS_PIN="schemathesis==4.32.5"

# ensure_schemathesis : the pinned schemathesis (and its `schemathesis` command).
ensure_schemathesis() {
  ensure_pip "schemathesis=$SCHEMATHESIS_PIN"
}

# ensure_browser_test_deps : what the admin console's real-browser test drives: Debian's
# chromium and chromium-driver (headless), and Python's Selenium.
ensure_browser_test_deps() {
  ensure_apt chromium chromium-driver
  ensure_pip selenium=selenium
}
