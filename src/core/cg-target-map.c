/* cg-target-map.c: seed 001's target page map and its URL navigation pattern.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "cg-target-map.h"
#include "cg-url-pattern.h"

G_DEFINE_QUARK (cg-target-map-error-quark, cg_target_map_error)

typedef struct _MapPage MapPage;

struct _MapPage
{
  char      *url;
  MapPage   *parent;
  GPtrArray *children;   /* MapPage, not owned */
  guint      depth;
  gboolean   target;
  gboolean   on_path;    /* on the discovery path of some target */
};

struct _CgTargetMap
{
  GHashTable *pages;     /* url → MapPage, owned */
  MapPage    *entry;
  guint       n_targets;
};

static void
map_page_free (MapPage *page)
{
  g_free (page->url);
  g_ptr_array_unref (page->children);
  g_free (page);
}

static MapPage *
map_page_new (const char *url,
              MapPage    *parent,
              gboolean    target)
{
  MapPage *page = g_new0 (MapPage, 1);

  page->url = g_strdup (url);
  page->parent = parent;
  page->children = g_ptr_array_new ();
  page->target = target;
  page->depth = parent != NULL ? parent->depth + 1 : 0;
  if (parent != NULL)
    g_ptr_array_add (parent->children, page);
  return page;
}

CgTargetMap *
cg_target_map_new (const char *entry_url)
{
  CgTargetMap *self = g_new0 (CgTargetMap, 1);

  g_return_val_if_fail (entry_url != NULL && entry_url[0] != '\0', NULL);

  self->pages = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, (GDestroyNotify) map_page_free);
  self->entry = map_page_new (entry_url, NULL, FALSE);
  g_hash_table_insert (self->pages, self->entry->url, self->entry);
  return self;
}

void
cg_target_map_free (CgTargetMap *self)
{
  if (self == NULL)
    return;
  g_hash_table_unref (self->pages);
  g_free (self);
}

gboolean
cg_target_map_add_page (CgTargetMap  *self,
                        const char   *url,
                        const char   *parent_url,
                        gboolean      target,
                        GError      **error)
{
  MapPage *parent;
  MapPage *page;

  g_return_val_if_fail (self != NULL, FALSE);

  if (url == NULL || url[0] == '\0')
    {
      g_set_error (error, CG_TARGET_MAP_ERROR, CG_TARGET_MAP_ERROR_INVALID, _("A mapped page has no URL"));
      return FALSE;
    }
  if (g_hash_table_contains (self->pages, url))
    {
      g_set_error (error, CG_TARGET_MAP_ERROR, CG_TARGET_MAP_ERROR_INVALID,
                   _("The page %s is already in the target page map"), url);
      return FALSE;
    }
  parent = parent_url != NULL ? g_hash_table_lookup (self->pages, parent_url) : NULL;
  if (parent == NULL)
    {
      g_set_error (error, CG_TARGET_MAP_ERROR, CG_TARGET_MAP_ERROR_INVALID,
                   _("The page %s was found on %s, which is not in the target page map"),
                   url, parent_url != NULL ? parent_url : "?");
      return FALSE;
    }
  if (g_hash_table_size (self->pages) >= CG_TARGET_MAP_MAX_PAGES)
    {
      g_set_error (error, CG_TARGET_MAP_ERROR, CG_TARGET_MAP_ERROR_TOO_MANY,
                   _("The target page map holds %u pages, its limit"), (guint) CG_TARGET_MAP_MAX_PAGES);
      return FALSE;
    }
  /* A path longer than the bound is cut: the page hangs where the bound
   * allows, which keeps the recursion of generation bounded. */
  while (parent->depth >= CG_TARGET_MAP_MAX_DEPTH)
    parent = parent->parent;
  page = map_page_new (url, parent, target);
  g_hash_table_insert (self->pages, page->url, page);
  if (target)
    self->n_targets++;
  return TRUE;
}

gboolean
cg_target_map_contains (CgTargetMap *self,
                        const char  *url)
{
  return g_hash_table_contains (self->pages, url);
}

guint
cg_target_map_get_n_pages (CgTargetMap *self)
{
  return g_hash_table_size (self->pages);
}

guint
cg_target_map_get_n_targets (CgTargetMap *self)
{
  return self->n_targets;
}

/* --- Generation ---------------------------------------------------------- */

static CgUrlNavNode *
nav_node_new (CgUrlNavNode *parent)
{
  CgUrlNavNode *node = g_new0 (CgUrlNavNode, 1);

  node->children = g_ptr_array_new_with_free_func ((GDestroyNotify) cg_url_nav_node_free);
  node->urls = g_ptr_array_new_with_free_func (g_free);
  node->parent = parent;
  node->level = parent != NULL ? parent->level + 1 : 0;
  return node;
}

void
cg_url_nav_node_free (CgUrlNavNode *node)
{
  if (node == NULL)
    return;
  g_free (node->pattern);
  g_clear_pointer (&node->regex, g_regex_unref);
  g_ptr_array_unref (node->children);
  g_ptr_array_unref (node->urls);
  g_free (node);
}

/* The levels of @url as seed 001's URLsim counts them
 * (cg-url-pattern.h): path segments, then query parameters. */
static guint
count_levels (const char *url)
{
  g_autoptr(GUri) uri = g_uri_parse (url, G_URI_FLAGS_ENCODED, NULL);
  const char *path;
  const char *query;
  guint n = 1;

  if (uri == NULL)
    return 0;
  path = g_uri_get_path (uri);
  for (const char *p = path != NULL && path[0] == '/' ? path + 1 : path; p != NULL && *p != '\0'; p++)
    n += *p == '/';
  query = g_uri_get_query (uri);
  if (query != NULL && *query != '\0')
    {
      n++;
      for (const char *p = query; *p != '\0'; p++)
        n += *p == '&';
    }
  return n;
}

/* URLsim with K = 2, and one more condition: URLs of two levels or more
 * must agree on one of them. With K = 2 alone, any two URLs of two
 * levels are similar, and a shop's /book/NAME and /author/NAME, or its
 * lists and their items, would be one group. */
static gboolean
urls_similar (const char *a,
              const char *b)
{
  guint levels = count_levels (a);
  guint allowed = levels >= 2 ? MIN (CG_URL_PATTERN_MAX_DIFFERENCES, levels - 1) : CG_URL_PATTERN_MAX_DIFFERENCES;

  return cg_url_pattern_similar (a, b, allowed);
}

/* Algorithm 3 on the pages @members grouped into @node: their children
 * on target paths are split into groups of similar URLs, each a child
 * node, grouped in turn. */
static gboolean
group (CgUrlNavNode  *node,
       GPtrArray     *members,
       GError       **error)
{
  g_autoptr(GPtrArray) groups = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);

  for (guint m = 0; m < members->len; m++)
    {
      MapPage *member = g_ptr_array_index (members, m);

      for (guint c = 0; c < member->children->len; c++)
        {
          MapPage *child = g_ptr_array_index (member->children, c);
          GPtrArray *found = NULL;

          if (!child->on_path)
            continue;
          for (guint g = 0; g < groups->len && found == NULL; g++)
            {
              GPtrArray *candidate = g_ptr_array_index (groups, g);
              MapPage *first = g_ptr_array_index (candidate, 0);

              if (urls_similar (first->url, child->url))
                found = candidate;
            }
          if (found == NULL)
            {
              found = g_ptr_array_new ();
              g_ptr_array_add (groups, found);
            }
          g_ptr_array_add (found, child);
        }
    }

  for (guint g = 0; g < groups->len; g++)
    {
      GPtrArray *members_of_child = g_ptr_array_index (groups, g);
      CgUrlNavNode *child = nav_node_new (node);

      g_ptr_array_add (node->children, child);
      for (guint i = 0; i < members_of_child->len; i++)
        {
          MapPage *page = g_ptr_array_index (members_of_child, i);

          g_ptr_array_add (child->urls, g_strdup (page->url));
          child->n_pages++;
          child->n_targets += page->target ? 1 : 0;
        }
      if (!group (child, members_of_child, error))
        return FALSE;
    }
  return TRUE;
}

static void
move_children (CgUrlNavNode *to,
               CgUrlNavNode *from)
{
  while (from->children->len > 0)
    {
      CgUrlNavNode *child = g_ptr_array_steal_index (from->children, 0);

      child->parent = to;
      g_ptr_array_add (to->children, child);
    }
  while (from->urls->len > 0)
    g_ptr_array_add (to->urls, g_ptr_array_steal_index (from->urls, 0));
  to->n_pages += from->n_pages;
  to->n_targets += from->n_targets;
  to->repeats |= from->repeats;
}

/* One level of a URL: a path segment, or a query parameter. */
typedef struct {
  char  *origin;
  GStrv  segments;
  GStrv  params;
} UrlLevels;

static gboolean
url_levels (const char *url,
            UrlLevels  *out)
{
  g_autoptr(GUri) uri = g_uri_parse (url, G_URI_FLAGS_ENCODED, NULL);
  const char *path;
  const char *query;

  memset (out, 0, sizeof *out);
  if (uri == NULL || g_uri_get_host (uri) == NULL)
    return FALSE;
  if (g_uri_get_port (uri) > 0)
    out->origin = g_strdup_printf ("%s://%s:%d", g_uri_get_scheme (uri), g_uri_get_host (uri), g_uri_get_port (uri));
  else
    out->origin = g_strdup_printf ("%s://%s", g_uri_get_scheme (uri), g_uri_get_host (uri));
  path = g_uri_get_path (uri);
  out->segments = g_strsplit (path != NULL && path[0] == '/' ? path + 1 : (path != NULL ? path : ""), "/", -1);
  query = g_uri_get_query (uri);
  out->params = query != NULL && query[0] != '\0' ? g_strsplit (query, "&", -1) : g_new0 (char *, 1);
  return TRUE;
}

static void
url_levels_clear (UrlLevels *levels)
{
  g_free (levels->origin);
  g_strfreev (levels->segments);
  g_strfreev (levels->params);
}

/* The pattern of a group of URLs of one shape (urls_similar() makes sure
 * of that): a level that all of them share stays literal, a level that
 * varies becomes any level (a query parameter keeps its name). Seed
 * 001's Algorithm 4 (cg_url_pattern_generate()) generalises each varying
 * level token by token, which fits the URLs seen and no more: with the
 * book pages of a mapped sample, a book whose slug has one word more than
 * theirs is missed. Returns NULL when the URLs do not share one shape;
 * the caller then uses Algorithm 4. */
static char *
shape_pattern (GPtrArray *urls)
{
  g_autofree UrlLevels *levels = g_new0 (UrlLevels, urls->len);
  GString *pattern = NULL;
  guint n_segments = 0, n_params = 0;
  gboolean ok = TRUE;

  for (guint i = 0; i < urls->len && ok; i++)
    {
      ok = url_levels (g_ptr_array_index (urls, i), &levels[i]);
      if (ok && i == 0)
        {
          n_segments = g_strv_length (levels[0].segments);
          n_params = g_strv_length (levels[0].params);
        }
      else if (ok)
        ok = g_str_equal (levels[i].origin, levels[0].origin) && g_strv_length (levels[i].segments) == n_segments &&
             g_strv_length (levels[i].params) == n_params;
    }
  if (ok)
    {
      g_autofree char *origin = g_regex_escape_string (levels[0].origin, -1);

      pattern = g_string_new ("^");
      g_string_append (pattern, origin);
      for (guint k = 0; k < n_segments; k++)
        {
          gboolean same = TRUE;

          for (guint i = 1; i < urls->len && same; i++)
            same = g_str_equal (levels[i].segments[k], levels[0].segments[k]);
          g_string_append_c (pattern, '/');
          if (same)
            {
              g_autofree char *literal = g_regex_escape_string (levels[0].segments[k], -1);

              g_string_append (pattern, literal);
            }
          else
            g_string_append (pattern, "[^/?#]+");
        }
      for (guint k = 0; k < n_params; k++)
        {
          const char *equals = strchr (levels[0].params[k], '=');
          gsize name_length = equals != NULL ? (gsize) (equals - levels[0].params[k]) : strlen (levels[0].params[k]);
          gboolean same = TRUE, same_name = TRUE;

          for (guint i = 1; i < urls->len; i++)
            {
              same = same && g_str_equal (levels[i].params[k], levels[0].params[k]);
              same_name = same_name && strncmp (levels[i].params[k], levels[0].params[k], name_length) == 0 &&
                          (levels[i].params[k][name_length] == '=' || levels[i].params[k][name_length] == '\0');
            }
          g_string_append (pattern, k == 0 ? "\\?" : "&");
          if (same)
            {
              g_autofree char *literal = g_regex_escape_string (levels[0].params[k], -1);

              g_string_append (pattern, literal);
            }
          else if (same_name)
            {
              g_autofree char *name = g_regex_escape_string (levels[0].params[k], (gint) name_length);

              g_string_append_printf (pattern, "%s=[^&#]*", name);
            }
          else
            g_string_append (pattern, "[^&#]+");
        }
      g_string_append_c (pattern, '$');
    }
  for (guint i = 0; i < urls->len; i++)
    url_levels_clear (&levels[i]);
  return pattern != NULL ? g_string_free (pattern, FALSE) : NULL;
}

/* Each node's pattern, from the URLs grouped into it. */
static gboolean
set_patterns (CgUrlNavNode  *node,
              GError       **error)
{
  if (node->parent != NULL)
    {
      node->pattern = shape_pattern (node->urls);
      if (node->pattern == NULL)
        {
          g_ptr_array_add (node->urls, NULL);
          node->pattern = cg_url_pattern_generate ((const char * const *) node->urls->pdata, error);
          g_ptr_array_remove_index (node->urls, node->urls->len - 1);
        }
      if (node->pattern == NULL)
        return FALSE;
      node->regex = g_regex_new (node->pattern, G_REGEX_OPTIMIZE, 0, error);
      if (node->regex == NULL)
        return FALSE;
    }
  for (guint i = 0; i < node->children->len; i++)
    if (!set_patterns (g_ptr_array_index (node->children, i), error))
      return FALSE;
  return TRUE;
}

/* Levels from the root, and repetition for every list node: a node whose
 * pages were no targets but led to some. The map seldom shows a whole
 * pagination (the mapping stops at its page budget, and a list's fourth
 * page is often linked from its third only), so a list node follows the
 * links of its own pattern on its pages too; whatever that reaches is
 * still compared with the sample before it counts. */
static void
set_levels (CgUrlNavNode *node)
{
  for (guint i = 0; i < node->children->len; i++)
    {
      CgUrlNavNode *child = g_ptr_array_index (node->children, i);

      child->level = node->level + 1;
      if (child->n_targets == 0 && child->children->len > 0)
        child->repeats = TRUE;
      set_levels (child);
    }
}

/* Folds a child whose URLs are similar to its parent's into the parent,
 * which then repeats (the next pages of a list), and merges siblings
 * with similar URLs (the book pages found on a category's first page and
 * on its next pages). Each step takes a node away, so the loop ends. */
static void
fold (CgUrlNavNode *node)
{
  gboolean changed = TRUE;

  while (changed)
    {
      changed = FALSE;
      for (guint i = 0; i < node->children->len && !changed; i++)
        {
          CgUrlNavNode *child = g_ptr_array_index (node->children, i);

          if (node->parent != NULL && urls_similar (g_ptr_array_index (node->urls, 0), g_ptr_array_index (child->urls, 0)))
            {
              child = g_ptr_array_steal_index (node->children, i);
              move_children (node, child);
              node->repeats = TRUE;
              cg_url_nav_node_free (child);
              changed = TRUE;
            }
        }
      for (guint i = 0; i < node->children->len && !changed; i++)
        for (guint j = i + 1; j < node->children->len && !changed; j++)
          {
            CgUrlNavNode *a = g_ptr_array_index (node->children, i);
            CgUrlNavNode *b = g_ptr_array_index (node->children, j);

            if (urls_similar (g_ptr_array_index (a->urls, 0), g_ptr_array_index (b->urls, 0)))
              {
                b = g_ptr_array_steal_index (node->children, j);
                move_children (a, b);
                cg_url_nav_node_free (b);
                changed = TRUE;
              }
          }
    }
  for (guint i = 0; i < node->children->len; i++)
    fold (g_ptr_array_index (node->children, i));
}

CgUrlNavNode *
cg_target_map_generate (CgTargetMap  *self,
                        GError      **error)
{
  g_autoptr(CgUrlNavNode) root = NULL;
  g_autoptr(GPtrArray) entry = g_ptr_array_new ();
  GHashTableIter iter;
  gpointer value;

  g_return_val_if_fail (self != NULL, NULL);

  if (self->n_targets == 0)
    {
      g_set_error (error, CG_TARGET_MAP_ERROR, CG_TARGET_MAP_ERROR_NO_TARGET,
                   _("No page like the sample was found from %s"), self->entry->url);
      return NULL;
    }

  /* Def. 4: the map is the tree of the discovery paths of the targets. */
  g_hash_table_iter_init (&iter, self->pages);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      MapPage *page = value;

      page->on_path = FALSE;
    }
  g_hash_table_iter_init (&iter, self->pages);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      MapPage *page = value;

      if (!page->target)
        continue;
      for (MapPage *p = page; p != NULL && !p->on_path; p = p->parent)
        p->on_path = TRUE;
    }

  root = nav_node_new (NULL);
  root->n_pages = 1;
  root->n_targets = self->entry->target ? 1 : 0;
  g_ptr_array_add (entry, self->entry);
  g_ptr_array_add (root->urls, g_strdup (self->entry->url));
  if (!group (root, entry, error))
    return NULL;
  fold (root);
  if (!set_patterns (root, error))
    return NULL;
  set_levels (root);
  return g_steal_pointer (&root);
}

GPtrArray *
cg_url_nav_node_follow (CgUrlNavNode *node,
                        const char   *url)
{
  GPtrArray *reached = g_ptr_array_new ();

  for (guint i = 0; i < node->children->len; i++)
    {
      CgUrlNavNode *child = g_ptr_array_index (node->children, i);

      if (g_regex_match (child->regex, url, 0, NULL))
        g_ptr_array_add (reached, child);
    }
  if (node->repeats && node->regex != NULL && g_regex_match (node->regex, url, 0, NULL))
    g_ptr_array_add (reached, node);
  return reached;
}

static void
flatten (CgUrlNavNode *node,
         GPtrArray    *out)
{
  g_ptr_array_add (out, node);
  for (guint i = 0; i < node->children->len; i++)
    flatten (g_ptr_array_index (node->children, i), out);
}

GPtrArray *
cg_url_nav_node_flatten (CgUrlNavNode *root)
{
  GPtrArray *out = g_ptr_array_new ();

  flatten (root, out);
  return out;
}

char *
cg_url_nav_node_to_string (CgUrlNavNode *root)
{
  g_autoptr(GPtrArray) nodes = cg_url_nav_node_flatten (root);
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < nodes->len; i++)
    {
      CgUrlNavNode *node = g_ptr_array_index (nodes, i);

      for (guint l = 0; l < node->level; l++)
        g_string_append (text, "  ");
      g_string_append_printf (text, "%s%s %u/%u\n", node->pattern != NULL ? node->pattern : "(entry)",
                              node->repeats ? " (+)" : "", node->n_pages, node->n_targets);
    }
  return g_string_free (text, FALSE);
}
