/* cg-site-model.h: a site's model: page classes and the typed links between them.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "cg-store.h"

G_BEGIN_DECLS

#define CG_SITE_MODEL_ERROR (cg_site_model_error_quark ())

typedef enum {
  CG_SITE_MODEL_ERROR_SPEC,       /* a crawl spec or model file that cannot be read */
  CG_SITE_MODEL_ERROR_NOT_FOUND,  /* no such model or version */
  CG_SITE_MODEL_ERROR_INVALID,    /* a model that breaks its own rules */
} CgSiteModelError;

/* Seed 000's class link types, plus form for hand-written specs. The
 * names are those of the crawl-spec format (Appendix A). */
typedef enum {
  CG_CLASS_LINK_LIST,
  CG_CLASS_LINK_MENU,
  CG_CLASS_LINK_SINGLETON,
  CG_CLASS_LINK_FORM,
} CgClassLinkType;

typedef enum {
  CG_MENU_NONE,
  CG_MENU_FIXED_ANCHOR,
  CG_MENU_VARIABLE_ANCHOR,
} CgMenuKind;

/* Seed 000's data link types: what a wrapper column holds. */
typedef enum {
  CG_DATA_LINK_STRING,
  CG_DATA_LINK_URL,
  CG_DATA_LINK_IMG,
  CG_DATA_LINK_FORM,
} CgDataLinkType;

typedef struct {
  char      *name;         /* unique in the model: "book", "category" */
  char      *label;        /* readable, renamable: "Book" */
  int        depth;        /* class links from the entry class; -1 if unreachable */
  char      *url_pattern;  /* a regular expression, anchored; NULL if unknown */
  GStrv      schema;       /* root-to-element paths shared by the class's pages */
  GStrv      samples;      /* URLs of sample pages */
  guint      n_pages;      /* pages of the learning sample in the class */
} CgPageClass;

typedef struct {
  char            *source;   /* class names */
  char            *target;
  CgClassLinkType  type;
  CgMenuKind       menu;
  char            *xpath;    /* the links' path on pages of the source class */
  guint            n_links;  /* page links seen behind it */
} CgClassLink;

typedef struct {
  char           *source;    /* class name */
  CgDataLinkType  type;
  char           *xpath;
  char           *name;      /* the column */
} CgDataLink;

typedef struct {
  char   *pattern;   /* e.g. "L(/html/body/nav/a) L+(//a[@rel='next']) L(//h3/a)" */
  double  score;     /* distinct 2-grams per page it brought in the sample */
  guint   pages;
} CgNavPattern;

#define CG_TYPE_SITE_MODEL (cg_site_model_get_type ())
G_DECLARE_FINAL_TYPE (CgSiteModel, cg_site_model, CG, SITE_MODEL, GObject)

GQuark             cg_site_model_error_quark      (void);

CgSiteModel       *cg_site_model_new              (const char        *site);

const char        *cg_site_model_get_site         (CgSiteModel       *self);
gint64             cg_site_model_get_id           (CgSiteModel       *self);
int                cg_site_model_get_version      (CgSiteModel       *self);
gint64             cg_site_model_get_created_at   (CgSiteModel       *self);
const char        *cg_site_model_get_parameters   (CgSiteModel       *self);
void               cg_site_model_set_parameters   (CgSiteModel       *self,
                                                   const char        *json);
gint64             cg_site_model_get_crawl_id     (CgSiteModel       *self);
void               cg_site_model_set_crawl_id     (CgSiteModel       *self,
                                                   gint64             crawl_id);

/* The model takes the strings it is given by copy. */
CgPageClass       *cg_site_model_add_class        (CgSiteModel       *self,
                                                   const char        *name,
                                                   const char        *label);
CgPageClass       *cg_site_model_get_class        (CgSiteModel       *self,
                                                   const char        *name);
GPtrArray         *cg_site_model_get_classes      (CgSiteModel       *self);
gboolean           cg_site_model_rename_class     (CgSiteModel       *self,
                                                   CgStore           *store,
                                                   const char        *name,
                                                   const char        *label,
                                                   GError           **error);
CgClassLink       *cg_site_model_add_link         (CgSiteModel       *self,
                                                   const char        *source,
                                                   const char        *target,
                                                   CgClassLinkType    type,
                                                   const char        *xpath);
GPtrArray         *cg_site_model_get_links        (CgSiteModel       *self);
CgDataLink        *cg_site_model_add_data_link    (CgSiteModel       *self,
                                                   const char        *source,
                                                   CgDataLinkType     type,
                                                   const char        *xpath,
                                                   const char        *name);
GPtrArray         *cg_site_model_get_data_links   (CgSiteModel       *self);
CgNavPattern      *cg_site_model_add_pattern      (CgSiteModel       *self,
                                                   const char        *pattern,
                                                   double             score,
                                                   guint              pages);
GPtrArray         *cg_site_model_get_patterns     (CgSiteModel       *self);
const char        *cg_site_model_get_entry_class  (CgSiteModel       *self);
void               cg_site_model_set_entry_class  (CgSiteModel       *self,
                                                   const char        *name);
void               cg_site_model_compute_depths   (CgSiteModel       *self);
gboolean           cg_site_model_validate         (CgSiteModel       *self,
                                                   GError           **error);

/* Versions in the store. Saving gives the model the next version of its
 * site; a saved model is not changed by later saves. */
gboolean           cg_site_model_save             (CgSiteModel       *self,
                                                   CgStore           *store,
                                                   GError           **error);
CgSiteModel       *cg_site_model_load             (CgStore           *store,
                                                   const char        *site,
                                                   int                version,
                                                   GError           **error);
CgSiteModel       *cg_site_model_load_latest      (CgStore           *store,
                                                   const char        *site,
                                                   GError           **error);
GArray            *cg_site_model_list_versions    (CgStore           *store,
                                                   const char        *site,
                                                   GError           **error);
/* The sites that have a model in @store, sorted; empty when none has.
 * NULL with @error when the store cannot be read (a damaged or
 * unreadable database), rather than the sites read before the error. */
GStrv              cg_site_model_list_sites       (CgStore           *store,
                                                   GError           **error);

/* Seed 000's crawl-spec format (Appendix A) as tab-separated rows, with
 * two row types of Cartograph's own so that a model goes through it
 * without loss (see cg-site-model.c). Hand-written specs load through the
 * same reader, and a bad row gets an error naming its line. @site is the
 * model's site unless a site row names another; like a JSON model's, it
 * must be an http or https URL when it is not empty, and each class may
 * be defined once, with a URL pattern that is a regular expression. */
char              *cg_site_model_to_spec          (CgSiteModel       *self);
CgSiteModel       *cg_site_model_from_spec        (const char        *site,
                                                   const char        *text,
                                                   GError           **error);
char              *cg_site_model_to_json          (CgSiteModel       *self);
CgSiteModel       *cg_site_model_from_json        (const char        *text,
                                                   GError           **error);
/* As cg_site_model_from_json(), with @site (may be NULL) as the model's
 * site when the file does not name one, as cg_site_model_from_spec()
 * takes it. Models read from a file are checked more than the ones
 * Cartograph builds: the site must be an http or https URL when given,
 * class names unique and URL patterns regular expressions, and every
 * member of the JSON of the type it should be. Fails in JSON_PARSER_ERROR
 * for text that is not JSON, CG_JSON_ERROR for a member of the wrong
 * type, and CG_SITE_MODEL_ERROR for the rest. */
CgSiteModel       *cg_site_model_from_json_with_site (const char     *site,
                                                      const char     *text,
                                                      GError        **error);
char              *cg_site_model_to_dot           (CgSiteModel       *self);
char              *cg_site_model_to_graphml       (CgSiteModel       *self);

/* What changed from @old to @new: classes are matched by name, then by URL
 * pattern; a matched class changed when its URL pattern or schema did. */
typedef struct {
  GStrv added_classes;      /* names in @new */
  GStrv removed_classes;    /* names in @old */
  GStrv changed_classes;    /* names in @new */
  GStrv added_links;        /* "source → target (type)" in @new's names */
  GStrv removed_links;      /* in @old's names */
} CgSiteModelDiff;

CgSiteModelDiff   *cg_site_model_compare          (CgSiteModel       *old_model,
                                                   CgSiteModel       *new_model);
void               cg_site_model_diff_free        (CgSiteModelDiff   *diff);
gboolean           cg_site_model_diff_is_empty    (const CgSiteModelDiff *diff);

const char        *cg_class_link_type_to_string   (CgClassLinkType    type);
gboolean           cg_class_link_type_from_string (const char        *text,
                                                   CgClassLinkType   *out_type);
const char        *cg_menu_kind_to_string         (CgMenuKind         kind);
const char        *cg_data_link_type_to_string    (CgDataLinkType     type);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CgSiteModelDiff, cg_site_model_diff_free)

G_END_DECLS
