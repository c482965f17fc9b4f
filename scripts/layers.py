# The layer check CI runs (a copy of the shared tools/layers.py, so a clean clone has it).
"""Layer rules of the Rust tree, read from its imports (test modules left out).
Usage: layers.py SRC_DIR. Prints each broken rule and exits 1; prints the module graph size otherwise.
Rules (shared/DESIGN.md, Layout): arrows point down only, server -> api -> service -> domain + store.
- store, domain, auth, service, events, jobs, generator, media and recipe_import reach no HTTP
  or wiring layer (api, server, app, cli, admin, ui_assets); api reaches no server internals;
- `poem::` appears only in server/, api/, admin/ and ui_assets; `sled::` and `rusqlite::` only in store/;
- domain names no poem, http, StatusCode or serde_json;
- api never names the store (handlers call use cases in service/);
- the store holds no user texts: no string literal in store/ reads like a sentence for people
  ("Please choose one of your children"); the service and the API word what the store reports;
- no two top-level modules import each other."""
import os, re, sys

src = sys.argv[1]
LOW = {"i18n", "store", "domain", "auth", "service", "family", "events", "jobs", "generator", "media",
       "recipe_import"}
POEM_OK = {"server", "api", "admin", "ui_assets"}
HIGH = {"api", "server", "app", "cli", "admin", "ui_assets"}

def code_of(text):
    """Drop `#[cfg(test)]` items (the usual trailing `mod tests { ... }`) and comments."""
    out, skip, depth = [], False, 0
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if not skip and line.strip().startswith("#[cfg(test)]"):
            skip, depth, opened = True, 0, False
            i += 1
            continue
        if skip:
            depth += line.count("{") - line.count("}")
            if "{" in line:
                opened = True
            if (opened and depth <= 0) or (not opened and line.rstrip().endswith(";")):
                skip = False
            i += 1
            continue
        out.append(re.sub(r"//.*", "", line))
        i += 1
    return "\n".join(out)

def crate_refs(code):
    refs = set(re.findall(r"\bcrate::(\w+)", code))
    # grouped imports: use crate::{a::x, b, c::{..}};
    for m in re.finditer(r"\bcrate::\{", code):
        depth, j, token, names = 1, m.end(), "", []
        while j < len(code) and depth:
            ch = code[j]
            if ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
            if depth == 1 and ch == ",":
                names.append(token); token = ""
            elif depth >= 1:
                token += ch
            j += 1
        names.append(token)
        for n in names:
            n = n.strip().lstrip("{").strip()
            if n:
                refs.add(re.split(r"[:\s{]", n)[0])
    return refs

mods = {}
for root, _, files in os.walk(src):
    for f in files:
        if not f.endswith(".rs"):
            continue
        path = os.path.join(root, f)
        rel = os.path.relpath(path, src)
        top = rel.split(os.sep)[0]
        top = top[:-3] if top.endswith(".rs") else top
        if top in ("main", "lib"):
            continue
        code = code_of(open(path, encoding="utf-8", errors="replace").read())
        mods.setdefault(top, {})[rel] = (code, crate_refs(code))

bad = []
for top, files in sorted(mods.items()):
    for rel, (code, refs) in sorted(files.items()):
        if top in LOW:
            for r in sorted(refs & HIGH):
                bad.append(f"{rel} uses crate::{r} ({top} must not reach {r})")
        if top == "api" and "server" in refs:
            bad.append(f"{rel} uses crate::server (request extraction belongs in api/)")
        if top not in POEM_OK and re.search(r"\bpoem::|\buse poem\b", code):
            bad.append(f"{rel} uses poem ({top} must stay free of HTTP types)")
        if top != "store" and re.search(r"\b(sled|rusqlite)::|\buse (sled|rusqlite)\b", code):
            bad.append(f"{rel} uses the storage engine (only store/ knows it)")
        if top == "api" and ("store" in refs or re.search(r"\.store\(\)", code)):
            bad.append(f"{rel} reaches the store (api calls service/, which owns the store)")
        if top == "store":
            for text in re.findall(r'"([A-Z][a-z]+ [a-z][^"]*)"', code):
                bad.append(f"{rel} holds a user text ({text[:40]!r}): word it in service/ or api/")
        if top == "domain":
            for word in ("poem", "serde_json", "http::", "StatusCode"):
                if re.search(r"\b" + re.escape(word), code):
                    bad.append(f"{rel} names {word} outside tests (domain must stay free of HTTP and JSON)")
edges = {t: set().union(*(r for _, r in f.values())) - {t} for t, f in mods.items()}
for a in sorted(edges):
    for b in sorted(edges[a]):
        if b in edges and a in edges[b] and a < b:
            bad.append(f"{a} and {b} import each other")
for b in bad:
    print(b)
if bad:
    print(f"{len(bad)} layer rule(s) broken; first: {bad[0]}")
    sys.exit(1)
print(f"layers ok: {len(mods)} top-level modules, {sum(len(e) for e in edges.values())} edges, no cycle")
