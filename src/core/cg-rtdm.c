/* cg-rtdm.c: the restricted top-down tree edit distance (RTDM).
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * No library at hand computes tree edit distances (libxml2 compares no
 * trees), and the restricted top-down variant is a small dynamic program.
 */
#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "cg-rtdm.h"

#define NO_PARENT G_MAXUINT

/* Nodes are stored in preorder: the first child of node i is i + 1 when
 * size[i] > 1, and the next sibling of a child c is c + size[c] while it
 * stays below i + size[i]. */
struct _CgRtdmTree {
  guint      n;
  guint     *label;    /* index into labels */
  guint     *size;     /* nodes in the subtree, the node included */
  GPtrArray *labels;   /* char *, distinct */
};

G_DEFINE_QUARK (cg-rtdm-error-quark, cg_rtdm_error)

void
cg_rtdm_tree_free (CgRtdmTree *tree)
{
  if (tree == NULL)
    return;
  g_free (tree->label);
  g_free (tree->size);
  g_ptr_array_unref (tree->labels);
  g_free (tree);
}

guint
cg_rtdm_tree_get_size (const CgRtdmTree *tree)
{
  g_return_val_if_fail (tree != NULL, 0);
  return tree->n;
}

/* ---- building --------------------------------------------------------------- */

typedef struct {
  GArray     *label;     /* guint */
  GArray     *parent;    /* guint */
  GPtrArray  *labels;
  GHashTable *label_ids; /* label → id + 1 */
} Builder;

static void
builder_init (Builder *builder)
{
  builder->label = g_array_new (FALSE, FALSE, sizeof (guint));
  builder->parent = g_array_new (FALSE, FALSE, sizeof (guint));
  builder->labels = g_ptr_array_new_with_free_func (g_free);
  builder->label_ids = g_hash_table_new (g_str_hash, g_str_equal);
}

static void
builder_clear (Builder *builder)
{
  g_clear_pointer (&builder->label, g_array_unref);
  g_clear_pointer (&builder->parent, g_array_unref);
  g_clear_pointer (&builder->labels, g_ptr_array_unref);
  g_clear_pointer (&builder->label_ids, g_hash_table_unref);
}

/* Returns the new node's index, or NO_PARENT when the tree is full. */
static guint
builder_add (Builder    *builder,
             const char *label,
             guint       parent,
             GError    **error)
{
  gpointer id = g_hash_table_lookup (builder->label_ids, label);
  guint index = builder->label->len;
  guint label_id;

  if (index >= CG_RTDM_MAX_NODES)
    {
      g_set_error (error, CG_RTDM_ERROR, CG_RTDM_ERROR_TOO_LARGE,
                   _("The tree has more than %d nodes, too many to compare"), CG_RTDM_MAX_NODES);
      return NO_PARENT;
    }
  if (id == NULL)
    {
      char *copy = g_strdup (label);

      g_ptr_array_add (builder->labels, copy);
      label_id = builder->labels->len - 1;
      g_hash_table_insert (builder->label_ids, copy, GUINT_TO_POINTER (label_id + 1));
    }
  else
    label_id = GPOINTER_TO_UINT (id) - 1;
  g_array_append_val (builder->label, label_id);
  g_array_append_val (builder->parent, parent);
  return index;
}

static CgRtdmTree *
builder_finish (Builder *builder)
{
  CgRtdmTree *tree = g_new0 (CgRtdmTree, 1);
  const guint *parent = (const guint *) builder->parent->data;

  tree->n = builder->label->len;
  tree->label = (guint *) g_array_free (builder->label, FALSE);
  builder->label = NULL;
  tree->size = g_new (guint, MAX (tree->n, 1));
  for (guint i = 0; i < tree->n; i++)
    tree->size[i] = 1;
  /* Children come after their parent in preorder. */
  for (guint i = tree->n; i-- > 1;)
    tree->size[parent[i]] += tree->size[i];
  tree->labels = g_steal_pointer (&builder->labels);
  builder_clear (builder);
  return tree;
}

static gboolean
is_blank (const char *text)
{
  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (!g_unichar_isspace (c) && c != 0x00A0)
        return FALSE;
    }
  return TRUE;
}

/* The node's label, or NULL if the tree leaves it out. */
static char *
node_label (xmlNodePtr      node,
            CgRtdmTreeFlags flags)
{
  if (node->type == XML_ELEMENT_NODE && node->name != NULL)
    return g_ascii_strdown ((const char *) node->name, -1);
  if ((node->type == XML_TEXT_NODE || node->type == XML_CDATA_SECTION_NODE) &&
      !(flags & CG_RTDM_TREE_ELEMENTS_ONLY) && node->content != NULL &&
      !is_blank ((const char *) node->content))
    return g_strdup ("#text");
  return NULL;
}

typedef struct {
  xmlNodePtr next_child;
  guint      index;
} Open;

CgRtdmTree *
cg_rtdm_tree_new_for_node (xmlNodePtr        root,
                           CgRtdmTreeFlags   flags,
                           GError          **error)
{
  g_autoptr(GArray) stack = g_array_new (FALSE, FALSE, sizeof (Open));
  g_autofree char *root_label = NULL;
  Builder builder;
  Open open;

  g_return_val_if_fail (root != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  root_label = node_label (root, flags);
  g_return_val_if_fail (root_label != NULL, NULL);

  builder_init (&builder);
  open.index = builder_add (&builder, root_label, NO_PARENT, NULL);
  open.next_child = root->type == XML_ELEMENT_NODE ? root->children : NULL;
  g_array_append_val (stack, open);

  /* Without recursion: recovered markup nests deep. */
  while (stack->len > 0)
    {
      Open *top = &g_array_index (stack, Open, stack->len - 1);
      xmlNodePtr child = top->next_child;
      g_autofree char *label = NULL;
      guint index;

      if (child == NULL)
        {
          g_array_set_size (stack, stack->len - 1);
          continue;
        }
      top->next_child = child->next;
      label = node_label (child, flags);
      if (label == NULL)
        continue;
      index = builder_add (&builder, label, top->index, error);
      if (index == NO_PARENT)
        {
          builder_clear (&builder);
          return NULL;
        }
      if (child->type == XML_ELEMENT_NODE && child->children != NULL)
        {
          if (stack->len >= CG_RTDM_MAX_DEPTH)
            {
              g_set_error (error, CG_RTDM_ERROR, CG_RTDM_ERROR_TOO_DEEP,
                           _("The tree is more than %d levels deep, too deep to compare"),
                           CG_RTDM_MAX_DEPTH);
              builder_clear (&builder);
              return NULL;
            }
          open.index = index;
          open.next_child = child->children;
          g_array_append_val (stack, open);
        }
    }
  return builder_finish (&builder);
}

CgRtdmTree *
cg_rtdm_tree_new_for_document (xmlDocPtr         doc,
                               CgRtdmTreeFlags   flags,
                               GError          **error)
{
  xmlNodePtr root;

  g_return_val_if_fail (doc != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  root = xmlDocGetRootElement (doc);
  if (root == NULL)
    {
      g_set_error (error, CG_RTDM_ERROR, CG_RTDM_ERROR_EMPTY,
                   _("The document has no root element to compare"));
      return NULL;
    }
  return cg_rtdm_tree_new_for_node (root, flags, error);
}

static gboolean
is_label_char (char c)
{
  return c != '\0' && c != '(' && c != ')' && !g_ascii_isspace (c);
}

static CgRtdmTree *
parse_error (Builder     *builder,
             GError     **error,
             const char  *notation,
             const char  *at,
             const char  *what)
{
  g_set_error (error, CG_RTDM_ERROR, CG_RTDM_ERROR_PARSE,
               _("Invalid tree at character %ld: %s"), (long) (at - notation) + 1, what);
  builder_clear (builder);
  return NULL;
}

CgRtdmTree *
cg_rtdm_tree_new_parse (const char  *notation,
                        GError     **error)
{
  g_autoptr(GArray) parents = g_array_new (FALSE, FALSE, sizeof (guint));
  const char *p = notation;
  gboolean have_root = FALSE;
  gboolean just_opened = FALSE;
  guint last = NO_PARENT;
  Builder builder;

  g_return_val_if_fail (notation != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  builder_init (&builder);
  for (;;)
    {
      while (g_ascii_isspace (*p))
        p++;
      if (*p == '\0')
        break;
      if (*p == '(')
        {
          if (last == NO_PARENT)
            return parse_error (&builder, error, notation, p, _("“(” without a label before it"));
          if (parents->len >= CG_RTDM_MAX_DEPTH)
            return parse_error (&builder, error, notation, p, _("nested too deep"));
          g_array_append_val (parents, last);
          last = NO_PARENT;
          just_opened = TRUE;
          p++;
        }
      else if (*p == ')')
        {
          if (parents->len == 0)
            return parse_error (&builder, error, notation, p, _("“)” without “(”"));
          if (just_opened)
            return parse_error (&builder, error, notation, p, _("“()” with no children"));
          g_array_set_size (parents, parents->len - 1);
          last = NO_PARENT;
          p++;
        }
      else
        {
          const char *start = p;
          g_autofree char *label = NULL;
          guint parent;

          while (is_label_char (*p))
            p++;
          if (parents->len == 0 && have_root)
            return parse_error (&builder, error, notation, start, _("a second root"));
          label = g_strndup (start, p - start);
          parent = parents->len > 0 ? g_array_index (parents, guint, parents->len - 1) : NO_PARENT;
          last = builder_add (&builder, label, parent, error);
          if (last == NO_PARENT)
            {
              builder_clear (&builder);
              return NULL;
            }
          have_root = TRUE;
          just_opened = FALSE;
        }
    }
  if (parents->len > 0)
    return parse_error (&builder, error, notation, p, _("a “(” is not closed"));
  if (!have_root)
    return parse_error (&builder, error, notation, p, _("no node"));
  return builder_finish (&builder);
}

char *
cg_rtdm_tree_to_string (const CgRtdmTree *tree)
{
  g_autoptr(GArray) ends = g_array_new (FALSE, FALSE, sizeof (guint));
  GString *out = g_string_new (NULL);

  g_return_val_if_fail (tree != NULL, NULL);

  for (guint i = 0; i < tree->n; i++)
    {
      while (ends->len > 0 && g_array_index (ends, guint, ends->len - 1) == i)
        {
          g_string_append_c (out, ')');
          g_array_set_size (ends, ends->len - 1);
        }
      if (i > 0 && out->str[out->len - 1] != '(')
        g_string_append_c (out, ' ');
      g_string_append (out, tree->labels->pdata[tree->label[i]]);
      if (tree->size[i] > 1)
        {
          guint end = i + tree->size[i];

          g_string_append_c (out, '(');
          g_array_append_val (ends, end);
        }
    }
  for (guint i = 0; i < ends->len; i++)
    g_string_append_c (out, ')');
  return g_string_free (out, FALSE);
}

/* ---- the distance --------------------------------------------------------------- */

typedef struct {
  const CgRtdmTree *a;
  const CgRtdmTree *b;
  guint            *class_a;
  guint            *class_b;
  guint64           cells;
  gboolean          too_costly;
} Rtdm;

/* Gives every subtree of @tree its equivalence class in @classes: two
 * subtrees, in either tree, share a class exactly when they have the same
 * label and their children have the same classes in the same order. */
static guint *
assign_classes (const CgRtdmTree *tree,
                const guint      *shared_label,
                GHashTable       *classes)
{
  guint *class = g_new (guint, MAX (tree->n, 1));
  g_autoptr(GArray) key = g_array_new (FALSE, FALSE, sizeof (guint));

  for (guint i = tree->n; i-- > 0;)
    {
      g_autoptr(GBytes) bytes = NULL;
      gpointer found;

      g_array_set_size (key, 0);
      g_array_append_val (key, shared_label[tree->label[i]]);
      for (guint c = i + 1; c < i + tree->size[i]; c += tree->size[c])
        g_array_append_val (key, class[c]);
      bytes = g_bytes_new (key->data, key->len * sizeof (guint));
      found = g_hash_table_lookup (classes, bytes);
      if (found == NULL)
        {
          guint id = g_hash_table_size (classes) + 1;

          g_hash_table_insert (classes, g_bytes_ref (bytes), GUINT_TO_POINTER (id));
          found = GUINT_TO_POINTER (id);
        }
      class[i] = GPOINTER_TO_UINT (found);
    }
  return class;
}

static guint
children_of (const CgRtdmTree *tree,
             guint             node,
             GArray           *out)
{
  g_array_set_size (out, 0);
  for (guint c = node + 1; c < node + tree->size[node]; c += tree->size[c])
    g_array_append_val (out, c);
  return out->len;
}

/* The cost of mapping node @i of a to node @j of b, their subtrees
 * included. */
static guint
pair_cost (Rtdm  *r,
           guint  i,
           guint  j)
{
  const CgRtdmTree *a = r->a;
  const CgRtdmTree *b = r->b;
  g_autoptr(GArray) kids_a = NULL;
  g_autoptr(GArray) kids_b = NULL;
  g_autofree guint *previous = NULL;
  g_autofree guint *current = NULL;
  const guint *ka;
  const guint *kb;
  guint m;
  guint n;

  if (r->too_costly)
    return 0;
  if (r->class_a[i] == r->class_b[j])
    return 0;
  if (!g_str_equal (a->labels->pdata[a->label[i]], b->labels->pdata[b->label[j]]))
    return 1 + (a->size[i] - 1) + (b->size[j] - 1);

  kids_a = g_array_new (FALSE, FALSE, sizeof (guint));
  kids_b = g_array_new (FALSE, FALSE, sizeof (guint));
  m = children_of (a, i, kids_a);
  n = children_of (b, j, kids_b);
  ka = (const guint *) kids_a->data;
  kb = (const guint *) kids_b->data;

  r->cells += (guint64) (m + 1) * (n + 1);
  if (r->cells > CG_RTDM_MAX_CELLS)
    {
      r->too_costly = TRUE;
      return 0;
    }

  /* Two rows of the child-sequence edit distance are enough, since only
   * the distance is wanted, not the mapping. */
  previous = g_new (guint, n + 1);
  current = g_new (guint, n + 1);
  previous[0] = 0;
  for (guint y = 1; y <= n; y++)
    previous[y] = previous[y - 1] + b->size[kb[y - 1]];
  for (guint x = 1; x <= m; x++)
    {
      guint delete_cost = a->size[ka[x - 1]];
      guint *swap;

      current[0] = previous[0] + delete_cost;
      for (guint y = 1; y <= n; y++)
        {
          guint match = previous[y - 1] + pair_cost (r, ka[x - 1], kb[y - 1]);
          guint deleted = previous[y] + delete_cost;
          guint inserted = current[y - 1] + b->size[kb[y - 1]];

          if (r->too_costly)
            return 0;
          current[y] = MIN (match, MIN (deleted, inserted));
        }
      swap = previous;
      previous = current;
      current = swap;
    }
  return previous[n];
}

static guint *
shared_labels (const CgRtdmTree *tree,
               GHashTable       *ids)
{
  guint *shared = g_new (guint, MAX (tree->labels->len, 1));

  for (guint k = 0; k < tree->labels->len; k++)
    {
      gpointer id = g_hash_table_lookup (ids, tree->labels->pdata[k]);

      if (id == NULL)
        {
          id = GUINT_TO_POINTER (g_hash_table_size (ids) + 1);
          g_hash_table_insert (ids, tree->labels->pdata[k], id);
        }
      shared[k] = GPOINTER_TO_UINT (id);
    }
  return shared;
}

gboolean
cg_rtdm_distance (const CgRtdmTree  *a,
                  const CgRtdmTree  *b,
                  guint             *distance,
                  GError           **error)
{
  g_autoptr(GHashTable) label_ids = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GHashTable) classes = g_hash_table_new_full ((GHashFunc) g_bytes_hash,
                                                         (GEqualFunc) g_bytes_equal,
                                                         (GDestroyNotify) g_bytes_unref, NULL);
  g_autofree guint *shared_a = NULL;
  g_autofree guint *shared_b = NULL;
  Rtdm r = { 0 };
  guint d;

  g_return_val_if_fail (a != NULL && b != NULL, FALSE);
  g_return_val_if_fail (distance != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  shared_a = shared_labels (a, label_ids);
  shared_b = shared_labels (b, label_ids);
  r.a = a;
  r.b = b;
  r.class_a = assign_classes (a, shared_a, classes);
  r.class_b = assign_classes (b, shared_b, classes);

  d = pair_cost (&r, 0, 0);
  g_free (r.class_a);
  g_free (r.class_b);
  if (r.too_costly)
    {
      g_set_error (error, CG_RTDM_ERROR, CG_RTDM_ERROR_TOO_COSTLY,
                   _("Comparing trees of %u and %u nodes needs more than %d steps"),
                   a->n, b->n, CG_RTDM_MAX_CELLS);
      return FALSE;
    }
  *distance = d;
  return TRUE;
}

double
cg_rtdm_normalize (guint distance,
                   guint size_a,
                   guint size_b)
{
  if (size_a == 0 && size_b == 0)
    return 1.0;
  return 1.0 - (double) distance / ((double) size_a + (double) size_b);
}

gboolean
cg_rtdm_similarity (const CgRtdmTree  *a,
                    const CgRtdmTree  *b,
                    double            *similarity,
                    GError           **error)
{
  guint distance;

  g_return_val_if_fail (similarity != NULL, FALSE);

  if (!cg_rtdm_distance (a, b, &distance, error))
    return FALSE;
  *similarity = cg_rtdm_normalize (distance, a->n, b->n);
  return TRUE;
}
