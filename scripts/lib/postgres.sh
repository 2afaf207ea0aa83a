# A throwaway PostgreSQL for the test suite: a fresh cluster in a temporary folder, on a free
# loopback port, run as an unprivileged user (PostgreSQL refuses to run as root).
# Sourced by scripts/test after scripts/lib/deps.sh.

KINDRED_PG_DIR=""
KINDRED_PG_BIN=""
KINDRED_PG_RUN=()

# start_test_postgres : starts the server and exports KINDRED_TEST_POSTGRES_URL.
# With KINDRED_PG_DURABLE=1 (the benchmarks) the cluster keeps PostgreSQL's durable defaults
# (fsync, synchronous_commit and full_page_writes on), so a figure measures committed writes.
start_test_postgres() {
  ensure_apt postgresql
  KINDRED_PG_BIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
  if [ -z "$KINDRED_PG_BIN" ] || [ ! -x "$KINDRED_PG_BIN/initdb" ]; then
    echo "kindred: no PostgreSQL server binaries under /usr/lib/postgresql/*/bin" >&2
    return 1
  fi
  KINDRED_PG_DIR=$(mktemp -d "${TMPDIR:-/tmp}/kindred-pg.XXXXXX")
  if [ "$(id -u)" = 0 ]; then
    id kindredtest >/dev/null 2>&1 ||
      useradd --system --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin kindredtest
    chown kindredtest "$KINDRED_PG_DIR"
    KINDRED_PG_RUN=(runuser -u kindredtest --)
  fi
  local port
  port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
  if ! "${KINDRED_PG_RUN[@]}" "$KINDRED_PG_BIN/initdb" -D "$KINDRED_PG_DIR/data" -U kindred \
      --auth=trust --encoding=UTF8 --no-locale >"$KINDRED_PG_DIR/initdb.log" 2>&1; then
    cat "$KINDRED_PG_DIR/initdb.log" >&2
    return 1
  fi
  # Durability is pointless for a cluster deleted after the test run; turning it off saves minutes.
  local durability="-c fsync=off -c synchronous_commit=off -c full_page_writes=off"
  if [ "${KINDRED_PG_DURABLE:-0}" = 1 ]; then durability=""; fi
  if ! "${KINDRED_PG_RUN[@]}" "$KINDRED_PG_BIN/pg_ctl" -D "$KINDRED_PG_DIR/data" -l "$KINDRED_PG_DIR/postgres.log" \
      -o "-h 127.0.0.1 -p $port -k $KINDRED_PG_DIR $durability -c max_connections=500" \
      -w -t 60 start >/dev/null; then
    cat "$KINDRED_PG_DIR/postgres.log" >&2
    return 1
  fi
  "$KINDRED_PG_BIN/pg_isready" -q -h 127.0.0.1 -p "$port" -t 30
  "$KINDRED_PG_BIN/createdb" -h 127.0.0.1 -p "$port" -U kindred kindred_test
  export KINDRED_TEST_POSTGRES_URL="postgres://kindred@127.0.0.1:$port/kindred_test"
  echo "kindred: test PostgreSQL $(basename "$(dirname "$KINDRED_PG_BIN")") on 127.0.0.1:$port"
}

# stop_test_postgres : stops the server and deletes its folder; safe when nothing was started.
stop_test_postgres() {
  [ -n "$KINDRED_PG_DIR" ] || return 0
  if [ -f "$KINDRED_PG_DIR/data/postmaster.pid" ]; then
    "${KINDRED_PG_RUN[@]}" "$KINDRED_PG_BIN/pg_ctl" -D "$KINDRED_PG_DIR/data" -m fast -w stop >/dev/null 2>&1 || true
  fi
  rm -rf "$KINDRED_PG_DIR"
  KINDRED_PG_DIR=""
}
