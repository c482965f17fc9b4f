#!/usr/bin/env bash
# CI step: checks a .deb against what docs/admin.md promises. Usage: check-deb.sh [DEB]
# With no DEB it builds one with cargo-deb from target/release/highchair. Every package: its
# architecture, the binary, the config (a conffile), the unit, the docs. A package for this
# machine's architecture is then installed with dpkg: the system user and private data
# directory, the unit (systemd-analyze verify), serving as the service user, a backup taken by
# root through the admin socket, a restore, then remove and purge keeping the family's data
# unless asked. Needs root (or sudo). (scripts/release's arm64 package is checked without
# installing it here.)
set -euo pipefail
cd "$(dirname "$0")/.."

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
step() { printf '\n--> %s\n' "$*"; }
fail() { echo "check-deb: $*" >&2; exit 1; }

step "the packaged config is the default config with the package's data directory"
diff <(sed 's|^data_dir = .*|data_dir = DIR|' config/highchair.toml) \
     <(sed 's|^data_dir = .*|data_dir = DIR|' packaging/deb/highchair.toml)
grep -qx 'data_dir = "/var/lib/highchair"' packaging/deb/highchair.toml

deb=${1:-}
if [ -z "$deb" ]; then
  step "cargo-deb"
  if ! command -v cargo-deb >/dev/null; then
    cargo install --locked cargo-deb --version "^3"
  fi
  [ -x target/release/highchair ] || fail "build the release binary first (cargo build --release)"
  rm -rf target/debian
  cargo deb --no-build --no-strip --output target/debian/
  deb=$(ls target/debian/highchair_*.deb)
fi
version=$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -1)
arch=$(dpkg-deb --field "$deb" Architecture)

step "contents of $deb ($arch)"
# (Outputs are captured first: `grep -q` closing a pipe early fails the pipeline under pipefail.)
info=$(dpkg-deb --info "$deb")
grep -q "Package: highchair" <<<"$info" || fail "not the highchair package"
[ "$(dpkg-deb --field "$deb" Version)" = "$version" ] || fail "version $(dpkg-deb --field "$deb" Version), not $version"
contents=$(dpkg-deb --contents "$deb")
for path in ./usr/bin/highchair ./etc/highchair/highchair.toml ./usr/share/doc/highchair/admin.md; do
  grep -q " $path\$" <<<"$contents" || fail "$path is not in the package"
done
grep -Eq "systemd/system/highchair.service\$" <<<"$contents" || fail "the unit is not in the package"
conffiles=$(dpkg-deb --ctrl-tarfile "$deb" | tar -xO ./conffiles)
grep -qx /etc/highchair/highchair.toml <<<"$conffiles" || fail "the config is not a conffile"
unpacked=$(mktemp -d)
trap 'rm -rf "$unpacked"' EXIT
dpkg-deb -x "$deb" "$unpacked"
case $arch in
  amd64) machine='x86-64' ;;
  arm64) machine='ARM aarch64' ;;
  *) fail "unexpected architecture $arch" ;;
esac
described=$(file -b "$unpacked/usr/bin/highchair")
grep -q "$machine" <<<"$described" || fail "the binary is not for $arch: $described"
cmp -s "$unpacked/lib/systemd/system/highchair.service" packaging/highchair.service \
  || cmp -s "$unpacked/usr/lib/systemd/system/highchair.service" packaging/highchair.service \
  || fail "the unit in the package is not packaging/highchair.service"
cmp -s "$unpacked/etc/highchair/highchair.toml" packaging/deb/highchair.toml || fail "the config is not packaging/deb/highchair.toml"
if [ "$arch" != "$(dpkg --print-architecture)" ]; then
  echo "check-deb: contents good ($deb); not installed on this $(dpkg --print-architecture) machine"
  exit 0
fi

step "install with dpkg"
# This installs, removes and purges the package for real: never on a machine that runs Highchair.
if [ -e /var/lib/highchair ] || dpkg -s highchair >/dev/null 2>&1; then
  fail "highchair is installed here, or /var/lib/highchair exists: run this on a CI machine only"
fi
as_root dpkg -i "$deb"
shown=$(highchair --version)
[ "$shown" = "highchair $version" ] || fail "highchair --version: $shown"
checked=$(highchair config check --config /etc/highchair/highchair.toml)
grep -q 'data_dir = "/var/lib/highchair"' <<<"$checked" || fail "config check: $checked"
getent passwd highchair >/dev/null || fail "no highchair user"
[ "$(stat -c '%U %a' /var/lib/highchair)" = "highchair 700" ] || fail "data dir: $(stat -c '%U %a' /var/lib/highchair)"
unit=$(ls /lib/systemd/system/highchair.service /usr/lib/systemd/system/highchair.service 2>/dev/null | head -1)
[ -n "$unit" ] || fail "the unit was not installed"
step "systemd-analyze verify $unit"
as_root systemd-analyze verify "$unit"
if [ -d /run/systemd/system ]; then
  [ "$(systemctl is-enabled highchair)" = enabled ] || fail "the unit is not enabled"
  as_root systemctl stop highchair
fi

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
serve() {
  as_root setsid runuser -u highchair -- highchair serve --config /etc/highchair/highchair.toml \
    --listen "127.0.0.1:$port" >/tmp/highchair-deb.log 2>&1 &
  for _ in $(seq 1 150); do
    python3 -c "import urllib.request,sys; urllib.request.urlopen('http://127.0.0.1:$port/api/health', timeout=1)" \
      >/dev/null 2>&1 && return 0
    sleep 0.1
  done
  cat /tmp/highchair-deb.log; fail "the installed server did not start"
}
# SIGTERM to the server itself (not to the shells around it), then wait until it has exited.
stop() {
  as_root pkill -TERM -u highchair -x highchair || true
  for _ in $(seq 1 100); do
    pgrep -u highchair -x highchair >/dev/null || return 0
    sleep 0.1
  done
  fail "the installed server did not stop"
}

step "serve as the service user, add an account and take a backup as root through the socket"
serve
# What the container's HEALTHCHECK runs, against the installed server's settings.
highchair health --config /etc/highchair/highchair.toml --listen "127.0.0.1:$port" \
  || fail "highchair health fails on a healthy server"
echo "correct horse" | as_root runuser -u highchair -- highchair --config /etc/highchair/highchair.toml \
  user add admin@example.org --first Admin --password-stdin
users=$(as_root highchair --config /etc/highchair/highchair.toml user list)
grep -q admin@example.org <<<"$users" || fail "user list: $users"
out=$(as_root highchair --config /etc/highchair/highchair.toml backup)
echo "$out"
archive=$(sed -n 's/^Backup written: \(.*\) (.*/\1/p' <<<"$out")
as_root highchair backup verify "$archive"
as_root highchair --config /etc/highchair/highchair.toml backup --out /tmp/highchair-deb-backup.tar
as_root highchair backup verify /tmp/highchair-deb-backup.tar
stop

step "restore as root: the restored store belongs to the service user and opens"
as_root highchair --config /etc/highchair/highchair.toml restore /tmp/highchair-deb-backup.tar --force
[ "$(stat -c %U /var/lib/highchair/highchair.db)" = highchair ] || fail "the restored store is not the service user's"
serve
users=$(as_root runuser -u highchair -- highchair --config /etc/highchair/highchair.toml user list)
grep -q admin@example.org <<<"$users" || fail "user list after the restore: $users"
stop
as_root rm -f /tmp/highchair-deb-backup.tar

step "remove keeps config and data; purge keeps data unless asked"
as_root dpkg -r highchair
[ ! -e /usr/bin/highchair ] || fail "the binary is still there after remove"
[ -f /etc/highchair/highchair.toml ] || fail "remove took the config"
[ -f /var/lib/highchair/highchair.db ] || fail "remove took the data"
as_root dpkg -P highchair
[ ! -e /etc/highchair/highchair.toml ] || fail "purge kept the config"
[ -f /var/lib/highchair/highchair.db ] || fail "purge took the data without being asked"
as_root dpkg -i "$deb"
as_root env HIGHCHAIR_PURGE_DATA=yes dpkg -P highchair
[ ! -e /var/lib/highchair ] || fail "purge with HIGHCHAIR_PURGE_DATA=yes kept the data"
echo "check-deb: all good ($deb)"
