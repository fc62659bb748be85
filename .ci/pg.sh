# Throwaway PostgreSQL cluster on 127.0.0.1, for CI and for developers running the PostgreSQL suite.
# Usage: source .ci/pg.sh; pg_start   (exports DATABASE_URL and PG_TMP);  ...; pg_stop
# Installs PostgreSQL from Debian when no server binaries are present. Needs root (or a postgres user).

pg_bindir() {
  ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1
}

pg_install() {
  if [ -z "$(pg_bindir)" ]; then
    echo "pg.sh: installing PostgreSQL from Debian"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
  fi
  [ -n "$(pg_bindir)" ] || { echo "pg.sh: PostgreSQL server binaries not found after install" >&2; return 1; }
}

pg_free_port() {
  node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'
}

# postgres refuses to run as root: run its tools as the postgres user when we are root.
pg_as() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

pg_start() {
  pg_install || return 1
  local bin; bin=$(pg_bindir)
  PG_TMP=$(mktemp -d /tmp/prode-pg.XXXXXX)
  chmod 755 "$PG_TMP"
  [ "$(id -u)" = 0 ] && chown postgres "$PG_TMP"
  PG_PORT=$(pg_free_port)
  pg_as "$bin/initdb" -D "$PG_TMP/data" -U prode -A trust -E UTF8 --no-locale >"$PG_TMP/initdb.log" 2>&1 \
    || { cat "$PG_TMP/initdb.log" >&2; return 1; }
  pg_as "$bin/pg_ctl" -D "$PG_TMP/data" -l "$PG_TMP/server.log" -w -t 60 start \
    -o "-c listen_addresses=127.0.0.1 -p $PG_PORT -k $PG_TMP -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300" \
    >/dev/null || { cat "$PG_TMP/server.log" >&2; return 1; }
  pg_as "$bin/createdb" -h 127.0.0.1 -p "$PG_PORT" -U prode prode
  export PG_TMP PG_PORT PG_BIN="$bin"
  export DATABASE_URL="postgresql://prode@127.0.0.1:$PG_PORT/prode"
  echo "pg.sh: PostgreSQL $("$bin/postgres" --version | awk '{print $3}') on 127.0.0.1:$PG_PORT"
}

pg_stop() {
  [ -n "${PG_TMP:-}" ] || return 0
  pg_as "$PG_BIN/pg_ctl" -D "$PG_TMP/data" -m fast -w stop >/dev/null 2>&1
  rm -rf "$PG_TMP"
  unset PG_TMP DATABASE_URL
}
