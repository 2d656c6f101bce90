#!/usr/bin/python3
"""Compares a Cartograph crawl of a site with a full wget mirror of it, as
seed 004's evaluation does (issue 7):

  - requests: the HTML page requests of each crawler, counted in the web
    server's access log by User-Agent (robots.txt and page requisites left
    out), and their ratio;
  - content: the share of the distinct word 2-grams of wget's HTML pages
    that Cartograph's HTML pages also hold;
  - external links: the share of wget's links to other hosts that
    Cartograph's pages also hold, with and without boilerplate links;
  - the floor: the fewest of wget's pages whose 2-grams reach 98 % of
    wget's, by greedy set cover, a close estimate of the least any crawler
    must fetch for that content.

Both crawls are read back from their WARC files with the parser below and
their 2-grams and links computed by the same code here, independent of
Cartograph's core. Boilerplate links are the external links of the site's
chrome: those on more than a tenth of wget's pages (seed 004 leaves out the
share and widget links of its sites by fixed patterns; this site has no
such widgets, and its chrome links are what would repeat on every page).

  compare.py --access-log LOG --wget-ua UA --cartograph-ua UA \
             --wget-warc DIR --cartograph-warc DIR [--json OUT]

Python 3 standard library only.
"""
import argparse
import gzip
import heapq
import html.parser
import io
import json
import re
import sys
import unicodedata
import urllib.parse
import zlib

ASSET = re.compile(r"\.(css|js|png|jpe?g|gif|svg|ico|webp|woff2?|ttf|eot|otf|map)(\?|$)", re.I)
INLINE = {"a", "abbr", "b", "bdi", "bdo", "cite", "code", "data", "dfn", "em", "i", "kbd", "mark", "q",
          "s", "samp", "small", "span", "strong", "sub", "sup", "time", "u", "var", "font", "label"}
HIDDEN = {"script", "style", "noscript", "template"}
WORD = re.compile(r"[^\W_]+(?:['\u2019][^\W_]+)*")


# --- WARC -----------------------------------------------------------------

def warc_records(path):
    """Yields (headers, block) for every record of a .warc.gz file (one gzip
    member per record, which gzip reads as one stream)."""
    with gzip.open(path, "rb") as stream:
        while True:
            line = stream.readline()
            if not line:
                return
            if not line.startswith(b"WARC/"):
                continue
            headers = {}
            while True:
                h = stream.readline()
                if h in (b"\r\n", b"\n", b""):
                    break
                name, _, value = h.decode("utf-8", "replace").partition(":")
                headers[name.strip().lower()] = value.strip()
            length = int(headers.get("content-length", "0"))
            yield headers, stream.read(length)


def http_response(block):
    """(status, headers, body) of an application/http response block."""
    head, _, body = block.partition(b"\r\n\r\n")
    lines = head.decode("iso-8859-1").split("\r\n")
    try:
        status = int(lines[0].split()[1])
    except (IndexError, ValueError):
        return None
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    encoding = headers.get("content-encoding", "").lower()
    if headers.get("transfer-encoding", "").lower() == "chunked":
        body = dechunk(body)
    if encoding in ("gzip", "x-gzip"):
        body = gzip.decompress(body)
    elif encoding == "deflate":
        body = zlib.decompress(body)
    return status, headers, body


def dechunk(body):
    out = bytearray()
    stream = io.BytesIO(body)
    while True:
        size = stream.readline().split(b";")[0].strip()
        if not size:
            break
        n = int(size, 16)
        if n == 0:
            break
        out += stream.read(n)
        stream.readline()
    return bytes(out)


def html_pages(paths, target_prefix=None):
    """URL → (html text) of the 200 HTML responses of some WARC files,
    revisits resolved to the response with their payload digest."""
    by_digest = {}
    revisits = []
    pages = {}
    for path in paths:
        for headers, block in warc_records(path):
            kind = headers.get("warc-type")
            uri = headers.get("warc-target-uri", "").strip("<>")
            if kind == "response":
                parsed = http_response(block)
                if parsed is None:
                    continue
                status, h, body = parsed
                by_digest[headers.get("warc-payload-digest")] = (h, body)
                if status == 200 and "html" in h.get("content-type", ""):
                    pages[uri] = decode(body, h.get("content-type", ""))
            elif kind == "revisit":
                revisits.append((uri, headers.get("warc-payload-digest")))
    for uri, digest in revisits:
        if uri not in pages and digest in by_digest:
            h, body = by_digest[digest]
            if "html" in h.get("content-type", ""):
                pages[uri] = decode(body, h.get("content-type", ""))
    if target_prefix:
        pages = {u: t for u, t in pages.items() if u.startswith(target_prefix)}
    return pages


def decode(body, content_type):
    m = re.search(r"charset=([\w-]+)", content_type)
    try:
        return body.decode(m.group(1) if m else "utf-8", "replace")
    except LookupError:
        return body.decode("utf-8", "replace")


# --- text and links --------------------------------------------------------

class Reader(html.parser.HTMLParser):
    """The visible text of a page, as words, and its <a href> links."""

    def __init__(self, base):
        super().__init__(convert_charrefs=True)
        self.base = base
        self.parts = []
        self.hidden = 0
        self.links = []

    def handle_starttag(self, tag, attrs):
        if tag in HIDDEN:
            self.hidden += 1
        elif tag not in INLINE:
            self.parts.append(" ")
        if tag == "a":
            href = dict(attrs).get("href")
            if href:
                self.links.append(urllib.parse.urljoin(self.base, href.strip()))
        elif tag == "base":
            href = dict(attrs).get("href")
            if href:
                self.base = urllib.parse.urljoin(self.base, href)

    def handle_endtag(self, tag):
        if tag in HIDDEN:
            self.hidden = max(0, self.hidden - 1)
        elif tag not in INLINE:
            self.parts.append(" ")

    def handle_data(self, data):
        if not self.hidden:
            self.parts.append(data)


def analyse(url, text):
    reader = Reader(url)
    try:
        reader.feed(text)
        reader.close()
    except Exception:  # a page html.parser cannot finish still has what it read
        pass
    words = WORD.findall(unicodedata.normalize("NFC", "".join(reader.parts)).lower())
    bigrams = {words[i] + " " + words[i + 1] for i in range(len(words) - 1)}
    host = urllib.parse.urlsplit(url).hostname
    external = set()
    for link in reader.links:
        parts = urllib.parse.urlsplit(link)
        if parts.scheme in ("http", "https") and parts.hostname and parts.hostname != host:
            external.add(urllib.parse.urldefrag(link)[0])
    return bigrams, external


def floor_pages(page_bigrams, share):
    """Greedy set cover (lazy): the fewest pages whose 2-grams reach @share
    of all."""
    universe = set().union(*page_bigrams.values()) if page_bigrams else set()
    goal = share * len(universe)
    covered = set()
    heap = [(-len(b), u) for u, b in page_bigrams.items()]
    heapq.heapify(heap)
    chosen = 0
    while heap and len(covered) < goal:
        gain, url = heapq.heappop(heap)
        fresh = len(page_bigrams[url] - covered)
        if heap and fresh < -heap[0][0]:
            heapq.heappush(heap, (-fresh, url))
            continue
        if fresh == 0:
            break
        covered |= page_bigrams[url]
        chosen += 1
    return chosen, len(covered) / len(universe) if universe else 1.0


# --- requests ---------------------------------------------------------------

LOG_LINE = re.compile(r'"(?P<method>[A-Z]+) (?P<target>\S+) [^"]*" (?P<status>\d{3}) \S+ .*"(?P<ua>[^"]*)"')


def page_requests(log, user_agent):
    """Requests by @user_agent in the access log that are neither
    robots.txt nor a requisite (stylesheets, scripts, images, fonts)."""
    n = 0
    with open(log, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = LOG_LINE.search(line)
            if not m or user_agent not in m.group("ua"):
                continue
            path = urllib.parse.urlsplit(m.group("target")).path
            if path == "/robots.txt" or ASSET.search(path):
                continue
            n += 1
    return n


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--access-log", required=True)
    parser.add_argument("--wget-ua", required=True)
    parser.add_argument("--cartograph-ua", required=True)
    parser.add_argument("--wget-warc", nargs="+", required=True)
    parser.add_argument("--cartograph-warc", nargs="+", required=True)
    parser.add_argument("--site", required=True, help="the site's base URL")
    parser.add_argument("--json", help="also write the figures here")
    args = parser.parse_args()

    wget = html_pages(args.wget_warc, args.site)
    carto = html_pages(args.cartograph_warc, args.site)
    if not wget:
        sys.exit("compare.py: wget's WARC files hold no HTML page")
    wget_bigrams, wget_links, link_pages = {}, set(), {}
    for url, text in wget.items():
        b, e = analyse(url, text)
        wget_bigrams[url] = b
        wget_links |= e
        for link in e:
            link_pages[link] = link_pages.get(link, 0) + 1
    carto_bigrams, carto_links = set(), set()
    for url, text in carto.items():
        b, e = analyse(url, text)
        carto_bigrams |= b
        carto_links |= e
    all_wget = set().union(*wget_bigrams.values())
    boilerplate = {l for l, n in link_pages.items() if n > len(wget) / 10}
    content = len(all_wget & carto_bigrams) / len(all_wget) if all_wget else 1.0
    links = len(wget_links & carto_links) / len(wget_links) if wget_links else 1.0
    plain = wget_links - boilerplate
    links_plain = len(plain & carto_links) / len(plain) if plain else 1.0
    floor, floor_share = floor_pages(wget_bigrams, 0.98)

    requests_wget = page_requests(args.access_log, args.wget_ua)
    requests_carto = page_requests(args.access_log, args.cartograph_ua)
    figures = {
        "wget_requests": requests_wget,
        "wget_html_pages": len(wget),
        "cartograph_requests": requests_carto,
        "cartograph_html_pages": len(carto),
        "ratio": requests_wget / requests_carto if requests_carto else None,
        "bigrams_wget": len(all_wget),
        "bigram_coverage": content,
        "external_links_wget": len(wget_links),
        "external_link_coverage": links,
        "boilerplate_links": len(boilerplate),
        "external_link_coverage_without_boilerplate": links_plain,
        "floor_pages": floor,
        "floor_coverage": floor_share,
        "requests_over_floor": requests_carto / floor if floor else None,
    }
    print("wget:       %5d page requests, %d HTML pages, %d distinct 2-grams, %d external links"
          % (requests_wget, len(wget), len(all_wget), len(wget_links)))
    print("Cartograph: %5d page requests (learning sample included), %d HTML pages"
          % (requests_carto, len(carto)))
    print("ratio wget / Cartograph: %.2f (seed 004: hand-made knowledge base 7x at 98 %%, ACEBot 5x at 96 %%)"
          % figures["ratio"] if figures["ratio"] else "ratio: none")
    print("2-gram coverage: %.2f %% of wget's (target >= 98 %%)" % (100 * content))
    print("external links: %.2f %% of wget's (target >= 99 %%); without %d boilerplate links: %.2f %%"
          % (100 * links, len(boilerplate), 100 * links_plain))
    print("floor: %d of wget's pages reach %.2f %% of its 2-grams; Cartograph made %.2f x the floor's requests "
          "(target <= 1.25)" % (floor, 100 * floor_share, figures["requests_over_floor"] or 0))
    if args.json:
        with open(args.json, "w") as out:
            json.dump(figures, out, indent=2)


if __name__ == "__main__":
    main()
