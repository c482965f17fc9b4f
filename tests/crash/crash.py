#!/usr/bin/env python3
"""Crash test: `kill -9` highchair while it takes writes, restart it, check every acknowledged write.

Each trial starts the release binary on a fresh data directory, signs up three families, gives
them children (one child gets 600 meals), then lets six writer threads (two per family) create,
update and delete meals, upload photos, add and delete children, save and delete recipes,
create grocery lists and tick their items, save a week of the meal plan, invite co-parents and
choose a PIN as some of them. Every write whose 2xx reply arrived is "acknowledged"; a write
whose connection died is "unknown". At a random moment the server is killed with SIGKILL (in
some trials right after, or while, deleting the child with 600 meals, so its background job is
cut off; in every third trial while `highchair backup --out` streams an archive), restarted on
the same data directory, and checked:

- every acknowledged meal is there with its last acknowledged foods (or those of a later unknown
  write), every acknowledged delete is gone, every acknowledged child exists unless deleted;
- a deleted child answers 404, none of its meals is listed or readable, and the resumed job
  removes their photos (polled for up to 10 s);
- every photo of a present meal is served; no family sees another family's records;
- every acknowledged recipe is there unless its delete was acknowledged; every grocery list is
  there, each item with the tick that was acknowledged last (by its time) or a later unknown
  one; the meal plan week holds the last acknowledged save (or a later unknown one); every
  acknowledged co-parent is listed, and one whose PIN was acknowledged still has their session
  and signs in with the PIN;
- a backup cut off by the kill left no file under the name asked for unless that file verifies,
  and a leftover partial file does not verify; after the restart `highchair backup` writes an
  archive that verifies, and removes stale partial files;
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
import re
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
LISTS_MAX = 4            # grocery lists per family (few, so both writers tick the same items)
INVITES_MAX = 3          # co-parents invited per family (the server allows 20)
PIN_SETUPS_MAX = 3       # co-parent PINs chosen per trial (the server allows 20 PIN tries an
                         # hour per address; each acknowledged one is tried again after the restart)
PIN = "482913"
PLAN_WEEK = "2026-W48"   # Monday 2026-11-23
PLAN_DAYS = ["2026-11-24", "2026-11-25"]
BACKUP_EVERY = 3         # every third trial, the kill lands while a backup is being written
BACKUP_LEAD = (0.0, 0.1)  # seconds between starting `highchair backup --out` and the kill
                         # (the command takes 0.03-0.1 s here: the kill often lands in it)
CLI_TIMEOUT = 60
# The kinds of acknowledged writes, in the order the summary lists them.
KINDS = ["account", "child", "child delete", "meal", "meal update", "meal delete", "photo",
         "recipe", "recipe delete", "grocery list", "tick", "meal plan", "co-parent",
         "co-parent PIN"]


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


def rfc3339_ns(ns):
    """An RFC 3339 UTC time with microseconds, from nanoseconds since the epoch."""
    secs, rem = divmod(ns, 1_000_000_000)
    t = dt.datetime.fromtimestamp(secs, dt.timezone.utc)
    return t.strftime("%Y-%m-%dT%H:%M:%S") + f".{rem // 1000:06d}Z"


_RFC3339 = re.compile(r"(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)(?:\.(\d{1,9}))?(Z|[+-]\d\d:\d\d)")


def parse_ns(text):
    """Nanoseconds since the epoch of an RFC 3339 time as the server writes it (None for None)."""
    if text is None:
        return None
    m = _RFC3339.fullmatch(text)
    if not m:
        raise ValueError(f"not an RFC 3339 time: {text!r}")
    t = dt.datetime(*(int(m[i]) for i in range(1, 7)), tzinfo=dt.timezone.utc)
    if m[8] != "Z":
        sign = 1 if m[8][0] == "+" else -1
        t -= sign * dt.timedelta(hours=int(m[8][1:3]), minutes=int(m[8][4:6]))
    secs = (t - dt.datetime(1970, 1, 1, tzinfo=dt.timezone.utc)) // dt.timedelta(seconds=1)
    return secs * 1_000_000_000 + int((m[7] or "").ljust(9, "0"))


def cookie_from(resp, name):
    return next((h.split(";")[0] for h in resp.headers.get_all("set-cookie") or []
                 if h.startswith(name + "=")), None)


def cli_env():
    """The environment of every highchair process: no HIGHCHAIR_* from outside."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("HIGHCHAIR_")}
    # A load test, not a test of the limits: photo uploads are not rate-limited here, and
    # the low-disk guard is off (CI disks can be small).
    env.update(HIGHCHAIR_AUTH_ALLOW_SIGNUP="true", HIGHCHAIR_LOG_LEVEL="info",
               HIGHCHAIR_LIMITS_MIN_FREE_DISK_MB="0",
               HIGHCHAIR_LIMITS_UPLOADS_PER_HOUR="100000",
               HIGHCHAIR_LIMITS_GUEST_UPLOADS_PER_HOUR="100000")
    return env


def run_cli(args, timeout=CLI_TIMEOUT):
    """Runs `highchair ARGS`; returns (exit status, stdout, stderr). Exit status None: it hung
    (and was killed)."""
    proc = subprocess.Popen([BIN, *args], env=cli_env(), stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return finish_cli(proc, timeout)


def finish_cli(proc, timeout=CLI_TIMEOUT):
    try:
        out, err = proc.communicate(timeout=timeout)
        rc = proc.returncode
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
        rc = None
    return rc, out.decode(errors="replace"), err.decode(errors="replace")


def verify_archive(path):
    """`highchair backup verify PATH`: (passed, what it said)."""
    rc, out, err = run_cli(["backup", "verify", str(path)])
    return rc == 0, (out + err).strip()


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
        env = cli_env()
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


class RecipeRec:
    def __init__(self, rid, content):
        self.id, self.content = rid, content  # content: the fields sent (title, ingredients...)
        self.delete_attempts = 0
        self.delete_acked = False
        self.delete_unknown = False


class ItemRec:
    def __init__(self, iid, name):
        self.id, self.name = iid, name
        # Every tick sent: {"at": ns, "checked": bool, "outcome": pending | applied | ignored
        # | unknown | refused}. "ignored": acknowledged with applied=false (a later tick was
        # there already).
        self.ticks = []


class ListRec:
    def __init__(self, lid, name, items, version):
        self.id, self.name = lid, name
        self.items = {i.id: i for i in items}
        self.max_version = version     # highest version of an acknowledged write that changed it


class PlanRec:
    """The family's week PLAN_WEEK. Titles are kept sorted."""

    def __init__(self):
        self.acked = [(0, [])]   # (version after the save, titles): a week never saved is v0
        self.unknown = []        # (version the save was based on, titles), outcome unknown
        self.seen_version = 0


class CoParentRec:
    def __init__(self, cid, email, token, shared_pin):
        self.id, self.email, self.token = cid, email, token
        self.shared_pin = shared_pin  # the PIN the invite answered, for the first sign-in
        self.pin = "none"        # none | pending | acked | unknown | refused
        self.share_cookie = None


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
        self.recipes = {}             # id -> RecipeRec
        self.unknown_recipes = {}     # title -> content of recipe saves without reply
        self.lists = {}               # id -> ListRec
        self.unknown_lists = {}       # name -> item names of list creates without reply
        self.plan = PlanRec()
        self.co_parents = {}          # id -> CoParentRec
        self.unknown_co_parents = set()  # emails of invites without reply
        self.invites = 0              # invites sent (INVITES_MAX)

    def live_children(self):
        return [c for c in self.children.values() if c.status == "live"]


class Trial:
    def __init__(self, number, rng, base_tmp, mode, backup):
        self.number, self.rng, self.mode, self.backup = number, rng, mode, backup
        self.dir = Path(tempfile.mkdtemp(prefix="hc-crash-", dir=base_tmp))
        self.data = self.dir / "data"
        self.log = self.dir / "server.log"
        self.families = [Family(i, f"{number}-{rng.randrange(1 << 30):x}") for i in range(FAMILIES)]
        self.failures = []
        self.notes = []
        self.lock = threading.Lock()
        self.acked = {"setup": 0, "load": 0}
        self.kinds = {}            # kind -> acknowledged writes (setup and load)
        self.unknown = 0
        self.unknown_kinds = {}    # kind -> writes with an unknown outcome
        self.pin_setups = 0        # PIN_SETUPS_MAX
        self.late_ticks = 0        # ticks acknowledged as not applied (a later tick was there)
        self.backup_proc = None    # `highchair backup --out` started before the kill
        self.backup_lead = None
        self.backup_result = None  # what became of it (printed)
        self.backup_times = []     # when it started and ended (monotonic)
        self.killed_at = None
        self.after_backup = None   # (process, stale partial file) of the backup after the restart
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

    def ack(self, kind):
        with self.lock:
            self.acked[self.phase] = self.acked.get(self.phase, 0) + 1
            self.kinds[kind] = self.kinds.get(kind, 0) + 1

    def lost(self, kind):
        with self.lock:
            self.unknown += 1
            self.unknown_kinds[kind] = self.unknown_kinds.get(kind, 0) + 1

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
                self.ack("account")
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
                        self.ack("photo")
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
                    self.ack("meal")
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
        self.ack("child")
        rec = ChildRec(child["id"], name, big)
        with fam.lock:
            fam.children[rec.id] = rec
        return rec

    # -- load ----------------------------------------------------------------------------------

    def writer(self, fam, wid, seed):
        rng = random.Random(seed)
        c = Client(self.server.port, fam.cookie)
        ops = [(self.op_create, 35, "meal"), (self.op_create_photo, 10, "meal"),
               (self.op_update, 30, "meal update"), (self.op_delete, 12, "meal delete"),
               (self.op_add_child, 5, "child"), (self.op_delete_child, 2, "child delete"),
               (self.op_save_recipe, 8, "recipe"), (self.op_delete_recipe, 3, "recipe delete"),
               (self.op_create_list, 3, "grocery list"), (self.op_tick, 14, "tick"),
               (self.op_save_plan, 6, "meal plan"),
               # Rare, so the few allowed are spread over the load, not all at its start.
               (self.op_invite, 0.5, "co-parent"), (self.op_choose_pin, 0.3, "co-parent PIN")]
        funcs, weights, kinds = zip(*ops)
        seq = 0
        try:
            while not self.killing.is_set():
                seq += 1
                k = rng.choices(range(len(funcs)), weights)[0]
                try:
                    funcs[k](c, fam, rng, f"{wid}-{seq}")
                except Lost as e:
                    self.lost(kinds[k])
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
            self.ack("meal")
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
        self.ack("photo")
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
            self.ack("meal update")
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
            self.ack("meal delete")
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
            self.ack("child")
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
            self.ack("child delete")
            with fam.lock:
                child.status = "deleted"
        else:
            with fam.lock:
                child.status = "delete-unknown"

    # -- recipes, grocery lists, meal plan, co-parents ------------------------------------------

    def op_save_recipe(self, c, fam, rng, tag):
        title = f"Dish {fam.idx}-{tag}"
        content = {"title": title, "servings": 2,
                   "ingredients": [{"name": "Pasta", "quantity": f"{rng.randint(1, 900)} g"}],
                   "instructions": ["Cook."]}
        body = {"source": "own", **content}
        with fam.lock:
            fam.unknown_recipes[title] = content
        status, recipe, data = c.json("POST", "/api/recipes", body)  # Lost: stays unknown
        with fam.lock:
            del fam.unknown_recipes[title]
        if not self.check_status("POST /api/recipes", status, data, (201,)):
            return
        self.ack("recipe")
        problem = self.recipe_mismatch(recipe, content)
        if problem or recipe.get("version") != 1 or recipe.get("source") != "own":
            self.fail(f"POST /api/recipes answered {recipe} for {body} ({problem or 'version/source'})")
        with fam.lock:
            fam.recipes[recipe["id"]] = RecipeRec(recipe["id"], content)

    @staticmethod
    def recipe_mismatch(got, content):
        """What of `content` the recipe `got` does not have (None: all of it)."""
        for key in ("title", "servings", "instructions"):
            if got.get(key) != content[key]:
                return f"{key} {got.get(key)!r}, sent {content[key]!r}"
        lines = [{"name": i.get("name"), "quantity": i.get("quantity")} for i in got.get("ingredients") or []]
        if lines != content["ingredients"]:
            return f"ingredients {lines}, sent {content['ingredients']}"
        return None

    def op_delete_recipe(self, c, fam, rng, tag):
        with fam.lock:
            live = [r for r in fam.recipes.values() if not r.delete_acked]
            if not live:
                return
            rec = rng.choice(live)
            rec.delete_attempts += 1
        try:
            status, _, data = c.request("DELETE", f"/api/recipes/{rec.id}")
        except Lost:
            with fam.lock:
                rec.delete_unknown = True
            raise
        if status == 204:
            self.ack("recipe delete")
            with fam.lock:
                rec.delete_acked = True
        elif status == 404 and rec.delete_attempts > 1:
            pass  # the family's other writer deleted it first
        else:
            self.check_status(f"DELETE /api/recipes/{rec.id}", status, data, ())

    def op_create_list(self, c, fam, rng, tag):
        with fam.lock:
            full = len(fam.lists) + len(fam.unknown_lists) >= LISTS_MAX
        if full:
            return
        name = f"Shop {fam.idx}-{tag}"
        names = ["Milk", "Bread"]
        with fam.lock:
            fam.unknown_lists[name] = names
        status, got, data = c.json("POST", "/api/grocery-lists",
                                   {"name": name, "items": [{"name": n} for n in names]})
        with fam.lock:
            del fam.unknown_lists[name]
        if not self.check_status("POST /api/grocery-lists", status, data, (201,)):
            return
        self.ack("grocery list")
        items = got.get("items") or []
        if (got.get("name") != name or got.get("version") != 1 or [i.get("name") for i in items] != names
                or any(i.get("checked") for i in items)):
            self.fail(f"POST /api/grocery-lists answered {got} for {name} {names}")
        with fam.lock:
            fam.lists[got["id"]] = ListRec(got["id"], name, [ItemRec(i["id"], i["name"]) for i in items],
                                           got.get("version", 1))

    def op_tick(self, c, fam, rng, tag):
        with fam.lock:
            if not fam.lists:
                return
            lst = rng.choice(list(fam.lists.values()))
            item = rng.choice(list(lst.items.values()))
        checked = rng.random() < 0.5
        # Now, or a little earlier (a phone catching up): some ticks arrive after a later one.
        at = time.time_ns() // 1000 * 1000
        if rng.random() < 0.3:
            at -= rng.randrange(50_000) * 1000
        tick = {"at": at, "checked": checked, "outcome": "pending"}
        with fam.lock:
            item.ticks.append(tick)
        path = f"/api/grocery-lists/{lst.id}/items/{item.id}"
        try:
            status, got, data = c.json("PATCH", path, {"checked": checked, "at": rfc3339_ns(at)})
        except Lost:
            with fam.lock:
                tick["outcome"] = "unknown"
            raise
        if not self.check_status(f"PATCH {path}", status, data, (200,)):
            with fam.lock:
                tick["outcome"] = "refused"
            return
        self.ack("tick")
        mine = next((i for i in (got.get("list") or {}).get("items", []) if i.get("id") == item.id), None)
        if mine is None:
            self.fail(f"PATCH {path}: the list answered has no item {item.id}: {got}")
            return
        stored = parse_ns(mine.get("checkedAt"))
        applied = got.get("applied")
        with fam.lock:
            if applied is True:
                tick["outcome"] = "applied"
                if mine.get("checked") != checked or stored is None:
                    self.fail(f"PATCH {path} checked={checked} at {rfc3339_ns(at)}: applied, but the "
                              f"item answered is {mine}")
                else:
                    # The server never dates a tick in the future; it keeps what it stored.
                    tick["at"] = stored
                lst.max_version = max(lst.max_version, got["list"].get("version", 0))
            elif applied is False:
                tick["outcome"] = "ignored"
                self.late_ticks += 1
                if stored is None or stored <= at:
                    self.fail(f"PATCH {path} at {rfc3339_ns(at)}: not applied, but the item's tick "
                              f"is not later: {mine}")
            else:
                tick["outcome"] = "refused"
                self.fail(f"PATCH {path}: no applied flag in {got}")

    def op_save_plan(self, c, fam, rng, tag):
        plan = fam.plan
        path = f"/api/meal-plan?week={PLAN_WEEK}"
        if rng.random() < 0.3:
            status, week, data = c.json("GET", path)
            if not self.check_status(f"GET {path}", status, data, (200,)):
                return
            with fam.lock:
                plan.seen_version = max(plan.seen_version, week.get("version", 0))
        with fam.lock:
            base = plan.seen_version
        texts = [f"Soup {fam.idx}-{tag}"] + ([f"Stew {fam.idx}-{tag}"] if rng.random() < 0.5 else [])
        entries = [{"date": PLAN_DAYS[k], "mealType": ["dinner", "Lunch"][k], "text": t}
                   for k, t in enumerate(texts)]
        titles = sorted(texts)
        try:
            status, week, data = c.json("PUT", path, {"version": base, "entries": entries})
        except Lost:
            with fam.lock:
                plan.unknown.append((base, titles))
            raise
        if status == 200:
            self.ack("meal plan")
            got = sorted(e.get("title") for e in week.get("entries") or [])
            if week.get("version") != base + 1 or got != titles:
                self.fail(f"PUT {path} v{base} {titles} answered v{week.get('version')} {got}")
            with fam.lock:
                plan.acked.append((week["version"], titles))
                plan.seen_version = max(plan.seen_version, week["version"])
        elif status == 409:
            current = ((week or {}).get("current") or {}).get("version")
            if not isinstance(current, int) or current == base:
                self.fail(f"PUT {path} v{base}: 409 without a newer current week: {data[:300]!r}")
                return
            with fam.lock:
                plan.seen_version = max(plan.seen_version, current)
        else:
            self.check_status(f"PUT {path}", status, data, ())

    def op_invite(self, c, fam, rng, tag):
        with fam.lock:
            if fam.invites >= INVITES_MAX:
                return
            fam.invites += 1
            email = f"nan-{fam.idx}-{tag}@example.org"
            fam.unknown_co_parents.add(email)
        status, got, data = c.json("POST", "/api/co-parents", {"name": "Nan", "email": email})
        with fam.lock:
            fam.unknown_co_parents.discard(email)
        if not self.check_status("POST /api/co-parents", status, data, (201,)):
            return
        self.ack("co-parent")
        co = got.get("coParent") or {}
        link = got.get("link") or ""
        if (co.get("email") != email or "/co-parent/accept/" not in link or co.get("link") != link
                or not re.fullmatch(r"\d{6}", str(got.get("pin")))):
            self.fail(f"POST /api/co-parents answered {got} for {email}")
        with fam.lock:
            fam.co_parents[co["id"]] = CoParentRec(co["id"], email, link.rsplit("/", 1)[-1],
                                                   str(got.get("pin")))

    def op_choose_pin(self, c, fam, rng, tag):
        with fam.lock:
            waiting = [p for p in fam.co_parents.values() if p.pin == "none"]
            if not waiting:
                return
            co = rng.choice(waiting)
            co.pin = "pending"
        with self.lock:
            allowed = self.pin_setups < PIN_SETUPS_MAX
            self.pin_setups += allowed
        if not allowed:
            with fam.lock:
                co.pin = "none"
            return
        # The co-parent signs in with the PIN the parent shared, then chooses their own (a link
        # alone opens nothing). The sign-in accepts the link: from here the state is not "none".
        share = Client(self.server.port)
        try:
            path = f"/api/share/{co.token}/session"
            status, data, resp = share.request("POST", path, {"pin": co.shared_pin})
            if status != 200:
                with fam.lock:
                    co.pin = "refused"
                self.check_status(f"POST {path}", status, data, ())
                return
            share.cookie = cookie_from(resp, "highchair_share")
            path = f"/api/share/{co.token}/pin"
            status, data, resp = share.request("POST", path, {"pin": PIN, "confirmPin": PIN})
        except Lost:
            with fam.lock:
                co.pin = "unknown"
            raise
        finally:
            share.close()
        if status == 201:
            self.ack("co-parent PIN")
            cookie = cookie_from(resp, "highchair_share")
            if cookie is None:
                self.fail(f"POST {path} answered 201 without a highchair_share cookie")
            with fam.lock:
                co.pin, co.share_cookie = "acked", cookie
        else:
            with fam.lock:
                co.pin = "refused"
            self.check_status(f"POST {path}", status, data, ())

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
        if self.backup:
            # `highchair backup --out` shortly before the kill: it often lands mid-archive.
            self.backup_lead = self.rng.uniform(*BACKUP_LEAD)
            time.sleep(max(0.0, started + self.kill_delay - self.backup_lead - time.monotonic()))
            self.backup_proc = subprocess.Popen(
                [BIN, "backup", "--out", str(self.dir / "backup.tar"), "--data-dir", str(self.data)],
                env=cli_env(), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            self.backup_times = [time.monotonic()]
            threading.Thread(target=lambda p=self.backup_proc: (p.wait(), self.backup_times.append(
                time.monotonic())), daemon=True).start()
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
                    self.lost("child delete")
            c.close()
        else:
            self.killing.set()
            self.server.kill9()
        self.killed_at = time.monotonic()
        self.kill_delay = self.killed_at - started
        for t in threads:
            t.join(HTTP_TIMEOUT + 5)
            if t.is_alive():
                self.fail("a writer thread did not stop after the kill")
        if self.backup_proc is not None:
            self.check_cut_backup()

    # -- backups -------------------------------------------------------------------------------

    def check_cut_backup(self):
        """The backup the kill (maybe) cut off: it may have failed, but nothing unverifiable may
        carry the name asked for, and a leftover partial file must not pass for a backup."""
        rc, out, err = finish_cli(self.backup_proc)
        self.backup_proc = None
        time.sleep(0.01)  # the waiting thread notes the end
        begun, ended = self.backup_times[0], self.backup_times[-1]
        timing = (f"ran {ended - begun:.2f} s, ended {ended - self.killed_at:+.2f} s from the kill"
                  if len(self.backup_times) > 1 else "")
        target, partial = self.dir / "backup.tar", self.dir / ".backup.tar.partial"
        if rc is None:
            self.fail(f"`highchair backup --out` still ran {CLI_TIMEOUT} s after the server was killed")
        elif rc == 0 and not target.exists():
            self.fail(f"`highchair backup --out` succeeded but wrote no {target.name}: {out.strip()}")
        result = "cut off" if rc else "done"
        if target.exists():
            ok, said = verify_archive(target)
            if not ok:
                self.fail(f"{target.name} exists (backup exit {rc}) but does not verify: {said[:500]}")
            result = "written, verified" if ok else "written, BROKEN"
        elif rc:
            result = f"cut off (exit {rc}: {err.strip().splitlines()[-1][:160] if err.strip() else ''})"
            if len(self.backup_times) > 1 and self.backup_times[-1] < self.killed_at - 0.01:
                # Allowed (nothing was left under its name), but the kill did not cause it.
                result += "; it FAILED WHILE THE SERVER STILL RAN"
        if partial.exists():
            ok, said = verify_archive(partial)
            if ok:
                self.fail(f"the leftover {partial.name} verifies as a complete backup "
                          f"(backup exit {rc}): {said[:300]}")
            result += f"; partial file left ({partial.stat().st_size} bytes, does not verify)"
        self.backup_result = f"{result} ({timing})" if timing else result

    def start_backup_after_restart(self):
        """`highchair backup` into the backup directory, while the restarted server runs (and
        maybe finishes a resumed job). A stale hidden partial file, as an automatic backup that
        the kill cut off would leave, must be gone afterwards."""
        backups = self.data / "backups"
        backups.mkdir(mode=0o700, exist_ok=True)
        stale = backups / f".{os.urandom(16).hex()}.partial"
        stale.write_bytes(b"cut off by the crash test")
        proc = subprocess.Popen([BIN, "backup", "--data-dir", str(self.data)], env=cli_env(),
                                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        return proc, stale

    def check_backup_after_restart(self, started):
        proc, stale = started
        backups = self.data / "backups"
        rc, out, err = finish_cli(proc)
        m = re.search(r"Backup written: (.+?) \(", out)
        if rc != 0 or not m:
            self.fail(f"`highchair backup` after the restart: exit {rc}: {(out + err).strip()[:500]}")
        else:
            path = Path(m[1])
            if path.parent != backups or not path.name.startswith("highchair-") or not path.is_file():
                self.fail(f"`highchair backup` after the restart named {path}, not a file in {backups}")
            else:
                ok, said = verify_archive(path)
                if not ok:
                    self.fail(f"the backup written after the restart does not verify: {said[:500]}")
                self.backup_result = (self.backup_result or "") + "; after restart: verified"
        for name in sorted(os.listdir(backups)):
            if name.endswith(".partial") and not name.startswith("."):
                self.fail(f"{backups}/{name}: a partial file that looks like a backup")
            elif name == stale.name:
                self.fail(f"the stale partial file {name} was not removed by the next backup")
        spools = [n for n in os.listdir(self.data) if n.startswith(".backup-spool-")]
        if spools:
            self.fail(f"backup scratch directories left in the data directory: {spools}")

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
                if rec.child == self.big.id and rec.photo and rec.tag.startswith("B")
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
            self.verify_recipes(fam, clients[fam.idx])
            self.verify_lists(fam, clients[fam.idx])
            self.verify_plan(fam, clients[fam.idx])
            self.verify_co_parents(fam, clients[fam.idx])

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
            for rid in list(other.recipes)[:3]:
                status, _, data = c.request("GET", f"/api/recipes/{rid}")
                self.check_status(f"family {fam.idx}: GET another family's recipe", status, data, (404,))
            for lid in list(other.lists)[:3]:
                status, _, data = c.request("GET", f"/api/grocery-lists/{lid}")
                self.check_status(f"family {fam.idx}: GET another family's grocery list", status, data, (404,))

        status, _, data = clients[0].request("GET", "/api/health")
        self.check_status("GET /api/health at the end", status, data, (200,))
        for c in clients.values():
            c.close()

    def verify_recipes(self, fam, c):
        status, listed, data = c.json("GET", "/api/recipes")
        if not self.check_status(f"family {fam.idx}: GET /api/recipes", status, data, (200,)):
            return
        present = {r["id"]: r for r in listed}
        for rec in fam.recipes.values():
            r = present.get(rec.id)
            if rec.delete_acked:
                if r is not None:
                    self.fail(f"family {fam.idx}: recipe {rec.id} deleted (204) is listed")
                status, _, data = c.request("GET", f"/api/recipes/{rec.id}")
                self.check_status(f"family {fam.idx}: GET deleted recipe {rec.id}", status, data, (404,))
            elif r is None:
                if not rec.delete_unknown:
                    self.fail(f"family {fam.idx}: acknowledged recipe {rec.id} "
                              f"({rec.content['title']}) is lost")
            else:
                problem = self.recipe_mismatch(r, rec.content)
                if problem or r.get("version") != 1:
                    self.fail(f"family {fam.idx}: recipe {rec.id} came back different: "
                              f"{problem or 'version ' + str(r.get('version'))}")
        for rid, r in present.items():
            if rid in fam.recipes:
                continue
            content = fam.unknown_recipes.get(r.get("title"))
            if content is None:
                self.fail(f"family {fam.idx}: unexpected recipe {rid} ({r.get('title')}) listed "
                          "(another family's, or never written)")
            elif self.recipe_mismatch(r, content):
                self.fail(f"family {fam.idx}: recipe {rid} of an unknown save differs from what was "
                          f"sent: {self.recipe_mismatch(r, content)}")

    def verify_lists(self, fam, c):
        status, listed, data = c.json("GET", "/api/grocery-lists")
        if not self.check_status(f"family {fam.idx}: GET /api/grocery-lists", status, data, (200,)):
            return
        present = {lst["id"]: lst for lst in listed}
        for rec in fam.lists.values():
            got = present.get(rec.id)
            if got is None:
                self.fail(f"family {fam.idx}: acknowledged grocery list {rec.id} ({rec.name}) is lost")
                continue
            if got.get("version", 0) < rec.max_version:
                self.fail(f"family {fam.idx}: list {rec.id} is at v{got.get('version')}, but "
                          f"v{rec.max_version} was acknowledged (lost update)")
            items = {i["id"]: i for i in got.get("items") or []}
            if got.get("name") != rec.name or set(items) != set(rec.items):
                self.fail(f"family {fam.idx}: list {rec.id} came back as {got.get('name')} with items "
                          f"{sorted(items)}, expected {rec.name} {sorted(rec.items)}")
                continue
            for item in rec.items.values():
                self.check_item(fam, rec, item, items[item.id])
        for lid, got in present.items():
            if lid in fam.lists:
                continue
            names = fam.unknown_lists.get(got.get("name"))
            items = got.get("items") or []
            if names is None:
                self.fail(f"family {fam.idx}: unexpected grocery list {lid} ({got.get('name')}) listed "
                          "(another family's, or never written)")
            elif ([i.get("name") for i in items] != names or got.get("version") != 1
                  or any(i.get("checked") or i.get("checkedAt") for i in items)):
                self.fail(f"family {fam.idx}: list {lid} of an unknown create is not what was sent: {got}")

    def check_item(self, fam, lst, item, got):
        """The item's tick after the restart. Its state is that of the tick with the latest time
        the server stored: no earlier than any acknowledged tick's time (strictly later than one
        acknowledged as not applied, which found a later tick there), and made by a tick that was
        applied or whose outcome is unknown."""
        checked, at = got.get("checked"), parse_ns(got.get("checkedAt"))
        where = f"family {fam.idx}: list {lst.id} item {item.id} ({item.name})"
        ticks = [t for t in item.ticks if t["outcome"] != "refused"]
        acked = [t for t in ticks if t["outcome"] in ("applied", "ignored")]
        shown = "checked" if checked else "unchecked"
        sent = "; ".join(f"{t['outcome']} {'checked' if t['checked'] else 'unchecked'} at "
                         f"{rfc3339_ns(t['at'])}" for t in sorted(ticks, key=lambda t: t["at"]))
        if at is None:
            if acked or checked:
                self.fail(f"{where}: {shown} with no tick time after the restart, ticks sent: {sent}")
            return
        for t in acked:
            if at < t["at"] or (t["outcome"] == "ignored" and at == t["at"]):
                self.fail(f"{where}: {shown} as of {rfc3339_ns(at)} after the restart, earlier than "
                          f"a tick acknowledged as {t['outcome']} at {rfc3339_ns(t['at'])} "
                          f"(lost tick); ticks sent: {sent}")
                return
        if not any(t["at"] == at and t["checked"] == checked and t["outcome"] in ("applied", "unknown")
                   for t in ticks):
            self.fail(f"{where}: {shown} as of {rfc3339_ns(at)} after the restart, which no applied or "
                      f"unknown tick made; ticks sent: {sent}")

    def verify_plan(self, fam, c):
        path = f"/api/meal-plan?week={PLAN_WEEK}"
        status, week, data = c.json("GET", path)
        if not self.check_status(f"family {fam.idx}: GET {path}", status, data, (200,)):
            return
        plan = fam.plan
        v = week.get("version")
        titles = sorted(e.get("title") for e in week.get("entries") or [])
        max_v, max_titles = max(plan.acked, key=lambda a: a[0])
        if v < max_v:
            self.fail(f"family {fam.idx}: meal plan {PLAN_WEEK} is at v{v} {titles}, but v{max_v} "
                      f"{max_titles} was acknowledged (lost save)")
        elif v == max_v:
            if titles != max_titles:
                self.fail(f"family {fam.idx}: meal plan v{v} holds {titles}, acknowledged {max_titles}")
        elif not any(b + 1 == v and t == titles for b, t in plan.unknown):
            self.fail(f"family {fam.idx}: meal plan is at v{v} {titles}, which no save produced "
                      f"(acknowledged v{max_v} {max_titles}, unknown {plan.unknown})")

    def verify_co_parents(self, fam, c):
        status, listed, data = c.json("GET", "/api/co-parents")
        if not self.check_status(f"family {fam.idx}: GET /api/co-parents", status, data, (200,)):
            return
        present = {p["id"]: p for p in listed}
        for rec in fam.co_parents.values():
            got = present.get(rec.id)
            where = f"family {fam.idx}: co-parent {rec.id} ({rec.email})"
            if got is None:
                self.fail(f"{where}: acknowledged invite is lost")
                continue
            if got.get("email") != rec.email or not got.get("link", "").endswith("/" + rec.token):
                self.fail(f"{where}: came back as {got}")
            if rec.pin == "none" and got.get("accepted"):
                self.fail(f"{where}: accepted, but no PIN was chosen: {got}")
            if rec.pin != "acked":
                continue
            if not got.get("accepted") or not got.get("pinSet"):
                self.fail(f"{where}: the chosen PIN was acknowledged (201), but after the restart "
                          f"accepted={got.get('accepted')} pinSet={got.get('pinSet')}")
            share = Client(self.server.port, rec.share_cookie)
            try:
                if rec.share_cookie:
                    path = f"/api/share/{rec.token}/session"
                    status, _, data = share.request("GET", path)
                    self.check_status(f"{where}: GET {path} with the session the PIN opened",
                                      status, data, (200,))
                share.cookie = None
                path = f"/api/share/{rec.token}/session"
                status, _, data = share.request("POST", path, {"pin": PIN})
                self.check_status(f"{where}: POST {path} with the chosen PIN", status, data, (200,))
            finally:
                share.close()
        for pid, got in present.items():
            if pid not in fam.co_parents and got.get("email") not in fam.unknown_co_parents:
                self.fail(f"family {fam.idx}: unexpected co-parent {pid} ({got.get('email')}) listed "
                          "(another family's, or never written)")

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
            if self.backup:
                self.after_backup = self.start_backup_after_restart()
            self.verify()
            if self.after_backup is not None:
                self.check_backup_after_restart(self.after_backup)
                self.after_backup = None
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
            for proc in (self.backup_proc, self.after_backup and self.after_backup[0]):
                if proc is not None and proc.poll() is None:
                    proc.kill()
                    proc.wait()
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
    backups = [r for r in results if r["backup"] is not None]
    cut_backups = sum(1 for r in backups if r["backup"].startswith("cut off"))
    partials = sum(1 for r in backups if "partial file left" in r["backup"])
    early = sum(1 for r in backups if "FAILED WHILE THE SERVER STILL RAN" in r["backup"])
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
        f"| `highchair backup --out` running at the kill | {len(backups)} trials: {cut_backups} cut off "
        f"(no file left under its name), {len(backups) - cut_backups} wrote a file that verified; "
        f"partial files left: {partials} (none verified); failed before the kill: {early} |",
        f"| backups after the restart (verified, stale partial files removed) | {len(backups)} |",
        f"| failures | {failures} |",
        f"| time | {total_time:.0f} s |",
        "",
        "Acknowledged writes by kind (setup included: the accounts, the first children and the "
        f"{BIG_MEALS} meals of the big child), and writes whose outcome was unknown at the kill:",
        "",
        "| kind | acknowledged | per trial (min / median / max) | unknown |",
        "|---|---:|---:|---:|",
    ]
    for kind in KINDS:
        per = [r["kinds"].get(kind, 0) for r in results]
        lines.append(f"| {kind} | {sum(per)} | {min(per) if per else 0} / "
                     f"{statistics.median(per) if per else 0:g} / {max(per) if per else 0} | "
                     f"{sum(r['unknown_kinds'].get(kind, 0) for r in results)} |")
    lines += ["", f"Ticks acknowledged as not applied (a later tick of the item was there): "
              f"{sum(r['late_ticks'] for r in results)}.", ""]
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
        # Every third trial, shifted by one each round, so backups meet every big-child mode.
        backup = (n - 1) % BACKUP_EVERY == ((n - 1) // BACKUP_EVERY) % BACKUP_EVERY
        trial = Trial(n, random.Random(master.random()), args.tmp, mode, backup)
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
        print("    acked: " + ", ".join(f"{k} {trial.kinds[k]}" for k in KINDS if trial.kinds.get(k))
              + f" ({trial.late_ticks} ticks not applied: a later one was there)"
              + ("; unknown: " + ", ".join(f"{k} {v}" for k, v in sorted(trial.unknown_kinds.items()))
                 if trial.unknown_kinds else ""))
        if backup:
            lead = f"started {trial.backup_lead:.2f} s before the kill" if trial.backup_lead is not None else "not started"
            print(f"    backup: {lead}: {trial.backup_result}")
        for f in trial.failures[:20]:
            print("    - " + f.replace("\n", "\n      "))
        if len(trial.failures) > 20:
            print(f"    ... and {len(trial.failures) - 20} more")
        results.append({"delay": delay, "acked": acked, "unknown": trial.unknown,
                        "failures": len(trial.failures), "mode": mode, "photos_left": left,
                        "resumed": trial.jobs_resumed, "kinds": dict(trial.kinds),
                        "unknown_kinds": dict(trial.unknown_kinds), "late_ticks": trial.late_ticks,
                        "backup": (trial.backup_result or "not run") if backup else None})
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
