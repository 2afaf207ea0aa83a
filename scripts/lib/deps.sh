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

# ensure_pip MODULE=PACKAGE... : installs a PyPI package when its module does not import.
ensure_pip() {
  local missing=()
  for pair in "$@"; do
    python3 -c "import ${pair%%=*}" 2>/dev/null || missing+=("${pair#*=}")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "kindred: installing PyPI packages: ${missing[*]}"
  python3 -m pip install --quiet --disable-pip-version-check "${missing[@]}"
}

# ensure_browser_test_deps : what the admin console's real-browser test drives: Debian's
# chromium and chromium-driver (headless), and Python's Selenium.
ensure_browser_test_deps() {
  ensure_apt chromium chromium-driver
  ensure_pip selenium=selenium
}
