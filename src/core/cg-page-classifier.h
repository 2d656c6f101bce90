/* cg-page-classifier.h: which class of a site model a fetched page belongs to.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <libxml/HTMLparser.h>

#include "cg-site-model.h"
#include "cg-store.h"
#include "cg-uxclust.h"

G_BEGIN_DECLS

/* The harvest labels every page it fetches with a class of the model, or
 * leaves it unclassified; a page that fits no class is never forced into
 * one. The evidence is tried in this order, and the first that decides
 * wins:
 *
 *  1. link: the page was reached through a class link of the model, whose
 *     target class the caller passes: seed 000's intensive crawl knows the
 *     class of a page from the link that discovered it.
 *  2. uxclust: the page's leaf tag paths (seed 003's fingerprint of one
 *     page) are more similar than the UXClust threshold (0.8) to a class's
 *     fingerprint. When the link that led to the
 *     page has an inbound-link XPath recorded for a class (the location
 *     UXClust grouped the class's pages by), that class is tried first and
 *     wins if its fingerprint agrees; otherwise the most similar
 *     fingerprint above the threshold wins. The fingerprint check is what
 *     catches seed 003's silent substitutions, where a link location that
 *     normally leads to one template answers with another.
 *  3. schema: the page's schema (below) is compared with each class's
 *     schema by Jaccard distance, and the nearest class below the schema
 *     threshold wins. Among the classes below the threshold, those whose
 *     URL pattern matches the page's URL come first, so that the URL
 *     breaks near-ties between classes that look alike.
 *  4. Otherwise the page is unclassified.
 *
 * The fingerprint of one page is compared by Jaccard similarity, not by
 * seed 003's common-paths measure |A ∩ B| / max (|A|, |B|), which UXClust
 * uses to merge groups of pages. Common paths forgive a page whose paths
 * are nearly all found in a larger fingerprint, which is what a page of a
 * poorer template looks like when every page shares the site's chrome: on
 * the demo bookshop, a search with no result (chrome, a form and one
 * line) scores 0.84 against the author index by common paths and would be
 * forced into it, while Jaccard leaves it unclassified and still puts every
 * page of the site in its class. cg_page_classifier_set_measure() restores
 * the seed's measure.
 *
 * The schema threshold is seed 000's merge threshold dt = 0.2: seed 000
 * merges two groups of pages into one class when their schemas are closer
 * than dt, so a page closer than dt to a class's schema is one that the
 * learning would have put in that class, and a page further from every
 * class is one it would have put in a class of its own.
 *
 * A page's schema is seed 000's (§3.2.2): the paths of its link
 * collections and text collections, each written as the XPath of its
 * default lattice path (cg_page_link_collections(),
 * cg_page_text_collections()), such as
 * /html[@lang]/body[@class]/main[@class]/ul[@class]/li[@class]/h3[@class]/a.
 * A class's schema is compared in the form to which seed 000 applies dt:
 * the union of its pages' schemas, text paths included (the schema of a
 * group in candidate selection). Seed 000's MDL class schema, which keeps
 * a text path only when its text repeats on two pages of the class, lacks
 * the paths of titles, prices and the like, and every page of the class
 * is far from it (on the demo bookshop, a model from the learner then
 * classifies no page by schema). The classifier takes the model's class
 * schemas as they are; cg_page_classifier_set_schema() gives a class the
 * union schema of its sample pages instead. Only paths are compared, not
 * texts. */

#define CG_PAGE_CLASSIFIER_DEFAULT_SCHEMA_DISTANCE  0.2
#define CG_PAGE_CLASSIFIER_DEFAULT_MEASURE          CG_UXCLUST_MEASURE_JACCARD

#define CG_PAGE_CLASSIFIER_ERROR (cg_page_classifier_error_quark ())

typedef enum {
  CG_PAGE_CLASSIFIER_ERROR_INVALID_MODEL,  /* a class's URL pattern is not a regular expression */
  CG_PAGE_CLASSIFIER_ERROR_UNKNOWN_CLASS,  /* a class name the model does not have */
} CgPageClassifierError;

GQuark        cg_page_classifier_error_quark     (void);

typedef enum {
  CG_CLASSIFY_NONE,      /* unclassified */
  CG_CLASSIFY_LINK,
  CG_CLASSIFY_UXCLUST,
  CG_CLASSIFY_SCHEMA,
} CgClassifyMethod;

/* "none", "link", "uxclust", "schema". */
const char   *cg_classify_method_to_string       (CgClassifyMethod  method);

typedef struct {
  const char       *class_name;   /* owned by the classifier; NULL when unclassified */
  CgClassifyMethod  method;
  /* For uxclust, the fingerprint similarity; for schema, the Jaccard
   * distance; for link 1; when unclassified, the nearest schema distance
   * (1 when no class has a schema). */
  double            score;
} CgClassification;

/* The schema of one page, as described above: sorted, without
 * duplicates. Fails only when @url is not http(s) (CG_LINKS_ERROR). */
GStrv         cg_page_schema_collect             (htmlDocPtr          doc,
                                                  const char         *url,
                                                  GError            **error);

/* 1 − |a ∩ b| / |a ∪ b| for two sorted, duplicate-free arrays; 1 when
 * both are empty. */
double        cg_page_schema_distance            (const char * const *a,
                                                  const char * const *b);

typedef struct _CgPageClassifier CgPageClassifier;

/* Copies the classes of @model (names, schemas, URL patterns); later
 * changes to the model do not reach the classifier. Fails when a URL
 * pattern does not compile, naming the class. */
CgPageClassifier *cg_page_classifier_new         (CgSiteModel        *model,
                                                  GError            **error);
void          cg_page_classifier_free            (CgPageClassifier   *self);

/* Gives a class its UXClust fingerprint (sorted, as
 * cg_uxclust_fingerprint() makes it) and the inbound-link XPaths of its
 * UXClust groups (may be NULL). Replaces what the class had. Fails for a
 * class the model does not have. */
gboolean      cg_page_classifier_set_fingerprint (CgPageClassifier   *self,
                                                  const char         *class_name,
                                                  const char * const *fingerprint,
                                                  const char * const *inbound_xpaths,
                                                  GError            **error);

/* Gives a class the schema it is compared with (sorted or not; see
 * above), replacing the one it had from the model. Fails for a class the
 * model does not have. */
gboolean      cg_page_classifier_set_schema      (CgPageClassifier   *self,
                                                  const char         *class_name,
                                                  const char * const *schema,
                                                  GError            **error);

/* Gives a class the schema and fingerprint of its sample pages @docs
 * (htmlDocPtr, each fetched from the URL at the same index of @urls): the
 * union of their schemas, and the UXClust fingerprint of their leaf paths.
 * No sample leaves the class as the model describes it. Fails for a class
 * the model does not have. */
gboolean      cg_page_classifier_learn_samples   (CgPageClassifier   *self,
                                                  const char         *class_name,
                                                  GPtrArray          *docs,
                                                  GPtrArray          *urls,
                                                  GError            **error);

/* Thresholds: fingerprint similarity (default
 * CG_UXCLUST_DEFAULT_SIMILARITY; a page matches above it) and schema
 * distance (default CG_PAGE_CLASSIFIER_DEFAULT_SCHEMA_DISTANCE; a page
 * matches below it). */
void          cg_page_classifier_set_thresholds  (CgPageClassifier   *self,
                                                  double              fingerprint_similarity,
                                                  double              schema_distance);

/* How a page's fingerprint is compared with a class's (default
 * CG_PAGE_CLASSIFIER_DEFAULT_MEASURE, see above). */
void          cg_page_classifier_set_measure     (CgPageClassifier   *self,
                                                  CgUxclustMeasure    measure);

/* Classifies the page @doc fetched from @url. @inbound_xpath is the
 * indexed XPath of the link that led to it (NULL if unknown), @link_class
 * the target class of the class link that discovered it (NULL if none).
 * Fails for a @link_class the model does not have (CG_PAGE_CLASSIFIER_ERROR)
 * and for a @url that is not http(s) (CG_LINKS_ERROR_BAD_BASE); an
 * unclassified page is not a failure. */
gboolean      cg_page_classifier_classify        (CgPageClassifier   *self,
                                                  htmlDocPtr          doc,
                                                  const char         *url,
                                                  const char         *inbound_xpath,
                                                  const char         *link_class,
                                                  CgClassification   *out,
                                                  GError            **error);

/* Records in @store that the page @url_id is of the class @class_name
 * (NULL: of none) of the model @model_id, found by @method, in place of
 * the label it had in that model. */
gboolean      cg_page_classifier_store_label     (CgStore            *store,
                                                  gint64              url_id,
                                                  gint64              model_id,
                                                  const char         *class_name,
                                                  CgClassifyMethod    method,
                                                  GError            **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CgPageClassifier, cg_page_classifier_free)

G_END_DECLS
