#!/usr/bin/env python3
"""Crash test: `kill -9` highchair while it takes writes, restart it, check every acknowledged write.

Each trial starts the release binary on a fresh data directory, signs up three families, gives
them children (one child gets 600 meals), then lets six writer threads (two per family) create,
update and delete meals, upload photos, add and delete children. Every write whose 2xx reply
arrived is "acknowledged"; a write whose connection died is "unknown". At a random moment the
server is killed with SIGKILL (in some trials right after, or while, deleting the child with 600
meals, so its background job is cut off), restarted on the same data directory, and checked:

- every acknowledged meal is there with its last acknowledged foods (or those of a later unknown
  write), every acknowledged delete is gone, every acknowledged child exists unless deleted;
- a deleted child answers 404, none of its meals is listed or readable, and the resumed job
  removes their photos (polled for up to 10 s);
- every photo of a present meal is served; no family sees another family's records;
- no request answered 5xx, and the store opens (health 200).

Standard library only. Run from anywhere:

    python3 tests/crash/crash.py [--trials 10] [--seed N] [--report FILE] [--keep-failed]

The binary is target/release/highchair (or $HIGHCHAIR_BIN). Exit status 1 on any failure.
"""
import argparse
import datetime as dt
import http.client
import json
import os
import random
import shutil
import signal
import socket
import statistics
import struct
import subprocess
import sys
import tempfile
import threading
import time
import traceback
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BIN = os.environ.get("HIGHCHAIR_BIN") or str(ROOT / "target/release/highchair")

FAMILIES = 3
WRITERS_PER_FAMILY = 2
BIG_MEALS = 600          # meals of the child deleted right before the kill in some trials
BIG_PHOTOS = 12          # of those, how many have a photo (the job's progress is visible there)
KILL_AFTER = (0.3, 3.0)  # seconds of write load before the kill
JOB_WAIT = 10.0          # seconds to wait for the resumed child-delete job
HTTP_TIMEOUT = 15
# How a trial treats the big child: delete it and kill right after the 204, kill while the
# DELETE is in flight, or leave it alone.
BIG_MODES = ["after-ack", "in-flight", "none"]


class Lost(Exception):
    """The connection died: the request's outcome is unknown."""


class TrialError(Exception):
    """The trial could not run (server did not start, setup refused)."""


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def tiny_png(rng):
    """A valid 2x2 RGB PNG of a random colour."""
    w = h = 2
    pixel = bytes(rng.randrange(256) for _ in range(3))
    raw = b"".join(b"\x00" + pixel * w for _ in range(h))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def meal_date(rng):
    t = dt.datetime(2025, 1, 1, tzinfo=dt.timezone.utc) + dt.timedelta(seconds=rng.randrange(90 * 86400))
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


class Client:
    """One keep-alive connection with a family's cookie. No Origin header (allowed by the
    same-origin rule). Raises Lost when the connection fails."""

    def __init__(self, port, cookie=None):
        self.port, self.cookie, self.conn = port, cookie, None

    def close(self):
        if self.conn is not None:
            self.conn.close()
            self.conn = None

    def request(self, method, path, body=None, raw=None, content_type=None):
        headers = {}
        if self.cookie:
            headers["cookie"] = self.cookie
        payload = raw
        if body is not None:
            payload = json.dumps(body).encode()
            headers["content-type"] = "application/json"
        elif content_type:
            headers["content-type"] = content_type
        try:
            if self.conn is None:
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=HTTP_TIMEOUT)
            self.conn.request(method, path, body=payload, headers=headers)
            resp = self.conn.getresponse()
            data = resp.read()
        except (OSError, http.client.HTTPException) as e:
            self.close()
            raise Lost(f"{method} {path}: {type(e).__name__}: {e}") from None
        if resp.getheader("connection", "").lower() == "close":
            self.close()
        return resp.status, data, resp

    def json(self, method, path, body=None):
        status, data, _ = self.request(method, path, body)
        try:
            parsed = json.loads(data) if data else None
        except ValueError:
            parsed = None
        return status, parsed, data

    def upload(self, png):
        boundary = "hccrash" + os.urandom(8).hex()
        body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"p.png\"\r\n"
                f"Content-Type: image/png\r\n\r\n").encode() + png + f"\r\n--{boundary}--\r\n".encode()
        status, data, _ = self.request("POST", "/api/media", raw=body,
                                       content_type=f"multipart/form-data; boundary={boundary}")
        return status, (json.loads(data) if status == 201 else None), data


class ServerProc:
    """`highchair serve` on a given data directory; output goes to a log file."""

    def __init__(self, data_dir, log_path):
        self.port = free_port()
        env = {k: v for k, v in os.environ.items() if not k.startswith("HIGHCHAIR_")}
        # A load test, not a test of the limits: photo uploads are not rate-limited here, and
        # the low-disk guard is off (CI disks can be small).
        env.update(HIGHCHAIR_AUTH_ALLOW_SIGNUP="true", HIGHCHAIR_LOG_LEVEL="info",
                   HIGHCHAIR_LIMITS_MIN_FREE_DISK_MB="0",
                   HIGHCHAIR_LIMITS_UPLOADS_PER_HOUR="100000",
                   HIGHCHAIR_LIMITS_GUEST_UPLOADS_PER_HOUR="100000")
        self.log_path = log_path
        with open(log_path, "ab") as log:
            self.proc = subprocess.Popen(
                [BIN, "serve", "--listen", f"127.0.0.1:{self.port}", "--data-dir", str(data_dir)],
                env=env, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT)
        self.wait_healthy()

    def wait_healthy(self, timeout=30.0):
        deadline = time.monotonic() + timeout
        probe = Client(self.port)
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise TrialError(f"highchair exited with {self.proc.returncode}:\n{log_tail(self.log_path)}")
            try:
                status, _, _ = probe.request("GET", "/api/health")
                if status == 200:
                    probe.close()
                    return
            except Lost:
                pass
            time.sleep(0.02)
        raise TrialError(f"highchair did not become healthy in {timeout:.0f} s:\n{log_tail(self.log_path)}")

    def kill9(self):
        if self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait()

    def stop(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


def log_tail(path, lines=25):
    try:
        with open(path, "rb") as f:
            return b"\n".join(f.read().splitlines()[-lines:]).decode(errors="replace")
    except OSError:
        return "(no log)"


# ---------------------------------------------------------------------------------------------
# What the client knows


class ChildRec:
    def __init__(self, cid, name, big=False):
        self.id, self.name, self.big = cid, name, big
        # live | deleting | deleted (acknowledged) | delete-unknown
        self.status = "live"


class MealRec:
    def __init__(self, mid, child, tag, foods, date, photo):
        self.id, self.child, self.tag, self.date, self.photo = mid, child, tag, date, photo
        self.acked = [(1, foods)]   # (version after the write, foods), acknowledged
        self.unknown = []           # (version the write was based on, foods), outcome unknown
        self.seen_version = 1
        self.delete_attempts = 0
        self.delete_acked = False
        self.delete_unknown = False


class Family:
    def __init__(self, idx, tag):
        self.idx = idx
        self.email = f"crash-{tag}-{idx}@example.org"
        self.password = f"crash password {idx}"
        self.cookie = None
        self.lock = threading.Lock()
        self.children = {}            # id -> ChildRec
        self.unknown_children = set()  # names of child creates whose reply never came
        self.meals = {}               # id -> MealRec
        self.unknown_creates = {}     # tag -> (child id, foods, photo) of meal creates without reply

    def live_children(self):
        return [c for c in self.children.values() if c.status == "live"]


class Trial:
    def __init__(self, number, rng, base_tmp, mode):
        self.number, self.rng, self.mode = number, rng, mode
        self.dir = Path(tempfile.mkdtemp(prefix="hc-crash-", dir=base_tmp))
        self.data = self.dir / "data"
        self.log = self.dir / "server.log"
        self.families = [Family(i, f"{number}-{rng.randrange(1 << 30):x}") for i in range(FAMILIES)]
        self.failures = []
        self.notes = []
        self.lock = threading.Lock()
        self.acked = {"setup": 0, "load": 0}
        self.unknown = 0
        self.phase = "setup"
        self.killing = threading.Event()
        self.server = None
        self.big = None
        self.photos_left_at_restart = None
        self.jobs_resumed = 0

    # -- bookkeeping ---------------------------------------------------------------------------

    def fail(self, msg):
        with self.lock:
            self.failures.append(msg)

    def ack(self):
        with self.lock:
            self.acked[self.phase] = self.acked.get(self.phase, 0) + 1

    def lost(self):
        with self.lock:
            self.unknown += 1

    def check_status(self, what, status, data, allowed):
        """Records a failure for any status not in `allowed` (always for 5xx)."""
        if status in allowed and status < 500:
            return True
        body = data if isinstance(data, (bytes, bytearray)) else json.dumps(data).encode()
        self.fail(f"{what}: unexpected {status} {body[:300].decode(errors='replace')}")
        return False

    # -- setup ---------------------------------------------------------------------------------

    def setup(self):
        errors = []

        def signup(fam):
            try:
                c = Client(self.server.port)
                status, data, resp = c.request("POST", "/api/auth/signup", {
                    "firstName": "Crash", "lastName": f"Family{fam.idx}", "email": fam.email,
                    "password": fam.password, "role": "mom", "acceptTerms": True})
                c.close()
                if status != 201:
                    raise TrialError(f"sign-up answered {status}: {data[:300]!r}")
                cookie = next((h.split(";")[0] for h in resp.headers.get_all("set-cookie") or []
                               if h.startswith("highchair_session=")), None)
                if not cookie:
                    raise TrialError("sign-up set no highchair_session cookie")
                fam.cookie = cookie
                self.ack()
                c = Client(self.server.port, cookie)
                for k in range(self.rng.randint(2, 3)):
                    self.add_child_setup(c, fam, f"Kid {fam.idx}-{k}")
                c.close()
            except Exception as e:  # noqa: BLE001 - reported by the caller
                errors.append(e)

        threads = [threading.Thread(target=signup, args=(f,)) for f in self.families]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        if errors:
            raise errors[0]

        # One child of family 0 gets BIG_MEALS meals, some with photos.
        fam = self.families[0]
        c = Client(self.server.port, fam.cookie)
        self.big = self.add_child_setup(c, fam, "Big Eater", big=True)
        c.close()
        todo = list(range(BIG_MEALS))
        todo_lock = threading.Lock()

        def fill():
            c = Client(self.server.port, fam.cookie)
            rng = random.Random(self.rng.random())
            try:
                while True:
                    with todo_lock:
                        if not todo:
                            return
                        i = todo.pop()
                    photo = None
                    if i < BIG_PHOTOS:
                        status, media, data = c.upload(tiny_png(rng))
                        if status != 201:
                            raise TrialError(f"setup upload answered {status}: {data[:300]!r}")
                        self.ack()
                        photo = media["id"]
                    tag = f"B{i}"
                    foods = ["Pasta", tag]
                    date = meal_date(rng)
                    body = {"childId": self.big.id, "mealType": "Lunch", "foods": foods, "mealDate": date}
                    if photo:
                        body["photo"] = photo
                    status, meal, data = c.json("POST", "/api/meals", body)
                    if status != 201:
                        raise TrialError(f"setup meal answered {status}: {data[:300]!r}")
                    self.ack()
                    with fam.lock:
                        fam.meals[meal["id"]] = MealRec(meal["id"], self.big.id, tag, foods, date, photo)
            except Exception as e:  # noqa: BLE001
                errors.append(e)
            finally:
                c.close()

        threads = [threading.Thread(target=fill) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        if errors:
            raise errors[0]

    def add_child_setup(self, c, fam, name, big=False):
        status, child, data = c.json("POST", "/api/children", {"name": name, "age": 3})
        if status != 201:
            raise TrialError(f"setup child answered {status}: {data[:300]!r}")
        self.ack()
        rec = ChildRec(child["id"], name, big)
        with fam.lock:
            fam.children[rec.id] = rec
        return rec

    # -- load ----------------------------------------------------------------------------------

    def writer(self, fam, wid, seed):
        rng = random.Random(seed)
        c = Client(self.server.port, fam.cookie)
        ops = [(self.op_create, 35), (self.op_create_photo, 10), (self.op_update, 30),
               (self.op_delete, 12), (self.op_add_child, 5), (self.op_delete_child, 2)]
        funcs, weights = zip(*ops)
        seq = 0
        try:
            while not self.killing.is_set():
                seq += 1
                op = rng.choices(funcs, weights)[0]
                try:
                    op(c, fam, rng, f"{wid}-{seq}")
                except Lost as e:
                    self.lost()
                    if self.killing.is_set():
                        return
                    self.fail(f"connection failed before the kill: {e}")
                    time.sleep(0.05)
        except Exception:  # noqa: BLE001 - a bug in this script, reported as a failure
            self.fail(f"writer {wid} crashed:\n{traceback.format_exc()}")
        finally:
            c.close()

    def child_gone(self, fam, child_id):
        with fam.lock:
            rec = fam.children.get(child_id)
            return rec is None or rec.status != "live"

    def op_create(self, c, fam, rng, tag, photo=None):
        with fam.lock:
            live = fam.live_children()
            if not live:
                return
            child = rng.choice(live).id
        foods = ["Pasta", f"T{fam.idx}-{tag}"]
        date = meal_date(rng)
        body = {"childId": child, "mealType": "Lunch", "foods": foods, "mealDate": date}
        if photo:
            body["photo"] = photo
        with fam.lock:
            fam.unknown_creates[foods[1]] = (child, foods, photo)
        status, meal, data = c.json("POST", "/api/meals", body)  # Lost: stays an unknown create
        with fam.lock:
            del fam.unknown_creates[foods[1]]
        if status == 201:
            self.ack()
            if meal.get("foods") != foods or meal.get("version") != 1 or meal.get("photo") != photo:
                self.fail(f"create answered {meal} for {body}")
            with fam.lock:
                fam.meals[meal["id"]] = MealRec(meal["id"], child, foods[1], foods, date, photo)
        elif not (status in (400, 404, 422) and self.child_gone(fam, child)):
            self.check_status(f"POST /api/meals {body}", status, data, ())

    def op_create_photo(self, c, fam, rng, tag):
        status, media, data = c.upload(tiny_png(rng))
        if not self.check_status("POST /api/media", status, data, (201,)):
            return
        self.ack()
        self.op_create(c, fam, rng, tag, photo=media["id"])

    def pick_meal(self, fam, rng):
        with fam.lock:
            if not fam.meals:
                return None
            for _ in range(5):
                rec = rng.choice(list(fam.meals.values()))
                child = fam.children.get(rec.child)
                if not rec.delete_acked and child is not None and child.status == "live":
                    return rec
        return None

    def op_update(self, c, fam, rng, tag):
        rec = self.pick_meal(fam, rng)
        if rec is None:
            return
        with fam.lock:
            base = rec.seen_version
        foods = ["Pasta", rec.tag, f"U{fam.idx}-{tag}"]
        body = {"childId": rec.child, "mealType": "Lunch", "foods": foods, "mealDate": rec.date,
                "version": base}
        if rec.photo:
            body["photo"] = rec.photo
        try:
            status, meal, data = c.json("PUT", f"/api/meals/{rec.id}", body)
        except Lost:
            with fam.lock:
                rec.unknown.append((base, foods))
            raise
        if status == 200:
            self.ack()
            if meal.get("foods") != foods or meal.get("version") != base + 1:
                self.fail(f"PUT /api/meals/{rec.id} v{base} answered foods {meal.get('foods')} "
                          f"v{meal.get('version')}, sent {foods}")
            with fam.lock:
                rec.acked.append((meal["version"], foods))
                rec.seen_version = max(rec.seen_version, meal["version"])
        elif status == 409:
            current = ((meal or {}).get("current") or {}).get("version")
            if not isinstance(current, int) or current == base:
                self.fail(f"PUT /api/meals/{rec.id} v{base}: 409 without a newer current meal: {data[:300]!r}")
                return
            with fam.lock:
                rec.seen_version = max(rec.seen_version, current)
        elif status == 404 and (rec.delete_attempts or self.child_gone(fam, rec.child)):
            pass
        else:
            self.check_status(f"PUT /api/meals/{rec.id}", status, data, ())

    def op_delete(self, c, fam, rng, tag):
        rec = self.pick_meal(fam, rng)
        if rec is None:
            return
        with fam.lock:
            rec.delete_attempts += 1
        try:
            status, _, data = c.request("DELETE", f"/api/meals/{rec.id}")
        except Lost:
            with fam.lock:
                rec.delete_unknown = True
            raise
        if status == 204:
            self.ack()
            with fam.lock:
                rec.delete_acked = True
        elif status == 404 and (rec.delete_attempts > 1 or self.child_gone(fam, rec.child)):
            pass
        else:
            self.check_status(f"DELETE /api/meals/{rec.id}", status, data, ())

    def op_add_child(self, c, fam, rng, tag):
        name = f"Kid {fam.idx}-{tag}"
        with fam.lock:
            if len(fam.children) >= 12:
                return
            fam.unknown_children.add(name)
        status, child, data = c.json("POST", "/api/children", {"name": name, "age": rng.randint(0, 10)})
        with fam.lock:
            fam.unknown_children.discard(name)
        if self.check_status("POST /api/children", status, data, (201,)):
            self.ack()
            with fam.lock:
                fam.children[child["id"]] = ChildRec(child["id"], name)

    def op_delete_child(self, c, fam, rng, tag):
        with fam.lock:
            small = [ch for ch in fam.live_children() if not ch.big]
            if len(small) < 2:
                return
            child = rng.choice(small)
            child.status = "deleting"
        self.delete_child(c, fam, child)

    def delete_child(self, c, fam, child):
        try:
            status, _, data = c.request("DELETE", f"/api/children/{child.id}")
        except Lost:
            with fam.lock:
                child.status = "delete-unknown"
            raise
        if self.check_status(f"DELETE /api/children/{child.id}", status, data, (204,)):
            self.ack()
            with fam.lock:
                child.status = "deleted"
        else:
            with fam.lock:
                child.status = "delete-unknown"

    def load_and_kill(self):
        self.phase = "load"
        threads = []
        wid = 0
        for fam in self.families:
            for _ in range(WRITERS_PER_FAMILY):
                wid += 1
                t = threading.Thread(target=self.writer, args=(fam, wid, self.rng.random()), daemon=True)
                threads.append(t)
        self.kill_delay = self.rng.uniform(*KILL_AFTER)
        started = time.monotonic()
        for t in threads:
            t.start()
        time.sleep(max(0.0, started + self.kill_delay - time.monotonic()))
        big_fam = self.families[0]
        if self.mode != "none":
            with big_fam.lock:
                self.big.status = "deleting"
            c = Client(self.server.port, big_fam.cookie)
            if self.mode == "after-ack":
                try:
                    self.delete_child(c, big_fam, self.big)
                except Lost as e:
                    self.fail(f"connection failed before the kill: {e}")
                time.sleep(self.rng.choice([0, 0, self.rng.uniform(0, 0.01)]))
                self.killing.set()
                self.server.kill9()
            else:
                result = {}

                def in_flight():
                    try:
                        self.delete_child(c, big_fam, self.big)
                    except Lost:
                        result["lost"] = True

                t = threading.Thread(target=in_flight)
                t.start()
                time.sleep(self.rng.uniform(0.0005, 0.005))
                self.killing.set()
                self.server.kill9()
                t.join(HTTP_TIMEOUT + 5)
                if result.get("lost"):
                    self.lost()
            c.close()
        else:
            self.killing.set()
            self.server.kill9()
        self.kill_delay = time.monotonic() - started
        for t in threads:
            t.join(HTTP_TIMEOUT + 5)
            if t.is_alive():
                self.fail("a writer thread did not stop after the kill")

    # -- verification --------------------------------------------------------------------------

    def verify(self):
        self.phase = "verify"
        clients = {}
        for fam in self.families:
            c = Client(self.server.port, fam.cookie)
            status, _, data = c.request("GET", "/api/auth/session")
            if status != 200:
                self.fail(f"family {fam.idx}: session cookie answered {status} after the restart "
                          f"(sessions should survive restarts)")
                status, _, resp = c.request("POST", "/api/auth/login",
                                            {"email": fam.email, "password": fam.password})
                if status != 200:
                    raise TrialError(f"family {fam.idx}: login after restart answered {status}")
                fam.cookie = next(h.split(";")[0] for h in resp.headers.get_all("set-cookie")
                                  if h.startswith("highchair_session="))
                c.close()
                c = Client(self.server.port, fam.cookie)
            clients[fam.idx] = c

        present_children = {}
        for fam in self.families:
            present_children[fam.idx] = self.verify_children(fam, clients[fam.idx])

        # Children that are gone, with the photos their meals had: the resumed job removes them.
        gone_photos = []
        for fam in self.families:
            for rec in fam.meals.values():
                if rec.photo and rec.child not in present_children[fam.idx]:
                    gone_photos.append((fam.idx, rec.photo))
        big_gone = self.big.id not in present_children[0]
        if big_gone:
            self.photos_left_at_restart = sum(
                1 for rec in self.families[0].meals.values()
                if rec.child == self.big.id and rec.photo
                and clients[0].request("GET", f"/api/media/{rec.photo}?size=thumb")[0] == 200)
        deadline = time.monotonic() + JOB_WAIT
        remaining = gone_photos
        while True:
            remaining = [(f, p) for f, p in remaining
                         if clients[f].request("GET", f"/api/media/{p}?size=thumb")[0] != 404]
            if not remaining or time.monotonic() > deadline:
                break
            time.sleep(0.1)
        for f, p in remaining:
            self.fail(f"family {f}: photo {p} of a meal of a deleted child still served "
                      f"{JOB_WAIT:.0f} s after the restart (child-delete job not finished)")

        for fam in self.families:
            self.verify_meals(fam, clients[fam.idx], present_children[fam.idx])

        # Another family's ids are not found.
        for fam in self.families:
            other = self.families[(fam.idx + 1) % FAMILIES]
            c = clients[fam.idx]
            for cid in list(other.children)[:3]:
                status, _, data = c.request("GET", f"/api/children/{cid}")
                self.check_status(f"family {fam.idx}: GET another family's child", status, data, (404,))
            for mid in list(other.meals)[:5]:
                status, _, data = c.request("GET", f"/api/meals/{mid}")
                self.check_status(f"family {fam.idx}: GET another family's meal", status, data, (404,))

        status, _, data = clients[0].request("GET", "/api/health")
        self.check_status("GET /api/health at the end", status, data, (200,))
        for c in clients.values():
            c.close()

    def verify_children(self, fam, c):
        status, listed, data = c.json("GET", "/api/children")
        if not self.check_status(f"family {fam.idx}: GET /api/children", status, data, (200,)):
            raise TrialError("children list failed")
        present = {ch["id"]: ch for ch in listed}
        for rec in fam.children.values():
            if rec.status == "live" and rec.id not in present:
                self.fail(f"family {fam.idx}: acknowledged child {rec.id} ({rec.name}) is missing")
            if rec.status == "deleted":
                if rec.id in present:
                    self.fail(f"family {fam.idx}: child {rec.id} deleted (204) is listed")
                status, _, data = c.request("GET", f"/api/children/{rec.id}")
                self.check_status(f"family {fam.idx}: GET deleted child {rec.id}", status, data, (404,))
            if rec.status in ("deleting",):
                self.fail(f"script bug: child {rec.id} left in state {rec.status}")
        for cid, ch in present.items():
            if cid not in fam.children and ch.get("name") not in fam.unknown_children:
                self.fail(f"family {fam.idx}: unexpected child {cid} ({ch.get('name')}) listed "
                          "(another family's, or never written)")
        return set(present)

    def list_meals(self, fam, c):
        items, cursor, pages = {}, None, 0
        while True:
            path = "/api/meals?limit=200" + (f"&cursor={cursor}" if cursor else "")
            status, page, data = c.json("GET", path)
            if not self.check_status(f"family {fam.idx}: GET {path}", status, data, (200,)):
                raise TrialError("meal list failed")
            for m in page["items"]:
                if m["id"] in items:
                    self.fail(f"family {fam.idx}: meal {m['id']} listed twice")
                items[m["id"]] = m
            cursor = page.get("nextCursor")
            pages += 1
            if not cursor or pages > 1000:
                return items

    def verify_meals(self, fam, c, present_children):
        listed = self.list_meals(fam, c)
        for m in listed.values():
            if m["childId"] not in present_children:
                self.fail(f"family {fam.idx}: meal {m['id']} of child {m['childId']} is listed, "
                          "but that child is deleted or not the family's")
        for rec in fam.meals.values():
            m = listed.get(rec.id)
            child_present = rec.child in present_children
            status, got, data = c.json("GET", f"/api/meals/{rec.id}")
            if status not in (200, 404):
                self.check_status(f"family {fam.idx}: GET /api/meals/{rec.id}", status, data, ())
                continue
            if (status == 200) != (m is not None):
                self.fail(f"family {fam.idx}: meal {rec.id}: GET answers {status} but it is "
                          f"{'' if m else 'not '}listed")
            if not child_present or rec.delete_acked:
                if m is not None or status == 200:
                    why = "deleted (204)" if rec.delete_acked else "of a deleted child"
                    self.fail(f"family {fam.idx}: meal {rec.id} {why} is still there: {m or got}")
                if rec.photo and rec.delete_acked:
                    st = c.request("GET", f"/api/media/{rec.photo}?size=thumb")[0]
                    if st != 404:
                        self.fail(f"family {fam.idx}: photo {rec.photo} of deleted meal {rec.id} answers {st}")
                continue
            if m is None:
                if not rec.delete_unknown:
                    self.fail(f"family {fam.idx}: acknowledged meal {rec.id} ({rec.tag}, "
                              f"v{max(rec.acked)[0]}) is lost")
                continue
            self.check_meal_state(fam, rec, m)
            if got is not None and (got.get("version"), got.get("foods")) != (m["version"], m["foods"]):
                self.fail(f"family {fam.idx}: meal {rec.id}: GET and list disagree: {got} / {m}")
            if m.get("photo") != rec.photo:
                self.fail(f"family {fam.idx}: meal {rec.id} has photo {m.get('photo')}, expected {rec.photo}")
            if rec.photo:
                self.check_photo(fam, c, rec.photo, rec.id)
        for mid, m in listed.items():
            if mid in fam.meals:
                continue
            tag = m["foods"][1] if len(m["foods"]) > 1 else None
            pending = fam.unknown_creates.get(tag)
            if pending is None or pending[0] != m["childId"]:
                self.fail(f"family {fam.idx}: unexpected meal {mid} listed (another family's, "
                          f"or never written): {m}")
                continue
            if (m["version"], m["foods"]) != (1, pending[1]):
                self.fail(f"family {fam.idx}: meal {mid} of an unknown create is v{m['version']} "
                          f"{m['foods']}, sent v1 {pending[1]}")
            if pending[2]:
                self.check_photo(fam, c, pending[2], mid)

    def check_meal_state(self, fam, rec, m):
        max_v, max_foods = max(rec.acked, key=lambda a: a[0])
        v, foods = m["version"], m["foods"]
        if v < max_v:
            self.fail(f"family {fam.idx}: meal {rec.id} is at v{v} {foods}, but v{max_v} "
                      f"{max_foods} was acknowledged (lost update)")
        elif v == max_v:
            if foods != max_foods:
                self.fail(f"family {fam.idx}: meal {rec.id} v{v} has foods {foods}, acknowledged {max_foods}")
        elif not any(b + 1 == v and f == foods for b, f in rec.unknown):
            self.fail(f"family {fam.idx}: meal {rec.id} is at v{v} {foods}, which no write produced "
                      f"(acknowledged v{max_v} {max_foods}, unknown {rec.unknown})")

    def check_photo(self, fam, c, photo, meal_id):
        status, data, resp = c.request("GET", f"/api/media/{photo}?size=thumb")
        if status != 200 or not data.startswith(b"\xff\xd8"):
            self.fail(f"family {fam.idx}: photo {photo} of meal {meal_id} answers {status} "
                      f"({resp.getheader('content-type')}, {len(data)} bytes)")

    # -- run -----------------------------------------------------------------------------------

    def run(self):
        try:
            self.server = ServerProc(self.data, self.log)
            self.setup()
            self.load_and_kill()
            log_start = self.log.stat().st_size
            self.server = ServerProc(self.data, self.log)
            self.verify()
            with open(self.log, "rb") as f:
                f.seek(log_start)
                self.jobs_resumed = f.read().count(b"job finished")
            with open(self.log, "rb") as f:
                text = f.read().decode(errors="replace")
            if "panicked" in text:
                self.fail("the server log shows a panic:\n" + "\n".join(
                    line for line in text.splitlines() if "panicked" in line)[:1000])
        except TrialError as e:
            self.fail(f"trial could not run: {e}")
        except Lost as e:
            self.fail(f"connection failed outside the load phase: {e}\n{log_tail(self.log)}")
        except Exception:  # noqa: BLE001 - a bug in this script
            self.fail(f"trial crashed:\n{traceback.format_exc()}")
        finally:
            if self.server is not None:
                self.server.stop()

    def cleanup(self, keep):
        if keep:
            print(f"    kept {self.dir} (server.log, data/)")
        else:
            shutil.rmtree(self.dir, ignore_errors=True)


def write_report(path, args, results, total_time):
    delays = [r["delay"] for r in results if r["delay"] is not None]
    acked = sum(r["acked"] for r in results)
    failures = sum(r["failures"] for r in results)
    cut = [r for r in results if r["mode"] == "after-ack"]
    resumed = sum(r["resumed"] for r in results)
    uname = os.uname()
    lines = [
        "## Crash test: kill -9 under write load",
        "",
        f"`python3 tests/crash/crash.py --trials {args.trials} --seed {args.seed}`",
        "",
        "| | |",
        "|---|---|",
        f"| date | {dt.date.today().isoformat()} |",
        f"| machine | {os.cpu_count()} cores (`nproc` {nproc()}), {uname.sysname} {uname.release} |",
        f"| trials | {len(results)} (each a fresh data directory; {FAMILIES} families, "
        f"{FAMILIES * WRITERS_PER_FAMILY} writer threads) |",
        f"| acknowledged writes checked | {acked} (unknown outcomes: {sum(r['unknown'] for r in results)}) |",
        f"| kill delay after load start (min / median / max) | "
        + (f"{min(delays):.2f} / {statistics.median(delays):.2f} / {max(delays):.2f} s |" if delays else "- |"),
        f"| child with {BIG_MEALS} meals deleted just before the kill | {len(cut)} trials after the 204, "
        f"{sum(1 for r in results if r['mode'] == 'in-flight')} with the DELETE in flight |",
        f"| child-delete jobs cut off by the kill and finished after the restart | {resumed} |",
        f"| failures | {failures} |",
        f"| time | {total_time:.0f} s |",
        "",
    ]
    Path(path).write_text("\n".join(lines))


def nproc():
    try:
        return subprocess.run(["nproc"], capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return str(os.cpu_count())


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--trials", type=int, default=10)
    ap.add_argument("--seed", type=int, default=None, help="random seed (printed; default: random)")
    ap.add_argument("--report", help="write a markdown summary to this file")
    ap.add_argument("--keep-failed", action="store_true", help="keep the data dir of failed trials")
    ap.add_argument("--tmp", default=None, help="where to create data dirs (default: system temp)")
    args = ap.parse_args()
    if args.seed is None:
        args.seed = random.randrange(1 << 31)
    if not os.access(BIN, os.X_OK):
        sys.exit(f"no executable {BIN}: run `cargo build --release` or set HIGHCHAIR_BIN")
    print(f"crash test: {args.trials} trials, seed {args.seed}, binary {BIN}")
    master = random.Random(args.seed)
    results = []
    t_all = time.monotonic()
    for n in range(1, args.trials + 1):
        t0 = time.monotonic()
        mode = BIG_MODES[(n - 1) % len(BIG_MODES)]
        trial = Trial(n, random.Random(master.random()), args.tmp, mode)
        try:
            trial.run()
        finally:
            failed = bool(trial.failures)
            trial.cleanup(keep=failed and args.keep_failed)
        delay = getattr(trial, "kill_delay", None)
        acked = trial.acked["setup"] + trial.acked["load"]
        left = trial.photos_left_at_restart
        job = ""
        if mode != "none":
            job = f", big child delete {mode}" + (
                f" ({left} of its {BIG_PHOTOS} photos left at restart)" if left is not None
                else " (not done before the kill)")
        job += f"; jobs finished after restart: {trial.jobs_resumed}"
        print(f"trial {n}/{args.trials}: kill after {delay or 0:.2f} s{job}; acked writes "
              f"{acked} ({trial.acked['load']} under load), unknown {trial.unknown}; "
              f"{time.monotonic() - t0:.1f} s; {'FAIL' if failed else 'ok'}", flush=True)
        for f in trial.failures[:20]:
            print("    - " + f.replace("\n", "\n      "))
        if len(trial.failures) > 20:
            print(f"    ... and {len(trial.failures) - 20} more")
        results.append({"delay": delay, "acked": acked, "unknown": trial.unknown,
                        "failures": len(trial.failures), "mode": mode, "photos_left": left,
                        "resumed": trial.jobs_resumed})
    total = time.monotonic() - t_all
    acked = sum(r["acked"] for r in results)
    failures = sum(r["failures"] for r in results)
    failed_trials = sum(1 for r in results if r["failures"])
    print(f"summary: {len(results)} trials, {acked} acknowledged writes checked, "
          f"{sum(r['unknown'] for r in results)} unknown, {failures} failures "
          f"({failed_trials} failed trials), {total:.0f} s, seed {args.seed}")
    if args.report:
        write_report(args.report, args, results, total)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        sys.exit(130)
