/* cg-url-pattern.h: a regular expression generalised from a set of URLs.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Seed 001 (§2.4, Algorithms 4–6) describes the URLs of a set of similar
 * pages by one pattern. A URL is a sequence of levels: the origin
 * ("http://host:port", level 1 in the seed, where the scheme is dropped;
 * here it is kept so that the pattern matches whole URLs), then the path
 * segments, then, as Cartograph's addition, the query parameters. Levels
 * that are equal in every URL stay literal. A level that varies is cut into
 * a common prefix, an infix and a common suffix; the infixes are split into
 * tokens by the regex tree (Tokenize), and each column of tokens becomes
 * the regular expression of the lowest node of the tree that matches all
 * of them (TokenRegex), optional where some URL has no token there.
 *
 * The regex tree (Def. 6; its figure is lost in the seed, the summary
 * reconstructs it) has the leaves [A-Za-z]+, [0-9]+ and one leaf per other
 * character; the node above the two runs is [A-Za-z0-9]+ (the seed prints
 * \w, which would also match "_", a leaf of its own: sibling languages
 * must be disjoint), and the root matches any run of characters that
 * cannot cross a level, [^/?&#]+.
 *
 * URLs with different shapes (origin, number of path segments, whether
 * there is a query and how many parameters it has) cannot be aligned level
 * by level (the seed's URLsim requires equal lengths); each shape gets its
 * own pattern and the result is their alternation, in the order in which
 * the shapes first occur. The result is anchored (^…$) and compiles with
 * GRegex. */

/* Seed 001's K: two URLs are similar when at most this many levels after
 * the first differ. */
#define CG_URL_PATTERN_MAX_DIFFERENCES 2

/* At most this many URLs are generalised; the rest are ignored. A class of
 * the learning sample has at most a few hundred. */
#define CG_URL_PATTERN_MAX_URLS 10000

/* At most this many shapes (alternatives) are kept, the first ones. */
#define CG_URL_PATTERN_MAX_SHAPES 32

#define CG_URL_PATTERN_ERROR (cg_url_pattern_error_quark ())

typedef enum {
  CG_URL_PATTERN_ERROR_NO_URLS,   /* an empty set */
  CG_URL_PATTERN_ERROR_BAD_URL,   /* a URL that is not an absolute http(s) URL */
  CG_URL_PATTERN_ERROR_BAD_PATTERN, /* a pattern that GRegex cannot compile */
} CgUrlPatternError;

GQuark     cg_url_pattern_error_quark    (void);

/* Algorithm 5: the tokens of @text, each the longest leftmost run that
 * one leaf of the regex tree matches. */
GStrv      cg_url_pattern_tokenize       (const char          *text);

/* Algorithm 6: the expression that matches every token of a column.
 * @tokens has @n_tokens entries, NULL for the empty token λ (a URL whose
 * infix has fewer tokens); an expression for a column with λ is made
 * optional. Returns NULL if every entry is NULL. */
char      *cg_url_pattern_token_regex    (const char * const  *tokens,
                                          guint                n_tokens);

/* Algorithm 4, over the shapes described above. @urls is NULL-terminated.
 * Fails for an empty set and for a URL that is not an absolute http(s)
 * URL, naming it. */
char      *cg_url_pattern_generate       (const char * const  *urls,
                                          GError             **error);

/* Whether @pattern, a class's URL pattern read from outside (an imported
 * model or crawl spec), compiles as the harvester and the page classifier
 * compile it. Fails, naming the pattern and saying what is wrong with it,
 * when it does not: a pattern that cannot compile would only be found out
 * when a harvest starts. */
gboolean   cg_url_pattern_check          (const char          *pattern,
                                          GError             **error);

/* Seed 001's URLsim: the URLs have as many levels, the same origin, and at
 * most @max_differences other levels differ. */
gboolean   cg_url_pattern_similar        (const char          *a,
                                          const char          *b,
                                          guint                max_differences);

/* Whether two groups of URLs can be one template's: their routes agree.
 * Not from seed 001, whose patterns describe a class already found; this
 * compares two groups while classes are formed. Each level of the path
 * (non-empty segments, a trailing pagination pair such as "page/2" set
 * aside) is, over a group's distinct URLs: numeric when all its values are
 * numbers (ids, dates, page numbers: data); a keyword when one word is
 * there in two URLs, or in one URL as a directory (a segment with more
 * below it), as "category" in /category/a/; tentative when one word ends
 * a single URL (a keyword or a slug: cannot tell); words when several
 * words are there (slugs); mixed (says nothing) when numbers and words
 * are. The groups disagree when, at a level both reach, a number meets a
 * word, or a keyword meets another keyword or tentative word; or when
 * only one group reaches a level and it holds a keyword there, or a word
 * right after the other group's last level, a number; or when one group
 * is the root (every path empty once paging is set aside) and the other
 * is not. The query is not looked at; a URL that does not parse is
 * ignored, and a group without any says nothing. */
gboolean   cg_url_pattern_routes_compatible (const char * const *urls_a,
                                             guint               n_a,
                                             const char * const *urls_b,
                                             guint               n_b);

G_END_DECLS
