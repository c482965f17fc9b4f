#!/usr/bin/env python3
"""Checks scripts/release's artefacts as a family would use them (CI; see .ci/run).

  check.py binary BIN [--runner "qemu-aarch64-static -L /usr/aarch64-linux-gnu"]
      `config check`, `serve`, sign up, add a child, upload a 12 MP photo and log a meal with
      it (its thumbnail served), `backup --out` while serving and `backup verify`, `health`,
      then SIGTERM: exit 0. Under qemu-user for the arm64 binary (no performance claim).
  check.py image ARCHIVE ARCH
      podman load; run with a named volume; /api/health 200; `podman healthcheck run`; the
      process is not root; an account made before `podman restart` signs in afterwards; the
      admin CLI through `podman exec` (user add, backup, verify); a new container on the same
      volume still has the account. Prints the image's size.

Prints the wall time of each. Exits non-zero with a message on the first failure.
"""

import argparse
import io
import json
import os
import random
import shlex
import signal
import subprocess
import sys
import tarfile
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "bench"))
import common  # noqa: E402  (tests/bench/common.py: the benchmark programs' HTTP helpers)

PASSWORD = common.PASSWORD


def fail(msg):
    print(f"release check: {msg}", file=sys.stderr)
    sys.exit(1)


def photo_12mp():
    """A 4000 x 3000 JPEG with a photo's detail (noise over gradients): about 12 MP, a few MB."""
    try:
        from PIL import Image
    except ImportError:
        subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--user", "pillow"], check=True)
        # A user site directory made by that install is not on sys.path yet: Python adds it
        # at start only when it already exists (the CI's clean machine has none).
        import importlib
        import site
        site.addsitedir(site.getusersitepackages())
        importlib.invalidate_caches()
        from PIL import Image
    rng = random.Random(12)
    small = Image.new("RGB", (400, 300))
    small.putdata([(rng.randrange(256), (x * 255) // 400, (y * 255) // 300)
                   for y in range(300) for x in range(400)])
    big = small.resize((4000, 3000), Image.BICUBIC)
    noise = Image.effect_noise((4000, 3000), 40).convert("RGB")
    out = io.BytesIO()
    Image.blend(big, noise, 0.25).save(out, "JPEG", quality=92)
    return out.getvalue()


class Client(common.Client):
    """The bench helpers' client (one keep-alive connection), following the session cookie,
    with the patience an emulated server needs."""

    def _connect(self):
        conn = super()._connect()
        conn.timeout = 120
        return conn

    def call(self, method, path, body=None, raw=None, ctype=None, headers=None):
        status, data, resp = super().call(method, path, body, raw, ctype, headers)
        for pair in common.cookies_of(resp).split("; "):
            if pair.startswith("highchair_session="):
                self.cookie = pair
        return status, data, resp

    def json(self, method, path, body=None, expect=200):
        status, data, _ = self.call(method, path, body)
        if status != expect:
            fail(f"{method} {path} answered {status}, not {expect}: {data[:300]!r}")
        return json.loads(data) if data else None

    def healthy(self):
        try:
            return self.call("GET", "/api/health")[0] == 200
        except OSError:
            return False

    def wait_healthy(self, timeout, proc=None, log=None):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if proc is not None and proc.poll() is not None:
                fail(f"the server exited with {proc.returncode}:\n{tail(log)}")
            if self.healthy():
                return
            time.sleep(0.2)
        fail(f"no /api/health 200 within {timeout} s:\n{tail(log)}")

    def sign_up(self, email):
        self.json("POST", "/api/auth/signup", {
            "firstName": "Release", "lastName": "Check", "email": email, "password": PASSWORD,
            "role": "mom", "acceptTerms": True}, expect=201)
        if not self.cookie:
            fail("sign-up set no session cookie")

    def sign_in(self, email):
        self.cookie = ""
        self.json("POST", "/api/auth/login", {"email": email, "password": PASSWORD})
        if not self.cookie:
            fail(f"signing in as {email} set no session cookie")


def tail(path, lines=30):
    if not path:
        return ""
    try:
        with open(path, "rb") as f:
            return b"\n".join(f.read().splitlines()[-lines:]).decode(errors="replace")
    except OSError:
        return ""


def check_binary(bin_path, runner):
    started = time.monotonic()
    prefix = shlex.split(runner) if runner else []
    tmp = tempfile.mkdtemp(prefix="highchair-release-")
    data = os.path.join(tmp, "data")
    env = {k: v for k, v in os.environ.items() if not k.startswith("HIGHCHAIR_")}
    env.update(HIGHCHAIR_AUTH_ALLOW_SIGNUP="true", HIGHCHAIR_LIMITS_MIN_FREE_DISK_MB="0",
               HIGHCHAIR_STORAGE_DATA_DIR=data)
    port = common.free_port()
    listen = f"127.0.0.1:{port}"

    def cli(*args, timeout=300):
        done = subprocess.run([*prefix, bin_path, *args], env=env, capture_output=True, text=True,
                              timeout=timeout)
        return done.returncode, done.stdout + done.stderr

    code, out = cli("--version")
    if code != 0 or not out.startswith("highchair "):
        fail(f"--version: {code} {out}")
    print(f"  {out.strip()} ({runner or 'native'})")
    code, out = cli("config", "check")
    if code != 0 or f'data_dir = "{data}"' not in out:
        fail(f"config check: {code} {out}")

    log = os.path.join(tmp, "serve.log")
    with open(log, "wb") as log_file:
        server = subprocess.Popen([*prefix, bin_path, "serve", "--listen", listen], env=env,
                                  stdin=subprocess.DEVNULL, stdout=log_file, stderr=subprocess.STDOUT)
    try:
        client = Client(port)
        client.wait_healthy(180, server, log)
        print(f"  serving after {time.monotonic() - started:.1f} s")
        client.sign_up("pi@example.org")
        child = client.json("POST", "/api/children", {"name": "Ava", "age": 2}, expect=201)

        jpeg = photo_12mp()
        body, ctype = common.multipart("dinner.jpg", jpeg)
        t = time.monotonic()
        status, answer, _ = client.call("POST", "/api/media", raw=body, ctype=ctype)
        if status != 201:
            fail(f"uploading a 12 MP photo ({len(jpeg)} bytes) answered {status}: {answer[:300]!r}")
        media = json.loads(answer)
        print(f"  12 MP photo ({len(jpeg) / 1e6:.1f} MB) stored in {time.monotonic() - t:.1f} s")
        meal = client.json("POST", "/api/meals", {"childId": child["id"], "mealType": "Dinner",
                                                  "foods": ["Pasta", "Peas"], "photo": media["id"]},
                           expect=201)
        meals = client.json("GET", f"/api/meals?childId={child['id']}")
        items = meals["items"] if isinstance(meals, dict) else meals
        logged = next((m for m in items if m["id"] == meal["id"]), None)
        if not logged or not logged.get("thumbnailUrl"):
            fail(f"the meal with its photo is not listed: {meals}")
        status, thumb, resp = client.call("GET", logged["thumbnailUrl"])
        if status != 200 or not resp.getheader("content-type", "").startswith("image/") or len(thumb) < 500:
            fail(f"the thumbnail answered {status} {resp.getheader('content-type')} ({len(thumb)} bytes)")

        archive = os.path.join(tmp, "family.hcbackup")
        code, out = cli("backup", "--out", archive)
        if code != 0 or not os.path.exists(archive):
            fail(f"backup --out while serving: {code} {out}")
        code, out = cli("backup", "verify", archive)
        if code != 0:
            fail(f"backup verify: {code} {out}")
        print(f"  backup written and verified ({os.path.getsize(archive) / 1e6:.1f} MB)")
        code, out = cli("health", "--listen", listen)
        if code != 0:
            fail(f"health: {code} {out}")

        server.send_signal(signal.SIGTERM)
        try:
            code = server.wait(timeout=60)
        except subprocess.TimeoutExpired:
            fail("SIGTERM did not stop the server within 60 s")
        if code != 0:
            fail(f"the server exited with {code} after SIGTERM:\n{tail(log)}")
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
    subprocess.run(["rm", "-rf", tmp], check=False)
    print(f"binary check passed in {time.monotonic() - started:.1f} s")


def podman(*args, check=True, timeout=300):
    done = subprocess.run(["podman", *args], capture_output=True, text=True, timeout=timeout)
    if check and done.returncode != 0:
        fail(f"podman {' '.join(args)}: exit {done.returncode}\n{done.stdout}{done.stderr}")
    return done.stdout.strip()


def archive_config(archive):
    """The image config inside an OCI archive (index -> manifest -> config)."""
    with tarfile.open(archive) as tar:
        def blob(digest):
            return json.load(tar.extractfile("blobs/sha256/" + digest.split(":", 1)[1]))
        index = json.load(tar.extractfile("index.json"))
        manifest = blob(index["manifests"][0]["digest"])
        return blob(manifest["config"]["digest"])


def check_image(archive, arch):
    started = time.monotonic()
    loaded = podman("load", "-q", "-i", archive)
    image = loaded.split("Loaded image:")[-1].split(",")[0].strip().split("\n")[0].strip()
    if not image:
        fail(f"podman load printed no image: {loaded}")
    inspect = json.loads(podman("image", "inspect", image))[0]
    if inspect["Architecture"] != arch:
        fail(f"{image} is for {inspect['Architecture']}, not {arch}")
    # The health check as the archive's config declares it (Docker's field; podman reads it only
    # from Docker-format images, so it is given to `podman run` as the image declares it).
    health = archive_config(archive).get("config", {}).get("Healthcheck") or {}
    if health.get("Test") != ["CMD", "/usr/bin/highchair", "health"]:
        fail(f"the archive's config has no `highchair health` check: {health}")
    size = inspect["Size"]
    print(f"  {image}: {arch}, {size / 1e6:.1f} MB")

    name, volume = f"highchair-release-check-{arch}", f"highchair-release-check-{arch}"
    podman("rm", "-f", name, check=False)
    podman("volume", "rm", "-f", volume, check=False)
    port = common.free_port()

    def run():
        podman("run", "-d", "--name", name, "--arch", arch, "-p", f"127.0.0.1:{port}:8080",
               "-e", "HIGHCHAIR_AUTH_ALLOW_SIGNUP=true", "-e", "HIGHCHAIR_LIMITS_MIN_FREE_DISK_MB=0",
               # podman's --health-cmd takes the exec form without its leading "CMD".
               "--health-cmd", json.dumps(health["Test"][1:]), "-v", f"{volume}:/data", image)
        Client(port).wait_healthy(180)

    try:
        run()
        podman("healthcheck", "run", name)
        user = podman("top", name, "user", "huser").split("\n")[1:]
        if not user or any(u.split()[0] in ("root", "0") for u in user if u.split()):
            fail(f"the server runs as root: {user}")
        shown = podman("exec", name, "/usr/bin/highchair", "--version")
        if not shown.startswith("highchair "):
            fail(f"podman exec highchair --version: {shown}")

        client = Client(port)
        client.sign_up("before-restart@example.org")
        client.json("POST", "/api/children", {"name": "Ava", "age": 2}, expect=201)
        podman("restart", name)
        client = Client(port)
        client.wait_healthy(180)
        client.sign_in("before-restart@example.org")
        children = client.json("GET", "/api/children")
        if "Ava" not in json.dumps(children):
            fail(f"the child is gone after podman restart: {children}")

        # The admin CLI as the server's user, through the admin socket in /data.
        added = subprocess.run(["podman", "exec", "-i", name, "/usr/bin/highchair", "user", "add",
                                "admin@example.org", "--first", "Admin", "--password-stdin"],
                               input=PASSWORD + "\n", capture_output=True, text=True, timeout=120)
        if added.returncode != 0:
            fail(f"podman exec highchair user add: {added.returncode} {added.stdout}{added.stderr}")
        podman("exec", name, "/usr/bin/highchair", "backup", "--out", "/data/check.hcbackup")
        podman("exec", name, "/usr/bin/highchair", "backup", "verify", "/data/check.hcbackup")

        # A new container (an upgrade does this) on the same volume keeps the family's data.
        podman("rm", "-f", name)
        run()
        client = Client(port)
        client.sign_in("before-restart@example.org")
        Client(port).sign_in("admin@example.org")
    finally:
        podman("rm", "-f", name, check=False)
        podman("volume", "rm", "-f", volume, check=False)
    print(f"image check passed in {time.monotonic() - started:.1f} s ({arch}, {size / 1e6:.1f} MB)")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="what", required=True)
    b = sub.add_parser("binary")
    b.add_argument("bin")
    b.add_argument("--runner", default="")
    i = sub.add_parser("image")
    i.add_argument("archive")
    i.add_argument("arch")
    args = parser.parse_args()
    if args.what == "binary":
        check_binary(args.bin, args.runner)
    else:
        check_image(args.archive, args.arch)


if __name__ == "__main__":
    main()
