/* cg-class-graph-layout.c: where the page-class graph's nodes and edges go.
 *
 * The layout is Graphviz's dot, run through its library (libgvc and
 * cgraph): one fixed-size box per class, one edge per class link (a
 * pagination link, from a class to itself, becomes dot's self-loop), laid
 * out from the entry class at the top down, one rank per link of depth.
 * Only the geometry is taken from Graphviz; the widget draws it itself.
 *
 * A layout is built in two steps so that the slow one can leave the main
 * thread: cg_class_graph_layout_new() copies the classes and links out of
 * the models (main thread, cheap), cg_class_graph_layout_compute() runs
 * dot (any thread).
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <glib/gi18n.h>
#include <graphviz/gvc.h>

#include "cg-class-graph-layout.h"

struct _CgClassGraphLayout
{
  GArray          *nodes;         /* CgClassGraphNode */
  GArray          *edges;         /* CgClassGraphEdge */
  GHashTable      *by_name;       /* name → index + 1 */
  graphene_rect_t  bounds;
  guint            n_omitted_classes;
  guint            n_omitted_links;
  guint            n_bundled_links;
  gboolean         computed;
};

G_DEFINE_QUARK (cg-class-graph-layout-error-quark, cg_class_graph_layout_error)

/* Graphviz keeps global state (its error hook, dot's working data), so
 * one layout runs at a time in the whole process. */
static GMutex graphviz_lock;
static GVC_t *graphviz_context;
static GString *graphviz_errors;

static void
node_clear (gpointer data)
{
  CgClassGraphNode *node = data;

  g_free (node->name);
  g_free (node->label);
  g_free (node->url_pattern);
}

static void
edge_clear (gpointer data)
{
  CgClassGraphEdge *edge = data;

  g_free (edge->points);
  g_free (edge->xpath);
}

void
cg_class_graph_layout_free (CgClassGraphLayout *self)
{
  if (self == NULL)
    return;
  g_array_unref (self->nodes);
  g_array_unref (self->edges);
  g_hash_table_unref (self->by_name);
  g_free (self);
}

static guint
add_node (CgClassGraphLayout    *self,
          const CgPageClass     *klass,
          gboolean               entry,
          CgClassGraphNodeState  state)
{
  CgClassGraphNode node = {
    .name = g_strdup (klass->name),
    .label = g_strdup (klass->label != NULL && klass->label[0] != '\0' ? klass->label : klass->name),
    .url_pattern = g_strdup (klass->url_pattern),
    .n_pages = klass->n_pages,
    .entry = entry,
    .depth = klass->depth,
    .state = state,
  };

  g_array_append_val (self->nodes, node);
  g_hash_table_insert (self->by_name, node.name, GUINT_TO_POINTER (self->nodes->len));
  return self->nodes->len - 1;
}

int
cg_class_graph_layout_find_node (const CgClassGraphLayout *self,
                                 const char               *name)
{
  g_return_val_if_fail (self != NULL, -1);

  if (name == NULL)
    return -1;
  return (int) GPOINTER_TO_UINT (g_hash_table_lookup (self->by_name, name)) - 1;
}

static gboolean
add_edge (CgClassGraphLayout    *self,
          const char            *source,
          const char            *target,
          const CgClassLink     *link,
          CgClassGraphNodeState  state)
{
  int s = cg_class_graph_layout_find_node (self, source);
  int t = cg_class_graph_layout_find_node (self, target);
  CgClassGraphEdge edge = {
    .type = link->type,
    .state = state,
    .n_links = link->n_links,
    .n_bundled = 1,
  };

  if (s < 0 || t < 0 || self->edges->len >= CG_CLASS_GRAPH_MAX_LINKS)
    {
      self->n_omitted_links++;
      return FALSE;
    }
  edge.source = s;
  edge.target = t;
  edge.xpath = g_strdup (link->xpath);
  g_array_append_val (self->edges, edge);
  return TRUE;
}

static GHashTable *
strv_set (GStrv strv)
{
  GHashTable *set = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint i = 0; strv != NULL && strv[i] != NULL; i++)
    g_hash_table_add (set, strv[i]);
  return set;
}

/* Which class of @model each class of @previous became, in the way
 * cg_site_model_compare() matches them (by name, then by URL pattern), so
 * that the links of @previous can be keyed in @model's names as the
 * comparison's lists are. */
static GHashTable *
match_previous_classes (CgSiteModel *previous,
                        CgSiteModel *model)
{
  GHashTable *old_to_new = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GHashTable) new_matched = g_hash_table_new (g_str_hash, g_str_equal);
  GPtrArray *old_classes = cg_site_model_get_classes (previous);
  GPtrArray *new_classes = cg_site_model_get_classes (model);

  for (int pass = 0; pass < 2; pass++)
    for (guint i = 0; i < new_classes->len; i++)
      {
        CgPageClass *klass = g_ptr_array_index (new_classes, i);

        if (g_hash_table_contains (new_matched, klass->name))
          continue;
        for (guint j = 0; j < old_classes->len; j++)
          {
            CgPageClass *old = g_ptr_array_index (old_classes, j);

            if (g_hash_table_contains (old_to_new, old->name))
              continue;
            if (pass == 0 ? g_str_equal (old->name, klass->name)
                          : (old->url_pattern != NULL && g_strcmp0 (old->url_pattern, klass->url_pattern) == 0))
              {
                g_hash_table_insert (old_to_new, old->name, klass->name);
                g_hash_table_add (new_matched, klass->name);
                break;
              }
          }
      }
  return old_to_new;
}

static char *
link_key (const char      *source,
          const char      *target,
          CgClassLinkType  type)
{
  return g_strdup_printf ("%s → %s (%s)", source, target, cg_class_link_type_to_string (type));
}

/* Which classes to lay out when there are more than the cap: those
 * nearest the entry first, then the biggest. */
static int
compare_for_cap (gconstpointer a,
                 gconstpointer b)
{
  const CgPageClass *x = *(CgPageClass * const *) a;
  const CgPageClass *y = *(CgPageClass * const *) b;
  guint dx = x->depth < 0 ? G_MAXUINT : (guint) x->depth;
  guint dy = y->depth < 0 ? G_MAXUINT : (guint) y->depth;

  if (dx != dy)
    return dx < dy ? -1 : 1;
  if (x->n_pages != y->n_pages)
    return x->n_pages > y->n_pages ? -1 : 1;
  return 0;
}

static GHashTable *
choose_classes (CgSiteModel *model,
                guint        room)
{
  GPtrArray *classes = cg_site_model_get_classes (model);
  g_autoptr(GPtrArray) sorted = g_ptr_array_new ();
  GHashTable *chosen = g_hash_table_new (g_str_hash, g_str_equal);
  const char *entry = cg_site_model_get_entry_class (model);

  for (guint i = 0; i < classes->len; i++)
    {
      CgPageClass *klass = g_ptr_array_index (classes, i);

      if (g_strcmp0 (klass->name, entry) == 0 && room > 0)
        {
          g_hash_table_add (chosen, klass->name);
          room--;
        }
      else
        g_ptr_array_add (sorted, klass);
    }
  g_ptr_array_sort (sorted, compare_for_cap);
  for (guint i = 0; i < sorted->len && room > 0; i++, room--)
    g_hash_table_add (chosen, ((CgPageClass *) g_ptr_array_index (sorted, i))->name);
  return chosen;
}

CgClassGraphLayout *
cg_class_graph_layout_new (CgSiteModel *model,
                           CgSiteModel *previous)
{
  CgClassGraphLayout *self = g_new0 (CgClassGraphLayout, 1);
  g_autoptr(CgSiteModelDiff) diff = NULL;
  g_autoptr(GHashTable) added = NULL;
  g_autoptr(GHashTable) removed = NULL;
  g_autoptr(GHashTable) changed = NULL;
  g_autoptr(GHashTable) added_links = NULL;
  g_autoptr(GHashTable) removed_links = NULL;
  g_autoptr(GHashTable) chosen = NULL;
  GPtrArray *classes;
  GPtrArray *links;
  const char *entry;
  guint n_candidates;

  g_return_val_if_fail (model == NULL || CG_IS_SITE_MODEL (model), NULL);
  g_return_val_if_fail (previous == NULL || CG_IS_SITE_MODEL (previous), NULL);

  self->nodes = g_array_new (FALSE, TRUE, sizeof (CgClassGraphNode));
  g_array_set_clear_func (self->nodes, node_clear);
  self->edges = g_array_new (FALSE, TRUE, sizeof (CgClassGraphEdge));
  g_array_set_clear_func (self->edges, edge_clear);
  self->by_name = g_hash_table_new (g_str_hash, g_str_equal);

  if (model == NULL)
    return self;

  if (previous != NULL)
    {
      diff = cg_site_model_compare (previous, model);
      added = strv_set (diff->added_classes);
      removed = strv_set (diff->removed_classes);
      changed = strv_set (diff->changed_classes);
      added_links = strv_set (diff->added_links);
      removed_links = strv_set (diff->removed_links);
    }

  classes = cg_site_model_get_classes (model);
  links = cg_site_model_get_links (model);
  entry = cg_site_model_get_entry_class (model);
  n_candidates = classes->len;
  if (classes->len > CG_CLASS_GRAPH_MAX_CLASSES)
    chosen = choose_classes (model, CG_CLASS_GRAPH_MAX_CLASSES);

  for (guint i = 0; i < classes->len; i++)
    {
      CgPageClass *klass = g_ptr_array_index (classes, i);
      CgClassGraphNodeState state = CG_CLASS_GRAPH_NODE_NORMAL;

      if (chosen != NULL && !g_hash_table_contains (chosen, klass->name))
        continue;
      if (added != NULL && g_hash_table_contains (added, klass->name))
        state = CG_CLASS_GRAPH_NODE_ADDED;
      else if (changed != NULL && g_hash_table_contains (changed, klass->name))
        state = CG_CLASS_GRAPH_NODE_CHANGED;
      add_node (self, klass, g_strcmp0 (klass->name, entry) == 0, state);
    }

  /* The removed classes come after the model's own, ghosts in what room
   * the cap leaves. */
  if (previous != NULL)
    {
      GPtrArray *old_classes = cg_site_model_get_classes (previous);

      for (guint i = 0; i < old_classes->len; i++)
        {
          CgPageClass *old = g_ptr_array_index (old_classes, i);

          if (!g_hash_table_contains (removed, old->name))
            continue;
          n_candidates++;
          if (self->nodes->len < CG_CLASS_GRAPH_MAX_CLASSES && cg_class_graph_layout_find_node (self, old->name) < 0)
            add_node (self, old, FALSE, CG_CLASS_GRAPH_NODE_REMOVED);
        }
    }
  self->n_omitted_classes = n_candidates - self->nodes->len;

  for (guint i = 0; i < links->len; i++)
    {
      CgClassLink *link = g_ptr_array_index (links, i);
      CgClassGraphNodeState state = CG_CLASS_GRAPH_NODE_NORMAL;

      if (added_links != NULL)
        {
          g_autofree char *key = link_key (link->source, link->target, link->type);

          if (g_hash_table_contains (added_links, key))
            state = CG_CLASS_GRAPH_NODE_ADDED;
        }
      add_edge (self, link->source, link->target, link, state);
    }

  if (previous != NULL && g_hash_table_size (removed_links) > 0)
    {
      g_autoptr(GHashTable) old_to_new = match_previous_classes (previous, model);
      GPtrArray *old_links = cg_site_model_get_links (previous);

      for (guint i = 0; i < old_links->len; i++)
        {
          CgClassLink *link = g_ptr_array_index (old_links, i);
          const char *source = g_hash_table_lookup (old_to_new, link->source);
          const char *target = g_hash_table_lookup (old_to_new, link->target);
          g_autofree char *key = NULL;

          /* A class with no counterpart keeps its old name: it is one of
           * the ghosts. */
          source = source != NULL ? source : link->source;
          target = target != NULL ? target : link->target;
          key = link_key (source, target, link->type);
          if (g_hash_table_remove (removed_links, key))
            add_edge (self, source, target, link, CG_CLASS_GRAPH_NODE_REMOVED);
        }
    }
  return self;
}

/* ------------------------------------------------------------------ */
/* Bundling                                                            */

/* How near the entry class a node is, for choosing the one source a
 * site-wide menu is drawn from: the entry first, then by depth, unknown
 * depths last. */
static guint
source_rank (const CgClassGraphNode *node)
{
  if (node->entry)
    return 0;
  return node->depth < 0 ? G_MAXUINT : (guint) node->depth + 1;
}

/* Which edge of @group (indices into the edges) stands for the menu: the
 * one from the class nearest the entry, not a loop if it can help it. */
static guint
choose_menu_edge (CgClassGraphLayout *self,
                  GArray             *group)
{
  guint best = g_array_index (group, guint, 0);

  for (guint i = 1; i < group->len; i++)
    {
      guint index = g_array_index (group, guint, i);
      const CgClassGraphEdge *edge = &g_array_index (self->edges, CgClassGraphEdge, index);
      const CgClassGraphEdge *current = &g_array_index (self->edges, CgClassGraphEdge, best);
      gboolean loop = edge->source == edge->target;
      gboolean current_loop = current->source == current->target;
      guint rank = source_rank (&g_array_index (self->nodes, CgClassGraphNode, edge->source));
      guint current_rank = source_rank (&g_array_index (self->nodes, CgClassGraphNode, current->source));

      if (loop != current_loop ? !loop : rank < current_rank)
        best = index;
    }
  return best;
}

static guint
count_sources (CgClassGraphLayout *self,
               GArray             *group)
{
  g_autoptr(GHashTable) sources = g_hash_table_new (NULL, NULL);

  for (guint i = 0; i < group->len; i++)
    {
      const CgClassGraphEdge *edge = &g_array_index (self->edges, CgClassGraphEdge, g_array_index (group, guint, i));

      g_hash_table_add (sources, GUINT_TO_POINTER (edge->source));
    }
  return g_hash_table_size (sources);
}

/* Real models have their site's menus (a header's navigation, a footer's
 * lists of links) on every page, so every class links to every menu
 * entry's class, and a graph of a dozen classes gets dozens of edges that
 * all say the same thing. The links of a menu are known by their place on
 * the page: one XPath, one destination, from most classes. The model
 * keeps them all; only the drawing folds them. */
void
cg_class_graph_layout_bundle_menus (CgClassGraphLayout *self)
{
  g_autoptr(GHashTable) groups = NULL;   /* key → GArray of edge indices */
  g_autoptr(GHashTable) parallel = NULL; /* key → index of the edge kept + 1 */
  g_autofree gboolean *drop = NULL;
  GHashTableIter iter;
  gpointer value;
  guint n_classes = 0, threshold;
  GArray *kept;

  g_return_if_fail (self != NULL);
  g_return_if_fail (!self->computed);

  if (self->edges->len == 0)
    return;
  for (guint i = 0; i < self->nodes->len; i++)
    if (g_array_index (self->nodes, CgClassGraphNode, i).state != CG_CLASS_GRAPH_NODE_REMOVED)
      n_classes++;
  threshold = MAX (CG_CLASS_GRAPH_MENU_MIN_CLASSES, (guint) ceil (n_classes * CG_CLASS_GRAPH_MENU_SHARE));
  drop = g_new0 (gboolean, self->edges->len);

  /* Links added or removed since a compared version are bundled among
   * themselves, so that a new menu shows as one new edge. */
  groups = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_array_unref);
  for (guint i = 0; i < self->edges->len; i++)
    {
      const CgClassGraphEdge *edge = &g_array_index (self->edges, CgClassGraphEdge, i);
      char *key;
      GArray *group;

      if (edge->xpath == NULL)
        continue;
      key = g_strdup_printf ("%u %d %s", edge->target, edge->state, edge->xpath);
      group = g_hash_table_lookup (groups, key);
      if (group == NULL)
        {
          group = g_array_new (FALSE, FALSE, sizeof (guint));
          g_hash_table_insert (groups, key, group);
        }
      else
        g_free (key);
      g_array_append_val (group, i);
    }

  g_hash_table_iter_init (&iter, groups);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      GArray *group = value;
      guint n_sources = count_sources (self, group);
      guint chosen;
      CgClassGraphEdge *menu;
      CgClassGraphNode *target;

      if (n_sources < threshold)
        continue;
      chosen = choose_menu_edge (self, group);
      menu = &g_array_index (self->edges, CgClassGraphEdge, chosen);
      menu->n_menu_classes = n_sources;
      target = &g_array_index (self->nodes, CgClassGraphNode, menu->target);
      target->n_menu_classes = MAX (target->n_menu_classes, n_sources);
      /* A way back to the entry class (a logo, a Home entry, the first
       * breadcrumb) is on every page of every site: drawn from any one
       * class, it would say nothing the badge does not. */
      if (target->entry)
        {
          for (guint i = 0; i < group->len; i++)
            drop[g_array_index (group, guint, i)] = TRUE;
          continue;
        }
      for (guint i = 0; i < group->len; i++)
        {
          guint index = g_array_index (group, guint, i);
          const CgClassGraphEdge *edge = &g_array_index (self->edges, CgClassGraphEdge, index);

          if (index == chosen)
            continue;
          menu->n_links += edge->n_links;
          menu->n_bundled += edge->n_bundled;
          drop[index] = TRUE;
        }
    }

  /* What is left: links of one type between two classes, from different
   * places of the page, are drawn as one edge. */
  parallel = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  for (guint i = 0; i < self->edges->len; i++)
    {
      CgClassGraphEdge *edge = &g_array_index (self->edges, CgClassGraphEdge, i);
      g_autofree char *key = NULL;
      guint first;

      if (drop[i])
        continue;
      key = g_strdup_printf ("%u %u %d %d", edge->source, edge->target, edge->type, edge->state);
      first = GPOINTER_TO_UINT (g_hash_table_lookup (parallel, key));
      if (first == 0)
        {
          g_hash_table_insert (parallel, g_steal_pointer (&key), GUINT_TO_POINTER (i + 1));
          continue;
        }
      {
        CgClassGraphEdge *kept_edge = &g_array_index (self->edges, CgClassGraphEdge, first - 1);

        kept_edge->n_links += edge->n_links;
        kept_edge->n_bundled += edge->n_bundled;
        kept_edge->n_menu_classes = MAX (kept_edge->n_menu_classes, edge->n_menu_classes);
        drop[i] = TRUE;
      }
    }

  kept = g_array_new (FALSE, TRUE, sizeof (CgClassGraphEdge));
  g_array_set_clear_func (kept, edge_clear);
  for (guint i = 0; i < self->edges->len; i++)
    {
      CgClassGraphEdge *edge = &g_array_index (self->edges, CgClassGraphEdge, i);

      if (drop[i])
        {
          self->n_bundled_links++;
          edge_clear (edge);
        }
      else
        g_array_append_val (kept, *edge);
    }
  /* The kept edges' strings moved to the new array. */
  g_array_set_clear_func (self->edges, NULL);
  g_array_unref (self->edges);
  self->edges = kept;
}

guint
cg_class_graph_layout_get_n_bundled_links (const CgClassGraphLayout *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->n_bundled_links;
}

/* The rank of every node: its distance in links from the entry class (or,
 * for what the entry does not reach, from the first node of its part of
 * the graph). Only links that go one rank forward constrain dot's ranking;
 * links back (to the home page, breadcrumbs) are drawn but left free, and
 * links within a rank keep to it. That keeps the rows those of the site's
 * depth, which is how archivists think of it, and bounds the number of
 * ranks, which is what makes dot slow on big graphs: every rank an edge
 * spans costs a virtual node in its crossing minimisation. */
static guint *
compute_ranks (CgClassGraphLayout *self)
{
  guint n = self->nodes->len;
  guint *rank = g_new (guint, n);
  g_autofree guint *queue = g_new (guint, n);
  g_autoptr(GPtrArray) out = g_ptr_array_new_full (n, (GDestroyNotify) g_array_unref);
  guint head = 0, tail = 0;

  for (guint i = 0; i < n; i++)
    {
      rank[i] = G_MAXUINT;
      g_ptr_array_add (out, g_array_new (FALSE, FALSE, sizeof (guint)));
    }
  for (guint i = 0; i < self->edges->len; i++)
    {
      CgClassGraphEdge *edge = &g_array_index (self->edges, CgClassGraphEdge, i);

      g_array_append_val (g_ptr_array_index (out, edge->source), edge->target);
    }
  for (guint i = 0; i < n; i++)
    if (g_array_index (self->nodes, CgClassGraphNode, i).entry)
      {
        rank[i] = 0;
        queue[tail++] = i;
      }
  for (guint root = 0; root < n || head < tail;)
    {
      if (head == tail)
        {
          /* The next part of the graph the entry does not reach. */
          while (root < n && rank[root] != G_MAXUINT)
            root++;
          if (root == n)
            break;
          rank[root] = 0;
          queue[tail++] = root;
        }
      while (head < tail)
        {
          guint u = queue[head++];
          GArray *targets = g_ptr_array_index (out, u);

          for (guint k = 0; k < targets->len; k++)
            {
              guint v = g_array_index (targets, guint, k);

              if (rank[v] == G_MAXUINT)
                {
                  rank[v] = rank[u] + 1;
                  queue[tail++] = v;
                }
            }
        }
    }
  return rank;
}

static int
graphviz_error_cb (char *message)
{
  if (graphviz_errors != NULL && graphviz_errors->len < 4096)
    g_string_append (graphviz_errors, message);
  return 0;
}

static void
set_attribute (void       *object,
               const char *name,
               const char *value)
{
  agsafeset (object, (char *) name, (char *) value, (char *) "");
}

static void
to_layout_point (const boxf       *bb,
                 pointf            p,
                 graphene_point_t *out)
{
  out->x = p.x - bb->LL.x;
  out->y = bb->UR.y - p.y;
}

/* Reads the geometry of a laid-out graph. Graphviz's y axis grows upwards;
 * the layout's grows downwards like the widget's. */
static void
read_geometry (CgClassGraphLayout *self,
               Agraph_t           *graph,
               Agnode_t          **gv_nodes,
               Agedge_t          **gv_edges)
{
  boxf bb = GD_bb (graph);

  graphene_rect_init (&self->bounds, 0, 0, bb.UR.x - bb.LL.x, bb.UR.y - bb.LL.y);
  for (guint i = 0; i < self->nodes->len; i++)
    {
      CgClassGraphNode *node = &g_array_index (self->nodes, CgClassGraphNode, i);
      double width = ND_width (gv_nodes[i]) * 72.0;
      double height = ND_height (gv_nodes[i]) * 72.0;
      graphene_point_t centre;

      to_layout_point (&bb, ND_coord (gv_nodes[i]), &centre);
      graphene_rect_init (&node->box, centre.x - width / 2, centre.y - height / 2, width, height);
    }
  for (guint i = 0; i < self->edges->len; i++)
    {
      CgClassGraphEdge *edge = &g_array_index (self->edges, CgClassGraphEdge, i);
      splines *spl = ED_spl (gv_edges[i]);
      bezier *bz;

      g_clear_pointer (&edge->points, g_free);
      edge->n_points = 0;
      edge->has_arrow = FALSE;
      /* dot gives an edge one Bézier spline (more only for the compound
       * and concentrated edges this graph does not ask for). */
      if (spl == NULL || spl->size < 1 || spl->list[0].size < 1)
        continue;
      bz = &spl->list[0];
      edge->n_points = bz->size;
      edge->points = g_new (graphene_point_t, bz->size);
      for (int p = 0; p < bz->size; p++)
        to_layout_point (&bb, bz->list[p], &edge->points[p]);
      if (bz->eflag)
        {
          edge->has_arrow = TRUE;
          to_layout_point (&bb, bz->ep, &edge->arrow_tip);
        }
      else if (bz->sflag)
        {
          /* The arrowhead at the spline's start: the spline runs from the
           * target back to the source, so it is turned round. */
          for (guint p = 0; p < edge->n_points / 2; p++)
            {
              graphene_point_t swap = edge->points[p];

              edge->points[p] = edge->points[edge->n_points - 1 - p];
              edge->points[edge->n_points - 1 - p] = swap;
            }
          edge->has_arrow = TRUE;
          to_layout_point (&bb, bz->sp, &edge->arrow_tip);
        }
    }
}

gboolean
cg_class_graph_layout_compute (CgClassGraphLayout  *self,
                               GError             **error)
{
  g_autofree Agnode_t **gv_nodes = NULL;
  g_autofree Agedge_t **gv_edges = NULL;
  g_autofree guint *ranks = NULL;
  g_autofree char *width = g_strdup_printf ("%.4f", CG_CLASS_GRAPH_CARD_WIDTH / 72.0);
  g_autofree char *height = g_strdup_printf ("%.4f", CG_CLASS_GRAPH_CARD_HEIGHT / 72.0);
  Agraph_t *graph;
  agusererrf old_error_cb;
  gboolean ok = TRUE;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (self->nodes->len == 0)
    {
      graphene_rect_init (&self->bounds, 0, 0, 0, 0);
      self->computed = TRUE;
      return TRUE;
    }

  gv_nodes = g_new0 (Agnode_t *, self->nodes->len);
  gv_edges = g_new0 (Agedge_t *, MAX (self->edges->len, 1));

  g_mutex_lock (&graphviz_lock);
  if (graphviz_context == NULL)
    graphviz_context = gvContext ();
  graphviz_errors = g_string_new (NULL);
  old_error_cb = agseterrf (graphviz_error_cb);

  graph = agopen ((char *) "classes", Agdirected, NULL);
  /* Top to bottom: a rank of many classes spreads across the width of
   * the window, which is what a desktop window has most of. */
  set_attribute (graph, "rankdir", "TB");
  set_attribute (graph, "nodesep", "0.5");
  set_attribute (graph, "ranksep", "1.0 equally");
  set_attribute (graph, "splines", "spline");
  /* Bound the network-simplex passes (ranking and coordinates) on big
   * graphs, where they dominate; small ones get dot's best. */
  if (self->nodes->len + self->edges->len > 200)
    {
      set_attribute (graph, "nslimit", "5");
      set_attribute (graph, "nslimit1", "5");
    }
  /* Names are not laid out as text by Graphviz: the boxes have a fixed
   * size, and the widget draws the labels with Pango. */
  agattr (graph, AGNODE, (char *) "shape", (char *) "box");
  agattr (graph, AGNODE, (char *) "fixedsize", (char *) "true");
  agattr (graph, AGNODE, (char *) "label", (char *) "");
  agattr (graph, AGNODE, (char *) "width", width);
  agattr (graph, AGNODE, (char *) "height", height);

  /* No "rank=source" subgraph is needed for the entry class: no link
   * into it constrains the ranking (see compute_ranks()), so it is on the
   * first rank anyway. Graphviz 2.42 also leaks memory for every part of
   * a graph not connected to such a subgraph. */
  for (guint i = 0; i < self->nodes->len; i++)
    {
      const CgClassGraphNode *node = &g_array_index (self->nodes, CgClassGraphNode, i);
      char id[32];

      g_snprintf (id, sizeof id, "n%u", i);
      gv_nodes[i] = agnode (graph, id, TRUE);
      /* A size given with cg_class_graph_layout_set_card_size(). */
      if (node->box.size.width > 0 && node->box.size.height > 0)
        {
          g_autofree char *node_width = g_strdup_printf ("%.4f", node->box.size.width / 72.0);
          g_autofree char *node_height = g_strdup_printf ("%.4f", node->box.size.height / 72.0);

          set_attribute (gv_nodes[i], "width", node_width);
          set_attribute (gv_nodes[i], "height", node_height);
        }
    }
  ranks = compute_ranks (self);
  for (guint i = 0; i < self->edges->len; i++)
    {
      CgClassGraphEdge *edge = &g_array_index (self->edges, CgClassGraphEdge, i);
      char key[32];

      g_snprintf (key, sizeof key, "e%u", i);
      gv_edges[i] = agedge (graph, gv_nodes[edge->source], gv_nodes[edge->target], key, TRUE);
      /* A link within a rank keeps its ends on it (minlen 0) rather than
       * being left free: Graphviz 2.42 leaks the memory of free links,
       * or of weightless ones, within a rank. */
      if (ranks[edge->target] == ranks[edge->source] && edge->source != edge->target)
        set_attribute (gv_edges[i], "minlen", "0");
      else
        {
          if (ranks[edge->target] != ranks[edge->source] + 1)
            set_attribute (gv_edges[i], "constraint", "false");
          /* Removed links must not pull the live classes around. */
          if (edge->state == CG_CLASS_GRAPH_NODE_REMOVED)
            set_attribute (gv_edges[i], "weight", "0");
        }
    }

  if (gvLayout (graphviz_context, graph, "dot") != 0)
    {
      g_strchomp (graphviz_errors->str);
      g_set_error (error, CG_CLASS_GRAPH_LAYOUT_ERROR, CG_CLASS_GRAPH_LAYOUT_ERROR_FAILED,
                   _("Could not lay out the page-class graph of %u classes: %s"),
                   self->nodes->len,
                   graphviz_errors->len > 0 ? graphviz_errors->str : _("Graphviz gave no reason"));
      ok = FALSE;
    }
  else
    {
      read_geometry (self, graph, gv_nodes, gv_edges);
      gvFreeLayout (graphviz_context, graph);
      self->computed = TRUE;
    }
  agclose (graph);

  agseterrf (old_error_cb);
  g_string_free (g_steal_pointer (&graphviz_errors), TRUE);
  g_mutex_unlock (&graphviz_lock);
  return ok;
}

gboolean
cg_class_graph_layout_is_computed (const CgClassGraphLayout *self)
{
  g_return_val_if_fail (self != NULL, FALSE);
  return self->computed;
}

guint
cg_class_graph_layout_get_n_nodes (const CgClassGraphLayout *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->nodes->len;
}

const CgClassGraphNode *
cg_class_graph_layout_get_node (const CgClassGraphLayout *self,
                                guint                     index)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (index < self->nodes->len, NULL);
  return &g_array_index (self->nodes, CgClassGraphNode, index);
}

guint
cg_class_graph_layout_get_n_edges (const CgClassGraphLayout *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->edges->len;
}

const CgClassGraphEdge *
cg_class_graph_layout_get_edge (const CgClassGraphLayout *self,
                                guint                     index)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (index < self->edges->len, NULL);
  return &g_array_index (self->edges, CgClassGraphEdge, index);
}

/**
 * cg_class_graph_layout_set_card_size:
 *
 * Gives node @index a card of @width × @height points instead of the
 * default CG_CLASS_GRAPH_CARD_WIDTH × CG_CLASS_GRAPH_CARD_HEIGHT, before
 * the layout is computed: the widget sizes the cards to the text it draws
 * in them.
 */
void
cg_class_graph_layout_set_card_size (CgClassGraphLayout *self,
                                     guint               index,
                                     double              width,
                                     double              height)
{
  CgClassGraphNode *node;

  g_return_if_fail (self != NULL);
  g_return_if_fail (!self->computed);
  g_return_if_fail (index < self->nodes->len);
  g_return_if_fail (width > 0 && height > 0);

  node = &g_array_index (self->nodes, CgClassGraphNode, index);
  graphene_rect_init (&node->box, 0, 0, width, height);
}

void
cg_class_graph_layout_set_n_pages (CgClassGraphLayout *self,
                                   guint               index,
                                   guint               n_pages)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (index < self->nodes->len);
  g_array_index (self->nodes, CgClassGraphNode, index).n_pages = n_pages;
}

void
cg_class_graph_layout_get_bounds (const CgClassGraphLayout *self,
                                  graphene_rect_t          *out_bounds)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (out_bounds != NULL);
  *out_bounds = self->bounds;
}

guint
cg_class_graph_layout_get_n_omitted_classes (const CgClassGraphLayout *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->n_omitted_classes;
}

guint
cg_class_graph_layout_get_n_omitted_links (const CgClassGraphLayout *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->n_omitted_links;
}
