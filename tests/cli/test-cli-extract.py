#!/usr/bin/python3
"""cartograph-cli extract and export --what records on the demo site, end
to end through the real command line: serve-demo, model (which renders the
classes' samples), extract, then the records exported as CSV and JSON
Lines, scored here against serve-demo --print-truth independently of the
core's metrics: record-level precision, recall and F1 with seed 003's
criterion (a record is right when more than 60 % of its true values are
found in it), on each list page's main region, and the book attributes on
every sampled book page. Bad command lines get clear errors.
"""
import csv
import io
import json
import os
import pty
import re
import signal
import subprocess
import tempfile
import unicodedata

from clitest import CLI, check, demo_site, demo_truth, finish, run


def words(text):
    """The words of a text: NFKC, case-folded, runs of letters and digits."""
    return re.findall(r"\w+", unicodedata.normalize("NFKC", text or "").casefold())


def found(value, record_words):
    """A true value is found when its words appear, in order and
    contiguous, in the extracted record's words."""
    w = words(value)
    if not w:
        return None
    n = len(w)
    return any(record_words[i:i + n] == w for i in range(len(record_words) - n + 1))


def score_page(actual, extracted):
    """Greedy one-to-one alignment of true and extracted records by the
    share of true values found; returns (n_actual, n_extracted, n_correct)."""
    pairs = []
    extracted_words = [[w for v in record for w in words(v)] for record in extracted]
    for a, record in enumerate(actual):
        values = [v for v in record if words(v)]
        for e, ew in enumerate(extracted_words):
            hits = sum(1 for v in values if found(v, ew))
            if values and hits:
                pairs.append((hits / len(values), hits, -abs(a - e), a, e))
    pairs.sort(reverse=True)
    used_a, used_e, correct = set(), set(), 0
    for share, _, _, a, e in pairs:
        if a in used_a or e in used_e:
            continue
        used_a.add(a)
        used_e.add(e)
        if share > 0.6:
            correct += 1
    return len(actual), len(extracted), correct


def f1(n_actual, n_extracted, n_correct):
    p = n_correct / n_extracted if n_extracted else 0
    r = n_correct / n_actual if n_actual else 0
    return 2 * p * r / (p + r) if p + r else 0, p, r


with demo_site() as url:
    truth = demo_truth()
    with tempfile.TemporaryDirectory() as tmp:
        project = os.path.join(tmp, "demo")

        # Bad command lines first: no project, no model yet.
        r = run("extract")
        check("extract without --project is a usage error", r.returncode == 2 and "--project" in r.stderr)
        r = run("extract", "--project", os.path.join(tmp, "nowhere"))
        check("extract on a missing project fails and says so", r.returncode == 1 and "nowhere" in r.stderr)

        model = run("model", url, "--project", project, "--no-politeness")
        check("model learns the demo site", model.returncode == 0)

        r = run("extract", "--project", project, "--class", "no-such-class")
        check("an unknown class is named, with the model's classes",
              r.returncode == 2 and "no-such-class" in r.stderr and "book" in r.stderr)
        r = run("extract", "--project", project, "--model", "7")
        check("an unknown model version fails", r.returncode == 1 and "7" in r.stderr)
        r = run("export", "--project", project, "--what", "records")
        check("export before extract says there are no records",
              r.returncode == 1 and "no extracted records" in r.stderr)

        extract = run("extract", "--project", project)
        check("extract runs (%s)" % extract.stderr.strip()[-200:], extract.returncode == 0)
        summary = extract.stdout
        print("# " + summary.replace("\n", "\n# "))
        kinds = dict(re.findall(r"^  (\S+)\s+(list|detail)\s", summary, re.M))
        check("book pages get a detail wrapper", kinds.get("book") == "detail")
        check("category, author, search and home pages get list wrappers",
              all(kinds.get(c) == "list" for c in ("category", "author", "search", "home")))

        # JSON Lines: every class in one stream.
        r = run("export", "--project", project, "--what", "records", "--format", "jsonl")
        check("records export as JSON Lines", r.returncode == 0)
        records = [json.loads(l) for l in r.stdout.splitlines()]
        check("every record carries its class, page URL, region and position",
              records and all(isinstance(x["class"], str) and x["url"].startswith(url) and
                              x["region"].startswith("/html") and isinstance(x["position"], int)
                              for x in records))

        by_page = {}
        for x in records:
            by_page.setdefault(x["url"], []).append(x)
        totals = {}
        for page_url, page_records in by_page.items():
            path = page_url[len(url) - 1:]
            page = truth.get(path)
            if page is None or "records" not in page:
                continue
            page_records.sort(key=lambda x: x["position"])
            main = page_records[0]["region"]
            fixed = {"class", "url", "region", "position"}
            extracted = [[v for k, v in x.items() if k not in fixed and isinstance(v, str)]
                         for x in page_records if x["region"] == main]
            actual = [list(t.values()) for t in page["records"]]
            counts = score_page(actual, extracted)
            total = totals.setdefault(page["class"], [0, 0, 0])
            for i in range(3):
                total[i] += counts[i]
        for klass, (n_actual, n_extracted, n_correct) in sorted(totals.items()):
            score, p, rec = f1(n_actual, n_extracted, n_correct)
            check("%s: F1 %.4f (precision %.4f, recall %.4f, %d true records) >= 0.99"
                  % (klass, score, p, rec, n_actual), score >= 0.99)
        check("list pages of five classes were scored", len(totals) >= 5)

        books = [x for x in records if x["class"] == "book"]
        book_paths = {p for p, t in truth.items() if t["class"] == "book"}
        pages = [json.loads(l) for l in run("export", "--project", project, "--what", "pages").stdout.splitlines()]
        sampled = {p["url"] for p in pages if p["class"] == "book" and p["status"] == 200}
        check("the sample has book pages (%d)" % len(sampled), len(sampled) > 0)
        by_url = {x["url"]: x for x in books}
        right = 0
        for page_url in sampled:
            item = truth[page_url[len(url) - 1:]]["item"]
            record = by_url.get(page_url)
            if record and all(record.get(f) == item[v] for f, v in
                              (("title", "title"), ("publisher", "publisher"), ("isbn_13", "isbn"),
                               ("price", "price"), ("pages", "pages"))):
                right += 1
        check("a detail record with title, publisher, ISBN, price and pages for every sampled book page "
              "(%d of %d)" % (right, len(sampled)), right == len(sampled) and len(books) == len(sampled))
        check("every book record comes from a book page",
              all(x["url"][len(url) - 1:] in book_paths for x in books))

        # CSV: one class per table.
        r = run("export", "--project", project, "--what", "records", "--format", "csv")
        check("CSV of several classes asks for a class or a folder",
              r.returncode == 2 and "--class" in r.stderr)
        r = run("export", "--project", project, "--what", "records", "--format", "csv", "--class", "book")
        rows = list(csv.DictReader(io.StringIO(r.stdout)))
        check("one class exports as CSV", r.returncode == 0 and len(rows) == len(books))
        check("CSV rows carry url, region, position and the fields by name",
              rows and all(row["url"] in by_url and row["region"] == "/html[1]" and row["position"] == "0" and
                           row["title"] == by_url[row["url"]]["title"] for row in rows))
        folder = os.path.join(tmp, "records") + "/"
        r = run("export", "--project", project, "--what", "records", "--format", "csv", "--output", folder)
        files = sorted(os.listdir(folder)) if os.path.isdir(folder) else []
        check("CSV to a folder writes one file per class (%s)" % ", ".join(files),
              r.returncode == 0 and "book.csv" in files and "category.csv" in files)
        with open(os.path.join(folder, "category.csv"), newline="") as f:
            category_rows = list(csv.DictReader(f))
        check("the category file holds the category records",
              len(category_rows) == sum(1 for x in records if x["class"] == "category"))
        r = run("export", "--project", project, "--what", "records", "--class", "nope")
        check("export of an unknown class is a usage error", r.returncode == 2 and "nope" in r.stderr)
        r = run("export", "--project", project, "--what", "pages", "--class", "book")
        check("--class is refused for pages", r.returncode == 2)

        # Learned once: a second run keeps the wrappers, --relearn remakes them.
        again = run("extract", "--project", project, "--class", "book", "-q")
        check("extract of one class again", again.returncode == 0 and again.stdout == "")
        r = run("export", "--project", project, "--what", "records", "--class", "book")
        check("extracting again replaces a page's records rather than adding to them",
              len(r.stdout.splitlines()) == len(books))
        relearn = run("extract", "--project", project, "--class", "book", "--relearn")
        check("--relearn learns the wrapper again", relearn.returncode == 0 and "detail" in relearn.stdout)

        # Stopped by SIGTERM (or Ctrl+C) once it is under way, on a terminal
        # so that its progress says when: it says so, keeps what it did, and
        # exits with the status of a stop.
        for stop_signal in (signal.SIGTERM, signal.SIGINT):
            name = signal.Signals(stop_signal).name
            master, slave = pty.openpty()
            stopped = subprocess.Popen([CLI, "extract", "--project", project], stdin=subprocess.DEVNULL,
                                       stdout=subprocess.PIPE, stderr=slave)
            os.close(slave)
            seen = b""
            while b"Extracting" not in seen:
                try:
                    chunk = os.read(master, 4096)
                except OSError:
                    break
                if not chunk:
                    break
                seen += chunk
            stopped.send_signal(stop_signal)
            stopped.communicate(timeout=120)
            try:
                while True:
                    chunk = os.read(master, 4096)
                    if not chunk:
                        break
                    seen += chunk
            except OSError:
                pass
            os.close(master)
            text = seen.decode("utf-8", "replace")
            check("%s stops extract, which says so (exit %d)" % (name, stopped.returncode),
                  stopped.returncode == 3 and "Stopped: the records of the pages done are kept" in text)
        done = run("extract", "--project", project, "-q")
        r = run("export", "--project", project, "--what", "records", "--class", "book")
        check("extract again after a stop ends with every record",
              done.returncode == 0 and len(r.stdout.splitlines()) == len(books))

finish()
