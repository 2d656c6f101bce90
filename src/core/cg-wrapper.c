/* cg-wrapper.c: XPath wrappers of a page class, learned on a few of its pages, applied to any.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>
#include <json-glib/json-glib.h>
#include <libxml/HTMLtree.h>
#include <libxml/xpath.h>

#include "cg-clustvx.h"
#include "cg-dom-path.h"
#include "cg-text.h"
#include "cg-url.h"
#include "cg-wrapper.h"
#include "cg-json.h"

G_DEFINE_QUARK (cg-wrapper-error-quark, cg_wrapper_error)

/* Pages of the site's other classes read at most to recognise its
 * template. */
#define MAX_SITE_DOCS            20
/* Content units read at most per page when looking for detail fields. */
#define MAX_UNITS_PER_PAGE       20000
/* A label is short: at most this many bytes and words. */
#define MAX_LABEL_LENGTH         40
#define MAX_LABEL_WORDS          6
/* Two regions of two pages are the same region when their column keys
 * overlap at least this much (Jaccard), if their XPaths differ. */
#define MIN_REGION_KEY_OVERLAP   0.5
/* A column of a recurring region whose value sets overlap this much from
 * page to page (and whose values are distinct within a page) holds the
 * template's labels, not data. */
#define MIN_LABEL_SET_OVERLAP    0.6
/* A column's XPath is accepted when it selects its items in this share of
 * the learning records; otherwise another form is tried. */
#define MIN_XPATH_COVERAGE       0.8
/* Beside the main list, a detail page's recurring regions of this many
 * records on average are lists of their own (related items), not fields
 * of its record; smaller ones (the two parts of a rating) are fields. */
#define MIN_LIST_RECORDS         4
/* A class is a detail class, whatever lists its pages have, when its
 * pages' fields outside the main list outnumber the items of one of the
 * list's records this many times. */
#define DETAIL_RICHNESS          3.0
/* A recurring region of fewer records than MIN_LIST_RECORDS on average is
 * the main list only if its records have at least this many varying
 * items each: two paragraphs of a description recur on every page like a
 * list of two records of one item each, and are fields of the page's
 * record. */
#define MIN_SMALL_LIST_RECORD_ITEMS 2.0
/* The least regularity of a list's records (see region_fill()). */
#define MIN_RECORD_FILL          0.6
/* Longest column name made from a label or an attribute. */
#define MAX_NAME_LENGTH          40
/* The longest id attribute used to anchor an XPath: longer ones are
 * usually generated. */
#define MAX_ANCHOR_ID_LENGTH     64

typedef enum {
  VALUE_TEXT,
  VALUE_FOLLOWING,
} ValueMode;

typedef struct {
  char              *name;
  char              *xpath;
  CgClustvxItemKind  kind;
  char              *label;   /* or NULL */
  ValueMode          value;
} Column;

typedef struct {
  char      *xpath;
  char      *record;
  gboolean   type_b;
  GPtrArray *columns;   /* Column */
  GStrv      names;
} Region;

struct _CgWrapper
{
  gatomicrefcount  ref_count;
  char            *class_name;
  CgWrapperKind    kind;
  guint            n_pages;
  GPtrArray       *regions;   /* Region */
};

static void
column_free (Column *column)
{
  g_free (column->name);
  g_free (column->xpath);
  g_free (column->label);
  g_free (column);
}

static Column *
column_new (const char        *name,
            const char        *xpath,
            CgClustvxItemKind  kind,
            const char        *label,
            ValueMode          value)
{
  Column *column = g_new0 (Column, 1);

  column->name = g_strdup (name);
  column->xpath = g_strdup (xpath);
  column->kind = kind;
  column->label = g_strdup (label);
  column->value = value;
  return column;
}

static void
region_free (Region *region)
{
  g_free (region->xpath);
  g_free (region->record);
  g_ptr_array_unref (region->columns);
  g_strfreev (region->names);
  g_free (region);
}

static Region *
region_new (const char *xpath,
            const char *record,
            gboolean    type_b)
{
  Region *region = g_new0 (Region, 1);

  region->xpath = g_strdup (xpath);
  region->record = g_strdup (record);
  region->type_b = type_b;
  region->columns = g_ptr_array_new_with_free_func ((GDestroyNotify) column_free);
  return region;
}

/* The names array handed out by cg_wrapper_get_columns(). */
static void
region_update_names (Region *region)
{
  GStrvBuilder *builder = g_strv_builder_new ();

  for (guint i = 0; i < region->columns->len; i++)
    g_strv_builder_add (builder, ((Column *) g_ptr_array_index (region->columns, i))->name);
  g_strfreev (region->names);
  region->names = g_strv_builder_end (builder);
  g_strv_builder_unref (builder);
}

static CgWrapper *
wrapper_new (CgWrapperKind kind)
{
  CgWrapper *self = g_new0 (CgWrapper, 1);

  g_atomic_ref_count_init (&self->ref_count);
  self->kind = kind;
  self->regions = g_ptr_array_new_with_free_func ((GDestroyNotify) region_free);
  return self;
}

CgWrapper *
cg_wrapper_ref (CgWrapper *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
cg_wrapper_unref (CgWrapper *self)
{
  g_return_if_fail (self != NULL);
  if (!g_atomic_ref_count_dec (&self->ref_count))
    return;
  g_free (self->class_name);
  g_ptr_array_unref (self->regions);
  g_free (self);
}

void
cg_wrapper_options_init (CgWrapperOptions *options)
{
  memset (options, 0, sizeof *options);
  options->max_pages = CG_WRAPPER_DEFAULT_PAGES;
}

CgWrapperKind
cg_wrapper_get_kind (CgWrapper *self)
{
  return self->kind;
}

const char *
cg_wrapper_get_class_name (CgWrapper *self)
{
  return self->class_name;
}

void
cg_wrapper_set_class_name (CgWrapper  *self,
                           const char *class_name)
{
  g_free (self->class_name);
  self->class_name = g_strdup (class_name);
}

guint
cg_wrapper_get_n_pages (CgWrapper *self)
{
  return self->n_pages;
}

guint
cg_wrapper_get_n_regions (CgWrapper *self)
{
  return self->regions->len;
}

const char *
cg_wrapper_get_region_xpath (CgWrapper *self,
                             guint      region)
{
  g_return_val_if_fail (region < self->regions->len, NULL);
  return ((Region *) g_ptr_array_index (self->regions, region))->xpath;
}

const char *
cg_wrapper_get_record_xpath (CgWrapper *self,
                             guint      region)
{
  g_return_val_if_fail (region < self->regions->len, NULL);
  return ((Region *) g_ptr_array_index (self->regions, region))->record;
}

static Column *
get_column (CgWrapper *self,
            guint      region,
            guint      column)
{
  Region *in;

  g_return_val_if_fail (region < self->regions->len, NULL);
  in = g_ptr_array_index (self->regions, region);
  g_return_val_if_fail (column < in->columns->len, NULL);
  return g_ptr_array_index (in->columns, column);
}

const char *
cg_wrapper_get_column_xpath (CgWrapper *self,
                             guint      region,
                             guint      column)
{
  Column *found = get_column (self, region, column);

  return found != NULL ? found->xpath : NULL;
}

CgClustvxItemKind
cg_wrapper_get_column_kind (CgWrapper *self,
                            guint      region,
                            guint      column)
{
  Column *found = get_column (self, region, column);

  return found != NULL ? found->kind : CG_CLUSTVX_ITEM_TEXT;
}

const char * const *
cg_wrapper_get_columns (CgWrapper *self,
                        guint      region)
{
  g_return_val_if_fail (region < self->regions->len, NULL);
  return (const char * const *) ((Region *) g_ptr_array_index (self->regions, region))->names;
}

GStrv
cg_wrapper_list_column_names (CgWrapper *self)
{
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  GStrvBuilder *builder = g_strv_builder_new ();
  GStrv names;

  for (guint r = 0; r < self->regions->len; r++)
    {
      Region *region = g_ptr_array_index (self->regions, r);

      for (guint c = 0; c < region->columns->len; c++)
        {
          Column *column = g_ptr_array_index (region->columns, c);

          if (g_hash_table_add (seen, column->name))
            g_strv_builder_add (builder, column->name);
        }
    }
  names = g_strv_builder_end (builder);
  g_strv_builder_unref (builder);
  return names;
}

/* --- Text ---------------------------------------------------------------- */

static const char * const kind_names[] = {
  [CG_CLUSTVX_ITEM_TEXT] = "text",
  [CG_CLUSTVX_ITEM_LINK] = "link",
  [CG_CLUSTVX_ITEM_IMAGE] = "image",
  [CG_CLUSTVX_ITEM_PRICE] = "price",
  [CG_CLUSTVX_ITEM_DATE] = "date",
};

static gboolean
kind_from_string (const char        *text,
                  CgClustvxItemKind *out_kind)
{
  for (guint i = 0; i < G_N_ELEMENTS (kind_names); i++)
    if (g_strcmp0 (text, kind_names[i]) == 0)
      {
        *out_kind = i;
        return TRUE;
      }
  return FALSE;
}

/* XPath's normalize-space(): only the four XML white space characters
 * collapse, so that a label written into an XPath literal matches what
 * libxml2 computes. */
static char *
xml_normalize_space (const char *text)
{
  GString *out = g_string_new (NULL);
  gboolean space = FALSE;

  for (const char *p = text; *p != '\0'; p++)
    {
      if (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
        {
          space = TRUE;
          continue;
        }
      if (space && out->len > 0)
        g_string_append_c (out, ' ');
      space = FALSE;
      g_string_append_c (out, *p);
    }
  return g_string_free (out, FALSE);
}

/* A column name from free text: lowercase ASCII letters, digits and
 * underscores, words split at case changes ("productTitle" →
 * "product_title"), at most MAX_NAME_LENGTH bytes. Returns NULL when
 * nothing is left. */
static char *
make_name (const char *text)
{
  GString *out = g_string_new (NULL);
  gboolean gap = FALSE;
  char previous = 0;

  for (const char *p = text; *p != '\0' && out->len < MAX_NAME_LENGTH; p++)
    {
      char c = *p;

      if (g_ascii_isalnum (c))
        {
          if ((gap || (g_ascii_isupper (c) && g_ascii_islower (previous))) && out->len > 0)
            g_string_append_c (out, '_');
          g_string_append_c (out, g_ascii_tolower (c));
          gap = FALSE;
        }
      else
        gap = TRUE;
      previous = c;
    }
  if (out->len == 0)
    {
      g_string_free (out, TRUE);
      return NULL;
    }
  if (g_ascii_isdigit (out->str[0]))
    g_string_prepend (out, "f_");
  return g_string_free (out, FALSE);
}

/* --- Nodes --------------------------------------------------------------- */

static gboolean
node_is (xmlNodePtr  node,
         const char *name)
{
  return node != NULL && node->type == XML_ELEMENT_NODE && node->name != NULL &&
         g_ascii_strcasecmp ((const char *) node->name, name) == 0;
}

static gboolean
name_in (xmlNodePtr          node,
         const char * const *names)
{
  if (node == NULL || node->type != XML_ELEMENT_NODE || node->name == NULL)
    return FALSE;
  return g_strv_contains (names, (const char *) node->name);
}

/* Elements whose content is never shown as text. */
static gboolean
is_skipped (xmlNodePtr node)
{
  static const char * const names[] = {
    "head", "script", "style", "noscript", "template", "iframe", "object", "svg", "select",
    "option", "datalist", "textarea", "map", NULL
  };

  return name_in (node, names);
}

/* Inline formatting, which ClustVX dissolves (seed 003 §2.3) and so does
 * the wrapper when it looks for fields and labels. */
static gboolean
is_formatting (xmlNodePtr node)
{
  static const char * const names[] = {
    "b", "i", "em", "strong", "font", "u", "s", "small", "big", "tt", "strike", "sub", "sup",
    "mark", "abbr", "cite", "q", "code", "ins", "del", "nobr", "wbr", NULL
  };

  return name_in (node, names);
}

/* Elements that end a run of inline text. */
static gboolean
is_block (xmlNodePtr node)
{
  static const char * const names[] = {
    "address", "article", "aside", "blockquote", "dd", "div", "dl", "dt", "fieldset", "figure",
    "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "li", "main", "nav",
    "ol", "p", "pre", "section", "table", "tbody", "thead", "tfoot", "tr", "td", "th", "ul",
    "caption", "center", "figcaption", "details", "summary", "body", "html", NULL
  };

  return name_in (node, names);
}

static char *
get_attribute (xmlNodePtr  node,
               const char *name)
{
  xmlChar *value;
  char *copy;

  if (node == NULL || node->type != XML_ELEMENT_NODE)
    return NULL;
  value = xmlGetProp (node, (const xmlChar *) name);
  if (value == NULL)
    return NULL;
  copy = g_strdup ((const char *) value);
  xmlFree (value);
  return copy;
}

/* What is obviously never shown on a plain page, and what the renderer
 * marked invisible on a rendered one. */
static gboolean
is_hidden (xmlNodePtr node,
           gboolean   rendered)
{
  g_autofree char *style = NULL;

  if (node->type != XML_ELEMENT_NODE)
    return FALSE;
  if (rendered)
    {
      g_autofree char *visible = get_attribute (node, "data-cg-visible");

      if (g_strcmp0 (visible, "0") == 0)
        return TRUE;
    }
  if (xmlHasProp (node, (const xmlChar *) "hidden") != NULL)
    return TRUE;
  if (node_is (node, "input"))
    return TRUE;
  style = get_attribute (node, "style");
  if (style != NULL)
    {
      g_autofree char *squeezed = NULL;
      GString *s = g_string_new (NULL);

      for (const char *p = style; *p != '\0'; p++)
        if (!g_ascii_isspace (*p))
          g_string_append_c (s, g_ascii_tolower (*p));
      squeezed = g_string_free (s, FALSE);
      if (strstr (squeezed, "display:none") != NULL || strstr (squeezed, "visibility:hidden") != NULL)
        return TRUE;
    }
  return FALSE;
}

/* A field's text as it is gathered: collapsed, and cut, with a mark that
 * says so, where it would be longer than CG_WRAPPER_MAX_VALUE_LENGTH. */
typedef struct {
  GString  *out;
  gboolean  space;  /* a space is due before the next visible character */
  gboolean  cut;
} FieldText;

#define CUT_MARK "…"

static void
field_text_init (FieldText *text)
{
  text->out = g_string_new (NULL);
  text->space = FALSE;
  text->cut = FALSE;
}

static void
field_text_append (FieldText  *text,
                   const char *part)
{
  /* Room is kept for the mark, so that a cut value stays within the
   * bound too. */
  if (!text->cut &&
      !cg_text_append_collapsed (text->out, part, &text->space, CG_WRAPPER_MAX_VALUE_LENGTH - strlen (CUT_MARK)))
    text->cut = TRUE;
}

/* The text, ending with the mark if it was cut: an export of a long
 * article's text must not pass for the whole of it. */
static GString *
field_text_finish (FieldText *text)
{
  if (text->cut)
    g_string_append (text->out, CUT_MARK);
  return g_steal_pointer (&text->out);
}

static void
append_node_text (FieldText  *text,
                  xmlNodePtr  node,
                  guint       depth)
{
  if (depth > CG_DOM_PATH_MAX_DEPTH || text->cut)
    return;
  switch (node->type)
    {
    case XML_TEXT_NODE:
    case XML_CDATA_SECTION_NODE:
      if (node->content != NULL)
        field_text_append (text, (const char *) node->content);
      break;
    case XML_ATTRIBUTE_NODE:
      {
        xmlChar *value = xmlNodeGetContent (node);

        if (value != NULL)
          field_text_append (text, (const char *) value);
        xmlFree (value);
      }
      break;
    case XML_ELEMENT_NODE:
      if (is_skipped (node))
        break;
      if (node_is (node, "br") || is_block (node))
        text->space = TRUE;
      for (xmlNodePtr child = node->children; child != NULL; child = child->next)
        append_node_text (text, child, depth + 1);
      if (is_block (node))
        text->space = TRUE;
      break;
    default:
      break;
    }
}

/* The text of the nodes from @first to @last, siblings. */
static char *
run_text (xmlNodePtr first,
          xmlNodePtr last)
{
  FieldText text;

  field_text_init (&text);
  for (xmlNodePtr node = first; node != NULL; node = node->next)
    {
      append_node_text (&text, node, 0);
      if (node == last)
        break;
    }
  return g_string_free (field_text_finish (&text), FALSE);
}

static gboolean
is_simple_name (const char *name)
{
  if (name == NULL || !g_ascii_isalpha (name[0]))
    return FALSE;
  for (const char *p = name; *p != '\0'; p++)
    if (!g_ascii_isalnum (*p) && *p != '-' && *p != '_' && *p != '.')
      return FALSE;
  return TRUE;
}

/* One positional XPath step for @node among its siblings: "li[3]",
 * "text()[2]", or "*[name()='fb:like'][1]" for names an XPath cannot
 * spell. @siblings_from is the first node counted (its parent's first
 * child, or the first node of a type-B run), @siblings_to the last one. */
static char *
node_step (xmlNodePtr node,
           xmlNodePtr siblings_from)
{
  guint position = 1;

  for (xmlNodePtr n = siblings_from; n != NULL && n != node; n = n->next)
    {
      if (node->type == XML_ELEMENT_NODE)
        {
          if (n->type == XML_ELEMENT_NODE && xmlStrcmp (n->name, node->name) == 0)
            position++;
        }
      else if (n->type == XML_TEXT_NODE || n->type == XML_CDATA_SECTION_NODE)
        position++;
    }
  if (node->type != XML_ELEMENT_NODE)
    return g_strdup_printf ("text()[%u]", position);
  if (is_simple_name ((const char *) node->name))
    return g_strdup_printf ("%s[%u]", (const char *) node->name, position);
  else
    {
      g_autofree char *literal = cg_dom_xpath_literal ((const char *) node->name);

      return g_strdup_printf ("*[name()=%s][%u]", literal, position);
    }
}

/* The positional path from @ancestor (excluded) down to @node, or NULL
 * when @node is not below it. */
static char *
relative_path (xmlNodePtr node,
               xmlNodePtr ancestor)
{
  GPtrArray *steps = g_ptr_array_new_with_free_func (g_free);
  GString *out;
  xmlNodePtr n;

  for (n = node; n != NULL && n != ancestor; n = n->parent)
    {
      if (n->type != XML_ELEMENT_NODE && n->type != XML_TEXT_NODE && n->type != XML_CDATA_SECTION_NODE)
        break;
      if (steps->len > CG_DOM_PATH_MAX_DEPTH)
        break;
      g_ptr_array_add (steps, node_step (n, n->parent != NULL ? n->parent->children : n));
    }
  if (n != ancestor || steps->len == 0)
    {
      g_ptr_array_unref (steps);
      return NULL;
    }
  out = g_string_new (NULL);
  for (guint i = steps->len; i > 0; i--)
    {
      if (out->len > 0)
        g_string_append_c (out, '/');
      g_string_append (out, g_ptr_array_index (steps, i - 1));
    }
  g_ptr_array_unref (steps);
  return g_string_free (out, FALSE);
}

/* The union of the relative paths of the sibling nodes @first … @last. */
static char *
relative_run_path (xmlNodePtr first,
                   xmlNodePtr last,
                   xmlNodePtr ancestor)
{
  GString *out = g_string_new (NULL);

  for (xmlNodePtr n = first; n != NULL; n = n->next)
    {
      if (n->type == XML_ELEMENT_NODE || n->type == XML_TEXT_NODE || n->type == XML_CDATA_SECTION_NODE)
        {
          g_autofree char *path = relative_path (n, ancestor);

          if (path == NULL)
            {
              g_string_free (out, TRUE);
              return NULL;
            }
          if (out->len > 0)
            g_string_append (out, " | ");
          g_string_append (out, path);
        }
      if (n == last)
        break;
    }
  return g_string_free (out, out->len == 0);
}

/* Splits an XPath location path at the slashes that separate its steps
 * (not those inside predicates, parentheses or literals); "//" gives an
 * empty step, as a leading "/" does. */
static GPtrArray *
split_steps (const char *path)
{
  GPtrArray *steps = g_ptr_array_new_with_free_func (g_free);
  const char *start = path;
  int depth = 0;
  char quote = 0;

  for (const char *p = path; ; p++)
    {
      if (*p == '\0' || (*p == '/' && depth == 0 && quote == 0))
        {
          g_ptr_array_add (steps, g_strndup (start, p - start));
          if (*p == '\0')
            break;
          start = p + 1;
          continue;
        }
      if (quote != 0)
        {
          if (*p == quote)
            quote = 0;
        }
      else if (*p == '"' || *p == '\'')
        quote = *p;
      else if (*p == '[' || *p == '(')
        depth++;
      else if ((*p == ']' || *p == ')') && depth > 0)
        depth--;
    }
  return steps;
}

static gboolean
step_is (const char *step,
         const char *name)
{
  gsize length = strlen (name);

  return strncmp (step, name, length) == 0 && (step[length] == '\0' || step[length] == '[');
}

/* Browsers put every table row in a tbody, which libxml2 does not when the
 * markup leaves it out, and the renderer's DOM is the browser's. So that a
 * wrapper learned on either applies to both, the rows of a table are
 * reached with and without it: "T/table[1]/tbody[1]/tr[2]" and
 * "T/table[1]/tr[2]" both become "(T/table[1] | T/table[1]/tbody)/tr[2]".
 * @path is a location path or a union of them, as the wrapper writes
 * them; anything else is returned as it is. */
static char *
tbody_optional (const char *path)
{
  g_auto(GStrv) parts = g_strsplit (path, " | ", -1);
  GString *result = g_string_new (NULL);

  for (guint u = 0; parts[u] != NULL; u++)
    {
      g_autoptr(GPtrArray) steps = split_steps (parts[u]);
      GString *out = g_string_new (g_ptr_array_index (steps, 0));

      for (guint i = 1; i < steps->len; i++)
        {
          const char *step = g_ptr_array_index (steps, i);
          const char *previous = g_ptr_array_index (steps, i - 1);

          if (step_is (step, "tbody") && step_is (previous, "table") && i + 1 < steps->len &&
              step_is (g_ptr_array_index (steps, i + 1), "tr"))
            continue;
          /* A region that is the tbody is the table where there is none. */
          if (step_is (step, "tbody") && step_is (previous, "table") && i + 1 == steps->len)
            {
              g_autofree char *prefix = g_string_free (out, FALSE);

              out = g_string_new (NULL);
              g_string_append_printf (out, "(%s/%s | %s[not(tbody)])", prefix, step, prefix);
              continue;
            }
          if (step_is (step, "tr") &&
              (step_is (previous, "table") ||
               (step_is (previous, "tbody") && i >= 2 && step_is (g_ptr_array_index (steps, i - 2), "table"))))
            {
              g_autofree char *prefix = g_string_free (out, FALSE);

              out = g_string_new (NULL);
              g_string_append_printf (out, "(%s | %s/tbody)", prefix, prefix);
            }
          g_string_append_c (out, '/');
          g_string_append (out, step);
        }
      if (u > 0)
        g_string_append (result, " | ");
      g_string_append (result, out->str);
      g_string_free (out, TRUE);
    }
  return g_string_free (result, FALSE);
}

static xmlNodePtr
root_element (htmlDocPtr doc)
{
  return doc != NULL ? xmlDocGetRootElement (doc) : NULL;
}

/* --- URLs ---------------------------------------------------------------- */

/* The base URL of the page: its <base href> resolved against @url. */
static char *
document_base (htmlDocPtr  doc,
               const char *url)
{
  g_autoptr(GPtrArray) bases = NULL;
  g_autofree char *href = NULL;

  bases = cg_dom_xpath_eval (doc, NULL, "/html/head/base[@href][1] | /html/base[@href][1]", NULL);
  if (bases != NULL && bases->len > 0)
    href = get_attribute (g_ptr_array_index (bases, 0), "href");
  if (href != NULL)
    {
      g_strstrip (href);
      if (url != NULL)
        {
          g_autofree char *resolved = g_uri_resolve_relative (url, href, G_URI_FLAGS_ENCODED, NULL);

          if (resolved != NULL)
            return g_steal_pointer (&resolved);
        }
      else if (g_uri_is_valid (href, G_URI_FLAGS_ENCODED, NULL))
        return g_steal_pointer (&href);
    }
  return g_strdup (url);
}

/* @reference made absolute against @base; as written when it cannot be. */
static char *
resolve_url (const char *base,
             const char *reference)
{
  g_autofree char *trimmed = g_strstrip (g_strdup (reference));
  char *resolved;

  if (trimmed[0] == '\0')
    return NULL;
  if (base == NULL)
    return g_steal_pointer (&trimmed);
  resolved = cg_url_resolve_reference (base, trimmed, NULL);
  return resolved != NULL ? resolved : g_steal_pointer (&trimmed);
}

static xmlNodePtr
find_descendant (xmlNodePtr  node,
                 const char *name,
                 const char *attribute,
                 guint       depth)
{
  if (depth > CG_DOM_PATH_MAX_DEPTH)
    return NULL;
  for (xmlNodePtr child = node->children; child != NULL; child = child->next)
    {
      xmlNodePtr found;

      if (child->type != XML_ELEMENT_NODE)
        continue;
      if (node_is (child, name) && xmlHasProp (child, (const xmlChar *) attribute) != NULL)
        return child;
      found = find_descendant (child, name, attribute, depth + 1);
      if (found != NULL)
        return found;
    }
  return NULL;
}

/* The URL that @node gives for a link or image column: the value of an
 * attribute node itself; else the @attribute of @node when it is a @tag
 * element, or with @enclosing of its nearest enclosing @tag (or area)
 * element that has one; else that of the first @tag inside it. */
static char *
url_value (xmlNodePtr  node,
           const char *base,
           const char *tag,
           const char *attribute,
           gboolean    enclosing)
{
  g_autofree char *url = NULL;

  if (node->type == XML_ATTRIBUTE_NODE)
    {
      xmlChar *value = xmlNodeGetContent (node);

      url = g_strdup ((const char *) value);
      xmlFree (value);
    }
  else
    {
      for (xmlNodePtr n = node; n != NULL && url == NULL; n = enclosing ? n->parent : NULL)
        if (n->type == XML_ELEMENT_NODE && (node_is (n, tag) || (enclosing && node_is (n, "area"))))
          url = get_attribute (n, attribute);
      if (url == NULL && node->type == XML_ELEMENT_NODE)
        {
          xmlNodePtr inside = find_descendant (node, tag, attribute, 0);

          if (inside != NULL)
            url = get_attribute (inside, attribute);
        }
    }
  return url != NULL ? resolve_url (base, url) : NULL;
}

/* A link column's URL: the href of the node, of its nearest enclosing
 * link, or of the first link inside it. */
static char *
link_value (xmlNodePtr  node,
            const char *base)
{
  return url_value (node, base, "a", "href", TRUE);
}

/* An image column's URL: the src of the image, or of the first image
 * inside the node. */
static char *
image_value (xmlNodePtr  node,
             const char *base)
{
  return url_value (node, base, "img", "src", FALSE);
}

/* --- Applying ------------------------------------------------------------ */

/* Removes a leading copy of @label and the separator after it. */
static void
strip_label (GString    *value,
             const char *label)
{
  g_autoptr(GString) plain = NULL;
  gboolean space = FALSE;
  const char *rest;

  if (label == NULL || label[0] == '\0')
    return;
  /* The label is kept in XPath form; compare it collapsed as values are. */
  plain = g_string_new (NULL);
  cg_text_append_collapsed (plain, label, &space, CG_WRAPPER_MAX_VALUE_LENGTH);
  if (plain->len == 0 || !g_str_has_prefix (value->str, plain->str))
    return;
  rest = value->str + plain->len;
  while (*rest == ' ' || *rest == ':' || *rest == '-' || *rest == '|')
    rest++;
  if (g_str_has_prefix (rest, "–") || g_str_has_prefix (rest, "—"))
    {
      rest += strlen ("–");
      while (*rest == ' ')
        rest++;
    }
  g_string_erase (value, 0, rest - value->str);
}

/* The text after @node up to the next line break or block element. */
static char *
following_text (xmlNodePtr node)
{
  FieldText text;

  field_text_init (&text);
  for (xmlNodePtr n = node->next; n != NULL && !text.cut; n = n->next)
    {
      if (node_is (n, "br") || is_block (n))
        break;
      append_node_text (&text, n, 0);
    }
  return g_string_free (field_text_finish (&text), FALSE);
}

static char *
column_value (Column     *column,
              GPtrArray  *nodes,
              const char *base)
{
  g_autoptr(GString) out = NULL;

  if (nodes->len == 0)
    return g_strdup ("");
  switch (column->kind)
    {
    case CG_CLUSTVX_ITEM_LINK:
      {
        char *url = link_value (g_ptr_array_index (nodes, 0), base);

        return url != NULL ? url : g_strdup ("");
      }
    case CG_CLUSTVX_ITEM_IMAGE:
      {
        char *url = image_value (g_ptr_array_index (nodes, 0), base);

        return url != NULL ? url : g_strdup ("");
      }
    case CG_CLUSTVX_ITEM_TEXT:
    case CG_CLUSTVX_ITEM_PRICE:
    case CG_CLUSTVX_ITEM_DATE:
    default:
      break;
    }

  if (column->value == VALUE_FOLLOWING)
    {
      g_autofree char *text = following_text (g_ptr_array_index (nodes, 0));

      out = g_string_new (text);
    }
  else
    {
      FieldText text;

      field_text_init (&text);
      for (guint i = 0; i < nodes->len && !text.cut; i++)
        {
          xmlNodePtr node = g_ptr_array_index (nodes, i);

          /* Nodes that are not adjacent siblings are separate texts. */
          if (i > 0 && ((xmlNodePtr) g_ptr_array_index (nodes, i - 1))->next != node)
            text.space = TRUE;
          append_node_text (&text, node, 0);
        }
      out = field_text_finish (&text);
    }
  strip_label (out, column->label);
  return g_string_free (g_steal_pointer (&out), FALSE);
}

/* Evaluates one column on one record and returns its value. Bad XPaths
 * were refused when the wrapper was made, so evaluation errors (a page
 * that makes an expression run too long) give an empty value. */
static char *
record_column_value (Column      *column,
                     xmlDocPtr    doc,
                     xmlNodePtr   record,
                     const char  *base)
{
  g_autoptr(GPtrArray) nodes = cg_dom_xpath_eval (doc, record, column->xpath, NULL);

  if (nodes == NULL)
    return g_strdup ("");
  return column_value (column, nodes, base);
}

static CgRecord *
make_record (CgWrapper   *self,
             Region      *region,
             xmlDocPtr    doc,
             xmlNodePtr   record_node,
             const char  *region_xpath,
             guint        position,
             const char  *base)
{
  g_autoptr(GPtrArray) values = g_ptr_array_new_with_free_func (g_free);
  gboolean any = FALSE;
  CgRecord *record;

  for (guint c = 0; c < region->columns->len; c++)
    {
      char *value = record_column_value (g_ptr_array_index (region->columns, c), doc, record_node, base);

      if (value[0] != '\0')
        any = TRUE;
      g_ptr_array_add (values, value);
    }
  if (!any)
    return NULL;
  g_ptr_array_add (values, NULL);
  record = cg_record_new (region_xpath, position, (const char * const *) region->names,
                          (const char * const *) values->pdata);
  record->class_name = g_strdup (self->class_name);
  return record;
}

/* A type-B record is a run of siblings: it is copied under one element of
 * a scratch document, so that the column XPaths, relative to the run as
 * if it were one element, are plain XPaths evaluated there. */
static CgRecord *
make_run_record (CgWrapper   *self,
                 Region      *region,
                 xmlNodePtr   first,
                 xmlNodePtr   end,
                 const char  *region_xpath,
                 guint        position,
                 const char  *base)
{
  htmlDocPtr scratch = htmlNewDocNoDtD (NULL, NULL);
  xmlNodePtr holder = xmlNewDocNode (scratch, NULL, (const xmlChar *) "div", NULL);
  CgRecord *record;

  xmlDocSetRootElement (scratch, holder);
  for (xmlNodePtr n = first; n != NULL && n != end; n = n->next)
    xmlAddChild (holder, xmlDocCopyNode (n, scratch, 1));
  record = make_record (self, region, scratch, holder, region_xpath, position, base);
  xmlFreeDoc (scratch);
  return record;
}

GPtrArray *
cg_wrapper_apply (CgWrapper   *self,
                  htmlDocPtr   doc,
                  const char  *url,
                  GError     **error)
{
  g_autoptr(GPtrArray) records = g_ptr_array_new_with_free_func ((GDestroyNotify) cg_record_free);
  g_autofree char *base = NULL;
  guint position = 0;

  g_return_val_if_fail (self != NULL, NULL);
  if (root_element (doc) == NULL)
    {
      g_set_error (error, CG_WRAPPER_ERROR, CG_WRAPPER_ERROR_INVALID_INPUT,
                   _("The page %s has no document to extract records from"), url != NULL ? url : "");
      return NULL;
    }
  base = document_base (doc, url);

  for (guint r = 0; r < self->regions->len && records->len < CG_WRAPPER_MAX_RECORDS; r++)
    {
      Region *region = g_ptr_array_index (self->regions, r);
      g_autoptr(GPtrArray) region_nodes = cg_dom_xpath_eval (doc, NULL, region->xpath, NULL);

      if (region_nodes == NULL)
        continue;
      for (guint i = 0; i < region_nodes->len && records->len < CG_WRAPPER_MAX_RECORDS; i++)
        {
          xmlNodePtr region_node = g_ptr_array_index (region_nodes, i);
          g_autofree char *region_xpath = NULL;
          g_autoptr(GPtrArray) starts = NULL;

          if (region_node->type != XML_ELEMENT_NODE)
            continue;
          region_xpath = cg_dom_node_xpath (region_node);
          starts = cg_dom_xpath_eval (doc, region_node, region->record, NULL);
          if (starts == NULL)
            continue;
          for (guint j = 0; j < starts->len && records->len < CG_WRAPPER_MAX_RECORDS; j++)
            {
              xmlNodePtr start = g_ptr_array_index (starts, j);
              CgRecord *record;

              if (start->type != XML_ELEMENT_NODE)
                continue;
              if (region->type_b)
                {
                  xmlNodePtr end = NULL;

                  /* Only the region's children start runs. */
                  if (start->parent != region_node)
                    continue;
                  for (guint k = j + 1; k < starts->len && end == NULL; k++)
                    if (((xmlNodePtr) g_ptr_array_index (starts, k))->parent == region_node)
                      end = g_ptr_array_index (starts, k);
                  record = make_run_record (self, region, start, end, region_xpath, position, base);
                }
              else
                record = make_record (self, region, doc, start, region_xpath, position, base);
              if (record != NULL)
                {
                  g_ptr_array_add (records, record);
                  position++;
                }
            }
        }
    }
  return g_steal_pointer (&records);
}

/* --- JSON ---------------------------------------------------------------- */

char *
cg_wrapper_to_json (CgWrapper *self)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "kind");
  json_builder_add_string_value (builder, cg_wrapper_kind_to_string (self->kind));
  json_builder_set_member_name (builder, "regions");
  json_builder_begin_array (builder);
  for (guint r = 0; r < self->regions->len; r++)
    {
      Region *region = g_ptr_array_index (self->regions, r);

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "xpath");
      json_builder_add_string_value (builder, region->xpath);
      json_builder_set_member_name (builder, "record");
      json_builder_add_string_value (builder, region->record);
      if (region->type_b)
        {
          json_builder_set_member_name (builder, "type");
          json_builder_add_string_value (builder, "B");
        }
      json_builder_set_member_name (builder, "columns");
      json_builder_begin_array (builder);
      for (guint c = 0; c < region->columns->len; c++)
        {
          Column *column = g_ptr_array_index (region->columns, c);

          json_builder_begin_object (builder);
          json_builder_set_member_name (builder, "name");
          json_builder_add_string_value (builder, column->name);
          json_builder_set_member_name (builder, "xpath");
          json_builder_add_string_value (builder, column->xpath);
          json_builder_set_member_name (builder, "kind");
          json_builder_add_string_value (builder, kind_names[column->kind]);
          if (column->label != NULL)
            {
              json_builder_set_member_name (builder, "label");
              json_builder_add_string_value (builder, column->label);
            }
          if (column->value == VALUE_FOLLOWING)
            {
              json_builder_set_member_name (builder, "value");
              json_builder_add_string_value (builder, "following");
            }
          json_builder_end_object (builder);
        }
      json_builder_end_array (builder);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  json_generator_set_root (generator, root);
  json_generator_set_pretty (generator, TRUE);
  return json_generator_to_data (generator, NULL);
}

/* Every XPath of a definition must compile and give nodes: it is
 * evaluated once on an empty document, which runs no step but checks
 * both. */
static gboolean
check_xpath (htmlDocPtr    empty,
             const char   *expression,
             const char   *what,
             GError      **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autoptr(GPtrArray) nodes = NULL;

  if (expression[0] == '\0' || strlen (expression) > CG_WRAPPER_MAX_XPATH_LENGTH)
    {
      g_set_error (error, CG_WRAPPER_ERROR, CG_WRAPPER_ERROR_INVALID_XPATH,
                   _("The wrapper’s %s has an XPath that is empty or longer than %d bytes"),
                   what, CG_WRAPPER_MAX_XPATH_LENGTH);
      return FALSE;
    }
  nodes = cg_dom_xpath_eval (empty, NULL, expression, &local_error);
  if (nodes == NULL)
    {
      g_set_error (error, CG_WRAPPER_ERROR, CG_WRAPPER_ERROR_INVALID_XPATH,
                   _("The wrapper’s %s has a bad XPath: %s"), what, local_error->message);
      return FALSE;
    }
  return TRUE;
}

static const char *
get_string_member (JsonObject  *object,
                   const char  *name,
                   gboolean     required,
                   const char  *where,
                   GError     **error)
{
  JsonNode *node = json_object_get_member (object, name);

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    {
      if (required)
        g_set_error (error, CG_WRAPPER_ERROR, CG_WRAPPER_ERROR_INVALID_JSON,
                     _("The wrapper’s %s has no “%s”"), where, name);
      return NULL;
    }
  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    {
      g_set_error (error, CG_WRAPPER_ERROR, CG_WRAPPER_ERROR_INVALID_JSON,
                   _("The wrapper’s %s has a “%s” that is not a string"), where, name);
      return NULL;
    }
  return json_node_get_string (node);
}

static Column *
column_from_json (JsonNode    *node,
                  htmlDocPtr   empty,
                  guint        region_index,
                  guint        column_index,
                  GError     **error)
{
  /* Regions are numbered from 0 (the main one), as the class view and
   * `export --region N` number them; columns from 1, as the view does. */
  g_autofree char *where = g_strdup_printf (_("column %u of region %u"), column_index + 1, region_index);
  JsonObject *object;
  const char *name, *xpath, *kind_name, *label, *value_name;
  CgClustvxItemKind kind;
  ValueMode value = VALUE_TEXT;
  GError *local_error = NULL;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error (error, CG_WRAPPER_ERROR, CG_WRAPPER_ERROR_INVALID_JSON,
                   _("The wrapper’s %s is not an object"), where);
      return NULL;
    }
  object = json_node_get_object (node);
  name = get_string_member (object, "name", TRUE, where, error);
  if (name == NULL)
    return NULL;
  if (name[0] == '\0' || strlen (name) > CG_WRAPPER_MAX_XPATH_LENGTH)
    {
      g_set_error (error, CG_WRAPPER_ERROR, CG_WRAPPER_ERROR_INVALID_JSON,
                   _("The wrapper’s %s has an empty or overlong name"), where);
      return NULL;
    }
  xpath = get_string_member (object, "xpath", TRUE, where, error);
  if (xpath == NULL || !check_xpath (empty, xpath, where, error))
    return NULL;
  kind_name = get_string_member (object, "kind", FALSE, where, &local_error);
  if (local_error != NULL)
    {
      g_propagate_error (error, local_error);
      return NULL;
    }
  if (kind_name == NULL)
    kind = CG_CLUSTVX_ITEM_TEXT;
  else if (!kind_from_string (kind_name, &kind))
    {
      g_set_error (error, CG_WRAPPER_ERROR, CG_WRAPPER_ERROR_INVALID_JSON,
                   _("The wrapper’s %s has the kind “%s”, not text, link, image, price or date"),
                   where, kind_name);
      return NULL;
    }
  label = get_string_member (object, "label", FALSE, where, &local_error);
  if (local_error == NULL)
    value_name = get_string_member (object, "value", FALSE, where, &local_error);
  if (local_error != NULL)
    {
      g_propagate_error (error, local_error);
      return NULL;
    }
  if (value_name != NULL && g_str_equal (value_name, "following"))
    value = VALUE_FOLLOWING;
  else if (value_name != NULL && !g_str_equal (value_name, "text"))
    {
      g_set_error (error, CG_WRAPPER_ERROR, CG_WRAPPER_ERROR_INVALID_JSON,
                   _("The wrapper’s %s has the value “%s”, not text or following"), where, value_name);
      return NULL;
    }
  return column_new (name, xpath, kind, label, value);
}

static Region *
region_from_json (JsonNode    *node,
                  htmlDocPtr   empty,
                  guint        region_index,
                  GError     **error)
{
  /* From 0, the main region, as everywhere regions are named. */
  g_autofree char *where = g_strdup_printf (_("region %u"), region_index);
  g_autoptr(GHashTable) names = g_hash_table_new (g_str_hash, g_str_equal);
  Region *region;
  JsonObject *object;
  JsonNode *columns;
  const char *xpath, *record, *type;
  GError *local_error = NULL;
  guint n_columns;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error (error, CG_WRAPPER_ERROR, CG_WRAPPER_ERROR_INVALID_JSON,
                   _("The wrapper’s %s is not an object"), where);
      return NULL;
    }
  object = json_node_get_object (node);
  xpath = get_string_member (object, "xpath", TRUE, where, error);
  if (xpath == NULL || !check_xpath (empty, xpath, where, error))
    return NULL;
  record = get_string_member (object, "record", TRUE, where, error);
  if (record == NULL || !check_xpath (empty, record, where, error))
    return NULL;
  type = get_string_member (object, "type", FALSE, where, &local_error);
  if (local_error != NULL)
    {
      g_propagate_error (error, local_error);
      return NULL;
    }
  if (type != NULL && !g_str_equal (type, "A") && !g_str_equal (type, "B"))
    {
      g_set_error (error, CG_WRAPPER_ERROR, CG_WRAPPER_ERROR_INVALID_JSON,
                   _("The wrapper’s %s has the type “%s”, not A or B"), where, type);
      return NULL;
    }
  columns = json_object_get_member (object, "columns");
  if (columns == NULL || !JSON_NODE_HOLDS_ARRAY (columns))
    {
      g_set_error (error, CG_WRAPPER_ERROR, CG_WRAPPER_ERROR_INVALID_JSON,
                   _("The wrapper’s %s has no array of columns"), where);
      return NULL;
    }
  n_columns = json_array_get_length (json_node_get_array (columns));
  if (n_columns == 0 || n_columns > CG_WRAPPER_MAX_COLUMNS)
    {
      g_set_error (error, CG_WRAPPER_ERROR, CG_WRAPPER_ERROR_INVALID_JSON,
                   _("The wrapper’s %s has %u columns; it needs 1 to %d"),
                   where, n_columns, CG_WRAPPER_MAX_COLUMNS);
      return NULL;
    }

  region = region_new (xpath, record, type != NULL && g_str_equal (type, "B"));
  for (guint i = 0; i < n_columns; i++)
    {
      Column *column = column_from_json (json_array_get_element (json_node_get_array (columns), i),
                                         empty, region_index, i, error);

      if (column == NULL)
        {
          region_free (region);
          return NULL;
        }
      g_ptr_array_add (region->columns, column);
      if (!g_hash_table_add (names, column->name))
        {
          g_set_error (error, CG_WRAPPER_ERROR, CG_WRAPPER_ERROR_INVALID_JSON,
                       _("The wrapper’s %s has two columns named “%s”"), where, column->name);
          region_free (region);
          return NULL;
        }
    }
  region_update_names (region);
  return region;
}

CgWrapper *
cg_wrapper_new_from_json (const char  *json,
                          GError     **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autoptr(CgWrapper) self = NULL;
  g_autoptr(JsonNode) root = NULL;
  htmlDocPtr empty;
  JsonObject *object;
  JsonNode *regions;
  const char *kind_name;
  CgWrapperKind kind;
  guint n_regions;

  g_return_val_if_fail (json != NULL, NULL);

  if (strlen (json) > CG_WRAPPER_MAX_JSON_SIZE)
    {
      g_set_error (error, CG_WRAPPER_ERROR, CG_WRAPPER_ERROR_INVALID_JSON,
                   _("The wrapper definition is larger than %d bytes"), CG_WRAPPER_MAX_JSON_SIZE);
      return NULL;
    }
  root = cg_json_parse (json, -1, &local_error);
  if (root == NULL)
    {
      g_set_error (error, CG_WRAPPER_ERROR, CG_WRAPPER_ERROR_INVALID_JSON,
                   _("The wrapper definition is not JSON: %s"), local_error->message);
      return NULL;
    }
  if (!JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, CG_WRAPPER_ERROR, CG_WRAPPER_ERROR_INVALID_JSON,
                   _("The wrapper definition is not a JSON object"));
      return NULL;
    }
  object = json_node_get_object (root);
  kind_name = get_string_member (object, "kind", TRUE, _("definition"), error);
  if (kind_name == NULL)
    return NULL;
  if (!cg_wrapper_kind_from_string (kind_name, &kind))
    {
      g_set_error (error, CG_WRAPPER_ERROR, CG_WRAPPER_ERROR_INVALID_JSON,
                   _("The wrapper definition has the kind “%s”, not list or detail"), kind_name);
      return NULL;
    }
  regions = json_object_get_member (object, "regions");
  if (regions == NULL || !JSON_NODE_HOLDS_ARRAY (regions))
    {
      g_set_error (error, CG_WRAPPER_ERROR, CG_WRAPPER_ERROR_INVALID_JSON,
                   _("The wrapper definition has no array of regions"));
      return NULL;
    }
  n_regions = json_array_get_length (json_node_get_array (regions));
  if (n_regions == 0 || n_regions > CG_WRAPPER_MAX_REGIONS)
    {
      g_set_error (error, CG_WRAPPER_ERROR, CG_WRAPPER_ERROR_INVALID_JSON,
                   _("The wrapper definition has %u regions; it needs 1 to %d"),
                   n_regions, CG_WRAPPER_MAX_REGIONS);
      return NULL;
    }

  self = wrapper_new (kind);
  empty = htmlNewDocNoDtD (NULL, NULL);
  for (guint i = 0; i < n_regions; i++)
    {
      Region *region = region_from_json (json_array_get_element (json_node_get_array (regions), i),
                                         empty, i, error);

      if (region == NULL)
        {
          xmlFreeDoc (empty);
          return NULL;
        }
      g_ptr_array_add (self->regions, region);
    }
  xmlFreeDoc (empty);
  return g_steal_pointer (&self);
}

/* --- Learning: the pages ------------------------------------------------- */

typedef enum {
  LABEL_NONE,
  LABEL_INLINE_ELEMENT,   /* <li><b>ISBN</b>: 978…</li>: the unit starts with its label */
  LABEL_INLINE_RUN,       /* <b>Pages:</b> 96<br>: a run of text that starts with its label */
  LABEL_SIBLING_ELEMENT,  /* <dt>Publisher</dt><dd>Acme</dd> */
  LABEL_SIBLING_TEXT,     /* by <a>Jane Doe</a> */
} LabelKind;

/* A content unit of a page, for detail fields: an element that shows text
 * of its own (inline formatting merged into it, as ClustVX does), a run of
 * hanging text between elements or line breaks, or an image. */
typedef struct {
  guint              page;
  xmlNodePtr         first;
  xmlNodePtr         last;
  gboolean           is_element;
  char              *text;
  char              *value;   /* text without its label, what the column gives */
  CgClustvxItemKind  kind;
  LabelKind          label_kind;
  char              *label;   /* XPath normalize-space() form */
  xmlNodePtr         label_node;
  xmlNodePtr         label_target;  /* the element the label names: the unit or an ancestor
                                     * it fills alone (<dd><a>…</a></dd>) */
  char              *label_key;
  char              *class_key;
  char              *path_key;
  guint              index;   /* in its page's units */
  gboolean           claimed;
} Unit;

static void
unit_free (Unit *unit)
{
  g_free (unit->text);
  g_free (unit->value);
  g_free (unit->label);
  g_free (unit->label_key);
  g_free (unit->class_key);
  g_free (unit->path_key);
  g_free (unit);
}

typedef struct {
  htmlDocPtr        doc;
  const char       *url;
  xmlNodePtr        root;
  gboolean          rendered;
  CgClustvxResult  *result;
  GPtrArray        *units;        /* Unit */
  GHashTable       *occurrences;  /* key → count, while keys are made */
} Page;

static void
page_clear (Page *page)
{
  g_clear_pointer (&page->result, cg_clustvx_result_free);
  g_clear_pointer (&page->units, g_ptr_array_unref);
  g_clear_pointer (&page->occurrences, g_hash_table_unref);
}

static gboolean
has_structural_descendant (xmlNodePtr node,
                           guint      depth)
{
  if (depth > CG_DOM_PATH_MAX_DEPTH)
    return FALSE;
  for (xmlNodePtr child = node->children; child != NULL; child = child->next)
    {
      if (child->type != XML_ELEMENT_NODE || node_is (child, "br") || is_skipped (child))
        continue;
      if (!is_formatting (child) || has_structural_descendant (child, depth + 1))
        return TRUE;
    }
  return FALSE;
}

static gboolean
is_inline_part (xmlNodePtr node)
{
  return node->type == XML_TEXT_NODE || node->type == XML_CDATA_SECTION_NODE ||
         (is_formatting (node) && !has_structural_descendant (node, 0));
}

static gboolean
is_blank (xmlNodePtr node)
{
  if (node->type == XML_COMMENT_NODE)
    return TRUE;
  if (node->type != XML_TEXT_NODE && node->type != XML_CDATA_SECTION_NODE)
    return FALSE;
  for (const xmlChar *p = node->content; p != NULL && *p != '\0'; p++)
    if (!g_ascii_isspace (*p))
      return FALSE;
  return TRUE;
}

static char *
string_value (xmlNodePtr node)
{
  xmlChar *content = xmlNodeGetContent (node);
  char *normal = xml_normalize_space (content != NULL ? (const char *) content : "");

  xmlFree (content);
  return normal;
}

static gboolean
is_label_text (const char *text)
{
  guint words = 1;

  if (text[0] == '\0' || strlen (text) > MAX_LABEL_LENGTH)
    return FALSE;
  for (const char *p = text; *p != '\0'; p++)
    if (*p == ' ')
      words++;
  return words <= MAX_LABEL_WORDS;
}

static xmlNodePtr
previous_significant (xmlNodePtr node)
{
  xmlNodePtr n = node->prev;

  while (n != NULL && is_blank (n))
    n = n->prev;
  return n;
}

static CgClustvxItemKind
unit_kind (xmlNodePtr  element,
           const char *text)
{
  CgClustvxItemKind kind = cg_clustvx_text_kind (text);

  if (kind != CG_CLUSTVX_ITEM_TEXT)
    return kind;
  for (xmlNodePtr n = element; n != NULL; n = n->parent)
    if (node_is (n, "a") && xmlHasProp (n, (const xmlChar *) "href") != NULL)
      return CG_CLUSTVX_ITEM_LINK;
  return CG_CLUSTVX_ITEM_TEXT;
}

/* Whether @node's content is @child alone (blank text aside). */
static gboolean
is_only_child (xmlNodePtr node,
               xmlNodePtr child)
{
  for (xmlNodePtr n = node->children; n != NULL; n = n->next)
    if (n != child && !is_blank (n))
      return FALSE;
  return TRUE;
}

/* Finds the label of a unit (see LabelKind): the template's text that
 * names it, when there is one. A unit that fills its parent alone
 * (<dd><a>Fiction</a></dd>) takes the parent's label. */
static void
unit_find_label (Unit *unit)
{
  xmlNodePtr first = unit->first;

  if (unit->kind == CG_CLUSTVX_ITEM_IMAGE)
    return;
  if (unit->is_element)
    {
      xmlNodePtr child = first->children;
      xmlNodePtr target = first;
      xmlNodePtr previous;

      while (child != NULL && is_blank (child))
        child = child->next;
      if (child != NULL && is_formatting (child))
        {
          g_autofree char *label = string_value (child);
          g_autofree char *all = string_value (first);

          if (is_label_text (label) && strlen (all) > strlen (label))
            {
              unit->label_kind = LABEL_INLINE_ELEMENT;
              unit->label = g_steal_pointer (&label);
              unit->label_node = child;
              unit->label_target = first;
              return;
            }
        }
      for (guint up = 0; up < 3 && target->parent != NULL && target->parent->type == XML_ELEMENT_NODE &&
                         !node_is (target->parent, "body") && is_only_child (target->parent, target) &&
                         previous_significant (target) == NULL; up++)
        target = target->parent;
      previous = previous_significant (target);
      if (previous != NULL && previous->type == XML_ELEMENT_NODE && !node_is (previous, "br"))
        {
          static const char * const label_tags[] = { "dt", "th", "label", "b", "strong", NULL };
          g_autofree char *label = string_value (previous);

          if (is_label_text (label) &&
              (name_in (previous, label_tags) || g_str_has_suffix (label, ":") ||
               (node_is (previous, "td") && node_is (target, "td"))))
            {
              unit->label_kind = LABEL_SIBLING_ELEMENT;
              unit->label = g_steal_pointer (&label);
              unit->label_node = previous;
              unit->label_target = target;
              return;
            }
        }
      else if (previous != NULL && (previous->type == XML_TEXT_NODE || previous->type == XML_CDATA_SECTION_NODE))
        {
          g_autofree char *label = string_value (previous);
          guint words = 1;

          for (const char *p = label; *p != '\0'; p++)
            words += *p == ' ';
          if (is_label_text (label) && strlen (label) <= 30 &&
              (g_str_has_suffix (label, ":") || words <= 2))
            {
              unit->label_kind = LABEL_SIBLING_TEXT;
              unit->label = g_steal_pointer (&label);
              unit->label_node = previous;
              unit->label_target = target;
            }
        }
      return;
    }
  if (first->type == XML_ELEMENT_NODE && is_formatting (first) && first != unit->last)
    {
      g_autofree char *label = string_value (first);

      if (is_label_text (label))
        {
          unit->label_kind = LABEL_INLINE_RUN;
          unit->label = g_steal_pointer (&label);
          unit->label_node = first;
          unit->label_target = first;
        }
    }
}

static void
add_unit (Page       *page,
          guint       index,
          xmlNodePtr  first,
          xmlNodePtr  last)
{
  Unit *unit;
  g_autofree char *text = NULL;

  /* Blank text around a run is not part of it. */
  while (first != last && is_blank (first))
    first = first->next;
  while (last != first && is_blank (last))
    last = last->prev;
  if (is_blank (first) || page->units->len >= MAX_UNITS_PER_PAGE)
    return;

  if (node_is (first, "img"))
    {
      g_autofree char *src = get_attribute (first, "src");
      g_autofree char *alt = get_attribute (first, "alt");

      if (src == NULL)
        return;
      text = g_strdup (alt != NULL ? alt : "");
    }
  else
    {
      text = run_text (first, last);
      if (text[0] == '\0')
        return;
    }

  unit = g_new0 (Unit, 1);
  unit->page = index;
  unit->index = page->units->len;
  unit->first = first;
  unit->last = last;
  unit->is_element = first == last && first->type == XML_ELEMENT_NODE;
  if (node_is (first, "img"))
    {
      unit->kind = CG_CLUSTVX_ITEM_IMAGE;
      unit->value = image_value (first, page->url);
      if (unit->value == NULL)
        unit->value = g_strdup ("");
    }
  else
    unit->kind = unit_kind (unit->is_element ? first : first->parent, text);
  unit->text = g_steal_pointer (&text);
  unit_find_label (unit);
  if (unit->value == NULL)
    {
      if (unit->label_kind == LABEL_INLINE_RUN)
        unit->value = following_text (unit->label_node);
      else
        {
          GString *value = g_string_new (unit->text);

          if (unit->label_kind == LABEL_INLINE_ELEMENT)
            strip_label (value, unit->label);
          unit->value = g_string_free (value, FALSE);
        }
      if (unit->kind != CG_CLUSTVX_ITEM_LINK && unit->label_kind != LABEL_NONE)
        unit->kind = cg_clustvx_text_kind (unit->value);
    }
  g_ptr_array_add (page->units, unit);
}

/* Collects the content units below @element, as ClustVX's pre-processing
 * sees them: inline formatting is merged into the text around it, and
 * text that shares its parent with other elements forms units of its own,
 * split at line breaks. */
static void
collect_units (Page       *page,
               guint       index,
               xmlNodePtr  element,
               guint       depth)
{
  xmlNodePtr run_first = NULL, run_last = NULL;
  gboolean structural = FALSE, has_break = FALSE;

  if (depth > CG_DOM_PATH_MAX_DEPTH || page->units->len >= MAX_UNITS_PER_PAGE)
    return;
  if (is_skipped (element) || is_hidden (element, page->rendered))
    return;
  if (node_is (element, "img"))
    {
      add_unit (page, index, element, element);
      return;
    }
  for (xmlNodePtr child = element->children; child != NULL; child = child->next)
    {
      if (node_is (child, "br"))
        has_break = TRUE;
      else if (child->type == XML_ELEMENT_NODE && !is_skipped (child) && !is_inline_part (child))
        structural = TRUE;
    }
  if (!structural && !has_break)
    {
      if (element->children != NULL)
        add_unit (page, index, element, element);
      return;
    }
  for (xmlNodePtr child = element->children; child != NULL; child = child->next)
    {
      if (child->type == XML_COMMENT_NODE || is_skipped (child))
        continue;
      if (is_inline_part (child) && !is_hidden (child, page->rendered))
        {
          if (run_first == NULL)
            run_first = child;
          run_last = child;
          continue;
        }
      if (run_first != NULL)
        add_unit (page, index, run_first, run_last);
      run_first = NULL;
      if (child->type == XML_ELEMENT_NODE && !node_is (child, "br"))
        collect_units (page, index, child, depth + 1);
    }
  if (run_first != NULL)
    add_unit (page, index, run_first, run_last);
}

static char *
with_occurrence (Page       *page,
                 const char *key)
{
  guint n = GPOINTER_TO_UINT (g_hash_table_lookup (page->occurrences, key)) + 1;

  g_hash_table_replace (page->occurrences, g_strdup (key), GUINT_TO_POINTER (n));
  return g_strdup_printf ("%s#%u", key, n);
}

static gboolean
is_anchor_id (const char *id)
{
  guint digits = 0;

  if (id == NULL || !g_ascii_isalpha (id[0]) || strlen (id) > MAX_ANCHOR_ID_LENGTH)
    return FALSE;
  for (const char *p = id; *p != '\0'; p++)
    {
      if (!g_ascii_isalnum (*p) && *p != '-' && *p != '_' && *p != ':' && *p != '.')
        return FALSE;
      /* Runs of digits are usually record numbers or generated ids. */
      digits = g_ascii_isdigit (*p) ? digits + 1 : 0;
      if (digits >= 3)
        return FALSE;
    }
  return TRUE;
}

/* The class paths of a page's elements: from an element's nearest
 * ancestor (or itself) with a usable id, or from the root, the steps below
 * with their tag names and class attributes, as an XPath relative to the
 * root element (".//div[@id='main']/div[@class='facts']/span[not(@class)]"),
 * and the element's occurrence among the elements with the same path, in
 * document order, so that "(PATH)[N]" selects exactly it. Elements whose
 * path has neither id nor class get none: it would only repeat the
 * positional path less precisely. */
static void
class_paths_walk (GHashTable *paths,
                  GHashTable *counts,
                  xmlNodePtr  element,
                  const char *parent_path,
                  gboolean    parent_useful,
                  guint       depth)
{
  for (xmlNodePtr child = element->children; child != NULL; child = child->next)
    {
      g_autofree char *id = NULL;
      g_autofree char *klass = NULL;
      g_autofree char *path = NULL;
      gboolean useful = parent_useful;

      if (child->type != XML_ELEMENT_NODE)
        continue;
      if (depth > CG_DOM_PATH_MAX_DEPTH || parent_path == NULL || !is_simple_name ((const char *) child->name))
        {
          class_paths_walk (paths, counts, child, NULL, FALSE, depth + 1);
          continue;
        }
      id = get_attribute (child, "id");
      klass = get_attribute (child, "class");
      if (is_anchor_id (id))
        {
          g_autofree char *literal = cg_dom_xpath_literal (id);

          path = g_strdup_printf (".//%s[@id=%s]", (const char *) child->name, literal);
          useful = TRUE;
        }
      else if (klass != NULL && strlen (klass) <= 200)
        {
          g_autofree char *literal = cg_dom_xpath_literal (klass);

          path = g_strdup_printf ("%s/%s[@class=%s]", parent_path, (const char *) child->name, literal);
          useful = TRUE;
        }
      else if (klass == NULL)
        path = g_strdup_printf ("%s/%s[not(@class)]", parent_path, (const char *) child->name);

      if (path != NULL && useful)
        {
          guint n = GPOINTER_TO_UINT (g_hash_table_lookup (counts, path)) + 1;

          g_hash_table_replace (counts, g_strdup (path), GUINT_TO_POINTER (n));
          g_hash_table_insert (paths, child, g_strdup_printf ("%s#%u", path, n));
        }
      class_paths_walk (paths, counts, child, path, useful, depth + 1);
    }
}

/* The XPath, relative to the root element, that selects a label's unit
 * (or, for LABEL_INLINE_RUN, the label itself), without the occurrence
 * predicate. */
static char *
label_path (Unit *unit)
{
  g_autofree char *literal = cg_dom_xpath_literal (unit->label);
  const char *label_tag = unit->label_node->type == XML_ELEMENT_NODE ? (const char *) unit->label_node->name : NULL;
  const char *tag = (const char *) unit->label_target->name;

  if (unit->label_node->type == XML_ELEMENT_NODE && !is_simple_name (label_tag))
    return NULL;
  if (unit->is_element && !is_simple_name (tag))
    return NULL;
  switch (unit->label_kind)
    {
    case LABEL_INLINE_ELEMENT:
      return g_strdup_printf (".//%s[*[1][self::%s and normalize-space(.)=%s]]", tag, label_tag, literal);
    case LABEL_INLINE_RUN:
      return g_strdup_printf (".//%s[normalize-space(.)=%s]", label_tag, literal);
    case LABEL_SIBLING_ELEMENT:
      return g_strdup_printf (".//%s[preceding-sibling::*[1][self::%s and normalize-space(.)=%s]]",
                              tag, label_tag, literal);
    case LABEL_SIBLING_TEXT:
      return g_strdup_printf (".//%s[preceding-sibling::node()[1][self::text() and normalize-space(.)=%s]]",
                              tag, literal);
    case LABEL_NONE:
    default:
      return NULL;
    }
}

/* Gives every unit of a page its three alignment keys: by label, by class
 * path, by position. Each is unique in the page (an occurrence number
 * tells repeats apart), so that a key names at most one unit per page. */
static void
page_make_keys (Page *page)
{
  g_autoptr(GHashTable) class_paths = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  g_autoptr(GHashTable) counts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  class_paths_walk (class_paths, counts, page->root, ".", FALSE, 0);
  page->occurrences = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  for (guint i = 0; i < page->units->len; i++)
    {
      Unit *unit = g_ptr_array_index (page->units, i);
      g_autofree char *label = unit->label_kind != LABEL_NONE ? label_path (unit) : NULL;
      const char *klass = unit->is_element ? g_hash_table_lookup (class_paths, unit->first) : NULL;

      if (label != NULL)
        unit->label_key = with_occurrence (page, label);
      if (klass != NULL)
        unit->class_key = g_strdup (klass);
      unit->path_key = unit->is_element ? relative_path (unit->first, page->root)
                                        : relative_run_path (unit->first, unit->last, page->root);
    }
}

/* The XPath a key stands for: "(PATH)[N]" for the label and class keys
 * ("PATH#N"), the positional path itself otherwise. */
static char *
key_xpath (const char *key)
{
  const char *hash = strrchr (key, '#');

  g_autofree char *path = NULL;
  g_autofree char *optional = NULL;

  if (hash == NULL)
    return g_strdup (key);
  path = g_strndup (key, hash - key);
  optional = tbody_optional (path);
  return g_strdup_printf ("(%s)[%s]", optional, hash + 1);
}

/* --- Learning: recurring regions ----------------------------------------- */

typedef enum {
  GROUP_DATA,         /* records: a list */
  GROUP_BOILERPLATE,  /* the same on every page: a menu, a footer */
  GROUP_LABELS,       /* label and value pairs: fields of the page, not a list */
  GROUP_SECTIONS,     /* records that do not share a template: parts of the page */
} GroupRole;

typedef struct {
  guint            page;
  CgClustvxRegion *region;
} Member;

typedef struct {
  GArray     *members;      /* Member, at most one per page */
  char       *tag_path;
  char       *record_xpath;
  gboolean    type_b;
  GHashTable *keys;         /* column keys, borrowed from the regions */
  GHashTable *label_keys;   /* columns that hold the template's labels */
  GHashTable *static_keys;  /* columns with one value everywhere */
  GroupRole   role;
  guint       varying_items;
  double      score;
} Group;

static void
group_free (Group *group)
{
  g_array_unref (group->members);
  g_free (group->tag_path);
  g_free (group->record_xpath);
  g_hash_table_unref (group->keys);
  g_hash_table_unref (group->label_keys);
  g_hash_table_unref (group->static_keys);
  g_free (group);
}

static const char *
item_key (CgClustvxRegion *region,
          CgClustvxItem   *item)
{
  if (item->column >= region->columns->len)
    return "";
  return ((CgClustvxColumn *) g_ptr_array_index (region->columns, item->column))->key;
}

static double
key_overlap (GHashTable      *keys,
             CgClustvxRegion *region)
{
  guint common = 0, total = g_hash_table_size (keys);

  for (guint i = 0; i < region->columns->len; i++)
    {
      CgClustvxColumn *column = g_ptr_array_index (region->columns, i);

      if (g_hash_table_contains (keys, column->key))
        common++;
      else
        total++;
    }
  return total > 0 ? (double) common / total : 0;
}

static gboolean
group_accepts (Group           *group,
               guint            page,
               CgClustvxRegion *region,
               const char      *tag_path)
{
  gboolean same_xpath = FALSE;

  for (guint i = 0; i < group->members->len; i++)
    {
      Member *member = &g_array_index (group->members, Member, i);

      if (member->page == page)
        return FALSE;
      if (g_strcmp0 (member->region->xpath, region->xpath) == 0)
        same_xpath = TRUE;
    }
  if (same_xpath)
    return TRUE;
  return g_strcmp0 (group->tag_path, tag_path) == 0 &&
         g_strcmp0 (group->record_xpath, region->record_xpath) == 0 &&
         group->type_b == (region->type == CG_CLUSTVX_RECORDS_TYPE_B) &&
         key_overlap (group->keys, region) >= MIN_REGION_KEY_OVERLAP;
}

/* The records of a region as one string, to compare regions of pages. */
static char *
region_signature (CgClustvxRegion *region)
{
  GString *out = g_string_new (NULL);

  for (guint r = 0; r < region->records->len; r++)
    {
      CgClustvxRecord *record = g_ptr_array_index (region->records, r);

      for (guint i = 0; i < record->items->len; i++)
        {
          CgClustvxItem *item = g_ptr_array_index (record->items, i);

          g_string_append (out, item->text != NULL ? item->text : "");
          g_string_append_c (out, '\x1f');
        }
      g_string_append_c (out, '\x1e');
    }
  return g_string_free (out, FALSE);
}

static GPtrArray *
group_regions (Page  *pages,
               guint  n_pages)
{
  GPtrArray *groups = g_ptr_array_new_with_free_func ((GDestroyNotify) group_free);

  for (guint p = 0; p < n_pages; p++)
    {
      GPtrArray *regions = pages[p].result->regions;

      for (guint i = 0; i < regions->len; i++)
        {
          CgClustvxRegion *region = g_ptr_array_index (regions, i);
          g_autofree char *tag_path = cg_dom_node_tag_path (region->node);
          Member member = { p, region };
          Group *group = NULL;

          for (guint g = 0; g < groups->len && group == NULL; g++)
            if (group_accepts (g_ptr_array_index (groups, g), p, region, tag_path))
              group = g_ptr_array_index (groups, g);
          if (group == NULL)
            {
              group = g_new0 (Group, 1);
              group->members = g_array_new (FALSE, FALSE, sizeof (Member));
              group->tag_path = g_strdup (tag_path);
              group->record_xpath = g_strdup (region->record_xpath);
              group->type_b = region->type == CG_CLUSTVX_RECORDS_TYPE_B;
              group->keys = g_hash_table_new (g_str_hash, g_str_equal);
              group->label_keys = g_hash_table_new (g_str_hash, g_str_equal);
              group->static_keys = g_hash_table_new (g_str_hash, g_str_equal);
              g_ptr_array_add (groups, group);
            }
          g_array_append_val (group->members, member);
          group->score += region->score;
          for (guint c = 0; c < region->columns->len; c++)
            g_hash_table_add (group->keys, ((CgClustvxColumn *) g_ptr_array_index (region->columns, c))->key);
        }
    }
  return groups;
}

/* The values of one column of a group, per member. */
static GPtrArray *
column_values (Group      *group,
               const char *key,
               guint       member_index,
               guint      *out_records)
{
  Member *member = &g_array_index (group->members, Member, member_index);
  GPtrArray *values = g_ptr_array_new ();

  *out_records = member->region->records->len;
  for (guint r = 0; r < member->region->records->len; r++)
    {
      CgClustvxRecord *record = g_ptr_array_index (member->region->records, r);

      for (guint i = 0; i < record->items->len; i++)
        {
          CgClustvxItem *item = g_ptr_array_index (record->items, i);

          if (g_str_equal (item_key (member->region, item), key))
            g_ptr_array_add (values, item->text != NULL ? item->text : "");
        }
    }
  return values;
}

static GHashTable *
string_set (GPtrArray *values)
{
  GHashTable *set = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint i = 0; i < values->len; i++)
    g_hash_table_add (set, g_ptr_array_index (values, i));
  return set;
}

/* The label a text starts with ("Pages: 96" → "Pages"), or NULL. */
static char *
text_label (const char *text)
{
  const char *colon = strchr (text, ':');
  g_autofree char *label = NULL;

  if (colon == NULL || colon == text || colon[1] == '\0')
    return NULL;
  label = g_strndup (text, colon - text);
  g_strstrip (label);
  return is_label_text (label) ? g_steal_pointer (&label) : NULL;
}

/* The labels the values start with, when most of them start with one. */
static GPtrArray *
values_labels (GPtrArray *values)
{
  GPtrArray *labels = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < values->len; i++)
    {
      char *label = text_label (g_ptr_array_index (values, i));

      if (label != NULL)
        g_ptr_array_add (labels, label);
    }
  if (labels->len < 0.8 * values->len)
    g_ptr_array_set_size (labels, 0);
  return labels;
}

/* Whether a column holds the template's labels: values (or the labels
 * they start with) that are distinct within each page and the same set
 * from page to page. */
static gboolean
is_label_column (GPtrArray *per_page)
{
  g_autoptr(GPtrArray) sets = g_ptr_array_new_with_free_func ((GDestroyNotify) g_hash_table_unref);
  g_autoptr(GHashTable) all = g_hash_table_new (g_str_hash, g_str_equal);
  guint pages_with_two = 0, pairs = 0;
  double overlap = 0;

  for (guint m = 0; m < per_page->len; m++)
    {
      GPtrArray *values = g_ptr_array_index (per_page, m);
      GHashTable *set;

      if (values->len == 0)
        continue;
      set = string_set (values);
      if (values->len >= 2)
        {
          pages_with_two++;
          if (g_hash_table_size (set) < 0.8 * values->len)
            {
              g_hash_table_unref (set);
              return FALSE;
            }
        }
      for (guint i = 0; i < values->len; i++)
        g_hash_table_add (all, g_ptr_array_index (values, i));
      g_ptr_array_add (sets, set);
    }
  for (guint i = 0; i < sets->len; i++)
    for (guint j = i + 1; j < sets->len; j++)
      {
        overlap += cg_clustvx_jaccard (g_ptr_array_index (sets, i), g_ptr_array_index (sets, j));
        pairs++;
      }
  return pages_with_two >= 2 && pairs > 0 && overlap / pairs >= MIN_LABEL_SET_OVERLAP &&
         g_hash_table_size (all) >= 2;
}

/* Sorts out the columns of a group: labels (values distinct within a page
 * and the same set on every page: "Publisher", "Pages"), static texts (one
 * value in every record of every page: "Add to basket"), and data. */
static void
group_analyse_columns (Group *group)
{
  GHashTableIter iter;
  gpointer key;
  guint n = group->members->len;

  g_hash_table_iter_init (&iter, group->keys);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    {
      g_autoptr(GPtrArray) per_page = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
      g_autoptr(GPtrArray) labels_per_page = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
      g_autoptr(GHashTable) all = g_hash_table_new (g_str_hash, g_str_equal);
      guint total_values = 0, total_records = 0;

      for (guint m = 0; m < n; m++)
        {
          guint records;
          GPtrArray *values = column_values (group, key, m, &records);

          total_values += values->len;
          total_records += records;
          for (guint i = 0; i < values->len; i++)
            g_hash_table_add (all, g_ptr_array_index (values, i));
          g_ptr_array_add (per_page, values);
          g_ptr_array_add (labels_per_page, values_labels (values));
        }
      /* Label and value pairs: "Publisher" beside its value, or
       * "Publisher: Acme" as one text. */
      if (g_hash_table_size (all) == 1 && total_values == total_records && total_values >= 3)
        g_hash_table_add (group->static_keys, key);
      else if (is_label_column (per_page) || is_label_column (labels_per_page))
        g_hash_table_add (group->label_keys, key);
    }

  group->varying_items = 0;
  for (guint m = 0; m < n; m++)
    {
      Member *member = &g_array_index (group->members, Member, m);

      for (guint r = 0; r < member->region->records->len; r++)
        {
          CgClustvxRecord *record = g_ptr_array_index (member->region->records, r);

          for (guint i = 0; i < record->items->len; i++)
            {
              const char *k = item_key (member->region, g_ptr_array_index (record->items, i));

              if (!g_hash_table_contains (group->label_keys, k) && !g_hash_table_contains (group->static_keys, k))
                group->varying_items++;
            }
        }
    }
}

static gboolean
matches_site_region (CgClustvxRegion *region,
                     const char      *signature,
                     GPtrArray       *site_results)
{
  for (guint s = 0; site_results != NULL && s < site_results->len; s++)
    {
      CgClustvxResult *result = g_ptr_array_index (site_results, s);

      for (guint i = 0; i < result->regions->len; i++)
        {
          CgClustvxRegion *other = g_ptr_array_index (result->regions, i);
          g_autofree char *other_signature = NULL;

          if (g_strcmp0 (other->record_xpath, region->record_xpath) != 0 ||
              other->records->len != region->records->len)
            continue;
          other_signature = region_signature (other);
          if (g_str_equal (signature, other_signature))
            return TRUE;
        }
    }
  return FALSE;
}

/* How regular a region's records are: the share of its items that belong
 * to columns, weighted by the share of the records that have the column.
 * The records of a list come from one template and have most columns;
 * ClustVX also finds regions whose "records" are the page's sections, each
 * with columns of its own, which are not lists. */
static double
region_fill (CgClustvxRegion *region)
{
  double sum = 0;
  guint n_items = 0;

  if (region->records->len == 0)
    return 0;
  for (guint r = 0; r < region->records->len; r++)
    {
      CgClustvxRecord *record = g_ptr_array_index (region->records, r);

      for (guint i = 0; i < record->items->len; i++)
        {
          CgClustvxItem *item = g_ptr_array_index (record->items, i);

          if (item->column < region->columns->len)
            sum += (double) ((CgClustvxColumn *) g_ptr_array_index (region->columns, item->column))->n_items /
                   region->records->len;
          n_items++;
        }
    }
  return n_items > 0 ? sum / n_items : 0;
}

static void
group_classify (Group     *group,
                GPtrArray *site_results)
{
  g_autofree char *first = region_signature (g_array_index (group->members, Member, 0).region);
  gboolean all_same = group->members->len >= 2;

  group_analyse_columns (group);
  for (guint m = 1; m < group->members->len && all_same; m++)
    {
      g_autofree char *other = region_signature (g_array_index (group->members, Member, m).region);

      all_same = g_str_equal (first, other);
    }
  if (all_same || group->varying_items == 0)
    group->role = GROUP_BOILERPLATE;
  else if (region_fill (g_array_index (group->members, Member, 0).region) < MIN_RECORD_FILL)
    group->role = GROUP_SECTIONS;
  else if (matches_site_region (g_array_index (group->members, Member, 0).region, first, site_results))
    group->role = GROUP_BOILERPLATE;
  else if (g_hash_table_size (group->label_keys) > 0)
    group->role = GROUP_LABELS;
  else
    group->role = GROUP_DATA;
}

/* --- Learning: naming ---------------------------------------------------- */

/* The first class token of @node or of its nearest ancestor below @stop
 * that has one, looking up at most @levels elements. */
static char *
class_name_source (xmlNodePtr node,
                   xmlNodePtr stop,
                   guint      levels)
{
  for (xmlNodePtr n = node; n != NULL && n != stop && levels > 0; n = n->parent, levels--)
    {
      g_autofree char *itemprop = get_attribute (n, "itemprop");
      g_autofree char *klass = get_attribute (n, "class");

      if (n->type != XML_ELEMENT_NODE)
        continue;
      if (itemprop != NULL && make_name (itemprop) != NULL)
        return make_name (itemprop);
      if (klass != NULL)
        {
          g_auto(GStrv) tokens = g_strsplit_set (g_strstrip (klass), " \t\r\n", -1);

          for (guint i = 0; tokens[i] != NULL; i++)
            if (tokens[i][0] != '\0')
              return make_name (tokens[i]);
        }
    }
  return NULL;
}

/* Removes a first word that most of the class-derived names share
 * ("card_title", "card_author" → "title", "author"), as templates prefix
 * their classes with the block's name. @prefix_hint is the record
 * element's class, whose first word is such a prefix. */
static void
strip_common_prefix (GPtrArray  *names,
                     GArray     *from_class,
                     const char *prefix_hint)
{
  g_autoptr(GHashTable) counts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autofree char *hint = prefix_hint != NULL ? make_name (prefix_hint) : NULL;
  GHashTableIter iter;
  gpointer key, value;

  if (hint != NULL && strchr (hint, '_') != NULL)
    *strchr (hint, '_') = '\0';
  for (guint i = 0; i < names->len; i++)
    {
      const char *name = g_ptr_array_index (names, i);
      const char *underscore = name != NULL ? strchr (name, '_') : NULL;

      if (!g_array_index (from_class, gboolean, i) || underscore == NULL)
        continue;
      key = g_strndup (name, underscore - name);
      g_hash_table_replace (counts, key,
                            GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (counts, key)) + 1));
    }
  g_hash_table_iter_init (&iter, counts);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      gsize length = strlen (key);

      if (GPOINTER_TO_UINT (value) < 3 && !(GPOINTER_TO_UINT (value) >= 2 && g_strcmp0 (hint, key) == 0))
        continue;
      for (guint i = 0; i < names->len; i++)
        {
          char *name = g_ptr_array_index (names, i);

          if (g_array_index (from_class, gboolean, i) && name != NULL &&
              g_str_has_prefix (name, key) && name[length] == '_' && name[length + 1] != '\0')
            memmove (name, name + length + 1, strlen (name + length + 1) + 1);
        }
    }
}

static char *
unique_name (GHashTable *used,
             const char *name)
{
  char *candidate = g_strdup (name);

  for (guint n = 2; g_hash_table_contains (used, candidate); n++)
    {
      g_free (candidate);
      candidate = g_strdup_printf ("%s_%u", name, n);
    }
  g_hash_table_add (used, candidate);
  return g_strdup (candidate);
}

/* A column being made, before its name is settled. */
typedef struct {
  char              *xpath;
  CgClustvxItemKind  kind;
  char              *label;      /* the label text the name comes from, or NULL */
  char              *strip;      /* what is removed from the values ("label" member) */
  ValueMode          value;
  xmlNodePtr         sample;     /* an element of it, for names from attributes */
  gboolean           has_text;   /* links: whether the link has text worth a column */
} Draft;

static void
draft_free (Draft *draft)
{
  g_free (draft->xpath);
  g_free (draft->label);
  g_free (draft->strip);
  g_free (draft);
}

/* Turns drafts into named columns of @region: a name from the label, the
 * itemprop or class of the element, or the kind; a link with text gives a
 * text column and a "_url" column. */
static void
name_columns (Region     *region,
              GPtrArray  *drafts,
              xmlNodePtr  record_node,
              guint       class_levels)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GArray) from_class = g_array_new (FALSE, FALSE, sizeof (gboolean));
  g_autoptr(GHashTable) used = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autofree char *record_class = NULL;

  if (record_node != NULL)
    record_class = class_name_source (record_node, NULL, 1);
  for (guint i = 0; i < drafts->len; i++)
    {
      Draft *draft = g_ptr_array_index (drafts, i);
      char *name = draft->label != NULL ? make_name (draft->label) : NULL;
      gboolean is_class = FALSE;

      if (name == NULL && draft->sample != NULL)
        {
          xmlNodePtr element = draft->sample->type == XML_ELEMENT_NODE ? draft->sample : draft->sample->parent;

          name = class_name_source (element, record_node, class_levels);
          is_class = name != NULL;
          if (name == NULL && element != NULL)
            {
              g_autofree char *id = get_attribute (element, "id");

              if (is_anchor_id (id))
                name = make_name (id);
            }
        }
      g_ptr_array_add (names, name);
      g_array_append_val (from_class, is_class);
    }
  strip_common_prefix (names, from_class, record_class);

  for (guint i = 0; i < drafts->len && region->columns->len < CG_WRAPPER_MAX_COLUMNS; i++)
    {
      Draft *draft = g_ptr_array_index (drafts, i);
      g_autofree char *xpath = tbody_optional (draft->xpath);
      const char *base = g_ptr_array_index (names, i) != NULL ? g_ptr_array_index (names, i)
                                                               : kind_names[draft->kind];
      g_autofree char *name = unique_name (used, base);

      if (draft->kind == CG_CLUSTVX_ITEM_LINK && draft->has_text)
        {
          g_autofree char *url_base = g_strconcat (name, "_url", NULL);
          g_autofree char *url_name = unique_name (used, url_base);

          g_ptr_array_add (region->columns, column_new (name, xpath, CG_CLUSTVX_ITEM_TEXT,
                                                        draft->strip, draft->value));
          g_ptr_array_add (region->columns, column_new (url_name, xpath, CG_CLUSTVX_ITEM_LINK, NULL, VALUE_TEXT));
        }
      else
        g_ptr_array_add (region->columns, column_new (name, xpath, draft->kind, draft->strip, draft->value));
    }
  region_update_names (region);
}

/* A label that every value of a column starts with ("ISBN-13: 978…"):
 * the longest common prefix, cut back to its last ':' so that it ends
 * where the label ends. NULL when there is none. */
static char *
common_label_prefix (GPtrArray *values)
{
  const char *first;
  gsize length;
  g_autofree char *prefix = NULL;
  char *colon;

  if (values->len < 2)
    return NULL;
  first = g_ptr_array_index (values, 0);
  length = strlen (first);
  for (guint i = 1; i < values->len; i++)
    {
      const char *other = g_ptr_array_index (values, i);
      gsize j = 0;

      while (j < length && other[j] == first[j])
        j++;
      length = j;
    }
  prefix = g_strndup (first, length);
  colon = strrchr (prefix, ':');
  if (colon == NULL)
    return NULL;
  colon[1] = '\0';
  g_strstrip (prefix);
  if (!is_label_text (prefix) || strlen (prefix) < 2)
    return NULL;
  /* The label must leave a value in every record. */
  for (guint i = 0; i < values->len; i++)
    {
      const char *value = g_ptr_array_index (values, i);
      const char *rest = value + strlen (prefix);

      while (*rest == ' ')
        rest++;
      if (*rest == '\0')
        return NULL;
    }
  return g_steal_pointer (&prefix);
}

/* --- Learning: list wrappers --------------------------------------------- */

typedef struct {
  guint            page;
  CgClustvxRegion *region;
  CgClustvxRecord *record;
  guint            record_index;
  CgClustvxItem   *item;
} ItemRef;

/* The path of @node inside a type-B record that starts at @start, a child
 * of @region_node: the run counts as the children of one element. */
static char *
run_relative_path (xmlNodePtr node,
                   xmlNodePtr start,
                   xmlNodePtr region_node)
{
  g_autofree char *step = NULL;
  g_autofree char *below = NULL;
  xmlNodePtr r = node;

  while (r != NULL && r->parent != region_node)
    r = r->parent;
  if (r == NULL)
    return NULL;
  step = node_step (r, start);
  if (r == node)
    return g_steal_pointer (&step);
  below = relative_path (node, r);
  return below != NULL ? g_strconcat (step, "/", below, NULL) : NULL;
}

static char *
item_relative_path (const ItemRef *ref)
{
  xmlNodePtr start = g_ptr_array_index (ref->record->nodes, 0);
  GString *out = g_string_new (NULL);

  for (xmlNodePtr n = ref->item->node; n != NULL; n = n->next)
    {
      g_autofree char *path = NULL;

      if (n->type == XML_ELEMENT_NODE || n->type == XML_TEXT_NODE || n->type == XML_CDATA_SECTION_NODE)
        {
          if (ref->region->type == CG_CLUSTVX_RECORDS_TYPE_B)
            path = run_relative_path (n, start, ref->region->node);
          else if (n == start)
            path = g_strdup (".");
          else
            path = relative_path (n, start);
          if (path == NULL)
            {
              g_string_free (out, TRUE);
              return NULL;
            }
          if (out->len > 0)
            g_string_append (out, " | ");
          g_string_append (out, path);
        }
      if (n == ref->item->last_node)
        break;
    }
  return g_string_free (out, out->len == 0);
}

/* How many of @refs @xpath selects, evaluated on each one's record: the
 * first node selected must be the item's. */
static guint
xpath_hits (const char *xpath,
            GArray     *refs,
            Page       *pages)
{
  guint hits = 0;

  for (guint i = 0; i < refs->len; i++)
    {
      ItemRef *ref = &g_array_index (refs, ItemRef, i);
      xmlNodePtr record_node = g_ptr_array_index (ref->record->nodes, 0);
      g_autoptr(GPtrArray) nodes = cg_dom_xpath_eval (pages[ref->page].doc, record_node, xpath, NULL);

      if (nodes != NULL && nodes->len > 0 && g_ptr_array_index (nodes, 0) == ref->item->node)
        hits++;
    }
  return hits;
}

static int
compare_counts_cb (gconstpointer a,
                   gconstpointer b,
                   gpointer      user_data)
{
  GHashTable *counts = user_data;
  guint ca = GPOINTER_TO_UINT (g_hash_table_lookup (counts, *(const char **) a));
  guint cb = GPOINTER_TO_UINT (g_hash_table_lookup (counts, *(const char **) b));

  return ca == cb ? strcmp (*(const char **) a, *(const char **) b) : (ca > cb ? -1 : 1);
}

/* The relative XPath of a column of a list region: the positional path
 * most of its items have, or, when optional fields shift positions, the
 * tag path with the occurrence ClustVX aligned them by, whichever selects
 * more of the learning records' items. */
static char *
choose_column_xpath (GArray          *refs,
                     CgClustvxColumn *column,
                     gboolean         type_b,
                     Page            *pages)
{
  g_autoptr(GHashTable) counts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GPtrArray) candidates = g_ptr_array_new ();
  g_autofree char *best = NULL;
  guint best_hits = 0;
  GHashTableIter iter;
  gpointer key;

  for (guint i = 0; i < refs->len; i++)
    {
      char *path = item_relative_path (&g_array_index (refs, ItemRef, i));

      if (path == NULL)
        continue;
      g_hash_table_replace (counts, path,
                            GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (counts, path)) + 1));
    }
  if (g_hash_table_size (counts) == 0)
    return NULL;
  g_hash_table_iter_init (&iter, counts);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_ptr_array_add (candidates, key);
  g_ptr_array_sort_with_data (candidates, compare_counts_cb, counts);
  best = g_strdup (g_ptr_array_index (candidates, 0));
  if (type_b || GPOINTER_TO_UINT (g_hash_table_lookup (counts, best)) >= MIN_XPATH_COVERAGE * refs->len)
    return g_steal_pointer (&best);

  /* Positions vary: compare the forms on the learning records. */
  best_hits = xpath_hits (best, refs, pages);
  for (guint i = 1; i < MIN (candidates->len, 3); i++)
    {
      guint hits = xpath_hits (g_ptr_array_index (candidates, i), refs, pages);

      if (hits > best_hits)
        {
          g_free (best);
          best = g_strdup (g_ptr_array_index (candidates, i));
          best_hits = hits;
        }
    }
  if (column->tag_path != NULL && column->tag_path[0] != '\0' && strchr (column->tag_path, '#') == NULL)
    {
      const char *bar = strrchr (column->key, '|');
      guint occurrence = bar != NULL ? (guint) g_ascii_strtoull (bar + 1, NULL, 10) : 1;
      g_autofree char *tag_form = g_strdup_printf ("(%s)[%u]", column->tag_path, MAX (occurrence, 1));
      guint hits = xpath_hits (tag_form, refs, pages);

      if (hits > best_hits)
        {
          g_free (best);
          best = g_steal_pointer (&tag_form);
        }
    }
  return g_steal_pointer (&best);
}

/* The region XPath of a group: the members' common XPath or, when the
 * region moves from page to page, one where the steps that differ are
 * told by their class (or by nothing, when they have none), so that it
 * finds the region on every page. */
static char *
group_xpath (Group *group)
{
  Member *first = &g_array_index (group->members, Member, 0);
  g_auto(GStrv) steps = g_strsplit (first->region->xpath, "/", -1);
  guint n_steps = g_strv_length (steps);
  gboolean same = TRUE;
  GString *out;

  for (guint m = 1; m < group->members->len; m++)
    if (!g_str_equal (g_array_index (group->members, Member, m).region->xpath, first->region->xpath))
      same = FALSE;
  if (same)
    return g_strdup (first->region->xpath);

  for (guint m = 1; m < group->members->len; m++)
    {
      g_auto(GStrv) other = g_strsplit (g_array_index (group->members, Member, m).region->xpath, "/", -1);

      if (g_strv_length (other) != n_steps)
        return g_strdup (first->region->xpath);
      for (guint i = 0; i < n_steps; i++)
        {
          const char *a = strchr (steps[i], '['), *b = strchr (other[i], '[');
          gsize la = a != NULL ? (gsize) (a - steps[i]) : strlen (steps[i]);
          gsize lb = b != NULL ? (gsize) (b - other[i]) : strlen (other[i]);

          if (la != lb || strncmp (steps[i], other[i], la) != 0)
            return g_strdup (first->region->xpath);
        }
    }

  out = g_string_new (NULL);
  for (guint i = 1; i < n_steps; i++)
    {
      gboolean differs = FALSE;
      const char *bracket = strchr (steps[i], '[');
      g_autofree char *name = bracket != NULL ? g_strndup (steps[i], bracket - steps[i]) : g_strdup (steps[i]);
      g_autofree char *klass = NULL;
      gboolean same_class = TRUE;

      for (guint m = 1; m < group->members->len && !differs; m++)
        {
          g_auto(GStrv) other = g_strsplit (g_array_index (group->members, Member, m).region->xpath, "/", -1);

          differs = !g_str_equal (other[i], steps[i]);
        }
      g_string_append_c (out, '/');
      if (!differs || !is_simple_name (name))
        {
          g_string_append (out, steps[i]);
          continue;
        }
      /* The element at this depth in each member: walk up from the region. */
      for (guint m = 0; m < group->members->len && same_class; m++)
        {
          xmlNodePtr n = g_array_index (group->members, Member, m).region->node;
          g_autofree char *c = NULL;

          for (guint up = n_steps - 1; up > i && n != NULL; up--)
            n = n->parent;
          c = n != NULL ? get_attribute (n, "class") : NULL;
          if (c == NULL || c[0] == '\0' || (klass != NULL && !g_str_equal (klass, c)))
            same_class = FALSE;
          else if (klass == NULL)
            klass = g_steal_pointer (&c);
        }
      if (same_class && klass != NULL)
        {
          g_autofree char *literal = cg_dom_xpath_literal (klass);

          g_string_append_printf (out, "%s[@class=%s]", name, literal);
        }
      else
        g_string_append (out, name);
    }
  return g_string_free (out, FALSE);
}

static Region *
list_region (Group *group,
             Page  *pages)
{
  g_autoptr(GPtrArray) order = g_ptr_array_new ();
  g_autoptr(GHashTable) refs_by_key = g_hash_table_new_full (g_str_hash, g_str_equal, NULL,
                                                             (GDestroyNotify) g_array_unref);
  g_autoptr(GHashTable) static_values = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GPtrArray) drafts = g_ptr_array_new_with_free_func ((GDestroyNotify) draft_free);
  g_autofree char *xpath = group_xpath (group);
  xmlNodePtr record_node = NULL;
  Region *region;

  for (guint m = 0; m < group->members->len; m++)
    {
      Member *member = &g_array_index (group->members, Member, m);

      for (guint r = 0; r < member->region->records->len; r++)
        {
          CgClustvxRecord *record = g_ptr_array_index (member->region->records, r);

          if (record_node == NULL && record->nodes->len > 0)
            record_node = g_ptr_array_index (record->nodes, 0);
          for (guint i = 0; i < record->items->len; i++)
            {
              CgClustvxItem *item = g_ptr_array_index (record->items, i);
              const char *key = item_key (member->region, item);
              ItemRef ref = { member->page, member->region, record, r, item };
              GArray *refs = g_hash_table_lookup (refs_by_key, key);

              if (record->nodes->len == 0)
                continue;
              if (g_hash_table_contains (group->static_keys, key))
                {
                  g_hash_table_add (static_values, item->text);
                  continue;
                }
              if (g_hash_table_contains (group->label_keys, key))
                continue;
              if (refs == NULL)
                {
                  refs = g_array_new (FALSE, FALSE, sizeof (ItemRef));
                  g_hash_table_insert (refs_by_key, (gpointer) key, refs);
                  g_ptr_array_add (order, (gpointer) key);
                }
              g_array_append_val (refs, ref);
            }
        }
    }

  for (guint k = 0; k < order->len; k++)
    {
      const char *key = g_ptr_array_index (order, k);
      GArray *refs = g_hash_table_lookup (refs_by_key, key);
      ItemRef *sample = &g_array_index (refs, ItemRef, 0);
      CgClustvxColumn *column = g_ptr_array_index (sample->region->columns, sample->item->column);
      g_autoptr(GPtrArray) texts = g_ptr_array_new ();
      Draft *draft;
      xmlNodePtr previous;

      draft = g_new0 (Draft, 1);
      draft->xpath = choose_column_xpath (refs, column, group->type_b, pages);
      if (draft->xpath == NULL)
        {
          draft_free (draft);
          continue;
        }
      draft->kind = column->kind;
      draft->sample = sample->item->node;
      for (guint i = 0; i < refs->len; i++)
        {
          CgClustvxItem *item = g_array_index (refs, ItemRef, i).item;

          if (item->text != NULL && item->text[0] != '\0')
            {
              draft->has_text = TRUE;
              g_ptr_array_add (texts, item->text);
            }
        }
      /* A static text just before the field is its label ("Price:"); a
       * prefix all its values share is one too. */
      previous = previous_significant (sample->item->node);
      if (previous != NULL)
        {
          g_autofree char *text = string_value (previous);
          g_autoptr(GString) collapsed = g_string_new (NULL);
          gboolean space = FALSE;

          cg_text_append_collapsed (collapsed, text, &space, CG_WRAPPER_MAX_VALUE_LENGTH);
          if (is_label_text (collapsed->str) && g_hash_table_contains (static_values, collapsed->str))
            draft->label = g_strdup (collapsed->str);
        }
      if (draft->label == NULL && draft->kind != CG_CLUSTVX_ITEM_IMAGE)
        {
          draft->strip = common_label_prefix (texts);
          draft->label = g_strdup (draft->strip);
        }
      g_ptr_array_add (drafts, draft);
    }
  if (drafts->len == 0)
    return NULL;

  {
    g_autofree char *optional = tbody_optional (xpath);
    g_autofree char *record = tbody_optional (group->record_xpath);
    g_autoptr(GPtrArray) steps = split_steps (xpath);

    /* Rows of a table region, with or without the tbody browsers add. */
    if (step_is (g_ptr_array_index (steps, steps->len - 1), "table") && step_is (record, "tr"))
      {
        g_autofree char *rows = g_strconcat ("(. | tbody)/", record, NULL);

        g_free (record);
        record = g_steal_pointer (&rows);
      }
    region = region_new (optional, record, group->type_b);
  }
  name_columns (region, drafts, record_node, 16);
  return region;
}

/* --- Learning: detail wrappers ------------------------------------------- */

typedef enum {
  KEY_LABEL,
  KEY_CLASS,
  KEY_PATH,
} KeyType;

typedef struct {
  KeyType    type;
  char      *key;
  GPtrArray *units;   /* Unit, borrowed, one per page at most */
  double     order;
} Field;

static void
field_free (Field *field)
{
  g_free (field->key);
  g_ptr_array_unref (field->units);
  g_free (field);
}

static const char *
unit_key (Unit    *unit,
          KeyType  type)
{
  switch (type)
    {
    case KEY_LABEL: return unit->label_key;
    case KEY_CLASS: return unit->class_key;
    case KEY_PATH:
    default: return unit->path_key;
    }
}

static int
compare_fields_cb (gconstpointer a,
                   gconstpointer b)
{
  const Field *fa = *(Field * const *) a;
  const Field *fb = *(Field * const *) b;

  return fa->order < fb->order ? -1 : fa->order > fb->order ? 1 : 0;
}

static void
accept_field (GPtrArray *fields,
              KeyType    type,
              GPtrArray *units,
              Page      *pages)
{
  Field *field = g_new0 (Field, 1);

  field->type = type;
  field->key = g_strdup (unit_key (g_ptr_array_index (units, 0), type));
  field->units = g_ptr_array_ref (units);
  for (guint i = 0; i < units->len; i++)
    {
      Unit *unit = g_ptr_array_index (units, i);

      unit->claimed = TRUE;
      field->order += (double) unit->index / MAX (pages[unit->page].units->len, 1);
    }
  field->order /= units->len;
  g_ptr_array_add (fields, field);
}

/* The detail fields of a class (this project's extension to ClustVX, see
 * cg-wrapper.h): units found on enough pages under one key whose values
 * differ from page to page. Keys are tried from the most to the least
 * robust: the label next to the value, the class path, the position. A
 * unit belongs to one field at most.
 *
 * A labelled value that happens to be the same on every learning page
 * (five new books all published in one month) is still a field when it
 * sits in a list of labelled facts whose other values vary: the list is
 * the record's template, not the site's. */
static GPtrArray *
find_fields (Page  *pages,
             guint  n_pages,
             guint  need)
{
  GPtrArray *fields = g_ptr_array_new_with_free_func ((GDestroyNotify) field_free);
  g_autoptr(GHashTable) fact_lists = g_hash_table_new (NULL, NULL);
  static const KeyType types[] = { KEY_LABEL, KEY_CLASS, KEY_PATH };

  for (guint t = 0; t < G_N_ELEMENTS (types); t++)
    {
      g_autoptr(GHashTable) by_key = g_hash_table_new (g_str_hash, g_str_equal);
      g_autoptr(GPtrArray) order = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
      g_autoptr(GPtrArray) constant = g_ptr_array_new ();
      /* An optional field keyed by its label or its class needs only two
       * pages: those keys do not drift as positions do. */
      guint least = types[t] == KEY_PATH ? need : MIN (need, 2);

      for (guint p = 0; p < n_pages; p++)
        for (guint i = 0; i < pages[p].units->len; i++)
          {
            Unit *unit = g_ptr_array_index (pages[p].units, i);
            const char *key = unit_key (unit, types[t]);
            GPtrArray *units;

            if (key == NULL)
              continue;
            units = g_hash_table_lookup (by_key, key);
            if (units == NULL)
              {
                units = g_ptr_array_new ();
                g_hash_table_insert (by_key, (gpointer) key, units);
                g_ptr_array_add (order, units);
              }
            g_ptr_array_add (units, unit);
          }

      for (guint k = 0; k < order->len && fields->len < CG_WRAPPER_MAX_COLUMNS; k++)
        {
          GPtrArray *units = g_ptr_array_index (order, k);
          g_autoptr(GHashTable) values = g_hash_table_new (g_str_hash, g_str_equal);
          guint unclaimed = 0, nonempty = 0;

          for (guint i = 0; i < units->len; i++)
            {
              Unit *unit = g_ptr_array_index (units, i);

              unclaimed += !unit->claimed;
              nonempty += unit->value[0] != '\0';
              g_hash_table_add (values, unit->value);
            }
          if (units->len < least || unclaimed < 0.8 * units->len || nonempty == 0)
            continue;
          if (g_hash_table_size (values) >= 2)
            {
              accept_field (fields, types[t], units, pages);
              for (guint i = 0; types[t] == KEY_LABEL && i < units->len; i++)
                {
                  Unit *unit = g_ptr_array_index (units, i);

                  g_hash_table_add (fact_lists, unit->label_target->parent);
                }
            }
          else if (types[t] == KEY_LABEL && units->len >= need && unclaimed == units->len)
            g_ptr_array_add (constant, units);
        }

      for (guint k = 0; k < constant->len && fields->len < CG_WRAPPER_MAX_COLUMNS; k++)
        {
          GPtrArray *units = g_ptr_array_index (constant, k);
          gboolean in_facts = TRUE;

          for (guint i = 0; i < units->len && in_facts; i++)
            in_facts = g_hash_table_contains (fact_lists, ((Unit *) g_ptr_array_index (units, i))->label_target->parent);
          if (in_facts)
            accept_field (fields, types[t], units, pages);
        }
    }
  g_ptr_array_sort (fields, compare_fields_cb);
  return fields;
}

static Region *
detail_region (GPtrArray *fields)
{
  g_autoptr(GPtrArray) drafts = g_ptr_array_new_with_free_func ((GDestroyNotify) draft_free);
  Region *region;

  for (guint f = 0; f < fields->len; f++)
    {
      Field *field = g_ptr_array_index (fields, f);
      Unit *sample = g_ptr_array_index (field->units, 0);
      g_autoptr(GPtrArray) values = g_ptr_array_new ();
      guint kinds[G_N_ELEMENTS (kind_names)] = { 0 };
      Draft *draft = g_new0 (Draft, 1);
      guint best_kind = 0;

      draft->xpath = field->type == KEY_PATH ? g_strdup (field->key) : key_xpath (field->key);
      for (guint i = 0; i < field->units->len; i++)
        {
          Unit *unit = g_ptr_array_index (field->units, i);

          kinds[unit->kind]++;
          if (unit->text[0] != '\0')
            draft->has_text = TRUE;
          g_ptr_array_add (values, unit->value);
        }
      for (guint k = 1; k < G_N_ELEMENTS (kinds); k++)
        if (kinds[k] > kinds[best_kind])
          best_kind = k;
      draft->kind = best_kind;
      draft->sample = sample->first;
      if (field->type == KEY_LABEL)
        {
          draft->label = g_strdup (sample->label);
          if (sample->label_kind == LABEL_INLINE_RUN)
            draft->value = VALUE_FOLLOWING;
          else if (sample->label_kind == LABEL_INLINE_ELEMENT)
            draft->strip = g_strdup (sample->label);
        }
      else if (draft->kind != CG_CLUSTVX_ITEM_IMAGE)
        {
          draft->strip = common_label_prefix (values);
          draft->label = g_strdup (draft->strip);
        }
      if (draft->kind == CG_CLUSTVX_ITEM_IMAGE)
        draft->has_text = FALSE;
      g_ptr_array_add (drafts, draft);
    }
  region = region_new ("/html", ".", FALSE);
  name_columns (region, drafts, NULL, 3);
  return region;
}

/* --- Learning ------------------------------------------------------------ */

static gboolean
is_descendant (xmlNodePtr node,
               xmlNodePtr ancestor)
{
  for (xmlNodePtr n = node; n != NULL; n = n->parent)
    if (n == ancestor)
      return TRUE;
  return FALSE;
}

/* Applies the new wrapper to its learning pages and drops the columns
 * that give nothing on any of them (and regions left with none): an XPath
 * made on one page that another form of the page breaks is better left
 * out than kept empty. */
static void
prune_wrapper (CgWrapper *self,
               Page      *pages,
               guint      n_pages)
{
  for (guint r = self->regions->len; r > 0; r--)
    {
      Region *region = g_ptr_array_index (self->regions, r - 1);
      g_autoptr(GArray) used = g_array_sized_new (FALSE, TRUE, sizeof (gboolean), region->columns->len);
      g_autoptr(CgWrapper) single = wrapper_new (self->kind);

      g_array_set_size (used, region->columns->len);
      g_ptr_array_add (single->regions, region);
      for (guint p = 0; p < n_pages; p++)
        {
          g_autoptr(GPtrArray) records = cg_wrapper_apply (single, pages[p].doc, pages[p].url, NULL);

          for (guint i = 0; records != NULL && i < records->len; i++)
            {
              CgRecord *record = g_ptr_array_index (records, i);

              for (guint c = 0; record->values[c] != NULL; c++)
                if (record->values[c][0] != '\0')
                  g_array_index (used, gboolean, c) = TRUE;
            }
        }
      g_ptr_array_steal_index (single->regions, 0);
      for (guint c = region->columns->len; c > 0; c--)
        if (!g_array_index (used, gboolean, c - 1))
          g_ptr_array_remove_index (region->columns, c - 1);
      region_update_names (region);
      if (region->columns->len == 0)
        g_ptr_array_remove_index (self->regions, r - 1);
    }
}

static gboolean
in_records (xmlNodePtr       node,
            CgClustvxRegion *region)
{
  if (!is_descendant (node, region->node))
    return FALSE;
  for (guint r = 0; r < region->records->len; r++)
    {
      CgClustvxRecord *record = g_ptr_array_index (region->records, r);

      for (guint i = 0; i < record->nodes->len; i++)
        if (is_descendant (node, g_ptr_array_index (record->nodes, i)))
          return TRUE;
    }
  return FALSE;
}

static double
group_mean_records (Group *group)
{
  guint records = 0;

  for (guint m = 0; m < group->members->len; m++)
    records += g_array_index (group->members, Member, m).region->records->len;
  return (double) records / MAX (group->members->len, 1);
}

/* Ranks the recurring regions of a class, the main one first. A group's
 * score is the sum over the sample pages of its region's score on that
 * page (its visual weight relative to the page's heaviest region), which
 * orders the groups as their mean over all the sample pages does, a page
 * without the region counting 0. That is meant: the wrapper is applied to
 * every page of the class, so a region counts for the pages it is on. A
 * mean over only the pages that have the region would let a box shown on
 * half of them (a featured block that outweighs the list where it is)
 * outrank the list that is on every page. */
static int
compare_groups_cb (gconstpointer a,
                   gconstpointer b)
{
  const Group *ga = *(Group * const *) a;
  const Group *gb = *(Group * const *) b;

  return ga->score > gb->score ? -1 : ga->score < gb->score ? 1 : 0;
}

CgWrapper *
cg_wrapper_learn (const char  *class_name,
                  GPtrArray   *docs,
                  GPtrArray   *urls,
                  GError     **error)
{
  return cg_wrapper_learn_full (class_name, docs, urls, NULL, error);
}

CgWrapper *
cg_wrapper_learn_full (const char              *class_name,
                       GPtrArray               *docs,
                       GPtrArray               *urls,
                       const CgWrapperOptions  *options,
                       GError                 **error)
{
  CgWrapperOptions defaults;
  g_autoptr(GPtrArray) site_results = g_ptr_array_new_with_free_func ((GDestroyNotify) cg_clustvx_result_free);
  g_autoptr(GPtrArray) groups = NULL;
  g_autoptr(GPtrArray) fields = NULL;
  g_autoptr(CgWrapper) self = NULL;
  Group *best = NULL;
  Page *pages = NULL;
  guint n_pages, need;
  guint list_items = 0, detail_items = 0;
  double list_record_items = 0, page_fields = 0;
  gboolean ok = FALSE;

  if (options == NULL)
    {
      cg_wrapper_options_init (&defaults);
      options = &defaults;
    }
  if (options->max_pages < 1 || options->max_pages > CG_WRAPPER_MAX_PAGES)
    {
      g_set_error (error, CG_WRAPPER_ERROR, CG_WRAPPER_ERROR_INVALID_INPUT,
                   _("A wrapper is learned on 1 to %d pages, not %u"), CG_WRAPPER_MAX_PAGES, options->max_pages);
      return NULL;
    }
  if (docs == NULL || docs->len == 0)
    {
      g_set_error (error, CG_WRAPPER_ERROR, CG_WRAPPER_ERROR_NO_PAGES,
                   _("No page of the class “%s” to learn a wrapper from"), class_name != NULL ? class_name : "");
      return NULL;
    }
  if (urls != NULL && urls->len != docs->len)
    {
      g_set_error (error, CG_WRAPPER_ERROR, CG_WRAPPER_ERROR_INVALID_INPUT,
                   _("%u pages were given with %u URLs"), docs->len, urls->len);
      return NULL;
    }

  n_pages = MIN (docs->len, options->max_pages);
  pages = g_new0 (Page, n_pages);
  for (guint p = 0; p < n_pages; p++)
    {
      Page *page = &pages[p];

      page->doc = g_ptr_array_index (docs, p);
      page->url = urls != NULL ? g_ptr_array_index (urls, p) : NULL;
      page->root = root_element (page->doc);
      if (page->root == NULL)
        {
          g_set_error (error, CG_WRAPPER_ERROR, CG_WRAPPER_ERROR_NO_PAGES,
                       _("Page %u of the class “%s” (%s) has no document to learn from"),
                       p + 1, class_name != NULL ? class_name : "", page->url != NULL ? page->url : "");
          goto out;
        }
      page->result = cg_clustvx_extract (page->doc, NULL, error);
      if (page->result == NULL)
        goto out;
      page->rendered = page->result->rendered;
      page->units = g_ptr_array_new_with_free_func ((GDestroyNotify) unit_free);
      collect_units (page, p, page->root, 0);
      page_make_keys (page);
    }
  for (guint s = 0; options->site_docs != NULL && s < MIN (options->site_docs->len, MAX_SITE_DOCS); s++)
    {
      htmlDocPtr doc = g_ptr_array_index (options->site_docs, s);
      CgClustvxResult *result = root_element (doc) != NULL ? cg_clustvx_extract (doc, NULL, NULL) : NULL;

      if (result != NULL)
        g_ptr_array_add (site_results, result);
    }

  /* Regions that recur on enough of the pages: all of them for one page,
   * at least two and half of the pages otherwise. */
  need = n_pages == 1 ? 1 : MAX (2, (n_pages + 1) / 2);
  groups = group_regions (pages, n_pages);
  for (guint g = groups->len; g > 0; g--)
    {
      Group *group = g_ptr_array_index (groups, g - 1);

      group_classify (group, site_results);
      g_debug ("Class %s: region %s on %u pages, role %d, %u varying items, score %.3f",
               class_name, g_array_index (group->members, Member, 0).region->xpath, group->members->len,
               group->role, group->varying_items, group->score);
      if (group->members->len < need || group->role != GROUP_DATA)
        g_ptr_array_remove_index (groups, g - 1);
    }
  g_ptr_array_sort (groups, compare_groups_cb);

  /* The main list is the top-ranked region that can be a list (see
   * MIN_SMALL_LIST_RECORD_ITEMS), region 0 of a list wrapper: the decision
   * below and the claims of fields weigh that region, not the one with
   * the most items, which can be a long list of facets or tags beside the
   * results, of one or two items a record. */
  for (guint g = 0; g < groups->len && best == NULL; g++)
    {
      Group *group = g_ptr_array_index (groups, g);
      double mean_records = group_mean_records (group);
      double record_items = group->varying_items / MAX (mean_records * group->members->len, 1);

      if (mean_records < MIN_LIST_RECORDS && record_items < MIN_SMALL_LIST_RECORD_ITEMS)
        continue;
      best = group;
      list_items = best->varying_items;
      list_record_items = record_items;
      /* Region 0 of a list wrapper. */
      g_ptr_array_steal_index (groups, g);
      g_ptr_array_insert (groups, 0, best);
    }

  /* Detail fields, outside the main list and the other lists: smaller
   * regions of a detail page (two spans of a rating, the paragraphs of a
   * description) are fields of its record. */
  if (n_pages >= 2)
    {
      for (guint g = 0; g < groups->len; g++)
        {
          Group *group = g_ptr_array_index (groups, g);

          if (group != best && group_mean_records (group) < MIN_LIST_RECORDS)
            continue;
          for (guint m = 0; m < group->members->len; m++)
            {
              Member *member = &g_array_index (group->members, Member, m);
              Page *page = &pages[member->page];

              for (guint i = 0; i < page->units->len; i++)
                {
                  Unit *unit = g_ptr_array_index (page->units, i);

                  /* A labelled value is a field, whatever region it is in,
                   * but in the main list. Only the records are the list:
                   * a region's element may hold much more of the page. */
                  if ((group == best || unit->label_key == NULL) && in_records (unit->first, member->region))
                    unit->claimed = TRUE;
                }
            }
        }
      fields = find_fields (pages, n_pages, need);
      for (guint f = 0; f < fields->len; f++)
        detail_items += ((Field *) g_ptr_array_index (fields, f))->units->len;
    }

  page_fields = (double) detail_items / n_pages;
  g_debug ("Class %s: %u list items in the main region (%.1f a record), %u detail items in %u fields (%.1f a page)",
           class_name, list_items, list_record_items, detail_items, fields != NULL ? fields->len : 0, page_fields);
  /* List or detail, from the data: a list when it has a main list (a
   * region refused above as too small is none, though it recurs) and that
   * region holds more varying items than the page's varying fields outside it,
   * unless the page's own record is much richer than the list's records:
   * a product page with a long list of related products shows them
   * compactly, a few items each, and the product with many fields. */
  if (best != NULL && list_items >= detail_items && page_fields <= DETAIL_RICHNESS * list_record_items &&
      !options->detail)
    {
      self = wrapper_new (CG_WRAPPER_LIST);
      for (guint g = 0; g < groups->len && self->regions->len < CG_WRAPPER_MAX_REGIONS; g++)
        {
          Region *region = list_region (g_ptr_array_index (groups, g), pages);

          if (region != NULL)
            g_ptr_array_add (self->regions, region);
        }
    }
  else if (fields != NULL && fields->len > 0)
    {
      self = wrapper_new (CG_WRAPPER_DETAIL);
      g_ptr_array_add (self->regions, detail_region (fields));
    }
  if (self != NULL)
    prune_wrapper (self, pages, n_pages);
  if (self == NULL || self->regions->len == 0)
    {
      g_clear_pointer (&self, cg_wrapper_unref);
      if (n_pages == 1)
        g_set_error (error, CG_WRAPPER_ERROR, CG_WRAPPER_ERROR_NO_RECORDS,
                     _("The only page of the class “%s” has no repeated records, and one page cannot show "
                       "which of its fields vary"), class_name != NULL ? class_name : "");
      else
        g_set_error (error, CG_WRAPPER_ERROR, CG_WRAPPER_ERROR_NO_RECORDS,
                     _("The %u pages of the class “%s” have neither repeated records nor fields that vary "
                       "from page to page"), n_pages, class_name != NULL ? class_name : "");
      goto out;
    }
  self->class_name = g_strdup (class_name);
  self->n_pages = n_pages;
  ok = TRUE;

out:
  for (guint p = 0; p < n_pages; p++)
    page_clear (&pages[p]);
  g_free (pages);
  return ok ? g_steal_pointer (&self) : NULL;
}
