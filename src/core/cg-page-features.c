/* cg-page-features.c: what the site models read from one HTML page.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "cg-links.h"
#include "cg-page-features.h"

G_DEFINE_QUARK (cg-page-error-quark, cg_page_error)

static char *
display_name (const char *url)
{
  return g_utf8_make_valid (url != NULL ? url : "", MIN (url != NULL ? strlen (url) : 0, 200));
}

/* ---- parsing and the encoding check ------------------------------------- */

htmlDocPtr
cg_page_parse (const char   *data,
               gsize         length,
               const char   *url,
               const char   *content_type,
               GError      **error)
{
  htmlDocPtr doc;

  g_return_val_if_fail (data != NULL || length == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (length == 0)
    {
      g_autofree char *shown = display_name (url);

      g_set_error (error, CG_PAGE_ERROR, CG_PAGE_ERROR_EMPTY,
                   _("The page “%s” is empty (0 bytes)"), shown);
      return NULL;
    }

  doc = cg_html_parse (data, length, url, content_type, error);
  if (doc == NULL)
    return NULL;

  if (xmlDocGetRootElement (doc) == NULL)
    {
      g_autofree char *shown = display_name (url);

      g_set_error (error, CG_PAGE_ERROR, CG_PAGE_ERROR_EMPTY,
                   _("The page “%s” holds no HTML element (%lu bytes of white space, "
                     "comments or declarations)"),
                   shown, (unsigned long) length);
      xmlFreeDoc (doc);
      return NULL;
    }

  return doc;
}

/* ---- walking the tree ------------------------------------------------------ */

static gboolean
is_element (xmlNodePtr node)
{
  return node->type == XML_ELEMENT_NODE && node->name != NULL;
}

static gboolean
is_text (xmlNodePtr node)
{
  return (node->type == XML_TEXT_NODE || node->type == XML_CDATA_SECTION_NODE) &&
         node->content != NULL;
}

/* Elements whose content is not shown as text. */
static gboolean
is_hidden_content (xmlNodePtr node)
{
  static const char * const hidden[] = { "script", "style", "noscript", "template" };

  for (guint i = 0; i < G_N_ELEMENTS (hidden); i++)
    if (g_ascii_strcasecmp ((const char *) node->name, hidden[i]) == 0)
      return TRUE;
  return FALSE;
}

/* Called for each node on the way in; returns whether to walk its
 * children. Elements are also reported on the way out. */
typedef gboolean (*EnterFunc) (xmlNodePtr node, gpointer user_data);
typedef void     (*LeaveFunc) (xmlNodePtr node, gpointer user_data);

/* Depth-first, without recursion: recovered markup can nest deeper than
 * the C stack should go. Returns early when @stop becomes TRUE. */
static void
walk_tree (xmlNodePtr       root,
           EnterFunc        enter,
           LeaveFunc        leave,
           gpointer         user_data,
           const gboolean  *stop)
{
  xmlNodePtr node = root;

  while (node != NULL && !(stop != NULL && *stop))
    {
      gboolean descend = enter (node, user_data);

      if (descend && is_element (node) && node->children != NULL)
        {
          node = node->children;
          continue;
        }
      if (is_element (node) && leave != NULL)
        leave (node, user_data);
      while (node != root && node->next == NULL)
        {
          node = node->parent;
          if (is_element (node) && leave != NULL)
            leave (node, user_data);
        }
      if (node == root)
        break;
      node = node->next;
    }
}

/* White space (including no-break spaces) collapsed to one space and
 * trimmed. */
static char *
collapse_space (const char *text,
                guint      *n_chars)
{
  GString *out = g_string_new (NULL);
  gboolean pending = FALSE;
  guint chars = 0;

  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (g_unichar_isspace (c) || c == 0x00A0)
        {
          pending = out->len > 0;
          continue;
        }
      if (pending)
        {
          g_string_append_c (out, ' ');
          chars++;
          pending = FALSE;
        }
      g_string_append_unichar (out, c);
      chars++;
    }
  if (n_chars != NULL)
    *n_chars = chars;
  return g_string_free (out, FALSE);
}

/* ---- anchors ---------------------------------------------------------------- */

void
cg_page_anchor_free (CgPageAnchor *anchor)
{
  if (anchor == NULL)
    return;
  g_free (anchor->url);
  g_free (anchor->text);
  cg_dom_path_unref (anchor->path);
  g_free (anchor);
}

typedef struct {
  GPtrArray      *anchors;
  CgDomPathCache *cache;
} AnchorWalk;

static void
anchor_cb (const CgLink *link,
           xmlNodePtr    node,
           gpointer      user_data)
{
  AnchorWalk *walk = user_data;
  CgPageAnchor *anchor;
  CgDomPath *path;

  if (link->hop != CG_HOP_NAVLINK || !g_str_equal (link->element, "a") || node == NULL)
    return;
  /* Only a tree deeper than any libxml2 builds has no path. */
  path = cg_dom_path_new_for_node_cached (node, walk->cache, NULL);
  if (path == NULL)
    return;
  anchor = g_new0 (CgPageAnchor, 1);
  anchor->url = g_strdup (link->url);
  anchor->text = g_strdup (link->text != NULL ? link->text : "");
  anchor->path = path;
  g_ptr_array_add (walk->anchors, anchor);
}

GPtrArray *
cg_page_collect_anchors (htmlDocPtr   doc,
                         const char  *document_url,
                         GError     **error)
{
  g_autoptr(GPtrArray) anchors = g_ptr_array_new_with_free_func ((GDestroyNotify) cg_page_anchor_free);
  g_autoptr(CgDomPathCache) cache = cg_dom_path_cache_new ();
  AnchorWalk walk = { anchors, cache };

  g_return_val_if_fail (doc != NULL, NULL);
  g_return_val_if_fail (document_url != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!cg_links_foreach_in_document (doc, document_url, anchor_cb, &walk, error))
    return NULL;
  return g_steal_pointer (&anchors);
}

/* ---- texts ------------------------------------------------------------------ */

void
cg_page_text_free (CgPageText *text)
{
  if (text == NULL)
    return;
  g_free (text->text);
  cg_dom_path_unref (text->path);
  g_free (text);
}

typedef struct {
  GPtrArray      *texts;
  CgDomPathCache *cache;
  gboolean        full;
} TextWalk;

static gboolean
text_enter_cb (xmlNodePtr node,
               gpointer   user_data)
{
  TextWalk *walk = user_data;
  g_autofree char *text = NULL;
  CgPageText *item;
  CgDomPath *path;
  guint n_chars;

  if (is_element (node))
    return !is_hidden_content (node);
  if (!is_text (node) || node->parent == NULL || !is_element (node->parent))
    return FALSE;

  text = collapse_space ((const char *) node->content, &n_chars);
  if (n_chars == 0 || n_chars >= CG_PAGE_TEXT_MAX_CHARS)
    return FALSE;
  path = cg_dom_path_new_for_node_cached (node->parent, walk->cache, NULL);
  if (path == NULL)
    return FALSE;

  item = g_new0 (CgPageText, 1);
  item->text = g_steal_pointer (&text);
  item->path = path;
  g_ptr_array_add (walk->texts, item);
  walk->full = walk->texts->len >= CG_PAGE_MAX_TEXTS;
  return FALSE;
}

GPtrArray *
cg_page_collect_texts (htmlDocPtr doc)
{
  TextWalk walk = { 0 };
  xmlNodePtr root;

  g_return_val_if_fail (doc != NULL, NULL);

  walk.texts = g_ptr_array_new_with_free_func ((GDestroyNotify) cg_page_text_free);
  walk.cache = cg_dom_path_cache_new ();
  root = xmlDocGetRootElement (doc);
  if (root != NULL)
    walk_tree (root, text_enter_cb, NULL, &walk, &walk.full);
  cg_dom_path_cache_free (walk.cache);
  return walk.texts;
}

/* ---- collections -------------------------------------------------------------- */

void
cg_page_collection_free (CgPageCollection *collection)
{
  if (collection == NULL)
    return;
  g_free (collection->xpath);
  cg_lattice_path_free (collection->path);
  g_ptr_array_unref (collection->items);
  g_free (collection);
}

static GPtrArray *
group_on_default_path (GPtrArray   *members,
                       CgDomPath *(*get_path) (gpointer member),
                       const char *(*get_item) (gpointer member))
{
  g_autoptr(GHashTable) by_xpath = g_hash_table_new (g_str_hash, g_str_equal);
  GPtrArray *collections = g_ptr_array_new_with_free_func ((GDestroyNotify) cg_page_collection_free);

  for (guint i = 0; i < members->len; i++)
    {
      g_autoptr(CgLatticePath) path = cg_lattice_path_new_default (get_path (members->pdata[i]));
      g_autofree char *xpath = cg_lattice_path_to_xpath (path);
      CgPageCollection *collection = g_hash_table_lookup (by_xpath, xpath);

      if (collection == NULL)
        {
          collection = g_new0 (CgPageCollection, 1);
          collection->xpath = g_steal_pointer (&xpath);
          collection->path = g_steal_pointer (&path);
          collection->items = g_ptr_array_new_with_free_func (g_free);
          g_ptr_array_add (collections, collection);
          g_hash_table_insert (by_xpath, collection->xpath, collection);
        }
      g_ptr_array_add (collection->items, g_strdup (get_item (members->pdata[i])));
    }
  return collections;
}

static CgDomPath *
anchor_path (gpointer member)
{
  return ((CgPageAnchor *) member)->path;
}

static const char *
anchor_url (gpointer member)
{
  return ((CgPageAnchor *) member)->url;
}

static CgDomPath *
text_path (gpointer member)
{
  return ((CgPageText *) member)->path;
}

static const char *
text_text (gpointer member)
{
  return ((CgPageText *) member)->text;
}

GPtrArray *
cg_page_link_collections (GPtrArray *anchors)
{
  g_return_val_if_fail (anchors != NULL, NULL);
  return group_on_default_path (anchors, anchor_path, anchor_url);
}

GPtrArray *
cg_page_text_collections (GPtrArray *texts)
{
  g_return_val_if_fail (texts != NULL, NULL);
  return group_on_default_path (texts, text_path, text_text);
}

/* ---- visible text, words and 2-grams ----------------------------------------- */

/* Phrasing elements whose boundaries do not end a word. */
static gboolean
is_inline (xmlNodePtr node)
{
  static const char * const inline_elements[] = {
    "a", "abbr", "acronym", "b", "bdi", "bdo", "big", "cite", "code", "data", "dfn", "em",
    "font", "i", "kbd", "label", "mark", "nobr", "q", "rp", "rt", "ruby", "s", "samp",
    "small", "span", "strike", "strong", "sub", "sup", "time", "tt", "u", "var", "wbr",
  };

  for (guint i = 0; i < G_N_ELEMENTS (inline_elements); i++)
    if (g_ascii_strcasecmp ((const char *) node->name, inline_elements[i]) == 0)
      return TRUE;
  return FALSE;
}

static void
append_break (GString *out)
{
  if (out->len > 0 && out->str[out->len - 1] != '\n')
    g_string_append_c (out, '\n');
}

static gboolean
visible_enter_cb (xmlNodePtr node,
                  gpointer   user_data)
{
  GString *out = user_data;

  if (is_element (node))
    {
      if (is_hidden_content (node))
        return FALSE;
      if (!is_inline (node))
        append_break (out);
      return TRUE;
    }
  if (is_text (node))
    g_string_append (out, (const char *) node->content);
  return FALSE;
}

static void
visible_leave_cb (xmlNodePtr node,
                  gpointer   user_data)
{
  if (!is_inline (node))
    append_break (user_data);
}

char *
cg_page_visible_text (htmlDocPtr doc)
{
  GString *out = g_string_new (NULL);
  xmlNodePtr root;

  g_return_val_if_fail (doc != NULL, NULL);

  root = xmlDocGetRootElement (doc);
  if (root != NULL)
    walk_tree (root, visible_enter_cb, visible_leave_cb, out, NULL);
  return g_string_free (out, FALSE);
}

typedef gboolean (*WordFunc) (const char *word, gpointer user_data);

static gboolean
is_word_char (gunichar c)
{
  return g_unichar_isalnum (c) || g_unichar_ismark (c);
}

/* Calls @func for each word of @text (see cg_page_words()) until it
 * returns FALSE. */
static void
foreach_word (const char *text,
              WordFunc    func,
              gpointer    user_data)
{
  g_autofree char *valid = g_utf8_make_valid (text, -1);
  g_autofree char *normal = g_utf8_normalize (valid, -1, G_NORMALIZE_NFC);
  g_autofree char *lower = g_utf8_strdown (normal != NULL ? normal : valid, -1);
  g_autoptr(GString) word = g_string_new (NULL);
  guint chars = 0;

  for (const char *p = lower; ; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);
      gboolean in_word = c != 0 && is_word_char (c);

      if (!in_word && (c == '\'' || c == 0x2019) && word->len > 0)
        {
          const char *next = g_utf8_next_char (p);

          in_word = g_unichar_isalnum (g_utf8_get_char (next));
        }
      if (in_word)
        {
          if (chars < CG_PAGE_MAX_WORD_CHARS)
            {
              /* Both apostrophes are one, so that don't and don’t agree. */
              g_string_append_unichar (word, c == 0x2019 ? '\'' : c);
              chars++;
            }
        }
      else if (word->len > 0)
        {
          if (!func (word->str, user_data))
            return;
          g_string_truncate (word, 0);
          chars = 0;
        }
      if (c == 0)
        break;
    }
}

static gboolean
add_word_cb (const char *word,
             gpointer    user_data)
{
  g_strv_builder_add (user_data, word);
  return TRUE;
}

GStrv
cg_page_words (const char *text)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

  g_return_val_if_fail (text != NULL, NULL);

  foreach_word (text, add_word_cb, builder);
  return g_strv_builder_end (builder);
}

typedef struct {
  GHashTable *set;
  char       *previous;
  gboolean    truncated;
} BigramWalk;

static gboolean
bigram_cb (const char *word,
           gpointer    user_data)
{
  BigramWalk *walk = user_data;

  if (walk->previous != NULL)
    {
      char *bigram = g_strconcat (walk->previous, " ", word, NULL);

      if (g_hash_table_contains (walk->set, bigram))
        g_free (bigram);
      else if (g_hash_table_size (walk->set) >= CG_PAGE_MAX_BIGRAMS)
        {
          g_free (bigram);
          walk->truncated = TRUE;
          return FALSE;
        }
      else
        g_hash_table_add (walk->set, bigram);
    }
  g_free (walk->previous);
  walk->previous = g_strdup (word);
  return TRUE;
}

GHashTable *
cg_page_collect_bigrams (htmlDocPtr  doc,
                         gboolean   *truncated)
{
  g_autofree char *text = NULL;
  BigramWalk walk = { 0 };

  g_return_val_if_fail (doc != NULL, NULL);

  walk.set = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  text = cg_page_visible_text (doc);
  foreach_word (text, bigram_cb, &walk);
  g_free (walk.previous);
  if (truncated != NULL)
    *truncated = walk.truncated;
  return walk.set;
}

/* ---- leaf tag paths ------------------------------------------------------------ */

typedef struct {
  CgLeafPathKind  kind;
  GHashTable     *counts;
  GString        *path;
  GArray         *lengths;   /* path->len before each open element */
} LeafWalk;

static gboolean
is_leaf (xmlNodePtr     node,
         CgLeafPathKind kind)
{
  for (xmlNodePtr child = node->children; child != NULL; child = child->next)
    {
      if (is_element (child))
        return FALSE;
      if (kind == CG_LEAF_PATHS_TEXTLESS && is_text (child))
        for (const char *p = (const char *) child->content; *p != '\0'; p = g_utf8_next_char (p))
          {
            gunichar c = g_utf8_get_char (p);

            if (!g_unichar_isspace (c) && c != 0x00A0)
              return FALSE;
          }
    }
  return TRUE;
}

static gboolean
leaf_enter_cb (xmlNodePtr node,
               gpointer   user_data)
{
  LeafWalk *walk = user_data;
  g_autofree char *name = NULL;

  if (!is_element (node))
    return FALSE;
  g_array_append_val (walk->lengths, walk->path->len);
  name = g_ascii_strdown ((const char *) node->name, -1);
  g_string_append_c (walk->path, '/');
  g_string_append (walk->path, name);
  return TRUE;
}

static void
leaf_leave_cb (xmlNodePtr node,
               gpointer   user_data)
{
  LeafWalk *walk = user_data;
  gsize length;

  if (is_leaf (node, walk->kind))
    {
      gpointer count = g_hash_table_lookup (walk->counts, walk->path->str);

      if (count != NULL)
        g_hash_table_insert (walk->counts, g_strdup (walk->path->str),
                             GUINT_TO_POINTER (GPOINTER_TO_UINT (count) + 1));
      else if (g_hash_table_size (walk->counts) < CG_PAGE_MAX_LEAF_PATHS)
        g_hash_table_insert (walk->counts, g_strdup (walk->path->str), GUINT_TO_POINTER (1));
    }
  length = g_array_index (walk->lengths, gsize, walk->lengths->len - 1);
  g_array_set_size (walk->lengths, walk->lengths->len - 1);
  g_string_truncate (walk->path, length);
}

GHashTable *
cg_page_collect_leaf_paths (htmlDocPtr     doc,
                            CgLeafPathKind kind)
{
  LeafWalk walk = { 0 };
  xmlNodePtr root;

  g_return_val_if_fail (doc != NULL, NULL);

  walk.kind = kind;
  walk.counts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  walk.path = g_string_new (NULL);
  walk.lengths = g_array_new (FALSE, FALSE, sizeof (gsize));
  root = xmlDocGetRootElement (doc);
  if (root != NULL)
    walk_tree (root, leaf_enter_cb, leaf_leave_cb, &walk, NULL);
  g_string_free (walk.path, TRUE);
  g_array_unref (walk.lengths);
  return walk.counts;
}
