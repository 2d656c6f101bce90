/* cg-page-features.h: what the site models read from one HTML page.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>
#include <libxml/HTMLparser.h>

#include "cg-dom-path.h"
#include "cg-xpath-lattice.h"

G_BEGIN_DECLS

/* Seed 000 keeps only texts shorter than this many characters as
 * template labels (§4.2.2.2, footnote 4). */
#define CG_PAGE_TEXT_MAX_CHARS 64

/* At most this many texts are collected from one page. */
#define CG_PAGE_MAX_TEXTS 10000

/* At most this many distinct word 2-grams are collected from one page;
 * a page has a few thousand, and more only comes from generated text. */
#define CG_PAGE_MAX_BIGRAMS 200000

/* Longer words are cut to this many characters: they are base64 blobs
 * and the like, and would only make the 2-grams large. */
#define CG_PAGE_MAX_WORD_CHARS 64

/* At most this many distinct leaf tag paths are collected from one page. */
#define CG_PAGE_MAX_LEAF_PATHS 100000

#define CG_PAGE_ERROR (cg_page_error_quark ())

typedef enum {
  CG_PAGE_ERROR_EMPTY,      /* no bytes, or no element at all */
} CgPageError;

GQuark       cg_page_error_quark           (void);

/* Parses a page for analysis with cg_html_parse() (see cg-links.h for the
 * encoding rules and the bounds, whose errors it passes on) and checks
 * what the analyses need on top of it: the page must hold at least one
 * element. Free with xmlFreeDoc(). */
htmlDocPtr   cg_page_parse                 (const char   *data,
                                            gsize         length,
                                            const char   *url,
                                            const char   *content_type,
                                            GError      **error);

/* One <a href> of a page. */
typedef struct {
  char       *url;      /* absolute, normalised (cg-links.h) */
  char       *text;     /* anchor text, white space collapsed */
  CgDomPath  *path;     /* root-to-anchor path with all attributes */
} CgPageAnchor;

/* One text of a page shorter than CG_PAGE_TEXT_MAX_CHARS characters. */
typedef struct {
  char       *text;     /* white space collapsed and trimmed, never empty */
  CgDomPath  *path;     /* root-to-element path of the element that holds it */
} CgPageText;

/* A group of anchors or texts that share a path (seed 000's link and text
 * collections). */
typedef struct {
  char          *xpath;   /* the shared path, cg_lattice_path_to_xpath() */
  CgLatticePath *path;    /* that path, on the first member's CgDomPath */
  GPtrArray     *items;   /* char *: the URLs or the texts, in document order */
} CgPageCollection;

void         cg_page_anchor_free           (CgPageAnchor     *anchor);
void         cg_page_text_free             (CgPageText       *text);
void         cg_page_collection_free       (CgPageCollection *collection);

/* Every <a href> of @doc that cg_links_foreach_in_document() reports (an
 * http(s) link; fragments, mailto: and javascript: are left out), in
 * document order, duplicates included, as CgPageAnchor. Fails only when
 * @document_url is not an http(s) URL. */
GPtrArray   *cg_page_collect_anchors       (htmlDocPtr    doc,
                                            const char   *document_url,
                                            GError      **error);

/* Every text node of the visible content (see below) whose text, white
 * space collapsed, is shorter than CG_PAGE_TEXT_MAX_CHARS characters, in
 * document order, as CgPageText; at most CG_PAGE_MAX_TEXTS. Each text
 * node is one text, attributed to its parent element: in
 * <li>Price: <b>9.99</b></li> "Price:" belongs to li and "9.99" to b. */
GPtrArray   *cg_page_collect_texts         (htmlDocPtr    doc);

/* Groups anchors (CgPageAnchor) or texts (CgPageText) on their default
 * lattice path (cg_lattice_path_new_default()), as seed 000 forms its
 * link and text collections, in the order of each group's first member.
 * Returns CgPageCollection. */
GPtrArray   *cg_page_link_collections      (GPtrArray    *anchors);
GPtrArray   *cg_page_text_collections      (GPtrArray    *texts);

/* The visible text of @doc, the words in document order: the content of
 * script, style, noscript and template is left out, as are comments and
 * attributes; the title is kept. Inline elements (a, b, span, em, …) join
 * their text to the text around them, so that <b>Bi</b>g is one word;
 * any other element boundary separates words. */
char        *cg_page_visible_text          (htmlDocPtr    doc);

/* The words of @text, for 2-grams: text is put in Unicode NFC and
 * lowercased; a word is a maximal run of letters, digits and combining
 * marks (g_unichar_isalnum(), g_unichar_ismark()), where an apostrophe
 * (' or ’) between two letters or digits belongs to the word; anything
 * else separates words. Words are cut to CG_PAGE_MAX_WORD_CHARS. */
GStrv        cg_page_words                 (const char   *text);

/* The set of distinct word 2-grams of @doc (seed 004's items): every pair
 * of consecutive words of cg_page_words (cg_page_visible_text (doc)),
 * written "first second" with one space. Pairs run across element
 * boundaries, since the page's text is one sequence of words. A set of
 * char * (keys equal values); its size is the number of distinct 2-grams.
 * Stops at CG_PAGE_MAX_BIGRAMS, and then sets @truncated (may be NULL). */
GHashTable  *cg_page_collect_bigrams       (htmlDocPtr    doc,
                                            gboolean     *truncated);

typedef enum {
  /* Leaf elements that hold no text: no element child and no text other
   * than white space (img, br, input, an empty div or a). Seed 003 takes
   * "all HTML tree paths that do not contain text" for its fingerprints. */
  CG_LEAF_PATHS_TEXTLESS,
  /* Every element with no element child, whether it holds text or not:
   * the bag of paths of Joshi et al. over the element tree, which seed 003
   * describes for its Common Paths distance. */
  CG_LEAF_PATHS_ALL_LEAVES,
} CgLeafPathKind;

/* The tag paths (cg_dom_path_to_tag_path(), "/html/body/div/img") of the
 * leaf elements of @doc, each with the number of leaves that have it: a
 * hash table from char * to GUINT_TO_POINTER (count). At most
 * CG_PAGE_MAX_LEAF_PATHS distinct paths. */
GHashTable  *cg_page_collect_leaf_paths    (htmlDocPtr      doc,
                                            CgLeafPathKind  kind);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CgPageAnchor, cg_page_anchor_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CgPageText, cg_page_text_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CgPageCollection, cg_page_collection_free)

G_END_DECLS
