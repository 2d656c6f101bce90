/* cg-clustvx.c: seed 003's ClustVX, data records of a list page from clusters of visually similar XPaths.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>
#include <libxml/tree.h>

#include "cg-clustvx.h"
#include "cg-json.h"
#include "cg-text.h"
#include "cg-url.h"

G_DEFINE_QUARK (cg-clustvx-error-quark, cg_clustvx_error)

#define NO_NODE G_MAXUINT

/* libxml2's HTML parser nests at most 256 elements; trees built by other
 * means are cut at this depth rather than walked without end. */
#define MAX_DEPTH 1024

/* Formatting elements nested in formatting elements are flattened down to
 * this depth; deeper ones are kept as elements. */
#define MAX_FLATTEN 64

/* Texts longer than this are neither prices nor dates. */
#define MAX_KIND_TEXT 48

/* A sibling of a region is a record shown apart when its items and the
 * records' are this similar (Jaccard, on column keys). */
#define EXTEND_MIN_SIMILARITY 0.75

/* A box of records (see split_type_a ()) holds them at most this many
 * wrapper elements down. */
#define MAX_BOX_WRAPPERS 4

/* At least this share of the runs of a type-B region have the same
 * shape. */
#define TYPE_B_MIN_SAME_SHAPE 0.6

/* A type-B record spans at most this many children with items, on
 * average. */
#define TYPE_B_MAX_CHILDREN 6

/* Below this many items per record, a type-B segmentation only pairs up
 * single items: the region is a plain list read as type A. */
#define TYPE_B_MIN_ITEMS 1.5

/* The plain estimate of a region's area: pixels per character of text and
 * per image, about a 10 × 20 px glyph and a small thumbnail. */
#define PLAIN_PX_PER_CHAR  200.0
#define PLAIN_PX_PER_IMAGE 4000.0

typedef enum {
  ELEMENT_NORMAL,
  ELEMENT_FORMATTING,  /* dissolved: its text joins the text around it */
  ELEMENT_DROPPED,     /* never shown: skipped with its subtree */
  ELEMENT_IGNORED,     /* shown but neither text nor a boundary (wbr) */
} ElementClass;

/* What the attributes of one element say. */
typedef struct {
  gboolean    hidden;       /* dropped with its subtree */
  gboolean    visible;      /* may hold content */
  const char *fontdata;     /* interned, never NULL */
  double      left, top, width, height;  /* -1 when unknown */
} Attributes;

/* A node of the pre-processed view of the document: an element that was
 * not dissolved, or a hanging text wrapped as if in a span. Nodes are kept
 * in document order (depth first), so a node's subtree is the range
 * [index, end) and the content of a subtree is a range of contents. */
typedef struct {
  xmlNodePtr  xml;           /* the element, or the first node of a text run */
  const char *name;          /* the tag name, "#text" for a wrapped text */
  const char *fontdata;
  double      left, top, width, height;
  guint       parent;
  guint       end;
  guint       depth;
  guint       path;          /* interned tag path */
  guint       content;       /* index in contents, or NO_NODE */
  guint       content_start;
  guint       content_end;
  guint       run_start;     /* wrapped text: its nodes in run_nodes */
  guint       run_length;
  gboolean    is_text;
  gboolean    visible;
} View;

typedef struct {
  guint     view;
  guint     cluster;
  char     *text;
  gboolean  image;
} Content;

/* A text run while it is being read, or one read and waiting for its
 * place among its parent's children. */
typedef struct {
  gboolean    is_run;
  xmlNodePtr  element;       /* element entries */
  Attributes  attributes;
  guint       run_start;     /* run entries */
  guint       run_length;
  char       *text;
  xmlNodePtr  font_owner;    /* the formatting element all the run's text comes from */
  gboolean    own_text;      /* some of the text is the parent's own */
} Entry;

typedef struct {
  GString    *text;
  guint       start;
  xmlNodePtr  font_owner;
  gboolean    own_text;
  gboolean    many_owners;
  gboolean    open;
  guint       n_scanned;     /* elements of this parent looked at */
} RunState;

typedef struct {
  GArray     *members;       /* guint content indices, in document order */
  guint       lcp;           /* view node */
} Cluster;

typedef struct {
  htmlDocPtr              doc;
  CgClustvxOptions        options;
  gboolean                rendered;
  gboolean                truncated;
  guint                   n_elements;  /* elements read: built or merged into a text */

  GArray                 *views;       /* View */
  GArray                 *contents;    /* Content */
  GPtrArray              *run_nodes;   /* xmlNodePtr */
  GArray                 *entries;     /* Entry, a stack shared by the open frames */
  GStringChunk           *strings;
  GHashTable             *paths;       /* "PARENT/name" → id + 1 */

  GPtrArray              *clusters;    /* Cluster * */

  GHashTable             *positions;   /* xmlNodePtr → position + 1 */
  GHashTable             *xpaths;      /* xmlNodePtr → char * */
  GUri                   *base;
} Builder;

static const char *formatting_names[] = {
  "abbr", "acronym", "b", "bdi", "bdo", "big", "blink", "cite", "del", "dfn",
  "em", "font", "i", "ins", "kbd", "mark", "nobr", "q", "s", "samp", "small",
  "strike", "strong", "sub", "sup", "tt", "u", "var",
};

/* Elements whose content is never shown as text of the page: document
 * metadata, scripts, embedded documents and the lists of form controls
 * (an <option> list is shown only when opened). */
static const char *dropped_names[] = {
  "applet", "area", "audio", "base", "canvas", "datalist", "embed", "frame",
  "frameset", "head", "iframe", "input", "link", "map", "meta", "noembed",
  "noframes", "noscript", "object", "optgroup", "option", "param", "script",
  "select", "source", "style", "svg", "template", "textarea", "title",
  "track", "video",
};

static GHashTable *
element_classes (void)
{
  static gsize initialised = 0;
  static GHashTable *classes = NULL;

  if (g_once_init_enter (&initialised))
    {
      GHashTable *table = g_hash_table_new (g_str_hash, g_str_equal);

      for (guint i = 0; i < G_N_ELEMENTS (formatting_names); i++)
        g_hash_table_insert (table, (gpointer) formatting_names[i],
                             GINT_TO_POINTER (ELEMENT_FORMATTING));
      for (guint i = 0; i < G_N_ELEMENTS (dropped_names); i++)
        g_hash_table_insert (table, (gpointer) dropped_names[i],
                             GINT_TO_POINTER (ELEMENT_DROPPED));
      g_hash_table_insert (table, (gpointer) "wbr", GINT_TO_POINTER (ELEMENT_IGNORED));
      classes = table;
      g_once_init_leave (&initialised, 1);
    }
  return classes;
}

static ElementClass
classify_name (const char *name)
{
  gpointer value;

  if (name == NULL)
    return ELEMENT_DROPPED;
  if (g_hash_table_lookup_extended (element_classes (), name, NULL, &value))
    return (ElementClass) GPOINTER_TO_INT (value);
  return ELEMENT_NORMAL;
}

/* A declarative shadow root (<template shadowrootmode="open">) is shown,
 * unlike every other template, whose content is inert. */
static ElementClass
classify_element (xmlNodePtr element)
{
  ElementClass klass = classify_name ((const char *) element->name);

  if (klass == ELEMENT_DROPPED && g_strcmp0 ((const char *) element->name, "template") == 0 &&
      (xmlHasProp (element, (const xmlChar *) "shadowrootmode") != NULL ||
       xmlHasProp (element, (const xmlChar *) "shadowroot") != NULL))
    return ELEMENT_NORMAL;
  return klass;
}

void
cg_clustvx_options_init (CgClustvxOptions *options)
{
  g_return_if_fail (options != NULL);

  memset (options, 0, sizeof *options);
  options->features = CG_CLUSTVX_FEATURES_AUTO;
  options->max_elements = CG_CLUSTVX_DEFAULT_MAX_ELEMENTS;
  options->max_regions = CG_CLUSTVX_DEFAULT_MAX_REGIONS;
  options->max_records = CG_CLUSTVX_DEFAULT_MAX_RECORDS;
  options->max_items = CG_CLUSTVX_DEFAULT_MAX_ITEMS;
  options->min_records = CG_CLUSTVX_DEFAULT_MIN_RECORDS;
}

const char *
cg_clustvx_item_kind_to_string (CgClustvxItemKind kind)
{
  switch (kind)
    {
    case CG_CLUSTVX_ITEM_TEXT:
      return "text";
    case CG_CLUSTVX_ITEM_LINK:
      return "link";
    case CG_CLUSTVX_ITEM_IMAGE:
      return "image";
    case CG_CLUSTVX_ITEM_PRICE:
      return "price";
    case CG_CLUSTVX_ITEM_DATE:
      return "date";
    default:
      return "text";
    }
}

const char *
cg_clustvx_records_type_to_string (CgClustvxRecordsType type)
{
  return type == CG_CLUSTVX_RECORDS_TYPE_B ? "B" : "A";
}

/* Results */

static void
item_free (CgClustvxItem *item)
{
  if (item == NULL)
    return;
  g_free (item->path);
  g_free (item->xpath);
  g_free (item->text);
  g_free (item->href);
  g_free (item->url);
  g_free (item->src);
  g_free (item->fontdata);
  g_free (item);
}

static void
record_free (CgClustvxRecord *record)
{
  if (record == NULL)
    return;
  g_free (record->xpath);
  g_clear_pointer (&record->nodes, g_ptr_array_unref);
  g_clear_pointer (&record->items, g_ptr_array_unref);
  g_free (record);
}

static void
column_free (CgClustvxColumn *column)
{
  if (column == NULL)
    return;
  g_free (column->key);
  g_free (column->tag_path);
  g_free (column->fontdata);
  g_free (column);
}

static void
region_free (CgClustvxRegion *region)
{
  if (region == NULL)
    return;
  g_free (region->xpath);
  g_free (region->record_xpath);
  g_clear_pointer (&region->columns, g_ptr_array_unref);
  g_clear_pointer (&region->records, g_ptr_array_unref);
  g_free (region);
}

void
cg_clustvx_result_free (CgClustvxResult *result)
{
  if (result == NULL)
    return;
  g_clear_pointer (&result->regions, g_ptr_array_unref);
  g_free (result->message);
  g_free (result);
}

/* Reading the document */

/* The value of an attribute without copying it when libxml2 stores it as
 * one text node, which is how the HTML parser stores every value. */
static const char *
attribute_value (Builder    *b,
                 xmlAttrPtr  attribute)
{
  xmlChar *joined;
  const char *interned;

  if (attribute->children == NULL)
    return "";
  if (attribute->children->next == NULL && attribute->children->type == XML_TEXT_NODE)
    return (const char *) attribute->children->content;
  joined = xmlNodeListGetString (attribute->doc, attribute->children, 1);
  interned = g_string_chunk_insert_const (b->strings, joined != NULL ? (const char *) joined : "");
  xmlFree (joined);
  return interned;
}

static double
parse_number (const char *text)
{
  char *end = NULL;
  double value;

  if (text == NULL || *text == '\0')
    return -1;
  value = g_ascii_strtod (text, &end);
  if (end == text || !isfinite (value))
    return -1;
  return value;
}

/* Whether an inline style hides the element, as far as a plain page can
 * tell: "display: none" or "visibility: hidden", in any case and spacing. */
static gboolean
style_hides (const char *style)
{
  g_autofree char *compact = NULL;
  gsize n = 0;

  if (style == NULL || strlen (style) > 4096)
    return FALSE;
  compact = g_malloc (strlen (style) + 1);
  for (const char *p = style; *p != '\0'; p++)
    if (!g_ascii_isspace (*p))
      compact[n++] = g_ascii_tolower (*p);
  compact[n] = '\0';
  return strstr (compact, "display:none") != NULL ||
         strstr (compact, "visibility:hidden") != NULL;
}

static void
read_attributes (Builder    *b,
                 xmlNodePtr  element,
                 Attributes *out)
{
  const char *visible = NULL;
  const char *display = NULL;
  const char *style = NULL;
  gboolean hidden_attribute = FALSE;

  out->hidden = FALSE;
  out->visible = TRUE;
  out->fontdata = "";
  out->left = out->top = out->width = out->height = -1;

  for (xmlAttrPtr a = element->properties; a != NULL; a = a->next)
    {
      const char *name = (const char *) a->name;

      if (a->ns != NULL || name == NULL)
        continue;
      if (g_str_has_prefix (name, "data-cg-"))
        {
          const char *field = name + strlen ("data-cg-");

          if (!b->rendered)
            continue;
          if (strcmp (field, "visible") == 0)
            visible = attribute_value (b, a);
          else if (strcmp (field, "fontdata") == 0)
            out->fontdata = g_string_chunk_insert_const (b->strings, attribute_value (b, a));
          else if (strcmp (field, "left") == 0)
            out->left = parse_number (attribute_value (b, a));
          else if (strcmp (field, "top") == 0)
            out->top = parse_number (attribute_value (b, a));
          else if (strcmp (field, "width") == 0)
            out->width = parse_number (attribute_value (b, a));
          else if (strcmp (field, "height") == 0)
            out->height = parse_number (attribute_value (b, a));
          else if (strcmp (field, "display") == 0)
            display = attribute_value (b, a);
        }
      else if (strcmp (name, "hidden") == 0)
        hidden_attribute = TRUE;
      else if (strcmp (name, "style") == 0)
        style = attribute_value (b, a);
    }

  if (b->rendered && visible != NULL)
    {
      /* The browser decided. display:none hides the whole subtree; an
       * element that is invisible otherwise (no size, visibility: hidden)
       * may still have visible children, so only its own text goes. */
      out->visible = strcmp (visible, "1") == 0;
      out->hidden = display != NULL && strcmp (display, "none") == 0;
    }
  else
    {
      out->hidden = hidden_attribute || style_hides (style);
      out->visible = !out->hidden;
      out->left = out->top = out->width = out->height = -1;
    }
}

/* Whether a formatting element holds nothing but text and formatting, so
 * that it can be merged whole into the text around it. */
static gboolean
formatting_is_simple (xmlNodePtr element,
                      guint      level)
{
  if (level > MAX_FLATTEN)
    return FALSE;
  for (xmlNodePtr child = element->children; child != NULL; child = child->next)
    {
      if (child->type != XML_ELEMENT_NODE)
        continue;
      switch (classify_name ((const char *) child->name))
        {
        case ELEMENT_FORMATTING:
          if (!formatting_is_simple (child, level + 1))
            return FALSE;
          break;
        case ELEMENT_DROPPED:
        case ELEMENT_IGNORED:
          break;
        case ELEMENT_NORMAL:
        default:
          return FALSE;
        }
    }
  return TRUE;
}

static gboolean
has_text (const char *text)
{
  for (const char *p = text; p != NULL && *p != '\0'; p = g_utf8_next_char (p))
    if (!g_unichar_isspace (g_utf8_get_char (p)))
      return TRUE;
  return FALSE;
}

static void
run_append_raw (RunState   *run,
                const char *text)
{
  /* White space collapses, so a run never needs much more than the
   * bound; reading on would only cost time on a megabyte text node. */
  if (text != NULL && run->text->len < 2 * CG_CLUSTVX_MAX_TEXT_LENGTH)
    g_string_append (run->text, text);
}

static void
run_open (Builder  *b,
          RunState *run)
{
  if (run->open)
    return;
  run->open = TRUE;
  g_string_truncate (run->text, 0);
  run->start = b->run_nodes->len;
  run->font_owner = NULL;
  run->own_text = FALSE;
  run->many_owners = FALSE;
}

static void
run_append_text_node (Builder    *b,
                      RunState   *run,
                      xmlNodePtr  node,
                      xmlNodePtr  owner)
{
  const char *text = (const char *) node->content;

  if (!run->open && !has_text (text))
    return;
  run_open (b, run);
  g_ptr_array_add (b->run_nodes, node);
  run_append_raw (run, text);
  if (has_text (text))
    {
      if (owner == NULL)
        run->own_text = TRUE;
      else if (run->font_owner == NULL)
        run->font_owner = owner;
      else if (run->font_owner != owner)
        run->many_owners = TRUE;
    }
}

/* Appends the visible text of a simple formatting element. */
static void
append_formatting_text (Builder    *b,
                        RunState   *run,
                        xmlNodePtr  element,
                        guint       level)
{
  for (xmlNodePtr child = element->children; child != NULL; child = child->next)
    {
      if (child->type == XML_TEXT_NODE || child->type == XML_CDATA_SECTION_NODE)
        run_append_raw (run, (const char *) child->content);
      else if (child->type == XML_ELEMENT_NODE && level < MAX_FLATTEN &&
               classify_name ((const char *) child->name) == ELEMENT_FORMATTING)
        {
          Attributes attributes;

          b->n_elements++;
          read_attributes (b, child, &attributes);
          if (!attributes.hidden && attributes.visible)
            append_formatting_text (b, run, child, level + 1);
        }
    }
}

static void
run_flush (Builder  *b,
           RunState *run)
{
  g_autofree char *text = NULL;
  Entry entry = { 0 };

  if (!run->open)
    return;
  run->open = FALSE;
  text = cg_text_collapse (run->text->str, CG_CLUSTVX_MAX_TEXT_LENGTH);
  if (*text == '\0' || b->run_nodes->len == run->start)
    {
      g_ptr_array_set_size (b->run_nodes, run->start);
      return;
    }
  entry.is_run = TRUE;
  entry.run_start = run->start;
  entry.run_length = b->run_nodes->len - run->start;
  entry.text = g_steal_pointer (&text);
  entry.font_owner = run->many_owners ? NULL : run->font_owner;
  entry.own_text = run->own_text;
  g_array_append_val (b->entries, entry);
}

/* Reads the children of @parent into entries of the frame being built:
 * formatting elements are dissolved (merged whole into the text when they
 * hold only text, flattened otherwise), texts are gathered into runs, and
 * every other element ends the run and becomes an element entry. */
static void
scan_children (Builder    *b,
               xmlNodePtr  parent,
               RunState   *run,
               guint       level)
{
  for (xmlNodePtr child = parent->children; child != NULL; child = child->next)
    {
      Attributes attributes;
      Entry entry = { 0 };

      if (run->n_scanned > b->options.max_elements)
        return;

      if (child->type == XML_TEXT_NODE || child->type == XML_CDATA_SECTION_NODE)
        {
          run_append_text_node (b, run, child, level > 0 ? parent : NULL);
          continue;
        }
      if (child->type != XML_ELEMENT_NODE)
        continue;

      /* Children are read a level ahead of the walk that builds their
       * views, which counts the elements; an element with more children
       * than may be read at all is not read further. */
      if (++run->n_scanned > b->options.max_elements)
        {
          b->truncated = TRUE;
          return;
        }

      switch (classify_element (child))
        {
        case ELEMENT_DROPPED:
        case ELEMENT_IGNORED:
          continue;

        case ELEMENT_FORMATTING:
          read_attributes (b, child, &attributes);
          if (attributes.hidden || !attributes.visible)
            continue;
          if (formatting_is_simple (child, 0))
            {
              gsize before;

              run_open (b, run);
              g_ptr_array_add (b->run_nodes, child);
              before = run->text->len;
              append_formatting_text (b, run, child, level + 1);
              if (has_text (run->text->str + before))
                {
                  if (run->font_owner == NULL)
                    run->font_owner = child;
                  else if (run->font_owner != child)
                    run->many_owners = TRUE;
                }
              continue;
            }
          if (level < MAX_FLATTEN)
            {
              scan_children (b, child, run, level + 1);
              continue;
            }
          break;

        case ELEMENT_NORMAL:
        default:
          read_attributes (b, child, &attributes);
          if (attributes.hidden)
            continue;
          break;
        }

      run_flush (b, run);
      entry.is_run = FALSE;
      entry.element = child;
      entry.attributes = attributes;
      g_array_append_val (b->entries, entry);
    }
}

static guint
intern_path (Builder    *b,
             guint       parent,
             const char *name)
{
  char *key = g_strdup_printf ("%u/%s", parent, name);
  gpointer value = g_hash_table_lookup (b->paths, key);
  guint id;

  if (value != NULL)
    {
      g_free (key);
      return GPOINTER_TO_UINT (value) - 1;
    }
  id = g_hash_table_size (b->paths);
  g_hash_table_insert (b->paths, key, GUINT_TO_POINTER (id + 1));
  return id;
}

static const char *
element_name (Builder    *b,
              xmlNodePtr  element)
{
  const char *name = (const char *) element->name;

  if (name == NULL)
    return "";
  for (const char *p = name; *p != '\0'; p++)
    if (g_ascii_isupper (*p))
      {
        g_autofree char *lower = g_ascii_strdown (name, -1);

        return g_string_chunk_insert_const (b->strings, lower);
      }
  return name;
}

static guint
add_content (Builder    *b,
             guint       view,
             char       *text,
             gboolean    image)
{
  Content content = { view, NO_NODE, text, image };

  g_array_append_val (b->contents, content);
  return b->contents->len - 1;
}

static guint
add_view (Builder    *b,
          guint       parent,
          xmlNodePtr  xml,
          const char *name,
          gboolean    is_text)
{
  View view = { 0 };
  const View *up = parent != NO_NODE ? &g_array_index (b->views, View, parent) : NULL;

  view.xml = xml;
  view.name = name;
  view.fontdata = "";
  view.left = view.top = view.width = view.height = -1;
  view.parent = parent;
  view.depth = up != NULL ? up->depth + 1 : 0;
  view.path = intern_path (b, up != NULL ? up->path : NO_NODE, name);
  view.content = NO_NODE;
  view.content_start = view.content_end = b->contents->len;
  view.run_start = view.run_length = 0;
  view.is_text = is_text;
  view.visible = TRUE;
  g_array_append_val (b->views, view);
  return b->views->len - 1;
}

static gboolean
is_tracking_pixel (Builder    *b,
                   xmlNodePtr  image,
                   const View *view)
{
  if (b->rendered && view->width >= 0)
    return view->width <= 1 || view->height <= 1;
  for (xmlAttrPtr a = image->properties; a != NULL; a = a->next)
    if (a->name != NULL &&
        (strcmp ((const char *) a->name, "width") == 0 ||
         strcmp ((const char *) a->name, "height") == 0))
      {
        double size = parse_number (attribute_value (b, a));

        if (size >= 0 && size <= 1)
          return TRUE;
      }
  return FALSE;
}

static const char *
image_source (Builder    *b,
              xmlNodePtr  image)
{
  const char *src = NULL;
  const char *lazy = NULL;

  for (xmlAttrPtr a = image->properties; a != NULL; a = a->next)
    {
      if (a->name == NULL)
        continue;
      if (strcmp ((const char *) a->name, "src") == 0)
        src = attribute_value (b, a);
      else if (strcmp ((const char *) a->name, "data-src") == 0)
        lazy = attribute_value (b, a);
    }
  /* Lazy loaders keep a placeholder in src until the image scrolls in. */
  if ((src == NULL || *src == '\0' || g_str_has_prefix (src, "data:")) && lazy != NULL && *lazy != '\0')
    return lazy;
  return src;
}

static const char *
get_attribute (Builder    *b,
               xmlNodePtr  element,
               const char *name)
{
  for (xmlAttrPtr a = element->properties; a != NULL; a = a->next)
    if (a->name != NULL && a->ns == NULL && strcmp ((const char *) a->name, name) == 0)
      return attribute_value (b, a);
  return NULL;
}

/* The formatting element deepest inside @owner that still holds all its
 * text: <font><b>Title</b></font> is shown in b's font. */
static xmlNodePtr
innermost_owner (xmlNodePtr owner)
{
  for (guint level = 0; level < MAX_FLATTEN; level++)
    {
      xmlNodePtr only = NULL;
      guint with_text = 0;

      for (xmlNodePtr child = owner->children; child != NULL; child = child->next)
        {
          if ((child->type == XML_TEXT_NODE || child->type == XML_CDATA_SECTION_NODE) &&
              has_text ((const char *) child->content))
            return owner;
          if (child->type == XML_ELEMENT_NODE &&
              classify_name ((const char *) child->name) == ELEMENT_FORMATTING)
            {
              g_autofree char *text = (char *) xmlNodeGetContent (child);

              if (has_text (text))
                {
                  only = child;
                  with_text++;
                }
            }
        }
      if (with_text != 1)
        return owner;
      owner = only;
    }
  return owner;
}

/* The font (and box) of a text that the pre-processing merged. The seed
 * keeps the computed font of the surviving parent; a text that is all in
 * one formatting element (<b>Price</b> between two links) keeps that
 * element's font instead, since that is what the reader sees. A plain page
 * has no fonts, so there the names of the formatting elements the text
 * sits in ("font/b") stand for its font: they are what made it bold. */
static void
merged_text_font (Builder     *b,
                  xmlNodePtr   parent,
                  xmlNodePtr   font_owner,
                  gboolean     own_text,
                  const char **fontdata,
                  double      *box)
{
  xmlNodePtr owner;

  if (font_owner == NULL || own_text)
    return;
  owner = innermost_owner (font_owner);

  if (b->rendered)
    {
      Attributes attributes;

      read_attributes (b, owner, &attributes);
      if (*attributes.fontdata != '\0')
        *fontdata = attributes.fontdata;
      if (attributes.width >= 0 && box != NULL)
        {
          box[0] = attributes.left;
          box[1] = attributes.top;
          box[2] = attributes.width;
          box[3] = attributes.height;
        }
    }
  else
    {
      g_autoptr(GPtrArray) names = g_ptr_array_new ();
      g_autoptr(GString) chain = g_string_new (NULL);

      for (xmlNodePtr n = owner; n != NULL && n != parent && names->len < MAX_FLATTEN; n = n->parent)
        g_ptr_array_add (names, (gpointer) (n->name != NULL ? (const char *) n->name : ""));
      for (guint i = names->len; i > 0; i--)
        {
          if (chain->len > 0)
            g_string_append_c (chain, '/');
          g_string_append (chain, g_ptr_array_index (names, i - 1));
        }
      *fontdata = g_string_chunk_insert_const (b->strings, chain->str);
    }
}

typedef struct {
  guint view;
  guint entries_start;
  guint entries_end;
  guint next;
} Frame;

/* Builds the view of the element entry @entry under @parent and reads its
 * children into new entries; returns the frame that walks them. */
static Frame
open_frame (Builder     *b,
            guint        parent,
            const Entry *entry)
{
  Frame frame;
  RunState run = { 0 };
  guint view_index;
  View *view;
  guint n_elements = 0, n_runs = 0;
  gboolean leaf_depth;

  view_index = add_view (b, parent, entry->element, element_name (b, entry->element), FALSE);
  view = &g_array_index (b->views, View, view_index);
  view->fontdata = entry->attributes.fontdata;
  view->left = entry->attributes.left;
  view->top = entry->attributes.top;
  view->width = entry->attributes.width;
  view->height = entry->attributes.height;
  view->visible = entry->attributes.visible;
  leaf_depth = view->depth >= MAX_DEPTH;

  frame.view = view_index;
  frame.entries_start = b->entries->len;
  if (!leaf_depth)
    {
      run.text = g_string_new (NULL);
      scan_children (b, entry->element, &run, 0);
      run_flush (b, &run);
      g_string_free (run.text, TRUE);
    }
  frame.entries_end = b->entries->len;
  frame.next = frame.entries_start;

  for (guint i = frame.entries_start; i < frame.entries_end; i++)
    {
      if (g_array_index (b->entries, Entry, i).is_run)
        n_runs++;
      else
        n_elements++;
    }

  view = &g_array_index (b->views, View, view_index);
  if (n_elements == 0 && n_runs == 1)
    {
      /* The element owns its text: it is the content element itself, and
       * no span is needed. */
      Entry *only = &g_array_index (b->entries, Entry, frame.entries_start);

      merged_text_font (b, view->xml, only->font_owner, only->own_text, &view->fontdata, NULL);
      if (view->visible)
        view->content = add_content (b, view_index, g_steal_pointer (&only->text), FALSE);
      g_clear_pointer (&only->text, g_free);
      frame.next = frame.entries_end;
    }
  else if (n_elements == 0 && n_runs == 0 && strcmp (view->name, "img") == 0 &&
           view->visible && !is_tracking_pixel (b, entry->element, view))
    {
      const char *alt = get_attribute (b, entry->element, "alt");
      const char *src = image_source (b, entry->element);

      if (src != NULL && *src != '\0')
        view->content = add_content (b, view_index, cg_text_collapse (alt, CG_CLUSTVX_MAX_TEXT_LENGTH), TRUE);
    }
  return frame;
}

static void
add_text_view (Builder *b,
               guint    parent,
               Entry   *entry)
{
  const View *up = &g_array_index (b->views, View, parent);
  gboolean visible = up->visible;
  const char *fontdata = up->fontdata;
  double box[4] = { up->left, up->top, up->width, up->height };
  double left, top, width, height;
  guint index;
  View *view;

  merged_text_font (b, up->xml, entry->font_owner, entry->own_text, &fontdata, box);
  left = box[0];
  top = box[1];
  width = box[2];
  height = box[3];

  index = add_view (b, parent, g_ptr_array_index (b->run_nodes, entry->run_start), "#text", TRUE);
  view = &g_array_index (b->views, View, index);
  view->fontdata = fontdata;
  view->left = left;
  view->top = top;
  view->width = width;
  view->height = height;
  view->visible = visible;
  view->run_start = entry->run_start;
  view->run_length = entry->run_length;
  if (visible)
    view->content = add_content (b, index, g_steal_pointer (&entry->text), FALSE);
  g_clear_pointer (&entry->text, g_free);
  view->end = index + 1;
  view->content_end = b->contents->len;
}

static void
build_view (Builder *b)
{
  xmlNodePtr root = xmlDocGetRootElement (b->doc);
  g_autoptr(GArray) frames = g_array_new (FALSE, FALSE, sizeof (Frame));
  Entry root_entry = { 0 };
  Frame frame;

  b->n_elements = 1;
  root_entry.element = root;
  read_attributes (b, root, &root_entry.attributes);
  root_entry.attributes.hidden = FALSE;
  frame = open_frame (b, NO_NODE, &root_entry);
  g_array_append_val (frames, frame);

  while (frames->len > 0)
    {
      Frame *top = &g_array_index (frames, Frame, frames->len - 1);

      if (top->next < top->entries_end)
        {
          Entry *entry = &g_array_index (b->entries, Entry, top->next);
          guint parent = top->view;

          top->next++;
          if (entry->is_run)
            add_text_view (b, parent, entry);
          else if (b->n_elements >= b->options.max_elements)
            {
              /* The rest of the page is not read: every open frame
               * closes without opening another. */
              b->truncated = TRUE;
              top->next = top->entries_end;
            }
          else
            {
              Entry copy = *entry;
              Frame child;

              b->n_elements++;
              child = open_frame (b, parent, &copy);
              g_array_append_val (frames, child);
            }
          continue;
        }

      /* The frame is done: its entries leave the shared stack. */
      {
        View *view = &g_array_index (b->views, View, top->view);

        view->end = b->views->len;
        view->content_end = b->contents->len;
        for (guint i = top->entries_start; i < b->entries->len; i++)
          g_free (g_array_index (b->entries, Entry, i).text);
        g_array_set_size (b->entries, top->entries_start);
        g_array_set_size (frames, frames->len - 1);
      }
    }
}

/* Clustering */

static void
cluster_free (Cluster *cluster)
{
  g_array_unref (cluster->members);
  g_free (cluster);
}

static guint
ancestor_at_depth (Builder *b,
                   guint    node,
                   guint    depth)
{
  const View *view = &g_array_index (b->views, View, node);

  while (view->depth > depth && view->parent != NO_NODE)
    {
      node = view->parent;
      view = &g_array_index (b->views, View, node);
    }
  return node;
}

static guint
common_ancestor (Builder *b,
                 guint    a,
                 guint    c)
{
  guint da = g_array_index (b->views, View, a).depth;
  guint dc = g_array_index (b->views, View, c).depth;

  if (da > dc)
    a = ancestor_at_depth (b, a, dc);
  else if (dc > da)
    c = ancestor_at_depth (b, c, da);
  while (a != c)
    {
      a = g_array_index (b->views, View, a).parent;
      c = g_array_index (b->views, View, c).parent;
      if (a == NO_NODE || c == NO_NODE)
        return 0;
    }
  return a;
}

static void
cluster_contents (Builder *b)
{
  g_autoptr(GHashTable) by_key = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GHashTable) fonts = g_hash_table_new (g_str_hash, g_str_equal);
  GPtrArray *all = g_ptr_array_new_with_free_func ((GDestroyNotify) cluster_free);

  for (guint i = 0; i < b->contents->len; i++)
    {
      Content *content = &g_array_index (b->contents, Content, i);
      const View *view = &g_array_index (b->views, View, content->view);
      gpointer font_id = g_hash_table_lookup (fonts, view->fontdata);
      char key[64];
      Cluster *cluster;

      if (font_id == NULL)
        {
          font_id = GUINT_TO_POINTER (g_hash_table_size (fonts) + 1);
          g_hash_table_insert (fonts, (gpointer) view->fontdata, font_id);
        }
      /* The Xstring is the tag path and the fontdata; both are interned,
       * so their ids stand for them. */
      g_snprintf (key, sizeof key, "%u-%u", view->path, GPOINTER_TO_UINT (font_id));
      cluster = g_hash_table_lookup (by_key, key);
      if (cluster == NULL)
        {
          cluster = g_new0 (Cluster, 1);
          cluster->members = g_array_new (FALSE, FALSE, sizeof (guint));
          cluster->lcp = NO_NODE;
          g_ptr_array_add (all, cluster);
          g_hash_table_insert (by_key, g_strdup (key), cluster);
        }
      g_array_append_val (cluster->members, i);
    }

  /* Only repeated Xstrings signal records. */
  b->clusters = g_ptr_array_new_with_free_func ((GDestroyNotify) cluster_free);
  for (guint i = 0; i < all->len; i++)
    {
      Cluster *cluster = g_ptr_array_index (all, i);

      if (cluster->members->len < 2)
        continue;
      g_ptr_array_index (all, i) = NULL;
      for (guint m = 0; m < cluster->members->len; m++)
        {
          guint content = g_array_index (cluster->members, guint, m);
          guint view = g_array_index (b->contents, Content, content).view;

          g_array_index (b->contents, Content, content).cluster = b->clusters->len;
          cluster->lcp = cluster->lcp == NO_NODE
            ? g_array_index (b->views, View, view).parent
            : common_ancestor (b, cluster->lcp, view);
        }
      g_ptr_array_add (b->clusters, cluster);
    }
  g_ptr_array_set_free_func (all, NULL);
  for (guint i = 0; i < all->len; i++)
    if (g_ptr_array_index (all, i) != NULL)
      cluster_free (g_ptr_array_index (all, i));
  g_ptr_array_unref (all);
}

/* XPaths of the input document */

static gboolean
is_xpath_name (const char *name)
{
  if (name == NULL || !(g_ascii_isalpha (name[0]) || name[0] == '_'))
    return FALSE;
  for (const char *p = name; *p != '\0'; p++)
    if (!(g_ascii_isalnum (*p) || *p == '_' || *p == '-' || *p == '.'))
      return FALSE;
  return TRUE;
}

static gboolean
is_text_node (xmlNodePtr node)
{
  return node->type == XML_TEXT_NODE || node->type == XML_CDATA_SECTION_NODE;
}

/* Numbers the children of @parent once, as XPath counts them: elements
 * among the elements of the same name (or among all elements, for names
 * an XPath cannot spell), texts among the texts. */
static void
number_children (Builder    *b,
                 xmlNodePtr  parent)
{
  g_autoptr(GHashTable) counts = g_hash_table_new (g_str_hash, g_str_equal);
  guint texts = 0, elements = 0;

  for (xmlNodePtr child = parent->children; child != NULL; child = child->next)
    {
      guint position;

      if (is_text_node (child))
        position = ++texts;
      else if (child->type == XML_ELEMENT_NODE)
        {
          const char *name = (const char *) child->name;

          elements++;
          if (is_xpath_name (name))
            {
              position = GPOINTER_TO_UINT (g_hash_table_lookup (counts, name)) + 1;
              g_hash_table_insert (counts, (gpointer) name, GUINT_TO_POINTER (position));
            }
          else
            position = elements;
        }
      else
        continue;
      g_hash_table_insert (b->positions, child, GUINT_TO_POINTER (position));
    }
}

static const char *
node_xpath (Builder    *b,
            xmlNodePtr  node)
{
  const char *known = g_hash_table_lookup (b->xpaths, node);
  g_autoptr(GPtrArray) chain = g_ptr_array_new ();
  const char *prefix = "";

  if (known != NULL)
    return known;

  /* Climbs to the nearest ancestor whose path is known, then builds the
   * paths down from it, so that no recursion is needed. */
  for (xmlNodePtr n = node; n != NULL && n->type != XML_DOCUMENT_NODE &&
       n->type != XML_HTML_DOCUMENT_NODE; n = n->parent)
    {
      const char *path = g_hash_table_lookup (b->xpaths, n);

      if (path != NULL)
        {
          prefix = path;
          break;
        }
      g_ptr_array_add (chain, n);
    }

  for (guint i = chain->len; i > 0; i--)
    {
      xmlNodePtr n = g_ptr_array_index (chain, i - 1);
      guint position;
      char *path;

      if (!g_hash_table_contains (b->positions, n))
        {
          if (n->parent != NULL)
            number_children (b, n->parent);
        }
      position = GPOINTER_TO_UINT (g_hash_table_lookup (b->positions, n));
      if (position == 0)
        position = 1;
      if (is_text_node (n))
        path = g_strdup_printf ("%s/text()[%u]", prefix, position);
      else if (is_xpath_name ((const char *) n->name))
        path = g_strdup_printf ("%s/%s[%u]", prefix, (const char *) n->name, position);
      else
        path = g_strdup_printf ("%s/*[%u]", prefix, position);
      g_hash_table_insert (b->xpaths, n, path);
      prefix = path;
    }
  return prefix;
}

static char *
view_xpath (Builder *b,
            guint    index)
{
  const View *view = &g_array_index (b->views, View, index);
  GString *out;

  if (!view->is_text || view->run_length <= 1)
    return g_strdup (node_xpath (b, view->xml));

  out = g_string_new (NULL);
  for (guint i = 0; i < view->run_length; i++)
    {
      xmlNodePtr node = g_ptr_array_index (b->run_nodes, view->run_start + i);

      if (i > 0)
        g_string_append (out, " | ");
      g_string_append (out, node_xpath (b, node));
    }
  return g_string_free (out, FALSE);
}

static void
view_nodes (Builder   *b,
            guint      index,
            GPtrArray *out)
{
  const View *view = &g_array_index (b->views, View, index);

  if (!view->is_text)
    {
      g_ptr_array_add (out, view->xml);
      return;
    }
  for (guint i = 0; i < view->run_length; i++)
    g_ptr_array_add (out, g_ptr_array_index (b->run_nodes, view->run_start + i));
}

/* Items */

static GRegex *
price_regex (void)
{
  static gsize initialised = 0;
  static GRegex *regex = NULL;

  if (g_once_init_enter (&initialised))
    {
      const char *currency = "(?:[$£€¥₹₽₩₪₫฿¢]|\\b(?:USD|EUR|GBP|JPY|CHF|CAD|AUD|NZD|SEK|NOK|"
                             "DKK|PLN|CZK|HUF|INR|RUB|BRL|CNY|MXN|ZAR|TRY|RON|Rs\\.?|kr|zł|Kč)\\b)";
      g_autofree char *pattern =
        g_strdup_printf ("%s\\s?\\d|\\d\\s?%s", currency, currency);

      regex = g_regex_new (pattern, G_REGEX_OPTIMIZE | G_REGEX_CASELESS, 0, NULL);
      g_once_init_leave (&initialised, 1);
    }
  return regex;
}

static GRegex *
date_regex (void)
{
  static gsize initialised = 0;
  static GRegex *regex = NULL;

  if (g_once_init_enter (&initialised))
    {
      const char *month = "(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\\.?";
      g_autofree char *pattern = g_strdup_printf (
        "\\b\\d{4}-\\d{1,2}-\\d{1,2}\\b"
        "|\\b\\d{1,2}[./]\\d{1,2}[./](?:\\d{4}|\\d{2})\\b"
        "|\\b\\d{1,2}(?:st|nd|rd|th)?\\s+%s,?\\s+\\d{4}\\b"
        "|\\b%s\\s+\\d{1,2}(?:st|nd|rd|th)?,?\\s+\\d{4}\\b"
        "|\\b%s\\s+\\d{4}\\b",
        month, month, month);

      regex = g_regex_new (pattern, G_REGEX_OPTIMIZE | G_REGEX_CASELESS, 0, NULL);
      g_once_init_leave (&initialised, 1);
    }
  return regex;
}

CgClustvxItemKind
cg_clustvx_text_kind (const char *text)
{
  gsize length;

  g_return_val_if_fail (text != NULL, CG_CLUSTVX_ITEM_TEXT);

  length = strlen (text);
  if (length <= MAX_KIND_TEXT && g_regex_match (price_regex (), text, 0, NULL))
    return CG_CLUSTVX_ITEM_PRICE;
  if (length <= MAX_KIND_TEXT && g_regex_match (date_regex (), text, 0, NULL))
    return CG_CLUSTVX_ITEM_DATE;
  return CG_CLUSTVX_ITEM_TEXT;
}

static xmlNodePtr
enclosing_link (xmlNodePtr node)
{
  for (xmlNodePtr n = node; n != NULL && n->type != XML_DOCUMENT_NODE &&
       n->type != XML_HTML_DOCUMENT_NODE; n = n->parent)
    if (n->type == XML_ELEMENT_NODE && n->name != NULL &&
        g_ascii_strcasecmp ((const char *) n->name, "a") == 0 &&
        xmlHasProp (n, (const xmlChar *) "href") != NULL)
      return n;
  return NULL;
}

static char *
resolve (Builder    *b,
         const char *reference)
{
  if (b->base == NULL || reference == NULL || *reference == '\0')
    return NULL;
  return cg_url_resolve_uri (b->base, reference, CG_URL_NORMALIZE_SYNTAX, NULL);
}

static CgClustvxItem *
make_item (Builder *b,
           guint    content_index)
{
  const Content *content = &g_array_index (b->contents, Content, content_index);
  const View *view = &g_array_index (b->views, View, content->view);
  CgClustvxItem *item = g_new0 (CgClustvxItem, 1);
  xmlNodePtr link;

  item->text = g_strdup (content->text);
  item->xpath = view_xpath (b, content->view);
  item->fontdata = g_strdup (view->fontdata);
  item->node = view->xml;
  item->last_node = view->is_text && view->run_length > 0
    ? g_ptr_array_index (b->run_nodes, view->run_start + view->run_length - 1)
    : view->xml;
  item->left = view->left;
  item->top = view->top;
  item->width = view->width;
  item->height = view->height;

  link = enclosing_link (view->xml);
  if (link != NULL)
    {
      const char *href = get_attribute (b, link, "href");

      if (href != NULL)
        item->href = g_strstrip (g_strdup (href));
    }

  if (content->image)
    {
      const char *src = image_source (b, view->xml);

      item->kind = CG_CLUSTVX_ITEM_IMAGE;
      item->src = src != NULL ? g_strstrip (g_strdup (src)) : NULL;
      item->url = resolve (b, item->src);
    }
  else
    {
      /* A price or a date first, even inside a link; then a <time>. */
      item->kind = cg_clustvx_text_kind (item->text);
      if (item->kind == CG_CLUSTVX_ITEM_TEXT && !view->is_text && strcmp (view->name, "time") == 0)
        item->kind = CG_CLUSTVX_ITEM_DATE;
      if (item->kind == CG_CLUSTVX_ITEM_TEXT && item->href != NULL)
        item->kind = CG_CLUSTVX_ITEM_LINK;
      item->url = resolve (b, item->href);
    }
  return item;
}

/* The tag path of @node below @base, "h3/a"; "" when they are the same. */
static char *
relative_tag_path (Builder *b,
                   guint    base,
                   guint    node)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  GString *out = g_string_new (NULL);

  for (guint n = node; n != base && n != NO_NODE; n = g_array_index (b->views, View, n).parent)
    g_ptr_array_add (names, (gpointer) g_array_index (b->views, View, n).name);
  for (guint i = names->len; i > 0; i--)
    {
      if (out->len > 0)
        g_string_append_c (out, '/');
      g_string_append (out, g_ptr_array_index (names, i - 1));
    }
  return g_string_free (out, FALSE);
}

/* Regions */

typedef struct {
  guint      lcp;
  GArray    *clusters;   /* guint cluster indices */
} Candidate;

static void
candidate_free (Candidate *candidate)
{
  g_array_unref (candidate->clusters);
  g_free (candidate);
}

typedef struct {
  guint start;   /* view node: the record element, or the first sibling of the run */
  guint last;    /* view node: the same, or the last sibling of the run */
} Span;

/* The attributes a child of the region holds: the tag paths from the
 * region element down to its items, with their fonts. */
static GHashTable *
child_signature (Builder    *b,
                 guint       lcp,
                 guint       child,
                 GHashTable *cache)
{
  GHashTable *keys = g_hash_table_lookup (cache, GUINT_TO_POINTER (child));
  const View *view;

  if (keys != NULL)
    return keys;
  keys = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  view = &g_array_index (b->views, View, child);
  for (guint c = view->content_start; c < view->content_end; c++)
    {
      guint item = g_array_index (b->contents, Content, c).view;
      g_autofree char *path = relative_tag_path (b, lcp, item);

      g_hash_table_add (keys, g_strdup_printf ("%s|%s", path, g_array_index (b->views, View, item).fontdata));
    }
  g_hash_table_insert (cache, GUINT_TO_POINTER (child), keys);
  return keys;
}

double
cg_clustvx_jaccard (GHashTable *a,
                    GHashTable *b)
{
  GHashTableIter iter;
  gpointer key;
  guint common = 0, all;

  g_return_val_if_fail (a != NULL && b != NULL, 0);

  g_hash_table_iter_init (&iter, a);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    common += g_hash_table_contains (b, key);
  all = g_hash_table_size (a) + g_hash_table_size (b) - common;
  return all > 0 ? (double) common / all : 1;
}

typedef struct {
  guint  cluster;
  guint  members;
  guint  first;       /* content index of its first member */
  double top, left;   /* of its visually first member; -1 in plain mode */
} StartCandidate;

static int
compare_start_candidates (gconstpointer a,
                          gconstpointer c)
{
  const StartCandidate *x = a, *y = c;

  if (x->members != y->members)
    return x->members > y->members ? -1 : 1;
  if (x->top != y->top)
    return x->top < y->top ? -1 : 1;
  if (x->left != y->left)
    return x->left < y->left ? -1 : 1;
  return x->first < y->first ? -1 : (x->first > y->first);
}

/* Type B: the records are runs of the region element's children, each
 * run from a child that holds an item of the start cluster to the next
 * such child (seed 003's tree hopping), as with <dt> and <dd>, a title, a
 * link and a score separated by <br>, or a row and its details row.
 *
 * The seed's decision between the two types was lost with its Fig. 2.10.
 * Here a region is of type B when some cluster with one member per child
 * (the start cluster) leaves gaps between its children, and most gaps
 * hold other children with items that do not look like the start
 * children (their attributes, tag paths and fonts, are mostly different):
 * then a record spans several children. When every child holds a start
 * item, or the children in the gaps are records like the others (a list
 * where every other record has an optional badge), every child is a
 * record: type A, and this returns FALSE. The seed takes the cluster of
 * the visually first item as the start; here the clusters are tried from
 * the one with the most members, then the visually first, so that an
 * optional item shown before a record's title does not start a record. */
static gboolean
segment_type_b (Builder   *b,
                Candidate *candidate,
                GArray    *spans)
{
  guint lcp = candidate->lcp;
  guint child_depth = g_array_index (b->views, View, lcp).depth + 1;
  guint lcp_end = g_array_index (b->views, View, lcp).end;
  g_autoptr(GHashTable) holders = g_hash_table_new (NULL, NULL);
  g_autoptr(GHashTable) signatures = g_hash_table_new_full (NULL, NULL, NULL,
                                                            (GDestroyNotify) g_hash_table_unref);
  g_autoptr(GArray) starts_of = g_array_new (FALSE, FALSE, sizeof (StartCandidate));
  g_autoptr(GHashTable) starts = NULL;
  guint last_holder = 0;
  gsize n_items = 0;

  if (candidate->clusters->len < 2)
    return FALSE;

  for (guint c = 0; c < candidate->clusters->len; c++)
    {
      guint cluster_index = g_array_index (candidate->clusters, guint, c);
      Cluster *cluster = g_ptr_array_index (b->clusters, cluster_index);
      g_autoptr(GHashTable) own = g_hash_table_new (NULL, NULL);
      StartCandidate start = { cluster_index, cluster->members->len, G_MAXUINT, -1, -1 };
      gboolean unique = TRUE;

      for (guint m = 0; m < cluster->members->len; m++)
        {
          guint content = g_array_index (cluster->members, guint, m);
          const View *view = &g_array_index (b->views, View, g_array_index (b->contents, Content, content).view);
          guint child = ancestor_at_depth (b, g_array_index (b->contents, Content, content).view, child_depth);

          g_hash_table_add (holders, GUINT_TO_POINTER (child));
          last_holder = MAX (last_holder, child);
          if (!g_hash_table_add (own, GUINT_TO_POINTER (child)))
            unique = FALSE;
          start.first = MIN (start.first, content);
          if (b->rendered && view->top >= 0 &&
              (start.top < 0 || view->top < start.top || (view->top == start.top && view->left < start.left)))
            {
              start.top = view->top;
              start.left = view->left;
            }
        }
      if (unique && cluster->members->len >= 2)
        g_array_append_val (starts_of, start);
    }
  g_array_sort (starts_of, compare_start_candidates);

  /* A few candidates are enough: the start cluster is among the most
   * frequent ones. */
  for (guint s = 0; s < starts_of->len && s < 8 && starts == NULL; s++)
    {
      Cluster *cluster = g_ptr_array_index (b->clusters, g_array_index (starts_of, StartCandidate, s).cluster);
      g_autoptr(GHashTable) these = g_hash_table_new (NULL, NULL);
      guint n_gaps = 0, filled = 0, start_child = NO_NODE;
      gboolean in_gap = FALSE, gap_filled = FALSE;

      for (guint m = 0; m < cluster->members->len; m++)
        {
          guint view = g_array_index (b->contents, Content, g_array_index (cluster->members, guint, m)).view;

          g_hash_table_add (these, GUINT_TO_POINTER (ancestor_at_depth (b, view, child_depth)));
        }

      for (guint child = lcp + 1; child < lcp_end && child <= last_holder;
           child = g_array_index (b->views, View, child).end)
        {
          if (g_hash_table_contains (these, GUINT_TO_POINTER (child)))
            {
              if (in_gap)
                {
                  n_gaps++;
                  filled += gap_filled;
                }
              in_gap = TRUE;
              gap_filled = FALSE;
              start_child = child;
            }
          else if (in_gap && !gap_filled && g_hash_table_contains (holders, GUINT_TO_POINTER (child)) &&
                   cg_clustvx_jaccard (child_signature (b, lcp, child, signatures),
                                       child_signature (b, lcp, start_child, signatures)) < 0.5)
            gap_filled = TRUE;
        }
      /* The last record's gap runs to the last holder. */
      if (in_gap)
        {
          n_gaps++;
          filled += gap_filled;
        }
      /* A record spans a few children, not a page's worth: the start
       * cluster must be about as frequent as the records. */
      if (g_hash_table_size (these) >= 2 && n_gaps > 0 && 2 * filled >= n_gaps &&
          TYPE_B_MAX_CHILDREN * g_hash_table_size (these) >= g_hash_table_size (holders) &&
          3 * cluster->members->len >= g_array_index (starts_of, StartCandidate, 0).members)
        starts = g_steal_pointer (&these);
    }
  if (starts == NULL)
    return FALSE;

  for (guint child = lcp + 1; child < lcp_end && child <= last_holder;
       child = g_array_index (b->views, View, child).end)
    {
      if (g_hash_table_contains (starts, GUINT_TO_POINTER (child)))
        {
          Span span = { child, child };

          g_array_append_val (spans, span);
        }
      else if (spans->len > 0)
        g_array_index (spans, Span, spans->len - 1).last = child;
    }

  /* Records made from one template have the same shape: the same run of
   * children with items ("h3 p span"). Runs of every length are a list of
   * records of several kinds (articles and videos), type A. */
  {
    g_autoptr(GHashTable) shapes = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
    guint most = 0;

    for (guint i = 0; i < spans->len; i++)
      {
        const Span *span = &g_array_index (spans, Span, i);
        GString *shape = g_string_new (NULL);
        guint count;

        n_items += g_array_index (b->views, View, span->last).content_end -
                   g_array_index (b->views, View, span->start).content_start;
        for (guint child = span->start; child <= span->last; child = g_array_index (b->views, View, child).end)
          if (g_hash_table_contains (holders, GUINT_TO_POINTER (child)))
            g_string_append_printf (shape, "%s ", g_array_index (b->views, View, child).name);
        count = GPOINTER_TO_UINT (g_hash_table_lookup (shapes, shape->str)) + 1;
        most = MAX (most, count);
        g_hash_table_insert (shapes, g_string_free (shape, FALSE), GUINT_TO_POINTER (count));
      }
    if (spans->len < 2 || (double) n_items / spans->len < TYPE_B_MIN_ITEMS ||
        most < TYPE_B_MIN_SAME_SHAPE * spans->len)
      {
        g_array_set_size (spans, 0);
        return FALSE;
      }
  }
  return TRUE;
}

/* The nodes at @depth that hold members of the candidate's clusters, and
 * the mean number of distinct clusters per node; @coverage is the largest
 * share of those nodes that one cluster with at most one member per node
 * covers (0 when no cluster has one member per node), and @mostly_single
 * says whether at least half of the clusters have at most one member per
 * node; @max_clusters is the most clusters that have two members or more
 * inside one node. */
static guint
level_nodes (Builder   *b,
             Candidate *candidate,
             guint      depth,
             double    *coverage,
             gboolean  *mostly_single,
             double    *clusters_per_node,
             guint     *max_clusters)
{
  g_autoptr(GHashTable) nodes = g_hash_table_new (NULL, NULL);
  guint pairs = 0, best = 0, n_single = 0, n_multiple = 0;

  *max_clusters = 0;

  for (guint c = 0; c < candidate->clusters->len; c++)
    {
      Cluster *cluster = g_ptr_array_index (b->clusters, g_array_index (candidate->clusters, guint, c));
      g_autoptr(GHashTable) own = g_hash_table_new (NULL, NULL);
      gboolean unique = TRUE;
      guint first_view = g_array_index (b->contents, Content, g_array_index (cluster->members, guint, 0)).view;

      /* Members of one cluster all have the same depth. */
      if (g_array_index (b->views, View, first_view).depth < depth)
        continue;
      for (guint m = 0; m < cluster->members->len; m++)
        {
          guint view = g_array_index (b->contents, Content, g_array_index (cluster->members, guint, m)).view;
          gpointer node = GUINT_TO_POINTER (ancestor_at_depth (b, view, depth));

          guint seen = GPOINTER_TO_UINT (g_hash_table_lookup (own, node));

          g_hash_table_insert (own, node, GUINT_TO_POINTER (seen + 1));
          if (seen == 0)
            pairs++;
          else
            unique = FALSE;
          /* A node where this cluster has a second member holds a list
           * of its own. */
          if (seen == 1)
            {
              guint n = GPOINTER_TO_UINT (g_hash_table_lookup (nodes, node)) + 1;

              g_hash_table_insert (nodes, node, GUINT_TO_POINTER (n));
              *max_clusters = MAX (*max_clusters, n);
            }
          else
            g_hash_table_insert (nodes, node, g_hash_table_lookup (nodes, node));
        }
      if (unique)
        {
          best = MAX (best, cluster->members->len);
          n_single++;
        }
      else
        n_multiple++;
    }
  *mostly_single = n_single >= n_multiple;
  *coverage = g_hash_table_size (nodes) > 0 ? (double) best / g_hash_table_size (nodes) : 0;
  *clusters_per_node = g_hash_table_size (nodes) > 0 ? (double) pairs / g_hash_table_size (nodes) : 0;
  return g_hash_table_size (nodes);
}

/* Type A: the records are the nodes at one level below the region element.
 * The seed takes the first level after the prefix whose index varies,
 * which is the region element's children. A child may hold several
 * records, though: the rows of a grid hold cells, the columns of a
 * masonry layout hold cards. A level is taken as the records' level when
 * at least half of the region’s clusters have one member per node there,
 * as a record has one title and one price (a multi-valued attribute, the
 * lines of an address, may have several), and one of them is in at least
 * half of the nodes. Otherwise the records are sought one level deeper,
 * as long as the deeper nodes still look like records, holding items of
 * at least two clusters each on average (otherwise a record whose two
 * texts share an Xstring, <li><span>Fiction</span><span>60
 * books</span></li> on a plain page, would be cut in two), or as long as
 * one of them holds lists of its own, three clusters or more with two
 * members or more inside it: results shown in sections, each a heading
 * and a table, whose rows are the records, and whose row clusters span
 * the sections. The lists of a box of grouped records (see
 * split_type_a ()) can take the search past the level of the other
 * records, down to their fields when the fields share an Xstring (a
 * company and a place, both spans, one member per span): once a level
 * has had a cluster with one member in at least half of its nodes (a
 * title per record), a deeper level whose nodes hold fewer than two
 * clusters each on average is no records' level. When the search ends
 * without such a level, the seed's level is taken. */
static guint
record_depth_type_a (Builder   *b,
                     Candidate *candidate)
{
  guint lcp_depth = g_array_index (b->views, View, candidate->lcp).depth;
  gboolean defined_above = FALSE;

  for (guint depth = lcp_depth + 1; depth < lcp_depth + 64; depth++)
    {
      double coverage, per_node, deeper_coverage, deeper_per_node;
      gboolean single, deeper_single;
      guint most, deeper_most;

      level_nodes (b, candidate, depth, &coverage, &single, &per_node, &most);
      if (single && coverage >= 0.5)
        {
          if (depth > lcp_depth + 1 && per_node < 2 && defined_above)
            break;
          return depth;
        }
      if (coverage >= 0.5)
        defined_above = TRUE;
      if (level_nodes (b, candidate, depth + 1, &deeper_coverage, &deeper_single, &deeper_per_node, &deeper_most) < 2 ||
          (deeper_per_node < 2 && deeper_most < 3))
        break;
    }
  return lcp_depth + 1;
}

static int
compare_uint (gconstpointer a,
              gconstpointer c)
{
  guint x = *(const guint *) a, y = *(const guint *) c;

  return x < y ? -1 : x > y;
}

/* Whether @node, one of the @nodes at @depth, is a list of its own among
 * records (see segment_type_a ()): more than half of all its items are of
 * one cluster, repeated inside it, which is found in fewer than half of
 * @nodes, and it repeats no other cluster. */
static gboolean
is_list_of_its_own (Builder    *b,
                    guint       node,
                    guint       depth,
                    GHashTable *nodes,
                    GHashTable *rare_clusters)
{
  const View *view = &g_array_index (b->views, View, node);
  g_autoptr(GHashTable) members = g_hash_table_new (NULL, NULL);
  g_autoptr(GHashTable) holders = NULL;
  GHashTableIter iter;
  gpointer key, value, rare;
  guint top = 0, top_cluster = 0, repeated = 0;
  const Cluster *cluster;

  for (guint c = view->content_start; c < view->content_end; c++)
    {
      guint id = g_array_index (b->contents, Content, c).cluster;
      gpointer k = GUINT_TO_POINTER (id);

      /* An item whose Xstring is found once in the page has no cluster. */
      if (id == NO_NODE)
        continue;
      g_hash_table_insert (members, k, GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (members, k)) + 1));
    }
  g_hash_table_iter_init (&iter, members);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      guint n = GPOINTER_TO_UINT (value);

      if (n < 2)
        continue;
      repeated++;
      if (n > top)
        {
          top = n;
          top_cluster = GPOINTER_TO_UINT (key);
        }
    }
  if (repeated != 1 || 2 * top <= view->content_end - view->content_start)
    return FALSE;

  /* Whether a cluster is found in fewer than half of @nodes is the same
   * for every node: asked once per cluster, not once per node, which on a
   * list of thousands of records would walk the cluster thousands of
   * times. */
  if (g_hash_table_lookup_extended (rare_clusters, GUINT_TO_POINTER (top_cluster), NULL, &rare))
    return GPOINTER_TO_UINT (rare);
  holders = g_hash_table_new (NULL, NULL);
  cluster = g_ptr_array_index (b->clusters, top_cluster);
  for (guint m = 0; m < cluster->members->len; m++)
    {
      guint member = g_array_index (b->contents, Content, g_array_index (cluster->members, guint, m)).view;
      gpointer holder;

      if (g_array_index (b->views, View, member).depth < depth)
        continue;
      holder = GUINT_TO_POINTER (ancestor_at_depth (b, member, depth));
      if (g_hash_table_contains (nodes, holder))
        g_hash_table_add (holders, holder);
    }
  rare = GUINT_TO_POINTER (2 * g_hash_table_size (holders) < g_hash_table_size (nodes));
  g_hash_table_insert (rare_clusters, GUINT_TO_POINTER (top_cluster), rare);
  return GPOINTER_TO_UINT (rare);
}

/* The records of a type-A region: the nodes at @depth that hold items of
 * its clusters, in document order. Below the region element's children
 * (a grid's cells, a masonry layout's cards), the containers in between
 * may hold other things than records, an advertisement or a heading in
 * each column: there only the nodes that hold an item of a record-defining
 * cluster (one member per node, in at least half of the nodes) are
 * records. At the region element's children, a node most of whose items
 * are members of one cluster repeated inside it, which fewer than half of
 * the nodes hold, and which repeats no other cluster, is a list of its
 * own among the records rather than a record: a row of page links above
 * and below the rows of a results table (whose current page, in bold,
 * may well share the Xstring of an item of the records). A box of grouped
 * records repeats several clusters and stays, to be split by
 * split_type_a (). */
static void
segment_type_a (Builder   *b,
                Candidate *candidate,
                guint      depth,
                GArray    *spans)
{
  g_autoptr(GHashTable) nodes = g_hash_table_new (NULL, NULL);
  g_autoptr(GHashTable) defined = NULL;
  g_autoptr(GHashTable) rare_clusters = g_hash_table_new (NULL, NULL);  /* cluster → is_list_of_its_own()'s answer */
  g_autoptr(GArray) order = g_array_new (FALSE, FALSE, sizeof (guint));
  gboolean deeper = depth > g_array_index (b->views, View, candidate->lcp).depth + 1;
  GHashTableIter iter;
  gpointer key;

  for (guint c = 0; c < candidate->clusters->len; c++)
    {
      Cluster *cluster = g_ptr_array_index (b->clusters, g_array_index (candidate->clusters, guint, c));

      for (guint m = 0; m < cluster->members->len; m++)
        {
          guint view = g_array_index (b->contents, Content, g_array_index (cluster->members, guint, m)).view;

          if (g_array_index (b->views, View, view).depth >= depth)
            g_hash_table_add (nodes, GUINT_TO_POINTER (ancestor_at_depth (b, view, depth)));
        }
    }

  if (deeper)
    {
      defined = g_hash_table_new (NULL, NULL);
      for (guint c = 0; c < candidate->clusters->len; c++)
        {
          Cluster *cluster = g_ptr_array_index (b->clusters, g_array_index (candidate->clusters, guint, c));
          g_autoptr(GHashTable) own = g_hash_table_new (NULL, NULL);
          gboolean unique = TRUE;
          guint first_view = g_array_index (b->contents, Content, g_array_index (cluster->members, guint, 0)).view;

          if (g_array_index (b->views, View, first_view).depth < depth)
            continue;
          for (guint m = 0; m < cluster->members->len && unique; m++)
            {
              guint view = g_array_index (b->contents, Content, g_array_index (cluster->members, guint, m)).view;

              unique = g_hash_table_add (own, GUINT_TO_POINTER (ancestor_at_depth (b, view, depth)));
            }
          if (!unique || 2 * cluster->members->len < g_hash_table_size (nodes))
            continue;
          g_hash_table_iter_init (&iter, own);
          while (g_hash_table_iter_next (&iter, &key, NULL))
            g_hash_table_add (defined, key);
        }
    }

  g_hash_table_iter_init (&iter, nodes);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    {
      guint node = GPOINTER_TO_UINT (key);

      if (defined != NULL && !g_hash_table_contains (defined, key))
        continue;
      if (!deeper && is_list_of_its_own (b, node, depth, nodes, rare_clusters))
        continue;
      g_array_append_val (order, node);
    }
  /* View indices are in document order. */
  g_array_sort (order, compare_uint);
  for (guint i = 0; i < order->len; i++)
    {
      Span span = { g_array_index (order, guint, i), g_array_index (order, guint, i) };

      g_array_append_val (spans, span);
    }
}

static int
compare_spans (gconstpointer a,
               gconstpointer c)
{
  const Span *x = a, *y = c;

  return x->start < y->start ? -1 : x->start > y->start;
}

/* The items below @node as column keys: their tag paths below it, their
 * fonts and their occurrence (see cg-clustvx.h). */
static GHashTable *
node_attributes (Builder *b,
                 guint    node)
{
  GHashTable *keys = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GHashTable) occurrences = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  const View *view = &g_array_index (b->views, View, node);

  for (guint c = view->content_start; c < view->content_end; c++)
    {
      guint item = g_array_index (b->contents, Content, c).view;
      g_autofree char *path = relative_tag_path (b, node, item);
      char *base = g_strdup_printf ("%s|%s", path, g_array_index (b->views, View, item).fontdata);
      guint occurrence = GPOINTER_TO_UINT (g_hash_table_lookup (occurrences, base)) + 1;

      g_hash_table_add (keys, g_strdup_printf ("%s|%u", base, occurrence));
      g_hash_table_insert (occurrences, base, GUINT_TO_POINTER (occurrence));
    }
  return keys;
}

/* A list often shows its first record apart, wrapped one level higher
 * (a highlighted first search result beside the element that holds the
 * others): its items have Xstrings of their own, so it forms no cluster
 * with the other records and is left out of the region. This adds the
 * siblings of the region element that are elements of the records' kind
 * and hold the items that most records hold (their column keys, with a
 * Jaccard similarity of at least EXTEND_MIN_SIMILARITY): not a pager or a
 * heading beside the list. */
static void
extend_type_a (Builder   *b,
               Candidate *candidate,
               GArray    *spans)
{
  guint lcp = candidate->lcp;
  guint parent = g_array_index (b->views, View, lcp).parent;
  const char *name;
  g_autoptr(GHashTable) counts = NULL;
  g_autoptr(GHashTable) template = NULL;
  g_autoptr(GArray) added = NULL;
  GHashTableIter iter;
  gpointer key, value;

  if (parent == NO_NODE || spans->len < 2)
    return;
  for (guint i = 0; i < spans->len; i++)
    {
      const Span *span = &g_array_index (spans, Span, i);

      if (g_array_index (b->views, View, span->start).parent != lcp)
        return;
    }
  name = g_array_index (b->views, View, g_array_index (spans, Span, 0).start).name;

  counts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  for (guint i = 0; i < spans->len; i++)
    {
      g_autoptr(GHashTable) keys = node_attributes (b, g_array_index (spans, Span, i).start);

      g_hash_table_iter_init (&iter, keys);
      while (g_hash_table_iter_next (&iter, &key, NULL))
        g_hash_table_insert (counts, g_strdup (key),
                             GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (counts, key)) + 1));
    }
  template = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_hash_table_iter_init (&iter, counts);
  while (g_hash_table_iter_next (&iter, &key, &value))
    if (2 * GPOINTER_TO_UINT (value) >= spans->len)
      g_hash_table_add (template, g_strdup (key));
  if (g_hash_table_size (template) < 2)
    return;

  added = g_array_new (FALSE, FALSE, sizeof (Span));
  for (guint child = parent + 1; child < g_array_index (b->views, View, parent).end;
       child = g_array_index (b->views, View, child).end)
    {
      const View *view = &g_array_index (b->views, View, child);
      g_autoptr(GHashTable) keys = NULL;

      if (child == lcp || view->is_text || strcmp (view->name, name) != 0 ||
          view->content_end - view->content_start < 2)
        continue;
      keys = node_attributes (b, child);
      if (cg_clustvx_jaccard (keys, template) >= EXTEND_MIN_SIMILARITY)
        {
          Span span = { child, child };

          g_array_append_val (added, span);
        }
    }
  if (added->len == 0)
    return;
  g_array_append_vals (spans, added->data, added->len);
  g_array_sort (spans, compare_spans);
  /* The region is now the element that holds all its records. */
  candidate->lcp = parent;
}

/* The children of @node that are records of their own, when @node is a
 * box of several records (see split_type_a ()); NULL otherwise. */
static GArray *
record_parts (Builder *b,
              guint    node,
              guint    median_items)
{
  const View *box = &g_array_index (b->views, View, node);
  const View *view = box;
  g_autoptr(GArray) parts = g_array_new (FALSE, FALSE, sizeof (guint));
  guint start_cluster = NO_NODE, covered = 0, container = node;

  /* The records may sit a few wrappers down, below the box's heading:
   * go down through a child that holds all the box but its heading. */
  for (guint level = 0; level < MAX_BOX_WRAPPERS; level++)
    {
      guint inner = NO_NODE;

      for (guint child = container + 1; child < view->end; child = g_array_index (b->views, View, child).end)
        {
          const View *child_view = &g_array_index (b->views, View, child);

          if (!child_view->is_text &&
              child_view->content_end - child_view->content_start + 1 >= box->content_end - box->content_start)
            inner = child;
        }
      if (inner == NO_NODE)
        break;
      container = inner;
      view = &g_array_index (b->views, View, container);
    }
  for (guint child = container + 1; child < view->end; child = g_array_index (b->views, View, child).end)
    {
      const View *child_view = &g_array_index (b->views, View, child);
      guint cluster;

      if (child_view->is_text || 2 * (child_view->content_end - child_view->content_start) < median_items)
        continue;
      /* Each part starts with the same attribute, as records do (their
       * titles): the first item of each is of one cluster. */
      cluster = g_array_index (b->contents, Content, child_view->content_start).cluster;
      if (cluster == NO_NODE || (start_cluster != NO_NODE && cluster != start_cluster))
        return NULL;
      start_cluster = cluster;
      g_array_append_val (parts, child);
      covered += child_view->content_end - child_view->content_start;
    }
  /* Two parts or more, each of half a record's size or more, that hold
   * all of the box but perhaps a heading: a record whose parts are its
   * lines leaves its title out of them when the title is the shortest. */
  if (parts->len < 2 || covered + 1 < box->content_end - box->content_start)
    return NULL;
  return g_steal_pointer (&parts);
}

/* A list can show some of its records grouped in a box of their own (the
 * sponsored results at the top of job search results, in a div among the
 * results' divs): the box is one record of the region, with the items of
 * several and unlike the others. When a record element is unlike the
 * records (a Jaccard similarity of its column keys and theirs below
 * EXTEND_MIN_SIMILARITY), has more items than the median record (a box
 * of two records, which are often shorter than the others, may have only
 * a little more), and its children of at least half a record's size,
 * two or more, all start with an item of one cluster (their titles) and
 * hold all its items but one at most (a heading), those children are the
 * records instead. The seed does not describe such boxes. */
static void
split_type_a (Builder *b,
              GArray  *spans)
{
  g_autoptr(GArray) sizes = NULL;
  g_autoptr(GHashTable) counts = NULL;
  g_autoptr(GHashTable) template = NULL;
  g_autoptr(GArray) result = NULL;
  GHashTableIter iter;
  gpointer key, value;
  guint median;
  gboolean split = FALSE;

  if (spans->len < 3)
    return;
  sizes = g_array_sized_new (FALSE, FALSE, sizeof (guint), spans->len);
  counts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  for (guint i = 0; i < spans->len; i++)
    {
      const Span *span = &g_array_index (spans, Span, i);
      const View *view = &g_array_index (b->views, View, span->start);
      guint size = view->content_end - view->content_start;
      g_autoptr(GHashTable) keys = NULL;

      if (span->start != span->last)
        return;
      g_array_append_val (sizes, size);
      keys = node_attributes (b, span->start);
      g_hash_table_iter_init (&iter, keys);
      while (g_hash_table_iter_next (&iter, &key, NULL))
        g_hash_table_insert (counts, g_strdup (key),
                             GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (counts, key)) + 1));
    }
  g_array_sort (sizes, compare_uint);
  median = g_array_index (sizes, guint, sizes->len / 2);
  template = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_hash_table_iter_init (&iter, counts);
  while (g_hash_table_iter_next (&iter, &key, &value))
    if (2 * GPOINTER_TO_UINT (value) >= spans->len)
      g_hash_table_add (template, g_strdup (key));
  if (median == 0 || g_hash_table_size (template) < 2)
    return;

  result = g_array_sized_new (FALSE, FALSE, sizeof (Span), spans->len);
  for (guint i = 0; i < spans->len; i++)
    {
      const Span *span = &g_array_index (spans, Span, i);
      const View *view = &g_array_index (b->views, View, span->start);
      g_autoptr(GArray) parts = NULL;

      if (view->content_end - view->content_start > median)
        {
          g_autoptr(GHashTable) keys = node_attributes (b, span->start);

          if (cg_clustvx_jaccard (keys, template) < EXTEND_MIN_SIMILARITY)
            parts = record_parts (b, span->start, median);
        }
      if (parts == NULL)
        {
          g_array_append_val (result, *span);
          continue;
        }
      for (guint p = 0; p < parts->len; p++)
        {
          Span part = { g_array_index (parts, guint, p), g_array_index (parts, guint, p) };

          g_array_append_val (result, part);
        }
      split = TRUE;
    }
  if (split)
    {
      g_array_set_size (spans, 0);
      g_array_append_vals (spans, result->data, result->len);
    }
}

static const char *
step_name (const View *view)
{
  return view->is_text ? "text()" : (is_xpath_name (view->name) ? view->name : "*");
}

/* The relative XPath from the region element to the record elements (type
 * A) or to the children that start a record (type B): tag names, "*"
 * where records at the same depth differ, and a union of such paths for
 * records at different depths (a first record shown apart, see
 * extend_type_a ()). */
static char *
record_pattern (Builder   *b,
                guint      lcp,
                GArray    *spans)
{
  g_autoptr(GPtrArray) patterns = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
  guint lcp_depth = g_array_index (b->views, View, lcp).depth;
  GString *out = g_string_new (NULL);

  /* Each pattern is an array of step names, merged with "*" where records
   * of the same depth differ. */
  for (guint i = 0; i < spans->len; i++)
    {
      guint start = g_array_index (spans, Span, i).start;
      guint depth = g_array_index (b->views, View, start).depth;
      GPtrArray *pattern = NULL;

      for (guint p = 0; p < patterns->len && pattern == NULL; p++)
        if (((GPtrArray *) g_ptr_array_index (patterns, p))->len == depth - lcp_depth)
          pattern = g_ptr_array_index (patterns, p);
      if (pattern == NULL)
        {
          pattern = g_ptr_array_new ();
          for (guint level = lcp_depth + 1; level <= depth; level++)
            g_ptr_array_add (pattern, (gpointer) step_name (&g_array_index (b->views, View,
                                                                           ancestor_at_depth (b, start, level))));
          g_ptr_array_add (patterns, pattern);
          continue;
        }
      for (guint level = lcp_depth + 1; level <= depth; level++)
        {
          const char *name = step_name (&g_array_index (b->views, View, ancestor_at_depth (b, start, level)));

          if (strcmp (g_ptr_array_index (pattern, level - lcp_depth - 1), name) != 0)
            g_ptr_array_index (pattern, level - lcp_depth - 1) = (gpointer) "*";
        }
    }

  for (guint p = 0; p < patterns->len; p++)
    {
      GPtrArray *pattern = g_ptr_array_index (patterns, p);

      if (p > 0)
        g_string_append (out, " | ");
      for (guint i = 0; i < pattern->len; i++)
        {
          if (i > 0)
            g_string_append_c (out, '/');
          g_string_append (out, g_ptr_array_index (pattern, i));
        }
    }
  return g_string_free (out, FALSE);
}

static CgClustvxRegion *
build_region (Builder              *b,
              const Candidate      *candidate,
              GArray               *spans,
              CgClustvxRecordsType  type)
{
  CgClustvxRegion *region = g_new0 (CgClustvxRegion, 1);
  const View *lcp = &g_array_index (b->views, View, candidate->lcp);
  g_autoptr(GHashTable) columns = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  double records_area = 0;
  double chars = 0, images = 0;
  guint n_aligned = 0;

  region->xpath = g_strdup (node_xpath (b, lcp->xml));
  region->node = lcp->xml;
  region->type = type;
  region->record_xpath = record_pattern (b, candidate->lcp, spans);
  region->columns = g_ptr_array_new_with_free_func ((GDestroyNotify) column_free);
  region->records = g_ptr_array_new_with_free_func ((GDestroyNotify) record_free);
  region->n_clusters = candidate->clusters->len;

  for (guint s = 0; s < spans->len; s++)
    {
      const Span *span = &g_array_index (spans, Span, s);
      guint base = type == CG_CLUSTVX_RECORDS_TYPE_A ? span->start : candidate->lcp;
      guint first = g_array_index (b->views, View, span->start).content_start;
      guint end = g_array_index (b->views, View, span->last).content_end;
      g_autoptr(GHashTable) occurrences = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      double left = G_MAXDOUBLE, top = G_MAXDOUBLE, right = -1, bottom = -1;
      CgClustvxRecord *record;

      if (region->records->len >= b->options.max_records)
        {
          region->truncated = TRUE;
          break;
        }

      record = g_new0 (CgClustvxRecord, 1);
      record->xpath = view_xpath (b, span->start);
      record->nodes = g_ptr_array_new ();
      record->items = g_ptr_array_new_with_free_func ((GDestroyNotify) item_free);
      for (guint child = span->start; child <= span->last; child = g_array_index (b->views, View, child).end)
        view_nodes (b, child, record->nodes);

      for (guint c = first; c < end; c++)
        {
          const Content *content = &g_array_index (b->contents, Content, c);
          const View *view = &g_array_index (b->views, View, content->view);
          g_autofree char *tag_path = relative_tag_path (b, base, content->view);
          g_autofree char *base_key = g_strdup_printf ("%s|%s", tag_path, view->fontdata);
          guint occurrence = GPOINTER_TO_UINT (g_hash_table_lookup (occurrences, base_key)) + 1;
          g_autofree char *key = g_strdup_printf ("%s|%u", base_key, occurrence);
          gpointer known;
          guint column;
          CgClustvxItem *item;

          if (record->items->len >= b->options.max_items)
            {
              region->truncated = TRUE;
              break;
            }
          g_hash_table_insert (occurrences, g_strdup (base_key), GUINT_TO_POINTER (occurrence));

          if (g_hash_table_lookup_extended (columns, key, NULL, &known))
            column = GPOINTER_TO_UINT (known);
          else
            {
              CgClustvxColumn *new_column = g_new0 (CgClustvxColumn, 1);

              new_column->key = g_strdup (key);
              new_column->tag_path = g_strdup (view->is_text && *tag_path == '\0' ? "#text" : tag_path);
              new_column->fontdata = g_strdup (view->fontdata);
              column = region->columns->len;
              g_ptr_array_add (region->columns, new_column);
              g_hash_table_insert (columns, g_strdup (key), GUINT_TO_POINTER (column));
            }

          item = make_item (b, c);
          item->column = column;
          item->path = g_strdup (key);
          ((CgClustvxColumn *) g_ptr_array_index (region->columns, column))->n_items++;
          g_ptr_array_add (record->items, item);

          if (item->kind == CG_CLUSTVX_ITEM_IMAGE)
            images++;
          else
            chars += g_utf8_strlen (item->text, -1);
          if (view->width > 0 && view->height > 0)
            {
              left = MIN (left, view->left);
              top = MIN (top, view->top);
              right = MAX (right, view->left + view->width);
              bottom = MAX (bottom, view->top + view->height);
            }
        }
      /* The record's box: its elements' boxes (all of a type-B run), or
       * its items' when those have none. */
      {
        double box_left = G_MAXDOUBLE, box_top = G_MAXDOUBLE, box_right = -1, box_bottom = -1;

        for (guint child = span->start; child <= span->last; child = g_array_index (b->views, View, child).end)
          {
            const View *view = &g_array_index (b->views, View, child);

            if (view->is_text || view->width <= 0 || view->height <= 0)
              continue;
            box_left = MIN (box_left, view->left);
            box_top = MIN (box_top, view->top);
            box_right = MAX (box_right, view->left + view->width);
            box_bottom = MAX (box_bottom, view->top + view->height);
          }
        if (box_right > box_left && box_bottom > box_top)
          records_area += (box_right - box_left) * (box_bottom - box_top);
        else if (right > left && bottom > top)
          records_area += (right - left) * (bottom - top);
      }
      g_ptr_array_add (region->records, record);
    }

  /* Each column's kind is the kind of most of its items. */
  for (guint col = 0; col < region->columns->len; col++)
    {
      guint counts[5] = { 0 };
      CgClustvxColumn *column = g_ptr_array_index (region->columns, col);
      guint best = 0;

      for (guint r = 0; r < region->records->len; r++)
        {
          CgClustvxRecord *record = g_ptr_array_index (region->records, r);

          for (guint i = 0; i < record->items->len; i++)
            {
              CgClustvxItem *item = g_ptr_array_index (record->items, i);

              if (item->column == col && item->kind < G_N_ELEMENTS (counts))
                counts[item->kind]++;
            }
        }
      for (guint k = 1; k < G_N_ELEMENTS (counts); k++)
        if (counts[k] > counts[best])
          best = k;
      column->kind = (CgClustvxItemKind) best;
    }

  /* The data items of a record, for the visual weight, are its distinct
   * attributes (tag path and font: the Xstrings of the region's clusters)
   * that another record of the region shares. A text only one record has
   * is not a repeated attribute, and the n-th link of a list inside the
   * record is the same attribute as the first: counting either would let
   * a footer's few sections of links outweigh the list of records. */
  {
    g_autoptr(GHashTable) records_with = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
    g_autoptr(GPtrArray) per_record = g_ptr_array_new_with_free_func ((GDestroyNotify) g_hash_table_unref);

    for (guint r = 0; r < region->records->len; r++)
      {
        CgClustvxRecord *record = g_ptr_array_index (region->records, r);
        GHashTable *bases = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

        for (guint i = 0; i < record->items->len; i++)
          {
            CgClustvxItem *item = g_ptr_array_index (record->items, i);
            const char *bar = strrchr (item->path, '|');
            char *base = g_strndup (item->path, bar != NULL ? (gsize) (bar - item->path) : strlen (item->path));

            if (!g_hash_table_add (bases, base))
              continue;
            g_hash_table_insert (records_with, g_strdup (base),
                                 GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (records_with, base)) + 1));
          }
        g_ptr_array_add (per_record, bases);
      }
    for (guint r = 0; r < per_record->len; r++)
      {
        GHashTableIter iter;
        gpointer base;

        g_hash_table_iter_init (&iter, g_ptr_array_index (per_record, r));
        while (g_hash_table_iter_next (&iter, &base, NULL))
          if (GPOINTER_TO_UINT (g_hash_table_lookup (records_with, base)) >= 2)
            n_aligned++;
      }
  }
  region->items_per_record = region->records->len > 0 ? (double) n_aligned / region->records->len : 0;

  /* The seed's DR_a is the area of the data region. The area its records
   * cover is taken rather than the region element's box: a pager above
   * and below a list has the whole list's element as its region element,
   * but covers only two thin strips. */
  if (b->rendered)
    region->area = records_area;
  else
    region->area = chars * PLAIN_PX_PER_CHAR + images * PLAIN_PX_PER_IMAGE;
  region->area = MAX (region->area, 1.0);
  region->visual_weight = region->area * region->items_per_record * region->items_per_record;
  return region;
}

/* Whether @node is one of @records' nodes or lies inside one. */
static gboolean
inside_records (GHashTable *records,
                xmlNodePtr  node)
{
  for (xmlNodePtr n = node; n != NULL; n = n->parent)
    if (g_hash_table_contains (records, n))
      return TRUE;
  return FALSE;
}

/* A page that shows its results in sections (titles, then names; products,
 * then news), each a heading and a list, has a region whose records are
 * the sections: the headings and the "more results" links recur once per
 * section. The area of such a "record" is its list's, which is a region of
 * its own, and counting it twice makes the sections outweigh the lists
 * they hold. A region's area is therefore the area its records cover
 * outside the regions nested in them (the outermost ones, each counted
 * once). This departs from the seed, whose pages had one list each. */
static void
discount_nested_regions (GPtrArray *regions)
{
  g_autoptr(GArray) nested_area = g_array_sized_new (FALSE, TRUE, sizeof (double), regions->len);

  g_array_set_size (nested_area, regions->len);
  for (guint r = 0; r < regions->len; r++)
    {
      CgClustvxRegion *region = g_ptr_array_index (regions, r);
      g_autoptr(GHashTable) records = g_hash_table_new (NULL, NULL);
      g_autoptr(GPtrArray) nested = g_ptr_array_new ();

      for (guint i = 0; i < region->records->len; i++)
        {
          CgClustvxRecord *record = g_ptr_array_index (region->records, i);

          for (guint n = 0; n < record->nodes->len; n++)
            g_hash_table_add (records, g_ptr_array_index (record->nodes, n));
        }
      for (guint o = 0; o < regions->len; o++)
        {
          CgClustvxRegion *other = g_ptr_array_index (regions, o);

          if (o != r && other->node != region->node && inside_records (records, other->node))
            g_ptr_array_add (nested, other);
        }
      for (guint o = 0; o < nested->len; o++)
        {
          CgClustvxRegion *other = g_ptr_array_index (nested, o);
          gboolean outermost = TRUE;

          for (guint p = 0; p < nested->len && outermost; p++)
            {
              CgClustvxRegion *outer = g_ptr_array_index (nested, p);

              if (p != o && outer->node != other->node)
                for (xmlNodePtr n = other->node->parent; n != NULL && outermost; n = n->parent)
                  outermost = n != outer->node;
            }
          if (outermost)
            g_array_index (nested_area, double, r) += other->area;
        }
    }
  /* Areas change only once all are known: each discount reads the areas
   * as measured. */
  for (guint r = 0; r < regions->len; r++)
    {
      CgClustvxRegion *region = g_ptr_array_index (regions, r);
      double discount = g_array_index (nested_area, double, r);

      if (discount <= 0)
        continue;
      region->area = MAX (region->area - discount, 1.0);
      region->visual_weight = region->area * region->items_per_record * region->items_per_record;
    }
}

/* The first node of each record of @region, as a set. */
static GHashTable *
record_starts (CgClustvxRegion *region)
{
  GHashTable *starts = g_hash_table_new (NULL, NULL);

  for (guint i = 0; i < region->records->len; i++)
    {
      CgClustvxRecord *record = g_ptr_array_index (region->records, i);

      if (record->nodes->len > 0)
        g_hash_table_add (starts, g_ptr_array_index (record->nodes, 0));
    }
  return starts;
}

/* An attribute that only some records of a list have (the season and
 * episode of the TV episodes among titles of every kind, shown in rows of
 * one table among several) forms clusters whose longest common prefix is
 * deeper than the list's, and so a region of its own whose records are
 * some of the list's records, the same elements, with the records that
 * lack the attribute left out between them. Since a record's items are
 * every content element inside it, the list already holds all that
 * region's items; kept, the region outranks the list, as its few records
 * have many items each. A region whose records are all records of another
 * region that also has records beside them (siblings of its records that
 * it left out) is therefore dropped. A region that merely lacks a record
 * shown apart elsewhere (a highlighted first result in a list of its own)
 * stays: its records are all of its list's. The seed makes a region of
 * every prefix and says nothing of regions that share records. */
static void
drop_record_subsets (GPtrArray *regions)
{
  g_autoptr(GPtrArray) starts = g_ptr_array_new_with_free_func ((GDestroyNotify) g_hash_table_unref);
  g_autoptr(GArray) dropped = g_array_sized_new (FALSE, TRUE, sizeof (gboolean), regions->len);

  g_array_set_size (dropped, regions->len);
  for (guint r = 0; r < regions->len; r++)
    g_ptr_array_add (starts, record_starts (g_ptr_array_index (regions, r)));
  for (guint r = 0; r < regions->len; r++)
    {
      GHashTable *own = g_ptr_array_index (starts, r);
      g_autoptr(GHashTable) parents = g_hash_table_new (NULL, NULL);
      GHashTableIter iter;
      gpointer node;

      g_hash_table_iter_init (&iter, own);
      while (g_hash_table_iter_next (&iter, &node, NULL))
        g_hash_table_add (parents, ((xmlNodePtr) node)->parent);
      for (guint o = 0; o < regions->len && !g_array_index (dropped, gboolean, r); o++)
        {
          GHashTable *others = g_ptr_array_index (starts, o);
          gboolean all = TRUE, beside = FALSE;

          if (o == r || g_array_index (dropped, gboolean, o) ||
              g_hash_table_size (others) <= g_hash_table_size (own))
            continue;
          g_hash_table_iter_init (&iter, own);
          while (all && g_hash_table_iter_next (&iter, &node, NULL))
            all = g_hash_table_contains (others, node);
          g_hash_table_iter_init (&iter, others);
          while (all && !beside && g_hash_table_iter_next (&iter, &node, NULL))
            beside = !g_hash_table_contains (own, node) &&
                     g_hash_table_contains (parents, ((xmlNodePtr) node)->parent);
          g_array_index (dropped, gboolean, r) = all && beside;
        }
    }
  for (guint r = regions->len; r > 0; r--)
    if (g_array_index (dropped, gboolean, r - 1))
      g_ptr_array_remove_index (regions, r - 1);
}

static int
compare_regions (gconstpointer a,
                 gconstpointer c)
{
  const CgClustvxRegion *x = *(CgClustvxRegion * const *) a;
  const CgClustvxRegion *y = *(CgClustvxRegion * const *) c;

  if (x->visual_weight != y->visual_weight)
    return x->visual_weight > y->visual_weight ? -1 : 1;
  return 0;
}

static GUri *
document_base (Builder *b)
{
  xmlNodePtr root = xmlDocGetRootElement (b->doc);
  const char *url = (const char *) b->doc->URL;
  g_autoptr(GUri) document = NULL;

  if (url == NULL)
    return NULL;
  document = cg_url_parse (url, CG_URL_NORMALIZE_SYNTAX, NULL);
  if (document == NULL)
    return NULL;

  /* A <base href> in head changes what relative links resolve against. */
  for (xmlNodePtr head = root != NULL ? root->children : NULL; head != NULL; head = head->next)
    {
      if (head->type != XML_ELEMENT_NODE || g_strcmp0 ((const char *) head->name, "head") != 0)
        continue;
      for (xmlNodePtr child = head->children; child != NULL; child = child->next)
        if (child->type == XML_ELEMENT_NODE && g_strcmp0 ((const char *) child->name, "base") == 0)
          {
            const char *href = get_attribute (b, child, "href");
            g_autofree char *resolved = NULL;

            if (href == NULL)
              continue;
            resolved = cg_url_resolve_uri (document, href, CG_URL_NORMALIZE_SYNTAX, NULL);
            if (resolved != NULL)
              {
                GUri *base = cg_url_parse (resolved, CG_URL_NORMALIZE_SYNTAX, NULL);

                if (base != NULL)
                  return base;
              }
            break;
          }
      break;
    }
  return g_steal_pointer (&document);
}

static void
builder_clear (Builder *b)
{
  if (b->entries != NULL)
    for (guint i = 0; i < b->entries->len; i++)
      g_free (g_array_index (b->entries, Entry, i).text);
  if (b->contents != NULL)
    for (guint i = 0; i < b->contents->len; i++)
      g_free (g_array_index (b->contents, Content, i).text);
  g_clear_pointer (&b->views, g_array_unref);
  g_clear_pointer (&b->contents, g_array_unref);
  g_clear_pointer (&b->run_nodes, g_ptr_array_unref);
  g_clear_pointer (&b->entries, g_array_unref);
  g_clear_pointer (&b->strings, g_string_chunk_free);
  g_clear_pointer (&b->paths, g_hash_table_unref);
  g_clear_pointer (&b->clusters, g_ptr_array_unref);
  g_clear_pointer (&b->positions, g_hash_table_unref);
  g_clear_pointer (&b->xpaths, g_hash_table_unref);
  g_clear_pointer (&b->base, g_uri_unref);
}

static gboolean
check_options (const CgClustvxOptions  *options,
               GError                 **error)
{
  const char *name = NULL;
  guint value = 0, low = 0, high = 0;

  if (options->features > CG_CLUSTVX_FEATURES_PLAIN)
    {
      g_set_error (error, CG_CLUSTVX_ERROR, CG_CLUSTVX_ERROR_INVALID_OPTIONS,
                   _("Unknown ClustVX feature mode %d"), (int) options->features);
      return FALSE;
    }
  if (options->max_elements < 1 || options->max_elements > CG_CLUSTVX_MAX_ELEMENTS)
    name = "max_elements", value = options->max_elements, low = 1, high = CG_CLUSTVX_MAX_ELEMENTS;
  else if (options->max_regions < 1 || options->max_regions > CG_CLUSTVX_MAX_REGIONS)
    name = "max_regions", value = options->max_regions, low = 1, high = CG_CLUSTVX_MAX_REGIONS;
  else if (options->max_records < 2 || options->max_records > CG_CLUSTVX_MAX_RECORDS)
    name = "max_records", value = options->max_records, low = 2, high = CG_CLUSTVX_MAX_RECORDS;
  else if (options->max_items < 1 || options->max_items > CG_CLUSTVX_MAX_ITEMS)
    name = "max_items", value = options->max_items, low = 1, high = CG_CLUSTVX_MAX_ITEMS;
  else if (options->min_records < 2 || options->min_records > options->max_records)
    name = "min_records", value = options->min_records, low = 2, high = options->max_records;
  if (name == NULL)
    return TRUE;
  g_set_error (error, CG_CLUSTVX_ERROR, CG_CLUSTVX_ERROR_INVALID_OPTIONS,
               _("The ClustVX option %s is %u, out of its range %u to %u"),
               name, value, low, high);
  return FALSE;
}

CgClustvxResult *
cg_clustvx_extract (htmlDocPtr               doc,
                    const CgClustvxOptions  *options,
                    GError                 **error)
{
  CgClustvxOptions defaults;
  Builder b = { 0 };
  xmlNodePtr root;
  g_autoptr(GHashTable) by_lcp = NULL;
  g_autoptr(GPtrArray) candidates = NULL;
  g_autoptr(GPtrArray) regions = NULL;
  CgClustvxResult *result;

  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (options == NULL)
    {
      cg_clustvx_options_init (&defaults);
      options = &defaults;
    }
  if (!check_options (options, error))
    return NULL;
  if (doc == NULL)
    {
      g_set_error (error, CG_CLUSTVX_ERROR, CG_CLUSTVX_ERROR_NO_DOCUMENT,
                   _("No document to extract records from"));
      return NULL;
    }
  root = xmlDocGetRootElement (doc);
  if (root == NULL)
    {
      g_set_error (error, CG_CLUSTVX_ERROR, CG_CLUSTVX_ERROR_NO_DOCUMENT,
                   _("The page “%s” has no HTML element to extract records from"),
                   doc->URL != NULL ? (const char *) doc->URL : _("(no address)"));
      return NULL;
    }

  b.doc = doc;
  b.options = *options;
  switch (options->features)
    {
    case CG_CLUSTVX_FEATURES_RENDERED:
      b.rendered = TRUE;
      break;
    case CG_CLUSTVX_FEATURES_PLAIN:
      b.rendered = FALSE;
      break;
    case CG_CLUSTVX_FEATURES_AUTO:
    default:
      b.rendered = xmlHasProp (root, (const xmlChar *) "data-cg-visible") != NULL;
      break;
    }
  b.views = g_array_new (FALSE, FALSE, sizeof (View));
  b.contents = g_array_new (FALSE, FALSE, sizeof (Content));
  b.run_nodes = g_ptr_array_new ();
  b.entries = g_array_new (FALSE, FALSE, sizeof (Entry));
  b.strings = g_string_chunk_new (4096);
  b.paths = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  b.positions = g_hash_table_new (NULL, NULL);
  b.xpaths = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  b.base = document_base (&b);

  build_view (&b);
  cluster_contents (&b);

  /* Clusters with the same longest common prefix form one region. */
  by_lcp = g_hash_table_new (NULL, NULL);
  candidates = g_ptr_array_new_with_free_func ((GDestroyNotify) candidate_free);
  for (guint c = 0; c < b.clusters->len; c++)
    {
      Cluster *cluster = g_ptr_array_index (b.clusters, c);
      Candidate *candidate = g_hash_table_lookup (by_lcp, GUINT_TO_POINTER (cluster->lcp + 1));

      if (candidate == NULL)
        {
          candidate = g_new0 (Candidate, 1);
          candidate->lcp = cluster->lcp;
          candidate->clusters = g_array_new (FALSE, FALSE, sizeof (guint));
          g_ptr_array_add (candidates, candidate);
          g_hash_table_insert (by_lcp, GUINT_TO_POINTER (cluster->lcp + 1), candidate);
        }
      g_array_append_val (candidate->clusters, c);
    }

  regions = g_ptr_array_new_with_free_func ((GDestroyNotify) region_free);
  for (guint i = 0; i < candidates->len; i++)
    {
      Candidate *candidate = g_ptr_array_index (candidates, i);
      g_autoptr(GArray) spans = g_array_new (FALSE, FALSE, sizeof (Span));
      CgClustvxRecordsType type = CG_CLUSTVX_RECORDS_TYPE_B;

      if (!segment_type_b (&b, candidate, spans))
        {
          type = CG_CLUSTVX_RECORDS_TYPE_A;
          segment_type_a (&b, candidate, record_depth_type_a (&b, candidate), spans);
          extend_type_a (&b, candidate, spans);
          split_type_a (&b, spans);
        }
      if (spans->len < options->min_records)
        continue;
      g_ptr_array_add (regions, build_region (&b, candidate, spans, type));
    }

  drop_record_subsets (regions);
  discount_nested_regions (regions);
  g_ptr_array_sort (regions, compare_regions);

  result = g_new0 (CgClustvxResult, 1);
  result->rendered = b.rendered;
  result->truncated = b.truncated;
  result->n_elements = b.n_elements;
  result->n_content = b.contents->len;
  result->n_clusters = b.clusters->len;
  if (regions->len > options->max_regions)
    {
      g_ptr_array_set_size (regions, options->max_regions);
      result->truncated = TRUE;
    }
  for (guint i = 0; i < regions->len; i++)
    {
      CgClustvxRegion *region = g_ptr_array_index (regions, i);
      CgClustvxRegion *best = g_ptr_array_index (regions, 0);

      region->score = region->visual_weight / best->visual_weight;
    }
  result->regions = g_steal_pointer (&regions);

  if (result->regions->len > 0)
    {
      CgClustvxRegion *best = g_ptr_array_index (result->regions, 0);

      result->reason = CG_CLUSTVX_REASON_FOUND;
      result->message = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                      "Found %u data region; the first holds %u records at %s",
                                                      "Found %u data regions; the first holds %u records at %s",
                                                      result->regions->len),
                                         result->regions->len, best->records->len, best->xpath);
    }
  else if (b.contents->len == 0)
    {
      result->reason = CG_CLUSTVX_REASON_NO_CONTENT;
      result->message = g_strdup (_("The page shows no text and no image, so it holds no records"));
    }
  else if (b.clusters->len == 0)
    {
      result->reason = CG_CLUSTVX_REASON_NO_REPETITION;
      result->message = g_strdup_printf (_("No two of the page’s %u texts and images share a tag path "
                                           "and font, so it repeats no record"),
                                         b.contents->len);
    }
  else
    {
      result->reason = CG_CLUSTVX_REASON_SINGLE_RECORD;
      result->message = g_strdup_printf (_("Elements of the page repeat, but never in %u or more "
                                           "records of one region: it looks like a single record"),
                                         options->min_records);
    }
  if (b.truncated)
    {
      char *partial = g_strdup_printf (_("%s (partial: only the first %u elements were read)"),
                                       result->message, options->max_elements);

      g_free (result->message);
      result->message = partial;
    }

  builder_clear (&b);
  return result;
}

/* JSON */

static const char *
reason_to_string (CgClustvxReason reason)
{
  switch (reason)
    {
    case CG_CLUSTVX_REASON_FOUND:
      return "found";
    case CG_CLUSTVX_REASON_NO_CONTENT:
      return "no-content";
    case CG_CLUSTVX_REASON_NO_REPETITION:
      return "no-repetition";
    case CG_CLUSTVX_REASON_SINGLE_RECORD:
    default:
      return "single-record";
    }
}

JsonNode *
cg_clustvx_result_to_json (const CgClustvxResult *result)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();

  g_return_val_if_fail (result != NULL, NULL);

  json_builder_begin_object (builder);
  cg_json_add_string_or_null (builder, "reason", reason_to_string (result->reason));
  cg_json_add_string_or_null (builder, "message", result->message);
  json_builder_set_member_name (builder, "rendered");
  json_builder_add_boolean_value (builder, result->rendered);
  json_builder_set_member_name (builder, "truncated");
  json_builder_add_boolean_value (builder, result->truncated);
  json_builder_set_member_name (builder, "elements");
  json_builder_add_int_value (builder, result->n_elements);
  json_builder_set_member_name (builder, "regions");
  json_builder_begin_array (builder);
  for (guint r = 0; r < result->regions->len; r++)
    {
      const CgClustvxRegion *region = g_ptr_array_index (result->regions, r);

      json_builder_begin_object (builder);
      cg_json_add_string_or_null (builder, "xpath", region->xpath);
      cg_json_add_string_or_null (builder, "type", cg_clustvx_records_type_to_string (region->type));
      cg_json_add_string_or_null (builder, "record_xpath", region->record_xpath);
      json_builder_set_member_name (builder, "score");
      json_builder_add_double_value (builder, region->score);
      json_builder_set_member_name (builder, "visual_weight");
      json_builder_add_double_value (builder, region->visual_weight);
      json_builder_set_member_name (builder, "area");
      json_builder_add_double_value (builder, region->area);
      json_builder_set_member_name (builder, "items_per_record");
      json_builder_add_double_value (builder, region->items_per_record);
      json_builder_set_member_name (builder, "truncated");
      json_builder_add_boolean_value (builder, region->truncated);

      json_builder_set_member_name (builder, "columns");
      json_builder_begin_array (builder);
      for (guint c = 0; c < region->columns->len; c++)
        {
          const CgClustvxColumn *column = g_ptr_array_index (region->columns, c);

          json_builder_begin_object (builder);
          cg_json_add_string_or_null (builder, "key", column->key);
          cg_json_add_string_or_null (builder, "tag_path", column->tag_path);
          cg_json_add_string_or_null (builder, "kind", cg_clustvx_item_kind_to_string (column->kind));
          json_builder_set_member_name (builder, "items");
          json_builder_add_int_value (builder, column->n_items);
          json_builder_end_object (builder);
        }
      json_builder_end_array (builder);

      json_builder_set_member_name (builder, "records");
      json_builder_begin_array (builder);
      for (guint i = 0; i < region->records->len; i++)
        {
          const CgClustvxRecord *record = g_ptr_array_index (region->records, i);

          json_builder_begin_object (builder);
          cg_json_add_string_or_null (builder, "xpath", record->xpath);
          json_builder_set_member_name (builder, "items");
          json_builder_begin_array (builder);
          for (guint j = 0; j < record->items->len; j++)
            {
              const CgClustvxItem *item = g_ptr_array_index (record->items, j);

              json_builder_begin_object (builder);
              json_builder_set_member_name (builder, "column");
              json_builder_add_int_value (builder, item->column);
              cg_json_add_string_or_null (builder, "kind", cg_clustvx_item_kind_to_string (item->kind));
              cg_json_add_string_or_null (builder, "path", item->path);
              cg_json_add_string_or_null (builder, "xpath", item->xpath);
              cg_json_add_string_or_null (builder, "text", item->text);
              cg_json_add_string_or_null (builder, "href", item->href);
              cg_json_add_string_or_null (builder, "url", item->url);
              cg_json_add_string_or_null (builder, "src", item->src);
              json_builder_end_object (builder);
            }
          json_builder_end_array (builder);
          json_builder_end_object (builder);
        }
      json_builder_end_array (builder);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  json_builder_end_object (builder);
  return json_builder_get_root (builder);
}
