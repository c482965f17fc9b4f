#!/usr/bin/env python3
"""Writes packaging/symbol-order.txt: the functions the release binary runs, start-up first,
then those a family's requests run. build.rs hands the file to the linker (LLD's
--symbol-ordering-file) for x86_64 release builds, so that code sits together at the front
of the binary instead of spread over all of it.

Why: the kernel maps a program's code 64 KiB around every page it touches. Start-up touches
about 1.8 MB of functions scattered over the whole 12 MB of machine code, and it all ended up
resident: 8.4 MiB of the idle server's 14 MiB (docs/benchmarks.md, "Code layout").

    cargo build --release && cargo build --release --example fill_store
    apt-get install -y valgrind
    python3 scripts/symbol-order.py          # then `cargo build --release` relinks with it

Run it again after large changes or dependency updates: a function that is not in the file
simply goes after those that are (the linker is told not to warn about names it cannot find),
so an old file costs memory, never correctness. The names must come from a binary built with
the release profile itself (cargo's profile settings are part of every symbol's hash), which
is why the release keeps its symbol table (Cargo.toml).

How: the server runs under valgrind's callgrind on a fresh one-year store. After it answers
`/api/health` the counts so far are dumped (start-up), then a parent signs in and uses every
screen's requests once (lists, a meal written, changed and deleted, a grocery tick, the change
feed, the co-parent and recipe pages), and the rest is dumped at the stop.
"""
import glob
import http.client
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests", "bench"))
from common import BIN, FILL, Client, free_port, login, wait_up  # noqa: E402

OUT = os.path.join(os.path.dirname(__file__), "..", "packaging", "symbol-order.txt")
NAME = re.compile(r"^c?fn=\((\d+)\)(?: (.+))?$")


def functions(path):
    """Function names of a callgrind dump, in the order they first appear."""
    names, seen = {}, []
    for line in open(path, errors="replace"):
        m = NAME.match(line.rstrip("\n"))
        if not m:
            continue
        if m.group(2):
            names[m.group(1)] = m.group(2).strip()
        name = names.get(m.group(1))
        if name and line.startswith("fn=") and name not in seen:
            seen.append(name)
    return seen


def workload(port):
    parent = login(port, "family@example.org")
    children = json.loads(parent.call("GET", "/api/children")[1])
    child = children[0]["id"]
    for path in ["/api/auth/session", "/api/children", "/api/meals?limit=50",
                 f"/api/children/{child}/foods", "/api/grocery-lists", "/api/recipes",
                 "/api/meal-plan", "/api/family", "/api/site", "/", "/meals"]:
        parent.call("GET", path)
    status, body, resp = parent.call("GET", "/api/meals?limit=50")
    page = json.loads(body)
    parent.call("GET", "/api/meals?limit=50", headers={"if-none-match": resp.getheader("etag") or ""})
    if page.get("nextCursor"):
        parent.call("GET", f"/api/meals?limit=50&cursor={page['nextCursor']}")
    shown = next((m for m in page["items"] if m.get("thumbnailUrl")), None)
    if shown:
        parent.call("GET", shown["thumbnailUrl"])
        parent.call("GET", shown["photoUrl"])
    status, body, _ = parent.call("POST", "/api/meals", {
        "childId": child, "mealType": "snack", "foods": ["banana", "yoghurt"], "notes": "order"})
    if status in (200, 201):
        meal = json.loads(body)
        parent.call("GET", f"/api/meals/{meal['id']}")
        parent.call("PUT", f"/api/meals/{meal['id']}", {
            "childId": child, "mealType": "snack", "foods": ["banana"], "version": meal["version"]})
        parent.call("DELETE", f"/api/meals/{meal['id']}")
    parent.call("POST", f"/api/children/{child}/allergen-check", {"foods": ["peanut butter"]})
    lists = json.loads(parent.call("GET", "/api/grocery-lists")[1])
    if lists:
        items = lists[0].get("items") or []
        if items:
            item = items[0]
            for checked in (not item.get("checked"), bool(item.get("checked"))):
                parent.call("PATCH", f"/api/grocery-lists/{lists[0]['id']}/items/{item['id']}",
                            {"checked": checked})
    # The change feed: a listener's first bytes.
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request("GET", "/api/events", headers={"cookie": parent.cookie, "accept": "text/event-stream"})
    resp = conn.getresponse()
    resp.read1(256) if hasattr(resp, "read1") else None
    conn.close()
    Client(port).call("GET", "/api/meals?limit=50")  # signed out: 401
    parent.call("POST", "/api/auth/logout")


def main():
    if not shutil.which("valgrind"):
        raise SystemExit("valgrind is needed (apt-get install -y valgrind)")
    work = tempfile.mkdtemp(prefix="hc-order-")
    data = os.path.join(work, "data")
    subprocess.run([FILL, data, "--years", "1", "--others", "1"], check=True, capture_output=True)
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("HIGHCHAIR_")}
    env.update(HIGHCHAIR_LOG_LEVEL="warn", HIGHCHAIR_BACKUP_INTERVAL_HOURS="0")
    out = os.path.join(work, "callgrind.out")
    proc = subprocess.Popen(
        ["valgrind", "--tool=callgrind", "--demangle=no", f"--callgrind-out-file={out}",
         BIN, "serve", "--listen", f"127.0.0.1:{port}", "--data-dir", data],
        env=env, stdout=subprocess.DEVNULL, stderr=open(os.path.join(work, "valgrind.log"), "wb"))
    try:
        wait_up(port, proc, timeout=300)
        subprocess.run(["callgrind_control", "--dump=start", str(proc.pid)], check=True,
                       capture_output=True)
        workload(port)
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=300)
    # The dump asked for at start-up is numbered; the one written at the stop is not.
    dumps = sorted(glob.glob(out + ".*"))
    if not dumps or not os.path.exists(out):
        raise SystemExit(f"expected two callgrind dumps in {work}, found {glob.glob(out + '*')}")
    start = functions(dumps[0])
    served = [name for dump in dumps[1:] + [out] for name in functions(dump)]
    present = set(subprocess.run(["nm", "--defined-only", BIN], capture_output=True, text=True,
                                 check=True).stdout.split())
    order = []
    for name in start + served:
        if name in present and name not in order:
            order.append(name)
    if len(order) < 500:
        raise SystemExit(f"only {len(order)} functions found: is {BIN} the release build with symbols?")
    with open(OUT, "w") as f:
        f.write("\n".join(order) + "\n")
    print(f"{len(order)} functions ({len([n for n in start if n in present])} at start-up) -> {OUT}")
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
