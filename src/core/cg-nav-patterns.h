/* cg-nav-patterns.h: seed 004's navigation patterns (ACEBot).
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>
#include <libxml/HTMLparser.h>

#include "cg-link-label.h"
#include "cg-site-model.h"

G_BEGIN_DECLS

/* ACEBot (seed 004 §5.1–5.2) learns which links to follow from a sample
 * of a site. The sample is a rooted graph: a vertex per distinct page
 * carrying the page's distinct word 2-grams (its items), an edge per link
 * between sampled pages, labelled with the link's root-to-link path
 * (cg-link-label.h). A navigation pattern is a sequence of steps, each a
 * label, applied from the entry point: a step follows, from every page the
 * previous step reached, the links with its label. A repeated step
 * (written L+) follows its label again from the pages it reached, which
 * is how pagination is learned (seed 004's page-flipping clusters): the
 * next step starts from every page the repetitions reached, so
 * L(a) L+(b) L(c) is the regular expression a b{1,n} c. A step becomes a
 * repeated one, instead of a single one, whenever following its label
 * again reaches pages the pattern had not reached, as seed 004 merges such
 * chains into one cluster.
 *
 * The pages of a pattern are every page reached along it (seed 004,
 * Definition 3: a path whose label is a prefix of a word of the pattern).
 * The entry page is fetched by every crawl, so it belongs to no pattern:
 * its 2-grams count as covered from the start and it never costs a
 * pattern a request; that is also how Table 5.1 scores l1 (two pages, not
 * three).
 *
 * Selection is the greedy loop of Algorithm 5.1. Every pattern of up to k
 * steps that starts at the entry point is enumerated, with repeated steps
 * bounded to CG_NAV_DEFAULT_MAX_REPEATS applications (seed 004's
 * continuity bound {1,3}); of several patterns that reach the same pages,
 * only the first enumerated, which has the fewest steps, is a candidate.
 * Each round scores every remaining pattern by
 * its marginal distinct 2-grams per request: the 2-grams of the pages it
 * reaches that no selected pattern reaches, not counting 2-grams already
 * covered, divided by the number of those pages; it takes the best,
 * removes that pattern's prefixes from the candidates (they reach nothing
 * it does not), and stops once the selected patterns cover the completion
 * ratio of the sample's distinct 2-grams, or when no pattern brings a new
 * 2-gram.
 *
 * Two pages of the sample with the same non-empty set of 2-grams are one
 * vertex (seed 004's clustering "does not group any new Web page which has
 * similar 2-gram items"; the thesis gives no similarity threshold, so only
 * identical sets are merged): the second URL becomes an alias of the
 * first, and the links of both leave the one vertex. A page repeated under
 * many URLs (a login page, a print view) then costs a pattern one request,
 * not one per URL.
 *
 * Nothing here fetches: the crawler or a test adds the pages it fetched,
 * and the harvest applies the selected patterns with
 * cg_nav_expression_follow(). */

/* Seed 004's defaults (Table 5.2 and §5.2.2): patterns of up to k = 3
 * steps, repeated steps bounded to {1,3} while learning, and selection
 * until 95 % of the sample's distinct 2-grams are covered. */
#define CG_NAV_DEFAULT_DEPTH             3
#define CG_NAV_DEFAULT_MAX_REPEATS       3
#define CG_NAV_DEFAULT_COMPLETION_RATIO  0.95

/* Bounds. The thesis tried k up to 4; deeper enumeration is exponential in
 * k. A sample larger than CG_NAV_MAX_PAGES (a few times ACEBot's 3,000) is
 * refused, as is a page with more links than cg-links.h reports for one
 * document. Enumeration stops after CG_NAV_MAX_PATTERNS patterns (the
 * selection then works on those and says so in its statistics); each
 * candidate keeps one bit per sampled page, so these two bounds bound the
 * memory the selection takes. */
#define CG_NAV_MAX_DEPTH                 8
#define CG_NAV_MAX_PAGES                 10000
#define CG_NAV_MAX_LINKS_PER_PAGE        10000
#define CG_NAV_MAX_PATTERNS              50000
#define CG_NAV_MAX_LABEL_LENGTH          4096

#define CG_NAV_ERROR (cg_nav_error_quark ())

typedef enum {
  CG_NAV_ERROR_INVALID_PAGE,     /* an empty URL or label, a page added twice */
  CG_NAV_ERROR_TOO_MANY,         /* more than CG_NAV_MAX_PAGES or CG_NAV_MAX_LINKS_PER_PAGE */
  CG_NAV_ERROR_NO_ENTRY,         /* the entry URL is not a page of the sample */
  CG_NAV_ERROR_INVALID_OPTIONS,  /* a depth, repeat bound or ratio out of range */
  CG_NAV_ERROR_PARSE,            /* the text of a pattern cannot be read */
} CgNavError;

GQuark        cg_nav_error_quark              (void);

/* One link of a page: where it goes and its root-to-link label. */
typedef struct {
  char *url;
  char *label;
} CgNavLink;

CgNavLink    *cg_nav_link_new                 (const char          *url,
                                               const char          *label);
void          cg_nav_link_free                (CgNavLink           *link);

/* The <a href> links of @doc (cg_page_collect_anchors()) with their labels
 * (cg_link_label_for_path() with @attributes), in document order,
 * duplicates included. Fails only when @document_url is not http(s). The
 * harvest uses the same function, so that labels it sees are labels the
 * patterns were learned on. */
GPtrArray    *cg_nav_links_for_document       (htmlDocPtr             doc,
                                               const char            *document_url,
                                               CgLinkLabelAttributes  attributes,
                                               GError               **error);

/* ---- patterns ------------------------------------------------------------- */

/* A navigation pattern. Its text, which the model stores, is one token per
 * step separated by single spaces, "L(label)" for a step followed once and
 * "L+(label)" for a repeated one:
 *
 *   L(/html/body/header/nav/ul/li/a) L+(/html/body/main/nav/a) L(/html/body/main/ul/li/h3/a)
 *
 * A label is written as it is; the parenthesis that closes a step is the
 * first one, outside quotes, that balances the one that opened it, so
 * labels are XPaths with balanced brackets and parentheses. */
typedef struct _CgNavExpression CgNavExpression;

#define CG_TYPE_NAV_EXPRESSION (cg_nav_expression_get_type ())
GType             cg_nav_expression_get_type        (void) G_GNUC_CONST;

/* Parses the text form. Fails with CG_NAV_ERROR_PARSE, naming the offset,
 * for anything else: no step, more than CG_NAV_MAX_DEPTH steps, an empty
 * label, unbalanced brackets or quotes, or a label over
 * CG_NAV_MAX_LABEL_LENGTH bytes. */
CgNavExpression  *cg_nav_expression_new_from_string (const char             *text,
                                                     GError                **error);
CgNavExpression  *cg_nav_expression_copy            (const CgNavExpression  *self);
void              cg_nav_expression_free            (CgNavExpression        *self);

guint             cg_nav_expression_get_n_steps     (const CgNavExpression  *self);
const char       *cg_nav_expression_get_label       (const CgNavExpression  *self,
                                                     guint                   step);
gboolean          cg_nav_expression_get_repeated    (const CgNavExpression  *self,
                                                     guint                   step);
/* The text form above; cg_nav_expression_new_from_string() reads it back
 * to an equal expression. */
char             *cg_nav_expression_to_string       (const CgNavExpression  *self);
/* Seed 004's OXPath form (§5.2.2, Fig. 5.5), for display and export:
 * doc("ENTRY")/(LABEL/@href{click/})+/(LABEL/@href{click/}). */
char             *cg_nav_expression_to_oxpath       (const CgNavExpression  *self,
                                                     const char             *entry_url);
gboolean          cg_nav_expression_equal           (const CgNavExpression  *a,
                                                     const CgNavExpression  *b);

/* Where the harvest goes next with one pattern. */
typedef struct {
  char  *url;
  guint  step;    /* the step that follows the link */
} CgNavFollow;

void              cg_nav_follow_free                (CgNavFollow            *follow);

/* Which of @links (CgNavLink, a page's links in document order) @self
 * follows from a page that step @reached_step reached, or from the entry
 * page when @reached_step is -1: the links whose label is that of the
 * next step, and, when step @reached_step is repeated, also the links
 * whose label is its own (the next page of a pagination). Returns
 * CgNavFollow, one per URL and step, in document order, the next step
 * before the repeated one for a link that both take; empty after the last
 * step unless it repeats. The harvest records the step with each URL it
 * queues and calls this again, with that step, for every step by which a
 * page was reached. Repetition is not bounded here, as seed 004's online
 * phase repeats until no new page comes: the harvest's own record of the
 * (URL, step) pairs it has seen and its page limit end it. */
GPtrArray        *cg_nav_expression_follow          (const CgNavExpression  *self,
                                                     int                     reached_step,
                                                     GPtrArray              *links);

/* ---- the sampled graph ----------------------------------------------------- */

typedef struct _CgNavGraph CgNavGraph;

CgNavGraph   *cg_nav_graph_new                (const char          *entry_url);
void          cg_nav_graph_free               (CgNavGraph          *self);

const char   *cg_nav_graph_get_entry_url      (CgNavGraph          *self);

/* Adds a fetched page: @bigrams is a set of char * (as
 * cg_page_collect_bigrams() returns; read, not kept), @links its CgNavLink
 * (read, not kept). Links to pages that are not (yet) in the graph are
 * kept and become edges if those pages are added later; links to pages
 * never added are ignored by the selection. If the page's 2-grams equal
 * those of a page already added, the URL becomes an alias of that page
 * and *@out_alias (may be NULL) is set. Fails for an empty URL, a URL
 * added before, an empty label, and beyond the bounds above. */
gboolean      cg_nav_graph_add_page           (CgNavGraph          *self,
                                               const char          *url,
                                               GHashTable          *bigrams,
                                               GPtrArray           *links,
                                               gboolean            *out_alias,
                                               GError             **error);

/* cg_nav_graph_add_page() with the 2-grams and labelled links of @doc. */
gboolean      cg_nav_graph_add_document       (CgNavGraph             *self,
                                               const char             *url,
                                               htmlDocPtr              doc,
                                               CgLinkLabelAttributes   attributes,
                                               gboolean               *out_alias,
                                               GError                **error);

/* Vertices (distinct pages) and URLs (vertices plus aliases). */
guint         cg_nav_graph_get_n_pages        (CgNavGraph          *self);
guint         cg_nav_graph_get_n_urls         (CgNavGraph          *self);
/* The sample's distinct 2-grams. */
guint         cg_nav_graph_get_n_bigrams      (CgNavGraph          *self);

/* ---- selection ------------------------------------------------------------ */

typedef struct {
  guint  max_depth;         /* k; 1 … CG_NAV_MAX_DEPTH */
  guint  max_repeats;       /* applications of a repeated step while learning, ≥ 1;
                             * 1 means no step repeats; G_MAXUINT means {1,*} */
  double completion_ratio;  /* cr, in (0, 1] */
} CgNavOptions;

void          cg_nav_options_init             (CgNavOptions        *options);

/* One selected pattern, with what it brought when it was chosen. */
typedef struct {
  CgNavExpression *expression;
  double           score;       /* new distinct 2-grams per new page */
  guint            pages;       /* pages it reached that no earlier choice did */
  guint            bigrams;     /* 2-grams it covered that no earlier choice did */
  double           coverage;    /* share of the sample's 2-grams covered after it */
} CgNavChoice;

void          cg_nav_choice_free              (CgNavChoice         *choice);

typedef struct {
  guint    n_pages;           /* vertices of the sample */
  guint    n_reachable;       /* pages some enumerated pattern reaches, entry included */
  guint    n_patterns;        /* candidates enumerated (distinct page sets) */
  gboolean truncated;         /* enumeration stopped at CG_NAV_MAX_PATTERNS */
  guint    n_bigrams;         /* distinct 2-grams of the sample */
  guint    n_covered;         /* of those, covered by the entry page and the choices */
  double   coverage;          /* n_covered / n_bigrams (1 for a sample without text) */
  guint    n_selected_pages;  /* pages the choices need, the entry page included */
} CgNavStats;

/* Runs Algorithm 5.1 on the graph and returns the choices (CgNavChoice)
 * in the order they were made. Fails when the entry URL is not in the
 * graph and for options out of range. @options and @stats may be NULL. */
GPtrArray    *cg_nav_graph_select             (CgNavGraph          *self,
                                               const CgNavOptions  *options,
                                               CgNavStats          *stats,
                                               GError             **error);

/* Adds the choices to @model with cg_site_model_add_pattern(), in order. */
void          cg_nav_choices_add_to_model     (GPtrArray           *choices,
                                               CgSiteModel         *model);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CgNavLink, cg_nav_link_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CgNavExpression, cg_nav_expression_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CgNavFollow, cg_nav_follow_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CgNavGraph, cg_nav_graph_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CgNavChoice, cg_nav_choice_free)

G_END_DECLS
