#!/usr/bin/env python3
"""Co-parent PIN benchmarks (issue 14).

1. PIN checks one at a time (`POST /api/share/{token}/session`), on one keep-alive connection,
   with the per-address and server-wide PIN limits raised by environment for this part only
   (HIGHCHAIR_LIMITS_PIN_ATTEMPTS_PER_IP_PER_HOUR and HIGHCHAIR_LIMITS_PIN_ATTEMPTS_PER_HOUR =
   100000), so only the per-link limit can refuse:
   a. 30 x the right PIN on one link (each success clears the link's window): 200 and a
      `highchair_share` cookie scoped to the link's path;
   b. 30 x a wrong PIN, 3 on each of 10 links (a link's window is 3 per 15 minutes, and its
      backoff starts after the third wrong PIN): 401;
   c. 1,000 x a wrong PIN on those 10 links again, now refused by the link's window: 429 with
      Retry-After, before any PBKDF2 work (1,000 so its CPU time shows at /proc's resolution).
   p50/p99/max of each, and the server's CPU time per attempt (/proc/<pid>/stat utime+stime).
   The invitations' time (`POST /api/co-parents`: a generated PIN hashed and stored) is
   printed too.
2. Parents under a PIN-guessing attack, DEFAULT limits (20 per address per hour, 120 per hour
   on the server, 3 per link per 15 minutes, 10 per link's lifetime). Per measured endpoint a
   fresh server (127.0.0.1 trusted as a proxy) with three families, each with 20 co-parent
   links (60 links); the first family also has a child with 120 meals and 5 grocery lists of
   30 items. Then, `wrk` 2 threads x 8 connections x 15 s with the first family's session
   cookie on `GET /api/meals` (or `GET /api/grocery-lists`):
   a. alone (the baseline);
   b. while a second `wrk` (1 thread x 8 connections, same 15 s) floods `GET /api/health`: a
      control, the cost of any flood from a client on the same 2 cores;
   c. while that second `wrk` is the attacker: wrong PINs (0xxxxx, never a generated PIN)
      round-robin over the 60 links, each request with an `X-Forwarded-For` address of its
      own among 8, counting the answers (401: a PIN was checked; 429: refused).
   Requests/s and p50/p99 for the parents, the attacker's rate and answers, server CPU time
   (total, per second of the run, and what is left once the parents' requests are charged at
   the baseline's CPU per request and the 401s at part 1's CPU per wrong PIN), RSS before and
   after. On the first server, once the attack has stopped, the real co-parent of one link
   tries the right PIN from an address of its own, again after each Retry-After.

The load average and the CPU time of other processes are printed: the machine has 2 cores
shared by the server, both load generators and anything else running.

Stdlib only, plus wrk (apt-get install -y wrk). Every socket goes to 127.0.0.1. Run from the
repository root after `cargo build --release` (or name another binary with HIGHCHAIR_BIN).
Takes about seven minutes, nearly five of them waiting out the Retry-After the real co-parent
is given after the attack.
"""
import http.client
import json
import os
import platform
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time

import common
from common import Server, percentile, rss_kib, wrk_figures

# Taken out of the environment: the server refuses HIGHCHAIR_* variables that are not settings.
common.BIN = os.environ.pop("HIGHCHAIR_BIN", common.BIN)

PASSWORD = "correct horse battery"
SEQUENTIAL = 30
REFUSED = 1000  # enough for the CPU time per attempt to show at /proc's 10 ms resolution
LINKS_PER_FAMILY = 20  # the most co-parents one family may have
FAMILIES = 3
ADDRESSES = [f"203.0.113.{i}" for i in range(1, 9)]
MEALS, LISTS, ITEMS_PER_LIST = 120, 5, 30
SECONDS = 15
RAISED = {"HIGHCHAIR_LIMITS_PIN_ATTEMPTS_PER_IP_PER_HOUR": "100000",
          "HIGHCHAIR_LIMITS_PIN_ATTEMPTS_PER_HOUR": "100000",
          "HIGHCHAIR_LIMITS_PIN_ATTEMPTS_PER_FAMILY_PER_HOUR": "100000"}
HZ = os.sysconf("SC_CLK_TCK")

FOODS = ["Chicken breast", "Broccoli", "Penne", "Whole milk", "Eggs", "Banana", "Carrot", "Cheddar cheese",
         "White rice", "Spinach", "Greek yoghurt", "Red lentils", "Nappies size 4", "Baby wipes", "Sourdough loaf"]


def mib(kib):
    return f"{kib / 1024:.1f} MiB"


def loadavg():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def server_cpu(pid):
    """utime + stime of the server, in seconds."""
    with open(f"/proc/{pid}/stat") as f:
        stat = f.read().rsplit(")", 1)[1].split()
    return (int(stat[11]) + int(stat[12])) / HZ


def machine_busy():
    with open("/proc/stat") as f:
        fields = [int(x) for x in f.readline().split()[1:]]
    return (sum(fields) - fields[3] - fields[4]) / HZ  # all but idle and iowait


def children_cpu():
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return kids.ru_utime + kids.ru_stime


class Sampler:
    """The server's CPU time every second while a run lasts (% of one core per second)."""

    def __init__(self, pid):
        self.pid, self.samples, self.stopped = pid, [], threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self):
        last = server_cpu(self.pid)
        while not self.stopped.wait(1.0):
            now = server_cpu(self.pid)
            self.samples.append(now - last)
            last = now

    def stop(self):
        self.stopped.set()
        self.thread.join()
        return " ".join(f"{s * 100:.0f}" for s in self.samples)


def call(conn, method, path, body=None, headers=None):
    """One request on `conn`: (status, headers, body, seconds)."""
    payload = json.dumps(body).encode() if body is not None else None
    hdrs = {"content-type": "application/json"} if payload is not None else {}
    hdrs.update(headers or {})
    t0 = time.perf_counter()
    conn.request(method, path, body=payload, headers=hdrs)
    resp = conn.getresponse()
    data = resp.read()
    return resp.status, resp.msg, data, time.perf_counter() - t0


def signup(server, n):
    status, body, cookie = server.request("POST", "/api/auth/signup", {
        "firstName": "Bench", "lastName": f"Parent{n}", "email": f"bench{n}@example.org",
        "password": PASSWORD, "role": "mom", "acceptTerms": True})
    assert status == 201, (status, body[:200])
    return cookie.split(";")[0]


def invite(conn, cookie, n):
    """A co-parent: (token, pin, id, seconds)."""
    status, _, body, secs = call(conn, "POST", "/api/co-parents",
                                 {"name": f"Co Parent {chr(65 + n % 26)}{chr(65 + n // 26 % 26)}",
                                  "email": f"coparent{n}@example.org"}, {"cookie": cookie})
    assert status == 201, (status, body[:300])
    answer = json.loads(body)
    token = answer["link"].rsplit("/", 1)[1]
    assert re.fullmatch(r"\d{6}", answer["pin"]), answer["pin"]
    return token, answer["pin"], answer["coParent"]["id"], secs


def ms_summary(seconds):
    ms = [s * 1000 for s in seconds]
    return f"p50 {percentile(ms, 0.5):.1f} ms, p99 {percentile(ms, 0.99):.1f} ms, max {max(ms):.1f} ms"


# ---------------------------------------------------------------------------- part 1

def sequential(rows, notes):
    server = Server(RAISED)
    try:
        pid = server.proc.pid
        cookie = signup(server, 1)
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
        links = [invite(conn, cookie, n) for n in range(11)]
        rows.append(("`POST /api/co-parents` (invite: a generated PIN hashed, then stored), 11 one after another",
                     ms_summary([l[3] for l in links])))
        right_token, right_pin = links[0][0], links[0][1]
        path = f"/api/share/{right_token}/session"
        status, _, _, _ = call(conn, "POST", path, {"pin": right_pin})  # warm-up
        assert status == 200, status

        times, cpu0 = [], server_cpu(pid)
        for _ in range(SEQUENTIAL):
            status, hdrs, body, secs = call(conn, "POST", path, {"pin": right_pin})
            cookie_set = hdrs.get("set-cookie") or ""
            assert status == 200, (status, body[:200])
            assert cookie_set.startswith("highchair_share=") and f"Path=/api/share/{right_token}" in cookie_set, cookie_set
            times.append(secs)
        cpu_right = (server_cpu(pid) - cpu0) / SEQUENTIAL
        rows.append((f"Right PIN, {SEQUENTIAL} one after another on one link (200 + `highchair_share` cookie)",
                     f"{ms_summary(times)}; server CPU {cpu_right * 1000:.1f} ms per attempt"))

        wrong_links = [l[0] for l in links[1:]]
        order = [t for _ in range(3) for t in wrong_links]  # 3 per link, links interleaved
        times, cpu0 = [], server_cpu(pid)
        for i, token in enumerate(order):
            status, _, body, secs = call(conn, "POST", f"/api/share/{token}/session", {"pin": f"0{i:05d}"})
            assert status == 401, (status, body[:200])
            times.append(secs)
        cpu_wrong = (server_cpu(pid) - cpu0) / len(order)
        rows.append((f"Wrong PIN, {len(order)} one after another (3 on each of 10 links: 401, the PIN checked)",
                     f"{ms_summary(times)}; server CPU {cpu_wrong * 1000:.1f} ms per attempt"))

        refused = [t for _ in range(REFUSED // len(wrong_links)) for t in wrong_links]
        times, retry, cpu0 = [], set(), server_cpu(pid)
        for i, token in enumerate(refused):
            status, hdrs, body, secs = call(conn, "POST", f"/api/share/{token}/session", {"pin": f"0{i:05d}"})
            assert status == 429 and hdrs.get("retry-after"), (status, body[:200])
            retry.add(int(hdrs["retry-after"]))
            times.append(secs)
        cpu_refused = (server_cpu(pid) - cpu0) / len(refused)
        rows.append((f"Wrong PIN refused by the link's window, {len(refused):,} one after another (429, "
                     "after a read of the link)",
                     f"{ms_summary(times)}; server CPU {cpu_refused * 1e6:.0f} µs per attempt; "
                     f"Retry-After {min(retry)}-{max(retry)} s"))
        rows.append(("RSS after part 1", mib(rss_kib(pid))))
        conn.close()
        notes.append(f"part 1: per-address and server-wide PIN limits raised to 100000 per hour by environment; "
                     f"load average at its end {loadavg()}")
        return cpu_wrong
    finally:
        server.stop()
        shutil.rmtree(server.dir, ignore_errors=True)


# ---------------------------------------------------------------------------- part 2

ATTACK_LUA = """
local tokens = {%(tokens)s}
local addrs = {%(addrs)s}
local threads = {}
function setup(thread)
  thread:set("tid", #threads)
  table.insert(threads, thread)
end
function init(args)
  n = tid * 7919
  c401, c429, cother = 0, 0, 0
end
function request()
  n = n + 1
  local token = tokens[(n %% #tokens) + 1]
  local addr = addrs[(n %% #addrs) + 1]
  -- Never a generated PIN (those are 100000-999999), but six digits, so it is checked.
  local body = string.format('{"pin":"0%%05d"}', n %% 100000)
  return wrk.format("POST", "/api/share/" .. token .. "/session",
                    {["Content-Type"] = "application/json", ["X-Forwarded-For"] = addr}, body)
end
function response(status, headers, body)
  if status == 401 then c401 = c401 + 1
  elseif status == 429 then c429 = c429 + 1
  else cother = cother + 1 end
end
function done(summary, latency, requests)
  local a, b, c = 0, 0, 0
  for _, t in ipairs(threads) do
    a = a + t:get("c401"); b = b + t:get("c429"); c = c + t:get("cother")
  end
  io.write(string.format("ANSWERS 401=%%d 429=%%d other=%%d\\n", a, b, c))
end
"""




def seed(server):
    """Three families with 20 co-parent links each; the first also has meals and lists.
    Returns the first family's cookie, every link's token, and the first link's PIN."""
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    cookies, links = [], []
    for f in range(FAMILIES):
        cookie = signup(server, 10 + f)
        cookies.append(cookie)
        links += [invite(conn, cookie, f * LINKS_PER_FAMILY + n) for n in range(LINKS_PER_FAMILY)]
    cookie = cookies[0]
    status, _, body, _ = call(conn, "POST", "/api/children", {"name": "Emma"}, {"cookie": cookie})
    assert status in (200, 201), (status, body[:200])
    child = json.loads(body)["id"]
    for i in range(MEALS):
        status, _, body, _ = call(conn, "POST", "/api/meals", {
            "childId": child, "mealType": ["Breakfast", "Lunch", "Dinner"][i % 3],
            "foods": [FOODS[i % len(FOODS)], FOODS[(i * 7 + 3) % len(FOODS)], f"Dish {i}"],
            "notes": "Ate most of it"}, {"cookie": cookie})
        assert status == 201, (status, body[:200])
    for n in range(LISTS):
        items = [{"name": f"{FOODS[i % len(FOODS)]} {i // len(FOODS) + 1}", "quantity": "1",
                  "checked": i % 5 == 0} for i in range(ITEMS_PER_LIST)]
        status, _, body, _ = call(conn, "POST", "/api/grocery-lists", {"name": f"List {n + 1}", "items": items},
                                  {"cookie": cookie})
        assert status == 201, (status, body[:300])
    conn.close()
    return cookie, [l[0] for l in links], links[0][1]


def measured_run(server, parent_args, second=None):
    """The parents' wrk (and `second`, a wrk started just before it): figures, CPU, RSS."""
    pid = server.proc.pid
    rss0 = rss_kib(pid)
    cpu0, busy0, kids0, t0 = server_cpu(pid), machine_busy(), children_cpu(), time.monotonic()
    sampler = Sampler(pid)
    other = subprocess.Popen(second, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) if second else None
    parents = subprocess.run(parent_args, capture_output=True, text=True, check=True).stdout
    other_out = other.communicate()[0] if other else ""
    wall = time.monotonic() - t0
    timeline = sampler.stop()
    server_s, busy = server_cpu(pid) - cpu0, machine_busy() - busy0
    clients = children_cpu() - kids0
    return {
        "parents": wrk_figures(parents), "second": wrk_figures(other_out) if other else None,
        "server_cpu": server_s, "clients_cpu": clients, "other_cpu": max(0.0, busy - server_s - clients),
        "wall": wall, "timeline": timeline, "rss0": rss0, "rss1": rss_kib(pid),
    }


def co_parent_after(server, token, pin, rows):
    """The real co-parent, right PIN, from an address of their own, once the attack stopped:
    until the server-wide window lets one more attempt in, and then."""
    t0, tries = time.monotonic(), []
    while True:
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
        status, hdrs, _, secs = call(conn, "POST", f"/api/share/{token}/session", {"pin": pin},
                                     {"x-forwarded-for": "198.51.100.7"})
        conn.close()
        tries.append(f"{status}" + (f" (Retry-After {hdrs['retry-after']} s)" if status == 429 else "")
                     + f" at {time.monotonic() - t0:.0f} s")
        wait = int(hdrs.get("retry-after") or 5)
        if status != 429 or len(tries) > 3 or wait > 600:  # a locked link says a day: stop there
            break
        time.sleep(wait + 1)
    rows.append(("  the real co-parent right after the attack: right PIN, from an address of its own",
                 "; then ".join(tries)))


def attack(endpoint, rows, notes, tmp, cpu_per_check, after=False):
    server = Server({"HIGHCHAIR_SERVER_TRUSTED_PROXIES": "127.0.0.1"})
    try:
        pid = server.proc.pid
        time.sleep(0.5)
        idle = rss_kib(pid)
        cookie, tokens, first_pin = seed(server)
        seeded = rss_kib(pid)
        script = f"{tmp}/attack.lua"
        with open(script, "w") as f:
            f.write(ATTACK_LUA % {"tokens": ", ".join(f'"{t}"' for t in tokens),
                                  "addrs": ", ".join(f'"{a}"' for a in ADDRESSES)})
        base = f"http://127.0.0.1:{server.port}"
        parents = ["wrk", "-t2", "-c8", f"-d{SECONDS}s", "--latency", "-H", f"Cookie: {cookie}", base + endpoint]
        flood = ["wrk", "-t1", "-c8", f"-d{SECONDS}s", "--latency", base + "/api/health"]
        attacker = ["wrk", "-t1", "-c8", f"-d{SECONDS}s", "--latency", "-s", script, base + "/"]

        subprocess.run(["wrk", "-t2", "-c8", "-d2s", "-H", f"Cookie: {cookie}", base + endpoint],
                       capture_output=True, check=True)  # warm-up
        notes.append(f"{endpoint}: RSS idle after start {mib(idle)}, after seeding {mib(seeded)}; "
                     f"load average before the runs {loadavg()}")
        runs = [("alone", measured_run(server, parents)),
                ("with a `GET /api/health` flood (wrk 1 x 8)", measured_run(server, parents, flood)),
                ("under the PIN attack (wrk 1 x 8, default limits)", measured_run(server, parents, attacker))]
        base_rps = runs[0][1]["parents"]["rps"]
        base_cpu_per_req = runs[0][1]["server_cpu"] / runs[0][1]["parents"]["requests"]
        for label, r in runs:
            p = r["parents"]
            change = "" if r is runs[0][1] else f" ({(p['rps'] / base_rps - 1) * 100:+.0f}%)"
            bad = f"; {p['non2xx']} non-2xx" if p["non2xx"] else ""
            bad += f"; {p['errors']}" if p["errors"] else ""
            rows.append((f"`GET {endpoint}`, parents' wrk 2 x 8, {SECONDS} s, {label}",
                         f"**{p['rps']:,.0f} req/s**{change}; p50 {p['p50']:.2f} ms, p99 {p['p99']:.2f} ms{bad}"))
            rows.append(("  server CPU / clients' CPU / other processes; RSS before -> after",
                         f"{r['server_cpu']:.1f} s / {r['clients_cpu']:.1f} s / {r['other_cpu']:.1f} s "
                         f"of {r['wall']:.1f} s; {mib(r['rss0'])} -> {mib(r['rss1'])}"))
            s = r["second"]
            if s and "401" in s:
                # Server CPU left once the parents' requests are charged at the baseline's rate,
                # and the PIN checks at part 1's CPU per wrong PIN.
                rest = r["server_cpu"] - p["requests"] * base_cpu_per_req
                checks = s["401"] * cpu_per_check
                rows.append(("  attacker: requests, rate, answers",
                             f"{s['requests']:,} ({s['rps']:,.0f}/s); **{s['401']} x 401** (PIN checked), "
                             f"{s['429']:,} x 429 (refused), {s['other']} other"
                             + (f"; {s['errors']}" if s["errors"] else "")
                             + f"; attacker p50 {s['p50']:.2f} ms, p99 {s['p99']:.2f} ms"))
                rows.append(("  server CPU beyond the parents' requests (charged at the baseline's "
                             f"{base_cpu_per_req * 1e6:.0f} µs each)",
                             f"{rest:.2f} s: the {s['401']} PIN checks about {checks:.2f} s (at part 1's "
                             f"{cpu_per_check * 1000:.1f} ms each), the rest "
                             f"{(rest - checks) / max(1, s['429']) * 1e6:.0f} µs per 429"))
            elif s:
                rest = r["server_cpu"] - p["requests"] * base_cpu_per_req
                rows.append(("  flood: requests, rate; server CPU beyond the parents' requests",
                             f"{s['requests']:,} ({s['rps']:,.0f}/s), p50 {s['p50']:.2f} ms, p99 {s['p99']:.2f} ms; "
                             f"{rest:.2f} s = {rest / max(1, s['requests']) * 1e6:.0f} µs per flood request"))
            notes.append(f"{endpoint} {label}: server CPU per second, % of one core: {r['timeline']}")
        if after:
            co_parent_after(server, tokens[0], first_pin, rows)
        return runs
    finally:
        server.stop()
        shutil.rmtree(server.dir, ignore_errors=True)


def main():
    if not shutil.which("wrk"):
        sys.exit("wrk is needed: apt-get install -y wrk")
    tmp = tempfile.mkdtemp(prefix="hc-bench-share-")
    started = time.time()
    print(f"Machine: {platform.machine()}, {os.cpu_count()} cores, {platform.platform()}; "
          f"date {time.strftime('%Y-%m-%d %H:%M')}; binary {common.BIN}; load average at start {loadavg()}\n",
          flush=True)
    rows, notes = [], []
    try:
        cpu_per_check = sequential(rows, notes)
        rows.append(("**Part 2: default limits**; 60 links (3 families x 20), attacker's "
                     f"X-Forwarded-For over {len(ADDRESSES)} addresses", ""))
        attack("/api/meals", rows, notes, tmp, cpu_per_check, after=True)
        attack("/api/grocery-lists", rows, notes, tmp, cpu_per_check)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("| measure | result |\n|---|---|")
    for name, value in rows:
        print(f"| {name} | {value} |")
    print()
    for n in notes + [f"load average at the end: {loadavg()}; run took {time.time() - started:.0f} s"]:
        print(f"- {n}")


if __name__ == "__main__":
    main()
