/* cg-site-learner.h: seed 000's model inference (Algorithm 1, GENERATE MODEL).
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "cg-site-model.h"

G_BEGIN_DECLS

/* A CgSiteLearner runs seed 000's learning crawl as a pull state machine:
 * it never fetches anything itself. The caller asks it which URLs to fetch
 * (cg_site_learner_next_requests()), fetches them however it fetches
 * (the crawler archives them in WARC and obeys robots.txt; tests answer
 * from the demo site directly) and hands every answer back, failures
 * included (cg_site_learner_add_page()), until cg_site_learner_is_done().
 * cg_site_learner_build_model() then turns what it learned into a
 * CgSiteModel. The same answers in the same order give the same model.
 *
 * Each page is parsed once, when it is added, and only its features are
 * kept: its anchors with their DOM paths, its schema, title and heading.
 * Every request counts against the page budget, whatever its outcome. */

/* The parameters of seed 000's experiments (§3, §5). */
#define CG_LEARNER_DEFAULT_MAX_PAGES              200
#define CG_LEARNER_DEFAULT_MERGE_THRESHOLD        0.2
#define CG_LEARNER_DEFAULT_SAMPLES_PER_COLLECTION 3
#define CG_LEARNER_DEFAULT_C_INDEX                0.8
#define CG_LEARNER_DEFAULT_C_MISS                 1.0
#define CG_LEARNER_DEFAULT_MAX_TEXT_LENGTH        64

/* Bounds on what the caller may ask for. */
#define CG_LEARNER_MAX_PAGES                      100000
#define CG_LEARNER_MAX_SAMPLES_PER_COLLECTION     1000

/* At most this many link collections wait in the queue; further ones are
 * dropped (a site with more distinct collections than this in a few
 * hundred pages is generating them). */
#define CG_LEARNER_MAX_QUEUE                      100000

/* A collection is refined (split by one more attribute test) at most this
 * many times before it is taken for a menu. */
#define CG_LEARNER_MAX_REFINEMENTS                4

/* At most this many pages that came alone wait for pages of their
 * template before they are classified alone (see cg-site-learner.c). */
#define CG_LEARNER_MAX_WAITING                    32

/* Sample URLs kept per class in the model. */
#define CG_LEARNER_MODEL_SAMPLES                  5

/* Seed 000 §3.3.5: which link collections are explored first. */
typedef enum {
  /* Collections with many links relative to the links of their page's
   * class first: large collections are likely lists of content pages. */
  CG_LEARNER_NAVIGATION_DENSE,
  /* Small collections first, to reach unexplored regions. */
  CG_LEARNER_NAVIGATION_SPARSE,
} CgLearnerNavigation;

typedef struct {
  guint               max_pages;               /* n: requests in all */
  double              merge_threshold;         /* dt, in [0, 1] */
  guint               samples_per_collection;  /* URLs fetched per collection */
  double              c_index;
  double              c_miss;
  CgLearnerNavigation navigation;
  guint               max_text_length;         /* texts shorter than this; at most 64 */
} CgLearnerParams;

/* Fills @params with the defaults above. */
void                cg_learner_params_init          (CgLearnerParams   *params);

#define CG_SITE_LEARNER_ERROR (cg_site_learner_error_quark ())

typedef enum {
  CG_SITE_LEARNER_ERROR_BAD_ENTRY,      /* the entry URL is not a crawlable URL */
  CG_SITE_LEARNER_ERROR_BAD_PARAMETER,  /* a parameter out of its range */
  CG_SITE_LEARNER_ERROR_NOT_REQUESTED,  /* an answer for a URL not asked for, or twice */
  CG_SITE_LEARNER_ERROR_BAD_PAGE,       /* a page that cannot be analysed */
} CgSiteLearnerError;

GQuark              cg_site_learner_error_quark     (void);

#define CG_TYPE_SITE_LEARNER (cg_site_learner_get_type ())
G_DECLARE_FINAL_TYPE (CgSiteLearner, cg_site_learner, CG, SITE_LEARNER, GObject)

/* @params may be NULL for the defaults. Only links to the entry URL's
 * scheme, host and port are followed; when the entry URL redirects to
 * another one (to https, to www.), the site is the one it lands on. */
CgSiteLearner      *cg_site_learner_new             (const char             *entry_url,
                                                     const CgLearnerParams  *params,
                                                     GError                **error);

const char         *cg_site_learner_get_entry_url   (CgSiteLearner          *self);

/* The URLs (char *) to fetch next: the entry URL first, then the sample of
 * one link collection at a time. Until every one of them has been given
 * to cg_site_learner_add_page(), the same call returns those still
 * awaited. Empty when the learner is done. */
GPtrArray          *cg_site_learner_next_requests   (CgSiteLearner          *self);

/* The answer to one requested URL. @final_url is where redirects ended
 * (NULL or @requested_url when there were none); @status is 0 when there
 * was no HTTP answer (network failure, refused by robots.txt) and the
 * final status otherwise. Only 2xx answers with an HTML body become pages;
 * a redirect to the page that links to the URL is not a link, and one to a
 * page already seen makes the URL another name of that page. Returns
 * FALSE with an error for a URL that was not requested (or was answered
 * already) and for an HTML page that cannot be analysed (it still counts
 * as fetched). */
gboolean            cg_site_learner_add_page        (CgSiteLearner          *self,
                                                     const char             *requested_url,
                                                     const char             *final_url,
                                                     guint                   status,
                                                     const char             *content_type,
                                                     GBytes                 *body,
                                                     GError                **error);

gboolean            cg_site_learner_is_done         (CgSiteLearner          *self);
/* Answers received so far, pages or not. */
guint               cg_site_learner_get_n_pages     (CgSiteLearner          *self);
/* Answers that became pages of the model. */
guint               cg_site_learner_get_n_modelled  (CgSiteLearner          *self);

/* The model of what has been learned so far (usually called when done):
 * page classes with names, labels, URL patterns, schemas, samples and
 * depths from the entry class, and typed class links with their XPaths. */
CgSiteModel        *cg_site_learner_build_model     (CgSiteLearner          *self);

/* The name of the class the model gives the page fetched for @url (as
 * requested or as redirected to), or NULL if @url gave no page or the
 * page is not classified yet (it may wait for pages like it until the
 * learner is done). The name is the one cg_site_learner_build_model()
 * gives the class; it is owned by the learner and valid until the next
 * call of any other cg_site_learner_ function, since names follow the
 * classes as they grow. */
const char         *cg_site_learner_get_page_class  (CgSiteLearner          *self,
                                                     const char             *url);

/* The URLs of the pages in the model, in the order they were added. */
GStrv               cg_site_learner_list_pages      (CgSiteLearner          *self);

G_END_DECLS
