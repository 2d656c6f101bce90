#!/usr/bin/python3
# make-content.py: the content of the benchmark's WordPress site, as JSON.
#
# The text is real English prose: The Debian Administrator's Handbook, which
# Debian packages as debian-handbook (HTML in /usr/share/doc), for the posts
# and comments, and the licence texts in /usr/share/common-licenses for some
# static pages. No text is made up and none is used twice.
#
#   posts       runs of consecutive paragraphs of the book, in the book's
#               order, one to five paragraphs each, keeping the book's own
#               links to other sites; each ends with a link to the section
#               of the book it comes from. The title is a short sentence of
#               the post itself.
#   dates       spread over four years, in the book's order, each post at a
#               distinct second so that WordPress's date order has no ties.
#   categories  a fixed tree of parents and children following the book's
#               chapters, plus a second category for some posts.
#   tags        the book's own keywords for the section of each post.
#   authors     six, drawn with unequal weights.
#   comments    on many posts: the book's short paragraphs and the sentences
#               of the paragraphs that no post uses, some as replies, some by
#               the post's author, some commenters with a web site.
#   pages       the book's foreword and introduction, and licence texts,
#               nested under two parents.
#
# The output depends only on the arguments and the packaged texts: the same
# seed gives the same site.
#
# Copyright 2026 The Cartograph authors
# SPDX-License-Identifier: GPL-3.0-or-later

import argparse
import datetime
import html
import html.parser
import json
import os
import random
import re
import sys

HANDBOOK = "/usr/share/doc/debian-handbook/html/en-US"
LICENSES = "/usr/share/common-licenses"
CANONICAL = "https://debian-handbook.info/browse/stable/"

# Paragraph sizes: long ones make posts, short ones comments.
POST_PARAGRAPH_MIN = 120
COMMENT_MIN, COMMENT_MAX = 50, 260
FIRST_DATE = datetime.datetime(2019, 3, 1, 8, 0, 0)
LAST_DATE = datetime.datetime(2023, 2, 27, 20, 0, 0)

# Sections that become static pages rather than posts.
PAGE_SECTIONS = {
    "foreword.html", "preface.html", "sect.who-is-this-book-for.html",
    "sect.book-structure.html", "sect.acknowledgments.html",
    "sect.contributing.html", "sect.future-of-this-book.html",
}

# category slug: (name, parent slug, description)
CATEGORIES = {
    "debian": ("Debian", None, "The Debian project, its packages and its relatives."),
    "project": ("The project", "debian", "How the Debian project works."),
    "packaging": ("Packaging", "debian", "Packages, their formats and how they are made."),
    "derivatives": ("Derivatives", "debian", "Distributions built on Debian."),
    "administration": ("System administration", None, "Installing and running Debian systems."),
    "installation": ("Installation", "administration", "Installing and migrating systems."),
    "apt": ("Updates and APT", "administration", "Keeping systems up to date."),
    "configuration": ("Configuration", "administration", "Configuring a system and its services."),
    "troubleshooting": ("Troubleshooting", "administration", "Finding and solving problems."),
    "advanced": ("Advanced administration", "administration", "RAID, LVM, virtualization, automation, monitoring."),
    "networking": ("Networking", None, "Networks and the services they carry."),
    "infrastructure": ("Infrastructure", "networking", "Gateways, VPNs, DNS, DHCP and routing."),
    "services": ("Network services", "networking", "Web, mail, file and directory servers."),
    "desktop": ("Desktop", None, "Workstations and graphical environments."),
    "security": ("Security", None, "Firewalls, supervision and access control."),
    "uncategorized": ("Miscellany", None, "Everything else."),
}

CHAPTER_CATEGORY = {
    "the-debian-project.html": "project", "conclusion.html": "project",
    "case-study.html": "installation", "existing-setup.html": "installation",
    "installation.html": "installation",
    "packaging-system.html": "packaging", "debian-packaging.html": "packaging",
    "apt.html": "apt", "solving-problems.html": "troubleshooting",
    "basic-configuration.html": "configuration", "unix-services.html": "configuration",
    "short-remedial-course.html": "troubleshooting",
    "network-infrastructure.html": "infrastructure", "network-services.html": "services",
    "advanced-administration.html": "advanced", "workstation.html": "desktop",
    "security.html": "security", "derivative-distributions.html": "derivatives",
}

# login, first name, last name, weight, biography (None: no biography, so
# that the theme shows the byline instead of the author box).
AUTHORS = [
    ("ada", "Ada", "Whitfield", 5, "Ada looks after the mail and web servers of a small engineering school."),
    ("bruno", "Bruno", "Castellani", 4, None),
    ("chiara", "Chiara", "Rinaldi", 3, "Chiara packages scientific software and maintains a local mirror."),
    ("daniel", "Daniel", "Okafor", 3, None),
    ("elena", "Elena", "Marquez", 2, None),
    ("farid", "Farid", "Haddad", 1, "Farid teaches system administration evening classes."),
]

COMMENTERS = [
    "Martin Berger", "Sofia Lindqvist", "Tomasz Nowak", "Amara Nwosu", "Lucas Moreau",
    "Hannah Schmidt", "Kenji Watanabe", "Priya Raman", "Oliver Bennett", "Ines Duarte",
    "Pavel Horak", "Grace Mwangi", "Jonas Eriksen", "Leila Karimi", "Mateo Rossi",
    "Nora Fischer", "Samuel Adeyemi", "Yuki Tanaka", "Clara Jensen", "Ravi Iyer",
    "Eva Novak", "Hugo Lefebvre", "Maya Cohen", "Arjun Mehta",
]

# Static pages: slug, title, parent slug, sources (handbook sections or
# licence files), menu order.
PAGES = [
    ("about", "About this site", None, ["foreword.html"]),
    ("audience", "Who this site is for", "about", ["sect.who-is-this-book-for.html"]),
    ("structure", "How the articles are organised", "about", ["sect.book-structure.html"]),
    ("acknowledgments", "Acknowledgments", "about", ["sect.acknowledgments.html"]),
    ("contributing", "Contributing", None, ["sect.contributing.html", "preface.html"]),
    ("colophon", "Colophon", None, ["sect.future-of-this-book.html"]),
    ("licenses", "Licenses", None, ["license:BSD"]),
    ("gpl-3", "GNU General Public License, version 3", "licenses", ["license:GPL-3"]),
    ("apache-2", "Apache License 2.0", "licenses", ["license:Apache-2.0"]),
    ("gfdl", "GNU Free Documentation License", "licenses", ["license:GFDL-1.3"]),
    ("cc0", "Creative Commons Zero 1.0", "licenses", ["license:CC0-1.0"]),
]

# Words a cut title should not end on.
DANGLING = {"a", "an", "the", "of", "to", "in", "on", "for", "and", "or", "but", "about", "that",
            "with", "by", "as", "is", "are", "was", "be", "which", "said", "may", "must", "this",
            "from", "into", "its", "their", "than", "it", "we", "can", "will", "also", "not"}
SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z“])")
# Titles are shown as stored: no characters that wptexturize would change.
TITLE_OK = re.compile(r"^[A-Za-z][A-Za-z0-9 ,;:’“”()/.+-]*[A-Za-z0-9”)]$")


class HandbookPage(html.parser.HTMLParser):
    """Collects the prose paragraphs (div.para) of one page of the book,
    with their links to other sites kept as HTML; paragraphs holding a
    code listing or any other block are dropped, for they read badly
    without it."""

    BLOCKS = {"div", "pre", "table", "ul", "ol", "dl", "blockquote"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.paragraphs = []
        self.keywords = []
        self.title = ""
        self.up = None
        self.stack = []
        self.parts = None
        self.text = None
        self.level = 0
        self.broken = False
        self.link = None
        self.in_title = False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "meta" and attrs.get("name") == "keywords":
            self.keywords = [k.strip() for k in attrs.get("content", "").split(",") if k.strip()]
        elif tag == "link" and attrs.get("rel") == "up":
            self.up = attrs.get("href")
        elif tag == "title":
            self.in_title = True
        if tag == "div":
            self.stack.append(attrs.get("class"))
            if self.parts is None and attrs.get("class") == "para":
                self.parts, self.text, self.level, self.broken = [], [], len(self.stack), False
                return
        if self.parts is None:
            return
        if tag in self.BLOCKS:
            self.broken = True
        elif tag == "a" and re.match(r"https?://", attrs.get("href", "")) and self.link is None:
            self.link = attrs["href"]
            self.parts.append('<a href="%s">' % html.escape(self.link))

    def handle_endtag(self, tag):
        if tag == "title":
            self.in_title = False
        if self.parts is not None and tag == "a" and self.link is not None:
            self.parts.append("</a>")
            self.link = None
        if tag == "div" and self.stack:
            if self.parts is not None and len(self.stack) == self.level:
                text = re.sub(r"\s+", " ", "".join(self.text)).strip()
                markup = re.sub(r"\s+", " ", "".join(self.parts)).strip()
                if not self.broken and text:
                    self.paragraphs.append((text, markup))
                self.parts = None
            self.stack.pop()

    def handle_data(self, data):
        if self.in_title:
            self.title += data
        if self.parts is not None:
            self.text.append(data)
            self.parts.append(html.escape(data, quote=False))


def read_handbook():
    """The book's pages in reading order (its table of contents)."""
    with open(os.path.join(HANDBOOK, "index.html"), encoding="utf-8") as f:
        index = f.read()
    order = []
    for name in re.findall(r'href="([a-z.-]+\.html)"', index):
        if name != "index.html" and name not in order:
            order.append(name)
    pages = []
    chapter = None
    for name in order:
        parser = HandbookPage()
        with open(os.path.join(HANDBOOK, name), encoding="utf-8") as f:
            parser.feed(f.read())
        if parser.up == "index.html":
            chapter = name
        pages.append({"name": name, "chapter": chapter, "title": parser.title.strip(),
                      "keywords": parser.keywords, "paragraphs": parser.paragraphs})
    return pages


def read_license(name):
    with open(os.path.join(LICENSES, name), encoding="utf-8") as f:
        blocks = re.split(r"\n\s*\n", f.read())
    return [re.sub(r"\s+", " ", b).strip() for b in blocks if b.strip()]


def title_from(paragraphs, used):
    """A short sentence of the post, shown as its title."""
    candidates = []
    for text in paragraphs:
        for sentence in SENTENCE_END.split(text):
            words = sentence.split()
            sentence = sentence.rstrip(".")
            if 4 <= len(words) <= 12 and TITLE_OK.match(sentence) and " - " not in sentence \
                    and "--" not in sentence and not re.search(r"\d\s*x\s*\d", sentence):
                candidates.append(sentence)
    for sentence in candidates:
        if sentence not in used:
            return sentence
    # No short sentence: the start of the first one, cut at a word and
    # before any bracket it would leave open.
    words = SENTENCE_END.split(paragraphs[0])[0].split()[:9]
    while words and (" ".join(words).count("(") > " ".join(words).count(")")
                     or not re.search(r"[A-Za-z0-9]$", words[-1]) or words[-1].lower() in DANGLING):
        words.pop()
    title = " ".join(words) or "Untitled"
    return title if title not in used else "%s (%d)" % (title, len(used))


def paragraph_block(markup):
    return "<!-- wp:paragraph -->\n<p>%s</p>\n<!-- /wp:paragraph -->" % markup


def post_timestamps(rng, count):
    """Distinct seconds between the first and last date, sorted."""
    span = int((LAST_DATE - FIRST_DATE).total_seconds())
    seconds = sorted(rng.sample(range(span), count))
    return [FIRST_DATE + datetime.timedelta(seconds=s) for s in seconds]


def fmt(moment):
    return moment.strftime("%Y-%m-%d %H:%M:%S")


def make(seed, post_count):
    rng = random.Random(seed)
    book = read_handbook()

    # Posts: consecutive paragraphs of a section, one to five at a time.
    chunks = []
    leftovers = []
    shorts = []
    by_name = {}
    for page in book:
        by_name[page["name"]] = page
        if page["name"] in PAGE_SECTIONS:
            continue
        long_ones = []
        for text, markup in page["paragraphs"]:
            if len(text) >= POST_PARAGRAPH_MIN and text[-1] in ".!?)":
                long_ones.append((text, markup))
            elif COMMENT_MIN <= len(text) <= COMMENT_MAX and text[-1] in ".!?" and "<a " not in markup:
                shorts.append(text)
        i = 0
        while i < len(long_ones):
            size = rng.choice((1, 2, 2, 3, 3, 3, 4, 5))
            chunks.append((page, long_ones[i:i + size]))
            i += size
    if len(chunks) < post_count:
        sys.exit("make-content.py: the book gives only %d posts, fewer than the %d asked for"
                 % (len(chunks), post_count))
    kept = set(rng.sample(range(len(chunks)), post_count))
    for i, (page, paragraphs) in enumerate(chunks):
        if i not in kept:
            for text, _ in paragraphs:
                leftovers.extend(s for s in SENTENCE_END.split(text)
                                 if COMMENT_MIN <= len(s) <= COMMENT_MAX)
    comment_texts = shorts + leftovers
    rng.shuffle(comment_texts)

    weights = [a[3] for a in AUTHORS]
    logins = [a[0] for a in AUTHORS]
    dates = post_timestamps(rng, post_count)
    posts = []
    titles = set()
    next_comment = 0
    for n, i in enumerate(sorted(kept)):
        page, paragraphs = chunks[i]
        texts = [t for t, _ in paragraphs]
        title = title_from(texts, titles)
        titles.add(title)
        blocks = [paragraph_block(m) for _, m in paragraphs]
        blocks.append(paragraph_block(
            'Adapted from <a href="%s%s">%s</a> in The Debian Administrator’s Handbook.'
            % (CANONICAL, page["name"], html.escape(page["title"], quote=False))))
        category = CHAPTER_CATEGORY.get(page["chapter"], "uncategorized")
        categories = [category]
        if rng.random() < 0.15:
            other = rng.choice(sorted(CATEGORIES))
            if other not in categories:
                categories.append(other)
        # Tags: the section's keywords, those the post mentions first.
        body = " ".join(texts).lower()
        keywords = sorted(page["keywords"], key=lambda k: (k.lower() not in body, page["keywords"].index(k)))
        tags = keywords[:rng.choice((1, 2, 3, 3))]
        author = rng.choices(logins, weights)[0]
        date = dates[n]

        comments = []
        count = rng.choice((0, 0, 0, 0, 1, 1, 2, 2, 3, 5))
        moment = date
        for c in range(count):
            if next_comment >= len(comment_texts):
                break
            moment += datetime.timedelta(minutes=rng.randint(7, 4000), seconds=rng.randint(0, 59))
            parent = None
            if c > 0 and rng.random() < 0.3:
                parent = rng.randrange(c)
            if parent is not None and rng.random() < 0.5:
                # The post's author answers.
                comments.append({"user": author, "parent": parent, "date": fmt(moment),
                                 "content": comment_texts[next_comment]})
            else:
                name = rng.choice(COMMENTERS)
                handle = name.lower().replace(" ", ".")
                url = "https://www.example.org/~%s/" % handle.split(".")[0] if rng.random() < 0.4 else ""
                comments.append({"author": name, "email": handle + "@example.net", "url": url,
                                 "parent": parent, "date": fmt(moment), "content": comment_texts[next_comment]})
            next_comment += 1

        posts.append({"title": title, "date": fmt(date), "author": author, "categories": categories,
                      "tags": tags, "content": "\n\n".join(blocks), "comments": comments})

    pages = []
    page_date = datetime.datetime(2019, 2, 11, 9, 30, 0)
    for order, (slug, title, parent, sources) in enumerate(PAGES):
        blocks = []
        for source in sources:
            if source.startswith("license:"):
                blocks += [paragraph_block(html.escape(p, quote=False))
                           for p in read_license(source[len("license:"):])]
            else:
                blocks += [paragraph_block(m) for _, m in by_name[source]["paragraphs"]]
        pages.append({"slug": slug, "title": title, "parent": parent, "menu_order": order,
                      "date": fmt(page_date + datetime.timedelta(hours=order, minutes=order * 7)),
                      "author": "ada", "content": "\n\n".join(blocks)})

    return {
        "site": {"title": "Notes from the machine room",
                 "tagline": "Running Debian systems, one chapter at a time"},
        "authors": [{"login": login, "first_name": first, "last_name": last,
                     "display_name": "%s %s" % (first, last), "email": login + "@example.com",
                     "description": bio or ""}
                    for login, first, last, _, bio in AUTHORS],
        "categories": [{"slug": slug, "name": name, "parent": parent, "description": description}
                       for slug, (name, parent, description) in CATEGORIES.items()],
        "posts": posts,
        "pages": pages,
        "menu": ["page:about", "category:debian", "category:administration", "category:networking",
                 "category:security", "page:contributing", "page:licenses"],
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--posts", type=int, default=520)
    args = parser.parse_args()
    if not 1 <= args.posts <= 600:
        sys.exit("make-content.py: --posts must be from 1 to 600, not %d" % args.posts)
    if not os.path.isdir(HANDBOOK):
        sys.exit("make-content.py: %s is missing: install Debian's debian-handbook package" % HANDBOOK)
    json.dump(make(args.seed, args.posts), sys.stdout, ensure_ascii=False, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
