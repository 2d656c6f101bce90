#!/usr/bin/python3
# test-crawl-kill-resume.py: `cartograph-cli crawl` killed with SIGKILL at
# random moments, then resumed, archives every page of the demo site
# exactly once.
#
# The demo site is served by `cartograph-cli serve-demo --port 0`. Each run
# starts a crawl into a fresh project, kills it after a random delay
# (sampled over the whole length of a crawl, very early ones included),
# sometimes kills the resume too, then resumes to the end. The WARC files
# are then read here, independently of Cartograph's reader: each gzip
# member is inflated on its own with zlib's gzip decoder (the whole file is
# also inflated with the gzip module, which must give the same bytes), and
# the WARC records are parsed by hand. Every run must end with exactly one
# response record per URL, the set of archived URLs equal to what the
# store says is done, every ground-truth page and page requisite among
# them, and each CDXJ index listing exactly the response records of its
# file. warcio, the independent reader from npm, validates the files of a
# few runs.
#
# Usage: test-crawl-kill-resume.py [--runs N] [--seed S]
# Environment: CARTOGRAPH_CLI, CARTOGRAPH_SOURCE_ROOT (meson sets both).
# A failure prints its seed: run again with --seed to replay the delays.
#
# Copyright 2026 The Cartograph authors
# SPDX-License-Identifier: GPL-3.0-or-later

import argparse
import gzip
import html.parser
import json
import os
import random
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.parse
import zlib

CLI = os.environ.get("CARTOGRAPH_CLI", "cartograph-cli")
SOURCE_ROOT = os.environ.get("CARTOGRAPH_SOURCE_ROOT",
                             os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
VALIDATOR = os.path.join(SOURCE_ROOT, "tests", "tools", "warcio-validate.mjs")
WARCIO = os.path.join(SOURCE_ROOT, "tests", "node_modules", "warcio", "package.json")

# Every command is bounded in time, so that a hang fails the test instead
# of blocking it.
COMMAND_TIMEOUT = 120
# Small WARC files, so that kills also fall around rollovers; light
# compression, which is most of the crawl's CPU and has no part in what is
# tested here.
CRAWL_OPTIONS = ["--no-politeness", "--quiet", "--connections", "4", "--warc-size", "600K",
                 "--compression", "1"]
# Runs whose files warcio validates: the first, one in the middle, the last.
WARCIO_RUNS = 3


class Failure(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failure(message)


# ---------------------------------------------------------------------------
# The independent WARC reader


def gzip_members(data):
    """Yields (offset, length, inflated bytes) for each gzip member of data."""
    view = memoryview(data)
    offset = 0
    while offset < len(data):
        inflater = zlib.decompressobj(wbits=31)
        out = []
        fed = 0
        # Fed in slices, so that unused_data never copies the rest of the file.
        while not inflater.eof:
            check(offset + fed < len(data),
                  f"offset {offset}: the file ends inside a gzip member (a record cut short)")
            chunk = view[offset + fed:offset + fed + 65536]
            fed += len(chunk)
            try:
                out.append(inflater.decompress(chunk))
            except zlib.error as error:
                raise Failure(f"offset {offset}: not a valid gzip member: {error}") from error
        length = fed - len(inflater.unused_data)
        yield offset, length, b"".join(out)
        offset += length


def parse_record(where, raw):
    """Parses one WARC record that must fill raw exactly."""
    end = raw.find(b"\r\n\r\n")
    check(raw.startswith(b"WARC/1.1\r\n") and end > 0, f"{where}: no WARC/1.1 header block")
    fields = {}
    for line in raw[10:end].split(b"\r\n"):
        name, sep, value = line.partition(b":")
        check(sep == b":", f"{where}: bad WARC header line {line[:80]!r}")
        fields[name.decode("ascii").strip().lower()] = value.decode("utf-8").strip()
    length = int(fields.get("content-length", "-1"))
    check(length >= 0, f"{where}: no Content-Length")
    block_start = end + 4
    check(len(raw) == block_start + length + 4 and raw.endswith(b"\r\n\r\n"),
          f"{where}: the gzip member does not hold exactly one record "
          f"({len(raw)} bytes for a block of {length})")
    return fields, raw[block_start:block_start + length]


def http_payload(block):
    end = block.find(b"\r\n\r\n")
    return block[end + 4:] if end >= 0 else b""


def read_warc(path):
    """Returns the records of a .warc.gz file as dicts."""
    with open(path, "rb") as f:
        data = f.read()
    records = []
    inflated = []
    for offset, length, raw in gzip_members(data):
        where = f"{os.path.basename(path)} offset {offset}"
        fields, block = parse_record(where, raw)
        inflated.append(raw)
        records.append({
            "offset": offset,
            "length": length,
            "type": fields.get("warc-type"),
            "id": fields.get("warc-record-id"),
            "uri": fields.get("warc-target-uri"),
            "fields": fields,
            "block": block,
        })
    # The gzip module reads all members as one stream: the same bytes, and
    # nothing after the last member.
    check(gzip.decompress(data) == b"".join(inflated),
          f"{path}: the gzip module reads other bytes than the members hold")
    check(records and records[0]["type"] == "warcinfo",
          f"{path}: the file does not start with a warcinfo record")
    return records


def read_cdxj(path):
    entries = []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            match = re.fullmatch(r"(\S+) (\d{14}) (\{.*\})\n", line)
            check(match, f"{path} line {number}: not KEY TIMESTAMP JSON")
            entries.append(json.loads(match.group(3)))
    return entries


# ---------------------------------------------------------------------------
# The site's own view of what must be archived


class RequisiteParser(html.parser.HTMLParser):
    """Collects what a browser needs to show a page: images, stylesheets,
    icons, scripts."""

    def __init__(self):
        super().__init__()
        self.urls = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag in ("img", "script") and attrs.get("src"):
            self.urls.append(attrs["src"])
        elif tag == "link" and attrs.get("href") and \
                set((attrs.get("rel") or "").lower().split()) & {"stylesheet", "icon"}:
            self.urls.append(attrs["href"])


def requisites_of(page_url, block):
    payload = http_payload(block)
    headers = block[:len(block) - len(payload)].lower()
    if b"content-type: text/html" not in headers:
        return set()
    if b"content-encoding: gzip" in headers:
        payload = gzip.decompress(payload)
    parser = RequisiteParser()
    parser.feed(payload.decode("utf-8", "replace"))
    return {urllib.parse.urljoin(page_url, u).split("#")[0] for u in parser.urls}


def robots_disallowed(base, url):
    # The demo site's robots.txt keeps crawlers out of /cart/ only; it is
    # read back from the archive and checked below.
    return urllib.parse.urlsplit(url).path.startswith("/cart/")


# ---------------------------------------------------------------------------
# Crawling


def run_cli(args, timeout=COMMAND_TIMEOUT):
    return subprocess.run([CLI] + args, capture_output=True, text=True, timeout=timeout)


def start_crawl(args):
    return subprocess.Popen([CLI] + args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)


def kill_after(process, delay):
    """SIGKILLs process after delay seconds; returns True if it was still
    running then."""
    try:
        process.wait(timeout=delay)
        return False
    except subprocess.TimeoutExpired:
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=COMMAND_TIMEOUT)
        return True


def crawl_state(project):
    """The state of the project's crawl, or None when a kill came before the
    crawl was recorded in the project."""
    db = os.path.join(project, "cartograph.db")
    if not os.path.exists(db):
        return None
    # A kill can leave a write-ahead log that only a writer may recover, so
    # a copy is read, and the project stays exactly as the kill left it.
    with tempfile.TemporaryDirectory() as tmp:
        for suffix in ("", "-wal"):
            if os.path.exists(db + suffix):
                shutil.copyfile(db + suffix, os.path.join(tmp, "copy.db" + suffix))
        try:
            con = sqlite3.connect(os.path.join(tmp, "copy.db"))
            try:
                if con.execute("PRAGMA application_id").fetchone()[0] == 0:
                    return "unborn"
                row = con.execute("SELECT state FROM crawls ORDER BY id DESC LIMIT 1").fetchone()
                return row[0] if row else None
            finally:
                con.close()
        except sqlite3.Error as error:
            raise Failure(f"the project database cannot be read after a kill: {error}") from error


def crawl_with_kills(url, project, delays, log):
    """Runs the crawl, killing it after each delay in turn (the first kills
    the crawl, the others its resumes), then resumes it to the end, as a
    user would: the same command again if the crawl was not even recorded,
    nothing if the kill came after it had finished."""
    start = ["crawl", url, "--project", project] + CRAWL_OPTIONS
    # A resume takes the settings the crawl was started with.
    resume = ["crawl", "--resume", "--project", project, "--quiet"]
    for delay in delays + [None]:
        state = crawl_state(project)
        if state == "unborn":
            # Killed while the project itself was being created: its
            # database has no schema yet, and Cartograph refuses the
            # folder (project creation is not atomic). The user starts
            # afresh; nothing had been crawled.
            shutil.rmtree(project)
            log.append("project creation cut short, folder removed")
            state = None
        if state == "finished":
            log.append("finished before the kill")
            return
        args = start if state is None else resume
        name = "crawl" if state is None else "resume"
        if delay is None:
            result = run_cli(args)
            log.append(f"{name} to the end")
            check(result.returncode == 0, f"the {name} exited {result.returncode}: {result.stderr}")
            return
        process = start_crawl(args)
        if not kill_after(process, delay):
            err = process.stderr.read()
            process.stderr.close()
            log.append(f"{name} ended before {delay:.3f} s")
            check(process.returncode == 0, f"the {name} exited {process.returncode}: {err}")
            return
        process.stderr.close()
        log.append(f"{name} killed after {delay:.3f} s")


# ---------------------------------------------------------------------------
# Checking a finished project


def check_project(project, base, truth_paths, requisites=None):
    """Checks a finished project; returns its WARC file names, the number of
    URLs archived and the page requisites its pages name. The requisites
    are found in the pages when @requisites is None (the site is the same
    in every run, so one reading does for all)."""
    warc_dir = os.path.join(project, "warc")
    names = sorted(n for n in os.listdir(warc_dir) if n.endswith(".warc.gz"))
    check(names, "no WARC file")
    leftovers = sorted(set(os.listdir(warc_dir)) - set(names) -
                       {n[:-len(".warc.gz")] + ".cdxj" for n in names})
    check(not leftovers, f"unexpected files in warc/: {leftovers}")

    responses = {}        # URI → (file, offset)
    kinds = {}            # (type, URI) → count
    ids = set()
    find_requisites = requisites is None
    requisites = set() if find_requisites else requisites
    robots_body = None
    for name in names:
        path = os.path.join(warc_dir, name)
        records = read_warc(path)
        indexed = {}
        for r in records:
            check(r["id"] not in ids, f"{name} offset {r['offset']}: record {r['id']} duplicated")
            ids.add(r["id"])
            if r["type"] == "warcinfo":
                continue
            key = (r["type"], r["uri"])
            kinds[key] = kinds.get(key, 0) + 1
            check(kinds[key] == 1,
                  f"{name} offset {r['offset']}: a second {r['type']} record for {r['uri']} "
                  f"(the first is at {responses.get(r['uri'])})")
            if r["type"] in ("response", "revisit"):
                check(r["uri"] not in responses,
                      f"{r['uri']} archived twice: {responses.get(r['uri'])} and {name} {r['offset']}")
                responses[r["uri"]] = (name, r["offset"])
                indexed[r["offset"]] = (r["uri"], r["length"])
                if r["type"] == "response" and find_requisites:
                    requisites |= requisites_of(r["uri"], r["block"])
                if r["type"] == "response" and r["uri"] == base + "robots.txt":
                    robots_body = http_payload(r["block"])

        cdxj = path[:-len(".warc.gz")] + ".cdxj"
        check(os.path.exists(cdxj), f"{name} has no CDXJ index")
        entries = read_cdxj(cdxj)
        listed = {}
        for e in entries:
            check(e["filename"] == name, f"{cdxj}: a line names {e['filename']}")
            check(int(e["offset"]) not in listed, f"{cdxj}: offset {e['offset']} listed twice")
            listed[int(e["offset"])] = (e["url"], int(e["length"]))
        check(listed == indexed,
              f"{cdxj} does not list exactly the response records of its file: "
              f"{len(listed)} lines, {len(indexed)} records, "
              f"differing at {sorted(set(listed.items()) ^ set(indexed.items()))[:3]}")

    with sqlite3.connect(f"file:{os.path.join(project, 'cartograph.db')}?mode=ro", uri=True) as con:
        crawls = con.execute("SELECT id, state FROM crawls").fetchall()
        check(len(crawls) == 1 and crawls[0][1] == "finished", f"crawls in the store: {crawls}")
        states = dict(con.execute("SELECT state, count(*) FROM urls GROUP BY state").fetchall())
        done = {u for (u,) in con.execute("SELECT url FROM urls WHERE state = 2")}
        robots_skipped = {u for (u,) in con.execute("SELECT url FROM urls WHERE state = 4 AND reason = 'robots'")}
        fetch_rows = con.execute("SELECT u.url, count(*) FROM fetches f JOIN urls u ON u.id = f.url_id "
                                 "GROUP BY u.id HAVING count(*) > 1").fetchall()

    check(states.get(0, 0) == 0 and states.get(1, 0) == 0, f"URLs left queued or in flight: {states}")
    check(states.get(3, 0) == 0, f"{states.get(3)} URLs failed")
    check(not fetch_rows, f"URLs with several fetches in the store: {fetch_rows[:5]}")
    # robots.txt is a prerequisite of the host, archived but not a URL of
    # the frontier.
    archived = set(responses)
    check(base + "robots.txt" in archived, "robots.txt is not archived")
    check(archived - {base + "robots.txt"} == done,
          f"archived but not done: {sorted(archived - done - {base + 'robots.txt'})[:5]}; "
          f"done but not archived: {sorted(done - archived)[:5]}")
    check(robots_body is not None and b"Disallow: /cart/" in robots_body,
          "the archived robots.txt does not disallow /cart/ as this test assumes")

    missing = sorted(p for p in truth_paths if base + p.lstrip("/") not in done)
    check(not missing, f"{len(missing)} ground-truth pages not archived: {missing[:5]}")
    wanted = {u for u in requisites if u.startswith(base) and not robots_disallowed(base, u)}
    check(wanted, "no page requisite found in the archived pages")
    missing = sorted(wanted - done)
    check(not missing, f"{len(missing)} page requisites not archived: {missing[:5]}")
    check(not (robots_skipped & archived), "a URL robots.txt disallows was archived")
    check(robots_skipped, "no URL was kept out by robots.txt")

    # The crawl log: a line per URL, however the runs were killed (lines
    # of what a killed run did not commit are cut when it resumes), and a
    # line for every URL archived.
    log_path = os.path.join(project, "logs", f"crawl-{crawls[0][0]}.log")
    with open(log_path, encoding="utf-8") as f:
        text = f.read()
    check(text.endswith("\n"), f"{log_path} does not end with a whole line")
    logged = {}
    for line in text.splitlines():
        fields = line.split()
        check(len(fields) == 12, f"{log_path}: a line of {len(fields)} fields, not 12: {line}")
        logged[fields[3]] = logged.get(fields[3], 0) + 1
    twice = sorted(u for u, n in logged.items() if n > 1)
    check(not twice, f"{len(twice)} URLs logged more than once in {log_path}: {twice[:5]}")
    unlogged = sorted(archived - set(logged))
    check(not unlogged, f"{len(unlogged)} archived URLs not in {log_path}: {unlogged[:5]}")
    return names, len(responses), requisites


def validate_with_warcio(project, names):
    result = subprocess.run(["node", VALIDATOR] + [os.path.join(project, "warc", n) for n in names],
                            capture_output=True, text=True, timeout=COMMAND_TIMEOUT)
    check(result.returncode == 0, f"warcio: {result.stdout}{result.stderr}")
    return result.stdout.strip().splitlines()[-1]


def warcio_missing():
    if shutil.which("node") is None:
        return "node is not installed"
    if not os.path.exists(WARCIO):
        return "warcio is not installed (run: npm ci --prefix tests)"
    return None


# ---------------------------------------------------------------------------


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--seed", type=int, default=None)
    options = parser.parse_args()
    seed = options.seed if options.seed is not None else random.SystemRandom().randrange(1 << 32)
    rng = random.Random(seed)
    print(f"# seed {seed} (replay with --seed {seed})", flush=True)

    missing = warcio_missing()
    if missing and os.environ.get("CI") == "true":
        print(f"FAIL: {missing}")
        return 1

    tmp = tempfile.mkdtemp(prefix="cg-kill-resume-")
    server = subprocess.Popen([CLI, "serve-demo", "--port", "0"], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)
    failures = 0
    try:
        line = server.stdout.readline()
        match = re.match(r"^Serving the demo site at (http://127\.0\.0\.1:\d+/)$", line.strip())
        if not match:
            print(f"FAIL: serve-demo printed {line!r}")
            return 1
        base = match.group(1)
        truth = run_cli(["serve-demo", "--print-truth"])
        check(truth.returncode == 0, "serve-demo --print-truth failed")
        truth_paths = [json.loads(l)["path"] for l in truth.stdout.splitlines()]

        # One crawl without a kill says how long a crawl takes here, so
        # that the kills are spread over all of it.
        started = time.monotonic()
        reference = os.path.join(tmp, "reference")
        result = run_cli(["crawl", base, "--project", reference] + CRAWL_OPTIONS)
        duration = time.monotonic() - started
        check(result.returncode == 0, f"the reference crawl failed: {result.stderr}")
        names, n, requisites = check_project(reference, base, truth_paths)
        print(f"# reference crawl: {n} URLs archived in {len(names)} files, {duration:.2f} s", flush=True)
        check(result.stdout == "", f"--quiet printed: {result.stdout[:300]!r}")

        # Without --quiet, the summary report follows the crawl.
        shown = run_cli(["crawl", base, "--project", os.path.join(tmp, "shown"), "--no-politeness",
                         "--max-pages", "5"])
        check(shown.returncode == 0, f"the crawl with a report failed: {shown.stderr}")
        check("Status codes" in shown.stdout and "MIME types" in shown.stdout,
              f"no summary report after the crawl: {shown.stdout[:300]!r}")

        # Stratified delays: each run kills in its own slice of the crawl's
        # length (and a little past it), in shuffled order.
        runs = options.runs
        span = duration * 1.1
        delays = [(i + rng.random()) * span / runs for i in range(runs)]
        rng.shuffle(delays)
        warcio_runs = {0, runs // 2, runs - 1}
        for i in range(runs):
            project = os.path.join(tmp, f"run-{i:02d}")
            kills = [delays[i]]
            # Every third run also kills the first resume, and one in six
            # kills again at once, while the resume repairs the files.
            if i % 3 == 2:
                kills.append(rng.uniform(0.0, duration / 2))
            if i % 6 == 5:
                kills.append(rng.uniform(0.0, 0.05))
            log = []
            try:
                crawl_with_kills(base, project, kills, log)
                names, n, _ = check_project(project, base, truth_paths, requisites)
                note = ""
                if i in warcio_runs:
                    if missing:
                        note = f"; warcio skipped: {missing}"
                    else:
                        note = "; " + validate_with_warcio(project, names)
                print(f"ok {i + 1} - run {i + 1}: {', '.join(log)}: {n} URLs archived once each "
                      f"in {len(names)} files{note}", flush=True)
                shutil.rmtree(project)
            except (Failure, subprocess.TimeoutExpired) as error:
                failures += 1
                print(f"not ok {i + 1} - run {i + 1}: {', '.join(log)}: {error}", flush=True)
                print(f"# project kept in {project}; seed {seed}", flush=True)
        print(f"1..{runs}")
    except Failure as error:
        print(f"FAIL: {error} (seed {seed})")
        failures += 1
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        if failures == 0:
            shutil.rmtree(tmp, ignore_errors=True)
    print(f"{options.runs - min(failures, options.runs)} passed, {min(failures, options.runs)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
