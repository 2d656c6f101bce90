#!/usr/bin/python3
"""truth.py: the ground truth of the benchmark WordPress site, from WordPress
itself.

  truth.py classes     every URL of the site, with its class: one JSON object
                       a line, {"url", "class", "body_class", "kind"}
  truth.py records     every list page (home, category, tag, author, date and
                       search archives, each of their pages) with the posts it
                       shows, in order: {"url", "class", "archive", "page",
                       "records": [{"id", "title", "date", "date_display",
                       "author", "url"}]}
  truth.py classify    the class of the URLs given (arguments, or one a line
                       on standard input with -), fetched now:
                       {"url", "status", "class", "body_class"}
  truth.py check       fetches every URL and checks that the class each page
                       declares is the kind of URL it was listed as, and that
                       each list page shows the posts `records` says, in that
                       order; exit status 1 when anything differs

The URLs are enumerated from the database (posts, pages, category, tag,
author and date archives with all their pages, the home pages, searches for
a few words). The class of a page is read from its <body class="...">:
WordPress's template classes (home, single, page, category, tag, author,
date, search, error404; "paged" pages take the class of page 1; see
CLASS_OF_BODY). The records come from the database through the mysql
client, with WordPress's own selection and order (post_date descending,
searches first by a match in the title) and its paging (posts_per_page),
never from the HTML.

The site is found from the same settings as setup.sh: CG_WP_PORT (8650) and
CG_WP_DIR (/var/lib/cartograph-wordpress), or --port and --dir.
"""

# Copyright 2026 The Cartograph authors
# SPDX-License-Identifier: GPL-3.0-or-later

import argparse
import concurrent.futures
import datetime
import html.parser
import http.client
import json
import os
import re
import subprocess
import sys
import threading
import urllib.parse

DB_USER = "cartograph"
DB_PASSWORD = "cartograph-bench"
SEARCH_WORDS = ["kernel", "firewall", "printer", "mirror", "samba"]
MAX_PAGE_BYTES = 8 * 1024 * 1024

# WordPress's body classes, in the order WordPress's template loader tests
# its conditions (wp-includes/template-loader.php): the first one present
# names the class.
CLASS_OF_BODY = [
    ("error404", "error404"),
    ("search", "search"),
    ("blog", "home"),
    ("attachment", "attachment"),
    ("single", "single"),
    ("page", "page"),
    ("category", "category"),
    ("tag", "tag"),
    ("author", "author"),
    ("date", "date"),
    ("archive", "archive"),
    ("login", "login"),
]


def fail(message):
    sys.exit("truth.py: " + message)


def class_of_body(body_class):
    tokens = set(body_class.split())
    for token, name in CLASS_OF_BODY:
        if token in tokens:
            return name
    return "other"


class Database:
    """The site's database, read through Debian's mysql client."""

    def __init__(self, state, port):
        self.socket = os.path.join(state, "mariadb-run", "mariadb.sock")
        self.name = "cg_wordpress_%d" % port
        if not os.path.exists(self.socket):
            fail("no MariaDB socket at %s: run setup.sh first" % self.socket)

    def query(self, sql):
        """Rows of the last result of SQL, as lists of strings."""
        result = subprocess.run(
            ["mariadb", "--no-defaults", "--socket=" + self.socket, "--user=" + DB_USER,
             "--password=" + DB_PASSWORD, "--batch", "--raw", "--skip-column-names",
             "--default-character-set=utf8mb4", self.name],
            input=sql, capture_output=True, text=True)
        if result.returncode != 0:
            fail("the database query failed: %s" % result.stderr.strip())
        return [line.split("\t") for line in result.stdout.splitlines()]

    def queries(self, named):
        """Runs many queries in one client: {name: sql} -> {name: rows}. A
        marker row before each result tells them apart."""
        script = []
        for i, sql in enumerate(named.values()):
            script.append("SELECT '#result', %d;" % i)
            script.append(sql.rstrip(";") + ";")
        rows = self.query("\n".join(script))
        names = list(named)
        results = {name: [] for name in names}
        current = None
        for row in rows:
            if row[0] == "#result":
                current = names[int(row[1])]
            else:
                results[current].append(row)
        return results


def sql_like(word):
    # The words are checked to be letters only, so they need no escaping.
    return "'%%%s%%'" % word


class Site:
    """What the database says the site holds, and the URL of each thing."""

    def __init__(self, db, searches):
        self.db = db
        options = dict(db.query(
            "SELECT option_name, option_value FROM wp_options WHERE option_name IN "
            "('home', 'posts_per_page', 'permalink_structure', 'category_base', 'tag_base', "
            "'show_on_front', 'date_format')"))
        self.home = options["home"].rstrip("/") + "/"
        self.per_page = int(options["posts_per_page"])
        self.structure = options["permalink_structure"]
        self.category_base = options.get("category_base") or "category"
        self.tag_base = options.get("tag_base") or "tag"
        self.date_format = options.get("date_format", "F j, Y")
        if not self.structure:
            fail("the site has no pretty permalinks: run setup.sh again")
        if options.get("show_on_front", "posts") != "posts":
            fail("the site's front page is a static page; truth.py knows blogs that list posts there")
        for word in searches:
            if not re.fullmatch(r"[A-Za-z]+", word):
                fail("search word '%s' is not letters only" % word)
        self.searches = searches

        rows = db.query(
            "SELECT p.ID, p.post_type, p.post_name, p.post_parent, p.post_date, p.post_title, "
            "u.ID, u.user_nicename, u.display_name FROM wp_posts p JOIN wp_users u ON u.ID = p.post_author "
            "WHERE p.post_status = 'publish' AND p.post_type IN ('post', 'page')")
        self.posts = {}
        for pid, ptype, name, parent, date, title, uid, nicename, display in rows:
            self.posts[int(pid)] = {"id": int(pid), "type": ptype, "name": name, "parent": int(parent),
                                    "date": date, "title": title, "author_id": int(uid),
                                    "author_nicename": nicename, "author": display}
        dates = [p["date"] for p in self.posts.values() if p["type"] == "post"]
        if len(dates) != len(set(dates)):
            print("truth.py: warning: posts share a date; WordPress's order among them is the "
                  "database's, which these records may not follow", file=sys.stderr)

        self.terms = {}
        for term_id, tt_id, taxonomy, slug, parent in db.query(
                "SELECT t.term_id, tt.term_taxonomy_id, tt.taxonomy, t.slug, tt.parent FROM wp_terms t "
                "JOIN wp_term_taxonomy tt ON tt.term_id = t.term_id "
                "WHERE tt.taxonomy IN ('category', 'post_tag')"):
            self.terms[int(term_id)] = {"id": int(term_id), "tt_id": int(tt_id), "taxonomy": taxonomy,
                                        "slug": slug, "parent": int(parent)}

    # --- URLs --------------------------------------------------------------
    def permalink(self, post):
        if post["type"] == "page":
            path = [post["name"]]
            parent = post["parent"]
            while parent and parent in self.posts:
                path.insert(0, self.posts[parent]["name"])
                parent = self.posts[parent]["parent"]
            return self.home + "/".join(path) + "/"
        d = datetime.datetime.strptime(post["date"], "%Y-%m-%d %H:%M:%S")
        fields = {"%year%": "%04d" % d.year, "%monthnum%": "%02d" % d.month, "%day%": "%02d" % d.day,
                  "%hour%": "%02d" % d.hour, "%minute%": "%02d" % d.minute, "%second%": "%02d" % d.second,
                  "%postname%": post["name"], "%post_id%": str(post["id"]),
                  "%author%": post["author_nicename"]}
        unknown = set(re.findall(r"%[a-z_]+%", self.structure)) - set(fields)
        if unknown:
            fail("the permalink structure %s has tags truth.py does not know: %s"
                 % (self.structure, " ".join(sorted(unknown))))
        path = self.structure
        for tag, value in fields.items():
            path = path.replace(tag, value)
        return self.home + path.lstrip("/")

    def category_path(self, term):
        slugs = [term["slug"]]
        parent = term["parent"]
        while parent and parent in self.terms:
            slugs.insert(0, self.terms[parent]["slug"])
            parent = self.terms[parent]["parent"]
        return "/".join(slugs)

    def descendants(self, term_id):
        found = {term_id}
        changed = True
        while changed:
            changed = False
            for term in self.terms.values():
                if term["parent"] in found and term["id"] not in found:
                    found.add(term["id"])
                    changed = True
        return found

    def paged(self, base, page, query=""):
        url = base if page == 1 else "%spage/%d/" % (base, page)
        return url + query

    def archives(self):
        """Every list page's archive: (class, archive name, base URL, query
        string, SQL selecting its posts in WordPress's order)."""
        published = "p.post_type = 'post' AND p.post_status = 'publish'"
        order = "ORDER BY p.post_date DESC"
        found = [("home", "home", self.home, "",
                  "SELECT p.ID FROM wp_posts p WHERE %s %s" % (published, order))]
        for term in sorted(self.terms.values(), key=lambda t: t["id"]):
            if term["taxonomy"] == "category":
                # A category's archive shows its subcategories' posts too.
                ids = ",".join(str(self.terms[t]["tt_id"]) for t in sorted(self.descendants(term["id"])))
                base = "%s%s/%s/" % (self.home, self.category_base, self.category_path(term))
                name, cls = "category:" + self.category_path(term), "category"
            else:
                ids = str(term["tt_id"])
                base = "%s%s/%s/" % (self.home, self.tag_base, term["slug"])
                name, cls = "tag:" + term["slug"], "tag"
            found.append((cls, name, base, "",
                          "SELECT p.ID FROM wp_posts p JOIN wp_term_relationships r ON r.object_id = p.ID "
                          "WHERE r.term_taxonomy_id IN (%s) AND %s GROUP BY p.ID %s" % (ids, published, order)))
        authors = sorted({(p["author_id"], p["author_nicename"]) for p in self.posts.values() if p["type"] == "post"})
        for uid, nicename in authors:
            found.append(("author", "author:" + nicename, "%sauthor/%s/" % (self.home, nicename), "",
                          "SELECT p.ID FROM wp_posts p WHERE p.post_author = %d AND %s %s" % (uid, published, order)))
        days = sorted({p["date"][:10] for p in self.posts.values() if p["type"] == "post"})
        for part, width in (("year", 4), ("month", 7), ("day", 10)):
            for value in sorted({d[:width] for d in days}):
                numbers = [int(n) for n in value.split("-")]
                conditions = ["YEAR(p.post_date) = %d" % numbers[0]]
                if len(numbers) > 1:
                    conditions.append("MONTH(p.post_date) = %d" % numbers[1])
                if len(numbers) > 2:
                    conditions.append("DAYOFMONTH(p.post_date) = %d" % numbers[2])
                base = self.home + "/".join("%02d" % n if i else "%04d" % n for i, n in enumerate(numbers)) + "/"
                found.append(("date", "%s:%s" % (part, value), base, "",
                              "SELECT p.ID FROM wp_posts p WHERE %s AND %s %s"
                              % (" AND ".join(conditions), published, order)))
        for word in self.searches:
            like = sql_like(word)
            # WP_Query's search: every searchable type, a match in the title,
            # excerpt or content, titles that match first (one word).
            found.append(("search", "search:" + word, self.home, "?s=" + urllib.parse.quote(word),
                          "SELECT p.ID FROM wp_posts p WHERE ((p.post_title LIKE %s) OR (p.post_excerpt LIKE %s) "
                          "OR (p.post_content LIKE %s)) AND p.post_type IN ('post', 'page', 'attachment') "
                          "AND (p.post_status = 'publish' OR (p.post_type = 'attachment' AND p.post_status = 'inherit')) "
                          "ORDER BY p.post_title LIKE %s DESC, p.post_date DESC" % (like, like, like, like)))
        return found

    def list_pages(self):
        """Every page of every archive, with the posts it shows."""
        archives = self.archives()
        results = self.db.queries({name: sql for _, name, _, _, sql in archives})
        pages = []
        for cls, name, base, query, _ in archives:
            ids = [int(row[0]) for row in results[name]]
            count = max(1, -(-len(ids) // self.per_page))
            for page in range(1, count + 1):
                shown = ids[(page - 1) * self.per_page: page * self.per_page]
                pages.append({"url": self.paged(base, page, query), "class": cls, "archive": name,
                              "page": page, "records": [self.record(i) for i in shown]})
        return pages

    def record(self, pid):
        post = self.posts[pid]
        d = datetime.datetime.strptime(post["date"], "%Y-%m-%d %H:%M:%S")
        return {"id": pid, "title": post["title"], "date": post["date"],
                "date_display": php_date(self.date_format, d), "author": post["author"],
                "url": self.permalink(post)}

    def urls(self):
        """Every URL of the site with the kind of page it was listed as."""
        found = []
        for post in sorted(self.posts.values(), key=lambda p: (p["type"], p["date"], p["id"])):
            found.append((self.permalink(post), "single" if post["type"] == "post" else "page"))
        for page in self.list_pages():
            found.append((page["url"], page["class"]))
        return found


def php_date(fmt, d):
    """The few PHP date() letters of WordPress's usual date formats."""
    letters = {"F": d.strftime("%B"), "M": d.strftime("%b"), "j": str(d.day), "d": "%02d" % d.day,
               "Y": "%04d" % d.year, "y": "%02d" % (d.year % 100), "n": str(d.month), "m": "%02d" % d.month}
    return "".join(letters.get(c, c) for c in fmt)


class BodyParser(html.parser.HTMLParser):
    """The body's class attribute and, for list pages, the ids of the posts
    shown, in order, from post_class()'s "post-ID ... type-post"."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.body_class = None
        self.post_ids = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        classes = (attrs.get("class") or "").split()
        if tag == "body" and self.body_class is None:
            self.body_class = " ".join(classes)
        elif "type-post" in classes or "type-page" in classes:
            for c in classes:
                match = re.fullmatch(r"post-(\d+)", c)
                if match:
                    self.post_ids.append(int(match.group(1)))
                    break


class Fetcher:
    """GET on the site's own host, one keep-alive connection per thread,
    redirects not followed."""

    def __init__(self, home):
        parts = urllib.parse.urlsplit(home)
        if parts.hostname != "127.0.0.1":
            fail("the site's home %s is not on 127.0.0.1" % home)
        self.host, self.port = parts.hostname, parts.port or 80
        self.local = threading.local()

    def get(self, url):
        parts = urllib.parse.urlsplit(url)
        if parts.hostname != self.host or (parts.port or 80) != self.port:
            return None, ""
        path = parts.path + ("?" + parts.query if parts.query else "")
        for attempt in range(2):
            if getattr(self.local, "connection", None) is None:
                self.local.connection = http.client.HTTPConnection(self.host, self.port, timeout=60)
            try:
                self.local.connection.request("GET", path, headers={"User-Agent": "cartograph-truth"})
                response = self.local.connection.getresponse()
                body = response.read(MAX_PAGE_BYTES)
                kind = response.getheader("Content-Type", "")
                return response.status, body.decode("utf-8", "replace") if "html" in kind else ""
            except (http.client.HTTPException, OSError):
                self.local.connection.close()
                self.local.connection = None
                if attempt:
                    raise
        return None, ""


def fetch_all(fetcher, urls, jobs):
    def one(url):
        status, text = fetcher.get(url)
        parser = BodyParser()
        if text:
            parser.feed(text)
        return url, status, parser
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        return list(pool.map(one, urls))


def emit(obj):
    sys.stdout.write(json.dumps(obj, ensure_ascii=False) + "\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, default=int(os.environ.get("CG_WP_PORT", "8650")))
    parser.add_argument("--dir", default=os.environ.get("CG_WP_DIR", "/var/lib/cartograph-wordpress"))
    parser.add_argument("--jobs", type=int, default=4, help="parallel requests (default 4)")
    parser.add_argument("--search", action="append", metavar="WORD",
                        help="a search to list (repeatable; default: %s)" % " ".join(SEARCH_WORDS))
    parser.add_argument("command", choices=["classes", "records", "classify", "check"])
    parser.add_argument("urls", nargs="*", help="classify: URLs, or - to read them from standard input")
    args = parser.parse_args()
    if not 1 <= args.jobs <= 16:
        fail("--jobs must be from 1 to 16")

    site = Site(Database(args.dir, args.port), args.search or SEARCH_WORDS)
    fetcher = Fetcher(site.home)

    if args.command == "records":
        for page in site.list_pages():
            emit(page)
        return 0

    if args.command == "classify":
        urls = args.urls
        if urls == ["-"]:
            urls = [line.strip() for line in sys.stdin if line.strip()]
        for url, status, body in fetch_all(fetcher, urls, args.jobs):
            cls = class_of_body(body.body_class) if body.body_class is not None else None
            emit({"url": url, "status": status, "class": cls, "body_class": body.body_class})
        return 0

    listed = site.urls()
    kinds = dict(listed)
    if len(kinds) != len(listed):
        fail("two things of the site have the same URL")
    fetched = fetch_all(fetcher, [url for url, _ in listed], args.jobs)

    if args.command == "classes":
        for url, status, body in fetched:
            if status != 200 or body.body_class is None:
                print("truth.py: %s answered %s" % (url, status), file=sys.stderr)
                continue
            emit({"url": url, "class": class_of_body(body.body_class), "body_class": body.body_class,
                  "kind": kinds[url]})
        return 0

    # check
    problems = 0
    records = {page["url"]: [r["id"] for r in page["records"]] for page in site.list_pages()}
    for url, status, body in fetched:
        cls = class_of_body(body.body_class) if body.body_class is not None else None
        if status != 200 or cls != kinds[url]:
            print("%s: listed as %s, answered %s with class %s" % (url, kinds[url], status, cls))
            problems += 1
        elif url in records and body.post_ids != records[url]:
            print("%s: the database says posts %s, the page shows %s" % (url, records[url], body.post_ids))
            problems += 1
    counts = {}
    for _, kind in listed:
        counts[kind] = counts.get(kind, 0) + 1
    print("%d URLs (%s), %d list pages with %d records: %d problems"
          % (len(listed), ", ".join("%s %d" % kv for kv in sorted(counts.items())), len(records),
             sum(len(r) for r in records.values()), problems))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
