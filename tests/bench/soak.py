#!/usr/bin/env python3
"""Soak: a server under a steady mix of reads, writes, photo uploads, SSE listeners and
sign-ins for --minutes (10), loopback only, every load bounded. Records the server's RSS, open
file descriptors and store size on disk every 5 s into a CSV and a small SVG chart, and prints
RSS after warm-up (1 minute) against RSS at the end.

    cargo build --release --example fill_store && cargo build --release
    python3 tests/bench/soak.py [--minutes 10] [--out docs/soak]
    python3 tests/bench/soak.py --reads [--minutes 10] [--out docs/soak-reads]

`--reads` is the read soak: five years of meals, 8 clients reading every list (the meal log
paged back through the years, food histories, plan weeks, thumbnails) and nothing else; it
also prints the idle RSS (5 s after start, before the load) and the end as a multiple of it.

Another build with HIGHCHAIR_BIN and HIGHCHAIR_FILL (its own fill_store), see common.py. The
store size is the database alone (SQLite with its WAL, or a sled release's db/).

The live data stays the same size (meals are added and removed, photos uploaded and removed),
so memory, descriptors and the store on disk should level off; growth that does not is a bug."""
import argparse
import http.client
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(__file__))
from common import BIN, FILL, PASSWORD, Client, cookies_of, du, free_port, login, multipart, rss_kib, store_bytes, wait_up  # noqa: E402

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--minutes", type=float, default=10)
    ap.add_argument("--out", default=None)
    ap.add_argument("--reads", action="store_true", help="reads only, five years of meals")
    args = ap.parse_args()
    args.out = args.out or ("docs/soak-reads" if args.reads else "docs/soak")
    work = tempfile.mkdtemp(prefix="hc-soak-")
    data = os.path.join(work, "data")
    counts = {"read": 0, "write": 0, "upload": 0, "sse": 0, "signin": 0, "throttled": 0, "error": 0}
    lock = threading.Lock()

    def count(kind):
        with lock:
            counts[kind] = counts.get(kind, 0) + 1

    try:
        subprocess.run([FILL, data, "--years", "5" if args.reads else "1", "--others", "2"],
                       check=True, capture_output=True)
        port = free_port()
        env = dict(os.environ, HIGHCHAIR_LOG_LEVEL="warn", HIGHCHAIR_BACKUP_INTERVAL_HOURS="0",
                   HIGHCHAIR_LIMITS_UPLOADS_PER_HOUR="100000", HIGHCHAIR_LIMITS_MIN_FREE_DISK_MB="0")
        server = subprocess.Popen([BIN, "serve", "--listen", f"127.0.0.1:{port}", "--data-dir", data],
                                  env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_up(port, server, timeout=30)
        time.sleep(5)
        idle = rss_kib(server.pid) / 1024
        families = ["family@example.org", "family1@example.org", "family2@example.org"]
        parents = [login(port, e) for e in families]
        children = [json.loads(p.call("GET", "/api/children")[1])[0]["id"] for p in parents]
        photo_urls = []
        page = json.loads(parents[0].call("GET", "/api/meals?limit=100")[1])
        photo_urls = [m["thumbnailUrl"] for m in page["items"] if m.get("thumbnailUrl")]
        photo_urls += [m["photoUrl"] for m in page["items"] if m.get("photoUrl")]
        jpeg = open(os.path.join(os.path.dirname(__file__), "..", "fixtures", "progressive.jpg"), "rb").read()
        stop = threading.Event()

        def reader(i):
            c = Client(port, parents[i % 3].cookie)
            etag = None
            paths = ["/api/meals?limit=50", "/api/grocery-lists", "/api/recipes", "/api/meal-plan?week=2026-W48",
                     "/api/children", "/api/auth/session"]
            while not stop.is_set():
                path = random.choice(paths + (photo_urls[:20] if i % 3 == 0 else []))
                headers = {"if-none-match": etag} if etag and path == paths[0] else {}
                status, _, resp = c.call("GET", path, headers=headers)
                if path == paths[0] and status == 200:
                    etag = resp.getheader("etag")
                count("read" if status in (200, 304) else f"error {status} {path.split('?')[0][:20]}")
                time.sleep(0.002)

        # Every thread has its own connection (one HTTP/1.1 connection serves one request at a time).
        def writer(i):
            c = Client(port, parents[i].cookie)
            mine = []
            while not stop.is_set():
                status, body, _ = c.call("POST", "/api/meals", {"childId": children[i], "mealType": "snack",
                                                                "foods": ["Apple"]})
                count("write" if status == 201 else f"error {status} meal {body[:120]!r}")
                if status == 201:
                    mine.append(json.loads(body)["id"])
                if len(mine) > 50:
                    status, _, _ = c.call("DELETE", f"/api/meals/{mine.pop(0)}")
                    count("write" if status == 204 else "error")
                time.sleep(0.02)

        def uploader():
            c = Client(port, parents[1].cookie)
            mine = []
            while not stop.is_set():
                raw, ctype = multipart("soak.jpg", jpeg)
                status, body, _ = c.call("POST", "/api/media", raw=raw, ctype=ctype)
                if status != 201:
                    count(f"error {status} upload {body[:120]!r}")
                    time.sleep(1)
                    continue
                media = json.loads(body)["id"]
                status, body, _ = c.call("POST", "/api/meals", {"childId": children[1], "mealType": "lunch",
                                                                "foods": ["Soup"], "photo": media})
                count("upload" if status == 201 else f"error {status} photo meal {body[:120]!r}")
                if status == 201:
                    mine.append(json.loads(body)["id"])
                if len(mine) > 10:
                    status, _, _ = c.call("DELETE", f"/api/meals/{mine.pop(0)}")
                    count("write" if status == 204 else "error")
                time.sleep(1)

        def listener():
            c = parents[2]
            while not stop.is_set():
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
                try:
                    conn.request("GET", "/api/events", headers={"cookie": c.cookie, "accept": "text/event-stream"})
                    resp = conn.getresponse()
                    count("sse" if resp.status == 200 else "error")
                    end = time.time() + 60
                    while time.time() < end and not stop.is_set():
                        try:
                            resp.fp.readline()
                        except OSError:
                            pass
                except (OSError, http.client.HTTPException):
                    if not stop.is_set():
                        count("error sse")
                finally:
                    conn.close()

        def signer():
            device = Client(port)
            while not stop.is_set():
                status, body, resp = device.call("POST", "/api/auth/login",
                                                 {"email": families[0], "password": PASSWORD})
                if status == 200:
                    out = Client(port, cookies_of(resp))
                    out.call("POST", "/api/auth/logout")
                    count("signin")
                elif status == 429:
                    count("throttled")
                else:
                    count("error")
                # Sign-ins from one address are limited (30 per 15 minutes): stay under it.
                time.sleep(40)

        all_children = [[c["id"] for c in json.loads(p.call("GET", "/api/children")[1])] for p in parents]

        def browser(i):
            """A parent going through the app: the meal log paged back through the years (each
            page revalidated once), a child's food history, plan weeks, lists and photos."""
            c = Client(port, parents[i % 3].cookie)
            kids = all_children[i % 3]
            cursor, etags = None, {}
            while not stop.is_set():
                roll = random.random()
                if roll < 0.4:
                    path = "/api/meals?limit=50" + (f"&cursor={cursor}" if cursor else "")
                elif roll < 0.55:
                    path = f"/api/children/{random.choice(kids)}/foods"
                elif roll < 0.7:
                    path = f"/api/meal-plan?week=2026-W{random.randint(1, 52):02d}"
                elif roll < 0.8:
                    path = random.choice(["/api/grocery-lists", "/api/recipes"])
                elif roll < 0.9 and i % 3 == 0 and photo_urls:
                    path = random.choice(photo_urls)
                else:
                    path = random.choice(["/api/children", "/api/auth/session"])
                headers = {"if-none-match": etags[path]} if path in etags and random.random() < 0.5 else {}
                status, body, resp = c.call("GET", path, headers=headers)
                count("read" if status in (200, 304) else f"error {status} {path.split('?')[0][:20]}")
                if status == 200 and path.startswith("/api/") and resp.getheader("etag"):
                    etags[path] = resp.getheader("etag")
                    if len(etags) > 200:
                        etags.pop(next(iter(etags)))
                if path.startswith("/api/meals"):
                    cursor = json.loads(body).get("nextCursor") if status == 200 else cursor
                    if cursor is None or random.random() < 0.02:
                        cursor = None

        if args.reads:
            threads = [threading.Thread(target=browser, args=(i,)) for i in range(8)]
        else:
            threads = [threading.Thread(target=reader, args=(i,)) for i in range(4)]
            threads += [threading.Thread(target=writer, args=(i,)) for i in range(3)]
            threads += [threading.Thread(target=uploader), threading.Thread(target=signer)]
            threads += [threading.Thread(target=listener) for _ in range(10)]
        for t in threads:
            t.daemon = True
            t.start()

        samples = []
        started = time.time()
        end = started + args.minutes * 60
        while time.time() < end:
            elapsed = time.time() - started
            fds = len(os.listdir(f"/proc/{server.pid}/fd"))
            samples.append((round(elapsed), rss_kib(server.pid) / 1024, fds,
                            store_bytes(data) / 1048576, du(os.path.join(data, "media")) / 1048576,
                            dict(counts)))
            print(f"{elapsed:6.0f} s  RSS {samples[-1][1]:6.1f} MiB  fds {fds:4d}  "
                  f"db {samples[-1][3]:6.1f} MiB  media {samples[-1][4]:6.1f} MiB  {counts}", flush=True)
            time.sleep(5)
        stop.set()
        # The server gives memory back once a minute (memory::GIVE_BACK_EVERY), answers nobody
        # asked for in the minute before: two minutes of quiet later, what it still holds is
        # what a used, idle server keeps.
        time.sleep(125)
        after = rss_kib(server.pid) / 1024
        server.terminate()
        server.wait()

        os.makedirs(os.path.dirname(args.out) or ".", exist_ok=True)
        with open(args.out + ".csv", "w") as f:
            f.write("seconds,rss_mib,open_fds,db_mib,media_mib,reads,writes,uploads,sse,signins,errors\n")
            for s, rss, fds, db, media, c in samples:
                errors = sum(v for k, v in c.items() if k.startswith("error"))
                f.write(f"{s},{rss:.1f},{fds},{db:.1f},{media:.1f},{c['read']},{c['write']},{c['upload']},"
                        f"{c['sse']},{c['signin']},{errors}\n")
        write_svg(args.out + ".svg", samples)
        warm = next((x for x in samples if x[0] >= 60), samples[0])
        last = samples[-1]
        growth = (last[1] - warm[1]) / warm[1] * 100
        print(f"\nRSS after warm-up {warm[1]:.1f} MiB, at the end {last[1]:.1f} MiB ({growth:+.1f}%); "
              f"fds {warm[2]} -> {last[2]}; db {warm[3]:.1f} -> {last[3]:.1f} MiB; "
              f"media {warm[4]:.1f} -> {last[4]:.1f} MiB; {counts}")
        print(f"idle RSS (5 s after start, before the load) {idle:.1f} MiB; at the end {last[1] / idle:.2f}x idle; "
              f"two minutes after the load {after:.1f} MiB = {after / idle:.2f}x idle")
        print(f"wrote {args.out}.csv and {args.out}.svg")
    finally:
        shutil.rmtree(work, ignore_errors=True)


def write_svg(path, samples):
    """RSS (MiB) and open descriptors over time, as two polylines with their own scales."""
    w, h, pad = 640, 240, 40
    t_max = max(s[0] for s in samples) or 1
    rss_max = max(s[1] for s in samples) * 1.2 or 1
    fd_max = max(s[2] for s in samples) * 1.2 or 1

    def line(values, top, colour):
        pts = " ".join(f"{pad + s * (w - 2 * pad) / t_max:.1f},{h - pad - v * (h - 2 * pad) / top:.1f}"
                       for s, v in values)
        return f'<polyline fill="none" stroke="{colour}" stroke-width="2" points="{pts}"/>'

    svg = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="12">',
           f'<rect width="{w}" height="{h}" fill="white"/>',
           f'<line x1="{pad}" y1="{h - pad}" x2="{w - pad}" y2="{h - pad}" stroke="#888"/>',
           f'<line x1="{pad}" y1="{pad}" x2="{pad}" y2="{h - pad}" stroke="#888"/>',
           line([(s[0], s[1]) for s in samples], rss_max, "#c0392b"),
           line([(s[0], s[2]) for s in samples], fd_max, "#2471a3"),
           f'<text x="{pad}" y="20" fill="#c0392b">RSS (MiB, 0 to {rss_max:.0f})</text>',
           f'<text x="{pad + 200}" y="20" fill="#2471a3">open files (0 to {fd_max:.0f})</text>',
           f'<text x="{w - pad}" y="{h - 10}" text-anchor="end">{t_max} s</text>',
           "</svg>"]
    with open(path, "w") as f:
        f.write("\n".join(svg) + "\n")


if __name__ == "__main__":
    main()
