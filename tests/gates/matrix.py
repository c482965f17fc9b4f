#!/usr/bin/env python3
"""Cross-family access matrix, generated from the OpenAPI document of the running binary.

Starts `highchair serve` (release build) on a free loopback port with a fresh data directory,
reads /api/openapi.json and checks, for every operation the document lists:

- an operation with a path parameter is called by every other caller (parent of family B, the
  server admin of a third family, a guest, a signed-out client, and family A's own session after
  it signed out) with family A's ids in its path, with valid bodies. The answer must be 404 (401
  for the signed-out ones): never 2xx, never 403, never 5xx, and byte-for-byte the answer the
  same request gets for a random id that never existed (anything else tells A's record exists).
  The same request on the caller's own record must succeed ("control"), which proves the body
  was valid and the 404 comes from the access check;
- a GET without path parameters (lists, the profile, the session, the site...) is called by
  every caller, with A's ids, cursor and ETag in its query and headers, and no id, name, e-mail,
  food or note of family A may appear in the answer (body or headers);
- the change feed (GET /api/events, SSE) of each other caller stays open while A writes: it must
  carry the caller's own changes and none of A's;
- request fields that name records (childId, photo...) are filled with A's ids on the caller's
  own records (POST /api/meals, PUT /api/meals/{id}): never accepted, and answered exactly as a
  random id is;
- afterwards A's records are re-read as A: unchanged, photos byte-identical.

Which A record fills which parameter is the explicit table MATRIX below. An operation the
script does not know, a path/query/header parameter without an entry, or a request field that
looks like a record reference without an entry FAILS the run: new routes cannot slip through.

Standard library only (Python 3.11). Run from anywhere:

    python3 tests/gates/matrix.py [--verbose] [--keep]

The binary is target/release/highchair (or $HIGHCHAIR_BIN). Exit status 1 on any failure.
"""
import argparse
import copy
import datetime
import hashlib
import http.client
import itertools
import json
import os
import re
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
import uuid
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BIN = os.environ.get("HIGHCHAIR_BIN") or str(ROOT / "target/release/highchair")
HTTP_TIMEOUT = 10
SESSION_COOKIE = "highchair_session"


# ---------------------------------------------------------------------------------------------
# The tables. Keys are "METHOD /api/path/{param}" exactly as the OpenAPI document (plus its
# server prefix) spells them.


class Src:
    """A value taken from the world: family A's record `name` (or, with own=True, the caller's
    own record of that kind). `fn`, when given, derives the value from the filled path params
    (so the random-id baseline derives it from the random id)."""

    def __init__(self, name, fn=None, own=False, many=False):
        # many: the field takes a list of ids (recipeIds), filled with this one record.
        self.name, self.fn, self.own, self.many = name, fn, own, many

    def __repr__(self):
        return ("own." if self.own else "A.") + self.name


def media_etag(params):
    return f'"{params["id"]}-full"'


# Operations with path parameters. Every parameter of the operation (path, query, header) needs
# an entry: a list of variants. Path parameters take A's records (Src); query and header
# parameters take None (left out), a literal string or a Src. The first variant of each query or
# header parameter is the base; the others are tried one at a time.
#   "kind": "owner"      - an owner route: 404 for everyone but A (401 when signed out);
#           "capability" - "anyone with the link" (the token is the key): tried with A's public
#                          identifiers (ids, e-mail) in place of the token; must be 404 to all.
#   "body_refs": request fields that name records, with A's records to put in them. A field
#                inside a list of objects is named by its path with the first item's index
#                ("entries.0.recipeId").
# The week family A plans (and the callers' own bodies name).
PLAN_WEEK = "2026-W48"

# What a caller might try as a co-parent link's token: A's public ids and e-mail.
SHARE_TOKENS = [Src("user"), Src("email"), Src("co_parent"), Src("child"), Src("invite"),
                Src("family_token_guess")]

MATRIX = {
    "GET /api/children/{id}": {"kind": "owner", "id": [Src("child")]},
    "PUT /api/children/{id}": {"kind": "owner", "id": [Src("child")]},
    "DELETE /api/children/{id}": {"kind": "owner", "id": [Src("child")]},
    "POST /api/children/{id}/allergen-check": {"kind": "owner", "id": [Src("child")]},
    "POST /api/children/{id}/food-check": {"kind": "owner", "id": [Src("child")]},
    "GET /api/children/{id}/allergens": {"kind": "owner", "id": [Src("child")]},
    "GET /api/children/{id}/foods": {"kind": "owner", "id": [Src("child")],
                                     "If-None-Match": [None, Src("foods_etag"), "*"]},
    "GET /api/children/{id}/delete-preview": {"kind": "owner", "id": [Src("child")]},
    "GET /api/meals/{id}": {"kind": "owner", "id": [Src("meal")]},
    "PUT /api/meals/{id}": {
        "kind": "owner",
        "id": [Src("meal")],
        "body_refs": {"childId": [Src("child")], "photo": [Src("spare"), Src("photo"), Src("avatar")]},
    },
    "DELETE /api/meals/{id}": {"kind": "owner", "id": [Src("meal")]},
    "GET /api/media/{id}": {
        "kind": "owner",
        "id": [Src("photo"), Src("spare"), Src("avatar"), Src("thumb_of_photo")],
        "size": [None, "thumb", "medium", "full"],
        "If-None-Match": [None, Src("etag", fn=media_etag)],
    },
    "GET /api/recipes/{id}": {"kind": "owner", "id": [Src("recipe")]},
    "PUT /api/recipes/{id}": {"kind": "owner", "id": [Src("recipe")]},
    "DELETE /api/recipes/{id}": {"kind": "owner", "id": [Src("recipe")]},
    "GET /api/recipes/{id}/export": {"kind": "owner", "id": [Src("recipe")],
                                     "format": [None, "html"]},
    "POST /api/recipes/{id}/log-meal": {"kind": "owner", "id": [Src("recipe")],
                                        "body_refs": {"childId": [Src("child")]}},
    # A job belongs to whoever started it, signed in or not: a signed-out caller gets 404
    # (the job is not theirs), which the owner kind allows.
    "GET /api/recipes/jobs/{id}": {"kind": "owner", "id": [Src("job")]},
    "GET /api/recipes/jobs/{id}/events": {"kind": "owner", "id": [Src("job")]},
    "GET /api/grocery-lists/{id}": {"kind": "owner", "id": [Src("grocery_list")]},
    "PUT /api/grocery-lists/{id}": {"kind": "owner", "id": [Src("grocery_list")]},
    "DELETE /api/grocery-lists/{id}": {"kind": "owner", "id": [Src("grocery_list")]},
    "GET /api/grocery-lists/{id}/export": {"kind": "owner", "id": [Src("grocery_list")],
                                           "format": [None, "csv", "md"]},
    # Its own list: the PUT control above replaces the items of "grocery_list" (new ids).
    "PATCH /api/grocery-lists/{id}/items/{itemId}": {"kind": "owner",
                                                      "id": [Src("tick_list")],
                                                      "itemId": [Src("tick_item")]},
    "GET /api/auth/reset-password/{token}": {
        "kind": "capability",
        "token": [Src("user"), Src("email"), Src("child"), Src("family_token_guess")],
    },
    "POST /api/auth/reset-password/{token}": {
        "kind": "capability",
        "token": [Src("user"), Src("email"), Src("child"), Src("family_token_guess")],
    },
    # Guests keep single-member families: they have no invites or partners of their own, so
    # their controls are left out (their answers to A's ids are still checked).
    "DELETE /api/family/invites/{id}": {"kind": "owner", "id": [Src("invite")],
                                        "control": ["B", "admin"]},
    "DELETE /api/family/members/{id}": {"kind": "owner", "id": [Src("member"), Src("user")],
                                        "control": ["B", "admin"]},
    "GET /api/family/join/{token}": {
        "kind": "capability",
        "token": [Src("user"), Src("email"), Src("invite"), Src("member"), Src("family_token_guess")],
    },
    "POST /api/family/join/{token}": {
        "kind": "capability",
        "token": [Src("user"), Src("email"), Src("invite"), Src("member"), Src("family_token_guess")],
    },
    # Guests cannot invite co-parents, so they have none of their own to control with.
    "POST /api/co-parents/{id}/pin": {"kind": "owner", "id": [Src("co_parent")],
                                      "control": ["B", "admin"]},
    "POST /api/co-parents/{id}/extend": {"kind": "owner", "id": [Src("co_parent")],
                                         "control": ["B", "admin"]},
    "DELETE /api/co-parents/{id}": {"kind": "owner", "id": [Src("co_parent")],
                                    "control": ["B", "admin"]},
    # The link's token is the key: A's ids (the co-parent's too) and e-mail must not open it.
    "GET /api/share/{token}": {"kind": "capability", "token": SHARE_TOKENS},
    "POST /api/share/{token}/pin": {"kind": "capability", "token": SHARE_TOKENS},
    "GET /api/share/{token}/session": {"kind": "capability", "token": SHARE_TOKENS},
    "POST /api/share/{token}/session": {"kind": "capability", "token": SHARE_TOKENS},
    "DELETE /api/share/{token}/session": {"kind": "capability", "token": SHARE_TOKENS},
    "GET /api/share/{token}/children": {"kind": "capability", "token": SHARE_TOKENS},
    "GET /api/share/{token}/children/{id}/allergens": {"kind": "capability",
                                                       "token": SHARE_TOKENS,
                                                       "id": [Src("child")]},
    "GET /api/share/{token}/meals": {"kind": "capability", "token": SHARE_TOKENS,
                                     "childId": [None, Src("child")], "cursor": [None],
                                     "limit": [None]},
    "GET /api/share/{token}/media/{id}": {"kind": "capability", "token": SHARE_TOKENS,
                                          "id": [Src("photo")], "size": [None, "thumb"],
                                          "If-None-Match": [None]},
    "GET /api/share/{token}/grocery-lists": {"kind": "capability", "token": SHARE_TOKENS},
    "PATCH /api/share/{token}/grocery-lists/{id}/items/{itemId}": {
        "kind": "capability", "token": SHARE_TOKENS, "id": [Src("tick_list")],
        "itemId": [Src("tick_item")]},
    "GET /api/share/{token}/meal-plan": {"kind": "capability", "token": SHARE_TOKENS,
                                         "week": [PLAN_WEEK]},
    "GET /api/share/{token}/events": {"kind": "capability", "token": SHARE_TOKENS,
                                      "Last-Event-ID": [None]},
}


# Operations without path parameters.
#   "scan": a GET answering a list or record: called by every caller with each parameter variant;
#           A's ids and names must not appear in the answer.
#   "sse":  the change feed: tapped while A writes (see check_feeds).
#   "refs": a write whose body names records: "body_refs" as in MATRIX, on the caller's account
#           ("query": a query string the request needs, such as the week of a meal plan).
#   "own":  acts only on the caller's own account or creates a new record (sign-up, upload...);
#           nothing of A can be named in it. Covered by the final re-read of A's records.
#   "oracle": answers must not depend on whether A's e-mail exists ("body": field -> Src).
NO_PARAM_OPS = {
    "GET /api/health": {"kind": "scan"},
    "GET /api/site": {"kind": "scan"},
    "GET /api/auth/session": {"kind": "scan"},
    "GET /api/profile": {"kind": "scan"},
    "GET /api/children": {"kind": "scan"},
    "GET /api/family": {"kind": "scan"},
    "POST /api/family/invites": {"kind": "own"},
    "POST /api/family/leave": {"kind": "own"},
    "GET /api/family/settings": {"kind": "scan"},
    # Saves the caller's own family's settings; A's (the US list) are re-read afterwards.
    "PUT /api/family/settings": {"kind": "own"},
    "GET /api/co-parents": {"kind": "scan"},
    "POST /api/co-parents": {"kind": "own"},
    "GET /api/meals": {
        "kind": "scan",
        "childId": [None, Src("child"), Src("meal")],
        "cursor": [None, Src("cursor")],
        "limit": [None, "1", "200"],
        "If-None-Match": [None, Src("meals_etag"), "*"],
    },
    "GET /api/events": {"kind": "sse", "Last-Event-ID": [None, "0"]},
    "GET /api/ingredients": {"kind": "scan"},
    "GET /api/recipes": {"kind": "scan", "If-None-Match": [None, Src("recipes_etag"), "*"]},
    "POST /api/recipes": {"kind": "own"},
    "POST /api/recipes/generate": {"kind": "own"},
    # Reads the page, HTML or text in the body against the caller's own children.
    "POST /api/recipes/import": {"kind": "own"},
    "GET /api/recipes/export": {"kind": "scan"},
    "GET /api/grocery-lists": {"kind": "scan",
                               "If-None-Match": [None, Src("grocery_etag"), "*"]},
    "POST /api/grocery-lists": {"kind": "own"},
    "POST /api/grocery-lists/from-recipes": {"kind": "refs",
                                             "body_refs": {"recipeIds": [Src("recipe", many=True)]}},
    # Estimates the items in the body; reads nothing of a family.
    "POST /api/grocery-lists/estimate": {"kind": "own"},
    # Reads only the caller's own plan of the week the body names.
    "POST /api/grocery-lists/from-meal-plan": {"kind": "own"},
    "GET /api/meal-plan": {"kind": "scan", "week": [None, PLAN_WEEK, "2026-W53", "junk"],
                           "If-None-Match": [None, Src("plan_etag"), "*"]},
    "PUT /api/meal-plan": {
        "kind": "refs",
        "query": f"week={PLAN_WEEK}",
        "body_refs": {"entries.0.recipeId": [Src("recipe")],
                      "entries.0.childIds": [Src("child", many=True)]},
    },
    # Checks one entry against the caller's own children; A's recipe or child must not count.
    "POST /api/meal-plan/check": {
        "kind": "refs",
        "body_refs": {"recipeId": [Src("recipe")], "childIds": [Src("child", many=True)]},
    },
    # Marks catalogue ingredients for the caller's own children's allergies.
    "POST /api/ingredients/check": {"kind": "own"},
    "POST /api/meals": {
        "kind": "refs",
        "body_refs": {"childId": [Src("child")], "photo": [Src("spare"), Src("photo"), Src("avatar")]},
    },
    "POST /api/children": {"kind": "own"},
    "POST /api/media": {"kind": "own"},
    "PUT /api/profile/avatar": {"kind": "own"},
    "PATCH /api/profile": {"kind": "own"},
    "POST /api/contact": {"kind": "own"},
    "POST /api/auth/signup": {"kind": "own"},
    "POST /api/auth/guest": {"kind": "own"},
    "POST /api/auth/logout": {"kind": "own"},
    "POST /api/auth/login": {"kind": "oracle", "body": {"email": Src("email")},
                             "fixed": {"password": "not the password 1"}},
    "POST /api/auth/forgot-password": {"kind": "oracle", "body": {"email": Src("email")}},
}

# Request-body values by property name, over what the schema alone would give. Src(own=True)
# is the caller's own record. DROP leaves the property out.
DROP = object()
BODY_VALUES = {
    "childId": Src("child", own=True),
    "mealType": "Dinner",
    "foods": ["Rice"],
    "portion": "full",
    "mood": "happy",
    "feedback": DROP,
    "photo": DROP,
    "notes": "matrix probe",
    "reaction": "mild",
    "reactionNote": "matrix probe",
    "mealDate": "2025-03-01T12:00:00Z",
    "name": "Mallory Probe",
    "age": 3,
    "allergies": [],
    "dietaryRestrictions": [],
    "birthMonth": DROP,
    "difficulty": DROP,
    "eatenAt": DROP,
    "instructions": ["Stir it well."],
    # A recipe's cost needs a currency code; its source a web address.
    "estimatedCost": DROP,
    "sourceUrl": "https://example.org/matrix-probe",
    # A grocery list's items (a nested category must be one of the 15).
    "items": [{"name": "Rice", "quantity": "1", "category": "Other"}],
    # A meal plan's week: the caller's own recipe, for the caller's own child.
    "entries": [{"date": "2026-11-23", "mealType": "Dinner", "recipeId": Src("recipe", own=True),
                 "servings": 2, "childIds": [Src("child", own=True)]}],
    "week": PLAN_WEEK,
    "password": "matrix probe password 9",
    "firstName": "Mallory",
    "lastName": "Probe",
}

# A request field whose name matches this may name another record and needs a body_refs entry.
REF_FIELD = re.compile(r"(?i)(id|ids|photo|photos|media|avatar|image|token|cursor)$")
# "METHOD /path field" of fields matching REF_FIELD that name no record. A line's id in a list or
# a week names a line of the caller's own record; an id it does not have makes a new line.
NOT_REFS = {
    # Removes the recipe's own picture; names no record.
    "PUT /api/recipes/{id} removePhoto",
    "POST /api/grocery-lists items.0.id",
    "PUT /api/grocery-lists/{id} items.0.id",
    "PUT /api/meal-plan entries.0.id",
    # Checking an entry before it is saved does not read its id.
    "POST /api/meal-plan/check id",
}

CALLERS = ["B", "admin", "guest", "anon", "stale"]
CALLER_NOTES = {
    "B": "parent of family B (which has a second adult, joined by link)",
    "admin": "server admin (first account), own family",
    "guest": "guest account",
    "anon": "no cookie",
    "stale": "A's own cookie after A signed it out",
}
SIGNED_OUT = {"anon", "stale"}


# ---------------------------------------------------------------------------------------------
# HTTP


class Resp:
    def __init__(self, status, headers, data):
        self.status, self.headers, self.data = status, headers, data

    def json(self):
        try:
            return json.loads(self.data) if self.data else None
        except ValueError:
            return None

    def text(self, limit=300):
        return self.data[:limit].decode(errors="replace")


class Client:
    """One caller: a keep-alive connection and (maybe) a session cookie. Every request carries
    the same-origin Origin header, so the CSRF guard never answers for the access check."""

    def __init__(self, name, port, cookie=None):
        self.name, self.port, self.cookie, self.conn = name, port, cookie, None
        self.track_cookies = True  # off after setup: an attacker's cookie never changes
        self.origin = f"http://127.0.0.1:{port}"

    def close(self):
        if self.conn is not None:
            self.conn.close()
            self.conn = None

    def request(self, method, path, body=None, headers=None, multipart=None):
        hdrs = {"Origin": self.origin, "Accept": "application/json, */*"}
        if self.cookie:
            hdrs["Cookie"] = self.cookie
        payload = None
        if multipart is not None:
            boundary = "hcmatrix" + os.urandom(8).hex()
            parts = b""
            for field, (filename, content) in multipart.items():
                parts += (f"--{boundary}\r\nContent-Disposition: form-data; name=\"{field}\"; "
                          f"filename=\"{filename}\"\r\nContent-Type: image/png\r\n\r\n").encode()
                parts += content + b"\r\n"
            payload = parts + f"--{boundary}--\r\n".encode()
            hdrs["Content-Type"] = f"multipart/form-data; boundary={boundary}"
        elif body is not None:
            payload = json.dumps(body).encode()
            hdrs["Content-Type"] = "application/json"
        for k, v in (headers or {}).items():
            if v is not None:
                hdrs[k] = v
        for attempt in range(2):
            try:
                if self.conn is None:
                    self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=HTTP_TIMEOUT)
                self.conn.request(method, path, body=payload, headers=hdrs)
                r = self.conn.getresponse()
                data = r.read()
                resp = Resp(r.status, r.getheaders(), data)
                if (r.getheader("connection") or "").lower() == "close":
                    self.close()
                for k, v in resp.headers if self.track_cookies else []:
                    if k.lower() == "set-cookie" and v.startswith(SESSION_COOKIE + "="):
                        value = v.split(";")[0]
                        self.cookie = None if value == SESSION_COOKIE + "=" else value
                return resp
            except (OSError, http.client.HTTPException):
                self.close()
                if attempt:
                    raise
        raise AssertionError("unreachable")

    def json(self, method, path, body=None, expect=None, what=None):
        r = self.request(method, path, body)
        if expect is not None and r.status not in (expect if isinstance(expect, tuple) else (expect,)):
            raise SetupError(f"{what or method + ' ' + path} as {self.name}: {r.status} {r.text()}")
        return r.json()

    def curl(self, method, path, body=None, headers=None, multipart=False):
        parts = [f"curl -sS -i -X {method} 'http://127.0.0.1:$PORT{path}'",
                 f"-H 'Origin: http://127.0.0.1:$PORT'"]
        if self.cookie:
            parts.append(f"-H 'Cookie: {SESSION_COOKIE}=$COOKIE_{self.name.upper()}'")
        for k, v in (headers or {}).items():
            if v is not None:
                parts.append(f"-H '{k}: {v}'")
        if multipart:
            parts.append("-F file=@photo.png")
        elif body is not None:
            parts.append("-H 'Content-Type: application/json' -d '" + json.dumps(body) + "'")
        return " ".join(parts)


class SetupError(Exception):
    pass


def current_week():
    """The ISO week it is now in UTC, as the server reads a missing week."""
    year, week, _ = datetime.datetime.now(datetime.timezone.utc).isocalendar()
    return f"{year}-W{week:02d}"


def week_days(week):
    """The seven days (YYYY-MM-DD) of an ISO week."""
    year, number = int(week[:4]), int(week[6:])
    monday = datetime.date.fromisocalendar(year, number, 1)
    return [(monday + datetime.timedelta(days=i)).isoformat() for i in range(7)]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def tiny_png(seed):
    """A valid 4x4 RGB PNG, colour from `seed`."""
    w = h = 4
    digest = hashlib.sha256(seed.encode()).digest()
    pixel = digest[:3]
    raw = b"".join(b"\x00" + pixel * w for _ in range(h))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


class Server:
    def __init__(self, tmp):
        self.port = free_port()
        self.data = tmp / "data"
        self.log_path = tmp / "server.log"
        env = {k: v for k, v in os.environ.items() if not k.startswith("HIGHCHAIR_")}
        # Every caller tries A's ids as link tokens from this one address: the PIN limits
        # (tested on their own in tests/it/share.rs) must not turn those 404s into 429s.
        env.update(HIGHCHAIR_AUTH_ALLOW_SIGNUP="true", HIGHCHAIR_AUTH_ALLOW_GUESTS="true",
                   HIGHCHAIR_LOG_LEVEL="warn", HIGHCHAIR_LIMITS_MIN_FREE_DISK_MB="0",
                   HIGHCHAIR_LIMITS_PIN_ATTEMPTS_PER_IP_PER_HOUR="100000",
                   HIGHCHAIR_LIMITS_PIN_ATTEMPTS_PER_HOUR="100000",
                   HIGHCHAIR_LIMITS_PIN_ATTEMPTS_PER_FAMILY_PER_HOUR="100000")
        with open(self.log_path, "ab") as log:
            self.proc = subprocess.Popen(
                [BIN, "serve", "--listen", f"127.0.0.1:{self.port}", "--data-dir", str(self.data)],
                env=env, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 30
        probe = Client("probe", self.port)
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise SetupError(f"highchair exited with {self.proc.returncode}:\n{self.log_tail()}")
            try:
                if probe.request("GET", "/api/health").status == 200:
                    probe.close()
                    return
            except OSError:
                pass
            time.sleep(0.05)
        self.stop()
        raise SetupError(f"highchair did not become healthy in 30 s:\n{self.log_tail()}")

    def log_tail(self, lines=30):
        try:
            return b"\n".join(self.log_path.read_bytes().splitlines()[-lines:]).decode(errors="replace")
        except OSError:
            return "(no log)"

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


# ---------------------------------------------------------------------------------------------
# The change feed, read off a raw socket (one stream per session; a newer one supersedes it).


class FeedTap(threading.Thread):
    def __init__(self, port, cookie, last_event_id=None):
        super().__init__(daemon=True)
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=HTTP_TIMEOUT)
        lines = [f"GET /api/events HTTP/1.1", f"Host: 127.0.0.1:{port}",
                 "Accept: text/event-stream", f"Cookie: {cookie}"]
        if last_event_id is not None:
            lines.append(f"Last-Event-ID: {last_event_id}")
        self.sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        self.sock.settimeout(0.1)
        self.raw = bytearray()
        self.halt = threading.Event()
        self.lock = threading.Lock()
        self.start()

    def run(self):
        while not self.halt.is_set():
            try:
                d = self.sock.recv(65536)
            except socket.timeout:
                continue
            except OSError:
                break
            if not d:
                break
            with self.lock:
                self.raw += d

    def close(self):
        self.halt.set()
        self.join(2)
        self.sock.close()

    def parsed(self):
        """(status, body bytes de-chunked as far as it arrived)."""
        with self.lock:
            raw = bytes(self.raw)
        head, sep, body = raw.partition(b"\r\n\r\n")
        if not sep:
            return None, b""
        try:
            status = int(head.split(b" ", 2)[1])
        except (IndexError, ValueError):
            status = None
        if b"transfer-encoding: chunked" in head.lower():
            out, rest = bytearray(), body
            while True:
                line, sep, after = rest.partition(b"\r\n")
                if not sep:
                    break
                try:
                    size = int(line.split(b";")[0], 16)
                except ValueError:
                    break
                if size == 0 or len(after) < size:
                    out += after[:size]
                    break
                out += after[:size]
                rest = after[size + 2:]
            body = bytes(out)
        return status, body


# ---------------------------------------------------------------------------------------------
# The OpenAPI document


def load_operations(doc):
    """[(key, method, full_path, op)] for every operation of the document."""
    prefix = ""
    servers = doc.get("servers") or []
    if servers:
        prefix = servers[0].get("url", "").rstrip("/")
    ops = []
    for path, item in doc.get("paths", {}).items():
        shared = item.get("parameters", [])
        for method, op in item.items():
            if method.lower() not in ("get", "put", "post", "patch", "delete", "head", "options"):
                continue
            op = dict(op)
            op["parameters"] = shared + op.get("parameters", [])
            full = prefix + path
            ops.append((f"{method.upper()} {full}", method.upper(), full, op))
    return ops


def resolve(doc, schema):
    seen = 0
    while isinstance(schema, dict) and "$ref" in schema and seen < 20:
        ref = schema["$ref"]
        node = doc
        for part in ref.lstrip("#/").split("/"):
            node = node.get(part, {})
        schema, seen = node, seen + 1
    return schema or {}


def request_body_kind(doc, op):
    """("json"|"multipart"|None, schema)."""
    rb = op.get("requestBody")
    if not rb:
        return None, None
    rb = resolve(doc, rb)
    content = rb.get("content", {})
    for ctype, media in content.items():
        if ctype.startswith("multipart/"):
            return "multipart", resolve(doc, media.get("schema", {}))
    for ctype, media in content.items():
        if "json" in ctype:
            return "json", resolve(doc, media.get("schema", {}))
    if content:
        ctype, media = next(iter(content.items()))
        return ctype, resolve(doc, media.get("schema", {}))
    return None, None


def example(doc, schema, depth=0):
    """A value that satisfies `schema` (types, enums, required properties), or DROP."""
    schema = resolve(doc, schema)
    if depth > 8:
        return DROP
    for key in ("allOf", "anyOf", "oneOf"):
        if key in schema:
            for sub in schema[key]:
                sub_r = resolve(doc, sub)
                if sub_r.get("type") == "null":
                    continue
                v = example(doc, sub_r, depth + 1)
                if v is not DROP:
                    return v
            return DROP
    if "enum" in schema and schema["enum"]:
        return next((e for e in schema["enum"] if e is not None), schema["enum"][0])
    t = schema.get("type")
    if isinstance(t, list):
        t = next((x for x in t if x != "null"), None)
    if t == "object" or "properties" in schema:
        out = {}
        for name, sub in schema.get("properties", {}).items():
            v = example(doc, sub, depth + 1)
            if v is not DROP:
                out[name] = v
        return out
    if t == "array":
        v = example(doc, schema.get("items", {}), depth + 1)
        return [] if v is DROP else [v]
    if t == "string":
        fmt = schema.get("format", "")
        if fmt == "date-time":
            return "2025-03-01T12:00:00Z"
        if fmt == "date":
            return "2025-03-01"
        if fmt in ("binary", "bytes"):
            return DROP
        if fmt == "email":
            return "probe@example.org"
        return "matrix probe"
    if t == "integer":
        return int(schema.get("minimum", 1))
    if t == "number":
        return 1
    if t == "boolean":
        return True
    return DROP


def ref_fields(doc, schema, prefix="", depth=0):
    """Request fields that may name a record, with those inside lists of objects as
    "list.0.field"."""
    schema = resolve(doc, schema or {})
    out = []
    for p, sub in schema.get("properties", {}).items():
        if REF_FIELD.search(p) and p != "version":
            out.append(prefix + p)
        sub = resolve(doc, sub)
        items = resolve(doc, sub.get("items", {})) if sub.get("type") == "array" else {}
        if depth < 3 and items.get("properties"):
            out += ref_fields(doc, items, f"{prefix}{p}.0.", depth + 1)
    return sorted(out)


def with_field(body, path, value):
    """A deep copy of `body` with the field at `path` ("entries.0.recipeId") set to `value`."""
    out = copy.deepcopy(body)
    *parents, last = path.split(".")
    node = out
    for part in parents:
        node = node[int(part)] if isinstance(node, list) else node[part]
    if isinstance(node, list):
        node[int(last)] = value
    else:
        node[last] = value
    return out


# ---------------------------------------------------------------------------------------------
# The run


class Matrix:
    def __init__(self, server, verbose):
        self.s = server
        self.port = server.port
        self.verbose = verbose
        self.failures = []      # (section, message, curl or None)
        self.rows = []          # (section, key, {caller: [ok, total, fails]}, control)
        self.notes = []
        self.doc = None
        self.ops = []
        self.A = {}             # source name -> value (family A)
        self.own = {}           # caller -> {source name -> value}
        self.secrets = {}       # A's strings that must never reach another caller -> label
        self.clients = {}
        self.requests = 0
        self.A_versions = {}

    # -- bookkeeping ---------------------------------------------------------------------------

    def fail(self, section, msg, curl=None):
        self.failures.append((section, msg, curl))

    def call(self, client, method, path, body=None, headers=None, multipart=None):
        self.requests += 1
        return client.request(method, path, body, headers, multipart)

    def leaks(self, resp):
        """Labels of A's secrets found in an answer (headers and body)."""
        hay = resp.data.decode("latin-1").lower() + "\n" + "\n".join(
            f"{k}: {v}" for k, v in resp.headers).lower()
        return sorted({label for s, label in self.secrets.items() if s.lower() in hay})

    def add_secret(self, value, label):
        if not value:
            return
        value = str(value)
        self.secrets[value] = label
        if re.fullmatch(r"[0-9a-fA-F-]{36}", value):
            self.secrets[value.replace("-", "")] = label + " (hex)"

    # -- setup ---------------------------------------------------------------------------------

    def signup(self, name, first, last, email, role="mom"):
        c = Client(name, self.port)
        body = {"firstName": first, "lastName": last, "email": email,
                "password": f"{name} matrix password 7", "role": role, "acceptTerms": True}
        r = self.call(c, "POST", "/api/auth/signup", body)
        if r.status not in (200, 201) or not c.cookie:
            raise SetupError(f"sign-up of {name} answered {r.status} {r.text()}")
        info = r.json() or {}
        user = info.get("user") or {}
        return c, user, body["password"]

    def upload(self, c, path="/api/media", method="POST", seed="x", expect=(200, 201)):
        r = self.call(c, method, path, multipart={"file": (f"{seed}.png", tiny_png(seed))})
        if r.status not in expect:
            raise SetupError(f"upload {method} {path} as {c.name}: {r.status} {r.text()}")
        return r.json()

    def setup(self):
        port = self.port
        # The first account becomes the server admin: make it an attacker, not the victim.
        admin, admin_user, _ = self.signup("admin", "Ottilie", "Operator", "operator@matrix.test")
        a, a_user, a_pw = self.signup("A", "Aurelio", "Quistgaard", "aurelio.quistgaard@matrix.test")
        b, b_user, _ = self.signup("B", "Bartholomew", "Brightwater", "bart@matrix.test", role="dad")
        guest = Client("guest", port)
        r = self.call(guest, "POST", "/api/auth/guest", {"firstName": "Gustavo", "children": 1})
        if r.status not in (200, 201) or not guest.cookie:
            raise SetupError(f"guest sign-in answered {r.status} {r.text()}")
        # A second session of A that signs out: its cookie must be dead.
        stale = Client("stale", port)
        r = self.call(stale, "POST", "/api/auth/login", {"email": "aurelio.quistgaard@matrix.test",
                                                         "password": a_pw})
        if r.status != 200 or not stale.cookie:
            raise SetupError(f"second login of A answered {r.status} {r.text()}")
        dead_cookie = stale.cookie
        r = self.call(stale, "POST", "/api/auth/logout")
        if r.status not in (200, 204):
            raise SetupError(f"logout answered {r.status} {r.text()}")
        stale.cookie = dead_cookie
        anon = Client("anon", port)
        self.clients = {"A": a, "B": b, "admin": admin, "guest": guest, "anon": anon, "stale": stale}

        # The attackers' feeds are open while A writes.
        taps = {}
        for name in ("B", "admin", "guest"):
            lei = "0" if name == "B" else None
            taps[name] = FeedTap(port, self.clients[name].cookie, lei)
        time.sleep(0.2)

        # Family A's records.
        A = self.A
        A["user"] = a_user.get("id")
        A["email"] = "aurelio.quistgaard@matrix.test"
        child = a.json("POST", "/api/children", {"name": "Zephyrine Quistgaard", "age": 4,
                                                 "allergies": ["Tamarind"],
                                                 "dietaryRestrictions": ["Vegetarian"]}, expect=201)
        A["child"] = child["id"]
        photo = self.upload(a, seed="A-photo")
        spare = self.upload(a, seed="A-spare")
        A["photo"], A["spare"] = photo["id"], spare["id"]
        A["thumb_of_photo"] = photo["id"] + "?size=thumb"
        meals = []
        for i, food in enumerate(["Tamarillo", "Kohlrabi", "Salsify"]):
            body = {"childId": A["child"], "mealType": "Lunch", "foods": [food],
                    "notes": f"aurelio-note-{i}", "mealDate": f"2025-02-0{i + 1}T12:00:00Z"}
            if i == 0:
                body["photo"] = A["photo"]
            meals.append(a.json("POST", "/api/meals", body, expect=201))
        A["meal"] = meals[0]["id"]
        A["meals"] = [m["id"] for m in meals]
        prof = self.upload(a, "/api/profile/avatar", "PUT", seed="A-avatar")
        avatar_url = (prof or {}).get("avatarUrl") or ""
        A["avatar"] = avatar_url.rsplit("/", 1)[-1].split("?")[0]
        contact = a.json("POST", "/api/contact", {"name": "Aurelio Quistgaard",
                                                  "email": A["email"],
                                                  "message": "aurelio contact secret"},
                         expect=(200, 201, 202))
        A["contact"] = (contact or {}).get("id")
        r = self.call(a, "GET", "/api/meals?limit=1")
        A["cursor"] = (r.json() or {}).get("nextCursor")
        r = self.call(a, "GET", "/api/meals")
        A["meals_etag"] = next((v for k, v in r.headers if k.lower() == "etag"), None)
        A["family_token_guess"] = hashlib.sha256(A["user"].encode()).hexdigest()
        # A second adult in A's family, and an open invite link (its token never leaves A).
        A["member"] = self.partner(a, "Ottoline Quistgaard", "ottoline.quistgaard@matrix.test")
        A["invite"] = a.json("POST", "/api/family/invites", {}, expect=201)["id"]
        # A co-parent of A (its link's token and PIN never leave A).
        cop = a.json("POST", "/api/co-parents", {"name": "Wilhelmina Vandersloot",
                                                 "email": "wilhelmina.vandersloot@matrix.test"},
                     expect=201)
        A["co_parent"] = cop["coParent"]["id"]
        A["co_parent_token"] = cop["link"].rsplit("/", 1)[-1]
        # A saved recipe and a generation job.
        recipe = a.json("POST", "/api/recipes", {"source": "own", "title": "Quistgaard hotpot",
                                                 "ingredients": [{"name": "Tamarillo",
                                                                  "quantity": "2"}],
                                                 "instructions": ["Aurelio stirs the pot."]},
                        expect=201)
        A["recipe"] = recipe["id"]
        A["job"] = a.json("POST", "/api/recipes/generate",
                          {"ingredients": ["Kohlrabi", "Salsify"]}, expect=202)["jobId"]
        glist = a.json("POST", "/api/grocery-lists",
                       {"name": "Quistgaard market run",
                        "items": [{"name": "Tamarillo", "quantity": "4"}]}, expect=201)
        A["grocery_list"], A["grocery_item"] = glist["id"], glist["items"][0]["id"]
        A["tick_list"], A["tick_item"] = A["grocery_list"], A["grocery_item"]
        r = self.call(a, "GET", "/api/grocery-lists")
        A["grocery_etag"] = next((v for k, v in r.headers if k.lower() == "etag"), None)
        # A's meal plan: the week the tables name and the current one (what a missing week is).
        A["plan_entries"] = []
        for week in dict.fromkeys([PLAN_WEEK, current_week()]):
            days = week_days(week)
            plan = a.json("PUT", f"/api/meal-plan?week={week}", {"version": 0, "entries": [
                {"date": days[0], "mealType": "Dinner", "recipeId": A["recipe"],
                 "childIds": [A["child"]], "servings": 3},
                {"date": days[1], "mealType": "Lunch", "text": "aurelio-plan-note"}]}, expect=200)
            A["plan_entries"] += [e["id"] for e in plan["entries"]]
        # A's family follows the US allergen list: another family's save must not change it.
        a.json("PUT", "/api/family/settings", {"version": 0, "allergenList": "us9"}, expect=200)
        # A change after the others' feeds are running: must not reach them.
        a.json("PUT", f"/api/children/{A['child']}", {"name": "Zephyrine Quistgaard", "age": 5,
                                                        "allergies": ["Tamarind"],
                                                        "dietaryRestrictions": ["Vegetarian"],
                                                        "version": child["version"]}, expect=200)
        # The answers kept by family revision, as A's browser would revalidate them.
        for key, url in (("recipes_etag", "/api/recipes"), ("plan_etag", "/api/meal-plan"),
                         ("foods_etag", f"/api/children/{A['child']}/foods")):
            r = self.call(a, "GET", url)
            A[key] = next((v for k, v in r.headers if k.lower() == "etag"), None)

        for v, label in [(A["member"], "A.member"), (A["invite"], "A.invite"),
                         ("Ottoline", "A.member name"),
                         (A["user"], "A.user"), (A["child"], "A.child"), (A["photo"], "A.photo"),
                         (A["spare"], "A.spare"), (A["avatar"], "A.avatar"),
                         (A["contact"], "A.contact"), (A["email"], "A.email"),
                         ("Quistgaard", "A.last name / child name"), ("Aurelio", "A.first name"),
                         ("Zephyrine", "A.child name"), ("Tamarind", "A.child allergy"),
                         ("Tamarillo", "A.meal food"), ("Kohlrabi", "A.meal food"),
                         (A["recipe"], "A.recipe"), (A["job"], "A.job"),
                         (A["grocery_list"], "A.grocery_list"),
                         (A["grocery_item"], "A.grocery_item"),
                         (A["co_parent"], "A.co_parent"),
                         (A["co_parent_token"], "A.co_parent link token"),
                         ("Vandersloot", "A.co_parent name"),
                         ("wilhelmina.vandersloot@matrix.test", "A.co_parent email"),
                         ("aurelio-note", "A.meal notes"), ("aurelio contact", "A.contact text")]:
            self.add_secret(v, label)
        for i, m in enumerate(A["meals"]):
            self.add_secret(m, f"A.meal[{i}]")
        for i, e in enumerate(A["plan_entries"]):
            self.add_secret(e, f"A.meal plan entry[{i}]")
        self.add_secret("aurelio-plan-note", "A.meal plan text")
        if A["cursor"]:
            self.add_secret(A["cursor"], "A.cursor")

        # The other callers' own records (for the controls and their feeds).
        for name in ("B", "admin", "guest"):
            c = self.clients[name]
            own = {}
            ch = c.json("POST", "/api/children", {"name": f"{name} kid", "age": 2}, expect=201,
                        what=f"own child of {name}")
            own["child"] = ch["id"]
            ph = self.upload(c, seed=f"{name}-photo")
            own["photo"] = own["spare"] = ph["id"]
            own["thumb_of_photo"] = ph["id"] + "?size=thumb"
            ml = c.json("POST", "/api/meals", {"childId": own["child"], "mealType": "Lunch",
                                               "foods": ["Toast"], "photo": own["photo"]},
                        expect=201, what=f"own meal of {name}")
            own["meal"] = ml["id"]
            own["meals_etag"] = None
            own["grocery_etag"] = None
            own["recipes_etag"] = own["plan_etag"] = own["foods_etag"] = None
            own["recipe"] = c.json("POST", "/api/recipes",
                                   {"source": "own", "title": f"{name} stew",
                                    "ingredients": [{"name": "Rice", "quantity": "1 cup"}],
                                    "instructions": ["Simmer."]},
                                   expect=201, what=f"own recipe of {name}")["id"]
            own["job"] = c.json("POST", "/api/recipes/generate", {"ingredients": ["Rice"]},
                                expect=202, what=f"own job of {name}")["jobId"]
            gl = c.json("POST", "/api/grocery-lists",
                        {"name": f"{name} list", "items": [{"name": "Rice"}]},
                        expect=201, what=f"own grocery list of {name}")
            own["grocery_list"], own["grocery_item"] = gl["id"], gl["items"][0]["id"]
            tl = c.json("POST", "/api/grocery-lists",
                        {"name": f"{name} ticks", "items": [{"name": "Peas"}]},
                        expect=201, what=f"own list to tick of {name}")
            own["tick_list"], own["tick_item"] = tl["id"], tl["items"][0]["id"]
            if name != "guest":
                own["invite"] = c.json("POST", "/api/family/invites", {}, expect=201)["id"]
                own["co_parent"] = c.json("POST", "/api/co-parents",
                                          {"name": f"{name} Nana",
                                           "email": f"{name}.nana@matrix.test"},
                                          expect=201, what=f"own co-parent of {name}")["coParent"]["id"]
                own["member"] = self.partner(c, f"{name} partner", f"{name}.partner@matrix.test")
            self.own[name] = own
        return taps

    def partner(self, inviter, name, email):
        """A second adult who joins `inviter`'s family through an invite link; returns its id."""
        made = inviter.json("POST", "/api/family/invites", {}, expect=201)
        token = made["url"].rsplit("/", 1)[-1]
        joiner = Client("partner", inviter.port)
        first, last = name.split(" ", 1)
        body = {"firstName": first, "lastName": last, "email": email,
                "password": "matrix partner password 7", "role": "dad", "acceptTerms": True}
        joined = joiner.json("POST", f"/api/family/join/{token}", body, expect=201)
        return joined["user"]["id"]

    # -- the document and its coverage ---------------------------------------------------------

    def load_doc(self):
        r = self.call(self.clients["anon"], "GET", "/api/openapi.json")
        if r.status != 200 or not r.json():
            raise SetupError(f"GET /api/openapi.json answered {r.status} {r.text()}")
        self.doc = r.json()
        self.ops = load_operations(self.doc)
        if not self.ops:
            raise SetupError("the OpenAPI document lists no operations")

    def coverage(self):
        """Every operation known, every parameter described. Returns the ops to run."""
        path_ops, plain_ops = [], []
        seen = set()
        for key, method, path, op in self.ops:
            seen.add(key)
            params = [resolve(self.doc, p) for p in op["parameters"]]
            path_params = [p["name"] for p in params if p.get("in") == "path"]
            other = [p["name"] for p in params if p.get("in") in ("query", "header")]
            if "{" in path and not path_params:
                path_params = re.findall(r"{([^}]+)}", path)
            if path_params:
                entry = MATRIX.get(key)
                if entry is None:
                    self.fail("coverage", f"no matrix entry for {key}: add one to MATRIX in "
                                          f"tests/gates/matrix.py (which of family A's records "
                                          f"fills {', '.join('{' + p + '}' for p in path_params)})")
                    continue
                missing = [p for p in path_params + other if p not in entry]
                if missing:
                    self.fail("coverage", f"matrix entry for {key} has no variants for parameter(s) "
                                          f"{', '.join(missing)}: add them")
                    continue
                path_ops.append((key, method, path, op, entry, path_params, other))
            else:
                entry = NO_PARAM_OPS.get(key)
                if entry is None:
                    self.fail("coverage", f"no matrix entry for {key}: add one to NO_PARAM_OPS in "
                                          f"tests/gates/matrix.py (scan, sse, refs, own or oracle)")
                    continue
                if entry["kind"] in ("scan", "sse"):
                    missing = [p for p in other if p not in entry]
                    if missing:
                        self.fail("coverage", f"NO_PARAM_OPS entry for {key} has no variants for "
                                              f"parameter(s) {', '.join(missing)}: add them")
                        continue
                plain_ops.append((key, method, path, op, entry, other))
            kind, schema = request_body_kind(self.doc, op)
            if kind:
                refs = (MATRIX.get(key) or NO_PARAM_OPS.get(key) or {}).get("body_refs", {})
                for field in ref_fields(self.doc, schema):
                    if field not in refs and f"{key} {field}" not in NOT_REFS \
                            and (NO_PARAM_OPS.get(key) or {}).get("kind") not in ("oracle",):
                        self.fail("coverage", f"request field '{field}' of {key} may name a record: "
                                              f"add it to that entry's body_refs (or to NOT_REFS)")
        for key in list(MATRIX) + list(NO_PARAM_OPS):
            if key not in seen:
                self.notes.append(f"table entry {key} is not in the OpenAPI document (stale entry?)")
        return path_ops, plain_ops

    # -- values --------------------------------------------------------------------------------

    def value(self, src, caller, params=None):
        if src is None or isinstance(src, str):
            return src
        if isinstance(src, list):
            return [self.value(v, caller, params) for v in src]
        if isinstance(src, dict):
            return {k: self.value(v, caller, params) for k, v in src.items()}
        if not isinstance(src, Src):
            return src
        if src.fn is not None:
            return src.fn(params or {})
        pool = self.own.get(caller, {}) if src.own else self.A
        value = pool.get(src.name)
        return [value] if src.many else value

    def body_for(self, key, op, caller, target_version):
        """A valid body for the caller (own refs), or (None, None) when the op takes none."""
        kind, schema = request_body_kind(self.doc, op)
        if kind is None:
            return None, None
        if kind == "multipart":
            return "multipart", {"file": ("probe.png", tiny_png("probe-" + caller))}
        body = example(self.doc, schema)
        if not isinstance(body, dict):
            return kind, body
        props = resolve(self.doc, schema).get("properties", {})
        for name in props:
            if name in BODY_VALUES:
                v = BODY_VALUES[name]
                if v is DROP:
                    body.pop(name, None)
                else:
                    body[name] = self.value(v, caller)
        if "version" in props:
            body.pop("version", None)
            if target_version is not None:
                body["version"] = target_version
        return kind, body

    # -- operations with path parameters -------------------------------------------------------

    def variants(self, entry, path_params, other):
        """[(path values {param: Src}, {param: value-or-Src})]: all path combinations with the
        base of the others, then each other variant alone."""
        out = []
        combos = list(itertools.product(*[entry[p] for p in path_params]))
        base = {p: entry[p][0] for p in other}
        for combo in combos:
            out.append((dict(zip(path_params, combo)), dict(base)))
        first = dict(zip(path_params, combos[0]))
        for p in other:
            for v in entry[p][1:]:
                extra = dict(base)
                extra[p] = v
                out.append((first, extra))
        return out

    def build(self, path, op, path_vals, extras, caller, randomise):
        """(url, headers, filled path params)."""
        filled = {}
        for p, src in path_vals.items():
            v = self.value(src, caller)
            if randomise:
                v = str(uuid.uuid4()) if not isinstance(src, Src) or src.name != "email" \
                    else f"nobody-{uuid.uuid4().hex[:8]}@matrix.test"
                if isinstance(src, Src) and src.name == "thumb_of_photo":
                    v += "?size=thumb"
                if isinstance(src, Src) and src.name == "family_token_guess":
                    v = hashlib.sha256(v.encode()).hexdigest()
            filled[p] = v
        url = path
        query_inline = ""
        for p, v in filled.items():
            v = str(v)
            if "?" in v:
                v, query_inline = v.split("?", 1)
            url = url.replace("{" + p + "}", v)
        params = {resolve(self.doc, x)["name"]: resolve(self.doc, x) for x in op["parameters"]}
        query, headers = [], {}
        if query_inline:
            query.append(query_inline)
        for p, src in extras.items():
            v = self.value(src, caller, filled)
            if v is None:
                continue
            if randomise and isinstance(src, Src) and src.fn is None:
                v = str(uuid.uuid4())
            where = params.get(p, {}).get("in", "query")
            if where == "header":
                headers[p] = v
            else:
                query.append(f"{p}={v}")
        if query:
            url += ("&" if "?" in url else "?") + "&".join(query)
        return url, headers, filled

    def attack_bodies(self, key, op, caller, target_src, entry):
        """[(label, body, randomised body)] for the request body of an attack on A's record."""
        kind, schema = request_body_kind(self.doc, op)
        if kind is None:
            return [("", None, None, None)]
        if kind == "multipart":
            mp = {"file": ("probe.png", tiny_png("probe"))}
            return [("multipart", None, None, mp)]
        versions = [("no version", None)]
        props = resolve(self.doc, schema).get("properties", {})
        if "version" in props:
            current = self.A_versions.get(self.value(target_src, "A"))
            versions = [(f"version={current} (A's current)", current),
                        ("stale version 999999", 999999), ("no version", None)]
        out = []
        for vlabel, version in versions:
            _, body = self.body_for(key, op, caller if caller not in SIGNED_OUT else "B", version)
            out.append((vlabel, body, body, None))
            for field, srcs in entry.get("body_refs", {}).items():
                for src in srcs:
                    b = dict(body)
                    b[field] = self.value(src, caller)
                    rb = dict(body)
                    rb[field] = str(uuid.uuid4())
                    out.append((f"{vlabel}, {field}={src}", b, rb, None))
        return out

    def run_path_ops(self, path_ops):
        order = {"GET": 0, "HEAD": 0, "POST": 1, "PUT": 1, "PATCH": 1, "DELETE": 2}
        path_ops = sorted(path_ops, key=lambda t: order.get(t[1], 1))
        for key, method, path, op, entry, path_params, other in path_ops:
            stats = {c: [0, 0] for c in CALLERS}
            capability = entry["kind"] == "capability"
            for caller in CALLERS:
                client = self.clients[caller]
                for path_vals, extras in self.variants(entry, path_params, other):
                    target = next(iter(path_vals.values()))
                    bodies = self.attack_bodies(key, op, caller, target, entry)
                    for blabel, body, rbody, mp in bodies:
                        url, headers, filled = self.build(path, op, path_vals, extras, caller, False)
                        rurl, rheaders, _ = self.build(path, op, path_vals, extras, caller, True)
                        r = self.call(client, method, url, body, headers, mp)
                        base = self.call(client, method, rurl, rbody, rheaders, mp)
                        stats[caller][1] += 1
                        problems = []
                        allowed = {404} if (capability or caller not in SIGNED_OUT) else {401, 404}
                        if 200 <= r.status < 300:
                            problems.append(f"{r.status}: ACCESS GRANTED to A's record")
                        elif r.status == 403:
                            problems.append("403 reveals that the record exists")
                        elif r.status >= 500:
                            problems.append(f"{r.status} server error")
                        elif r.status not in allowed:
                            problems.append(f"{r.status}, expected {'/'.join(map(str, sorted(allowed)))}")
                        if (r.status, r.data) != (base.status, base.data):
                            problems.append(f"differs from a random id's answer ({base.status} "
                                            f"{base.text(120)!r}): tells that A's record exists")
                        leaked = self.leaks(r)
                        if leaked:
                            problems.append(f"answer contains {', '.join(leaked)}")
                        what = f"{method} {url}" + (f" [{blabel}]" if blabel else "")
                        if problems:
                            self.fail(key, f"as {caller}: {what}: " + "; ".join(problems)
                                      + f" -- answer {r.status} {r.text(200)!r}",
                                      client.curl(method, url, body, headers, mp is not None))
                        else:
                            stats[caller][0] += 1
                        if self.verbose:
                            print(f"  {caller:6} {r.status} {what}")
            self.rows.append(("path", key, stats, entry, method, path, op, path_params))

    # -- controls: the same requests on the caller's own records must work ---------------------

    def controls(self, path_ops):
        results = {}
        order = {"GET": 0, "HEAD": 0, "POST": 1, "PUT": 1, "PATCH": 1, "DELETE": 2}
        # Deletes last, in reverse table order (photos and meals before their child).
        table_order = {k: i for i, k in enumerate(MATRIX)}
        ops = sorted(path_ops, key=lambda t: (order.get(t[1], 1),
                                              -table_order.get(t[0], 0) if t[1] == "DELETE"
                                              else table_order.get(t[0], 0)))
        for key, method, path, op, entry, path_params, other in ops:
            if entry["kind"] == "capability":
                results[key] = "n/a (link is the key)"
                continue
            oks, fails = 0, []
            callers = entry.get("control", ["B", "admin", "guest"])
            for caller in callers:
                client = self.clients[caller]
                path_vals = {p: Src(entry[p][0].name, own=True) for p in path_params}
                extras = {p: entry[p][0] if not isinstance(entry[p][0], Src) else None for p in other}
                url, headers, _ = self.build(path, op, path_vals, extras, caller, False)
                version = None
                kind, schema = request_body_kind(self.doc, op)
                body, mp = None, None
                if kind == "multipart":
                    mp = {"file": ("own.png", tiny_png("own-" + caller))}
                elif kind:
                    props = resolve(self.doc, schema).get("properties", {})
                    if "version" in props:
                        g = self.call(client, "GET", url.split("?")[0])
                        version = (g.json() or {}).get("version") if g.status == 200 else None
                    _, body = self.body_for(key, op, caller, version)
                r = self.call(client, method, url, body, headers, mp)
                if 200 <= r.status < 300:
                    oks += 1
                else:
                    fails.append(caller)
                    self.fail(key, f"control: {method} {url} on {caller}'s own record answered "
                                   f"{r.status} {r.text(200)!r}: the request itself is refused, so "
                                   f"the 404s above do not prove the access check (fix the body/"
                                   f"values in the table)", client.curl(method, url, body, headers,
                                                                        mp is not None))
            results[key] = (f"{oks}/{len(callers)} own ok" if not fails
                            else f"FAIL ({', '.join(fails)})")
        return results

    # -- body references on the caller's own records -------------------------------------------

    def run_refs(self, plain_ops, path_ops):
        todo = [(k, m, p, op, e) for k, m, p, op, e, _ in plain_ops if e["kind"] == "refs"]
        todo += [(k, m, p, op, e) for k, m, p, op, e, pp, _ in path_ops
                 if e.get("body_refs") and e["kind"] == "owner"]
        for key, method, path, op, entry in todo:
            stats = {c: [0, 0] for c in CALLERS}
            for caller in ("B", "admin", "guest"):
                client = self.clients[caller]
                url = path
                for p in re.findall(r"{([^}]+)}", path):
                    url = url.replace("{" + p + "}", str(self.own[caller][entry[p][0].name]))
                if entry.get("query"):
                    url += "?" + entry["query"]
                version = None
                _, schema = request_body_kind(self.doc, op)
                if "version" in resolve(self.doc, schema or {}).get("properties", {}):
                    g = self.call(client, "GET", url)
                    version = (g.json() or {}).get("version") if g.status == 200 else None
                for field, srcs in entry["body_refs"].items():
                    for src in srcs:
                        _, good = self.body_for(key, op, caller, version)
                        body = with_field(good, field, self.value(src, caller))
                        rbody = with_field(good, field,
                                           [str(uuid.uuid4())] if src.many else str(uuid.uuid4()))
                        r = self.call(client, method, url, body)
                        base = self.call(client, method, url, rbody)
                        stats[caller][1] += 1
                        problems = []
                        if 200 <= r.status < 300:
                            problems.append(f"{r.status}: A's record ACCEPTED as {field} "
                                            f"({r.text(200)!r})")
                        elif r.status == 403:
                            problems.append("403 reveals that the record exists")
                        elif r.status >= 500:
                            problems.append(f"{r.status} server error")
                        if (r.status, r.data) != (base.status, base.data):
                            problems.append(f"differs from a random id's answer ({base.status} "
                                            f"{base.text(120)!r})")
                        leaked = self.leaks(r)
                        if leaked:
                            problems.append(f"answer contains {', '.join(leaked)}")
                        if problems:
                            self.fail(key, f"as {caller}: {method} {url} with {field}={src}: "
                                           + "; ".join(problems) + f" -- answer {r.status} {r.text(200)!r}",
                                      client.curl(method, url, body))
                        else:
                            stats[caller][0] += 1
                        if 200 <= r.status < 300 and "{" in path:
                            # Put the caller's own meal back so later checks stay meaningful.
                            g = self.call(client, "GET", url)
                            good["version"] = (g.json() or {}).get("version")
                            self.call(client, method, url, good)
                        elif 200 <= r.status < 300:
                            rid = (r.json() or {}).get("id")
                            if rid:
                                self.call(client, "DELETE", f"{path}/{rid}")
                        if self.verbose:
                            print(f"  {caller:6} {r.status} {method} {url} {field}={src}")
            self.rows.append(("refs", key, stats, entry, method, path, op, None))

    # -- lists and records without path parameters ---------------------------------------------

    def run_scans(self, plain_ops):
        for key, method, path, op, entry, other in plain_ops:
            if entry["kind"] != "scan":
                continue
            stats = {c: [0, 0] for c in CALLERS}
            for caller in CALLERS:
                client = self.clients[caller]
                for _, extras in self.variants({**entry, "_": [None]}, ["_"], other):
                    url, headers, _ = self.build(path, op, {}, extras, caller, False)
                    r = self.call(client, method, url, None, headers)
                    stats[caller][1] += 1
                    problems = []
                    if r.status >= 500:
                        problems.append(f"{r.status} server error")
                    if r.status == 403:
                        problems.append("403")
                    leaked = self.leaks(r)
                    if leaked:
                        problems.append(f"A's data in the answer: {', '.join(leaked)}")
                    if problems:
                        self.fail(key, f"as {caller}: GET {url} {headers or ''}: " + "; ".join(problems)
                                  + f" -- answer {r.status} {r.text(300)!r}",
                                  client.curl(method, url, None, headers))
                    else:
                        stats[caller][0] += 1
                    if self.verbose:
                        print(f"  {caller:6} {r.status} GET {url} {headers or ''}")
            self.rows.append(("scan", key, stats, entry, method, path, op, None))

    def run_oracles(self, plain_ops):
        for key, method, path, op, entry, other in plain_ops:
            if entry["kind"] != "oracle":
                continue
            stats = {c: [0, 0] for c in CALLERS}
            for caller in ("anon",):
                client = self.clients[caller]
                body = dict(entry.get("fixed", {}))
                rbody = dict(body)
                for field, src in entry["body"].items():
                    body[field] = self.value(src, caller)
                    rbody[field] = f"nobody-{uuid.uuid4().hex[:8]}@matrix.test"
                r = self.call(client, method, path, body)
                base = self.call(client, method, path, rbody)
                stats[caller][1] += 1
                problems = []
                if 200 <= r.status < 300 and method != "POST" or r.status >= 500:
                    problems.append(f"{r.status}")
                if (r.status, r.data) != (base.status, base.data):
                    problems.append(f"answer for A's e-mail ({r.status} {r.text(150)!r}) differs "
                                    f"from an unknown address's ({base.status} {base.text(150)!r})")
                if problems:
                    self.fail(key, f"as {caller}: {method} {path}: " + "; ".join(problems),
                              client.curl(method, path, body))
                else:
                    stats[caller][0] += 1
            self.rows.append(("oracle", key, stats, entry, method, path, op, None))

    # -- the change feeds ----------------------------------------------------------------------

    def check_feeds(self, taps):
        # Each caller's own writes (made after the tap opened) prove the tap sees its family.
        deadline = time.monotonic() + 3
        while time.monotonic() < deadline:
            if all(self.own[n]["child"].encode() in taps[n].parsed()[1] for n in taps):
                break
            time.sleep(0.05)
        time.sleep(0.2)
        stats = {c: [0, 0] for c in CALLERS}
        for name, tap in taps.items():
            status, body = tap.parsed()
            tap.close()
            stats[name][1] += 1
            problems = []
            if status != 200:
                problems.append(f"stream answered {status}")
            hay = body.decode("latin-1").lower()
            leaked = sorted({label for s, label in self.secrets.items() if s.lower() in hay})
            if leaked:
                problems.append(f"A's changes in {name}'s feed: {', '.join(leaked)}")
            if status == 200 and self.own[name]["child"].encode() not in body:
                problems.append("the feed never carried the caller's own change (the check is vacuous)")
            if problems:
                self.fail("GET /api/events", f"as {name}: " + "; ".join(problems)
                          + f" -- stream {body[:300]!r}",
                          self.clients[name].curl("GET", "/api/events", headers={"Accept": "text/event-stream"}))
            else:
                stats[name][0] += 1
            if self.verbose:
                print(f"  feed of {name}: {body[:400]!r}")
        # Signed out: the feed must refuse.
        for name in ("anon", "stale"):
            client = self.clients[name]
            tap = FeedTap(self.port, client.cookie or "x=y")
            time.sleep(0.3)
            status, body = tap.parsed()
            tap.close()
            stats[name][1] += 1
            if status not in (401, 404) or self.leaks(Resp(status or 0, [], body)):
                self.fail("GET /api/events", f"as {name}: answered {status} {body[:200]!r}, expected 401",
                          client.curl("GET", "/api/events"))
            else:
                stats[name][0] += 1
        self.rows.append(("sse", "GET /api/events", stats, {}, "GET", "/api/events", {}, None))

    # -- A afterwards --------------------------------------------------------------------------

    def snapshot(self):
        a = self.clients["A"]
        snap = {}
        for url in ([f"/api/children/{self.A['child']}", "/api/children", "/api/profile", "/api/meals",
                     f"/api/meal-plan?week={PLAN_WEEK}", "/api/meal-plan", "/api/co-parents",
                     "/api/family/settings", f"/api/children/{self.A['child']}/allergens",
                     f"/api/share/{self.A['co_parent_token']}"]
                    + [f"/api/meals/{m}" for m in self.A["meals"]]):
            r = self.call(a, "GET", url)
            snap[url] = (r.status, r.json())
        for mid in (self.A["photo"], self.A["spare"], self.A["avatar"]):
            for q in ("", "?size=thumb"):
                url = f"/api/media/{mid}{q}"
                r = self.call(a, "GET", url)
                snap[url] = (r.status, hashlib.sha256(r.data).hexdigest())
        return snap

    def verify_a(self, before):
        after = self.snapshot()
        bad = 0
        for url, val in before.items():
            if after.get(url) != val:
                bad += 1
                self.fail("A unchanged", f"A's {url} changed: before {str(val)[:200]} after "
                                         f"{str(after.get(url))[:200]}")
        r = self.call(self.clients["A"], "GET", "/api/auth/session")
        if r.status != 200 or not (r.json() or {}).get("user"):
            bad += 1
            self.fail("A unchanged", f"A's session no longer works: {r.status} {r.text()}")
        return len(before) + 1 - bad, len(before) + 1

    # -- report --------------------------------------------------------------------------------

    def print_table(self, controls, verify):
        def cell(st):
            ok, total = st
            if total == 0:
                return "-"
            return f"ok {ok}/{total}" if ok == total else f"FAIL {total - ok}/{total}"

        head = ["operation", "A's records used"] + CALLERS + ["control"]
        lines = []
        for section, key, stats, entry, method, path, op, path_params in self.rows:
            if section == "path":
                src = ", ".join(f"{p}<-{'|'.join(str(x) for x in entry[p])}" for p in path_params)
                if entry["kind"] == "capability":
                    src += " (as link token)"
            elif section == "refs":
                src = "body " + ", ".join(f"{f}<-{'|'.join(map(str, s))}" for f, s in entry["body_refs"].items())
                src += " (on own record)" if "{" in path else ""
            elif section == "scan":
                src = "leak scan" + (" + " + ", ".join(
                    f"{p}<-{'|'.join(str(x) for x in v if x is not None)}" for p, v in entry.items()
                    if p != "kind" and any(x is not None for x in v)) if len(entry) > 1 else "")
            elif section == "sse":
                src = "feed open while A writes; leak scan"
            else:
                src = "A's e-mail vs unknown e-mail"
            ctrl = controls.get(key, "") if section == "path" else ""
            lines.append([key, src] + [cell(stats[c]) for c in CALLERS] + [ctrl])
        lines.append(["A's records re-read as A", "all of the above"] + [""] * len(CALLERS)
                     + [f"{verify[0]}/{verify[1]} unchanged"])
        widths = [max(len(str(r[i])) for r in [head] + lines) for i in range(len(head))]
        widths[1] = min(widths[1], 46)

        def fmt(row):
            cells = []
            for i, v in enumerate(row):
                v = str(v)
                if i == 1 and len(v) > widths[1]:
                    v = v[:widths[1] - 1] + "~"
                cells.append(v.ljust(widths[i]))
            return "  ".join(cells).rstrip()

        print(fmt(head))
        print(fmt(["-" * w for w in widths]))
        for row in lines:
            print(fmt(row))
        print()
        print("callers: " + "; ".join(f"{c} = {CALLER_NOTES[c]}" for c in CALLERS))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--verbose", "-v", action="store_true", help="print every request")
    ap.add_argument("--keep", action="store_true", help="keep the data directory and server log")
    args = ap.parse_args()
    if not os.access(BIN, os.X_OK):
        print(f"matrix: {BIN} not found or not executable (cargo build --release, or set HIGHCHAIR_BIN)",
              file=sys.stderr)
        return 2
    started = time.monotonic()
    tmp = Path(tempfile.mkdtemp(prefix="hc-matrix-"))
    server = None
    m = None
    try:
        server = Server(tmp)
        m = Matrix(server, args.verbose)
        taps = m.setup()
        m.load_doc()
        path_ops, plain_ops = m.coverage()
        for c in m.clients.values():
            c.track_cookies = False
        m.check_feeds(taps)
        # A's versions, for update bodies that carry A's current version.
        m.A_versions = {}
        for mid in m.A["meals"]:
            m.A_versions[mid] = (m.clients["A"].json("GET", f"/api/meals/{mid}") or {}).get("version")
        m.A_versions[m.A["child"]] = (m.clients["A"].json("GET", f"/api/children/{m.A['child']}")
                                      or {}).get("version")
        before = m.snapshot()
        m.run_scans(plain_ops)
        m.run_oracles(plain_ops)
        m.run_path_ops(path_ops)
        m.run_refs(plain_ops, path_ops)
        verify = m.verify_a(before)
        controls = m.controls(path_ops)
        if server.proc.poll() is not None:
            m.fail("server", f"highchair exited with {server.proc.returncode} during the run")
    except SetupError as e:
        print(f"matrix: setup failed: {e}", file=sys.stderr)
        if server:
            print(server.log_tail(), file=sys.stderr)
        return 1
    finally:
        if server:
            server.stop()
    elapsed = time.monotonic() - started

    print(f"Cross-family access matrix: {BIN}")
    print(f"OpenAPI '{m.doc.get('info', {}).get('title')}' {m.doc.get('info', {}).get('version')}: "
          f"{len(m.ops)} operations; {m.requests} requests in {elapsed:.1f} s")
    print()
    m.print_table(controls, verify)
    for n in m.notes:
        print(f"note: {n}")
    if m.failures:
        print()
        print(f"FAILURES ({len(m.failures)}):")
        for section, msg, curl in m.failures:
            print(f"- [{section}] {msg}")
            if curl:
                print(f"    repro: {curl}")
        print()
        print("repro: $PORT is the server's port; $COOKIE_<CALLER> that caller's session cookie "
              "(sign up / guest sign-in as in setup()).")
        print(f"server log: {server.log_path}" if args.keep else "(--keep keeps the server log)")
    else:
        print("\nall checks passed")
    if not args.keep:
        shutil.rmtree(tmp, ignore_errors=True)
    else:
        print(f"kept {tmp}")
    return 1 if m.failures else 0


if __name__ == "__main__":
    sys.exit(main())
