/* cg-site-model.c: a site's model: page classes and the typed links between them.
 *
 * The model of seed 000 (§2): page classes with their schemas, class links
 * typed list, menu or singleton with the XPath that finds them on pages of
 * the source class (a link from a class to itself is pagination), data
 * links (wrappers) and seed 004's navigation patterns. Models are saved as
 * numbered versions per site; a saved version is never rewritten, except
 * for the readable names of its classes, which the user may change.
 *
 * The crawl spec is seed 000's Appendix A, one row per tab-separated line:
 *
 *   SOURCE  link    XPATH  DESTINATION  list|menu|singleton|form  [MENU  [N]]
 *   SOURCE  string|url|img|form  XPATH  [NAME]
 *
 * and, so that a model survives the trip, Cartograph's own rows, which
 * hand-written specs need not have:
 *
 *   NAME    class    LABEL  URL_PATTERN  DEPTH  N_PAGES  SCHEMA_JSON  SAMPLES_JSON
 *   -       pattern  PATTERN  SCORE  PAGES
 *   -       site|entry|parameters  VALUE
 *
 * "-" stands for an empty value. Blank lines and lines starting with '#'
 * are ignored.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <glib/gi18n-lib.h>
#include <json-glib/json-glib.h>
#include <libxml/xpath.h>

#include "cg-site-model.h"
#include "cg-dom-path.h"
#include "cg-json.h"
#include "cg-url.h"
#include "cg-url-pattern.h"

struct _CgSiteModel
{
  GObject     parent_instance;

  char       *site;
  gint64      id;
  int         version;
  gint64      created_at;
  char       *parameters;
  gint64      crawl_id;
  char       *entry_class;

  GPtrArray  *classes;      /* CgPageClass * */
  GHashTable *by_name;      /* name → CgPageClass * */
  GPtrArray  *links;        /* CgClassLink * */
  GPtrArray  *data_links;   /* CgDataLink * */
  GPtrArray  *patterns;     /* CgNavPattern * */
};

G_DEFINE_FINAL_TYPE (CgSiteModel, cg_site_model, G_TYPE_OBJECT)
G_DEFINE_QUARK (cg-site-model-error-quark, cg_site_model_error)

static const char * const link_type_names[] = {
  [CG_CLASS_LINK_LIST] = "list",
  [CG_CLASS_LINK_MENU] = "menu",
  [CG_CLASS_LINK_SINGLETON] = "singleton",
  [CG_CLASS_LINK_FORM] = "form",
};

static const char * const menu_kind_names[] = {
  [CG_MENU_NONE] = "-",
  [CG_MENU_FIXED_ANCHOR] = "fixed-anchor",
  [CG_MENU_VARIABLE_ANCHOR] = "variable-anchor",
};

static const char * const data_link_type_names[] = {
  [CG_DATA_LINK_STRING] = "string",
  [CG_DATA_LINK_URL] = "url",
  [CG_DATA_LINK_IMG] = "img",
  [CG_DATA_LINK_FORM] = "form",
};

const char *
cg_class_link_type_to_string (CgClassLinkType type)
{
  return type < G_N_ELEMENTS (link_type_names) ? link_type_names[type] : "list";
}

/* The index of @text in @names, the value of the enum it names; -1 if
 * it names none. */
static int
lookup_name (const char * const *names,
             guint               n_names,
             const char         *text)
{
  for (guint i = 0; i < n_names; i++)
    if (g_strcmp0 (text, names[i]) == 0)
      return (int) i;
  return -1;
}

/* Defines @func (text, out_value), which sets *out_value to the value
 * of @Type that @text names in @names and fails, leaving it as it was,
 * when @text names none. */
#define DEFINE_FROM_STRING(func, Type, names)                          \
  gboolean                                                             \
  func (const char *text,                                              \
        Type       *out_value)                                         \
  {                                                                    \
    int index = lookup_name (names, G_N_ELEMENTS (names), text);       \
                                                                       \
    if (index < 0)                                                     \
      return FALSE;                                                    \
    *out_value = index;                                                \
    return TRUE;                                                       \
  }

DEFINE_FROM_STRING (cg_class_link_type_from_string, CgClassLinkType, link_type_names)
static DEFINE_FROM_STRING (menu_kind_from_string, CgMenuKind, menu_kind_names)
static DEFINE_FROM_STRING (data_link_type_from_string, CgDataLinkType, data_link_type_names)

const char *
cg_menu_kind_to_string (CgMenuKind kind)
{
  return kind < G_N_ELEMENTS (menu_kind_names) ? menu_kind_names[kind] : "-";
}

const char *
cg_data_link_type_to_string (CgDataLinkType type)
{
  return type < G_N_ELEMENTS (data_link_type_names) ? data_link_type_names[type] : "string";
}

static void
page_class_free (CgPageClass *klass)
{
  g_free (klass->name);
  g_free (klass->label);
  g_free (klass->url_pattern);
  g_strfreev (klass->schema);
  g_strfreev (klass->samples);
  g_free (klass);
}

static void
class_link_free (CgClassLink *link)
{
  g_free (link->source);
  g_free (link->target);
  g_free (link->xpath);
  g_free (link);
}

static void
data_link_free (CgDataLink *link)
{
  g_free (link->source);
  g_free (link->xpath);
  g_free (link->name);
  g_free (link);
}

static void
nav_pattern_free (CgNavPattern *pattern)
{
  g_free (pattern->pattern);
  g_free (pattern);
}

static void
cg_site_model_finalize (GObject *object)
{
  CgSiteModel *self = CG_SITE_MODEL (object);

  g_hash_table_unref (self->by_name);
  g_ptr_array_unref (self->classes);
  g_ptr_array_unref (self->links);
  g_ptr_array_unref (self->data_links);
  g_ptr_array_unref (self->patterns);
  g_free (self->site);
  g_free (self->parameters);
  g_free (self->entry_class);

  G_OBJECT_CLASS (cg_site_model_parent_class)->finalize (object);
}

static void
cg_site_model_class_init (CgSiteModelClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = cg_site_model_finalize;
}

static void
cg_site_model_init (CgSiteModel *self)
{
  self->classes = g_ptr_array_new_with_free_func ((GDestroyNotify) page_class_free);
  self->by_name = g_hash_table_new (g_str_hash, g_str_equal);
  self->links = g_ptr_array_new_with_free_func ((GDestroyNotify) class_link_free);
  self->data_links = g_ptr_array_new_with_free_func ((GDestroyNotify) data_link_free);
  self->patterns = g_ptr_array_new_with_free_func ((GDestroyNotify) nav_pattern_free);
  self->parameters = g_strdup ("{}");
}

/* A site as models are kept under it, however it was spelt
 * ("HTTP://Example.org:80" is "http://example.org/"), so that one site
 * has one history of versions. */
static char *
site_key (const char *site)
{
  char *normal = site != NULL ? cg_url_normalize (site, CG_URL_NORMALIZE_SYNTAX, NULL) : NULL;

  return normal != NULL ? normal : g_strdup (site != NULL ? site : "");
}

CgSiteModel *
cg_site_model_new (const char *site)
{
  CgSiteModel *self = g_object_new (CG_TYPE_SITE_MODEL, NULL);

  self->site = site_key (site);
  self->created_at = g_get_real_time () / G_USEC_PER_SEC;
  return self;
}

const char *
cg_site_model_get_site (CgSiteModel *self)
{
  return self->site;
}

gint64
cg_site_model_get_id (CgSiteModel *self)
{
  return self->id;
}

int
cg_site_model_get_version (CgSiteModel *self)
{
  return self->version;
}

gint64
cg_site_model_get_created_at (CgSiteModel *self)
{
  return self->created_at;
}

const char *
cg_site_model_get_parameters (CgSiteModel *self)
{
  return self->parameters;
}

void
cg_site_model_set_parameters (CgSiteModel *self,
                              const char  *json)
{
  g_free (self->parameters);
  self->parameters = g_strdup (json != NULL ? json : "{}");
}

gint64
cg_site_model_get_crawl_id (CgSiteModel *self)
{
  return self->crawl_id;
}

void
cg_site_model_set_crawl_id (CgSiteModel *self,
                            gint64       crawl_id)
{
  self->crawl_id = crawl_id;
}

const char *
cg_site_model_get_entry_class (CgSiteModel *self)
{
  return self->entry_class;
}

void
cg_site_model_set_entry_class (CgSiteModel *self,
                               const char  *name)
{
  g_free (self->entry_class);
  self->entry_class = g_strdup (name);
}

/* Returns the class called @name, adding it if the model has none. */
CgPageClass *
cg_site_model_add_class (CgSiteModel *self,
                         const char  *name,
                         const char  *label)
{
  CgPageClass *klass = g_hash_table_lookup (self->by_name, name);

  if (klass != NULL)
    return klass;
  klass = g_new0 (CgPageClass, 1);
  klass->name = g_strdup (name);
  klass->label = g_strdup (label != NULL ? label : name);
  klass->depth = -1;
  klass->schema = g_new0 (char *, 1);
  klass->samples = g_new0 (char *, 1);
  g_ptr_array_add (self->classes, klass);
  g_hash_table_insert (self->by_name, klass->name, klass);
  return klass;
}

CgPageClass *
cg_site_model_get_class (CgSiteModel *self,
                         const char  *name)
{
  return name != NULL ? g_hash_table_lookup (self->by_name, name) : NULL;
}

GPtrArray *
cg_site_model_get_classes (CgSiteModel *self)
{
  return self->classes;
}

/* Changes a class's readable name; when @store is given and the model is
 * saved, the stored version changes too (the only change a saved version
 * takes). */
gboolean
cg_site_model_rename_class (CgSiteModel  *self,
                            CgStore      *store,
                            const char   *name,
                            const char   *label,
                            GError      **error)
{
  CgPageClass *klass = cg_site_model_get_class (self, name);
  g_autofree char *stripped = g_strstrip (g_strdup (label != NULL ? label : ""));

  if (klass == NULL)
    {
      g_set_error (error, CG_SITE_MODEL_ERROR, CG_SITE_MODEL_ERROR_NOT_FOUND,
                   _("The model has no class “%s”"), name);
      return FALSE;
    }
  if (*stripped == '\0')
    {
      g_set_error (error, CG_SITE_MODEL_ERROR, CG_SITE_MODEL_ERROR_INVALID,
                   _("A class needs a name"));
      return FALSE;
    }
  if (store != NULL && self->id > 0)
    {
      g_autoptr(sqlite3_stmt) stmt = cg_store_prepare (store,
                                                       "UPDATE page_classes SET label = ?3 "
                                                       "WHERE model_id = ?1 AND name = ?2",
                                                       error);
      if (stmt == NULL)
        return FALSE;
      sqlite3_bind_int64 (stmt, 1, self->id);
      sqlite3_bind_text (stmt, 2, name, -1, SQLITE_STATIC);
      sqlite3_bind_text (stmt, 3, stripped, -1, SQLITE_STATIC);
      if (!cg_store_step_done (store, stmt, error))
        return FALSE;
    }
  g_free (klass->label);
  klass->label = g_steal_pointer (&stripped);
  return TRUE;
}

CgClassLink *
cg_site_model_add_link (CgSiteModel     *self,
                        const char      *source,
                        const char      *target,
                        CgClassLinkType  type,
                        const char      *xpath)
{
  CgClassLink *link = g_new0 (CgClassLink, 1);

  link->source = g_strdup (source);
  link->target = g_strdup (target);
  link->type = type;
  link->xpath = g_strdup (xpath);
  g_ptr_array_add (self->links, link);
  return link;
}

GPtrArray *
cg_site_model_get_links (CgSiteModel *self)
{
  return self->links;
}

CgDataLink *
cg_site_model_add_data_link (CgSiteModel    *self,
                             const char     *source,
                             CgDataLinkType  type,
                             const char     *xpath,
                             const char     *name)
{
  CgDataLink *link = g_new0 (CgDataLink, 1);

  link->source = g_strdup (source);
  link->type = type;
  link->xpath = g_strdup (xpath);
  link->name = g_strdup (name != NULL ? name : "");
  g_ptr_array_add (self->data_links, link);
  return link;
}

GPtrArray *
cg_site_model_get_data_links (CgSiteModel *self)
{
  return self->data_links;
}

CgNavPattern *
cg_site_model_add_pattern (CgSiteModel *self,
                           const char  *pattern,
                           double       score,
                           guint        pages)
{
  CgNavPattern *entry = g_new0 (CgNavPattern, 1);

  entry->pattern = g_strdup (pattern);
  entry->score = score;
  entry->pages = pages;
  g_ptr_array_add (self->patterns, entry);
  return entry;
}

GPtrArray *
cg_site_model_get_patterns (CgSiteModel *self)
{
  return self->patterns;
}

/* Depth of each class: class links from the entry class, breadth first. */
void
cg_site_model_compute_depths (CgSiteModel *self)
{
  g_autoptr(GQueue) queue = g_queue_new ();
  CgPageClass *entry = cg_site_model_get_class (self, self->entry_class);

  for (guint i = 0; i < self->classes->len; i++)
    ((CgPageClass *) g_ptr_array_index (self->classes, i))->depth = -1;
  if (entry == NULL)
    return;
  entry->depth = 0;
  g_queue_push_tail (queue, entry);
  while (!g_queue_is_empty (queue))
    {
      CgPageClass *klass = g_queue_pop_head (queue);

      for (guint i = 0; i < self->links->len; i++)
        {
          CgClassLink *link = g_ptr_array_index (self->links, i);
          CgPageClass *target;

          if (!g_str_equal (link->source, klass->name))
            continue;
          target = cg_site_model_get_class (self, link->target);
          if (target != NULL && target->depth < 0)
            {
              target->depth = klass->depth + 1;
              g_queue_push_tail (queue, target);
            }
        }
    }
}

static gboolean
check_xpath (const char  *xpath,
             GString     *problem)
{
  xmlXPathCompExprPtr compiled;

  if (xpath == NULL || *xpath == '\0')
    {
      g_string_append (problem, _("an empty XPath"));
      return FALSE;
    }
  compiled = cg_dom_xpath_compile (xpath);
  if (compiled == NULL)
    {
      g_string_append_printf (problem, _("“%s” is not a valid XPath"), xpath);
      return FALSE;
    }
  xmlXPathFreeCompExpr (compiled);
  return TRUE;
}

/* A form XPath is "FORM_XPATH[,FIELD_XPATH:VALUE]*" (seed 000, App. A). */
static gboolean
check_form_xpath (const char *text,
                  GString    *problem)
{
  g_auto(GStrv) parts = g_strsplit (text, ",", -1);

  if (!check_xpath (parts[0], problem))
    return FALSE;
  for (guint i = 1; parts[i] != NULL; i++)
    {
      char *colon = strrchr (parts[i], ':');
      g_autofree char *field = NULL;

      if (colon == NULL)
        {
          g_string_append_printf (problem, _("the form field “%s” has no “:value”"), parts[i]);
          return FALSE;
        }
      field = g_strndup (parts[i], colon - parts[i]);
      if (!check_xpath (field, problem))
        return FALSE;
    }
  return TRUE;
}

gboolean
cg_site_model_validate (CgSiteModel  *self,
                        GError      **error)
{
  g_autoptr(GString) problem = g_string_new (NULL);

  for (guint i = 0; i < self->links->len; i++)
    {
      CgClassLink *link = g_ptr_array_index (self->links, i);

      if (cg_site_model_get_class (self, link->source) == NULL ||
          cg_site_model_get_class (self, link->target) == NULL)
        {
          g_set_error (error, CG_SITE_MODEL_ERROR, CG_SITE_MODEL_ERROR_INVALID,
                       _("The link from “%s” to “%s” names a class the model does not have"),
                       link->source, link->target);
          return FALSE;
        }
      if (!(link->type == CG_CLASS_LINK_FORM ? check_form_xpath (link->xpath, problem)
                                             : check_xpath (link->xpath, problem)))
        {
          g_set_error (error, CG_SITE_MODEL_ERROR, CG_SITE_MODEL_ERROR_INVALID,
                       _("The link from “%s” to “%s”: %s"), link->source, link->target, problem->str);
          return FALSE;
        }
    }
  if (self->entry_class != NULL && cg_site_model_get_class (self, self->entry_class) == NULL)
    {
      g_set_error (error, CG_SITE_MODEL_ERROR, CG_SITE_MODEL_ERROR_INVALID,
                   _("The entry class “%s” is not in the model"), self->entry_class);
      return FALSE;
    }
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* JSON helpers                                                        */

static char *
strv_to_json (GStrv values)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;

  json_builder_begin_array (builder);
  for (guint i = 0; values != NULL && values[i] != NULL; i++)
    json_builder_add_string_value (builder, values[i]);
  json_builder_end_array (builder);
  root = json_builder_get_root (builder);
  return json_to_string (root, FALSE);
}

static GStrv
strv_from_json_array (JsonArray *array)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

  for (guint i = 0; array != NULL && i < json_array_get_length (array); i++)
    {
      JsonNode *node = json_array_get_element (array, i);

      if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
        g_strv_builder_add (builder, json_node_get_string (node));
    }
  return g_strv_builder_end (builder);
}

/* Reads a JSON array of strings, as the store and crawl specs hold a
 * class's schema and samples. Anything else in the array is an error
 * rather than dropped, so that a spec is never saved as less than it
 * says. */
static GStrv
strv_from_json (const char  *text,
                GError     **error)
{
  g_autoptr(JsonNode) root = NULL;
  JsonArray *array;

  if (text == NULL)
    {
      g_set_error_literal (error, CG_SITE_MODEL_ERROR, CG_SITE_MODEL_ERROR_SPEC,
                           _("a JSON array of strings was expected"));
      return NULL;
    }
  root = cg_json_parse (text, -1, error);
  if (root == NULL)
    return NULL;
  if (!JSON_NODE_HOLDS_ARRAY (root))
    {
      g_set_error_literal (error, CG_SITE_MODEL_ERROR, CG_SITE_MODEL_ERROR_SPEC,
                           _("a JSON array of strings was expected"));
      return NULL;
    }
  array = json_node_get_array (root);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *node = json_array_get_element (array, i);

      if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
        {
          g_set_error (error, CG_SITE_MODEL_ERROR, CG_SITE_MODEL_ERROR_SPEC,
                       _("item %u of the JSON array is not a string"), i + 1);
          return NULL;
        }
    }
  return strv_from_json_array (array);
}

/* Replaces *@field with @values, unless no values were read (NULL). */
static void
replace_strv (GStrv *field,
              GStrv  values)
{
  if (values == NULL)
    return;
  g_strfreev (*field);
  *field = values;
}

/* ------------------------------------------------------------------ */
/* The store                                                           */

/* Prepares a statement on the rows of one model, its ?1 bound to the
 * model's id. */
static sqlite3_stmt *
prepare_for_model (CgStore     *store,
                   const char  *sql,
                   gint64       model_id,
                   GError     **error)
{
  sqlite3_stmt *stmt = cg_store_prepare (store, sql, error);

  if (stmt != NULL)
    sqlite3_bind_int64 (stmt, 1, model_id);
  return stmt;
}

gboolean
cg_site_model_save (CgSiteModel  *self,
                    CgStore      *store,
                    GError      **error)
{
  g_autoptr(sqlite3_stmt) next = NULL;
  g_autoptr(sqlite3_stmt) model = NULL;
  int version;
  gint64 id;
  int rc;

  g_return_val_if_fail (CG_IS_SITE_MODEL (self), FALSE);

  if (self->id > 0)
    {
      g_set_error (error, CG_SITE_MODEL_ERROR, CG_SITE_MODEL_ERROR_INVALID,
                   _("Version %d of the model of %s is saved already"), self->version, self->site);
      return FALSE;
    }
  if (!cg_site_model_validate (self, error))
    return FALSE;
  if (!cg_store_begin (store, error))
    return FALSE;

  next = cg_store_prepare (store, "SELECT coalesce(max(version), 0) + 1 FROM models WHERE site = ?1", error);
  if (next == NULL)
    goto failed;
  sqlite3_bind_text (next, 1, self->site, -1, SQLITE_STATIC);
  /* An aggregate always has its row: without it the read failed, and
   * guessing version 1 would save a second model under that version. */
  if ((rc = sqlite3_step (next)) != SQLITE_ROW)
    {
      cg_store_set_error (store, rc, error);
      goto failed;
    }
  version = sqlite3_column_int (next, 0);

  model = cg_store_prepare (store,
                            "INSERT INTO models (site, version, created_at, parameters, crawl_id, entry_class) "
                            "VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                            error);
  if (model == NULL)
    goto failed;
  sqlite3_bind_text (model, 1, self->site, -1, SQLITE_STATIC);
  sqlite3_bind_int (model, 2, version);
  sqlite3_bind_int64 (model, 3, self->created_at);
  sqlite3_bind_text (model, 4, self->parameters, -1, SQLITE_STATIC);
  if (self->crawl_id > 0)
    sqlite3_bind_int64 (model, 5, self->crawl_id);
  if (self->entry_class != NULL)
    sqlite3_bind_text (model, 6, self->entry_class, -1, SQLITE_STATIC);
  if (!cg_store_step_done (store, model, error))
    goto failed;
  id = sqlite3_last_insert_rowid (cg_store_get_db (store));

  for (guint i = 0; i < self->classes->len; i++)
    {
      CgPageClass *klass = g_ptr_array_index (self->classes, i);
      g_autoptr(sqlite3_stmt) stmt = NULL;
      g_autofree char *schema = strv_to_json (klass->schema);
      g_autofree char *samples = strv_to_json (klass->samples);

      stmt = prepare_for_model (store,
                                "INSERT INTO page_classes (model_id, name, label, depth, url_pattern, schema, samples, n_pages) "
                                "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
                                id, error);
      if (stmt == NULL)
        goto failed;
      sqlite3_bind_text (stmt, 2, klass->name, -1, SQLITE_STATIC);
      sqlite3_bind_text (stmt, 3, klass->label, -1, SQLITE_STATIC);
      sqlite3_bind_int (stmt, 4, klass->depth);
      if (klass->url_pattern != NULL)
        sqlite3_bind_text (stmt, 5, klass->url_pattern, -1, SQLITE_STATIC);
      sqlite3_bind_text (stmt, 6, schema, -1, SQLITE_STATIC);
      sqlite3_bind_text (stmt, 7, samples, -1, SQLITE_STATIC);
      sqlite3_bind_int (stmt, 8, (int) klass->n_pages);
      if (!cg_store_step_done (store, stmt, error))
        goto failed;
    }

  for (guint i = 0; i < self->links->len; i++)
    {
      CgClassLink *link = g_ptr_array_index (self->links, i);
      g_autoptr(sqlite3_stmt) stmt = NULL;

      stmt = prepare_for_model (store,
                                "INSERT INTO class_links (model_id, source, target, type, menu, xpath, n_links) "
                                "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                                id, error);
      if (stmt == NULL)
        goto failed;
      sqlite3_bind_text (stmt, 2, link->source, -1, SQLITE_STATIC);
      sqlite3_bind_text (stmt, 3, link->target, -1, SQLITE_STATIC);
      sqlite3_bind_text (stmt, 4, cg_class_link_type_to_string (link->type), -1, SQLITE_STATIC);
      if (link->menu != CG_MENU_NONE)
        sqlite3_bind_text (stmt, 5, cg_menu_kind_to_string (link->menu), -1, SQLITE_STATIC);
      sqlite3_bind_text (stmt, 6, link->xpath, -1, SQLITE_STATIC);
      sqlite3_bind_int (stmt, 7, (int) link->n_links);
      if (!cg_store_step_done (store, stmt, error))
        goto failed;
    }

  for (guint i = 0; i < self->data_links->len; i++)
    {
      CgDataLink *link = g_ptr_array_index (self->data_links, i);
      g_autoptr(sqlite3_stmt) stmt = NULL;

      stmt = prepare_for_model (store,
                                "INSERT INTO data_links (model_id, source, type, xpath, name) VALUES (?1, ?2, ?3, ?4, ?5)",
                                id, error);
      if (stmt == NULL)
        goto failed;
      sqlite3_bind_text (stmt, 2, link->source, -1, SQLITE_STATIC);
      sqlite3_bind_text (stmt, 3, cg_data_link_type_to_string (link->type), -1, SQLITE_STATIC);
      sqlite3_bind_text (stmt, 4, link->xpath, -1, SQLITE_STATIC);
      sqlite3_bind_text (stmt, 5, link->name, -1, SQLITE_STATIC);
      if (!cg_store_step_done (store, stmt, error))
        goto failed;
    }

  for (guint i = 0; i < self->patterns->len; i++)
    {
      CgNavPattern *pattern = g_ptr_array_index (self->patterns, i);
      g_autoptr(sqlite3_stmt) stmt = NULL;

      stmt = prepare_for_model (store,
                                "INSERT INTO nav_patterns (model_id, rank, pattern, score, pages) VALUES (?1, ?2, ?3, ?4, ?5)",
                                id, error);
      if (stmt == NULL)
        goto failed;
      sqlite3_bind_int (stmt, 2, (int) i);
      sqlite3_bind_text (stmt, 3, pattern->pattern, -1, SQLITE_STATIC);
      sqlite3_bind_double (stmt, 4, pattern->score);
      sqlite3_bind_int (stmt, 5, (int) pattern->pages);
      if (!cg_store_step_done (store, stmt, error))
        goto failed;
    }

  if (!cg_store_commit (store, error))
    goto failed;
  self->id = id;
  self->version = version;
  return TRUE;

failed:
  cg_store_rollback (store);
  return FALSE;
}

static CgSiteModel *
load_by_id (CgStore  *store,
            gint64    id,
            GError  **error)
{
  g_autoptr(CgSiteModel) self = NULL;
  g_autoptr(sqlite3_stmt) model = NULL;
  g_autoptr(sqlite3_stmt) classes = NULL;
  g_autoptr(sqlite3_stmt) links = NULL;
  g_autoptr(sqlite3_stmt) data_links = NULL;
  g_autoptr(sqlite3_stmt) patterns = NULL;
  int rc;

  model = prepare_for_model (store,
                             "SELECT site, version, created_at, parameters, crawl_id, entry_class FROM models WHERE id = ?1",
                             id, error);
  if (model == NULL)
    return NULL;
  rc = sqlite3_step (model);
  if (rc == SQLITE_DONE)
    {
      g_set_error (error, CG_SITE_MODEL_ERROR, CG_SITE_MODEL_ERROR_NOT_FOUND,
                   _("There is no model %" PRId64), id);
      return NULL;
    }
  if (rc != SQLITE_ROW)
    {
      cg_store_set_error (store, rc, error);
      return NULL;
    }
  self = cg_site_model_new ((const char *) sqlite3_column_text (model, 0));
  self->id = id;
  self->version = sqlite3_column_int (model, 1);
  self->created_at = sqlite3_column_int64 (model, 2);
  cg_site_model_set_parameters (self, (const char *) sqlite3_column_text (model, 3));
  self->crawl_id = sqlite3_column_int64 (model, 4);
  cg_site_model_set_entry_class (self, (const char *) sqlite3_column_text (model, 5));

  classes = prepare_for_model (store,
                               "SELECT name, label, depth, url_pattern, schema, samples, n_pages "
                               "FROM page_classes WHERE model_id = ?1 ORDER BY id",
                               id, error);
  if (classes == NULL)
    return NULL;
  while ((rc = sqlite3_step (classes)) == SQLITE_ROW)
    {
      CgPageClass *klass = cg_site_model_add_class (self, (const char *) sqlite3_column_text (classes, 0),
                                                    (const char *) sqlite3_column_text (classes, 1));
      GStrv schema = strv_from_json ((const char *) sqlite3_column_text (classes, 4), NULL);
      GStrv samples = strv_from_json ((const char *) sqlite3_column_text (classes, 5), NULL);

      klass->depth = sqlite3_column_int (classes, 2);
      klass->url_pattern = g_strdup ((const char *) sqlite3_column_text (classes, 3));
      replace_strv (&klass->schema, schema);
      replace_strv (&klass->samples, samples);
      klass->n_pages = (guint) sqlite3_column_int (classes, 6);
    }
  /* A read error ends the rows too: taken for their end, it would load
   * part of the model as if it were the whole of it. */
  if (rc != SQLITE_DONE)
    {
      cg_store_set_error (store, rc, error);
      return NULL;
    }

  links = prepare_for_model (store,
                             "SELECT source, target, type, menu, xpath, n_links FROM class_links WHERE model_id = ?1 ORDER BY id",
                             id, error);
  if (links == NULL)
    return NULL;
  while ((rc = sqlite3_step (links)) == SQLITE_ROW)
    {
      CgClassLinkType type = CG_CLASS_LINK_LIST;
      CgMenuKind menu = CG_MENU_NONE;
      CgClassLink *link;

      cg_class_link_type_from_string ((const char *) sqlite3_column_text (links, 2), &type);
      if (sqlite3_column_type (links, 3) != SQLITE_NULL)
        menu_kind_from_string ((const char *) sqlite3_column_text (links, 3), &menu);
      link = cg_site_model_add_link (self, (const char *) sqlite3_column_text (links, 0),
                                     (const char *) sqlite3_column_text (links, 1), type,
                                     (const char *) sqlite3_column_text (links, 4));
      link->menu = menu;
      link->n_links = (guint) sqlite3_column_int (links, 5);
    }
  if (rc != SQLITE_DONE)
    {
      cg_store_set_error (store, rc, error);
      return NULL;
    }

  data_links = prepare_for_model (store,
                                  "SELECT source, type, xpath, name FROM data_links WHERE model_id = ?1 ORDER BY id",
                                  id, error);
  if (data_links == NULL)
    return NULL;
  while ((rc = sqlite3_step (data_links)) == SQLITE_ROW)
    {
      CgDataLinkType type = CG_DATA_LINK_STRING;

      data_link_type_from_string ((const char *) sqlite3_column_text (data_links, 1), &type);
      cg_site_model_add_data_link (self, (const char *) sqlite3_column_text (data_links, 0), type,
                                   (const char *) sqlite3_column_text (data_links, 2),
                                   (const char *) sqlite3_column_text (data_links, 3));
    }
  if (rc != SQLITE_DONE)
    {
      cg_store_set_error (store, rc, error);
      return NULL;
    }

  patterns = prepare_for_model (store,
                                "SELECT pattern, score, pages FROM nav_patterns WHERE model_id = ?1 ORDER BY rank",
                                id, error);
  if (patterns == NULL)
    return NULL;
  while ((rc = sqlite3_step (patterns)) == SQLITE_ROW)
    cg_site_model_add_pattern (self, (const char *) sqlite3_column_text (patterns, 0),
                               sqlite3_column_double (patterns, 1), (guint) sqlite3_column_int (patterns, 2));
  if (rc != SQLITE_DONE)
    {
      cg_store_set_error (store, rc, error);
      return NULL;
    }

  return g_steal_pointer (&self);
}

CgSiteModel *
cg_site_model_load (CgStore     *store,
                    const char  *site,
                    int          version,
                    GError     **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autofree char *key = site_key (site);
  int rc;

  stmt = cg_store_prepare (store, "SELECT id FROM models WHERE site = ?1 AND version = ?2", error);
  if (stmt == NULL)
    return NULL;
  sqlite3_bind_text (stmt, 1, key, -1, SQLITE_STATIC);
  sqlite3_bind_int (stmt, 2, version);
  rc = sqlite3_step (stmt);
  /* Only the end of the rows means there is no such model; a read error
   * is the damaged database's, and is said as such. */
  if (rc == SQLITE_DONE)
    {
      g_set_error (error, CG_SITE_MODEL_ERROR, CG_SITE_MODEL_ERROR_NOT_FOUND,
                   _("There is no version %d of the model of %s"), version, site);
      return NULL;
    }
  if (rc != SQLITE_ROW)
    {
      cg_store_set_error (store, rc, error);
      return NULL;
    }
  return load_by_id (store, sqlite3_column_int64 (stmt, 0), error);
}

CgSiteModel *
cg_site_model_load_latest (CgStore     *store,
                           const char  *site,
                           GError     **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autofree char *key = site != NULL ? site_key (site) : NULL;
  int rc;

  stmt = cg_store_prepare (store,
                           site != NULL ? "SELECT id FROM models WHERE site = ?1 ORDER BY version DESC LIMIT 1"
                                        : "SELECT id FROM models ORDER BY id DESC LIMIT 1",
                           error);
  if (stmt == NULL)
    return NULL;
  if (site != NULL)
    sqlite3_bind_text (stmt, 1, key, -1, SQLITE_STATIC);
  rc = sqlite3_step (stmt);
  if (rc == SQLITE_DONE)
    {
      g_set_error (error, CG_SITE_MODEL_ERROR, CG_SITE_MODEL_ERROR_NOT_FOUND,
                   site != NULL ? _("There is no model of %s yet") : _("The project has no model yet%s"),
                   site != NULL ? site : "");
      return NULL;
    }
  if (rc != SQLITE_ROW)
    {
      cg_store_set_error (store, rc, error);
      return NULL;
    }
  return load_by_id (store, sqlite3_column_int64 (stmt, 0), error);
}

/* The versions of @site's model, oldest first (element type int). */
GArray *
cg_site_model_list_versions (CgStore     *store,
                             const char  *site,
                             GError     **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autofree char *key = site_key (site);
  GArray *versions;
  int rc;

  stmt = cg_store_prepare (store, "SELECT version FROM models WHERE site = ?1 ORDER BY version", error);
  if (stmt == NULL)
    return NULL;
  sqlite3_bind_text (stmt, 1, key, -1, SQLITE_STATIC);
  versions = g_array_new (FALSE, FALSE, sizeof (int));
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      int version = sqlite3_column_int (stmt, 0);

      g_array_append_val (versions, version);
    }
  /* Part of the versions would offer a comparison with the wrong one. */
  if (rc != SQLITE_DONE)
    {
      g_array_unref (versions);
      cg_store_set_error (store, rc, error);
      return NULL;
    }
  return versions;
}

GStrv
cg_site_model_list_sites (CgStore  *store,
                          GError  **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  int rc;

  stmt = cg_store_prepare (store, "SELECT DISTINCT site FROM models ORDER BY site", error);
  if (stmt == NULL)
    return NULL;
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    g_strv_builder_add (builder, (const char *) sqlite3_column_text (stmt, 0));
  /* A read error ends the rows too; taken for their end, it would show a
   * damaged project as one without a model. */
  if (rc != SQLITE_DONE)
    {
      cg_store_set_error (store, rc, error);
      return NULL;
    }
  return g_strv_builder_end (builder);
}

/* ------------------------------------------------------------------ */
/* Imported models                                                     */

/* What a model read from a file (a crawl spec or JSON) must be beyond
 * cg_site_model_validate(), which models built by Cartograph itself also
 * pass: these are the mistakes a hand-edited file makes, and each would
 * only show later, when a harvest starts or an export cannot be read
 * back. */
static gboolean
check_imported (CgSiteModel  *self,
                GError      **error)
{
  /* An empty site is the caller's to fill (the command line asks for
   * --site); any other must be a site Cartograph can crawl. */
  if (*self->site != '\0')
    {
      g_autoptr(GError) url_error = NULL;
      g_autoptr(GUri) uri = cg_url_parse (self->site, CG_URL_NORMALIZE_SYNTAX, &url_error);

      if (uri == NULL)
        {
          g_set_error (error, CG_SITE_MODEL_ERROR, CG_SITE_MODEL_ERROR_INVALID,
                       _("The site of the model is not an http or https address: %s"), url_error->message);
          return FALSE;
        }
    }

  for (guint i = 0; i < self->classes->len; i++)
    {
      CgPageClass *klass = g_ptr_array_index (self->classes, i);
      g_autoptr(GError) pattern_error = NULL;

      /* A crawl spec has one row per line and one column per tab, and a
       * line starting with "#" is a comment: such a name would not come
       * back from an exported spec. */
      if (*klass->name == '\0' || klass->name[strcspn (klass->name, "\t\r\n")] != '\0' || klass->name[0] == '#')
        {
          g_set_error (error, CG_SITE_MODEL_ERROR, CG_SITE_MODEL_ERROR_INVALID,
                       _("The class name “%s” cannot be used: a class name cannot be empty, hold a tab or a "
                         "line break, or start with “#”"), klass->name);
          return FALSE;
        }
      if (klass->url_pattern != NULL && !cg_url_pattern_check (klass->url_pattern, &pattern_error))
        {
          g_set_error (error, CG_SITE_MODEL_ERROR, CG_SITE_MODEL_ERROR_INVALID,
                       /* Translators: the second %s is a sentence saying what is wrong with the pattern. */
                       _("Class “%s”: %s"), klass->name, pattern_error->message);
          return FALSE;
        }
    }

  for (guint i = 0; i < self->data_links->len; i++)
    {
      CgDataLink *link = g_ptr_array_index (self->data_links, i);

      if (cg_site_model_get_class (self, link->source) == NULL)
        {
          g_set_error (error, CG_SITE_MODEL_ERROR, CG_SITE_MODEL_ERROR_INVALID,
                       _("The data link with the XPath “%s” names the class “%s”, which the model does not have"),
                       link->xpath, link->source);
          return FALSE;
        }
    }
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* The crawl spec                                                      */

static const char *
or_dash (const char *value)
{
  return value != NULL && *value != '\0' ? value : "-";
}

static char *
from_dash (const char *value)
{
  return value == NULL || g_str_equal (value, "-") ? NULL : g_strdup (value);
}

/* Tabs and line breaks would break the row: the values that may hold
 * them (labels, JSON) never do once folded to spaces, which JSON allows. */
static void
append_field (GString    *out,
              const char *value)
{
  g_string_append_c (out, '\t');
  for (const char *p = or_dash (value); *p != '\0'; p++)
    g_string_append_c (out, *p == '\t' || *p == '\n' || *p == '\r' ? ' ' : *p);
}

char *
cg_site_model_to_spec (CgSiteModel *self)
{
  GString *out = g_string_new (NULL);

  g_string_append (out, "# Cartograph crawl spec: seed 000's format (Appendix A), tab-separated.\n");
  g_string_append (out, "-\tsite");
  append_field (out, self->site);
  g_string_append (out, "\n-\tentry");
  append_field (out, self->entry_class);
  g_string_append (out, "\n-\tparameters");
  append_field (out, self->parameters);
  g_string_append_c (out, '\n');

  for (guint i = 0; i < self->classes->len; i++)
    {
      CgPageClass *klass = g_ptr_array_index (self->classes, i);
      g_autofree char *schema = strv_to_json (klass->schema);
      g_autofree char *samples = strv_to_json (klass->samples);

      g_string_append (out, klass->name);
      g_string_append (out, "\tclass");
      append_field (out, klass->label);
      append_field (out, klass->url_pattern);
      g_string_append_printf (out, "\t%d\t%u", klass->depth, klass->n_pages);
      append_field (out, schema);
      append_field (out, samples);
      g_string_append_c (out, '\n');
    }
  for (guint i = 0; i < self->links->len; i++)
    {
      CgClassLink *link = g_ptr_array_index (self->links, i);

      g_string_append (out, link->source);
      g_string_append (out, "\tlink");
      append_field (out, link->xpath);
      append_field (out, link->target);
      append_field (out, cg_class_link_type_to_string (link->type));
      append_field (out, cg_menu_kind_to_string (link->menu));
      g_string_append_printf (out, "\t%u\n", link->n_links);
    }
  for (guint i = 0; i < self->data_links->len; i++)
    {
      CgDataLink *link = g_ptr_array_index (self->data_links, i);

      g_string_append (out, link->source);
      append_field (out, cg_data_link_type_to_string (link->type));
      append_field (out, link->xpath);
      append_field (out, link->name);
      g_string_append_c (out, '\n');
    }
  for (guint i = 0; i < self->patterns->len; i++)
    {
      CgNavPattern *pattern = g_ptr_array_index (self->patterns, i);
      char score[G_ASCII_DTOSTR_BUF_SIZE];

      g_string_append (out, "-\tpattern");
      append_field (out, pattern->pattern);
      g_string_append_printf (out, "\t%s\t%u\n", g_ascii_dtostr (score, sizeof score, pattern->score), pattern->pages);
    }
  return g_string_free (out, FALSE);
}

static gboolean
spec_error (GError     **error,
            guint        line,
            const char  *format,
            ...) G_GNUC_PRINTF (3, 4);

static gboolean
spec_error (GError     **error,
            guint        line,
            const char  *format,
            ...)
{
  va_list args;
  g_autofree char *message = NULL;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  /* Translators: the first %u is a line number of a crawl spec. */
  g_set_error (error, CG_SITE_MODEL_ERROR, CG_SITE_MODEL_ERROR_SPEC, _("Crawl spec, line %u: %s"), line, message);
  return FALSE;
}

static gboolean
parse_uint (const char *text,
            guint64    *out)
{
  return g_ascii_string_to_unsigned (text, 10, 0, G_MAXUINT, out, NULL);
}

/* Reads one row; @class_lines maps the name of each class that had a
 * class row so far to that row's line, so that a second definition is
 * refused rather than silently replacing the first. */
static gboolean
read_spec_row (CgSiteModel  *self,
               char        **fields,
               guint         n,
               guint         line,
               GHashTable   *class_lines,
               GError      **error)
{
  const char *type = fields[1];
  g_autoptr(GString) problem = g_string_new (NULL);

  if (g_str_equal (type, "link"))
    {
      CgClassLinkType link_type;
      CgMenuKind menu = CG_MENU_NONE;
      guint64 n_links = 0;
      CgClassLink *link;

      if (n < 5 || n > 7)
        return spec_error (error, line, _("a link row has 5 columns (source, link, XPath, destination, "
                                          "subtype), not %u"), n);
      if (!cg_class_link_type_from_string (fields[4], &link_type))
        return spec_error (error, line, _("“%s” is not a link subtype: use singleton, list, menu or form"),
                           fields[4]);
      if (!(link_type == CG_CLASS_LINK_FORM ? check_form_xpath (fields[2], problem) : check_xpath (fields[2], problem)))
        return spec_error (error, line, "%s", problem->str);
      if (n >= 6 && !menu_kind_from_string (fields[5], &menu))
        return spec_error (error, line, _("“%s” is not a kind of menu: use fixed-anchor or variable-anchor"),
                           fields[5]);
      if (n >= 7 && !parse_uint (fields[6], &n_links))
        return spec_error (error, line, _("“%s” is not a number of links"), fields[6]);
      cg_site_model_add_class (self, fields[0], NULL);
      cg_site_model_add_class (self, fields[3], NULL);
      link = cg_site_model_add_link (self, fields[0], fields[3], link_type, fields[2]);
      link->menu = menu;
      link->n_links = (guint) n_links;
      return TRUE;
    }

  if (g_str_equal (type, "class"))
    {
      CgPageClass *klass;
      guint64 n_pages = 0;
      gint64 depth = -1;
      g_autoptr(GError) json_error = NULL;
      GStrv schema = NULL, samples = NULL;

      if (n < 3 || n > 8)
        return spec_error (error, line, _("a class row has 3 to 8 columns (name, class, label, URL pattern, "
                                          "depth, pages, schema, samples), not %u"), n);
      if (g_hash_table_contains (class_lines, fields[0]))
        return spec_error (error, line, _("the class “%s” is already defined on line %u"), fields[0],
                           GPOINTER_TO_UINT (g_hash_table_lookup (class_lines, fields[0])));
      if (n >= 4 && !g_str_equal (fields[3], "-") && !cg_url_pattern_check (fields[3], &json_error))
        return spec_error (error, line, "%s", json_error->message);
      if (n >= 5 && !g_ascii_string_to_signed (fields[4], 10, -1, G_MAXINT, &depth, NULL))
        return spec_error (error, line, _("“%s” is not a depth"), fields[4]);
      if (n >= 6 && !parse_uint (fields[5], &n_pages))
        return spec_error (error, line, _("“%s” is not a number of pages"), fields[5]);
      if (n >= 7 && !g_str_equal (fields[6], "-") && (schema = strv_from_json (fields[6], &json_error)) == NULL)
        return spec_error (error, line, _("the schema: %s"), json_error->message);
      if (n >= 8 && !g_str_equal (fields[7], "-") && (samples = strv_from_json (fields[7], &json_error)) == NULL)
        {
          g_strfreev (schema);
          return spec_error (error, line, _("the samples: %s"), json_error->message);
        }
      klass = cg_site_model_add_class (self, fields[0], NULL);
      g_hash_table_insert (class_lines, klass->name, GUINT_TO_POINTER (line));
      g_free (klass->label);
      klass->label = g_str_equal (fields[2], "-") ? g_strdup (fields[0]) : g_strdup (fields[2]);
      g_free (klass->url_pattern);
      klass->url_pattern = n >= 4 ? from_dash (fields[3]) : NULL;
      klass->depth = (int) depth;
      klass->n_pages = (guint) n_pages;
      replace_strv (&klass->schema, schema);
      replace_strv (&klass->samples, samples);
      return TRUE;
    }

  if (g_str_equal (type, "pattern"))
    {
      double score = 0;
      guint64 pages = 0;
      char *end = NULL;

      if (n < 3 || n > 5)
        return spec_error (error, line, _("a pattern row has 3 to 5 columns (-, pattern, pattern, score, pages), not %u"), n);
      if (n >= 4)
        {
          score = g_ascii_strtod (fields[3], &end);
          if (end == fields[3] || *end != '\0')
            return spec_error (error, line, _("“%s” is not a score"), fields[3]);
        }
      if (n >= 5 && !parse_uint (fields[4], &pages))
        return spec_error (error, line, _("“%s” is not a number of pages"), fields[4]);
      cg_site_model_add_pattern (self, fields[2], score, (guint) pages);
      return TRUE;
    }

  if (g_str_equal (type, "site") || g_str_equal (type, "entry") || g_str_equal (type, "parameters"))
    {
      g_autofree char *value = n >= 3 ? from_dash (fields[2]) : NULL;

      if (n != 3)
        return spec_error (error, line, _("a %s row has 3 columns, not %u"), type, n);
      /* The parameters are written back into every export as JSON, so
       * what cannot be read as a JSON object is refused here, once. */
      if (g_str_equal (type, "parameters") && value != NULL)
        {
          g_autoptr(GError) json_error = NULL;
          g_autoptr(JsonNode) parameters = cg_json_parse (value, -1, &json_error);

          if (parameters == NULL)
            return spec_error (error, line, _("the parameters are not valid JSON: %s"), json_error->message);
          if (!JSON_NODE_HOLDS_OBJECT (parameters))
            return spec_error (error, line, _("the parameters are not a JSON object"));
        }
      if (g_str_equal (type, "site") && value != NULL)
        {
          g_free (self->site);
          self->site = site_key (value);
        }
      else if (g_str_equal (type, "entry"))
        cg_site_model_set_entry_class (self, value);
      else if (g_str_equal (type, "parameters"))
        cg_site_model_set_parameters (self, value);
      return TRUE;
    }

  {
    CgDataLinkType data_type;

    if (!data_link_type_from_string (type, &data_type))
      return spec_error (error, line, _("“%s” is not a row type: use link, string, url, img, form or class"), type);
    if (n < 3 || n > 4 || (n == 3 && data_type != CG_DATA_LINK_FORM))
      return spec_error (error, line, _("a %s row has 4 columns (source, type, XPath, name), not %u"), type, n);
    if (!(data_type == CG_DATA_LINK_FORM ? check_form_xpath (fields[2], problem) : check_xpath (fields[2], problem)))
      return spec_error (error, line, "%s", problem->str);
    cg_site_model_add_class (self, fields[0], NULL);
    cg_site_model_add_data_link (self, fields[0], data_type, fields[2], n >= 4 ? fields[3] : NULL);
    return TRUE;
  }
}

/* Reads a crawl spec, written by Cartograph or by hand. The entry class of
 * a hand-written spec is the source of its first link row. */
CgSiteModel *
cg_site_model_from_spec (const char  *site,
                         const char  *text,
                         GError     **error)
{
  g_autoptr(CgSiteModel) self = cg_site_model_new (site);
  g_autoptr(GHashTable) class_lines = g_hash_table_new (g_str_hash, g_str_equal);
  g_auto(GStrv) lines = NULL;
  const char *first_source = NULL;

  if (text == NULL || !g_utf8_validate (text, -1, NULL))
    {
      g_set_error (error, CG_SITE_MODEL_ERROR, CG_SITE_MODEL_ERROR_SPEC,
                   _("The crawl spec is not UTF-8 text"));
      return NULL;
    }
  /* Spreadsheets save TSV with a byte order mark. */
  if (g_str_has_prefix (text, "\xEF\xBB\xBF"))
    text += 3;
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_auto(GStrv) fields = NULL;
      char *line = lines[i];
      gsize length = strlen (line);
      guint n;

      if (length > 0 && line[length - 1] == '\r')
        line[length - 1] = '\0';
      if (line[strspn (line, " \t")] == '\0' || line[0] == '#')
        continue;
      fields = g_strsplit (line, "\t", -1);
      n = g_strv_length (fields);
      for (guint f = 0; f < n; f++)
        g_strstrip (fields[f]);
      if (n < 3)
        {
          spec_error (error, i + 1, _("a row needs at least 3 tab-separated columns, this one has %u"), n);
          return NULL;
        }
      if (*fields[0] == '\0' || *fields[1] == '\0')
        {
          spec_error (error, i + 1, _("the source and type columns cannot be empty"));
          return NULL;
        }
      if (!read_spec_row (self, fields, n, i + 1, class_lines, error))
        return NULL;
      if (first_source == NULL && g_str_equal (fields[1], "link"))
        first_source = cg_site_model_get_class (self, fields[0])->name;
    }
  if (self->entry_class == NULL && first_source != NULL)
    cg_site_model_set_entry_class (self, first_source);
  if (self->classes->len == 0)
    {
      g_set_error (error, CG_SITE_MODEL_ERROR, CG_SITE_MODEL_ERROR_SPEC,
                   _("The crawl spec has no class and no link"));
      return NULL;
    }
  if (!check_imported (self, error) || !cg_site_model_validate (self, error))
    return NULL;
  return g_steal_pointer (&self);
}

/* ------------------------------------------------------------------ */
/* JSON, DOT and GraphML                                               */

char *
cg_site_model_to_json (CgSiteModel *self)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  JsonNode *parameters;

  json_builder_begin_object (builder);
  cg_json_add_string_or_null (builder, "site", self->site);
  json_builder_set_member_name (builder, "version");
  json_builder_add_int_value (builder, self->version);
  json_builder_set_member_name (builder, "created_at");
  json_builder_add_int_value (builder, self->created_at);
  cg_json_add_string_or_null (builder, "entry_class", self->entry_class);
  json_builder_set_member_name (builder, "parameters");
  /* The parameters may come from a file imported by an older version,
   * which did not look at them. */
  parameters = cg_json_parse (self->parameters, -1, NULL);
  if (parameters != NULL)
    json_builder_add_value (builder, parameters);
  else
    json_builder_add_null_value (builder);

  json_builder_set_member_name (builder, "classes");
  json_builder_begin_array (builder);
  for (guint i = 0; i < self->classes->len; i++)
    {
      CgPageClass *klass = g_ptr_array_index (self->classes, i);

      json_builder_begin_object (builder);
      cg_json_add_string_or_null (builder, "name", klass->name);
      cg_json_add_string_or_null (builder, "label", klass->label);
      json_builder_set_member_name (builder, "depth");
      json_builder_add_int_value (builder, klass->depth);
      cg_json_add_string_or_null (builder, "url_pattern", klass->url_pattern);
      json_builder_set_member_name (builder, "pages");
      json_builder_add_int_value (builder, klass->n_pages);
      cg_json_add_strv (builder, "schema", klass->schema);
      cg_json_add_strv (builder, "samples", klass->samples);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);

  json_builder_set_member_name (builder, "links");
  json_builder_begin_array (builder);
  for (guint i = 0; i < self->links->len; i++)
    {
      CgClassLink *link = g_ptr_array_index (self->links, i);

      json_builder_begin_object (builder);
      cg_json_add_string_or_null (builder, "source", link->source);
      cg_json_add_string_or_null (builder, "target", link->target);
      cg_json_add_string_or_null (builder, "type", cg_class_link_type_to_string (link->type));
      cg_json_add_string_or_null (builder, "menu", link->menu != CG_MENU_NONE ? cg_menu_kind_to_string (link->menu) : NULL);
      cg_json_add_string_or_null (builder, "xpath", link->xpath);
      json_builder_set_member_name (builder, "links");
      json_builder_add_int_value (builder, link->n_links);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);

  json_builder_set_member_name (builder, "data_links");
  json_builder_begin_array (builder);
  for (guint i = 0; i < self->data_links->len; i++)
    {
      CgDataLink *link = g_ptr_array_index (self->data_links, i);

      json_builder_begin_object (builder);
      cg_json_add_string_or_null (builder, "source", link->source);
      cg_json_add_string_or_null (builder, "type", cg_data_link_type_to_string (link->type));
      cg_json_add_string_or_null (builder, "xpath", link->xpath);
      cg_json_add_string_or_null (builder, "name", link->name);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);

  json_builder_set_member_name (builder, "patterns");
  json_builder_begin_array (builder);
  for (guint i = 0; i < self->patterns->len; i++)
    {
      CgNavPattern *pattern = g_ptr_array_index (self->patterns, i);

      json_builder_begin_object (builder);
      cg_json_add_string_or_null (builder, "pattern", pattern->pattern);
      json_builder_set_member_name (builder, "score");
      json_builder_add_double_value (builder, pattern->score);
      json_builder_set_member_name (builder, "pages");
      json_builder_add_int_value (builder, pattern->pages);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  json_generator_set_root (generator, root);
  json_generator_set_pretty (generator, TRUE);
  return json_generator_to_data (generator, NULL);
}

/* Reading a model from JSON: the file may have been written by hand or
 * edited, so every member is read with a type check (cg_json_read_*()),
 * and one that is missing or null takes its default. */

/* Item @index of @array (a member of the model file's top object) as an
 * object, or NULL with @error set. */
static JsonObject *
read_item (JsonArray   *array,
           guint        index,
           const char  *where,
           GError     **error)
{
  JsonNode *node = json_array_get_element (array, index);

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error (error, CG_SITE_MODEL_ERROR, CG_SITE_MODEL_ERROR_SPEC,
                   /* Translators: e.g. "Class 1 of the model file should be an object, not a number". */
                   _("%s should be an object, not %s"), where, cg_json_describe_node (node));
      return NULL;
    }
  return json_node_get_object (node);
}

static gboolean
read_classes (CgSiteModel  *self,
              JsonObject   *object,
              GError      **error)
{
  g_autoptr(GHashTable) numbers = g_hash_table_new (g_str_hash, g_str_equal);
  JsonArray *array = NULL;

  if (!cg_json_read_array (object, _("The model file"), "classes", &array, error))
    return FALSE;
  for (guint i = 0; array != NULL && i < json_array_get_length (array); i++)
    {
      g_autofree char *where = g_strdup_printf (_("Class %u of the model file"), i + 1);
      JsonObject *item = read_item (array, i, where, error);
      const char *name = NULL, *label = NULL, *url_pattern = NULL;
      gint64 depth = -1, pages = 0;
      CgPageClass *klass;

      if (item == NULL ||
          !cg_json_read_string (item, where, "name", &name, error) ||
          !cg_json_read_string (item, where, "label", &label, error) ||
          !cg_json_read_string (item, where, "url_pattern", &url_pattern, error) ||
          !cg_json_read_int (item, where, "depth", -1, G_MAXINT, &depth, error) ||
          !cg_json_read_int (item, where, "pages", 0, G_MAXINT, &pages, error))
        return FALSE;
      if (name == NULL || *name == '\0')
        {
          g_set_error (error, CG_SITE_MODEL_ERROR, CG_SITE_MODEL_ERROR_SPEC,
                       _("Class %u of the model file has no name"), i + 1);
          return FALSE;
        }
      /* cg_site_model_add_class() would merge the two into one. */
      if (g_hash_table_contains (numbers, name))
        {
          g_set_error (error, CG_SITE_MODEL_ERROR, CG_SITE_MODEL_ERROR_INVALID,
                       _("Classes %u and %u of the model file are both called “%s”: class names must be unique"),
                       GPOINTER_TO_UINT (g_hash_table_lookup (numbers, name)), i + 1, name);
          return FALSE;
        }
      klass = cg_site_model_add_class (self, name, label);
      g_hash_table_insert (numbers, klass->name, GUINT_TO_POINTER (i + 1));
      klass->depth = (int) depth;
      /* An empty pattern is no pattern, as "-" is in a crawl spec. */
      klass->url_pattern = url_pattern != NULL && *url_pattern != '\0' ? g_strdup (url_pattern) : NULL;
      klass->n_pages = (guint) pages;
      if (!cg_json_read_strv (item, where, "schema", &klass->schema, error) ||
          !cg_json_read_strv (item, where, "samples", &klass->samples, error))
        return FALSE;
    }
  return TRUE;
}

static gboolean
read_links (CgSiteModel  *self,
            JsonObject   *object,
            GError      **error)
{
  JsonArray *array = NULL;

  if (!cg_json_read_array (object, _("The model file"), "links", &array, error))
    return FALSE;
  for (guint i = 0; array != NULL && i < json_array_get_length (array); i++)
    {
      g_autofree char *where = g_strdup_printf (_("Link %u of the model file"), i + 1);
      JsonObject *item = read_item (array, i, where, error);
      const char *source = NULL, *target = NULL, *type_name = NULL, *menu_name = NULL, *xpath = NULL;
      gint64 n_links = 0;
      CgClassLinkType type;
      CgMenuKind menu = CG_MENU_NONE;
      CgClassLink *link;

      if (item == NULL ||
          !cg_json_read_string (item, where, "source", &source, error) ||
          !cg_json_read_string (item, where, "target", &target, error) ||
          !cg_json_read_string (item, where, "type", &type_name, error) ||
          !cg_json_read_string (item, where, "menu", &menu_name, error) ||
          !cg_json_read_string (item, where, "xpath", &xpath, error) ||
          !cg_json_read_int (item, where, "links", 0, G_MAXINT, &n_links, error))
        return FALSE;
      if (source == NULL || target == NULL || xpath == NULL || type_name == NULL)
        {
          g_set_error (error, CG_SITE_MODEL_ERROR, CG_SITE_MODEL_ERROR_SPEC,
                       _("Link %u of the model file needs a source, a target, an XPath and a type"), i + 1);
          return FALSE;
        }
      if (!cg_class_link_type_from_string (type_name, &type))
        {
          g_set_error (error, CG_SITE_MODEL_ERROR, CG_SITE_MODEL_ERROR_SPEC,
                       _("%s: “%s” is not a link type: use singleton, list, menu or form"), where, type_name);
          return FALSE;
        }
      if (menu_name != NULL && !menu_kind_from_string (menu_name, &menu))
        {
          g_set_error (error, CG_SITE_MODEL_ERROR, CG_SITE_MODEL_ERROR_SPEC,
                       _("%s: “%s” is not a kind of menu: use fixed-anchor or variable-anchor"), where, menu_name);
          return FALSE;
        }
      link = cg_site_model_add_link (self, source, target, type, xpath);
      link->menu = menu;
      link->n_links = (guint) n_links;
    }
  return TRUE;
}

static gboolean
read_data_links (CgSiteModel  *self,
                 JsonObject   *object,
                 GError      **error)
{
  JsonArray *array = NULL;

  if (!cg_json_read_array (object, _("The model file"), "data_links", &array, error))
    return FALSE;
  for (guint i = 0; array != NULL && i < json_array_get_length (array); i++)
    {
      g_autofree char *where = g_strdup_printf (_("Data link %u of the model file"), i + 1);
      JsonObject *item = read_item (array, i, where, error);
      const char *source = NULL, *type_name = NULL, *xpath = NULL, *name = NULL;
      g_autoptr(GString) problem = g_string_new (NULL);
      CgDataLinkType type;

      if (item == NULL ||
          !cg_json_read_string (item, where, "source", &source, error) ||
          !cg_json_read_string (item, where, "type", &type_name, error) ||
          !cg_json_read_string (item, where, "xpath", &xpath, error) ||
          !cg_json_read_string (item, where, "name", &name, error))
        return FALSE;
      if (source == NULL || xpath == NULL || type_name == NULL)
        {
          g_set_error (error, CG_SITE_MODEL_ERROR, CG_SITE_MODEL_ERROR_SPEC,
                       _("Data link %u of the model file needs a source, a type and an XPath"), i + 1);
          return FALSE;
        }
      if (!data_link_type_from_string (type_name, &type))
        {
          g_set_error (error, CG_SITE_MODEL_ERROR, CG_SITE_MODEL_ERROR_SPEC,
                       _("%s: “%s” is not a data link type: use string, url, img or form"), where, type_name);
          return FALSE;
        }
      /* As a crawl spec's data rows are: a wrapper would fail on it later. */
      if (!(type == CG_DATA_LINK_FORM ? check_form_xpath (xpath, problem) : check_xpath (xpath, problem)))
        {
          g_set_error (error, CG_SITE_MODEL_ERROR, CG_SITE_MODEL_ERROR_SPEC, "%s: %s", where, problem->str);
          return FALSE;
        }
      cg_site_model_add_data_link (self, source, type, xpath, name);
    }
  return TRUE;
}

static gboolean
read_patterns (CgSiteModel  *self,
               JsonObject   *object,
               GError      **error)
{
  JsonArray *array = NULL;

  if (!cg_json_read_array (object, _("The model file"), "patterns", &array, error))
    return FALSE;
  for (guint i = 0; array != NULL && i < json_array_get_length (array); i++)
    {
      g_autofree char *where = g_strdup_printf (_("Navigation pattern %u of the model file"), i + 1);
      JsonObject *item = read_item (array, i, where, error);
      const char *pattern = NULL;
      double score = 0;
      gint64 pages = 0;

      if (item == NULL ||
          !cg_json_read_string (item, where, "pattern", &pattern, error) ||
          !cg_json_read_double (item, where, "score", &score, error) ||
          !cg_json_read_int (item, where, "pages", 0, G_MAXINT, &pages, error))
        return FALSE;
      if (pattern == NULL || *pattern == '\0')
        {
          g_set_error (error, CG_SITE_MODEL_ERROR, CG_SITE_MODEL_ERROR_SPEC,
                       _("Navigation pattern %u of the model file has no pattern"), i + 1);
          return FALSE;
        }
      cg_site_model_add_pattern (self, pattern, score, (guint) pages);
    }
  return TRUE;
}

CgSiteModel *
cg_site_model_from_json (const char  *text,
                         GError     **error)
{
  return cg_site_model_from_json_with_site (NULL, text, error);
}

CgSiteModel *
cg_site_model_from_json_with_site (const char  *site,
                                   const char  *text,
                                   GError     **error)
{
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(CgSiteModel) self = NULL;
  const char *where = _("The model file");
  const char *file_site = NULL, *entry_class = NULL;
  JsonObject *parameters = NULL;
  JsonObject *object;

  root = cg_json_parse (text, -1, error);
  if (root == NULL)
    {
      g_prefix_error (error, _("The model file is not valid JSON: "));
      return NULL;
    }
  if (!JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, CG_SITE_MODEL_ERROR, CG_SITE_MODEL_ERROR_SPEC, _("The model file is not a JSON object"));
      return NULL;
    }
  object = json_node_get_object (root);
  if (!cg_json_read_string (object, where, "site", &file_site, error) ||
      !cg_json_read_string (object, where, "entry_class", &entry_class, error))
    return NULL;
  self = cg_site_model_new (file_site != NULL && *file_site != '\0' ? file_site : site);
  if (!cg_json_read_int (object, where, "created_at", 0, G_MAXINT64, &self->created_at, error))
    return NULL;
  cg_site_model_set_entry_class (self, entry_class);
  if (!cg_json_read_object (object, where, "parameters", &parameters, error))
    return NULL;
  if (parameters != NULL)
    {
      g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), parameters);
      g_autofree char *text_parameters = json_to_string (node, FALSE);

      cg_site_model_set_parameters (self, text_parameters);
    }

  if (!read_classes (self, object, error) ||
      !read_links (self, object, error) ||
      !read_data_links (self, object, error) ||
      !read_patterns (self, object, error))
    return NULL;
  /* As for a crawl spec: saved as the site's newest version, a model of
   * nothing would only hide the one before. */
  if (self->classes->len == 0)
    {
      g_set_error (error, CG_SITE_MODEL_ERROR, CG_SITE_MODEL_ERROR_SPEC, _("The model file has no class"));
      return NULL;
    }

  if (!check_imported (self, error) || !cg_site_model_validate (self, error))
    return NULL;
  return g_steal_pointer (&self);
}

static void
append_dot_string (GString    *out,
                   const char *value)
{
  g_string_append_c (out, '"');
  for (const char *p = value != NULL ? value : ""; *p != '\0'; p++)
    {
      if (*p == '"' || *p == '\\')
        g_string_append_c (out, '\\');
      if (*p == '\n')
        g_string_append (out, "\\n");
      else
        g_string_append_c (out, *p);
    }
  g_string_append_c (out, '"');
}

/* Graphviz's dot language: classes are boxes, list links bold, menus
 * dashed, singletons plain, forms dotted; pagination is a loop. */
char *
cg_site_model_to_dot (CgSiteModel *self)
{
  GString *out = g_string_new ("digraph site_model {\n  rankdir=LR;\n  node [shape=box, style=rounded];\n");

  for (guint i = 0; i < self->classes->len; i++)
    {
      CgPageClass *klass = g_ptr_array_index (self->classes, i);
      g_autofree char *label = g_strdup_printf ("%s\n%u pages", klass->label, klass->n_pages);

      g_string_append (out, "  ");
      append_dot_string (out, klass->name);
      g_string_append (out, " [label=");
      append_dot_string (out, label);
      g_string_append (out, "];\n");
    }
  for (guint i = 0; i < self->links->len; i++)
    {
      CgClassLink *link = g_ptr_array_index (self->links, i);
      static const char * const styles[] = {
        [CG_CLASS_LINK_LIST] = "bold", [CG_CLASS_LINK_MENU] = "dashed",
        [CG_CLASS_LINK_SINGLETON] = "solid", [CG_CLASS_LINK_FORM] = "dotted",
      };

      g_string_append (out, "  ");
      append_dot_string (out, link->source);
      g_string_append (out, " -> ");
      append_dot_string (out, link->target);
      g_string_append_printf (out, " [style=%s, label=", styles[link->type]);
      append_dot_string (out, cg_class_link_type_to_string (link->type));
      g_string_append (out, ", tooltip=");
      append_dot_string (out, link->xpath);
      g_string_append (out, "];\n");
    }
  g_string_append (out, "}\n");
  return g_string_free (out, FALSE);
}

static void
append_xml_text (GString    *out,
                 const char *value)
{
  g_autofree char *escaped = g_markup_escape_text (value != NULL ? value : "", -1);

  g_string_append (out, escaped);
}

char *
cg_site_model_to_graphml (CgSiteModel *self)
{
  GString *out = g_string_new ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                               "<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\">\n"
                               "  <key id=\"label\" for=\"node\" attr.name=\"label\" attr.type=\"string\"/>\n"
                               "  <key id=\"pages\" for=\"node\" attr.name=\"pages\" attr.type=\"int\"/>\n"
                               "  <key id=\"depth\" for=\"node\" attr.name=\"depth\" attr.type=\"int\"/>\n"
                               "  <key id=\"url_pattern\" for=\"node\" attr.name=\"url_pattern\" attr.type=\"string\"/>\n"
                               "  <key id=\"type\" for=\"edge\" attr.name=\"type\" attr.type=\"string\"/>\n"
                               "  <key id=\"xpath\" for=\"edge\" attr.name=\"xpath\" attr.type=\"string\"/>\n");

  g_string_append (out, "  <graph id=\"");
  append_xml_text (out, self->site);
  g_string_append (out, "\" edgedefault=\"directed\">\n");
  for (guint i = 0; i < self->classes->len; i++)
    {
      CgPageClass *klass = g_ptr_array_index (self->classes, i);

      g_string_append (out, "    <node id=\"");
      append_xml_text (out, klass->name);
      g_string_append (out, "\"><data key=\"label\">");
      append_xml_text (out, klass->label);
      g_string_append_printf (out, "</data><data key=\"pages\">%u</data><data key=\"depth\">%d</data>",
                              klass->n_pages, klass->depth);
      if (klass->url_pattern != NULL)
        {
          g_string_append (out, "<data key=\"url_pattern\">");
          append_xml_text (out, klass->url_pattern);
          g_string_append (out, "</data>");
        }
      g_string_append (out, "</node>\n");
    }
  for (guint i = 0; i < self->links->len; i++)
    {
      CgClassLink *link = g_ptr_array_index (self->links, i);

      g_string_append_printf (out, "    <edge id=\"e%u\" source=\"", i);
      append_xml_text (out, link->source);
      g_string_append (out, "\" target=\"");
      append_xml_text (out, link->target);
      g_string_append (out, "\"><data key=\"type\">");
      append_xml_text (out, cg_class_link_type_to_string (link->type));
      g_string_append (out, "</data><data key=\"xpath\">");
      append_xml_text (out, link->xpath);
      g_string_append (out, "</data></edge>\n");
    }
  g_string_append (out, "  </graph>\n</graphml>\n");
  return g_string_free (out, FALSE);
}

/* ------------------------------------------------------------------ */
/* Comparing versions                                                  */

static gboolean
same_schema (GStrv a,
             GStrv b)
{
  g_autoptr(GHashTable) set = g_hash_table_new (g_str_hash, g_str_equal);

  if (g_strv_length (a) != g_strv_length (b))
    return FALSE;
  for (guint i = 0; a[i] != NULL; i++)
    g_hash_table_add (set, a[i]);
  for (guint i = 0; b[i] != NULL; i++)
    if (!g_hash_table_contains (set, b[i]))
      return FALSE;
  return TRUE;
}

static char *
link_key (CgClassLink *link,
          const char  *source,
          const char  *target)
{
  return g_strdup_printf ("%s → %s (%s)", source, target, cg_class_link_type_to_string (link->type));
}

CgSiteModelDiff *
cg_site_model_compare (CgSiteModel *old_model,
                       CgSiteModel *new_model)
{
  g_autoptr(GHashTable) new_to_old = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GHashTable) old_matched = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GHashTable) old_links = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GHashTable) new_links = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GStrvBuilder) added = g_strv_builder_new ();
  g_autoptr(GStrvBuilder) removed = g_strv_builder_new ();
  g_autoptr(GStrvBuilder) changed = g_strv_builder_new ();
  g_autoptr(GStrvBuilder) added_links = g_strv_builder_new ();
  g_autoptr(GStrvBuilder) removed_links = g_strv_builder_new ();
  CgSiteModelDiff *diff = g_new0 (CgSiteModelDiff, 1);
  GHashTableIter iter;
  gpointer key;

  /* Match by name first, then by URL pattern among the rest. */
  for (int pass = 0; pass < 2; pass++)
    for (guint i = 0; i < new_model->classes->len; i++)
      {
        CgPageClass *klass = g_ptr_array_index (new_model->classes, i);

        if (g_hash_table_contains (new_to_old, klass->name))
          continue;
        for (guint j = 0; j < old_model->classes->len; j++)
          {
            CgPageClass *old = g_ptr_array_index (old_model->classes, j);

            if (g_hash_table_contains (old_matched, old->name))
              continue;
            if (pass == 0 ? g_str_equal (old->name, klass->name)
                          : (old->url_pattern != NULL && g_strcmp0 (old->url_pattern, klass->url_pattern) == 0))
              {
                g_hash_table_insert (new_to_old, klass->name, old);
                g_hash_table_add (old_matched, old->name);
                break;
              }
          }
      }

  for (guint i = 0; i < new_model->classes->len; i++)
    {
      CgPageClass *klass = g_ptr_array_index (new_model->classes, i);
      CgPageClass *old = g_hash_table_lookup (new_to_old, klass->name);

      if (old == NULL)
        g_strv_builder_add (added, klass->name);
      else if (g_strcmp0 (old->url_pattern, klass->url_pattern) != 0 || !same_schema (old->schema, klass->schema))
        g_strv_builder_add (changed, klass->name);
    }
  for (guint j = 0; j < old_model->classes->len; j++)
    {
      CgPageClass *old = g_ptr_array_index (old_model->classes, j);

      if (!g_hash_table_contains (old_matched, old->name))
        g_strv_builder_add (removed, old->name);
    }

  /* Links are compared in the new model's names. */
  for (guint i = 0; i < new_model->links->len; i++)
    {
      CgClassLink *link = g_ptr_array_index (new_model->links, i);

      g_hash_table_add (new_links, link_key (link, link->source, link->target));
    }
  for (guint i = 0; i < old_model->links->len; i++)
    {
      CgClassLink *link = g_ptr_array_index (old_model->links, i);
      const char *source = link->source, *target = link->target;

      for (guint c = 0; c < new_model->classes->len; c++)
        {
          CgPageClass *klass = g_ptr_array_index (new_model->classes, c);
          CgPageClass *old = g_hash_table_lookup (new_to_old, klass->name);

          if (old != NULL && g_str_equal (old->name, link->source))
            source = klass->name;
          if (old != NULL && g_str_equal (old->name, link->target))
            target = klass->name;
        }
      g_hash_table_add (old_links, link_key (link, source, target));
    }
  g_hash_table_iter_init (&iter, new_links);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    if (!g_hash_table_contains (old_links, key))
      g_strv_builder_add (added_links, key);
  g_hash_table_iter_init (&iter, old_links);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    if (!g_hash_table_contains (new_links, key))
      g_strv_builder_add (removed_links, key);

  diff->added_classes = g_strv_builder_end (added);
  diff->removed_classes = g_strv_builder_end (removed);
  diff->changed_classes = g_strv_builder_end (changed);
  diff->added_links = g_strv_builder_end (added_links);
  diff->removed_links = g_strv_builder_end (removed_links);
  return diff;
}

void
cg_site_model_diff_free (CgSiteModelDiff *diff)
{
  if (diff == NULL)
    return;
  g_strfreev (diff->added_classes);
  g_strfreev (diff->removed_classes);
  g_strfreev (diff->changed_classes);
  g_strfreev (diff->added_links);
  g_strfreev (diff->removed_links);
  g_free (diff);
}

gboolean
cg_site_model_diff_is_empty (const CgSiteModelDiff *diff)
{
  return diff->added_classes[0] == NULL && diff->removed_classes[0] == NULL &&
         diff->changed_classes[0] == NULL && diff->added_links[0] == NULL && diff->removed_links[0] == NULL;
}
