#!/usr/bin/python3
"""cartograph-cli crawl --resume with new limits and politeness, through
the real command line on the demo site: a crawl that stopped at its page
limit goes further when resumed with a higher one, and more gently with
new delays; the new settings are stored with the crawl and written in the
warcinfo record of its next WARC file; no page is archived twice; settings
that decided what the crawl queued (its scope, robots.txt, identity, WARC
settings) are refused, named, and change nothing; a crawl another process
runs keeps its settings; a crawl whose WARC file cannot be flushed to
the disk fails, and --resume repairs it.
"""
import errno
import gzip
import json
import os
import signal
import sqlite3
import subprocess
import tempfile
import time

from clitest import CLI, check, demo_site, finish, index_path_of, run


def stored_config(project):
    with sqlite3.connect(os.path.join(project, "cartograph.db")) as db:
        return json.loads(db.execute("SELECT config FROM crawls WHERE id = 1").fetchone()[0])


def html_fetched(project):
    with sqlite3.connect(os.path.join(project, "cartograph.db")) as db:
        return db.execute("SELECT count(*) FROM fetches WHERE status = 200 AND mime LIKE 'text/html%'").fetchone()[0]


def warc_records(path):
    """Each record of a WARC file, as (headers, block): the file is read
    here, not with the project's own reader."""
    with gzip.open(path, "rb") as stream:
        data = stream.read()
    records = []
    at = 0
    while at < len(data):
        end = data.index(b"\r\n\r\n", at)
        lines = data[at:end].decode("utf-8").split("\r\n")
        assert lines[0] == "WARC/1.1", lines[0]
        headers = dict(line.split(": ", 1) for line in lines[1:])
        length = int(headers["Content-Length"])
        records.append((headers, data[end + 4:end + 4 + length]))
        at = end + 4 + length + 4
    return records


def crawl_state(project):
    with sqlite3.connect(os.path.join(project, "cartograph.db")) as db:
        return db.execute("SELECT state FROM crawls WHERE id = 1").fetchone()[0]


def closed_warc_files(project):
    with sqlite3.connect(os.path.join(project, "cartograph.db")) as db:
        return [name for (name,) in db.execute("SELECT name FROM warc_files WHERE closed = 1 ORDER BY name")]


def warc_files(project):
    folder = os.path.join(project, "warc")
    return sorted(os.path.join(folder, name) for name in os.listdir(folder) if name.endswith(".warc.gz"))


with demo_site() as url:
    with tempfile.TemporaryDirectory() as tmp:
        project = os.path.join(tmp, "demo")
        first = run("crawl", url, "--project", project, "--no-politeness", "--max-pages", "5")
        check("a crawl of the demo site ends at its page limit",
              first.returncode == 0 and "The crawl has fetched its maximum number of pages" in first.stderr)
        check("and says how to go further",
              "cartograph-cli crawl --resume --max-pages N --project %s" % project in first.stderr)
        at_limit = html_fetched(project)
        check("it fetched its five pages and those under way (%d)" % at_limit, 5 <= at_limit < 20)

        same = run("crawl", "--resume", "--project", project, "--quiet")
        check("resumed as it was, it stops at its limit again, fetching nothing",
              same.returncode == 0 and html_fetched(project) == at_limit)

        # Settings that decided what the crawl queued are refused, named,
        # before anything changes.
        for options, name in ((["--scope", "domain"], "--scope"), (["--ignore-robots"], "--ignore-robots"),
                              (["--user-agent", "Other/1.0"], "--user-agent"), (["--max-depth", "3"], "--max-depth"),
                              (["--no-requisites"], "--no-requisites"), (["--digest", "sha256"], "--digest"),
                              (["--include", "books"], "--include"), (["--warc-size", "10M"], "--warc-size")):
            result = run("crawl", "--resume", "--project", project, "--max-pages", "50", *options)
            check("crawl --resume %s is refused, named" % " ".join(options),
                  result.returncode == 2 and "%s cannot be given with it" % name in result.stderr)
        for options, message in ((["--max-pages", "0"], "--max-pages must be at least 1, not 0"),
                                 (["--connections", "4"], "Requests per host must be between 1 and the number of connections (4), not 8"),
                                 (["--max-bytes", "lots"], "“lots” is not a size"),
                                 (["--delay", "-2"], "--delay takes a number of 0 or more, not “-2”"),
                                 (["--bandwidth", "fast"], "fast")):
            result = run("crawl", "--resume", "--project", project, *options)
            check("crawl --resume %s is refused: %s" % (" ".join(options), result.stderr.strip()),
                  result.returncode in (1, 2) and message in result.stderr)
        config = stored_config(project)
        check("no refused resume changed the stored settings (%s)" % config.get("max_pages"),
              config.get("max_pages") == 5 and config.get("scope") == "host" and config.get("robots") == "obey")
        check("nor fetched anything", html_fetched(project) == at_limit)

        n_files = len(warc_files(project))
        further = run("crawl", "--resume", "--project", project, "--max-pages", "20", "--max-bytes", "50M",
                      "--delay", "0.01", "--max-delay", "0.5", "--delay-factor", "0", "--connections", "4",
                      "--per-host", "2")
        check("resumed with a higher limit, it goes further and stops at it (%d pages)" % html_fetched(project),
              further.returncode == 0 and 20 <= html_fetched(project) < 40)
        config = stored_config(project)
        check("the new limits and politeness are stored with the crawl",
              config.get("max_pages") == 20 and config.get("max_bytes") == 50 * 1024 * 1024
              and config.get("delay") == 0.01 and config.get("max_delay") == 0.5
              and config.get("connections") == 4 and config.get("max_per_host") == 2)
        check("and the rest as it was", config.get("scope") == "host" and config.get("robots") == "obey"
              and config.get("requisites") is True)

        files = warc_files(project)
        check("the resumed run wrote a new WARC file", len(files) == n_files + 1)
        infos = [block.decode("utf-8") for headers, block in warc_records(files[-1])
                 if headers["WARC-Type"] == "warcinfo"]
        check("whose warcinfo gives the new settings",
              len(infos) == 1 and "max-pages: 20\r\n" in infos[0] and "min-delay 0.01 s" in infos[0]
              and "4 connections" in infos[0])
        first_infos = [block.decode("utf-8") for headers, block in warc_records(files[0])
                       if headers["WARC-Type"] == "warcinfo"]
        check("while the first file keeps the first ones", "max-pages: 5\r\n" in first_infos[0])
        responses = [headers["WARC-Target-URI"] for path in files for headers, block in warc_records(path)
                     if headers["WARC-Type"] == "response"]
        check("no page is archived twice over the three runs (%d responses)" % len(responses),
              len(responses) == len(set(responses)) and len(responses) >= 20)

        # A crawl another process runs keeps its settings: the resume that
        # would change them is refused.
        slow = subprocess.Popen([CLI, "crawl", "--resume", "--project", project, "--max-pages", "200",
                                 "--delay", "0.2", "--max-delay", "0.2", "--per-host", "1"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        time.sleep(2)
        meanwhile = run("crawl", "--resume", "--project", project, "--max-pages", "999", "--quiet")
        check("resuming with new limits a crawl that runs in another process is refused (%s)"
              % meanwhile.stderr.strip(),
              meanwhile.returncode == 1 and "is running in another process (%d)" % slow.pid in meanwhile.stderr)
        check("and leaves its settings as that process stored them", stored_config(project).get("max_pages") == 200)
        slow.send_signal(signal.SIGINT)
        out, err = slow.communicate(timeout=120)
        check("Ctrl-C stops it, ready to resume (%d)" % slow.returncode, slow.returncode == 3)

        # A disk that cannot flush the WARC file (tests/tools/fail-warc-flush.c):
        # the crawl's archive is not safely stored, so the crawl fails
        # instead of ending at its limit, and --resume repairs it.
        broken = os.path.join(tmp, "broken-disk")
        failing_disk = dict(os.environ, LD_PRELOAD=os.environ["CARTOGRAPH_TEST_FAIL_WARC_FLUSH"])
        failed = run("crawl", url, "--project", broken, "--no-politeness", "--max-pages", "5", "--quiet",
                     env=failing_disk)
        files = warc_files(broken)
        check("a crawl whose WARC file cannot be flushed to the disk fails, naming the file (%d: %s)"
              % (failed.returncode, failed.stderr.strip()),
              failed.returncode == 1 and len(files) == 1
              and "Could not flush the WARC file “%s”: %s" % (files[0], os.strerror(errno.EIO)) in failed.stderr)
        check("it is stored as failed, its file neither marked closed nor indexed",
              crawl_state(broken) == "failed" and closed_warc_files(broken) == []
              and not os.path.exists(index_path_of(files[0])))
        repaired = run("crawl", "--resume", "--project", broken, "--max-pages", "10", "--quiet")
        files = warc_files(broken)
        check("resumed on a sound disk, it goes on to its new limit (%d: %s)"
              % (repaired.returncode, repaired.stderr.strip()),
              repaired.returncode == 0 and crawl_state(broken) == "limit" and html_fetched(broken) >= 10)
        check("and each of its WARC files (%d) is now closed and indexed" % len(files),
              closed_warc_files(broken) == [os.path.basename(path) for path in files]
              and all(os.path.exists(index_path_of(path)) for path in files))
        responses = [headers["WARC-Target-URI"] for path in files for headers, block in warc_records(path)
                     if headers["WARC-Type"] == "response"]
        check("with no page archived twice (%d responses)" % len(responses),
              len(responses) == len(set(responses)) and len(responses) >= 10)

finish()
