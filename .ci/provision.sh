# Sourced by .ci/run: puts what a fresh machine lacks in place. Idempotent; installs nothing that is there.

# The Node.js the project targets (.nvmrc names the major). Official binaries from the npm registry,
# which is reachable where nodejs.org may not be.
NODE_VERSION="24.21.0"
MIN_NODE="24.0.0"
CACHE_DIR="${XDG_CACHE_HOME:-$HOME/.cache}/edge-app"

version_at_least() { # $1 >= $2, both x.y.z
  [ "$(printf '%s\n%s\n' "$2" "$1" | sort -V | head -n 1)" = "$2" ]
}

provision_node() {
  local current=""
  command -v node >/dev/null 2>&1 && current="$(node --version | sed 's/^v//')"
  if [ -n "$current" ] && version_at_least "$current" "$MIN_NODE"; then
    echo "Node $current (>= $MIN_NODE): using it."
    return
  fi
  local os arch package prefix
  case "$(uname -s)" in Linux) os=linux ;; Darwin) os=darwin ;; *) os=unsupported ;; esac
  case "$(uname -m)" in x86_64 | amd64) arch=x64 ;; aarch64 | arm64) arch=arm64 ;; *) arch=unsupported ;; esac
  if [ "$os" = unsupported ] || [ "$arch" = unsupported ] || ! command -v npm >/dev/null 2>&1; then
    echo "Node ${current:-(none)} is older than $MIN_NODE and cannot be provisioned here: install Node 24 (see .nvmrc)." >&2
    exit 1
  fi
  # npm finds its global config (registry, cafile) relative to Node's prefix: keep the machine's.
  local globalconfig
  globalconfig="$(npm config get globalconfig 2>/dev/null || true)"
  if [ -f "$globalconfig" ]; then export NPM_CONFIG_GLOBALCONFIG="$globalconfig"; fi
  package="node-$os-$arch@$NODE_VERSION"
  prefix="$CACHE_DIR/node-$NODE_VERSION-$os-$arch"
  if [ ! -x "$prefix/node_modules/node-$os-$arch/bin/node" ]; then
    echo "Node ${current:-(none)} is older than $MIN_NODE: installing $package into $prefix"
    mkdir -p "$prefix"
    npm install --prefix "$prefix" --no-save --no-package-lock --no-audit --no-fund "$package" >/dev/null
  fi
  export PATH="$prefix/node_modules/node-$os-$arch/bin:$PATH"
  echo "Using Node $(node --version) from $prefix"
}

# Debian's Chromium for the browser tests, when the machine has none. On a fresh machine its apt download and
# unpacking take about as long as `npm ci`, and neither waits on the other: `.ci/run` starts this one in the
# background (chromium_install_start), installs the npm packages, then waits for it (chromium_install_wait).
chromium_missing() {
  [ -z "${CHROMIUM_PATH:-}" ] && ! command -v chromium >/dev/null 2>&1
}

chromium_install() {
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "Installing Debian's Chromium for the browser tests"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    echo "Chromium is missing: install it (Debian: apt-get install chromium) or set CHROMIUM_PATH." >&2
    return 1
  fi
}

CHROMIUM_INSTALL_PID=""
CHROMIUM_INSTALL_LOG=""

chromium_install_start() {
  chromium_missing || return 0
  CHROMIUM_INSTALL_LOG="$(mktemp)"
  chromium_install >"$CHROMIUM_INSTALL_LOG" 2>&1 &
  CHROMIUM_INSTALL_PID=$!
  # If the run stops before chromium_install_wait (a failed `npm ci`), it still waits for apt to finish: killed,
  # apt could leave dpkg half-done; left running, it outlived the run and held apt's lock.
  trap 'chromium_install_wait_on_exit' EXIT
}

chromium_install_wait_on_exit() {
  if [ -n "$CHROMIUM_INSTALL_PID" ]; then
    echo "Waiting for the Chromium install begun beside npm ci to finish" >&2
    wait "$CHROMIUM_INSTALL_PID" 2>/dev/null || true
    rm -f "$CHROMIUM_INSTALL_LOG"
  fi
}

# Waits for the install chromium_install_start began (its output printed, and its failure the run's), then
# says which Chromium the tests use.
chromium_install_wait() {
  if [ -n "$CHROMIUM_INSTALL_PID" ]; then
    trap - EXIT
    local status=0
    wait "$CHROMIUM_INSTALL_PID" || status=$?
    cat "$CHROMIUM_INSTALL_LOG"
    rm -f "$CHROMIUM_INSTALL_LOG"
    CHROMIUM_INSTALL_PID=""
    [ "$status" = 0 ] || exit "$status"
  fi
  export CHROMIUM_PATH="${CHROMIUM_PATH:-$(command -v chromium)}"
  echo "Using $("$CHROMIUM_PATH" --version 2>/dev/null || echo "$CHROMIUM_PATH")"
}

# The same, in the foreground.
provision_chromium() {
  chromium_install_start
  chromium_install_wait
}

install_dependencies() {
  # npm ci whenever the lockfile changed since the last install (always, on a fresh clone). `$1` = "no-scripts":
  # without the project's `postinstall` (`npm run typegen`), for a run whose first step generates the same types.
  local stamp="node_modules/.ci-lockfile.sha256" want
  want="$(sha256sum package-lock.json | cut -d' ' -f1)"
  if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
    local scripts=()
    [ "${1:-}" = no-scripts ] && scripts=(--ignore-scripts)
    npm ci --no-audit --no-fund "${scripts[@]}"
    echo "$want" >"$stamp"
  fi
}
