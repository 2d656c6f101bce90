/* cg-nav-patterns.c: seed 004's navigation patterns (ACEBot).
 *
 * The sets of pages a pattern reaches are bit sets over the vertices of
 * the sample, and 2-grams are interned to integers, so that enumerating a
 * few thousand patterns and rescoring them every round stays cheap: a
 * round costs the sum, over the candidates, of the 2-grams of the pages
 * each one newly reaches.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "cg-nav-patterns.h"
#include "cg-page-features.h"

G_DEFINE_QUARK (cg-nav-error-quark, cg_nav_error)

/* ---- links ------------------------------------------------------------------ */

CgNavLink *
cg_nav_link_new (const char *url,
                 const char *label)
{
  CgNavLink *link = g_new0 (CgNavLink, 1);

  link->url = g_strdup (url);
  link->label = g_strdup (label);
  return link;
}

void
cg_nav_link_free (CgNavLink *link)
{
  if (link == NULL)
    return;
  g_free (link->url);
  g_free (link->label);
  g_free (link);
}

GPtrArray *
cg_nav_links_for_document (htmlDocPtr             doc,
                           const char            *document_url,
                           CgLinkLabelAttributes  attributes,
                           GError               **error)
{
  g_autoptr(GPtrArray) anchors = NULL;
  GPtrArray *links;

  g_return_val_if_fail (doc != NULL, NULL);
  g_return_val_if_fail (document_url != NULL, NULL);

  anchors = cg_page_collect_anchors (doc, document_url, error);
  if (anchors == NULL)
    return NULL;
  links = g_ptr_array_new_full (anchors->len, (GDestroyNotify) cg_nav_link_free);
  for (guint i = 0; i < anchors->len; i++)
    {
      CgPageAnchor *anchor = anchors->pdata[i];
      CgNavLink *link = g_new0 (CgNavLink, 1);

      link->url = g_strdup (anchor->url);
      link->label = cg_link_label_for_path (anchor->path, attributes);
      g_ptr_array_add (links, link);
    }
  return links;
}

/* ---- labels -------------------------------------------------------------------- */

/* The length of the label that starts at @text and ends before the ')'
 * that closes the step, or -1 when brackets or quotes do not balance
 * before the end of the text. The scan is by hand because a label is an
 * XPath inside our own small syntax, and no library reads that syntax. */
static gssize
scan_label (const char *text)
{
  int depth = 0;
  char quote = '\0';

  for (const char *p = text; *p != '\0'; p++)
    {
      if (quote != '\0')
        {
          if (*p == quote)
            quote = '\0';
          continue;
        }
      switch (*p)
        {
        case '"':
        case '\'':
          quote = *p;
          break;
        case '(':
        case '[':
          depth++;
          break;
        case ']':
          if (--depth < 0)
            return -1;
          break;
        case ')':
          if (depth == 0)
            return p - text;
          depth--;
          break;
        default:
          break;
        }
    }
  return -1;
}

/* Whether @label can be written in a pattern and read back. */
static gboolean
label_is_valid (const char *label)
{
  gsize length = strlen (label);
  g_autofree char *closed = NULL;

  if (length == 0 || length > CG_NAV_MAX_LABEL_LENGTH)
    return FALSE;
  if (strchr (label, '\n') != NULL || strchr (label, '\r') != NULL)
    return FALSE;
  closed = g_strconcat (label, ")", NULL);
  return scan_label (closed) == (gssize) length;
}

/* ---- expressions ------------------------------------------------------------- */

typedef struct {
  char     *label;
  gboolean  repeated;
} ExprStep;

struct _CgNavExpression
{
  GArray *steps;   /* ExprStep */
};

G_DEFINE_BOXED_TYPE (CgNavExpression, cg_nav_expression, cg_nav_expression_copy, cg_nav_expression_free)

static void
expr_step_clear (gpointer data)
{
  ExprStep *step = data;

  g_free (step->label);
}

static CgNavExpression *
expression_new (void)
{
  CgNavExpression *self = g_new0 (CgNavExpression, 1);

  self->steps = g_array_new (FALSE, TRUE, sizeof (ExprStep));
  g_array_set_clear_func (self->steps, expr_step_clear);
  return self;
}

static void
expression_append (CgNavExpression *self,
                   const char      *label,
                   gboolean         repeated)
{
  ExprStep step = { g_strdup (label), repeated };

  g_array_append_val (self->steps, step);
}

void
cg_nav_expression_free (CgNavExpression *self)
{
  if (self == NULL)
    return;
  g_array_unref (self->steps);
  g_free (self);
}

CgNavExpression *
cg_nav_expression_copy (const CgNavExpression *self)
{
  CgNavExpression *copy;

  g_return_val_if_fail (self != NULL, NULL);

  copy = expression_new ();
  for (guint i = 0; i < self->steps->len; i++)
    {
      const ExprStep *step = &g_array_index (self->steps, ExprStep, i);

      expression_append (copy, step->label, step->repeated);
    }
  return copy;
}

static gboolean
parse_error (GError     **error,
             const char  *text,
             gsize        offset,
             const char  *what)
{
  g_autofree char *shown = g_utf8_make_valid (text, MIN (strlen (text), 200));

  g_set_error (error, CG_NAV_ERROR, CG_NAV_ERROR_PARSE,
               _("Cannot read the navigation pattern “%s” at offset %zu: %s"),
               shown, offset, what);
  return FALSE;
}

CgNavExpression *
cg_nav_expression_new_from_string (const char  *text,
                                   GError     **error)
{
  g_autoptr(CgNavExpression) self = NULL;
  const char *p;

  g_return_val_if_fail (text != NULL, NULL);

  self = expression_new ();
  p = text;
  while (*p != '\0')
    {
      gboolean repeated = FALSE;
      g_autofree char *label = NULL;
      gssize length;

      if (self->steps->len > 0)
        {
          if (*p != ' ')
            {
              parse_error (error, text, p - text, _("steps must be separated by one space"));
              return NULL;
            }
          p++;
        }
      if (self->steps->len == CG_NAV_MAX_DEPTH)
        {
          g_autofree char *what = g_strdup_printf (_("more than %u steps"), CG_NAV_MAX_DEPTH);

          parse_error (error, text, p - text, what);
          return NULL;
        }
      if (g_str_has_prefix (p, "L+("))
        {
          repeated = TRUE;
          p += 3;
        }
      else if (g_str_has_prefix (p, "L("))
        p += 2;
      else
        {
          parse_error (error, text, p - text, _("a step starts with “L(” or “L+(”"));
          return NULL;
        }
      length = scan_label (p);
      if (length < 0)
        {
          parse_error (error, text, p - text, _("the label has unbalanced brackets or quotes"));
          return NULL;
        }
      if (length == 0)
        {
          parse_error (error, text, p - text, _("the label is empty"));
          return NULL;
        }
      if (length > CG_NAV_MAX_LABEL_LENGTH)
        {
          parse_error (error, text, p - text, _("the label is too long"));
          return NULL;
        }
      label = g_strndup (p, length);
      if (!label_is_valid (label))
        {
          parse_error (error, text, p - text, _("the label holds a line break"));
          return NULL;
        }
      expression_append (self, label, repeated);
      p += length + 1;
    }
  if (self->steps->len == 0)
    {
      parse_error (error, text, 0, _("there is no step"));
      return NULL;
    }
  return g_steal_pointer (&self);
}

guint
cg_nav_expression_get_n_steps (const CgNavExpression *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->steps->len;
}

const char *
cg_nav_expression_get_label (const CgNavExpression *self,
                             guint                  step)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (step < self->steps->len, NULL);
  return g_array_index (self->steps, ExprStep, step).label;
}

gboolean
cg_nav_expression_get_repeated (const CgNavExpression *self,
                                guint                  step)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (step < self->steps->len, FALSE);
  return g_array_index (self->steps, ExprStep, step).repeated;
}

char *
cg_nav_expression_to_string (const CgNavExpression *self)
{
  GString *out = g_string_new (NULL);

  g_return_val_if_fail (self != NULL, NULL);

  for (guint i = 0; i < self->steps->len; i++)
    {
      const ExprStep *step = &g_array_index (self->steps, ExprStep, i);

      if (i > 0)
        g_string_append_c (out, ' ');
      g_string_append_printf (out, "%s(%s)", step->repeated ? "L+" : "L", step->label);
    }
  return g_string_free (out, FALSE);
}

char *
cg_nav_expression_to_oxpath (const CgNavExpression *self,
                             const char            *entry_url)
{
  GString *out = g_string_new ("doc(");
  g_autofree char *literal = NULL;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (entry_url != NULL, NULL);

  literal = cg_dom_xpath_literal (entry_url);
  g_string_append (out, literal);
  g_string_append_c (out, ')');
  for (guint i = 0; i < self->steps->len; i++)
    {
      const ExprStep *step = &g_array_index (self->steps, ExprStep, i);

      g_string_append_printf (out, "/(%s/@href{click/})%s", step->label, step->repeated ? "+" : "");
    }
  return g_string_free (out, FALSE);
}

gboolean
cg_nav_expression_equal (const CgNavExpression *a,
                         const CgNavExpression *b)
{
  g_return_val_if_fail (a != NULL && b != NULL, FALSE);

  if (a->steps->len != b->steps->len)
    return FALSE;
  for (guint i = 0; i < a->steps->len; i++)
    {
      const ExprStep *x = &g_array_index (a->steps, ExprStep, i);
      const ExprStep *y = &g_array_index (b->steps, ExprStep, i);

      if (x->repeated != y->repeated || !g_str_equal (x->label, y->label))
        return FALSE;
    }
  return TRUE;
}

void
cg_nav_follow_free (CgNavFollow *follow)
{
  if (follow == NULL)
    return;
  g_free (follow->url);
  g_free (follow);
}

GPtrArray *
cg_nav_expression_follow (const CgNavExpression *self,
                          int                    reached_step,
                          GPtrArray             *links)
{
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  GPtrArray *follows = g_ptr_array_new_with_free_func ((GDestroyNotify) cg_nav_follow_free);
  const char *labels[2] = { NULL, NULL };
  guint steps[2] = { 0, 0 };

  g_return_val_if_fail (self != NULL, follows);
  g_return_val_if_fail (links != NULL, follows);
  g_return_val_if_fail (reached_step >= -1 && reached_step < (int) self->steps->len, follows);

  /* The next step first, then the same step again: when both have the
   * link's label (L+(x) L(x)), the link is followed both ways, as the
   * learning did, each way continuing the pattern differently. */
  if (reached_step + 1 < (int) self->steps->len)
    {
      labels[0] = g_array_index (self->steps, ExprStep, reached_step + 1).label;
      steps[0] = reached_step + 1;
    }
  if (reached_step >= 0 && g_array_index (self->steps, ExprStep, reached_step).repeated)
    {
      labels[1] = g_array_index (self->steps, ExprStep, reached_step).label;
      steps[1] = reached_step;
    }

  for (guint i = 0; i < links->len; i++)
    {
      CgNavLink *link = links->pdata[i];

      if (link->url == NULL || link->label == NULL)
        continue;
      for (guint k = 0; k < G_N_ELEMENTS (labels); k++)
        {
          CgNavFollow *follow;
          char *key;

          if (labels[k] == NULL || !g_str_equal (link->label, labels[k]))
            continue;
          key = g_strdup_printf ("%u %s", steps[k], link->url);
          if (!g_hash_table_add (seen, key))
            continue;
          follow = g_new0 (CgNavFollow, 1);
          follow->url = g_strdup (link->url);
          follow->step = steps[k];
          g_ptr_array_add (follows, follow);
        }
    }
  return follows;
}

/* ---- the graph ------------------------------------------------------------------ */

typedef struct {
  char  *url;
  guint  label;
} PendingLink;

typedef struct {
  char    *url;
  guint    index;
  guint32 *items;      /* sorted 2-gram ids */
  guint    n_items;
  GArray  *links;      /* PendingLink */
} Page;

struct _CgNavGraph
{
  char       *entry_url;
  GPtrArray  *pages;        /* Page *, the vertices */
  GHashTable *by_url;       /* URL → Page *, aliases included */
  GHashTable *by_items;     /* digest of a non-empty 2-gram set → Page * */
  GHashTable *label_ids;    /* label → id + 1 */
  GPtrArray  *labels;       /* id → label */
  GHashTable *bigram_ids;   /* 2-gram → id + 1 */
  guint       n_bigrams;
};

static void
pending_link_clear (gpointer data)
{
  PendingLink *link = data;

  g_free (link->url);
}

static void
page_free (Page *page)
{
  g_free (page->url);
  g_free (page->items);
  g_array_unref (page->links);
  g_free (page);
}

CgNavGraph *
cg_nav_graph_new (const char *entry_url)
{
  CgNavGraph *self;

  g_return_val_if_fail (entry_url != NULL, NULL);

  self = g_new0 (CgNavGraph, 1);
  self->entry_url = g_strdup (entry_url);
  self->pages = g_ptr_array_new_with_free_func ((GDestroyNotify) page_free);
  self->by_url = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->by_items = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->label_ids = g_hash_table_new (g_str_hash, g_str_equal);
  self->labels = g_ptr_array_new_with_free_func (g_free);
  self->bigram_ids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  return self;
}

void
cg_nav_graph_free (CgNavGraph *self)
{
  if (self == NULL)
    return;
  g_free (self->entry_url);
  g_ptr_array_unref (self->pages);
  g_hash_table_unref (self->by_url);
  g_hash_table_unref (self->by_items);
  g_hash_table_unref (self->label_ids);
  g_ptr_array_unref (self->labels);
  g_hash_table_unref (self->bigram_ids);
  g_free (self);
}

const char *
cg_nav_graph_get_entry_url (CgNavGraph *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->entry_url;
}

guint
cg_nav_graph_get_n_pages (CgNavGraph *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->pages->len;
}

guint
cg_nav_graph_get_n_urls (CgNavGraph *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return g_hash_table_size (self->by_url);
}

guint
cg_nav_graph_get_n_bigrams (CgNavGraph *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->n_bigrams;
}

static guint
intern_label (CgNavGraph *self,
              const char *label)
{
  gpointer found = g_hash_table_lookup (self->label_ids, label);
  char *copy;

  if (found != NULL)
    return GPOINTER_TO_UINT (found) - 1;
  copy = g_strdup (label);
  g_ptr_array_add (self->labels, copy);
  g_hash_table_insert (self->label_ids, copy, GUINT_TO_POINTER (self->labels->len));
  return self->labels->len - 1;
}

static int
compare_guint32 (gconstpointer a,
                 gconstpointer b)
{
  guint32 x = *(const guint32 *) a;
  guint32 y = *(const guint32 *) b;

  return x < y ? -1 : x > y;
}

static gboolean
invalid_page (GError     **error,
              const char  *url,
              const char  *what)
{
  g_autofree char *shown = g_utf8_make_valid (url != NULL ? url : "", MIN (url != NULL ? strlen (url) : 0, 200));

  g_set_error (error, CG_NAV_ERROR, CG_NAV_ERROR_INVALID_PAGE,
               _("Cannot add the page “%s” to the navigation sample: %s"), shown, what);
  return FALSE;
}

gboolean
cg_nav_graph_add_page (CgNavGraph  *self,
                       const char  *url,
                       GHashTable  *bigrams,
                       GPtrArray   *links,
                       gboolean    *out_alias,
                       GError     **error)
{
  g_autofree guint32 *items = NULL;
  g_autofree char *digest = NULL;
  GHashTableIter iter;
  gpointer key;
  guint n_items = 0;
  Page *page = NULL;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (url != NULL, FALSE);
  g_return_val_if_fail (bigrams != NULL, FALSE);
  g_return_val_if_fail (links != NULL, FALSE);

  if (out_alias != NULL)
    *out_alias = FALSE;
  if (*url == '\0')
    return invalid_page (error, url, _("the URL is empty"));
  if (g_hash_table_contains (self->by_url, url))
    return invalid_page (error, url, _("it was added before"));
  if (links->len > CG_NAV_MAX_LINKS_PER_PAGE)
    {
      g_autofree char *shown = g_utf8_make_valid (url, MIN (strlen (url), 200));

      g_set_error (error, CG_NAV_ERROR, CG_NAV_ERROR_TOO_MANY,
                   _("Cannot add the page “%s” to the navigation sample: it has %u links, more than %u"),
                   shown, links->len, CG_NAV_MAX_LINKS_PER_PAGE);
      return FALSE;
    }
  for (guint i = 0; i < links->len; i++)
    {
      CgNavLink *link = links->pdata[i];

      if (link == NULL || link->url == NULL || link->url[0] == '\0')
        {
          g_autofree char *what = g_strdup_printf (_("link %u has no URL"), i + 1);

          return invalid_page (error, url, what);
        }
      if (link->label == NULL || !label_is_valid (link->label))
        {
          g_autofree char *what = g_strdup_printf (_("link %u has an empty, overlong or unbalanced label"), i + 1);

          return invalid_page (error, url, what);
        }
    }

  /* The 2-grams, interned; a page's set is sorted so that two equal sets
   * have equal digests. */
  items = g_new (guint32, MAX (g_hash_table_size (bigrams), 1));
  g_hash_table_iter_init (&iter, bigrams);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    {
      gpointer found = g_hash_table_lookup (self->bigram_ids, key);

      if (found == NULL)
        {
          self->n_bigrams++;
          found = GUINT_TO_POINTER (self->n_bigrams);
          g_hash_table_insert (self->bigram_ids, g_strdup (key), found);
        }
      items[n_items++] = GPOINTER_TO_UINT (found) - 1;
    }
  qsort (items, n_items, sizeof (guint32), compare_guint32);
  if (n_items > 0)
    {
      digest = g_compute_checksum_for_data (G_CHECKSUM_SHA256, (const guchar *) items, n_items * sizeof (guint32));
      page = g_hash_table_lookup (self->by_items, digest);
    }

  if (page == NULL)
    {
      if (self->pages->len >= CG_NAV_MAX_PAGES)
        {
          g_autofree char *shown = g_utf8_make_valid (url, MIN (strlen (url), 200));

          g_set_error (error, CG_NAV_ERROR, CG_NAV_ERROR_TOO_MANY,
                       _("Cannot add the page “%s” to the navigation sample: it already holds %u pages"),
                       shown, CG_NAV_MAX_PAGES);
          return FALSE;
        }
      page = g_new0 (Page, 1);
      page->url = g_strdup (url);
      page->index = self->pages->len;
      page->items = g_steal_pointer (&items);
      page->n_items = n_items;
      page->links = g_array_new (FALSE, TRUE, sizeof (PendingLink));
      g_array_set_clear_func (page->links, pending_link_clear);
      g_ptr_array_add (self->pages, page);
      if (digest != NULL)
        g_hash_table_insert (self->by_items, g_steal_pointer (&digest), page);
    }
  else if (out_alias != NULL)
    *out_alias = TRUE;

  g_hash_table_insert (self->by_url, g_strdup (url), page);
  for (guint i = 0; i < links->len; i++)
    {
      CgNavLink *link = links->pdata[i];
      PendingLink pending = { g_strdup (link->url), intern_label (self, link->label) };

      g_array_append_val (page->links, pending);
    }
  return TRUE;
}

gboolean
cg_nav_graph_add_document (CgNavGraph             *self,
                           const char             *url,
                           htmlDocPtr              doc,
                           CgLinkLabelAttributes   attributes,
                           gboolean               *out_alias,
                           GError                **error)
{
  g_autoptr(GPtrArray) links = NULL;
  g_autoptr(GHashTable) bigrams = NULL;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (url != NULL, FALSE);
  g_return_val_if_fail (doc != NULL, FALSE);

  links = cg_nav_links_for_document (doc, url, attributes, error);
  if (links == NULL)
    return FALSE;
  bigrams = cg_page_collect_bigrams (doc, NULL);
  return cg_nav_graph_add_page (self, url, bigrams, links, out_alias, error);
}

/* ---- selection ------------------------------------------------------------------ */

void
cg_nav_options_init (CgNavOptions *options)
{
  g_return_if_fail (options != NULL);

  options->max_depth = CG_NAV_DEFAULT_DEPTH;
  options->max_repeats = CG_NAV_DEFAULT_MAX_REPEATS;
  options->completion_ratio = CG_NAV_DEFAULT_COMPLETION_RATIO;
}

void
cg_nav_choice_free (CgNavChoice *choice)
{
  if (choice == NULL)
    return;
  cg_nav_expression_free (choice->expression);
  g_free (choice);
}

typedef struct {
  guint label;
  guint target;
} Edge;

typedef struct {
  guint label;
  gboolean repeated;
} Step;

/* A pattern being enumerated: its steps, the pages its last step reached
 * (where the next step starts) and every page it reached. */
typedef struct {
  Step     *steps;
  guint     n_steps;
  guint64  *frontier;  /* freed once the next level is enumerated */
  guint64  *nodes;     /* freed then too, unless the pattern is a candidate */
  gboolean  alive;     /* a candidate still in the running */
} Pattern;

typedef struct {
  CgNavGraph *graph;
  guint       n_vertices;
  guint       n_words;
  GArray    **edges;       /* per vertex: Edge, sorted by label then target */
  guint       root;
  GPtrArray  *patterns;    /* Pattern *, every enumerated one */
  GPtrArray  *candidates;  /* Pattern *, distinct page sets, owned by patterns */
  gboolean    truncated;
} Selection;

static void
pattern_free (Pattern *pattern)
{
  g_free (pattern->steps);
  g_free (pattern->frontier);
  g_free (pattern->nodes);
  g_free (pattern);
}

static inline void
bit_set (guint64 *bits,
         guint    i)
{
  bits[i / 64] |= G_GUINT64_CONSTANT (1) << (i % 64);
}

static inline gboolean
bit_get (const guint64 *bits,
         guint          i)
{
  return (bits[i / 64] >> (i % 64)) & 1;
}

static gboolean
bits_empty (const guint64 *bits,
            guint          n_words)
{
  for (guint w = 0; w < n_words; w++)
    if (bits[w] != 0)
      return FALSE;
  return TRUE;
}

static guint
bits_count (const guint64 *bits,
            guint          n_words)
{
  guint n = 0;

  for (guint w = 0; w < n_words; w++)
    n += __builtin_popcountll (bits[w]);
  return n;
}

static int
compare_edges (gconstpointer a,
               gconstpointer b)
{
  const Edge *x = a;
  const Edge *y = b;

  if (x->label != y->label)
    return x->label < y->label ? -1 : 1;
  return x->target < y->target ? -1 : x->target > y->target;
}

/* The edges between sampled pages, from the links recorded with them. */
static void
build_edges (Selection *sel)
{
  CgNavGraph *graph = sel->graph;

  sel->edges = g_new0 (GArray *, sel->n_vertices);
  for (guint v = 0; v < sel->n_vertices; v++)
    {
      Page *page = graph->pages->pdata[v];
      GArray *edges = g_array_new (FALSE, FALSE, sizeof (Edge));
      guint kept = 0;

      for (guint i = 0; i < page->links->len; i++)
        {
          PendingLink *link = &g_array_index (page->links, PendingLink, i);
          Page *target = g_hash_table_lookup (graph->by_url, link->url);
          Edge edge;

          if (target == NULL)
            continue;
          edge.label = link->label;
          edge.target = target->index;
          g_array_append_val (edges, edge);
        }
      g_array_sort (edges, compare_edges);
      for (guint i = 0; i < edges->len; i++)
        {
          Edge *edge = &g_array_index (edges, Edge, i);

          if (kept > 0 && compare_edges (edge, &g_array_index (edges, Edge, kept - 1)) == 0)
            continue;
          g_array_index (edges, Edge, kept++) = *edge;
        }
      g_array_set_size (edges, kept);
      sel->edges[v] = edges;
    }
}

/* Adds to @out the pages that links labelled @label lead to from @from. */
static void
follow_label (Selection     *sel,
              const guint64 *from,
              guint          label,
              guint64       *out)
{
  for (guint v = 0; v < sel->n_vertices; v++)
    {
      GArray *edges;

      if (!bit_get (from, v))
        continue;
      edges = sel->edges[v];
      for (guint i = 0; i < edges->len; i++)
        {
          Edge *edge = &g_array_index (edges, Edge, i);

          if (edge->label == label)
            bit_set (out, edge->target);
          else if (edge->label > label)
            break;
        }
    }
}

/* The labels of the links that leave @from, in increasing order. */
static GArray *
labels_leaving (Selection     *sel,
                const guint64 *from)
{
  g_autoptr(GHashTable) seen = g_hash_table_new (NULL, NULL);
  GArray *labels = g_array_new (FALSE, FALSE, sizeof (guint));

  for (guint v = 0; v < sel->n_vertices; v++)
    {
      GArray *edges;

      if (!bit_get (from, v))
        continue;
      edges = sel->edges[v];
      for (guint i = 0; i < edges->len; i++)
        {
          guint label = g_array_index (edges, Edge, i).label;

          if (g_hash_table_add (seen, GUINT_TO_POINTER (label + 1)))
            g_array_append_val (labels, label);
        }
    }
  g_array_sort (labels, compare_guint32);
  return labels;
}

/* One step of @parent along @label, with the continuity bound for
 * repeated steps: the step repeats when following the label again from
 * the pages it reached brings pages the pattern had not reached. */
static Pattern *
extend (Selection     *sel,
        const Pattern *parent,
        guint          label,
        guint          max_repeats)
{
  guint n_words = sel->n_words;
  Pattern *child = g_new0 (Pattern, 1);
  g_autofree guint64 *current = g_new0 (guint64, n_words);
  g_autofree guint64 *next = g_new0 (guint64, n_words);

  child->frontier = g_new0 (guint64, n_words);
  child->nodes = g_new0 (guint64, n_words);
  follow_label (sel, parent->frontier, label, child->frontier);
  if (bits_empty (child->frontier, n_words))
    {
      pattern_free (child);
      return NULL;
    }
  child->n_steps = parent->n_steps + 1;
  child->steps = g_new (Step, child->n_steps);
  if (parent->n_steps > 0)
    memcpy (child->steps, parent->steps, parent->n_steps * sizeof (Step));
  child->steps[parent->n_steps].label = label;
  child->steps[parent->n_steps].repeated = FALSE;
  for (guint w = 0; w < n_words; w++)
    child->nodes[w] = parent->nodes[w] | child->frontier[w];

  memcpy (current, child->frontier, n_words * sizeof (guint64));
  for (guint round = 1; round < max_repeats; round++)
    {
      gboolean grew = FALSE;

      memset (next, 0, n_words * sizeof (guint64));
      follow_label (sel, current, label, next);
      for (guint w = 0; w < n_words; w++)
        {
          next[w] &= ~child->nodes[w];
          grew |= next[w] != 0;
          child->frontier[w] |= next[w];
          child->nodes[w] |= next[w];
        }
      if (!grew)
        break;
      child->steps[parent->n_steps].repeated = TRUE;
      memcpy (current, next, n_words * sizeof (guint64));
    }
  return child;
}

/* Every pattern of up to @max_depth steps from the entry point, level by
 * level, so that of several patterns that reach the same pages the
 * shortest is the candidate kept. */
static void
enumerate (Selection          *sel,
           const CgNavOptions *options)
{
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_bytes_hash, g_bytes_equal,
                                                      (GDestroyNotify) g_bytes_unref, NULL);
  g_autoptr(GPtrArray) level = g_ptr_array_new ();
  Pattern *root = g_new0 (Pattern, 1);

  root->frontier = g_new0 (guint64, sel->n_words);
  root->nodes = g_new0 (guint64, sel->n_words);
  bit_set (root->frontier, sel->root);
  bit_set (root->nodes, sel->root);
  g_ptr_array_add (sel->patterns, root);
  g_ptr_array_add (level, root);

  for (guint depth = 1; depth <= options->max_depth && level->len > 0; depth++)
    {
      g_autoptr(GPtrArray) next_level = g_ptr_array_new ();

      for (guint i = 0; i < level->len && !sel->truncated; i++)
        {
          Pattern *parent = level->pdata[i];
          g_autoptr(GArray) labels = labels_leaving (sel, parent->frontier);

          for (guint l = 0; l < labels->len; l++)
            {
              Pattern *child;
              GBytes *key;

              if (sel->patterns->len > CG_NAV_MAX_PATTERNS)
                {
                  sel->truncated = TRUE;
                  break;
                }
              child = extend (sel, parent, g_array_index (labels, guint, l), options->max_repeats);
              if (child == NULL)
                continue;
              g_ptr_array_add (sel->patterns, child);
              g_ptr_array_add (next_level, child);
              key = g_bytes_new (child->nodes, sel->n_words * sizeof (guint64));
              if (g_hash_table_contains (seen, key))
                {
                  g_bytes_unref (key);
                  continue;
                }
              g_hash_table_add (seen, key);
              child->alive = TRUE;
              g_ptr_array_add (sel->candidates, child);
            }
        }
      /* What the level above needed to be extended is no longer needed:
       * only the candidates' pages are kept for the selection. */
      for (guint i = 0; i < level->len; i++)
        {
          Pattern *parent = level->pdata[i];

          g_clear_pointer (&parent->frontier, g_free);
          if (!parent->alive)
            g_clear_pointer (&parent->nodes, g_free);
        }
      g_ptr_array_unref (level);
      level = g_steal_pointer (&next_level);
    }
}

static gboolean
is_prefix (const Pattern *prefix,
           const Pattern *pattern)
{
  if (prefix->n_steps > pattern->n_steps)
    return FALSE;
  for (guint i = 0; i < prefix->n_steps; i++)
    if (prefix->steps[i].label != pattern->steps[i].label ||
        prefix->steps[i].repeated != pattern->steps[i].repeated)
      return FALSE;
  return TRUE;
}

static CgNavExpression *
pattern_to_expression (Selection     *sel,
                       const Pattern *pattern)
{
  CgNavExpression *expression = expression_new ();

  for (guint i = 0; i < pattern->n_steps; i++)
    expression_append (expression, sel->graph->labels->pdata[pattern->steps[i].label],
                       pattern->steps[i].repeated);
  return expression;
}

static gboolean
check_options (const CgNavOptions  *options,
               GError             **error)
{
  if (options->max_depth < 1 || options->max_depth > CG_NAV_MAX_DEPTH)
    {
      g_set_error (error, CG_NAV_ERROR, CG_NAV_ERROR_INVALID_OPTIONS,
                   _("The depth of navigation patterns must be between 1 and %u, not %u"),
                   CG_NAV_MAX_DEPTH, options->max_depth);
      return FALSE;
    }
  if (options->max_repeats < 1)
    {
      g_set_error (error, CG_NAV_ERROR, CG_NAV_ERROR_INVALID_OPTIONS,
                   _("A navigation step must be followed at least once, not %u times"),
                   options->max_repeats);
      return FALSE;
    }
  if (!(options->completion_ratio > 0.0 && options->completion_ratio <= 1.0))
    {
      g_set_error (error, CG_NAV_ERROR, CG_NAV_ERROR_INVALID_OPTIONS,
                   _("The completion ratio must be above 0 and at most 1, not %g"),
                   options->completion_ratio);
      return FALSE;
    }
  return TRUE;
}

GPtrArray *
cg_nav_graph_select (CgNavGraph          *self,
                     const CgNavOptions  *options,
                     CgNavStats          *stats,
                     GError             **error)
{
  CgNavOptions defaults;
  Selection sel = { 0 };
  GPtrArray *choices;
  Page *root;
  g_autofree guint64 *covered_nodes = NULL;
  g_autofree guint8 *covered_items = NULL;
  g_autofree guint *marks = NULL;
  g_autofree guint64 *reachable = NULL;
  guint n_covered = 0;
  guint epoch = 0;

  g_return_val_if_fail (self != NULL, NULL);

  if (options == NULL)
    {
      cg_nav_options_init (&defaults);
      options = &defaults;
    }
  if (!check_options (options, error))
    return NULL;
  root = g_hash_table_lookup (self->by_url, self->entry_url);
  if (root == NULL)
    {
      g_autofree char *shown = g_utf8_make_valid (self->entry_url, MIN (strlen (self->entry_url), 200));

      g_set_error (error, CG_NAV_ERROR, CG_NAV_ERROR_NO_ENTRY,
                   _("The entry page “%s” is not in the navigation sample"), shown);
      return NULL;
    }

  sel.graph = self;
  sel.n_vertices = self->pages->len;
  sel.n_words = (sel.n_vertices + 63) / 64;
  sel.root = root->index;
  sel.patterns = g_ptr_array_new_with_free_func ((GDestroyNotify) pattern_free);
  sel.candidates = g_ptr_array_new ();
  build_edges (&sel);
  enumerate (&sel, options);

  covered_nodes = g_new0 (guint64, sel.n_words);
  covered_items = g_new0 (guint8, MAX (self->n_bigrams, 1));
  marks = g_new0 (guint, MAX (self->n_bigrams, 1));
  bit_set (covered_nodes, sel.root);
  for (guint i = 0; i < root->n_items; i++)
    covered_items[root->items[i]] = 1;
  n_covered = root->n_items;

  choices = g_ptr_array_new_with_free_func ((GDestroyNotify) cg_nav_choice_free);
  while ((double) n_covered < options->completion_ratio * self->n_bigrams)
    {
      Pattern *best = NULL;
      guint best_pages = 0;
      guint best_items = 0;
      CgNavChoice *choice;

      for (guint c = 0; c < sel.candidates->len; c++)
        {
          Pattern *pattern = sel.candidates->pdata[c];
          guint new_pages = 0;
          guint new_items = 0;

          if (!pattern->alive)
            continue;
          epoch++;
          for (guint v = 0; v < sel.n_vertices; v++)
            {
              Page *page;

              if (!bit_get (pattern->nodes, v) || bit_get (covered_nodes, v))
                continue;
              new_pages++;
              page = self->pages->pdata[v];
              for (guint i = 0; i < page->n_items; i++)
                {
                  guint32 item = page->items[i];

                  if (!covered_items[item] && marks[item] != epoch)
                    {
                      marks[item] = epoch;
                      new_items++;
                    }
                }
            }
          if (new_pages == 0 || new_items == 0)
            continue;
          /* The higher ratio wins, compared exactly; on a tie the earlier
           * candidate, which has no more steps, stays. */
          if (best == NULL || (guint64) new_items * best_pages > (guint64) best_items * new_pages)
            {
              best = pattern;
              best_pages = new_pages;
              best_items = new_items;
            }
        }
      if (best == NULL)
        break;

      for (guint v = 0; v < sel.n_vertices; v++)
        {
          Page *page;

          if (!bit_get (best->nodes, v) || bit_get (covered_nodes, v))
            continue;
          bit_set (covered_nodes, v);
          page = self->pages->pdata[v];
          for (guint i = 0; i < page->n_items; i++)
            if (!covered_items[page->items[i]])
              {
                covered_items[page->items[i]] = 1;
                n_covered++;
              }
        }
      for (guint c = 0; c < sel.candidates->len; c++)
        {
          Pattern *pattern = sel.candidates->pdata[c];

          if (pattern->alive && is_prefix (pattern, best))
            pattern->alive = FALSE;
        }

      choice = g_new0 (CgNavChoice, 1);
      choice->expression = pattern_to_expression (&sel, best);
      choice->score = (double) best_items / best_pages;
      choice->pages = best_pages;
      choice->bigrams = best_items;
      choice->coverage = self->n_bigrams > 0 ? (double) n_covered / self->n_bigrams : 1.0;
      g_ptr_array_add (choices, choice);
    }

  if (stats != NULL)
    {
      reachable = g_new0 (guint64, sel.n_words);
      for (guint c = 0; c < sel.candidates->len; c++)
        {
          Pattern *pattern = sel.candidates->pdata[c];

          for (guint w = 0; w < sel.n_words; w++)
            reachable[w] |= pattern->nodes[w];
        }
      bit_set (reachable, sel.root);
      stats->n_pages = sel.n_vertices;
      stats->n_reachable = bits_count (reachable, sel.n_words);
      stats->n_patterns = sel.candidates->len;
      stats->truncated = sel.truncated;
      stats->n_bigrams = self->n_bigrams;
      stats->n_covered = n_covered;
      stats->coverage = self->n_bigrams > 0 ? (double) n_covered / self->n_bigrams : 1.0;
      stats->n_selected_pages = bits_count (covered_nodes, sel.n_words);
    }

  for (guint v = 0; v < sel.n_vertices; v++)
    g_array_unref (sel.edges[v]);
  g_free (sel.edges);
  g_ptr_array_unref (sel.candidates);
  g_ptr_array_unref (sel.patterns);
  return choices;
}

void
cg_nav_choices_add_to_model (GPtrArray   *choices,
                             CgSiteModel *model)
{
  g_return_if_fail (choices != NULL);
  g_return_if_fail (CG_IS_SITE_MODEL (model));

  for (guint i = 0; i < choices->len; i++)
    {
      CgNavChoice *choice = choices->pdata[i];
      g_autofree char *text = cg_nav_expression_to_string (choice->expression);

      cg_site_model_add_pattern (model, text, choice->score, choice->pages);
    }
}
