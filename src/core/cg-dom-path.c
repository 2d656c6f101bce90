/* cg-dom-path.c: root-to-element paths of a parsed HTML document.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>
#include <json-glib/json-glib.h>
#include <libxml/xpath.h>
#include <libxml/xpathInternals.h>

#include "cg-dom-path.h"
#include "cg-json.h"

/* XPath expressions come from learned models and hand-written crawl specs;
 * none is anywhere near this long. */
#define MAX_EXPRESSION_LENGTH (64 * 1024)

/* A path in JSON is at most a few kilobytes per step. */
#define MAX_JSON_LENGTH (4 * 1024 * 1024)

typedef struct {
  char   *tag;
  guint   position;
  guint   canonical;
  guint   n_attributes;
  char  **names;
  char  **values;
} Step;

struct _CgDomPath {
  grefcount  ref;
  guint      n_steps;
  Step      *steps;
};

G_DEFINE_BOXED_TYPE (CgDomPath, cg_dom_path, cg_dom_path_ref, cg_dom_path_unref)
G_DEFINE_QUARK (cg-dom-path-error-quark, cg_dom_path_error)

static CgDomPath *
path_alloc (guint n_steps)
{
  CgDomPath *path = g_new0 (CgDomPath, 1);

  g_ref_count_init (&path->ref);
  path->n_steps = n_steps;
  path->steps = g_new0 (Step, MAX (n_steps, 1));
  return path;
}

CgDomPath *
cg_dom_path_ref (CgDomPath *path)
{
  g_return_val_if_fail (path != NULL, NULL);

  g_ref_count_inc (&path->ref);
  return path;
}

void
cg_dom_path_unref (CgDomPath *path)
{
  if (path == NULL || !g_ref_count_dec (&path->ref))
    return;
  for (guint i = 0; i < path->n_steps; i++)
    {
      Step *step = &path->steps[i];

      g_free (step->tag);
      for (guint j = 0; j < step->n_attributes; j++)
        {
          g_free (step->names[j]);
          g_free (step->values[j]);
        }
      g_free (step->names);
      g_free (step->values);
    }
  g_free (path->steps);
  g_free (path);
}

/* ---- reading the tree ---------------------------------------------------- */

static gboolean
is_element (xmlNodePtr node)
{
  return node != NULL && node->type == XML_ELEMENT_NODE && node->name != NULL;
}

static gboolean
name_is (xmlNodePtr  node,
         const char *name)
{
  return is_element (node) && g_ascii_strcasecmp ((const char *) node->name, name) == 0;
}

/* A tbody that the canonical form dissolves into its table. */
static gboolean
is_dissolved (xmlNodePtr node)
{
  return name_is (node, "tbody") && name_is (node->parent, "table");
}

/* ---- positions ------------------------------------------------------------ */

struct _CgDomPathCache {
  GHashTable *position;    /* xmlNodePtr → position among same-name siblings */
  GHashTable *canonical;   /* xmlNodePtr → canonical position */
  GHashTable *numbered;    /* parents whose children are in the tables */
};

CgDomPathCache *
cg_dom_path_cache_new (void)
{
  CgDomPathCache *cache = g_new0 (CgDomPathCache, 1);

  cache->position = g_hash_table_new (NULL, NULL);
  cache->canonical = g_hash_table_new (NULL, NULL);
  cache->numbered = g_hash_table_new (NULL, NULL);
  return cache;
}

void
cg_dom_path_cache_free (CgDomPathCache *cache)
{
  if (cache == NULL)
    return;
  g_hash_table_unref (cache->position);
  g_hash_table_unref (cache->canonical);
  g_hash_table_unref (cache->numbered);
  g_free (cache);
}

/* Element names compare without case: libxml2 lowercases HTML names, but
 * documents built by hand need not. */
static guint
name_hash (gconstpointer name)
{
  guint hash = 5381;

  for (const char *p = name; *p != '\0'; p++)
    hash = hash * 33 + (guint) g_ascii_tolower (*p);
  return hash;
}

static gboolean
name_equal (gconstpointer a,
            gconstpointer b)
{
  return a == b || g_ascii_strcasecmp (a, b) == 0;
}

static guint
count_name (GHashTable    *counts,
            const xmlChar *name)
{
  guint n = GPOINTER_TO_UINT (g_hash_table_lookup (counts, name)) + 1;

  g_hash_table_insert (counts, (gpointer) name, GUINT_TO_POINTER (n));
  return n;
}

/* Numbers all children of @parent in one pass, so that the positions of
 * the thousand items of a long list cost a thousand steps, not a million.
 * The canonical positions of a table's children include the rows of its
 * dissolved tbody elements, in document order. */
static void
number_children (CgDomPathCache *cache,
                 xmlNodePtr      parent)
{
  g_autoptr(GHashTable) counts = NULL;
  g_autoptr(GHashTable) canonical = NULL;
  gboolean dissolved;

  if (!g_hash_table_add (cache->numbered, parent))
    return;
  counts = g_hash_table_new (name_hash, name_equal);
  canonical = g_hash_table_new (name_hash, name_equal);
  /* A dissolved tbody's children are numbered with its table's. */
  dissolved = is_dissolved (parent);

  for (xmlNodePtr child = parent->children; child != NULL; child = child->next)
    {
      if (!is_element (child))
        continue;
      g_hash_table_insert (cache->position, child, GUINT_TO_POINTER (count_name (counts, child->name)));
      if (dissolved)
        continue;
      if (is_dissolved (child))
        {
          for (xmlNodePtr row = child->children; row != NULL; row = row->next)
            if (is_element (row))
              g_hash_table_insert (cache->canonical, row,
                                   GUINT_TO_POINTER (count_name (canonical, row->name)));
        }
      else
        g_hash_table_insert (cache->canonical, child,
                             GUINT_TO_POINTER (count_name (canonical, child->name)));
    }
}

static guint
position_of (CgDomPathCache *cache,
             xmlNodePtr      node)
{
  if (node->parent == NULL)
    return 1;
  number_children (cache, node->parent);
  return GPOINTER_TO_UINT (g_hash_table_lookup (cache->position, node));
}

static guint
canonical_position_of (CgDomPathCache *cache,
                       xmlNodePtr      node)
{
  xmlNodePtr owner = node->parent;

  if (is_dissolved (node))
    return 0;
  if (owner == NULL)
    return 1;
  if (is_dissolved (owner))
    owner = owner->parent;
  number_children (cache, owner);
  return GPOINTER_TO_UINT (g_hash_table_lookup (cache->canonical, node));
}

/* Without a cache, a position is found by counting earlier siblings,
 * which is cheapest for one element. libxml2's parser takes names from
 * the document's dictionary, so equal names are usually the same pointer. */
static gboolean
same_name (xmlNodePtr a,
           xmlNodePtr b)
{
  return is_element (a) &&
         (a->name == b->name || g_ascii_strcasecmp ((const char *) a->name, (const char *) b->name) == 0);
}

static guint
count_before (xmlNodePtr node,
              xmlNodePtr last,
              gboolean   dissolve)
{
  guint count = 0;

  for (xmlNodePtr sibling = last; sibling != NULL; sibling = sibling->prev)
    {
      if (dissolve && is_dissolved (sibling))
        {
          for (xmlNodePtr row = sibling->children; row != NULL; row = row->next)
            if (same_name (row, node))
              count++;
        }
      else if (same_name (sibling, node))
        count++;
    }
  return count;
}

static guint
scan_position (xmlNodePtr node)
{
  return 1 + count_before (node, node->prev, FALSE);
}

static guint
scan_canonical_position (xmlNodePtr node)
{
  xmlNodePtr parent = node->parent;

  if (is_dissolved (node))
    return 0;
  if (parent != NULL && is_dissolved (parent))
    return 1 + count_before (node, node->prev, FALSE) + count_before (node, parent->prev, TRUE);
  return 1 + count_before (node, node->prev, name_is (parent, "table"));
}

static gboolean
is_recorded_attribute (xmlAttrPtr attr)
{
  const char *name = (const char *) attr->name;

  if (attr->type != XML_ATTRIBUTE_NODE || name == NULL || attr->ns != NULL)
    return FALSE;
  /* The renderer's own annotations of the captured DOM. */
  if (g_ascii_strncasecmp (name, "data-cg-", 8) == 0)
    return FALSE;
  return xmlValidateNCName (attr->name, 0) == 0;
}

static void
record_step (Step           *step,
             xmlNodePtr      node,
             CgDomPathCache *cache)
{
  guint n = 0;

  step->tag = g_ascii_strdown ((const char *) node->name, -1);
  step->position = cache != NULL ? position_of (cache, node) : scan_position (node);
  step->canonical = cache != NULL ? canonical_position_of (cache, node) : scan_canonical_position (node);

  for (xmlAttrPtr attr = node->properties; attr != NULL; attr = attr->next)
    if (is_recorded_attribute (attr) && n < CG_DOM_PATH_MAX_ATTRIBUTES)
      n++;
  step->names = g_new0 (char *, n + 1);
  step->values = g_new0 (char *, n + 1);

  for (xmlAttrPtr attr = node->properties; attr != NULL && step->n_attributes < n; attr = attr->next)
    {
      xmlChar *value;
      guint i = step->n_attributes;

      if (!is_recorded_attribute (attr))
        continue;
      step->names[i] = g_ascii_strdown ((const char *) attr->name, -1);
      value = xmlNodeGetContent ((xmlNodePtr) attr);
      if (value == NULL)
        step->values[i] = g_strdup ("");
      else if (strlen ((const char *) value) <= CG_DOM_PATH_MAX_VALUE_LENGTH &&
               g_utf8_validate ((const char *) value, -1, NULL))
        step->values[i] = g_strdup ((const char *) value);
      xmlFree (value);
      step->n_attributes++;
    }
}

static CgDomPath *
new_for_node (xmlNodePtr       element,
              CgDomPathCache  *cache,
              GError         **error)
{
  CgDomPath *path;
  guint depth = 0;
  guint i;

  for (xmlNodePtr node = element; is_element (node); node = node->parent)
    {
      if (++depth > CG_DOM_PATH_MAX_DEPTH)
        {
          g_set_error (error, CG_DOM_PATH_ERROR, CG_DOM_PATH_ERROR_TOO_DEEP,
                       _("The element <%s> is nested more than %d elements deep"),
                       (const char *) element->name, CG_DOM_PATH_MAX_DEPTH);
          return NULL;
        }
    }

  path = path_alloc (depth);
  i = depth;
  for (xmlNodePtr node = element; is_element (node); node = node->parent)
    record_step (&path->steps[--i], node, cache);
  return path;
}

CgDomPath *
cg_dom_path_new_for_node_cached (xmlNodePtr       element,
                                 CgDomPathCache  *cache,
                                 GError         **error)
{
  g_return_val_if_fail (is_element (element), NULL);
  g_return_val_if_fail (cache != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return new_for_node (element, cache, error);
}

CgDomPath *
cg_dom_path_new_for_node (xmlNodePtr   element,
                          GError     **error)
{
  g_return_val_if_fail (is_element (element), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return new_for_node (element, NULL, error);
}

/* ---- accessors ------------------------------------------------------------ */

guint
cg_dom_path_get_length (const CgDomPath *path)
{
  g_return_val_if_fail (path != NULL, 0);
  return path->n_steps;
}

static const Step *
get_step (const CgDomPath *path,
          guint            step)
{
  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (step < path->n_steps, NULL);
  return &path->steps[step];
}

const char *
cg_dom_path_get_tag (const CgDomPath *path,
                     guint            step)
{
  const Step *s = get_step (path, step);

  return s != NULL ? s->tag : NULL;
}

guint
cg_dom_path_get_position (const CgDomPath *path,
                          guint            step)
{
  const Step *s = get_step (path, step);

  return s != NULL ? s->position : 0;
}

guint
cg_dom_path_get_canonical_position (const CgDomPath *path,
                                    guint            step)
{
  const Step *s = get_step (path, step);

  return s != NULL ? s->canonical : 0;
}

guint
cg_dom_path_get_n_attributes (const CgDomPath *path,
                              guint            step)
{
  const Step *s = get_step (path, step);

  return s != NULL ? s->n_attributes : 0;
}

const char *
cg_dom_path_get_attribute_name (const CgDomPath *path,
                                guint            step,
                                guint            attribute)
{
  const Step *s = get_step (path, step);

  g_return_val_if_fail (s != NULL && attribute < s->n_attributes, NULL);
  return s->names[attribute];
}

const char *
cg_dom_path_get_attribute_value (const CgDomPath *path,
                                 guint            step,
                                 guint            attribute)
{
  const Step *s = get_step (path, step);

  g_return_val_if_fail (s != NULL && attribute < s->n_attributes, NULL);
  return s->values[attribute];
}

int
cg_dom_path_find_attribute (const CgDomPath *path,
                            guint            step,
                            const char      *name)
{
  const Step *s = get_step (path, step);

  g_return_val_if_fail (name != NULL, -1);
  if (s == NULL)
    return -1;
  for (guint i = 0; i < s->n_attributes; i++)
    if (g_str_equal (s->names[i], name))
      return (int) i;
  return -1;
}

gboolean
cg_dom_path_equal (const CgDomPath *a,
                   const CgDomPath *b)
{
  g_return_val_if_fail (a != NULL && b != NULL, FALSE);

  if (a->n_steps != b->n_steps)
    return FALSE;
  for (guint i = 0; i < a->n_steps; i++)
    {
      const Step *x = &a->steps[i];
      const Step *y = &b->steps[i];

      if (!g_str_equal (x->tag, y->tag) || x->position != y->position ||
          x->canonical != y->canonical || x->n_attributes != y->n_attributes)
        return FALSE;
      for (guint j = 0; j < x->n_attributes; j++)
        if (!g_str_equal (x->names[j], y->names[j]) || g_strcmp0 (x->values[j], y->values[j]) != 0)
          return FALSE;
    }
  return TRUE;
}

/* ---- strings ------------------------------------------------------------ */

char *
cg_dom_path_to_xpath (const CgDomPath *path)
{
  GString *out = g_string_new (NULL);

  g_return_val_if_fail (path != NULL, NULL);

  for (guint i = 0; i < path->n_steps; i++)
    g_string_append_printf (out, "/%s[%u]", path->steps[i].tag, path->steps[i].position);
  return g_string_free (out, FALSE);
}

char *
cg_dom_path_to_tag_path (const CgDomPath *path)
{
  GString *out = g_string_new (NULL);

  g_return_val_if_fail (path != NULL, NULL);

  for (guint i = 0; i < path->n_steps; i++)
    {
      g_string_append_c (out, '/');
      g_string_append (out, path->steps[i].tag);
    }
  return g_string_free (out, FALSE);
}

char *
cg_dom_path_to_canonical_xpath (const CgDomPath *path)
{
  GString *out = g_string_new (NULL);

  g_return_val_if_fail (path != NULL, NULL);

  for (guint i = 0; i < path->n_steps; i++)
    if (path->steps[i].canonical != 0)
      g_string_append_printf (out, "/%s[%u]", path->steps[i].tag, path->steps[i].canonical);
  return g_string_free (out, FALSE);
}

static char *
node_string (xmlNodePtr  element,
             char     *(*to_string) (const CgDomPath *))
{
  g_autoptr(CgDomPath) path = NULL;

  g_return_val_if_fail (is_element (element), NULL);

  path = cg_dom_path_new_for_node (element, NULL);
  return path != NULL ? to_string (path) : NULL;
}

char *
cg_dom_node_xpath (xmlNodePtr element)
{
  return node_string (element, cg_dom_path_to_xpath);
}

char *
cg_dom_node_tag_path (xmlNodePtr element)
{
  return node_string (element, cg_dom_path_to_tag_path);
}

char *
cg_dom_node_canonical_xpath (xmlNodePtr element)
{
  return node_string (element, cg_dom_path_to_canonical_xpath);
}

gboolean
cg_dom_node_has_browser_counterpart (xmlNodePtr element)
{
  g_return_val_if_fail (is_element (element), FALSE);

  for (xmlNodePtr node = element->parent; is_element (node); node = node->parent)
    if (name_is (node, "noscript") || name_is (node, "template"))
      return FALSE;
  return TRUE;
}

char *
cg_dom_xpath_literal (const char *value)
{
  g_auto(GStrv) parts = NULL;
  GString *out;

  g_return_val_if_fail (value != NULL, NULL);

  if (strchr (value, '"') == NULL)
    return g_strconcat ("\"", value, "\"", NULL);
  if (strchr (value, '\'') == NULL)
    return g_strconcat ("'", value, "'", NULL);

  /* concat("a", '"', "b"): the runs between double quotes go in double
   * quotes, each double quote in apostrophes. There are at least two
   * arguments, since the value holds both kinds of quote. */
  parts = g_strsplit (value, "\"", -1);
  out = g_string_new ("concat(");
  for (guint i = 0; parts[i] != NULL; i++)
    {
      if (i > 0)
        g_string_append (out, out->str[out->len - 1] == '(' ? "'\"'" : ",'\"'");
      if (parts[i][0] != '\0')
        {
          if (out->str[out->len - 1] != '(')
            g_string_append_c (out, ',');
          g_string_append_printf (out, "\"%s\"", parts[i]);
        }
    }
  g_string_append_c (out, ')');
  return g_string_free (out, FALSE);
}

/* ---- JSON --------------------------------------------------------------- */

char *
cg_dom_path_to_json (const CgDomPath *path)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;

  g_return_val_if_fail (path != NULL, NULL);

  json_builder_begin_array (builder);
  for (guint i = 0; i < path->n_steps; i++)
    {
      const Step *step = &path->steps[i];

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "tag");
      json_builder_add_string_value (builder, step->tag);
      json_builder_set_member_name (builder, "position");
      json_builder_add_int_value (builder, step->position);
      json_builder_set_member_name (builder, "canonical");
      json_builder_add_int_value (builder, step->canonical);
      json_builder_set_member_name (builder, "attributes");
      json_builder_begin_array (builder);
      for (guint j = 0; j < step->n_attributes; j++)
        {
          json_builder_begin_array (builder);
          json_builder_add_string_value (builder, step->names[j]);
          if (step->values[j] != NULL)
            json_builder_add_string_value (builder, step->values[j]);
          else
            json_builder_add_null_value (builder);
          json_builder_end_array (builder);
        }
      json_builder_end_array (builder);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);

  root = json_builder_get_root (builder);
  json_generator_set_root (generator, root);
  return json_generator_to_data (generator, NULL);
}

static gboolean
json_error (GError    **error,
            guint       step,
            const char *what)
{
  g_set_error (error, CG_DOM_PATH_ERROR, CG_DOM_PATH_ERROR_INVALID_JSON,
               _("Invalid DOM path: step %u: %s"), step + 1, what);
  return FALSE;
}

static gboolean
is_name (const char *name)
{
  return name != NULL && *name != '\0' && xmlValidateNCName ((const xmlChar *) name, 0) == 0;
}

static gboolean
read_position (JsonObject  *object,
               const char  *member,
               guint        minimum,
               guint       *out)
{
  JsonNode *node = json_object_get_member (object, member);
  gint64 value;

  if (node == NULL || json_node_get_value_type (node) != G_TYPE_INT64)
    return FALSE;
  value = json_node_get_int (node);
  if (value < minimum || value > G_MAXINT)
    return FALSE;
  *out = (guint) value;
  return TRUE;
}

static gboolean
read_step (JsonNode  *node,
           guint      index,
           Step      *step,
           GError   **error)
{
  JsonObject *object;
  JsonNode *tag;
  JsonNode *attributes;
  JsonArray *list;
  guint n;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    return json_error (error, index, _("not an object"));
  object = json_node_get_object (node);

  tag = json_object_get_member (object, "tag");
  if (tag == NULL || json_node_get_value_type (tag) != G_TYPE_STRING ||
      !is_name (json_node_get_string (tag)))
    return json_error (error, index, _("“tag” is not an element name"));
  step->tag = g_ascii_strdown (json_node_get_string (tag), -1);

  if (!read_position (object, "position", 1, &step->position))
    return json_error (error, index, _("“position” is not a number from 1"));
  if (!read_position (object, "canonical", 0, &step->canonical))
    return json_error (error, index, _("“canonical” is not a number from 0"));

  attributes = json_object_get_member (object, "attributes");
  if (attributes == NULL || !JSON_NODE_HOLDS_ARRAY (attributes))
    return json_error (error, index, _("“attributes” is not a list"));
  list = json_node_get_array (attributes);
  n = json_array_get_length (list);
  if (n > CG_DOM_PATH_MAX_ATTRIBUTES)
    return json_error (error, index, _("too many attributes"));

  step->names = g_new0 (char *, n + 1);
  step->values = g_new0 (char *, n + 1);
  for (guint i = 0; i < n; i++)
    {
      JsonNode *pair = json_array_get_element (list, i);
      JsonArray *items;
      JsonNode *name;
      JsonNode *value;

      if (!JSON_NODE_HOLDS_ARRAY (pair) || json_array_get_length (json_node_get_array (pair)) != 2)
        return json_error (error, index, _("an attribute is not a [name, value] pair"));
      items = json_node_get_array (pair);
      name = json_array_get_element (items, 0);
      value = json_array_get_element (items, 1);
      if (json_node_get_value_type (name) != G_TYPE_STRING || !is_name (json_node_get_string (name)))
        return json_error (error, index, _("an attribute name is not a name"));
      if (!JSON_NODE_HOLDS_NULL (value) &&
          (json_node_get_value_type (value) != G_TYPE_STRING ||
           strlen (json_node_get_string (value)) > CG_DOM_PATH_MAX_VALUE_LENGTH))
        return json_error (error, index, _("an attribute value is not a string of at most 512 bytes"));

      step->names[i] = g_ascii_strdown (json_node_get_string (name), -1);
      step->values[i] = JSON_NODE_HOLDS_NULL (value) ? NULL : g_strdup (json_node_get_string (value));
      step->n_attributes++;
    }
  return TRUE;
}

CgDomPath *
cg_dom_path_new_from_json (const char  *json,
                           GError     **error)
{
  g_autoptr(CgDomPath) path = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autoptr(JsonNode) root = NULL;
  JsonArray *steps;
  guint n;

  g_return_val_if_fail (json != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (strlen (json) > MAX_JSON_LENGTH)
    {
      g_set_error (error, CG_DOM_PATH_ERROR, CG_DOM_PATH_ERROR_INVALID_JSON,
                   _("Invalid DOM path: longer than %d bytes"), MAX_JSON_LENGTH);
      return NULL;
    }
  root = cg_json_parse (json, -1, &local_error);
  if (root == NULL)
    {
      g_set_error (error, CG_DOM_PATH_ERROR, CG_DOM_PATH_ERROR_INVALID_JSON,
                   _("Invalid DOM path: %s"), local_error->message);
      return NULL;
    }
  if (!JSON_NODE_HOLDS_ARRAY (root))
    {
      g_set_error (error, CG_DOM_PATH_ERROR, CG_DOM_PATH_ERROR_INVALID_JSON,
                   _("Invalid DOM path: not a list of steps"));
      return NULL;
    }
  steps = json_node_get_array (root);
  n = json_array_get_length (steps);
  if (n == 0 || n > CG_DOM_PATH_MAX_DEPTH)
    {
      g_set_error (error, CG_DOM_PATH_ERROR, CG_DOM_PATH_ERROR_INVALID_JSON,
                   _("Invalid DOM path: %u steps, expected 1 to %d"), n, CG_DOM_PATH_MAX_DEPTH);
      return NULL;
    }

  path = path_alloc (n);
  for (guint i = 0; i < n; i++)
    if (!read_step (json_array_get_element (steps, i), i, &path->steps[i], error))
      return NULL;
  return g_steal_pointer (&path);
}

/* ---- XPath evaluation ------------------------------------------------------ */

/* libxml2 reports XPath errors as codes (its messages are not public);
 * these say what each code means. */
static const char *
xpath_error_message (int code)
{
  switch (code - XML_XPATH_EXPRESSION_OK + XPATH_EXPRESSION_OK)
    {
    case XPATH_NUMBER_ERROR: return _("bad number");
    case XPATH_UNFINISHED_LITERAL_ERROR: return _("unfinished string literal");
    case XPATH_START_LITERAL_ERROR: return _("string literal expected");
    case XPATH_VARIABLE_REF_ERROR: return _("bad variable reference");
    case XPATH_UNDEF_VARIABLE_ERROR: return _("undefined variable");
    case XPATH_INVALID_PREDICATE_ERROR: return _("invalid predicate");
    case XPATH_EXPR_ERROR: return _("invalid expression");
    case XPATH_UNCLOSED_ERROR: return _("missing closing bracket");
    case XPATH_UNKNOWN_FUNC_ERROR: return _("unknown function");
    case XPATH_INVALID_OPERAND: return _("invalid operand");
    case XPATH_INVALID_TYPE: return _("invalid type");
    case XPATH_INVALID_ARITY: return _("wrong number of arguments");
    case XPATH_UNDEF_PREFIX_ERROR: return _("undefined namespace prefix");
    case XPATH_ENCODING_ERROR: return _("invalid encoding");
    case XPATH_INVALID_CHAR_ERROR: return _("invalid character");
    case XPATH_OP_LIMIT_EXCEEDED: return _("too much work (operation limit reached)");
    case XPATH_RECURSION_LIMIT_EXCEEDED: return _("nested too deep");
    default: return _("evaluation failed");
    }
}

typedef struct {
  gboolean failed;
  int      code;
  int      offset;
} XPathFailure;

static void
xpath_error_cb (void     *user_data,
                xmlError *error)
{
  XPathFailure *failure = user_data;

  /* The first error is the cause; later ones repeat it. */
  if (!failure->failed && error != NULL)
    {
      failure->failed = TRUE;
      failure->code = error->code;
      failure->offset = error->int1;
    }
}

static void
silent_xpath_error_cb (void     *user_data,
                       xmlError *error)
{
}

xmlXPathCompExprPtr
cg_dom_xpath_compile (const char *expression)
{
  xmlXPathContextPtr context;
  xmlXPathCompExprPtr compiled;

  g_return_val_if_fail (expression != NULL, NULL);

  context = xmlXPathNewContext (NULL);
  if (context == NULL)
    return NULL;
  context->error = silent_xpath_error_cb;
  compiled = xmlXPathCtxtCompile (context, (const xmlChar *) expression);
  xmlXPathFreeContext (context);
  return compiled;
}

/* libxml2 also prints some XPath errors (an unknown function) through its
 * generic error handler, which the structured handler does not catch. */
static void
silent_error_cb (void       *context,
                 const char *format,
                 ...)
{
}

typedef xmlXPathContext CgXPathContext;
typedef xmlXPathCompExpr CgXPathCompExpr;
typedef xmlXPathObject CgXPathObject;
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CgXPathContext, xmlXPathFreeContext)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CgXPathCompExpr, xmlXPathFreeCompExpr)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CgXPathObject, xmlXPathFreeObject)

GPtrArray *
cg_dom_xpath_eval (xmlDocPtr    doc,
                   xmlNodePtr   context,
                   const char  *expression,
                   GError     **error)
{
  g_autoptr(CgXPathContext) ctxt = NULL;
  g_autoptr(CgXPathCompExpr) compiled = NULL;
  g_autoptr(CgXPathObject) result = NULL;
  g_autofree char *shown = NULL;
  XPathFailure failure = { 0 };
  xmlGenericErrorFunc saved_handler;
  void *saved_context;
  GPtrArray *nodes;
  xmlNodeSetPtr set;

  g_return_val_if_fail (doc != NULL, NULL);
  g_return_val_if_fail (expression != NULL, NULL);
  g_return_val_if_fail (context == NULL || context->doc == doc, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  shown = g_utf8_make_valid (expression, MIN (strlen (expression), 200));
  if (strlen (expression) > MAX_EXPRESSION_LENGTH)
    {
      g_set_error (error, CG_DOM_PATH_ERROR, CG_DOM_PATH_ERROR_INVALID_XPATH,
                   _("The XPath expression “%s…” is longer than %d bytes"),
                   shown, MAX_EXPRESSION_LENGTH);
      return NULL;
    }

  ctxt = xmlXPathNewContext (doc);
  if (ctxt == NULL)
    g_error ("Out of memory creating an XPath context");
  ctxt->node = context != NULL ? context : (xmlNodePtr) doc;
  ctxt->error = xpath_error_cb;
  ctxt->userData = &failure;
  ctxt->opLimit = CG_DOM_XPATH_MAX_OPERATIONS;

  saved_handler = xmlGenericError;
  saved_context = xmlGenericErrorContext;
  xmlSetGenericErrorFunc (NULL, silent_error_cb);
  compiled = xmlXPathCtxtCompile (ctxt, (const xmlChar *) expression);
  if (compiled != NULL)
    result = xmlXPathCompiledEval (compiled, ctxt);
  xmlSetGenericErrorFunc (saved_context, saved_handler);

  if (result == NULL || failure.failed)
    {
      g_set_error (error, CG_DOM_PATH_ERROR, CG_DOM_PATH_ERROR_INVALID_XPATH,
                   _("The XPath expression “%s” cannot be evaluated: %s at character %d"), shown,
                   failure.failed ? xpath_error_message (failure.code) : _("evaluation failed"),
                   failure.failed ? failure.offset + 1 : 1);
      return NULL;
    }
  if (result->type != XPATH_NODESET)
    {
      g_set_error (error, CG_DOM_PATH_ERROR, CG_DOM_PATH_ERROR_NOT_NODES,
                   _("The XPath expression “%s” gives a value, not a set of elements"), shown);
      return NULL;
    }

  set = result->nodesetval;
  if (set != NULL && set->nodeNr > CG_DOM_XPATH_MAX_RESULTS)
    {
      g_set_error (error, CG_DOM_PATH_ERROR, CG_DOM_PATH_ERROR_TOO_MANY_NODES,
                   _("The XPath expression “%s” selects %d nodes, more than the %d allowed"),
                   shown, set->nodeNr, CG_DOM_XPATH_MAX_RESULTS);
      return NULL;
    }

  nodes = g_ptr_array_new ();
  if (set != NULL)
    {
      xmlXPathNodeSetSort (set);
      for (int i = 0; i < set->nodeNr; i++)
        {
          /* Namespace nodes are copies that die with the result; an HTML
           * document has none worth returning. */
          if (set->nodeTab[i]->type != XML_NAMESPACE_DECL)
            g_ptr_array_add (nodes, set->nodeTab[i]);
        }
    }
  return nodes;
}
