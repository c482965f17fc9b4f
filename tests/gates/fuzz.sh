#!/usr/bin/env bash
# API fuzzing gate: schemathesis against the running release binary's own OpenAPI document.
#
# Starts `highchair serve` on a free loopback port with a fresh data directory, then runs
# schemathesis twice against http://127.0.0.1:PORT/api/openapi.json:
#   1. signed out (no cookie),
#   2. signed in as a parent account created through POST /api/auth/signup (session cookie
#      passed as a header; POST /api/auth/logout is left out of this run because it would end
#      the very session the run uses; it is covered by the signed-out run).
# Checks: not_a_server_error, status_code_conformance, response_schema_conformance, on every
# operation of the document. Any failure makes the script exit non-zero.
#
# Usage: tests/gates/fuzz.sh            (from anywhere)
# Env:   HIGHCHAIR_BIN       binary to test (default target/release/highchair; never built here)
#        FUZZ_MAX_EXAMPLES   test cases per operation and phase (default 40)
#        FUZZ_SEED           hypothesis seed (default 20240601)
#        FUZZ_WORKERS        concurrent schemathesis workers (default 2)
#        FUZZ_TIMEOUT        wall-clock limit of each schemathesis run in seconds (default 300)
#        FUZZ_REPORT_DIR     where the JUnit/NDJSON reports and logs go (default: a temp dir,
#                            removed after a pass, kept and printed after a failure)
# Network: loopback only. Needs PyPI once to fill .venv.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"

SCHEMATHESIS_VERSION="4.32.5"   # the version this gate was written and tested with
BIN="${HIGHCHAIR_BIN:-target/release/highchair}"
MAX_EXAMPLES="${FUZZ_MAX_EXAMPLES:-40}"
SEED="${FUZZ_SEED:-20240601}"
WORKERS="${FUZZ_WORKERS:-2}"
RUN_TIMEOUT="${FUZZ_TIMEOUT:-300}"
CHECKS="not_a_server_error,status_code_conformance,response_schema_conformance"

log() { printf '==> %s\n' "$*" >&2; }

if [ ! -x "$BIN" ]; then
  echo "fuzz.sh: $BIN is missing or not executable; build the release binary first" \
       "(cargo build --release) or set HIGHCHAIR_BIN" >&2
  exit 2
fi
BIN="$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")"

# --- schemathesis in .venv, pinned -------------------------------------------------------
VENV="$ROOT/.venv"
if [ ! -x "$VENV/bin/python" ]; then
  log "creating $VENV"
  python3 -m venv "$VENV"
fi
if ! "$VENV/bin/python" -c "import importlib.metadata as m, sys; sys.exit(m.version('schemathesis') != '$SCHEMATHESIS_VERSION')" 2>/dev/null; then
  log "installing schemathesis==$SCHEMATHESIS_VERSION into $VENV"
  "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check "schemathesis==$SCHEMATHESIS_VERSION"
fi
ST="$VENV/bin/schemathesis"

# --- the server ----------------------------------------------------------------------------
WORK="$(mktemp -d "${TMPDIR:-/tmp}/highchair-fuzz.XXXXXX")"
REPORT_DIR="${FUZZ_REPORT_DIR:-$WORK/report}"
mkdir -p "$REPORT_DIR"
SERVER_PID=""

cleanup() {
  local rc=$?
  if [ -n "$SERVER_PID" ] && kill -0 "$SERVER_PID" 2>/dev/null; then
    kill -TERM "$SERVER_PID" 2>/dev/null || true
    for _ in $(seq 1 50); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
  fi
  # Keep the server log next to the reports, then drop the data directory.
  if [ -f "$WORK/server.log" ]; then cp "$WORK/server.log" "$REPORT_DIR/server.log" || true; fi
  rm -rf "$WORK/data"
  if [ -z "${FUZZ_REPORT_DIR:-}" ]; then
    if [ "$rc" = 0 ]; then
      rm -rf "$WORK"
    else
      log "reports and logs kept in $REPORT_DIR (replay a case there with: $ST replay ID)"
    fi
  fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

PORT="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')"
BASE="http://127.0.0.1:$PORT"
ORIGIN="$BASE"

log "starting $BIN serve on $BASE (data in $WORK/data)"
# Default settings: the built-in recipe generator, so nothing leaves the machine. A clean
# environment, because the server refuses any HIGHCHAIR_* variable that is not a setting
# (HIGHCHAIR_BIN included).
env -i PATH="$PATH" HOME="${HOME:-/tmp}" HIGHCHAIR_LOG_LEVEL=info HIGHCHAIR_LIMITS_MIN_FREE_DISK_MB=0 \
  "$BIN" serve --listen "127.0.0.1:$PORT" --data-dir "$WORK/data" >"$WORK/server.log" 2>&1 &
SERVER_PID=$!

deadline=$((SECONDS + 20))
until curl -fs -o /dev/null "$BASE/api/health" 2>/dev/null; do
  if ! kill -0 "$SERVER_PID" 2>/dev/null; then
    echo "fuzz.sh: highchair exited early:" >&2; cat "$WORK/server.log" >&2; exit 1
  fi
  if [ "$SECONDS" -ge "$deadline" ]; then
    echo "fuzz.sh: highchair did not become healthy in 20 s:" >&2; cat "$WORK/server.log" >&2; exit 1
  fi
  sleep 0.1
done
curl -fsS "$BASE/api/openapi.json" -o "$REPORT_DIR/openapi.json"
log "healthy; $(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(sum(1 for p in d["paths"].values() for m in p if m in ("get","put","post","delete","patch","head","options")))' "$REPORT_DIR/openapi.json") operations in the document"

# --- a parent account and its session cookie -------------------------------------------------
# The cookie name is read from Set-Cookie rather than assumed.
signup_headers="$WORK/signup.headers"
signup_status="$(curl -sS -o "$WORK/signup.body" -D "$signup_headers" -w '%{http_code}' \
  -X POST "$BASE/api/auth/signup" \
  -H 'Content-Type: application/json' -H "Origin: $ORIGIN" \
  --data '{"firstName":"Fuzz","lastName":"Gate","email":"fuzz.gate@example.test","password":"Fuzz-Gate-Passw0rd!","role":"mom","acceptTerms":true}')"
if [ "${signup_status:0:1}" != 2 ]; then
  echo "fuzz.sh: sign-up answered $signup_status:" >&2; cat "$WORK/signup.body" >&2; exit 1
fi
COOKIE="$(awk -F': ' 'tolower($1)=="set-cookie" { split($2, a, ";"); print a[1]; exit }' "$signup_headers" | tr -d '\r')"
if [ -z "$COOKIE" ] || [ "${COOKIE#*=}" = "" ]; then
  echo "fuzz.sh: sign-up set no session cookie" >&2; cat "$signup_headers" >&2; exit 1
fi
log "signed up a parent; session cookie ${COOKIE%%=*}"

session_alive() {
  curl -fsS -H "Cookie: $COOKIE" "$BASE/api/auth/session" \
    | python3 -c 'import json,sys; sys.exit(0 if (json.load(sys.stdin).get("user") or None) else 1)'
}

# --- schemathesis ---------------------------------------------------------------------------
run_st() {
  local name="$1"; shift
  log "schemathesis: $name (max $MAX_EXAMPLES examples/operation, seed $SEED)"
  local rc
  set +e
  # Run from the report directory: schemathesis keeps its replay cache (.schemathesis/, for
  # `st replay ID`) and hypothesis its files in the working directory, not in the repository.
  (cd "$REPORT_DIR" && timeout --signal=INT --kill-after=30 "$RUN_TIMEOUT" \
    "$ST" --config-file "$ROOT/tests/gates/schemathesis.toml" run "$BASE/api/openapi.json" \
      --checks "$CHECKS" \
      --max-examples "$MAX_EXAMPLES" \
      --seed "$SEED" \
      --workers "$WORKERS" \
      --request-timeout 10 \
      --generation-database none \
      --suppress-health-check all \
      --continue-on-failure \
      --no-color \
      --header "Origin: $ORIGIN" \
      --report junit,ndjson \
      --report-junit-path "$REPORT_DIR/$name.junit.xml" \
      --report-ndjson-path "$REPORT_DIR/$name.ndjson" \
      "$@") 2>&1 | tee "$REPORT_DIR/$name.log"
  rc="${PIPESTATUS[0]}"   # schemathesis' status, not tee's
  set -e
  if [ "$rc" = 124 ] || [ "$rc" = 130 ]; then
    echo "fuzz.sh: schemathesis ($name) hit the ${RUN_TIMEOUT}s limit" >&2
  fi
  return "$rc"
}

# Whether a run's log shows only schemathesis' or hypothesis' own crashes ("Runtime Error" with
# a traceback inside them, such as hypothesis' lambda-source introspection failing now and then
# on Python 3.11) and no check failure: such a run is repeated once, a real failure never.
only_tool_crashes() {
  python3 - "$1" <<'PY'
import re, sys
text = open(sys.argv[1], encoding="utf-8", errors="replace").read()
if re.search(r"^=+ FAILURES =+$", text, re.M) or not re.search(r"^=+ ERRORS =+$", text, re.M):
    sys.exit(1)
errors = text.split("ERRORS", 1)[1]
blocks = re.split(r"^_{4,} .+ _{4,}$", errors, flags=re.M)[1:]
tool = lambda b: b.lstrip().startswith("Runtime Error") and re.search(r"site-packages/(hypothesis|schemathesis)/", b)
sys.exit(0 if blocks and all(tool(b) for b in blocks) else 1)
PY
}

# Runs schemathesis; once more if the first run ended in nothing but a crash of the tool.
run_st_once_more() {
  local name="$1"
  run_st "$@" && return 0
  local rc=$?
  if only_tool_crashes "$REPORT_DIR/$name.log"; then
    log "schemathesis ($name) crashed inside itself, with no failed check: running it once more"
    run_st "$@"
    return $?
  fi
  return "$rc"
}

failed=()
run_st_once_more signed-out || failed+=("signed-out")

if ! session_alive; then
  echo "fuzz.sh: the parent's session is not alive before the signed-in run" >&2
  failed+=("session-before-signed-in")
fi
run_st_once_more signed-in \
  --header "Cookie: $COOKIE" \
  --exclude-path /auth/logout \
  || failed+=("signed-in")
if ! session_alive; then
  # Something in the run ended the session: the later part of the signed-in run then tested
  # signed-out behaviour only, so the gate cannot vouch for it.
  echo "fuzz.sh: the parent's session ended during the signed-in run" >&2
  failed+=("session-ended-during-signed-in")
fi

if ! kill -0 "$SERVER_PID" 2>/dev/null; then
  echo "fuzz.sh: highchair died during the run" >&2
  failed+=("server-died")
fi

if [ "${#failed[@]}" -gt 0 ]; then
  echo "fuzz.sh: FAILED: ${failed[*]} (details in $REPORT_DIR)" >&2
  exit 1
fi
log "fuzz gate passed"
