#!/usr/bin/python3
"""cartograph-cli export: pages of a real crawl of the demo site, as JSON
Lines and CSV, each pointing at its WARC record, which is read back here
with Python's own gzip module; the crawl's link graph, checked against the
links of the pages as Python's HTML parser reads them; and the errors for
what cannot be exported.
"""
import collections
import csv
import gzip
import html.parser
import io
import json
import os
import tempfile
import urllib.parse
import urllib.request
import zlib

import clitest
from clitest import check, demo_site, finish


def run(*args, **kwargs):
    return clitest.run(*args, timeout=120, **kwargs)


def read_record(path, offset):
    """The WARC headers of the gzip member at offset."""
    with open(path, "rb") as warc:
        warc.seek(offset)
        data = warc.read(1 << 20)
    member = zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(data)
    head = member.split(b"\r\n\r\n", 1)[0].decode("utf-8")
    fields = {}
    for line in head.split("\r\n")[1:]:
        name, _, value = line.partition(":")
        fields[name.strip().lower()] = value.strip()
    return fields


class AnchorParser(html.parser.HTMLParser):
    """The a[href] of a page: targets resolved against base, without their
    fragment, each with its text, whitespace collapsed."""

    def __init__(self, base):
        super().__init__()
        self.base = base
        self.anchors = []
        self.open = None

    def handle_starttag(self, tag, attrs):
        href = dict(attrs).get("href")
        if tag == "a" and href is not None:
            self.open = [urllib.parse.urldefrag(urllib.parse.urljoin(self.base, href))[0], ""]

    def handle_data(self, data):
        if self.open is not None:
            self.open[1] += data

    def handle_endtag(self, tag):
        if tag == "a" and self.open is not None:
            self.anchors.append((self.open[0], " ".join(self.open[1].split())))
            self.open = None


def check_link_graph(project, url):
    """The links export against the pages themselves, fetched again."""
    links = run("export", "--project", project, "--what", "links")
    check("links export as JSON Lines (%s)" % links.stderr.strip(), links.returncode == 0)
    rows = [json.loads(line) for line in links.stdout.splitlines()]
    check("the demo's link graph has its edges (%d)" % len(rows), len(rows) > 5000)
    check("every edge has its fields",
          all(row.keys() == {"from", "to", "hop", "anchor", "crawl"} for row in rows))
    by_page = collections.defaultdict(list)
    for row in rows:
        by_page[row["from"]].append(row)
    check("no edge is recorded twice",
          len({(row["from"], row["to"], row["hop"]) for row in rows}) == len(rows))
    check("stylesheets are embeds", any(row["hop"] == "E" and row["to"].endswith(".css") for row in rows))

    pages = [page for page in by_page if page.startswith(url) and not page.endswith((".css", ".svg"))]
    wrong = []
    for page in pages[::40]:
        with urllib.request.urlopen(page, timeout=30) as response:
            parser = AnchorParser(page)
            parser.feed(response.read().decode("utf-8"))
        first_text = {}
        for target, text in parser.anchors:
            first_text.setdefault(target, text)
        recorded = [(row["to"], row["anchor"] or "") for row in by_page[page] if row["hop"] == "L"]
        # The page's own order, each target once with its first text.
        if recorded != list(first_text.items()):
            wrong.append(page)
    check("each sampled page's links are its a[href], in its order, with their first text (%d pages; "
          "differing: %s)" % (len(pages[::40]), wrong[:3]), len(pages[::40]) > 10 and not wrong)

    as_tsv = run("export", "--project", project, "--what", "links", "--format", "tsv")
    table = as_tsv.stdout.splitlines()
    check("the TSV has a header and the same rows",
          table[0] == "from\tto\thop\tanchor\tcrawl" and len(table) == len(rows) + 1)
    with_model = run("export", "--project", project, "--what", "links", "--site", url)
    check("links take no model: --site is a usage error (%s)" % with_model.stderr.strip(),
          with_model.returncode == 2 and "--site" in with_model.stderr)
    as_dot = run("export", "--project", project, "--what", "links", "--format", "dot")
    check("links cannot be dot: exit 2, named", as_dot.returncode == 2 and "dot" in as_dot.stderr)

    # A crawl whose only page could not be fetched has recorded no link.
    unreachable = os.path.join(os.path.dirname(project), "unreachable")
    run("crawl", "http://127.0.0.1:9/", "--project", unreachable, "--no-politeness", "--quiet")
    none = run("export", "--project", unreachable, "--what", "links")
    check("a project without links says so (%s)" % none.stderr.strip(),
          none.returncode == 1 and none.stdout == "" and "no links yet" in none.stderr)


with demo_site() as url:
    with tempfile.TemporaryDirectory() as tmp:
        project = os.path.join(tmp, "demo")
        crawl = run("crawl", url, "--project", project, "--no-politeness", "--quiet")
        check("the crawl of the demo site succeeds", crawl.returncode == 0)
        check_link_graph(project, url)

        pages = run("export", "--project", project, "--what", "pages", "--format", "jsonl")
        check("pages export as JSON Lines", pages.returncode == 0)
        rows = [json.loads(line) for line in pages.stdout.splitlines()]
        check("one row per fetched URL (%d)" % len(rows), len(rows) > 1000)
        check("every row has its fields",
              all({"url", "class", "status", "warc_file", "warc_offset"} <= row.keys() for row in rows))
        check("pages without a model are unclassified", all(row["class"] == "unclassified" for row in rows))
        for named in (["--site", "http://nowhere.example/"], ["--site", url, "--model", "3"]):
            unknown = run("export", "--project", project, "--what", "pages", *named)
            check("pages of a model the project lacks (%s) fail, naming it: %s" % (" ".join(named),
                                                                                unknown.stderr.strip()),
                  unknown.returncode == 1 and unknown.stdout == "" and "model" in unknown.stderr)
        mismatches = 0
        for row in rows[::25]:
            record = read_record(os.path.join(project, "warc", row["warc_file"]), row["warc_offset"])
            if record.get("warc-target-uri") != row["url"] or record.get("warc-type") not in ("response", "revisit"):
                mismatches += 1
        check("each row's WARC offset holds that URL's response record", mismatches == 0)

        as_csv = run("export", "--project", project, "--what", "pages", "--format", "csv")
        table = list(csv.DictReader(io.StringIO(as_csv.stdout)))
        check("the CSV has the same rows", len(table) == len(rows) and table[0]["url"] == rows[0]["url"])

        out = os.path.join(tmp, "pages.tsv")
        with open(out, "w") as existing:
            existing.write("keep me\n")
        bad = run("export", "--project", project, "--what", "pages", "--format", "graphml", "--output", out)
        check("pages cannot be GraphML: exit 2, named", bad.returncode == 2 and "graphml" in bad.stderr)
        with open(out) as existing:
            check("a failed export leaves the output file as it was", existing.read() == "keep me\n")

        piped = run("export", "--project", project, "--what", "pages", "--format", "csv", "--output", "/dev/stdout")
        check("--output /dev/stdout writes to the pipe (%s)" % piped.stderr.strip(),
              piped.returncode == 0 and piped.stdout == as_csv.stdout)
        if os.path.exists("/dev/full"):
            full = run("export", "--project", project, "--what", "pages", "--format", "csv", "--output", "/dev/full")
            check("an export to a full disk fails naming the file (%s)" % full.stderr.strip(),
                  full.returncode == 1 and "“/dev/full”" in full.stderr and os.path.exists("/dev/full"))

        fresh = os.path.join(tmp, "fresh.graphml")
        bad = run("export", "--project", project, "--what", "pages", "--format", "graphml", "--output", fresh)
        check("a failed export to a new file leaves no file behind",
              bad.returncode == 2 and not os.path.exists(fresh))

        # The project's own files are not written over by an export given
        # the wrong path; its folder is otherwise free.
        database = os.path.join(project, "cartograph.db")
        with open(database, "rb") as db:
            before = db.read()
        for own in ("cartograph.db", "cartograph.db-wal", "warc", os.path.join("warc", "pages.csv"),
                    os.path.join("logs", "x.csv"), os.path.join("..", "demo", ".", "cartograph.db")):
            target = os.path.join(project, own)
            refused = run("export", "--project", project, "--what", "pages", "--format", "csv", "--output", target)
            check("an export over the project's %s is refused (%s)" % (own, refused.stderr.strip()),
                  refused.returncode == 2 and "is the project’s own" in refused.stderr)
        with open(database, "rb") as db:
            check("and the database is as it was", db.read() == before)
        # Nor through a link made elsewhere: the export replaces the link,
        # and the file it led to is as it was.
        symbolic = os.path.join(tmp, "link.db")
        hard = os.path.join(tmp, "hard.db")
        os.symlink(database, symbolic)
        os.link(database, hard)
        for link in (symbolic, hard):
            through = run("export", "--project", project, "--what", "pages", "--format", "jsonl", "--output", link)
            with open(database, "rb") as db:
                check("an export to %s, a link to the database, leaves it as it was (%s)"
                      % (os.path.basename(link), through.stderr.strip()),
                      through.returncode == 0 and db.read() == before)
        kept = os.path.join(tmp, "kept.csv")
        with open(kept, "w") as f:
            f.write("earlier export\n")
        os.symlink(kept, os.path.join(tmp, "kept-link.csv"))
        failed = run("export", "--project", project, "--what", "records", "--format", "csv", "--region", "99",
                     "--output", os.path.join(tmp, "kept-link.csv"))
        with open(kept) as f:
            check("a failed export through a link leaves the linked file as it was",
                  failed.returncode != 0 and f.read() == "earlier export\n")
        check("the project still opens", run("info", "--project", project).returncode == 0)
        beside = run("export", "--project", project, "--what", "pages", "--format", "csv", "--output",
                     os.path.join(project, "pages.csv"))
        check("an export beside them, in the project's folder, is written",
              beside.returncode == 0 and os.path.getsize(os.path.join(project, "pages.csv")) > 0)

        no_model = run("export", "--project", project, "--what", "model")
        check("a model export without a model fails and says so",
              no_model.returncode == 1 and "no model" in no_model.stderr)
        nothing = run("export", "--project", project, "--what", "cookies")
        check("an unknown --what is a usage error", nothing.returncode == 2 and "cookies" in nothing.stderr)
        missing = run("export", "--project", os.path.join(tmp, "nowhere"), "--what", "pages")
        check("a missing project is named", missing.returncode == 1 and "nowhere" in missing.stderr)

finish()
