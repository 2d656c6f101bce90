#!/usr/bin/python3
# prepare.py: writes the manifest records-bench reads (see records-bench.c),
# one JSON line per page, for the sets whose inputs exist.
#
#   prepare.py demo TRUTH.jsonl BASE_URL PLAIN_DIR RENDER_DIR
#       the demo site's list pages: TRUTH is `serve-demo --print-truth`,
#       PLAIN_DIR holds the fetched pages (NNNNN.html, in truth order, with
#       list.tsv: file, path), RENDER_DIR the output of `cartograph-cli
#       render` (pages.jsonl).
#   prepare.py fadwa DATASET SITE_URL RENDER_DIR
#       the Fadwa testbed: page.htm/.xht and records.csv per page; the
#       rendered pages (if RENDER_DIR has a pages.jsonl) were served from
#       SITE_URL with the same relative paths, page.htm renamed page.html.
#   prepare.py invariants DATASET
#       the three pages of the invariants set, with their record XPaths.
#
# Copyright 2026 The Cartograph authors
# SPDX-License-Identifier: GPL-3.0-or-later
import csv
import io
import json
import os
import sys


def emit(entry):
    sys.stdout.write(json.dumps(entry, ensure_ascii=False) + "\n")


def rendered_pages(render_dir):
    """url → absolute path of the decorated page, for the pages that rendered."""
    out = {}
    index = os.path.join(render_dir, "pages.jsonl")
    if not os.path.exists(index):
        return out
    with open(index, encoding="utf-8") as f:
        for line in f:
            page = json.loads(line)
            if page.get("html") and page.get("status", 0) == 200:
                out[page["url"]] = os.path.join(render_dir, page["html"])
    return out


def demo(truth_path, base, plain_dir, render_dir):
    truth = {}
    with open(truth_path, encoding="utf-8") as f:
        for line in f:
            page = json.loads(line)
            if "records" in page:
                truth[page["path"]] = [list(r.values()) for r in page["records"]]
    rendered = rendered_pages(render_dir)
    with open(os.path.join(plain_dir, "list.tsv"), encoding="utf-8") as f:
        for line in f:
            name, path = line.rstrip("\n").split("\t")
            url = base + path
            records = truth[path]
            emit({"set": "demo-plain", "page": path, "html": os.path.join(plain_dir, name),
                  "url": url, "features": "plain", "truth": records})
            if url in rendered:
                emit({"set": "demo-rendered", "page": path, "html": rendered[url],
                      "url": url, "features": "rendered", "truth": records})


def read_csv(path):
    """The records of a records.csv: UTF-8, else Windows-1252 (the README)."""
    with open(path, "rb") as f:
        data = f.read()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode("cp1252", errors="replace")
    rows = []
    for row in csv.reader(io.StringIO(text, newline="")):
        values = [v.strip() for v in row]
        if any(values):
            rows.append(values)
    return rows


def fadwa(dataset, site_url, render_dir):
    rendered = rendered_pages(render_dir)
    with open(os.path.join(dataset, "index.tsv"), encoding="utf-8", newline="") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            folder = os.path.join(dataset, row["dir"])
            html = None
            for name in ("page.htm", "page.xht"):
                if os.path.exists(os.path.join(folder, name)):
                    html = os.path.join(folder, name)
            if html is None:
                continue
            records = read_csv(os.path.join(folder, "records.csv"))
            emit({"set": "fadwa-plain", "page": row["dir"], "html": html,
                  "url": "http://saved.test/" + row["dir"] + "/" + os.path.basename(html),
                  "features": "plain", "truth": records})
            url = site_url + "/" + row["dir"] + "/page.html"
            if url in rendered:
                emit({"set": "fadwa-rendered", "page": row["dir"], "html": rendered[url],
                      "url": url, "features": "rendered", "truth": records})


def invariants(dataset):
    with open(os.path.join(dataset, "groundtruth.tsv"), encoding="utf-8", newline="") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            emit({"set": "invariants", "page": row["page"], "html": os.path.join(dataset, row["page"]),
                  "url": "http://saved.test/" + row["page"], "features": "plain",
                  "truth_xpath": row["record_xpath"]})


def main():
    what, args = sys.argv[1], sys.argv[2:]
    if what == "demo":
        demo(*args)
    elif what == "fadwa":
        fadwa(*args)
    elif what == "invariants":
        invariants(*args)
    else:
        sys.exit("prepare.py: unknown set " + what)


if __name__ == "__main__":
    main()
