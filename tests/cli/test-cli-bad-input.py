#!/usr/bin/python3
"""Bad command lines and damaged projects for the crawling commands
(crawl, model, harvest, extract, export), through the real command line:
each is refused at once with a message naming what was wrong, records no
crawl, and leaves what the project already held usable.
"""
import json
import os
import shutil
import sqlite3
import subprocess
import tempfile

from clitest import CLI, check, demo_site, finish, run


def crawls_of(project):
    with sqlite3.connect(os.path.join(project, "cartograph.db")) as db:
        return db.execute("SELECT id, kind FROM crawls ORDER BY id").fetchall()


def refused(result, fragment):
    """Refused as a bad command line, saying @fragment, with no GLib
    warning or critical."""
    return (result.returncode == 2 and fragment in result.stderr
            and "CRITICAL" not in result.stderr and "WARNING" not in result.stderr)


with demo_site() as url:
    with tempfile.TemporaryDirectory() as tmp:
        project = os.path.join(tmp, "demo")
        first = run("crawl", url, "--project", project, "--no-politeness", "--max-pages", "5", "--quiet")
        check("a small crawl of the demo site ends at its page limit", first.returncode == 0)
        before = crawls_of(project)

        # Each of these was once accepted, stored with the crawl and made
        # every later --resume fail, or silently meant something else.
        bad_options = [
            (["--delay=inf"], "--delay takes a number of 0 or more, not “inf”"),
            (["--delay=nan"], "--delay takes a number of 0 or more, not “nan”"),
            (["--delay=-1"], "--delay takes a number of 0 or more, not “-1”"),
            (["--delay-factor=1e400"], "--delay-factor takes a number of 0 or more"),
            (["--max-delay=soon"], "--max-delay takes a number of 0 or more, not “soon”"),
            (["--max-pages=0"], "--max-pages must be at least 1, not 0"),
            (["--max-pages=-3"], "--max-pages must be at least 1, not -3"),
            (["--connections=0"], "--connections must be at least 1, not 0"),
            (["--per-host=0"], "--per-host must be at least 1, not 0"),
            (["--timeout=0"], "--timeout must be at least 1, not 0"),
            (["--compression=-1"], "The compression level must be between 0 and 12, not -1"),
            (["--max-depth=-1"], "--max-depth cannot be negative, not -1"),
            (["--contact=bad"], "The contact address “bad” is not an http, https or mailto URL"),
            (["--user-agent="], "The User-Agent “” is empty"),
            (["--user-agent=a\udcffb"], "The argument “--user-agent=a\ufffdb” is not text"),
            # GOption would read these as 16 and 8.
            (["--max-depth=0x10"], "--max-depth wants a whole number written in decimal, not “0x10”"),
            (["--max-pages", "010x"], "--max-pages wants a whole number written in decimal, not “010x”"),
            (["--connections=99999999999"], "--connections: 99999999999 is out of range"),
        ]
        for options, message in bad_options:
            result = run("crawl", url, "--project", project, "--quiet", *options)
            check("crawl %s is refused: %s" % (" ".join(options), message), refused(result, message))
        result = run("crawl", url + "\udcff", "--project", project, "--quiet")
        check("a seed URL that is not UTF-8 is refused, named", refused(result, "The seed URL “%s\ufffd” is not UTF-8 text" % url))
        check("no refused crawl was recorded", crawls_of(project) == before)

        # A resume takes the settings the crawl was started with, but for
        # its limits and politeness (test-cli-crawl-resume.py): one given
        # with it was quietly ignored, and is now refused, named.
        for options, name in ((["--cookies"], "--cookies"), (["--contact=https://example.org/"], "--contact"),
                              (["--exclude", "x"], "--exclude"), (["--scope", "domain"], "--scope")):
            result = run("crawl", "--resume", "--project", project, *options)
            check("crawl --resume %s is refused" % " ".join(options),
                  refused(result, "%s cannot be given with it" % name))
        # So does a harvest's, whose strategy and identity are its own.
        for options, name in ((["--strategy", "patterns"], "--strategy"), (["--no-conditional"], "--no-conditional")):
            result = run("harvest", "--resume", "--project", project, *options)
            check("harvest --resume %s is refused" % " ".join(options),
                  refused(result, "%s cannot be given with it" % name))
        check("no refused resume was recorded", crawls_of(project) == before)

        resumed = run("crawl", "--resume", "--project", project, "--quiet")
        check("the earlier crawl still resumes", resumed.returncode == 0)

        # A crawl that cannot go on (its WARC file is gone) says why, once.
        lost = os.path.join(tmp, "lost")
        run("crawl", url, "--project", lost, "--no-politeness", "--max-pages", "5", "--quiet")
        for name in os.listdir(os.path.join(lost, "warc")):
            if name.endswith(".warc.gz"):
                os.unlink(os.path.join(lost, "warc", name))
        result = run("crawl", "--resume", "--project", lost, "--max-pages", "10")
        check("a resume whose WARC file is gone fails, saying so once (%s)" % result.stderr.strip(),
              result.returncode == 1 and result.stderr.count("is missing") == 1)

        # A number with a leading zero is decimal, as users mean it.
        leading_zero = os.path.join(tmp, "leading-zero")
        result = run("crawl", url, "--project", leading_zero, "--no-politeness", "--quiet", "--max-pages", "010")
        with sqlite3.connect(os.path.join(leading_zero, "cartograph.db")) as db:
            config = json.loads(db.execute("SELECT config FROM crawls").fetchone()[0])
        check("--max-pages 010 means ten pages", result.returncode == 0 and config.get("max_pages") == 10)

        other = os.path.join(tmp, "never-made")
        result = run("crawl", url, "--project", other, "--quiet", "--contact=bad")
        check("a refused crawl makes no project folder", result.returncode == 2 and not os.path.exists(other))

        result = run("model", url, "--project", project, "--delay=inf", "--quiet")
        check("model --delay=inf is refused", refused(result, "--delay takes a number of 0 or more, not “inf”"))

        # A site with no page to learn from gives no model version.
        unreachable = os.path.join(tmp, "unreachable")
        result = run("model", "http://127.0.0.1:1/", "--project", unreachable, "--no-render", "--quiet", timeout=120)
        check("model of an unreachable site fails, saying there is nothing to learn from",
              result.returncode == 1 and "No HTML page of http://127.0.0.1:1/ could be fetched" in result.stderr)
        listed = run("export", "--project", unreachable, "--what", "model")
        check("and saves no model", listed.returncode == 1)

        # Harvest by example: a sample off the model's site would take the
        # harvest to another server.
        learned = run("model", url, "--project", project, "--no-politeness", "--no-render", "--quiet")
        check("model learns the demo site", learned.returncode == 0)
        before = crawls_of(project)
        result = run("harvest", "--project", project, "--strategy", "like", "--like", "http://other.example/page.html",
                     "--no-politeness", "--quiet")
        check("a sample page of another site is refused, named",
              result.returncode != 0 and "The sample page “http://other.example/page.html” is not a page of" in result.stderr)
        check("and records no harvest", crawls_of(project) == before)
        result = run("harvest", "--project", project, "--delay=inf")
        check("harvest --delay=inf is refused", refused(result, "--delay takes a number of 0 or more, not “inf”"))

        # Extraction from a project whose WARC files are gone: every page
        # is named as skipped (up to a few), counted, and the command fails
        # with no GLib warnings; the records extracted before are kept.
        def without_warc(name):
            copy = os.path.join(tmp, name)
            shutil.copytree(project, copy)
            for file in os.listdir(os.path.join(copy, "warc")):
                if file.endswith(".warc.gz"):
                    os.unlink(os.path.join(copy, "warc", file))
            return copy

        fresh = without_warc("fresh")
        result = run("extract", "--project", fresh)
        check("extract with no wrapper yet and no WARC files fails", result.returncode == 1)
        check("its summary says why the classes have no wrapper",
              "its sample pages cannot be read from the archive" in result.stdout)
        extracted = run("extract", "--project", project, "--quiet")
        check("extract works on the whole project", extracted.returncode == 0)
        records = run("export", "--project", project, "--what", "records", "--format", "jsonl").stdout.splitlines()
        check("it extracted records (%d)" % len(records), len(records) > 50)
        damaged = without_warc("damaged")
        result = run("extract", "--project", damaged, "--relearn")
        skipped = [l for l in result.stderr.splitlines() if l.startswith("Skipped: Cannot read the archived page")]
        check("extract without the WARC files fails", result.returncode == 1)
        check("it names the first pages it skips (%d lines)" % len(skipped), len(skipped) == 5)
        check("and counts them all", "archived pages could not be read and kept their earlier records" in result.stderr)
        check("with no GLib warning", "WARNING" not in result.stderr and "CRITICAL" not in result.stderr)
        kept = run("export", "--project", damaged, "--what", "records", "--format", "jsonl").stdout.splitlines()
        check("the records extracted before are kept", sorted(kept) == sorted(records))

        # Messages that name the real mistake.
        result = run("export", "--project", project, "--what", "model", "--model", "1")
        check("export --model without --site says --site is missing",
              refused(result, "--model goes with --site"))
        result = run("export", "--project", project, "--what", "model", "--model", "-1", "--site", url)
        check("export --model -1 names the bad version", refused(result, "--model needs a version number from 1, not -1"))
        result = run("export", "--project", project, "--what", "model", "--output", "/dev/full/x")
        check("an unwritable output is named", result.returncode == 1 and "Cannot write “/dev/full/x”" in result.stderr)
        result = run("compare", "--project", project, "--site", url, "abc", "1")
        check("compare names a version that is no number", refused(result, "“abc” is not a model version number"))
        # A project the user may not write to: reading it writes too (WAL).
        # Root writes anywhere, so the command runs as nobody then.
        readonly = os.path.join(tmp, "readonly")
        shutil.copytree(project, readonly)
        os.chmod(tmp, 0o755)
        for folder, dirs, files in os.walk(readonly):
            for name in files:
                os.chmod(os.path.join(folder, name), 0o444)
            os.chmod(folder, 0o555)
        as_nobody = ["runuser", "-u", "nobody", "--", CLI] if os.geteuid() == 0 else None
        nobody_cannot_run = as_nobody is not None and subprocess.run(
            as_nobody + ["--version"], capture_output=True, timeout=60, cwd="/").returncode != 0

        def run_unprivileged(command):
            """Runs the CLI as nobody when this is root, else as this user."""
            if as_nobody is None:
                return run(*command)
            return subprocess.run(as_nobody + command, capture_output=True, text=True, timeout=60, cwd="/")

        if nobody_cannot_run:
            # The build lies where nobody cannot run it (a home folder).
            print("ok - a project that cannot be written is said to be so # SKIP nobody cannot run the CLI here")
        else:
            result = run_unprivileged(["export", "--project", readonly, "--what", "model"])
            check("a project that cannot be written is said to be so",
                  result.returncode == 1 and "cannot be written" in result.stderr and "permissions" in result.stderr)
        for folder, dirs, files in os.walk(readonly):
            os.chmod(folder, 0o755)
        # Only the database file read-only, in a folder that may be
        # written: the file is named, not the folder, and a crawl that
        # cannot store anything changes nothing.
        if nobody_cannot_run:
            print("ok - a read-only database file is named # SKIP nobody cannot run the CLI here")
        else:
            for folder, dirs, files in os.walk(readonly):
                os.chmod(folder, 0o777)
                for name in files:
                    os.chmod(os.path.join(folder, name), 0o666)
            database = os.path.join(readonly, "cartograph.db")
            os.chmod(database, 0o444)
            with open(database, "rb") as f:
                stored = f.read()
            result = run_unprivileged(["crawl", url, "--project", readonly, "--max-pages", "3", "--quiet"])
            check("a read-only database file is named, not its folder (%r)" % result.stderr.strip(),
                  result.returncode == 1 and "the file itself is read-only" in result.stderr
                  and "folder’s permissions" not in result.stderr)
            with open(database, "rb") as f:
                check("and the database is left as it was", f.read() == stored)
            os.chmod(database, 0o644)
            check("which still holds its crawls", crawls_of(readonly) == crawls_of(project))

        a_file = os.path.join(tmp, "a-file")
        with open(a_file, "w") as f:
            f.write("not a project\n")
        result = run("info", "--project", a_file)
        check("a file given as the project is called a file",
              result.returncode == 1 and "is a file, not a project folder" in result.stderr)

finish()
