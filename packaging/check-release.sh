#!/usr/bin/env bash
# CI step after scripts/release: checks what it put in dist/ as a family would use it.
#  - SHA256SUMS matches; every .deb, tarball and image of an architecture carries the binary the
#    script built (byte for byte), for that architecture.
#  - both .debs' contents (packaging/check-deb.sh); the amd64 one is installed, served, backed
#    up, restored, removed and purged on this machine.
#  - the arm64 binary under qemu-user: serve, sign up, a child, a 12 MP photo on a meal, backup
#    and verify, config check, health (tests/release/check.py binary).
#  - both images in podman: health, `podman healthcheck run`, not root, an account kept over a
#    restart and a new container on the same volume, the admin CLI through `podman exec`
#    (tests/release/check.py image).
# Needs root (or sudo), podman, qemu-user-static; scripts/release installs them.
set -euo pipefail
cd "$(dirname "$0")/.."

CACHE=${HIGHCHAIR_RELEASE_CACHE:-/var/cache/highchair-release}
DIST=${HIGHCHAIR_RELEASE_DIST:-dist}
export CONTAINERS_CONF="$CACHE/containers.conf"
version=$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -1)
step() { printf '\n--> %s\n' "$*"; }
fail() { echo "check-release: $*" >&2; exit 1; }
binary_of() { case $1 in amd64) echo target/release/highchair ;; arm64) echo target/aarch64-unknown-linux-gnu/release/highchair ;; esac; }

step "SHA256SUMS"
(cd "$DIST" && sha256sum --strict -c SHA256SUMS)
for arch in amd64 arm64; do
  for f in "highchair_${version}_$arch.deb" "highchair-$version-linux-$arch.tar.gz" "highchair-$version-oci-$arch.tar"; do
    grep -q "  $f\$" "$DIST/SHA256SUMS" || fail "$f is not in SHA256SUMS"
  done
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for arch in amd64 arm64; do
  step "$arch: one binary in the .deb, the tarball and the image"
  bin=$(binary_of "$arch")
  mkdir -p "$work/$arch/deb" "$work/$arch/tar"
  dpkg-deb -x "$DIST/highchair_${version}_$arch.deb" "$work/$arch/deb"
  cmp "$bin" "$work/$arch/deb/usr/bin/highchair" || fail "the $arch .deb has another binary"
  tar -xzf "$DIST/highchair-$version-linux-$arch.tar.gz" -C "$work/$arch/tar"
  root="$work/$arch/tar/highchair-$version-linux-$arch"
  for f in highchair highchair.toml highchair.service README.md admin.md; do
    [ -f "$root/$f" ] || fail "the $arch tarball has no $f"
  done
  [ -x "$root/highchair" ] || fail "the $arch tarball's highchair is not executable"
  cmp "$bin" "$root/highchair" || fail "the $arch tarball has another binary"
  cmp packaging/deb/highchair.toml "$root/highchair.toml" || fail "the $arch tarball's settings are not packaging/deb/highchair.toml"
  image=$(podman load -q -i "$DIST/highchair-$version-oci-$arch.tar" | sed -n 's/^Loaded image[^:]*: *//p' | head -1)
  [ -n "$image" ] || fail "podman load found no image in highchair-$version-oci-$arch.tar"
  container=$(podman create --arch "$arch" "$image")
  podman cp "$container:/usr/bin/highchair" "$work/$arch/image-highchair"
  podman rm "$container" >/dev/null
  cmp "$bin" "$work/$arch/image-highchair" || fail "the $arch image has another binary"
  echo "same binary: $(sha256sum "$bin" | cut -c1-16)... ($(stat -c %s "$bin") bytes)"
done

step ".deb packages"
bash packaging/check-deb.sh "$DIST/highchair_${version}_arm64.deb"
bash packaging/check-deb.sh "$DIST/highchair_${version}_amd64.deb"

step "arm64 binary under qemu-user"
python3 tests/release/check.py binary "$(binary_of arm64)" --runner "qemu-aarch64-static -L /usr/aarch64-linux-gnu"

for arch in amd64 arm64; do
  step "$arch image in podman"
  python3 tests/release/check.py image "$DIST/highchair-$version-oci-$arch.tar" "$arch"
done
echo "check-release: all good ($DIST)"
