#!/usr/bin/python3
"""cartograph-cli export --what records and its regions, on a real project
of the demo site (serve-demo, model, extract). The demo's author pages
hold two regions of records: the author's books (the main region) and the
paragraphs of the biography. A CSV table holds the main region by default
and another with --region N or all; JSON Lines holds every region, each
record with its region_index. Checked against serve-demo --print-truth.
"""
import csv
import io
import json
import os
import tempfile

from clitest import check, demo_site, demo_truth, finish, run

FIXED = ["class", "url", "region", "region_index", "position"]


def table(result):
    reader = csv.DictReader(io.StringIO(result.stdout))
    return reader.fieldnames or [], list(reader)


with demo_site() as url:
    truth = demo_truth()
    with tempfile.TemporaryDirectory() as tmp:
        project = os.path.join(tmp, "demo")
        model = run("model", url, "--project", project, "--no-politeness")
        check("model learns the demo site", model.returncode == 0)
        extract = run("extract", "--project", project)
        check("extract runs", extract.returncode == 0)

        # JSON Lines: every region, each record with its region's index.
        r = run("export", "--project", project, "--what", "records", "--format", "jsonl", "--class", "author")
        check("author records export as JSON Lines", r.returncode == 0)
        records = [json.loads(line) for line in r.stdout.splitlines()]
        by_region = {}
        for x in records:
            by_region.setdefault(x["region_index"], []).append(x)
        check("every record carries its region's index as a number",
              records and all(isinstance(x["region_index"], int) for x in records))
        check("author records come from two regions (%s)" % sorted(by_region), sorted(by_region) == [0, 1])
        books = by_region.get(0, [])
        bios = by_region.get(1, [])

        # Region 0 is the books, in each page's order, as the truth has them.
        pages = {}
        for x in books:
            pages.setdefault(x["url"], []).append(x)
        right = 0
        for page_url, page_records in pages.items():
            expected = [t["title"] for t in truth[page_url[len(url) - 1:]]["records"]]
            got = [x.get("title") for x in sorted(page_records, key=lambda x: x["position"])]
            right += got == expected
        check("region 0 holds each author page's books, in order (%d of %d pages)" % (right, len(pages)),
              pages and right == len(pages))
        all_titles = {t["title"] for page in truth.values() for t in page.get("records", []) if "title" in t}
        check("region 1 holds the biography's paragraphs: text, no book",
              bios and all(x.get("text") and x.get("title") is None and x["text"] not in all_titles
                           for x in bios))
        check("the biography has no book columns and the books no text column",
              all("text" not in x or x["text"] is None for x in books) and
              all(x.get("title") is None for x in bios))

        # CSV: the main region by default.
        header, rows = table(run("export", "--project", project, "--what", "records", "--format", "csv",
                                 "--class", "author"))
        check("CSV of a class: the main region's columns only (%s)" % ",".join(header),
              header[:5] == FIXED and "title" in header and "text" not in header)
        check("CSV of a class: the main region's rows (%d of %d books)" % (len(rows), len(books)),
              len(rows) == len(books) and all(row["region_index"] == "0" for row in rows))
        check("CSV rows are the books",
              sorted((row["url"], row["position"], row["title"]) for row in rows) ==
              sorted((x["url"], str(x["position"]), x["title"]) for x in books))

        header, rows = table(run("export", "--project", project, "--what", "records", "--format", "csv",
                                 "--class", "author", "--region", "1"))
        check("--region 1: the biography's columns (%s)" % ",".join(header), header == FIXED + ["text"])
        check("--region 1: its rows",
              sorted((row["url"], row["position"], row["text"]) for row in rows) ==
              sorted((x["url"], str(x["position"]), x["text"]) for x in bios))

        header, rows = table(run("export", "--project", project, "--what", "records", "--format", "csv",
                                 "--class", "author", "--region", "all"))
        check("--region all: both regions' columns and rows",
              "title" in header and "text" in header and len(rows) == len(records))
        r = run("export", "--project", project, "--what", "records", "--format", "tsv", "--class", "author",
                "--region", "main")
        tsv = list(csv.DictReader(io.StringIO(r.stdout), delimiter="\t", quoting=csv.QUOTE_NONE))
        check("--region main as TSV: the books", r.returncode == 0 and len(tsv) == len(books))

        r = run("export", "--project", project, "--what", "records", "--format", "jsonl", "--class", "author",
                "--region", "1")
        one = [json.loads(line) for line in r.stdout.splitlines()]
        check("JSON Lines of one region: its records with its columns only",
              r.returncode == 0 and all(set(x) == set(FIXED) | {"text"} for x in one) and
              one == [{k: v for k, v in x.items() if v is not None} for x in bios])

        # One file per class: each its main region.
        folder = os.path.join(tmp, "records") + "/"
        r = run("export", "--project", project, "--what", "records", "--format", "csv", "--output", folder)
        with open(os.path.join(folder, "author.csv"), newline="") as f:
            folder_rows = list(csv.DictReader(f))
        check("CSV per class to a folder: the author file holds the books only",
              r.returncode == 0 and len(folder_rows) == len(books) and
              all(row["region_index"] == "0" for row in folder_rows))
        r = run("export", "--project", project, "--what", "records", "--format", "jsonl")
        every = [json.loads(line) for line in r.stdout.splitlines()]
        check("JSON Lines of every class keeps every region",
              sum(1 for x in every if x["class"] == "author") == len(records))

        # Bad regions: named, with the regions there are.
        r = run("export", "--project", project, "--what", "records", "--format", "csv", "--class", "author",
                "--region", "7")
        check("a region the class lacks is a usage error naming the regions (%s)" % r.stderr.strip(),
              r.returncode == 2 and "7" in r.stderr and "0 to 1" in r.stderr and r.stdout == "")
        r = run("export", "--project", project, "--what", "records", "--format", "csv", "--class", "book",
                "--region", "1")
        check("a region of a one-region class is named too", r.returncode == 2 and "book" in r.stderr)
        r = run("export", "--project", project, "--what", "records", "--class", "author", "--region", "first")
        check("a region that is not a number is a usage error", r.returncode == 2 and "first" in r.stderr)
        r = run("export", "--project", project, "--what", "records", "--class", "author", "--region=-1")
        check("a negative region is a usage error", r.returncode == 2 and "-1" in r.stderr)
        r = run("export", "--project", project, "--what", "pages", "--region", "0")
        check("--region is refused for pages", r.returncode == 2 and "--region" in r.stderr)
        out = os.path.join(tmp, "kept.csv")
        with open(out, "w") as existing:
            existing.write("keep me\n")
        r = run("export", "--project", project, "--what", "records", "--format", "csv", "--class", "author",
                "--region", "9", "--output", out)
        with open(out) as existing:
            check("a failed export leaves the output file as it was",
                  r.returncode == 2 and existing.read() == "keep me\n")

        # A region only some classes have, to a folder: nothing is written,
        # not the files of the classes before the one that lacks it.
        regions = os.path.join(tmp, "regions") + "/"
        r = run("export", "--project", project, "--what", "records", "--format", "csv", "--region", "1",
                "--output", regions)
        check("--region 1 of every class to a folder fails naming a class without it (%s)" % r.stderr.strip(),
              r.returncode == 2 and "no region 1" in r.stderr)
        check("... and writes no file", not os.path.exists(regions) or os.listdir(regions) == [])
        with open(os.path.join(folder, "author.csv"), newline="") as f:
            before = f.read()
        r = run("export", "--project", project, "--what", "records", "--format", "csv", "--region", "1",
                "--output", folder)
        with open(os.path.join(folder, "author.csv"), newline="") as f:
            check("... and leaves the files of an earlier export as they were",
                  r.returncode == 2 and f.read() == before)

        # One class to a folder: a file in it, named after the class.
        one_class = os.path.join(tmp, "one-class") + "/"
        r = run("export", "--project", project, "--what", "records", "--format", "tsv", "--class", "book",
                "--output", one_class)
        check("one class to a folder: CLASS.tsv in it (%s)" % r.stderr.strip(),
              r.returncode == 0 and os.listdir(one_class) == ["book.tsv"] and
              os.path.getsize(os.path.join(one_class, "book.tsv")) > 0)

finish()
