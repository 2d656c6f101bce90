#!/usr/bin/python3
"""cartograph-cli model on the demo site, scored here against its ground
truth with seed 000's F* and purity, computed independently of the core:
every sampled page is archived and labelled, every template is a class,
and the model exports in every format it has.
"""
import collections
import contextlib
import json
import os
import re
import signal
import sqlite3
import subprocess
import tempfile
import time
import xml.dom.minidom

import clitest
from clitest import check, demo_site, demo_truth, finish, index_path_of


def run(*args, **kwargs):
    return clitest.run(*args, timeout=300, **kwargs)


def f_star_and_purity(pairs):
    """pairs: (golden, computed); seed 000 eq. 5.6-5.10."""
    n = len(pairs)
    cells = collections.Counter(pairs)
    golden = collections.Counter(g for g, _ in pairs)
    computed = collections.Counter(c for _, c in pairs)
    f_star = 0.0
    for g, size in golden.items():
        best = 0.0
        for (gg, c), e in cells.items():
            if gg != g:
                continue
            p, r = e / computed[c], e / size
            best = max(best, 2 * p * r / (p + r))
        f_star += best * size / n
    purity = sum(max(e for (g, cc), e in cells.items() if cc == c) for c in computed) / n
    return f_star, purity


def model_versions(project):
    """Every (site, version) of the project's models."""
    with contextlib.closing(sqlite3.connect("file:%s?mode=ro" % os.path.join(project, "cartograph.db"),
                                            uri=True, timeout=5)) as db:
        return db.execute("SELECT site, version FROM models ORDER BY site, version").fetchall()


def start_slow_model(url, project):
    """model, one request every 0.3 s, running in the background."""
    return subprocess.Popen([clitest.CLI, "model", url, "--project", project, "--delay", "0.3", "--no-render"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def wait_for_fetches(project, count):
    """Waits until the project's crawl has fetched @count responses;
    returns how many it had."""
    deadline = time.monotonic() + 120
    fetched = 0
    while fetched < count and time.monotonic() < deadline:
        time.sleep(0.2)
        try:
            with contextlib.closing(sqlite3.connect("file:%s?mode=ro" % os.path.join(project, "cartograph.db"),
                                                    uri=True, timeout=5)) as db:
                fetched = db.execute("SELECT count(*) FROM fetches").fetchone()[0]
        except sqlite3.Error:
            pass
    return fetched


with demo_site() as url:
    truth = {path: page["class"] for path, page in demo_truth().items()}
    with tempfile.TemporaryDirectory() as tmp:
        project = os.path.join(tmp, "demo")
        model = run("model", url, "--project", project, "--no-politeness")
        check("model learns the demo site", model.returncode == 0 and "Model version 1" in model.stdout)
        rendered = os.path.join(project, "thumbnails", "model-1")
        names = os.listdir(rendered) if os.path.isdir(rendered) else []
        check("every class's samples are rendered from the archive (%d files)" % len(names),
              len({n.rsplit("-", 1)[0] for n in names if n.endswith(".png")}) >= 7)
        with open(os.path.join(rendered, "book-1.html")) as decorated:
            dom = decorated.read()
        check("the rendered samples carry boxes and fontdata",
              "data-cg-fontdata" in dom and "data-cg-width" in dom)

        # The samples of a saved model render again on their own, as the
        # window has them rendered (in a process of its own, reading the
        # machine progress).
        os.remove(os.path.join(rendered, "book-1.png"))
        again = run("model", "--project", project, "--render-only", "--machine-progress")
        lines = again.stdout.splitlines()
        progress = [l.split() for l in lines if l.startswith("progress ")]
        check("--render-only renders the samples again (%d progress lines)" % len(progress),
              again.returncode == 0 and os.path.exists(os.path.join(rendered, "book-1.png")))
        check("--machine-progress counts every sample up to the total",
              len(progress) > 0 and progress[-1][1] == progress[-1][2]
              and all(l.startswith(("progress ", "failed ")) for l in lines))
        usage = run("model", url, "--project", project, "--render-only")
        check("--render-only takes no URL", usage.returncode == 2 and "--render-only" in usage.stderr)
        missing = run("model", "--project", project, "--render-only", "--version", "99")
        check("--render-only of a version that does not exist fails, saying so",
              missing.returncode == 1 and "99" in missing.stderr)
        stray = run("model", url, "--project", project, "--site", url)
        check("--site goes with --render-only only", stray.returncode == 2 and "--render-only" in stray.stderr)

        pages = [json.loads(l) for l in run("export", "--project", project, "--what", "pages").stdout.splitlines()]
        html = [p for p in pages if p["mime"] == "text/html" and p["status"] == 200]
        check("at most 200 pages were sampled (%d)" % len(html), 0 < len(html) <= 200)
        labelled = [p for p in html if p["class"] != "unclassified"]
        check("every sampled page is labelled", len(labelled) == len(html))
        check("every sampled page is archived", all(p["warc_file"] and p["warc_offset"] >= 0 for p in html))

        pairs = []
        for p in html:
            path = p["url"][len(url) - 1:]
            if path in truth:  # the form's action (/search) is not in the ground truth
                pairs.append((truth[path], p["class"]))
        f_star, purity = f_star_and_purity(pairs)
        print("# %d evaluated pages: F* %.3f, purity %.3f" % (len(pairs), f_star, purity))
        check("F* >= 0.97", f_star >= 0.97)
        check("purity >= 0.97", purity >= 0.97)
        found = {g for g, _ in pairs}
        check("every template was sampled (%s)" % ", ".join(sorted(found)),
              found == set(truth.values()))

        spec = run("export", "--project", project, "--what", "model", "--format", "tsv")
        rows = [l.split("\t") for l in spec.stdout.splitlines() if l and not l.startswith("#")]
        check("the crawl spec has class and link rows",
              any(r[1] == "class" for r in rows) and any(r[1] == "link" for r in rows))
        as_json = json.loads(run("export", "--project", project, "--what", "model", "--format", "json").stdout)
        check("the JSON model has the classes", len(as_json["classes"]) >= 7 and as_json["version"] == 1)
        dot = run("export", "--project", project, "--what", "model", "--format", "dot").stdout
        check("the DOT graph is a digraph", dot.startswith("digraph") and "->" in dot)
        graphml = run("export", "--project", project, "--what", "model", "--format", "graphml").stdout
        nodes = xml.dom.minidom.parseString(graphml).getElementsByTagName("node")
        check("the GraphML has one node per class", len(nodes) == len(as_json["classes"]))

        again = run("model", url, "--project", project, "--no-politeness", "--pages", "50", "--quiet", "--no-render")
        versions = json.loads(run("export", "--project", project, "--what", "model").stdout)["version"]
        check("a second model is version 2", again.returncode == 0 and versions == 2)

        spec_file = os.path.join(tmp, "model.tsv")
        with open(spec_file, "w") as out:
            out.write(spec.stdout)
        imported = run("import", "--project", project, spec_file)
        check("an exported crawl spec imports as version 3",
              imported.returncode == 0 and "version 3" in imported.stdout)
        same = run("compare", "--project", project, "--site", url, "1", "3")
        check("the imported spec is the model it came from", same.returncode == 0 and "same classes" in same.stdout)
        info = run("info", "--project", project)
        check("info lists the site's model versions and the crawls that learned them (%s)" % info.stdout.strip(),
              info.returncode == 0 and "Sites with a model: 1" in info.stdout and
              "%s  (model versions 1, 2, 3)" % url in info.stdout and
              len(re.findall(r"^  \d+  explore +finished +%s  \(\d+ URLs fetched, " % re.escape(url), info.stdout,
                             re.M)) == 2)
        # The imported model labelled no page: extract labels the archived
        # pages with its classes first, as the exploration that learned
        # version 1 (whose spec it is) labelled them.
        imported_extract = run("extract", "--project", project, "--model", "3", "--site", url)
        print("# " + imported_extract.stdout.replace("\n", "\n# "))
        with contextlib.closing(sqlite3.connect(os.path.join(project, "cartograph.db"))) as db:
            labels = {}
            for version, page_url, klass in db.execute(
                    "SELECT m.version, u.url, l.class FROM page_labels l JOIN urls u ON u.id = l.url_id "
                    "JOIN models m ON m.id = l.model_id WHERE m.version IN (1, 3)"):
                labels.setdefault(version, {})[page_url] = klass
            records = db.execute("SELECT count(*) FROM records r JOIN models m ON m.id = r.model_id "
                                 "WHERE m.version = 3").fetchone()[0]
        both = set(labels.get(1, {})) & set(labels.get(3, {}))
        agree = sum(1 for u in both if labels[1][u] == labels[3][u])
        check("extract with the imported model labels the archived pages, then extracts (%s)"
              % imported_extract.stderr.strip()[-200:],
              imported_extract.returncode == 0 and records > 0 and len(labels.get(3, {})) >= len(labels.get(1, {})))
        check("... with the classes the exploration gave them (%d of %d pages)" % (agree, len(both)),
              both and agree >= 0.95 * len(both))
        differ = run("compare", "--project", project, "--site", url, "1", "2")
        check("a smaller sample's model differs from the first",
              differ.returncode == 0 and ("- class" in differ.stdout or "- link" in differ.stdout))
        hand = os.path.join(tmp, "hand.tsv")
        with open(hand, "w") as out:
            out.write("home\tlink\t//nav/a\tcategory\tlist\ncategory\tlink\t//h3/a[\tbook\tlist\n")
        refused = run("import", "--project", project, "--site", url, hand)
        check("a bad spec row is refused, naming its line",
              refused.returncode == 1 and "line 2" in refused.stderr)

        # Bad files are refused with a message naming the file and what is
        # wrong, and nothing is saved: the project keeps the versions it had.
        before = model_versions(project)

        started = time.monotonic()
        endless = clitest.run("import", "--project", project, "/dev/zero", timeout=60)
        check("an endless file is refused quickly, naming it (%.1f s)" % (time.monotonic() - started),
              endless.returncode == 1 and "/dev/zero" in endless.stderr and time.monotonic() - started < 30)

        deep = os.path.join(tmp, "deep.json")
        with open(deep, "w") as out:
            out.write("[" * 100000 + "]" * 100000 + "\n")
        nested = run("import", "--project", project, deep)
        check("JSON nested 100,000 deep is refused, not a crash (exit %d)" % nested.returncode,
              nested.returncode == 1 and "deep.json" in nested.stderr and "512 levels" in nested.stderr)
        deep_classes = os.path.join(tmp, "deep-classes.json")
        with open(deep_classes, "w") as out:
            out.write('{"site": "%s", "classes": %s}' % (url, "[" * 100000 + "]" * 100000))
        nested = run("import", "--project", project, deep_classes)
        check("deeply nested classes are refused, not a crash (exit %d)" % nested.returncode,
              nested.returncode == 1 and "512 levels" in nested.stderr)

        def import_edited(name, edit, *options):
            """Imports the first model's JSON, changed by @edit."""
            edited = json.loads(json.dumps(as_json))
            edit(edited)
            path = os.path.join(tmp, name)
            with open(path, "w") as out:
                json.dump(edited, out)
            return run("import", "--project", project, path, *options)

        first_class = as_json["classes"][0]["name"]
        bad_pattern = import_edited("bad-pattern.json", lambda m: m["classes"][0].update(url_pattern="(("))
        check("a URL pattern that is not a regular expression is refused, naming the class and pattern",
              bad_pattern.returncode == 1 and "bad-pattern.json" in bad_pattern.stderr
              and "“%s”" % first_class in bad_pattern.stderr and "“((”" in bad_pattern.stderr)
        bad_tsv = os.path.join(tmp, "bad-pattern.tsv")
        with open(bad_tsv, "w") as out:
            out.write(spec.stdout + "extra\tclass\tExtra\t((\n")
        bad_pattern = run("import", "--project", project, bad_tsv)
        check("a crawl spec's bad URL pattern is refused, naming its line",
              bad_pattern.returncode == 1 and "line %d:" % (spec.stdout.count("\n") + 1) in bad_pattern.stderr
              and "“((”" in bad_pattern.stderr)
        typed = import_edited("class-42.json", lambda m: m["classes"].__setitem__(0, 42))
        check("a class that is a number is an error, not a critical",
              typed.returncode == 1 and "Class 1" in typed.stderr and "CRITICAL" not in typed.stderr)
        typed = import_edited("patterns.json", lambda m: m.update(patterns=[None, 1, "x"]))
        check("navigation patterns that are not objects are an error, not a critical",
              typed.returncode == 1 and "Navigation pattern 1" in typed.stderr and "CRITICAL" not in typed.stderr)
        twice = import_edited("twice.json", lambda m: m["classes"].append(dict(m["classes"][0])))
        check("two classes of one name are refused",
              twice.returncode == 1 and "both called “%s”" % first_class in twice.stderr)
        for site in ("not a url", "ftp://x/"):
            bad_site = import_edited("bad-site.json", lambda m: m.update(site=site))
            check("the site %r is refused" % site, bad_site.returncode == 1 and site in bad_site.stderr)
        bad_site = run("import", "--project", project, "--site", "not a url", hand)
        check("--site that is not a URL is a usage error",
              bad_site.returncode == 2 and "--site" in bad_site.stderr and "not a url" in bad_site.stderr)
        other = import_edited("other-site.json", lambda m: None, "--site", "http://other.test/")
        check("--site that disagrees with the file's site is refused, naming both",
              other.returncode == 2 and url in other.stderr and "http://other.test/" in other.stderr)
        empty = import_edited("empty.json", lambda m: m.update(classes=[], links=[], data_links=[], patterns=[]))
        check("a model file of no class is refused (%s)" % empty.stderr.strip(),
              empty.returncode == 1 and "has no class" in empty.stderr)
        bad_xpath = import_edited("bad-xpath.json", lambda m: m["links"][0].update(xpath="//a[")
                                  if m.get("links") else m["classes"][0].update(url_pattern="(("))
        check("a bad XPath is refused in Cartograph's words alone, without libxml2's on stderr",
              bad_xpath.returncode == 1 and "XPath error" not in bad_xpath.stderr)
        check("nothing was saved by the refused imports", model_versions(project) == before)

        # A spreadsheet's TSV (with a byte order mark) and a .JSON file.
        bom_spec = os.path.join(tmp, "bom.tsv")
        with open(bom_spec, "w", encoding="utf-8-sig") as out:
            out.write(spec.stdout)
        with_bom = run("import", "--project", project, bom_spec)
        check("a crawl spec with a byte order mark imports (%s)" % with_bom.stderr.strip(), with_bom.returncode == 0)
        upper = os.path.join(tmp, "MODEL.JSON")
        with open(upper, "w") as out:
            json.dump(as_json, out)
        upper_case = run("import", "--project", project, upper)
        check("a model named .JSON is read as JSON (%s)" % upper_case.stderr.strip(), upper_case.returncode == 0)
        before = model_versions(project)

        # --site names the site of a JSON model that does not, as it does
        # for a crawl spec.
        no_site = import_edited("no-site.json", lambda m: m.pop("site"))
        check("a JSON model without a site asks for --site",
              no_site.returncode == 2 and "--site" in no_site.stderr)
        with_site = import_edited("no-site.json", lambda m: m.pop("site"), "--site", url)
        check("--site gives a JSON model its site",
              with_site.returncode == 0 and "version %d of the model of %s" % (max(v for _, v in before) + 1, url) in with_site.stdout)

        # Ctrl+C ends the learning crawl cleanly: every response fetched is
        # archived once, and no model is saved from a part of the sample.
        # SIGTERM does the same; a second Ctrl+C quits at once.
        for stop_signal in (signal.SIGINT, signal.SIGTERM):
            name = signal.Signals(stop_signal).name
            stopped_project = os.path.join(tmp, "stopped-" + name)
            stopped = start_slow_model(url, stopped_project)
            wait_for_fetches(stopped_project, 8)
            stopped.send_signal(stop_signal)
            out, err = stopped.communicate(timeout=120)
            check("%s stops the learning crawl, saying no model was learned (exit %d)" % (name, stopped.returncode),
                  stopped.returncode == 3 and "Stopping" in err and "stopped before it could learn a model" in err
                  and "Model version" not in out)
            pages = run("export", "--project", stopped_project, "--what", "pages", "--format", "jsonl").stdout
            urls = collections.Counter(json.loads(l)["url"] for l in pages.splitlines())
            check("after %s, what was fetched is archived, each page once (%d pages)" % (name, len(urls)),
                  len(urls) >= 8 and max(urls.values()) == 1)
        twice_project = os.path.join(tmp, "stopped-twice")
        twice = start_slow_model(url, twice_project)
        wait_for_fetches(twice_project, 8)
        twice.send_signal(signal.SIGINT)
        time.sleep(0.2)
        twice.send_signal(signal.SIGINT)
        out, err = twice.communicate(timeout=60)
        check("a second Ctrl+C quits at once, with no model", twice.returncode == 3 and "Model version" not in out)

        # Killed with SIGKILL, an exploration stays recorded as running, its
        # last WARC file unfinished: explorations are not resumed, so the
        # next one ends it, cut back to what it committed, indexed, closed.
        killed_project = os.path.join(tmp, "killed")
        killed = start_slow_model(url, killed_project)
        wait_for_fetches(killed_project, 8)
        killed.send_signal(signal.SIGKILL)
        killed.communicate(timeout=60)
        again = run("model", url, "--project", killed_project, "--no-politeness", "--no-render", "--quiet")
        with contextlib.closing(sqlite3.connect(os.path.join(killed_project, "cartograph.db"))) as db:
            states = db.execute("SELECT id, state FROM crawls ORDER BY id").fetchall()
            files = db.execute("SELECT name, committed_size, closed FROM warc_files WHERE crawl_id = 1").fetchall()
        warc_dir = os.path.join(killed_project, "warc")
        check("after a killed exploration, the next one runs, and the killed one is stopped (%s)" % states,
              again.returncode == 0 and states == [(1, "stopped"), (2, "finished")])
        check("its WARC files are cut back to what it committed, closed and indexed (%s)" % files,
              files and all(os.path.getsize(os.path.join(warc_dir, name)) == committed and closed == 1
                            and os.path.exists(index_path_of(os.path.join(warc_dir, name)))
                            for name, committed, closed in files))

        bad = run("model", url, "--project", project, "--pages", "0")
        check("--pages 0 is a usage error", bad.returncode == 2 and "--pages" in bad.stderr)

finish()
