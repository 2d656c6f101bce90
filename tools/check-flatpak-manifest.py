#!/usr/bin/env python3
# check-flatpak-manifest.py: check the Flatpak manifest without flatpak-builder.
#
# Copyright 2026 The Cartograph authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
# flatpak-builder cannot run where there is no network to fetch the runtime,
# so this checks what a broken edit most often gets wrong: the file must be
# JSON, name the application and the GNOME runtime, and build the project
# itself with Meson from this checkout as its last module.
#
# Usage: check-flatpak-manifest.py MANIFEST APP_ID

import json
import sys


def fail(path, message):
    print(f"{path}: {message}", file=sys.stderr)
    sys.exit(1)


def main():
    if len(sys.argv) != 3:
        print("usage: check-flatpak-manifest.py MANIFEST APP_ID", file=sys.stderr)
        return 2
    path, app_id = sys.argv[1], sys.argv[2]

    try:
        with open(path, encoding="utf-8") as stream:
            manifest = json.load(stream)
    except OSError as error:
        fail(path, f"cannot read the manifest: {error.strerror}")
    except json.JSONDecodeError as error:
        fail(path, f"line {error.lineno}, column {error.colno}: not valid JSON: {error.msg}")

    if not isinstance(manifest, dict):
        fail(path, "the manifest is not a JSON object")

    expected = {
        "id": app_id,
        "runtime": "org.gnome.Platform",
        "sdk": "org.gnome.Sdk",
        "command": "cartograph",
    }
    for key, value in expected.items():
        if manifest.get(key) != value:
            fail(path, f"“{key}” is {manifest.get(key)!r}, expected {value!r}")

    version = manifest.get("runtime-version")
    if not isinstance(version, str) or not version.isdigit():
        fail(path, f"“runtime-version” is {version!r}, expected a stable GNOME release such as '49'")

    modules = manifest.get("modules")
    if not isinstance(modules, list) or not modules:
        fail(path, "“modules” is missing or empty")

    for module in modules:
        if not isinstance(module, dict) or "name" not in module:
            fail(path, "every module must be an object with a “name”")
        for source in module.get("sources", []):
            kind = source.get("type")
            # flatpak-builder refuses an archive or file without a checksum,
            # and a git source without a tag or commit is not reproducible.
            if kind in ("archive", "file") and not source.get("sha256"):
                fail(path, f"module “{module['name']}”: {kind} source without sha256")
            if kind == "git" and not (source.get("tag") or source.get("commit")):
                fail(path, f"module “{module['name']}”: git source without tag or commit")

    last = modules[-1]
    if last.get("name") != "cartograph" or last.get("buildsystem") != "meson":
        fail(path, "the last module must be “cartograph”, built with Meson")
    if not any(source.get("type") == "dir" and source.get("path") == ".."
               for source in last.get("sources", [])):
        fail(path, "the “cartograph” module must build this checkout (a dir source with path “..”)")

    print(f"{path}: {app_id} on {manifest['runtime']}//{version}, {len(modules)} modules")
    return 0


if __name__ == "__main__":
    sys.exit(main())
