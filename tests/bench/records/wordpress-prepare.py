#!/usr/bin/python3
# wordpress-prepare.py: the Python half of wordpress.sh (issue 6's WordPress
# evaluation): picks the list pages, turns Cartograph's output into the
# input of wordpress-score, and writes the report.
#
#   wordpress-prepare.py sample TRUTH.jsonl N
#       N list pages of the truth (`truth.py records`), spread over the
#       archive kinds (home, category, tag, author, date, search) and over
#       each kind's first and later pages; prints "url<TAB>class" lines.
#   wordpress-prepare.py clustvx TRUTH.jsonl LIST.tsv DIR
#       the score input of the pages fetched directly: LIST.tsv holds
#       "file<TAB>url" lines, DIR/FILE.json what `cartograph-cli clustvx
#       --json --all` printed for each.
#   wordpress-prepare.py model TRUTH.jsonl PAGES.jsonl RECORDS.jsonl
#       the score input of the model's extraction: PAGES is `export --what
#       pages --format jsonl` (the pages archived), RECORDS `export --what
#       records --format jsonl`. Every archived list page is scored, also
#       the ones that got no record.
#   wordpress-prepare.py report NAME SCORED.jsonl [CLASSES.tsv]
#       the figures of one run of wordpress-score, per archive kind and in
#       all, and the pages and records that fail, with the reason. CLASSES
#       maps each page to the model's class ("url<TAB>class").
#
# The truth's items per post are its title, its date as the theme shows
# it and its author's display name (from WordPress's database).
#
# Copyright 2026 The Cartograph authors
# SPDX-License-Identifier: GPL-3.0-or-later
import collections
import json
import sys
import urllib.parse

KINDS = ("home", "category", "tag", "author", "date", "search")
ITEMS = ("title", "date", "author")


def load_truth(path):
    pages = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            page = json.loads(line)
            pages[normalize_url(page["url"])] = page
    return pages


def normalize_url(url):
    """The form in which truth and archive URLs are compared: the path with
    a final slash, the query sorted, no fragment."""
    parts = urllib.parse.urlsplit(url)
    path = parts.path or "/"
    if not path.endswith("/"):
        path += "/"
    query = urllib.parse.urlencode(sorted(urllib.parse.parse_qsl(parts.query, keep_blank_values=True)))
    return urllib.parse.urlunsplit((parts.scheme, parts.netloc.lower(), path, query, ""))


def truth_rows(page):
    return [[r["title"], r["date_display"], r["author"]] for r in page["records"]]


def emit(entry):
    sys.stdout.write(json.dumps(entry, ensure_ascii=False) + "\n")


def sample(truth_path, n):
    """Evenly spaced pages of each kind, in the truth's order (which lists
    each archive's pages in turn), the kinds weighted equally but never
    more pages than a kind has; so a hundred pages hold first pages and
    later pages of every kind."""
    by_kind = collections.defaultdict(list)
    with open(truth_path, encoding="utf-8") as f:
        for line in f:
            page = json.loads(line)
            if page["records"]:
                by_kind[page["class"]].append(page)
    n = int(n)
    quota = {}
    left, kinds = n, sorted(by_kind, key=lambda k: len(by_kind[k]))
    for i, kind in enumerate(kinds):
        quota[kind] = min(len(by_kind[kind]), left // (len(kinds) - i))
        left -= quota[kind]
    for kind in sorted(by_kind):
        pages, q = by_kind[kind], quota[kind]
        for i in range(q):
            page = pages[(i * len(pages)) // q]
            print(page["url"] + "\t" + page["class"])


def region_rows(records):
    """A region's records as wordpress-score takes them: each record's
    items' texts (an image's alt text when it has no text)."""
    rows = []
    for record in records:
        rows.append([item.get("text") or item.get("alt") or "" for item in record.get("items", [])])
    return rows


def clustvx(truth_path, list_path, folder):
    truth = load_truth(truth_path)
    with open(list_path, encoding="utf-8") as f:
        for line in f:
            name, url = line.rstrip("\n").split("\t")
            page = truth[normalize_url(url)]
            regions = []
            try:
                with open(folder + "/" + name + ".json", encoding="utf-8") as g:
                    result = json.load(g)
                for region in result.get("regions", []):
                    regions.append({"name": region["xpath"], "records": region_rows(region["records"])})
            except (OSError, ValueError) as e:
                sys.stderr.write("wordpress-prepare: %s: %s\n" % (name, e))
            emit({"set": "clustvx", "page": page["url"], "class": page["class"],
                  "truth": truth_rows(page), "regions": regions})


def model(truth_path, pages_path, records_path):
    truth = load_truth(truth_path)
    archived = []
    seen = set()
    with open(pages_path, encoding="utf-8") as f:
        for line in f:
            page = json.loads(line)
            url = page.get("url")
            if url is None or page.get("status", 200) != 200:
                continue
            key = normalize_url(url)
            if key in truth and key not in seen:
                seen.add(key)
                archived.append((key, page.get("class")))
    regions = collections.defaultdict(lambda: collections.defaultdict(list))
    with open(records_path, encoding="utf-8") as f:
        for line in f:
            record = json.loads(line)
            key = normalize_url(record["url"])
            if key in seen:
                regions[key][(record.get("class"), record.get("region"))].append(record)
    meta = ("class", "url", "region", "position", "url_id", "id")
    for key, model_class in archived:
        page = truth[key]
        out = []
        for (cls, region), records in regions[key].items():
            records.sort(key=lambda r: r.get("position", 0))
            rows = []
            for r in records:
                fields = r.get("fields")
                if isinstance(fields, dict):
                    values = list(fields.values())
                else:
                    values = [v for k, v in r.items() if k not in meta]
                rows.append(["" if v is None else str(v) for v in values])
            out.append({"name": "%s %s" % (cls, region), "records": rows})
        emit({"set": "model", "page": page["url"], "class": page["class"], "model_class": model_class,
              "truth": truth_rows(page), "regions": out})


def rates(c):
    p = c["correct"] / c["extracted"] if c["extracted"] else 0.0
    r = c["extracted"] / c["actual"] if c["actual"] else 0.0
    rc = c["correct"] / c["actual"] if c["actual"] else 0.0
    f = 2 * p * r / (p + r) if p + r else 0.0
    fc = 2 * p * rc / (p + rc) if p + rc else 0.0
    return p, r, rc, f, fc


def report(name, scored_path, classes_path=None):
    model_class = {}
    if classes_path:
        with open(classes_path, encoding="utf-8") as f:
            for line in f:
                url, cls = line.rstrip("\n").split("\t")
                model_class[url] = cls
    pages = [json.loads(line) for line in open(scored_path, encoding="utf-8") if line.strip()]
    fmt = "{:<10} {:>5} {:>6} {:>6} {:>6} {:>6} {:>6} {:>7} {:>6} {:>8}"
    for which, title in (("best", "main region (the one whose records match best)"),
                         ("all", "all regions of the page together")):
        print("%s, %s:" % (name, title))
        print(fmt.format("kind", "pages", "actual", "extr.", "corr.", "P", "R", "R corr.", "F1", "F1 corr."))
        total = collections.Counter()
        # The kinds, then pages with one post apart from the others: ClustVX
        # looks for repetition, and a day archive often shows one post.
        groups = [(kind, lambda page, kind=kind: page["class"] == kind) for kind in KINDS]
        groups += [("1 post", lambda page: page["best"]["actual"] == 1),
                   ("2+ posts", lambda page: page["best"]["actual"] >= 2),
                   ("all", lambda page: True)]
        for kind, member in groups:
            c = collections.Counter()
            n = 0
            for page in pages:
                if member(page):
                    c.update(page[which])
                    n += 1
            if n == 0:
                continue
            pct = lambda x: "{:.1f}".format(100 * x)
            print(fmt.format(kind, n, c["actual"], c["extracted"], c["correct"], *map(pct, rates(c))))
        print()

    # Why pages fail: no region, a region that is not the posts, records
    # that hold too few of their items, records merged or split.
    failing = [p for p in pages if p["best"]["correct"] != p["best"]["actual"]
               or p["best"]["extracted"] != p["best"]["actual"]]
    print("%s: %d of %d pages not perfect in their main region." % (name, len(failing), len(pages)))
    reasons = collections.Counter()
    found_items = collections.Counter()
    for page in pages:
        for m in page["matches"]:
            if m["actual"] >= 0:
                found_items[m["found"]] += 1
    for page in failing:
        b = page["best"]
        if page["regions"] == 0 or b["extracted"] == 0:
            why = "no record extracted"
        elif b["aligned"] == 0 and b["actual"] == 1:
            why = "one post only: no region of repeated records holds it"
        elif b["aligned"] == 0:
            why = "no region holds the posts"
        else:
            parts = []
            few = sum(1 for m in page["matches"] if m["actual"] >= 0 and m["segmented"]
                      and not m["correct"])
            seg = sum(1 for m in page["matches"] if not m["segmented"])
            extra = sum(1 for m in page["matches"] if m["actual"] < 0)
            if few:
                parts.append("%d records with too few items right" % few)
            if seg:
                parts.append("%d records segmented wrongly" % seg)
            if extra:
                parts.append("%d records that stand for no post" % extra)
            if b["extracted"] < b["actual"]:
                parts.append("%d posts missing" % (b["actual"] - b["extracted"]))
            why = "; ".join(parts) or "other"
        reasons[why.split(";")[0].lstrip("0123456789 ")] += 1
        cls = page.get("model_class") or model_class.get(page["page"], "")
        print("  %-70s %-8s %s%s: %s" % (page["page"], page["class"], "model class " + cls + ", " if cls else "",
                                         "%d/%d/%d" % (b["actual"], b["extracted"], b["correct"]), why))
        for m in page["matches"][:3]:
            if not m["correct"]:
                print("      record (found %d of %d items, segmented %s): %s" %
                      (m["found"], m["values"], "yes" if m["segmented"] else "no",
                       " | ".join(t[:40] for t in m["items"][:6])))
    # ClustVX ranks its regions by visual weight; the best-matching region
    # should be its first. (The model's export has no ranking.)
    ranked = [p for p in pages if p["set"] == "clustvx" and p["best"]["correct"] > 0]
    if ranked:
        first = sum(1 for p in ranked if p["best_index"] == 0)
        print("The main region is ClustVX's first-ranked region on %d of the %d pages where one matches."
              % (first, len(ranked)))
    if found_items:
        print("Items found per aligned record of the main regions (of title, date, author):",
              ", ".join("%d: %d" % (k, found_items[k]) for k in sorted(found_items)))
    if reasons:
        print("Failing pages by first reason:", ", ".join("%s: %d" % kv for kv in reasons.most_common()))
    print()


def main():
    what, args = sys.argv[1], sys.argv[2:]
    {"sample": sample, "clustvx": clustvx, "model": model, "report": report}.get(
        what, lambda *a: sys.exit("wordpress-prepare: unknown command " + what))(*args)


if __name__ == "__main__":
    main()
