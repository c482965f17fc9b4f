#!/usr/bin/env python3
"""Puts the image's health check into an OCI image archive's config (scripts/release).

  oci-healthcheck.py ARCHIVE HEALTHCHECK_JSON

The OCI image format has no field for HEALTHCHECK, so `podman save --format oci-archive`
drops it. Docker's image config is a superset of OCI's with a `Healthcheck` field, and Docker
(BuildKit's OCI exports, `docker load` of an OCI archive) reads it there: this writes the
health check of the image as built (`podman image inspect --format '{{json .HealthCheck}}'`)
into the config, then the config's and the manifest's digests and sizes into the manifest and
the index. Layers are untouched. The archive is rewritten in place with a fixed order.
"""

import hashlib
import io
import json
import sys
import tarfile


def main():
    archive, check = sys.argv[1], json.loads(sys.argv[2])
    if not check or not check.get("Test"):
        sys.exit(f"oci-healthcheck: no health check given: {sys.argv[2]!r}")
    with tarfile.open(archive) as tar:
        members = {m.name.removeprefix("./"): (m, tar.extractfile(m).read() if m.isfile() else None)
                   for m in tar.getmembers()}

    def blob(digest):
        return members["blobs/sha256/" + digest.split(":", 1)[1]][1]

    def put(obj):
        data = json.dumps(obj, separators=(",", ":")).encode()
        digest = hashlib.sha256(data).hexdigest()
        info = tarfile.TarInfo("blobs/sha256/" + digest)
        info.size, info.mode = len(data), 0o644
        members[info.name] = (info, data)
        return {"digest": "sha256:" + digest, "size": len(data)}

    index = json.loads(members["index.json"][1])
    if len(index["manifests"]) != 1:
        sys.exit("oci-healthcheck: expected one image in the archive")
    entry = index["manifests"][0]
    manifest = json.loads(blob(entry["digest"]))
    config = json.loads(blob(manifest["config"]["digest"]))
    old = {entry["digest"], manifest["config"]["digest"]}
    config.setdefault("config", {})["Healthcheck"] = check
    manifest["config"].update(put(config))
    entry.update(put(manifest))
    for digest in old:
        members.pop("blobs/sha256/" + digest.split(":", 1)[1], None)
    data = json.dumps(index, separators=(",", ":")).encode()
    info = members["index.json"][0]
    info.size = len(data)
    members["index.json"] = (info, data)

    with tarfile.open(archive, "w", format=tarfile.PAX_FORMAT) as tar:
        for name in sorted(members):
            info, data = members[name]
            info.name = name
            info.mtime, info.uid, info.gid, info.uname, info.gname = 0, 0, 0, "", ""
            tar.addfile(info, io.BytesIO(data) if data is not None else None)


if __name__ == "__main__":
    main()
