#!/usr/bin/python3
# generate-site.py: the static site of the crawl throughput benchmark.
#
# Writes a site of N pages (20,000 by default) that a crawler can reach
# entirely by following links from /index.html within three hops:
#
#   /index.html                 links to every section and to a few hundred
#                               "featured" pages
#   /sNNN/index.html            a section: links to its own pages (about 200)
#                               and to every other section
#   /sNNN/pNNNNN.html           a page of 5 to 20 KB of varied text, linking to
#                               about 20 other pages, its section, the home
#                               page, the shared style sheet and two images
#   /assets/site.css, /assets/img-NN.png
#
# The output depends only on the arguments: the same arguments give the same
# bytes, so runs on different days crawl the same site.
#
# Copyright 2026 The Cartograph authors
# SPDX-License-Identifier: GPL-3.0-or-later

import argparse
import json
import os
import random
import shutil
import struct
import sys
import zlib

GENERATOR_VERSION = 1
SEED = 20260
PAGES_PER_SECTION = 200
FEATURED_ON_HOME = 300
LINKS_PER_PAGE = 20
N_IMAGES = 40
MIN_PAGE_BYTES = 5 * 1024
MAX_PAGE_BYTES = 20 * 1024

SYLLABLES = ("ka", "lo", "mi", "ren", "to", "sa", "vel", "an", "dor", "is", "ul", "mar", "ne", "po",
             "qui", "ra", "sen", "ta", "bri", "co", "den", "fa", "gor", "hel", "jus", "lin", "mon",
             "ost", "per", "rin", "stel", "tur", "val", "wen", "xo", "yar", "zed", "ae", "ber", "cal")


def make_vocabulary(rng, size):
    words = set()
    while len(words) < size:
        words.add("".join(rng.choice(SYLLABLES) for _ in range(rng.randint(1, 4))))
    return sorted(words)


def sentence(rng, vocabulary):
    words = rng.choices(vocabulary, k=rng.randint(6, 22))
    words[0] = words[0].capitalize()
    return " ".join(words) + rng.choice((".", ".", ".", "?", "!"))


def paragraph(rng, vocabulary):
    return " ".join(sentence(rng, vocabulary) for _ in range(rng.randint(3, 8)))


def png(width, height, rng):
    """A small RGB PNG with a gradient and some noise, written with zlib."""
    base = [rng.randrange(256) for _ in range(3)]
    rows = bytearray()
    for y in range(height):
        rows.append(0)
        for x in range(width):
            noise = rng.randrange(24)
            rows += bytes(((base[0] + x * 3 + noise) & 255, (base[1] + y * 3 + noise) & 255,
                           (base[2] + (x ^ y) + noise) & 255))

    def chunk(kind, data):
        return (struct.pack(">I", len(data)) + kind + data +
                struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff))

    return (b"\x89PNG\r\n\x1a\n" +
            chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)) +
            chunk(b"IDAT", zlib.compress(bytes(rows), 9)) +
            chunk(b"IEND", b""))


CSS = """body { font-family: sans-serif; margin: 0 auto; max-width: 60em; line-height: 1.5; }
header, footer { background: #eef; padding: 0.5em 1em; }
nav ul { list-style: none; padding: 0; columns: 4; }
article p { text-align: justify; }
aside ul { columns: 2; }
img { float: right; margin: 0 0 1em 1em; }
"""


def head(title):
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            f"<title>{title}</title>\n<link rel=\"stylesheet\" href=\"/assets/site.css\">\n</head>\n<body>\n")


def section_name(section):
    return f"s{section:03d}"


def page_path(page):
    section = page // PAGES_PER_SECTION
    return f"/{section_name(section)}/p{page:05d}.html"


def write(root, path, data):
    full = os.path.join(root, path.lstrip("/"))
    with open(full, "wb") as f:
        f.write(data)
    return len(data)


def generate(root, n_pages):
    rng = random.Random(SEED)
    vocabulary = make_vocabulary(rng, 6000)
    n_sections = (n_pages + PAGES_PER_SECTION - 1) // PAGES_PER_SECTION
    titles = [" ".join(rng.choices(vocabulary, k=rng.randint(2, 5))).title() for _ in range(n_pages)]
    section_titles = [" ".join(rng.choices(vocabulary, k=2)).title() for _ in range(n_sections)]
    total_bytes = 0

    if os.path.exists(root):
        shutil.rmtree(root)
    os.makedirs(os.path.join(root, "assets"))
    for section in range(n_sections):
        os.makedirs(os.path.join(root, section_name(section)))

    total_bytes += write(root, "/assets/site.css", CSS.encode())
    for i in range(N_IMAGES):
        total_bytes += write(root, f"/assets/img-{i:02d}.png", png(64 + i % 5 * 16, 48, rng))

    # The home page: every section and some featured pages.
    featured = sorted(rng.sample(range(n_pages), min(FEATURED_ON_HOME, n_pages)))
    html = [head("Benchmark site"), "<header><h1>Benchmark site</h1></header>\n<nav><h2>Sections</h2><ul>\n"]
    html += [f"<li><a href=\"/{section_name(s)}/index.html\">{section_titles[s]}</a></li>\n" for s in range(n_sections)]
    html.append("</ul></nav>\n<main><h2>Featured</h2><ul>\n")
    html += [f"<li><a href=\"{page_path(p)}\">{titles[p]}</a></li>\n" for p in featured]
    html.append(f"</ul><p>{paragraph(rng, vocabulary)}</p></main>\n</body>\n</html>\n")
    total_bytes += write(root, "/index.html", "".join(html).encode())

    # Section indexes: their own pages and the other sections.
    for section in range(n_sections):
        first = section * PAGES_PER_SECTION
        last = min(first + PAGES_PER_SECTION, n_pages)
        html = [head(section_titles[section]),
                f"<header><a href=\"/index.html\">Home</a><h1>{section_titles[section]}</h1></header>\n",
                f"<p>{paragraph(rng, vocabulary)}</p>\n<main><ul>\n"]
        html += [f"<li><a href=\"p{p:05d}.html\">{titles[p]}</a></li>\n" for p in range(first, last)]
        html.append("</ul></main>\n<nav><ul>\n")
        html += [f"<li><a href=\"../{section_name(s)}/index.html\">{section_titles[s]}</a></li>\n"
                 for s in range(n_sections) if s != section]
        html.append("</ul></nav>\n</body>\n</html>\n")
        total_bytes += write(root, f"/{section_name(section)}/index.html", "".join(html).encode())

    # The pages.
    for page in range(n_pages):
        section = page // PAGES_PER_SECTION
        target = rng.randint(MIN_PAGE_BYTES, MAX_PAGE_BYTES)
        images = rng.sample(range(N_IMAGES), 2)
        related = rng.sample(range(n_pages), min(LINKS_PER_PAGE, n_pages))
        top = [head(titles[page]),
               f"<header><a href=\"/index.html\">Home</a> › <a href=\"/{section_name(section)}/index.html\">"
               f"{section_titles[section]}</a><h1>{titles[page]}</h1></header>\n<article>\n",
               f"<img src=\"/assets/img-{images[0]:02d}.png\" alt=\"\">\n"]
        bottom = [f"<img src=\"/assets/img-{images[1]:02d}.png\" alt=\"\">\n</article>\n<aside><h2>Related</h2><ul>\n"]
        bottom += [f"<li><a href=\"{page_path(p)}\">{titles[p]}</a></li>\n" for p in related]
        bottom.append(f"</ul></aside>\n<footer>Page {page + 1} of {n_pages}</footer>\n</body>\n</html>\n")
        size = sum(len(s) for s in top) + sum(len(s) for s in bottom)
        body = []
        while size < target:
            text = f"<p>{paragraph(rng, vocabulary)}</p>\n"
            body.append(text)
            size += len(text)
        total_bytes += write(root, page_path(page), "".join(top + body + bottom).encode())

    return {
        "generator_version": GENERATOR_VERSION,
        "pages": n_pages,
        "sections": n_sections,
        "html_documents": n_pages + n_sections + 1,
        "assets": 1 + N_IMAGES,
        "resources": n_pages + n_sections + 1 + 1 + N_IMAGES,
        "bytes": total_bytes,
    }


def main():
    parser = argparse.ArgumentParser(description="Write the crawl benchmark's static site.")
    parser.add_argument("output", help="the folder to write the site into (replaced)")
    parser.add_argument("--pages", type=int, default=20000, help="number of pages (default 20000)")
    args = parser.parse_args()
    if not 1 <= args.pages <= 1000000:
        sys.exit(f"generate-site.py: --pages must be between 1 and 1000000, not {args.pages}")

    manifest = generate(args.output, args.pages)
    # Written last, so that a site whose generation was interrupted has no
    # manifest and is generated again.
    with open(os.path.join(args.output, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=2, sort_keys=True)
        f.write("\n")
    print(json.dumps(manifest, sort_keys=True))


if __name__ == "__main__":
    main()
