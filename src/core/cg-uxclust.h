/* cg-uxclust.h: seed 003's UXClust, pages clustered by the XPath of their inbound link.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "cg-page-features.h"

G_BEGIN_DECLS

/* UXClust (seed 003 §3.4) clusters a site's pages by template while
 * reading only a few of them. A breadth-first crawl records, for every
 * URL, the indexed absolute XPath (cg_dom_node_xpath()) of the link that
 * first led to it, the topmost one on the page that discovered it. Pages
 * are then:
 *
 *  1. grouped by that inbound-link XPath, without reading them (a link
 *     location of a template usually points at pages of one template);
 *  2. groups with fewer than the cut-off of URLs are dropped, and their
 *     pages are left unclustered (small groups are top-ten lists, news,
 *     policy pages);
 *  3. every remaining group gets a fingerprint: a few of its pages are
 *     sampled at random and the fingerprint is the set of leaf tag paths
 *     found in more than the occurrence threshold's share of the samples;
 *  4. two groups whose fingerprints are more similar than the similarity
 *     threshold are merged, transitively (union-find), and each resulting
 *     set of groups is one cluster, one template.
 *
 * The seed's own choices and where this module departs from them:
 *
 *  - Leaf paths. The thesis takes "all HTML tree paths that do not contain
 *    text", by the bag-of-paths method of Joshi et al.; its example of such
 *    paths (Fig. 3.3) has leaves such as /html/body/footer/div/p that hold
 *    text, so the phrase is read as "tag paths of the leaf elements, text
 *    nodes not being part of a path": CG_LEAF_PATHS_ALL_LEAVES, the
 *    default. Leaves that hold no text at all (CG_LEAF_PATHS_TEXTLESS) are
 *    an option; they are few and mostly the site's chrome: on the demo
 *    bookshop the static pages, the author index and the 404 page have the
 *    same three (head's meta and link, the search field).
 *  - Occurrence is the share of the sampled pages that have the path,
 *    counted once per page; with 3 samples, > 0.3 keeps a path that one of
 *    them has (the seed found the threshold to matter little).
 *  - Similarity is the common-paths measure of eq. 3.3,
 *    |A ∩ B| / max (|A|, |B|), which the thesis also calls Jaccard;
 *    Jaccard proper, |A ∩ B| / |A ∪ B|, is an option.
 *  - Samples: the thesis uses 5 in Chapter 3 and finds 3 the best fit in
 *    Chapter 4; the default is 3. Sampling uses a seeded generator, so a
 *    run is reproducible.
 *  - A cluster's fingerprint, for classifying pages later, is made the
 *    same way from the samples of all its groups. */

#define CG_UXCLUST_DEFAULT_CUTOFF      100
#define CG_UXCLUST_DEFAULT_SAMPLES     3
#define CG_UXCLUST_DEFAULT_OCCURRENCE  0.3
#define CG_UXCLUST_DEFAULT_SIMILARITY  0.8
#define CG_UXCLUST_DEFAULT_SEED        20140101u

/* Bounds: pages given to one run, samples per group, and inbound XPaths
 * longer than this are refused (libxml2 nests at most 256 elements, so a
 * real XPath stays far below). */
#define CG_UXCLUST_MAX_PAGES           5000000
#define CG_UXCLUST_MAX_SAMPLES         100
#define CG_UXCLUST_MAX_XPATH_LENGTH    16384

#define CG_UXCLUST_ERROR (cg_uxclust_error_quark ())

typedef enum {
  CG_UXCLUST_ERROR_INVALID_PAGE,     /* an empty URL, an empty or overlong XPath */
  CG_UXCLUST_ERROR_TOO_MANY,         /* more than CG_UXCLUST_MAX_PAGES */
  CG_UXCLUST_ERROR_INVALID_OPTIONS,  /* a threshold or count out of range */
  CG_UXCLUST_ERROR_READ,             /* the page reader failed */
} CgUxclustError;

GQuark        cg_uxclust_error_quark       (void);

typedef enum {
  CG_UXCLUST_MEASURE_COMMON_PATHS,   /* |A ∩ B| / max (|A|, |B|), eq. 3.3 */
  CG_UXCLUST_MEASURE_JACCARD,        /* |A ∩ B| / |A ∪ B| */
} CgUxclustMeasure;

typedef struct {
  guint            cutoff;       /* minimum URLs of a group; 1 keeps every group */
  guint            samples;      /* pages read per group, 1 … CG_UXCLUST_MAX_SAMPLES */
  double           occurrence;   /* in [0, 1) */
  double           similarity;   /* in [0, 1) */
  CgUxclustMeasure measure;
  CgLeafPathKind   leaves;
  guint32          seed;
} CgUxclustOptions;

void          cg_uxclust_options_init      (CgUxclustOptions *options);

/* The similarity of two fingerprints, sorted string arrays as
 * cg_uxclust_fingerprint() returns (or any sorted, duplicate-free
 * arrays). Two empty fingerprints have similarity 0: nothing shows that
 * they share a template. */
double        cg_uxclust_similarity        (const char * const *a,
                                            const char * const *b,
                                            CgUxclustMeasure    measure);

/* The fingerprint of some pages: the paths that are keys of more than
 * @occurrence × @pages->len of the @pages (GHashTable from
 * cg_page_collect_leaf_paths()), sorted. */
GStrv         cg_uxclust_fingerprint       (GPtrArray          *pages,
                                            double              occurrence);

/* Reads one sampled page: returns its leaf paths as
 * cg_page_collect_leaf_paths() does for @kind, or NULL with @error set. */
typedef GHashTable *(*CgUxclustReadFunc) (const char      *url,
                                          CgLeafPathKind   kind,
                                          gpointer         user_data,
                                          GError         **error);

typedef struct {
  GPtrArray *urls;          /* char *, in the order the pages were added */
  GStrv      xpaths;        /* the inbound-link XPaths of its groups, largest group first */
  GStrv      fingerprint;   /* sorted */
  guint      n_sampled;     /* pages read to make it */
} CgUxclustCluster;

typedef struct {
  GPtrArray *clusters;      /* CgUxclustCluster *, largest first */
  GPtrArray *unclustered;   /* char *: pages of dropped groups and pages without an inbound link */
  guint      n_pages;
  guint      n_groups;      /* distinct inbound-link XPaths */
  guint      n_kept_groups; /* groups at or above the cut-off */
  guint      n_read;        /* pages the reader was asked for */
} CgUxclustResult;

void          cg_uxclust_cluster_free      (CgUxclustCluster *cluster);
void          cg_uxclust_result_free       (CgUxclustResult  *result);

typedef struct _CgUxclust CgUxclust;

CgUxclust    *cg_uxclust_new               (void);
void          cg_uxclust_free              (CgUxclust        *self);

/* Records a page and the indexed XPath of the link that first led to it;
 * @inbound_xpath is NULL for a page no link led to (the entry page),
 * which stays unclustered. As in the seed, a URL keeps its first inbound
 * XPath: adding it again changes nothing. Fails for an empty URL, an
 * empty or overlong XPath and beyond CG_UXCLUST_MAX_PAGES pages. */
gboolean      cg_uxclust_add_page          (CgUxclust        *self,
                                            const char       *url,
                                            const char       *inbound_xpath,
                                            GError          **error);
guint         cg_uxclust_get_n_pages       (CgUxclust        *self);

/* Runs the four steps above with @options (defaults when NULL), asking
 * @read for the sampled pages only. Fails for options out of range, and
 * when @read fails, with its message and the page's URL. */
CgUxclustResult *cg_uxclust_run            (CgUxclust              *self,
                                            const CgUxclustOptions *options,
                                            CgUxclustReadFunc       read,
                                            gpointer                user_data,
                                            GError                **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CgUxclust, cg_uxclust_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CgUxclustCluster, cg_uxclust_cluster_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CgUxclustResult, cg_uxclust_result_free)

G_END_DECLS
