#!/usr/bin/python3
"""cartograph-cli harvest on the demo site, through the real command line:
a model, a class-driven harvest whose every page is labelled with its class
(checked here against the site's ground truth) and which reads the learning
crawl's pages back rather than fetching them again, a re-harvest that finds
nothing changed, a harvest by example, a harvest stopped with Ctrl-C and
resumed that archives each page once (and that another process cannot
resume while it runs), a harvest resumed past its page limit, and bad
command lines.
"""
import collections
import json
import os
import signal
import subprocess
import tempfile
import time

from clitest import CLI, check, demo_site, demo_truth, finish, run


def pages_of(project, crawl):
    lines = run("export", "--project", project, "--what", "pages", "--format", "jsonl").stdout.splitlines()
    return [p for p in (json.loads(l) for l in lines) if p["crawl"] == crawl]


with demo_site() as url:
    truth = {path: page["class"] for path, page in demo_truth().items()}
    with tempfile.TemporaryDirectory() as tmp:
        project = os.path.join(tmp, "demo")

        nothing = run("harvest", "--project", project)
        check("a folder that is no project is refused", nothing.returncode == 1)
        model = run("model", url, "--project", project, "--no-politeness", "--no-render", "--quiet")
        check("model learns the demo site", model.returncode == 0)
        nothing = run("harvest", "--project", project, "--resume")
        check("--resume with no harvest to resume fails and says so",
              nothing.returncode == 1 and "no harvest to resume" in nothing.stderr)

        harvest = run("harvest", "--project", project, "--no-politeness")
        check("a class-driven harvest runs", harvest.returncode == 0 and "Harvest 2" in harvest.stdout)
        check("it prints its progress per class on a pipe", "book" in harvest.stderr)
        fetched = [p for p in pages_of(project, 2) if p["mime"] == "text/html" and p["status"] == 200]
        # The first harvest reads the learning crawl's pages back instead of
        # fetching them again; they are its pages too.
        reused = [p for p in pages_of(project, 1) if p["mime"] == "text/html" and p["status"] == 200]
        check("it fetched none of the learning crawl's pages again",
              len(reused) > 100 and not {p["url"] for p in fetched} & {p["url"] for p in reused})
        check("it says how many it read back", ("%d read back from the learning crawl" % len(reused)) in harvest.stdout)
        html = fetched + reused
        check("it archived most of the site (%d pages)" % len(html), len(html) > 600)
        check("every harvested page has a class", all(p["class"] != "unclassified" for p in html))
        check("every harvested page is archived", all(p["warc_file"] and p["warc_offset"] >= 0 for p in html))
        # Each class stands for the truth class most of its pages have; the
        # labels must be that class for at least 99 % of the pages.
        votes = collections.defaultdict(collections.Counter)
        for p in html:
            votes[p["class"]][truth.get(p["url"][len(url) - 1:])] += 1
        right = sum(c.most_common(1)[0][1] for c in votes.values())
        check("%d of %d pages carry their truth class" % (right, len(html)), right >= 0.99 * len(html))
        check("no two classes stand for one template",
              len({c.most_common(1)[0][0] for c in votes.values()}) == len(votes))

        again = run("harvest", "--project", project, "--no-politeness", "--json", "--quiet")
        report = json.loads(again.stdout) if again.returncode == 0 else {}
        total = report.get("total", {})
        check("a re-harvest reports nothing changed (%s)" % total,
              total.get("changed") == 0 and total.get("new") == 0 and total.get("gone") == 0
              and total.get("unchanged") == len(html))
        check("it asked conditionally and got 304s",
              report.get("conditional_requests", 0) >= len(html) and report.get("not_modified", 0) >= len(html))
        check("its report has the classes", {c["class"] for c in report.get("classes", [])} == set(votes))

        sample = next(path for path, cls in truth.items() if cls == "book")
        like = run("harvest", "--project", project, "--no-politeness", "--no-requisites", "--no-conditional",
                   "--like", url + sample[1:])
        n_books = sum(1 for cls in truth.values() if cls == "book")
        check("a harvest by example finds the books",
              like.returncode == 0 and ("Pages like %s%s: %d" % (url, sample[1:], n_books)) in like.stdout)

        # Stopped with Ctrl-C, then resumed: each page once.
        stopped = subprocess.Popen([CLI, "harvest", "--project", project, "--no-conditional", "--delay", "0.02",
                                    "--delay-factor", "0", "--no-requisites"],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        time.sleep(3)
        # Resuming it from another process while it runs is refused, and
        # touches none of the WARC files it writes.
        warc_dir = os.path.join(project, "warc")
        sizes = {name: os.path.getsize(os.path.join(warc_dir, name)) for name in os.listdir(warc_dir)}
        meanwhile = run("harvest", "--project", project, "--resume", "--quiet")
        check("resuming a harvest that runs in another process is refused (%s)" % meanwhile.stderr.strip(),
              meanwhile.returncode == 1 and "is running in another process (%d)" % stopped.pid in meanwhile.stderr)
        check("and cuts none of its WARC files back",
              all(os.path.getsize(os.path.join(warc_dir, name)) >= size for name, size in sizes.items()))
        # Other work that writes to the project is refused at once, naming
        # the crawl, instead of finding the database locked after seconds.
        for other in (["extract"], ["model", url, "--no-render", "-n", "5"], ["crawl", url, "--max-pages", "3"]):
            started = time.monotonic()
            refused = run(*other, "--project", project, "--quiet")
            check("%s while the harvest runs elsewhere is refused at once (%s)" % (other[0], refused.stderr.strip()),
                  refused.returncode == 1 and "is running in another process (%d)" % stopped.pid in refused.stderr
                  and time.monotonic() - started < 4)
        stopped.send_signal(signal.SIGINT)
        out, err = stopped.communicate(timeout=120)
        check("Ctrl-C stops the harvest cleanly, with the status of a stop (%d)" % stopped.returncode,
              stopped.returncode == 3 and "--resume" in err)
        lines = run("export", "--project", project, "--what", "pages", "--format", "jsonl").stdout.splitlines()
        crawl = max(json.loads(l)["crawl"] for l in lines)
        before = len([p for p in pages_of(project, crawl) if p["mime"] == "text/html"])
        resumed = run("harvest", "--project", project, "--resume", "--quiet")
        after = pages_of(project, crawl)
        urls = collections.Counter(p["url"] for p in after)
        check("the resumed harvest ends (%d pages before, %d after)" % (before, len(after)),
              resumed.returncode == 0 and before < len(after))
        check("each page of it is archived once", max(urls.values()) == 1)
        check("it has the pages of the first harvest",
              {p["url"] for p in after if p["mime"] == "text/html" and p["status"] == 200} == {p["url"] for p in html})

        # Stopped at its page limit, then resumed with a higher one: it
        # goes on where it stopped, and keeps the new limit.
        limited = run("harvest", "--project", project, "--no-politeness", "--no-conditional", "--no-requisites",
                      "--max-pages", "20")
        check("a harvest ends at its page limit and says how to go further (%s)" % limited.stderr.strip()[-200:],
              limited.returncode == 0 and
              ("cartograph-cli harvest --resume --max-pages N --project %s" % project) in limited.stderr)
        lines = run("export", "--project", project, "--what", "pages", "--format", "jsonl").stdout.splitlines()
        crawl = max(json.loads(l)["crawl"] for l in lines)
        before = len([p for p in pages_of(project, crawl) if p["mime"] == "text/html"])
        refused = run("harvest", "--project", project, "--resume", "--strategy", "patterns")
        check("--resume refuses another strategy, named",
              refused.returncode == 2 and "--strategy" in refused.stderr and "limits" in refused.stderr)
        further = run("harvest", "--project", project, "--resume", "--max-pages", "100000", "--quiet")
        after = pages_of(project, crawl)
        urls = collections.Counter(p["url"] for p in after)
        check("resumed with a higher limit, it goes further (%d pages, then %d)" % (before, len(after)),
              further.returncode == 0 and before < 60 and len(after) > 300)
        check("and archives each page once", max(urls.values()) == 1)
        with open(os.path.join(project, "harvests", "crawl-%d.json" % crawl)) as state:
            kept = json.load(state)["options"]["crawl"]["max_pages"]
        check("the harvest keeps its new limit (%s)" % kept, kept == 100000)

        bad = run("harvest", "--project", project, "--strategy", "everything")
        check("an unknown strategy is a usage error", bad.returncode == 2 and "everything" in bad.stderr)
        bad = run("harvest", "--project", project, "--strategy", "like")
        check("--strategy like needs --like", bad.returncode == 2 and "--like" in bad.stderr)
        bad = run("harvest", "--project", project, "--like", "ftp://127.0.0.1/")
        check("a sample that is no http URL is refused", bad.returncode == 2 and "ftp://127.0.0.1/" in bad.stderr)
        bad = run("harvest", "--project", project, "--class-wait", "-5")
        check("a negative wait is a usage error, named",
              bad.returncode == 2 and "--class-wait cannot be negative, not -5" in bad.stderr)
        # Each of these once meant its default, silently.
        for options, message in ((["--max-repeats", "0"], "--max-repeats must be at least 1, not 0"),
                                 (["--like-pages", "0"], "--like-pages must be at least 1, not 0"),
                                 (["--like-similarity", "0"], "--like-similarity must be above 0 and at most 1, not 0"),
                                 (["--like-similarity", "1.5"], "not 1.5"),
                                 (["--model", "0"], "--model needs a version number from 1, not 0")):
            bad = run("harvest", "--project", project, *options)
            check("harvest %s is refused: %s" % (" ".join(options), bad.stderr.strip()),
                  bad.returncode == 2 and message in bad.stderr)
        bad = run("harvest", "--project", project, "--model", "9")
        check("a model version the project lacks is refused", bad.returncode == 1)
        bad = run("harvest")
        check("harvest needs --project", bad.returncode == 2 and "--project" in bad.stderr)

finish()
