/* test-class-graph.c: the page-class graph, laid out by Graphviz and driven
 * in process.
 *
 * Run with --screenshot FILE.png [--dark] [--diff] [--large-text]
 * [--thumbnail CLASS=PNG…] it draws the graph of the demo-like model in a
 * window and saves it instead: --diff compares it with an older version,
 * --large-text draws it with the desktop's large text (1.5 times the
 * size), --thumbnail gives a class its thumbnail. data/screenshots/class-graph.png has the thumbnails
 * that `cartograph-cli model` renders for the demo site (serve-demo) into
 * the project's thumbnails/model-1/ folder: home-1.png for home,
 * authors-1.png for author-index, and so on.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <adwaita.h>
#include <math.h>

#include "cg-class-graph.h"
#include "cg-test-widgets.h"

/* How far, in points, an edge's end may be from the box it belongs to:
 * Graphviz clips edges at the boxes' outlines, up to rounding. */
#define TOUCH_TOLERANCE 2.0

/* The shape of the bundled demo site: a home page with a menu, categories
 * with pages of books, books with their author, an index of authors,
 * search results behind a form, and static pages. */
static CgSiteModel *
demo_like_model (void)
{
  CgSiteModel *model = cg_site_model_new ("127.0.0.1");
  struct { const char *name, *label, *pattern; guint pages; } classes[] = {
    { "home", "Home", "^/$", 1 },
    { "category", "Category", "^/category/[^/]+/(\\?page=\\d+)?$", 24 },
    { "book", "Book", "^/book/[^/]+$", 120 },
    { "author", "Author", "^/author/[^/]+(\\?page=\\d+)?$", 30 },
    { "author-index", "Author Index", "^/authors/$", 1 },
    { "search", "Search Results", "^/search\\?q=.*$", 8 },
    { "static", "Static Page", "^/(about|contact|delivery)$", 4 },
  };
  struct { const char *source, *target; CgClassLinkType type; } links[] = {
    { "home", "category", CG_CLASS_LINK_MENU },
    { "home", "author-index", CG_CLASS_LINK_MENU },
    { "home", "static", CG_CLASS_LINK_MENU },
    { "home", "book", CG_CLASS_LINK_LIST },
    { "home", "search", CG_CLASS_LINK_FORM },
    { "category", "category", CG_CLASS_LINK_LIST },
    { "category", "book", CG_CLASS_LINK_LIST },
    { "book", "author", CG_CLASS_LINK_SINGLETON },
    { "book", "category", CG_CLASS_LINK_SINGLETON },
    { "author", "book", CG_CLASS_LINK_LIST },
    { "author", "author", CG_CLASS_LINK_LIST },
    { "author-index", "author", CG_CLASS_LINK_LIST },
    { "search", "book", CG_CLASS_LINK_LIST },
    { "search", "search", CG_CLASS_LINK_LIST },
  };

  for (guint i = 0; i < G_N_ELEMENTS (classes); i++)
    {
      CgPageClass *klass = cg_site_model_add_class (model, classes[i].name, classes[i].label);

      klass->url_pattern = g_strdup (classes[i].pattern);
      klass->n_pages = classes[i].pages;
    }
  for (guint i = 0; i < G_N_ELEMENTS (links); i++)
    cg_site_model_add_link (model, links[i].source, links[i].target, links[i].type, "//a");
  cg_site_model_set_entry_class (model, "home");
  cg_site_model_compute_depths (model);
  return model;
}

static double
distance_to_rect (const graphene_point_t *p,
                  const graphene_rect_t  *rect)
{
  double dx = MAX (MAX (rect->origin.x - p->x, 0), p->x - (rect->origin.x + rect->size.width));
  double dy = MAX (MAX (rect->origin.y - p->y, 0), p->y - (rect->origin.y + rect->size.height));

  return hypot (dx, dy);
}

static gboolean
rects_overlap (const graphene_rect_t *a,
               const graphene_rect_t *b)
{
  graphene_rect_t common;

  return graphene_rect_intersection (a, b, &common) && common.size.width > 0.01 && common.size.height > 0.01;
}

static void
assert_no_overlaps (const CgClassGraphLayout *layout)
{
  guint n = cg_class_graph_layout_get_n_nodes (layout);

  for (guint i = 0; i < n; i++)
    {
      const CgClassGraphNode *a = cg_class_graph_layout_get_node (layout, i);

      g_assert_cmpfloat (a->box.size.width, >, 0);
      g_assert_cmpfloat (a->box.size.height, >, 0);
      for (guint j = i + 1; j < n; j++)
        {
          const CgClassGraphNode *b = cg_class_graph_layout_get_node (layout, j);

          if (rects_overlap (&a->box, &b->box))
            g_error ("the boxes of “%s” and “%s” overlap", a->name, b->name);
        }
    }
}

static const CgClassGraphEdge *
find_edge (const CgClassGraphLayout *layout,
           const char               *source,
           const char               *target,
           CgClassLinkType           type)
{
  int s = cg_class_graph_layout_find_node (layout, source);
  int t = cg_class_graph_layout_find_node (layout, target);

  for (guint i = 0; i < cg_class_graph_layout_get_n_edges (layout); i++)
    {
      const CgClassGraphEdge *edge = cg_class_graph_layout_get_edge (layout, i);

      if ((int) edge->source == s && (int) edge->target == t && edge->type == type)
        return edge;
    }
  return NULL;
}

static void
test_layout (void)
{
  g_autoptr(CgSiteModel) model = demo_like_model ();
  g_autoptr(CgClassGraphLayout) layout = cg_class_graph_layout_new (model, NULL);
  g_autoptr(GError) error = NULL;
  GPtrArray *classes = cg_site_model_get_classes (model);
  GPtrArray *links = cg_site_model_get_links (model);
  graphene_rect_t bounds;
  guint loops = 0;

  g_assert_false (cg_class_graph_layout_is_computed (layout));
  g_assert_true (cg_class_graph_layout_compute (layout, &error));
  g_assert_no_error (error);
  g_assert_true (cg_class_graph_layout_is_computed (layout));

  g_assert_cmpuint (cg_class_graph_layout_get_n_nodes (layout), ==, classes->len);
  g_assert_cmpuint (cg_class_graph_layout_get_n_omitted_classes (layout), ==, 0);
  cg_class_graph_layout_get_bounds (layout, &bounds);
  for (guint i = 0; i < classes->len; i++)
    {
      CgPageClass *klass = g_ptr_array_index (classes, i);
      int index = cg_class_graph_layout_find_node (layout, klass->name);
      const CgClassGraphNode *node;
      graphene_rect_t inside;

      g_assert_cmpint (index, >=, 0);
      node = cg_class_graph_layout_get_node (layout, index);
      g_assert_cmpstr (node->label, ==, klass->label);
      g_assert_cmpuint (node->n_pages, ==, klass->n_pages);
      g_assert_cmpint (node->state, ==, CG_CLASS_GRAPH_NODE_NORMAL);
      g_assert_cmpint (node->entry, ==, g_str_equal (klass->name, "home"));
      /* Inside the layout's bounds, up to rounding. */
      graphene_rect_inset_r (&bounds, -0.5, -0.5, &inside);
      g_assert_true (graphene_rect_contains_rect (&inside, &node->box));
    }
  assert_no_overlaps (layout);

  /* Down from the entry class: home is the first row. */
  for (guint i = 0; i < classes->len; i++)
    {
      const CgClassGraphNode *home = cg_class_graph_layout_get_node (layout, cg_class_graph_layout_find_node (layout, "home"));
      const CgClassGraphNode *node = cg_class_graph_layout_get_node (layout, i);

      if (node != home)
        g_assert_cmpfloat (home->box.origin.y + home->box.size.height, <, node->box.origin.y);
    }

  g_assert_cmpuint (cg_class_graph_layout_get_n_edges (layout), ==, links->len);
  g_assert_cmpuint (cg_class_graph_layout_get_n_omitted_links (layout), ==, 0);
  for (guint i = 0; i < links->len; i++)
    {
      CgClassLink *link = g_ptr_array_index (links, i);
      const CgClassGraphEdge *edge = find_edge (layout, link->source, link->target, link->type);
      const CgClassGraphNode *source, *target;
      const graphene_point_t *end;

      if (edge == NULL)
        g_error ("no edge for %s → %s", link->source, link->target);
      source = cg_class_graph_layout_get_node (layout, edge->source);
      target = cg_class_graph_layout_get_node (layout, edge->target);
      /* A cubic Bézier spline: a start point and three points a segment. */
      g_assert_cmpuint (edge->n_points, >=, 4);
      g_assert_cmpuint ((edge->n_points - 1) % 3, ==, 0);
      g_assert_true (edge->has_arrow);
      end = &edge->arrow_tip;
      if (distance_to_rect (&edge->points[0], &source->box) > TOUCH_TOLERANCE)
        g_error ("%s → %s starts %.1f pt away from its source", link->source, link->target,
                 distance_to_rect (&edge->points[0], &source->box));
      if (distance_to_rect (end, &target->box) > TOUCH_TOLERANCE)
        g_error ("%s → %s ends %.1f pt away from its target", link->source, link->target,
                 distance_to_rect (end, &target->box));

      if (edge->source == edge->target)
        {
          double furthest = 0;

          /* Pagination is drawn as a loop out of the box and back. */
          for (guint p = 0; p < edge->n_points; p++)
            furthest = MAX (furthest, distance_to_rect (&edge->points[p], &source->box));
          g_assert_cmpfloat (furthest, >, 10);
          loops++;
        }
    }
  g_assert_cmpuint (loops, ==, 3);
  g_assert_nonnull (find_edge (layout, "category", "category", CG_CLASS_LINK_LIST));
}

/* A window with the graph in it, shown and laid out. */
static gboolean
graph_is_shown (gpointer graph)
{
  return !cg_class_graph_is_layout_pending (graph) &&
         gtk_widget_get_width (graph) > 0 && gtk_widget_get_mapped (graph);
}

static GtkWidget *
show_graph (CgSiteModel *model,
            int          width,
            int          height,
            GtkWindow  **out_window)
{
  GtkWidget *window = gtk_window_new ();
  GtkWidget *graph = cg_class_graph_new ();

  gtk_window_set_default_size (GTK_WINDOW (window), width, height);
  gtk_window_set_child (GTK_WINDOW (window), graph);
  cg_class_graph_set_model (CG_CLASS_GRAPH (graph), model);
  gtk_window_present (GTK_WINDOW (window));
  cg_test_wait_for (graph_is_shown, graph, "the graph's first layout on screen");
  cg_test_iterate ();
  *out_window = GTK_WINDOW (window);
  return graph;
}

static gboolean
layout_is_done (gpointer graph)
{
  return !cg_class_graph_is_layout_pending (graph);
}

static void
wait_for_layout (CgClassGraph *graph)
{
  cg_test_wait_for (layout_is_done, graph, "the graph's layout");
  cg_test_iterate ();
}

static void
activated_cb (CgClassGraph *graph,
              const char   *class_name,
              GPtrArray    *activated)
{
  g_ptr_array_add (activated, g_strdup (class_name));
}

static void
test_click (void)
{
  g_autoptr(CgSiteModel) model = demo_like_model ();
  g_autoptr(GPtrArray) activated = g_ptr_array_new_with_free_func (g_free);
  GPtrArray *classes = cg_site_model_get_classes (model);
  GtkWindow *window;
  GtkWidget *graph = show_graph (model, 900, 600, &window);
  GtkEventController *click = cg_test_find_controller (graph, GTK_TYPE_GESTURE_CLICK);

  g_assert_nonnull (click);
  g_signal_connect (graph, "class-activated", G_CALLBACK (activated_cb), activated);

  /* Outside every node, in the fitted graph's margin. */
  g_assert_null (cg_class_graph_pick (CG_CLASS_GRAPH (graph), 2, 2));

  for (guint i = 0; i < classes->len; i++)
    {
      CgPageClass *klass = g_ptr_array_index (classes, i);
      graphene_rect_t box;
      graphene_point_t centre;

      g_assert_true (cg_class_graph_get_node_bounds (CG_CLASS_GRAPH (graph), klass->name, &box));
      graphene_rect_get_center (&box, &centre);
      g_assert_cmpstr (cg_class_graph_pick (CG_CLASS_GRAPH (graph), centre.x, centre.y), ==, klass->name);

      /* What the click gesture reports when the button comes up there. */
      g_signal_emit_by_name (click, "released", 1, (double) centre.x, (double) centre.y);
      g_assert_cmpuint (activated->len, ==, i + 1);
      g_assert_cmpstr (g_ptr_array_index (activated, i), ==, klass->name);
      g_assert_cmpstr (cg_class_graph_get_selected_class (CG_CLASS_GRAPH (graph)), ==, klass->name);
    }

  /* A click on nothing activates nothing and keeps the selection. */
  g_signal_emit_by_name (click, "released", 1, 2.0, 2.0);
  g_assert_cmpuint (activated->len, ==, classes->len);
  g_assert_nonnull (cg_class_graph_get_selected_class (CG_CLASS_GRAPH (graph)));

  gtk_window_destroy (window);
  cg_test_iterate ();
}

static void
test_keyboard (void)
{
  g_autoptr(CgSiteModel) model = demo_like_model ();
  g_autoptr(GPtrArray) activated = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GHashTable) visited = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  GtkWindow *window;
  GtkWidget *graph = show_graph (model, 900, 600, &window);
  CgClassGraph *self = CG_CLASS_GRAPH (graph);
  GPtrArray *classes = cg_site_model_get_classes (model);
  guint moves = 0;

  g_signal_connect (graph, "class-activated", G_CALLBACK (activated_cb), activated);
  g_assert_null (cg_class_graph_get_focus_class (self));

  /* Tab into the graph: the first node, the entry class in the first
   * row. */
  g_assert_true (gtk_widget_child_focus (graph, GTK_DIR_TAB_FORWARD));
  g_assert_true (gtk_widget_is_focus (graph));
  g_assert_cmpstr (cg_class_graph_get_focus_class (self), ==, "home");

  /* Enter (the binding's action) activates the focused node. */
  g_assert_true (gtk_widget_activate_action (graph, "class-graph.activate", NULL));
  g_assert_cmpuint (activated->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (activated, 0), ==, "home");

  /* Tab goes through every node once, then leaves the graph. */
  g_hash_table_add (visited, g_strdup (cg_class_graph_get_focus_class (self)));
  while (gtk_widget_child_focus (graph, GTK_DIR_TAB_FORWARD))
    {
      const char *name = cg_class_graph_get_focus_class (self);

      g_assert_nonnull (name);
      g_assert_false (g_hash_table_contains (visited, name));
      g_hash_table_add (visited, g_strdup (name));
      g_assert_cmpuint (++moves, <, classes->len);
    }
  g_assert_cmpuint (g_hash_table_size (visited), ==, classes->len);

  /* The focused node is described to assistive technologies, since GTK
   * 4.8 cannot expose the nodes themselves. */
  gtk_test_accessible_assert_role (graph, GTK_ACCESSIBLE_ROLE_IMG);
  gtk_test_accessible_assert_property (graph, GTK_ACCESSIBLE_PROPERTY_LABEL, "Page-class graph");
  for (moves = 0; moves < classes->len && g_strcmp0 (cg_class_graph_get_focus_class (self), "book") != 0; moves++)
    g_assert_true (gtk_widget_child_focus (graph, GTK_DIR_TAB_BACKWARD));
  g_assert_cmpstr (cg_class_graph_get_focus_class (self), ==, "book");
  gtk_test_accessible_assert_property (graph, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                       "Book: 120 pages. Links to Author (Singleton), Category (Singleton). "
                                       "Linked from Home (List), Category (List), Author (List), Search Results (List).");
  for (moves = 0; moves < classes->len && g_strcmp0 (cg_class_graph_get_focus_class (self), "category") != 0; moves++)
    g_assert_true (gtk_widget_child_focus (graph, GTK_DIR_TAB_BACKWARD));
  g_assert_cmpstr (cg_class_graph_get_focus_class (self), ==, "category");
  gtk_test_accessible_assert_property (graph, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                       "Category: 24 pages. Links to itself (List, pagination), Book (List). "
                                       "Linked from Home (Menu), Book (Singleton).");
  /* Live counts show there too. */
  cg_class_graph_set_class_count (self, "category", 31);
  gtk_test_accessible_assert_property (graph, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                       "Category: 31 pages. Links to itself (List, pagination), Book (List). "
                                       "Linked from Home (Menu), Book (Singleton).");
  g_assert_true (gtk_widget_child_focus (graph, GTK_DIR_TAB_FORWARD));

  /* Shift+Tab goes back. */
  {
    g_autofree char *last = g_strdup (cg_class_graph_get_focus_class (self));

    g_assert_true (gtk_widget_child_focus (graph, GTK_DIR_TAB_BACKWARD));
    g_assert_cmpstr (cg_class_graph_get_focus_class (self), !=, last);
    g_assert_true (gtk_widget_activate_action (graph, "class-graph.activate", NULL));
    g_assert_cmpuint (activated->len, ==, 2);
    g_assert_cmpstr (g_ptr_array_index (activated, 1), ==, cg_class_graph_get_focus_class (self));
    g_assert_cmpstr (cg_class_graph_get_selected_class (self), ==, cg_class_graph_get_focus_class (self));
  }

  gtk_window_destroy (window);
  cg_test_iterate ();
}

/* A site whose logo, header menu and footer list are on every page, as
 * on real sites: six classes, 29 links, of which 24 are the four
 * site-wide menus. */
#define HEADER_LOGO  "/html/body/header/a"
#define HEADER_MENU  "/html/body/header/nav/a"
#define FOOTER_LIST  "/html/body/footer/ul/li/a"

static CgSiteModel *
menu_model (gboolean with_footer)
{
  CgSiteModel *model = cg_site_model_new ("127.0.0.1");
  const char *names[] = { "home", "category", "book", "author", "about", "contact" };
  struct { const char *source, *target; CgClassLinkType type; const char *xpath; } links[] = {
    { "category", "book", CG_CLASS_LINK_LIST, "/html/body/main/ul/li/a" },
    { "category", "book", CG_CLASS_LINK_LIST, "/html/body/main/ul/li/h3/a" },
    { "book", "author", CG_CLASS_LINK_SINGLETON, "/html/body/main/p/a" },
    { "book", "category", CG_CLASS_LINK_SINGLETON, "/html/body/main/nav/a" },
    { "author", "book", CG_CLASS_LINK_LIST, "/html/body/main/ol/li/a" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *label = g_strdup (names[i]);
      CgPageClass *klass;

      label[0] = g_ascii_toupper (label[0]);
      klass = cg_site_model_add_class (model, names[i], label);
      klass->n_pages = 10;
    }
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      cg_site_model_add_link (model, names[i], "home", CG_CLASS_LINK_LIST, HEADER_LOGO);
      cg_site_model_add_link (model, names[i], "category", CG_CLASS_LINK_MENU, HEADER_MENU);
      cg_site_model_add_link (model, names[i], "about", CG_CLASS_LINK_MENU, HEADER_MENU);
      if (with_footer)
        cg_site_model_add_link (model, names[i], "contact", CG_CLASS_LINK_LIST, FOOTER_LIST);
    }
  for (guint i = 0; i < G_N_ELEMENTS (links); i++)
    cg_site_model_add_link (model, links[i].source, links[i].target, links[i].type, links[i].xpath);
  cg_site_model_set_entry_class (model, "home");
  cg_site_model_compute_depths (model);
  return model;
}

static guint
count_bundled (const CgClassGraphLayout *layout)
{
  guint n = 0;

  for (guint i = 0; i < cg_class_graph_layout_get_n_edges (layout); i++)
    n += cg_class_graph_layout_get_edge (layout, i)->n_bundled;
  return n;
}

static const CgClassGraphNode *
node_named (const CgClassGraphLayout *layout,
            const char               *name)
{
  int index = cg_class_graph_layout_find_node (layout, name);

  g_assert_cmpint (index, >=, 0);
  return cg_class_graph_layout_get_node (layout, index);
}

/* Each site-wide menu is drawn once, from the entry class, and its
 * destinations say how many classes have it; the logo's way back home is
 * not drawn at all; parallel links are one edge; links that are not on
 * most classes stay as they are. */
static void
test_menus_layout (void)
{
  g_autoptr(CgSiteModel) model = menu_model (TRUE);
  g_autoptr(CgClassGraphLayout) layout = cg_class_graph_layout_new (model, NULL);
  g_autoptr(GError) error = NULL;
  const CgClassGraphEdge *edge;

  g_assert_cmpuint (cg_site_model_get_links (model)->len, ==, 29);
  g_assert_cmpuint (cg_class_graph_layout_get_n_edges (layout), ==, 29);
  cg_class_graph_layout_bundle_menus (layout);
  g_assert_true (cg_class_graph_layout_compute (layout, &error));
  g_assert_no_error (error);

  /* home → category, home → about, home → contact, category → book,
   * book → author, book → category (crumbs, not a menu), author → book. */
  g_assert_cmpuint (cg_class_graph_layout_get_n_edges (layout), ==, 7);
  g_assert_cmpuint (cg_class_graph_layout_get_n_bundled_links (layout), ==, 22);
  /* The six links home are in no edge. */
  g_assert_cmpuint (count_bundled (layout), ==, 23);
  for (guint i = 0; i < cg_class_graph_layout_get_n_edges (layout); i++)
    g_assert_cmpstr (cg_class_graph_layout_get_node (layout, cg_class_graph_layout_get_edge (layout, i)->target)->name, !=, "home");
  assert_no_overlaps (layout);

  edge = find_edge (layout, "home", "category", CG_CLASS_LINK_MENU);
  g_assert_nonnull (edge);
  g_assert_cmpuint (edge->n_menu_classes, ==, 6);
  g_assert_cmpuint (edge->n_bundled, ==, 6);
  g_assert_cmpuint (edge->n_points, >, 0);
  edge = find_edge (layout, "home", "contact", CG_CLASS_LINK_LIST);
  g_assert_nonnull (edge);
  g_assert_cmpuint (edge->n_menu_classes, ==, 6);
  /* The menu's loop on its own destination is part of the menu. */
  g_assert_null (find_edge (layout, "about", "about", CG_CLASS_LINK_MENU));
  g_assert_null (find_edge (layout, "author", "category", CG_CLASS_LINK_MENU));
  edge = find_edge (layout, "category", "book", CG_CLASS_LINK_LIST);
  g_assert_nonnull (edge);
  g_assert_cmpuint (edge->n_bundled, ==, 2);
  g_assert_cmpuint (edge->n_menu_classes, ==, 0);
  edge = find_edge (layout, "book", "category", CG_CLASS_LINK_SINGLETON);
  g_assert_nonnull (edge);
  g_assert_cmpuint (edge->n_bundled, ==, 1);

  g_assert_cmpuint (node_named (layout, "category")->n_menu_classes, ==, 6);
  g_assert_cmpuint (node_named (layout, "about")->n_menu_classes, ==, 6);
  g_assert_cmpuint (node_named (layout, "contact")->n_menu_classes, ==, 6);
  g_assert_cmpuint (node_named (layout, "home")->n_menu_classes, ==, 6);
  g_assert_cmpuint (node_named (layout, "book")->n_menu_classes, ==, 0);

  /* Under the share, nothing is a menu: the demo-like model keeps every
   * link. */
  {
    g_autoptr(CgSiteModel) demo = demo_like_model ();
    g_autoptr(CgClassGraphLayout) plain = cg_class_graph_layout_new (demo, NULL);

    cg_class_graph_layout_bundle_menus (plain);
    g_assert_cmpuint (cg_class_graph_layout_get_n_edges (plain), ==, cg_site_model_get_links (demo)->len);
    g_assert_cmpuint (cg_class_graph_layout_get_n_bundled_links (plain), ==, 0);
  }
}

/* A menu that is new since the compared version is one new edge. */
static void
test_menus_diff (void)
{
  g_autoptr(CgSiteModel) model = menu_model (TRUE);
  g_autoptr(CgSiteModel) previous = menu_model (FALSE);
  g_autoptr(CgClassGraphLayout) layout = cg_class_graph_layout_new (model, previous);
  g_autoptr(GError) error = NULL;
  guint added = 0;

  cg_class_graph_layout_bundle_menus (layout);
  g_assert_true (cg_class_graph_layout_compute (layout, &error));
  g_assert_no_error (error);
  for (guint i = 0; i < cg_class_graph_layout_get_n_edges (layout); i++)
    {
      const CgClassGraphEdge *edge = cg_class_graph_layout_get_edge (layout, i);

      if (edge->state != CG_CLASS_GRAPH_NODE_ADDED)
        continue;
      added++;
      g_assert_cmpstr (cg_class_graph_layout_get_node (layout, edge->target)->name, ==, "contact");
      g_assert_cmpuint (edge->n_bundled, ==, 6);
    }
  g_assert_cmpuint (added, ==, 1);
  g_assert_cmpuint (cg_class_graph_layout_get_n_edges (layout), ==, 7);
}

/* The widget folds menus unless asked for every link; the toggle keeps
 * the nodes, the keyboard and the description working. */
static gboolean
window_is_inactive (gpointer window)
{
  return !gtk_window_is_active (window);
}

static void
test_menus_widget (void)
{
  g_autoptr(CgSiteModel) model = menu_model (TRUE);
  g_autoptr(GHashTable) visited = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  GtkWindow *window;
  GtkWidget *graph = show_graph (model, 900, 600, &window);
  CgClassGraph *self = CG_CLASS_GRAPH (graph);
  gboolean all = TRUE;
  graphene_rect_t bounds;
  guint presses;
  GtkWindow *other;

  g_object_get (graph, "show-all-links", &all, NULL);
  g_assert_false (all);
  g_assert_cmpuint (cg_class_graph_layout_get_n_edges (cg_class_graph_get_layout (self)), ==, 7);

  gtk_test_accessible_assert_property (graph, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                       "6 page classes, 7 links (22 more links drawn with others). "
                                       "Press Tab to go through the classes.");

  /* Another window is active, as when other tests' windows share the
   * display: Tab still moves from node to node inside the graph. */
  other = GTK_WINDOW (gtk_window_new ());
  gtk_window_present (other);
  cg_test_wait_for (window_is_inactive, window, "another window to become active");

  /* Every class is a node, reachable with Tab, and Tab leaves the graph
   * after the last one (at most one press per class, or the test names
   * the loop instead of hanging). */
  g_assert_true (gtk_widget_child_focus (graph, GTK_DIR_TAB_FORWARD));
  for (presses = 0; presses <= 6; presses++)
    {
      g_hash_table_add (visited, g_strdup (cg_class_graph_get_focus_class (self)));
      if (!gtk_widget_child_focus (graph, GTK_DIR_TAB_FORWARD))
        break;
    }
  g_assert_cmpuint (presses, ==, 5);
  g_assert_cmpuint (g_hash_table_size (visited), ==, 6);

  for (presses = 0; presses < 6 && g_strcmp0 (cg_class_graph_get_focus_class (self), "about") != 0; presses++)
    g_assert_true (gtk_widget_child_focus (graph, GTK_DIR_TAB_BACKWARD));
  g_assert_cmpstr (cg_class_graph_get_focus_class (self), ==, "about");
  gtk_test_accessible_assert_property (graph, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                       "About: 10 pages. In a site-wide menu on 6 classes. Linked from Home (Menu).");

  g_object_set (graph, "show-all-links", TRUE, NULL);
  g_assert_true (cg_class_graph_get_show_all_links (self));
  wait_for_layout (self);
  g_assert_cmpuint (cg_class_graph_layout_get_n_edges (cg_class_graph_get_layout (self)), ==, 29);
  g_assert_cmpuint (cg_class_graph_layout_get_n_bundled_links (cg_class_graph_get_layout (self)), ==, 0);
  g_assert_cmpuint (node_named (cg_class_graph_get_layout (self), "about")->n_menu_classes, ==, 0);
  /* The focus stayed on its node, which now lists every class's menu. */
  g_assert_cmpstr (cg_class_graph_get_focus_class (self), ==, "about");
  g_assert_true (cg_class_graph_get_node_bounds (self, "contact", &bounds));

  cg_class_graph_set_show_all_links (self, FALSE);
  wait_for_layout (self);
  g_assert_cmpuint (cg_class_graph_layout_get_n_edges (cg_class_graph_get_layout (self)), ==, 7);

  gtk_window_destroy (other);
  gtk_window_destroy (window);
  cg_test_iterate ();
}

/* The first Cairo node in @node's tree, depth first. */
static GskRenderNode *
find_cairo_node (GskRenderNode *node)
{
  GskRenderNode *found = NULL;

  switch (gsk_render_node_get_node_type (node))
    {
    case GSK_CAIRO_NODE:
      return node;
    case GSK_CONTAINER_NODE:
      for (guint i = 0; found == NULL && i < gsk_container_node_get_n_children (node); i++)
        found = find_cairo_node (gsk_container_node_get_child (node, i));
      return found;
    case GSK_CLIP_NODE:
      return find_cairo_node (gsk_clip_node_get_child (node));
    case GSK_TRANSFORM_NODE:
      return find_cairo_node (gsk_transform_node_get_child (node));
    default:
      return NULL;
    }
}

/* The graph's drawing, as GTK asks for it, and its edges' node in it. */
static GskRenderNode *
snapshot_graph (GtkWidget      *graph,
                GskRenderNode **out_edges)
{
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  GskRenderNode *node;

  GTK_WIDGET_GET_CLASS (graph)->snapshot (graph, snapshot);
  node = gtk_snapshot_free_to_node (snapshot);
  g_assert_nonnull (node);
  *out_edges = find_cairo_node (node);
  return node;
}

static void
test_edges_node (void)
{
  g_autoptr(CgSiteModel) model = demo_like_model ();
  GtkWindow *window;
  GtkWidget *graph = show_graph (model, 900, 600, &window);
  CgClassGraph *self = CG_CLASS_GRAPH (graph);
  const CgClassGraphLayout *layout = cg_class_graph_get_layout (self);
  graphene_rect_t widget = GRAPHENE_RECT_INIT (0, 0, gtk_widget_get_width (graph), gtk_widget_get_height (graph));
  GskRenderNode *first, *second, *third;
  GskRenderNode *edges, *edges_again, *edges_zoomed;
  graphene_rect_t bounds;

  g_assert_cmpuint (cg_class_graph_layout_get_n_edges (layout), >, 0);
  first = snapshot_graph (graph, &edges);
  g_assert_nonnull (edges);

  /* The edges' drawing covers the edges, inside the widget, not the
   * whole widget: the fitted graph leaves margins around it. */
  gsk_render_node_get_bounds (edges, &bounds);
  g_assert_true (graphene_rect_contains_rect (&widget, &bounds));
  g_assert_cmpfloat (bounds.size.width * bounds.size.height, <, widget.size.width * widget.size.height);
  for (guint i = 0; i < cg_class_graph_layout_get_n_edges (layout); i++)
    {
      const CgClassGraphEdge *edge = cg_class_graph_layout_get_edge (layout, i);

      for (guint j = 0; j < edge->n_points; j++)
        {
          graphene_point_t p = GRAPHENE_POINT_INIT (edge->points[j].x * cg_class_graph_get_zoom (self),
                                                    edge->points[j].y * cg_class_graph_get_zoom (self));
          graphene_rect_t node_box;

          /* Points are checked relative to a node's box, which shares
           * the edges' transformation to widget pixels. */
          g_assert_true (cg_class_graph_get_node_bounds (self, cg_class_graph_layout_get_node (layout, edge->source)->name,
                                                         &node_box));
          p.x += node_box.origin.x - cg_class_graph_layout_get_node (layout, edge->source)->box.origin.x * cg_class_graph_get_zoom (self);
          p.y += node_box.origin.y - cg_class_graph_layout_get_node (layout, edge->source)->box.origin.y * cg_class_graph_get_zoom (self);
          if (graphene_rect_contains_point (&widget, &p))
            g_assert_true (graphene_rect_contains_point (&bounds, &p));
        }
    }

  /* Drawn again with nothing changed, the same node is reused, so GTK
   * sees nothing to redraw there; a zoom makes a new one. */
  second = snapshot_graph (graph, &edges_again);
  g_assert_true (edges_again == edges);
  cg_class_graph_zoom_in (self);
  third = snapshot_graph (graph, &edges_zoomed);
  g_assert_nonnull (edges_zoomed);
  g_assert_true (edges_zoomed != edges);

  gsk_render_node_unref (first);
  gsk_render_node_unref (second);
  gsk_render_node_unref (third);
  gtk_window_destroy (window);
  cg_test_iterate ();
}

static void
test_zoom (void)
{
  g_autoptr(CgSiteModel) model = demo_like_model ();
  GtkWindow *window;
  GtkWidget *graph = show_graph (model, 900, 600, &window);
  CgClassGraph *self = CG_CLASS_GRAPH (graph);
  int width = gtk_widget_get_width (graph);
  int height = gtk_widget_get_height (graph);
  double fitted = cg_class_graph_get_zoom (self);
  graphene_rect_t before, after, all = GRAPHENE_RECT_INIT (0, 0, 0, 0);
  GPtrArray *classes = cg_site_model_get_classes (model);

  /* Fitted at first: every node inside the widget, the graph filling it
   * in one direction unless it is shown at its natural size. */
  for (guint i = 0; i < classes->len; i++)
    {
      CgPageClass *klass = g_ptr_array_index (classes, i);
      graphene_rect_t box;

      g_assert_true (cg_class_graph_get_node_bounds (self, klass->name, &box));
      g_assert_true (graphene_rect_contains_rect (&GRAPHENE_RECT_INIT (0, 0, width, height), &box));
      if (i == 0)
        all = box;
      else
        graphene_rect_union (&all, &box, &all);
    }
  g_assert_cmpfloat (fitted, <=, 1.0);
  if (fitted < 1.0)
    g_assert_true (all.size.width >= width - 2 * 24 - 40 || all.size.height >= height - 2 * 24 - 40);

  /* Zooming in keeps the middle of the widget where it is. */
  g_assert_true (cg_class_graph_get_node_bounds (self, "book", &before));
  cg_class_graph_zoom_in (self);
  g_assert_cmpfloat_with_epsilon (cg_class_graph_get_zoom (self), fitted * 1.25, 1e-9);
  g_assert_true (cg_class_graph_get_node_bounds (self, "book", &after));
  g_assert_cmpfloat_with_epsilon (after.size.width, before.size.width * 1.25, 1e-3);
  g_assert_cmpfloat_with_epsilon (after.origin.x - width / 2.0, (before.origin.x - width / 2.0) * 1.25, 1e-3);
  g_assert_cmpfloat_with_epsilon (after.origin.y - height / 2.0, (before.origin.y - height / 2.0) * 1.25, 1e-3);

  /* The key bindings' actions do the same. */
  g_assert_true (gtk_widget_activate_action (graph, "class-graph.zoom-out", NULL));
  g_assert_cmpfloat_with_epsilon (cg_class_graph_get_zoom (self), fitted, 1e-9);
  g_assert_true (gtk_widget_activate_action (graph, "class-graph.zoom-in", NULL));
  g_assert_true (gtk_widget_activate_action (graph, "class-graph.zoom-in", NULL));
  g_assert_cmpfloat_with_epsilon (cg_class_graph_get_zoom (self), fitted * 1.25 * 1.25, 1e-9);

  cg_class_graph_zoom_reset (self);
  g_assert_cmpfloat (cg_class_graph_get_zoom (self), ==, 1.0);
  g_assert_true (cg_class_graph_get_node_bounds (self, "book", &after));
  g_assert_cmpfloat_with_epsilon (after.size.width, before.size.width / fitted, 1e-3);

  /* Arrow keys pan. */
  g_assert_true (cg_class_graph_get_node_bounds (self, "book", &before));
  g_assert_true (gtk_widget_activate_action (graph, "class-graph.pan", "(dd)", -64.0, 0.0));
  g_assert_true (cg_class_graph_get_node_bounds (self, "book", &after));
  g_assert_cmpfloat_with_epsilon (after.origin.x, before.origin.x - 64, 1e-3);

  /* Dragging pans. */
  {
    GtkEventController *drag = cg_test_find_controller (graph, GTK_TYPE_GESTURE_DRAG);
    g_autoptr(GPtrArray) activated = g_ptr_array_new_with_free_func (g_free);
    graphene_point_t centre;

    g_signal_connect (graph, "class-activated", G_CALLBACK (activated_cb), activated);
    g_assert_true (cg_class_graph_get_node_bounds (self, "book", &before));
    graphene_rect_get_center (&before, &centre);
    g_signal_emit_by_name (drag, "drag-begin", (double) centre.x, (double) centre.y);
    g_signal_emit_by_name (drag, "drag-update", 30.0, -20.0);
    g_signal_emit_by_name (drag, "drag-update", 50.0, -40.0);
    g_assert_true (cg_class_graph_get_node_bounds (self, "book", &after));
    g_assert_cmpfloat_with_epsilon (after.origin.x, before.origin.x + 50, 1e-3);
    g_assert_cmpfloat_with_epsilon (after.origin.y, before.origin.y - 40, 1e-3);
    /* The button coming up at the end of a drag is no click on a node. */
    g_signal_emit_by_name (cg_test_find_controller (graph, GTK_TYPE_GESTURE_CLICK), "released",
                           1, (double) centre.x + 50, (double) centre.y - 40);
    g_assert_cmpuint (activated->len, ==, 0);
    g_signal_emit_by_name (drag, "drag-end", 50.0, -40.0);
    g_signal_handlers_disconnect_by_func (graph, activated_cb, activated);
  }

  /* A wheel scrolls the view. */
  {
    GtkEventController *scroll = cg_test_find_controller (graph, GTK_TYPE_EVENT_CONTROLLER_SCROLL);
    gboolean handled = FALSE;

    g_assert_true (cg_class_graph_get_node_bounds (self, "book", &before));
    g_signal_emit_by_name (scroll, "scroll", 0.0, 1.0, &handled);
    g_assert_true (handled);
    g_assert_true (cg_class_graph_get_node_bounds (self, "book", &after));
    g_assert_cmpfloat (after.origin.y, <, before.origin.y);
    g_assert_cmpfloat_with_epsilon (after.origin.x, before.origin.x, 1e-3);
  }

  /* Pinching zooms about the fingers' centre. */
  {
    GtkEventController *pinch = cg_test_find_controller (graph, GTK_TYPE_GESTURE_ZOOM);
    double start = cg_class_graph_get_zoom (self);

    g_assert_true (cg_class_graph_get_node_bounds (self, "book", &before));
    g_signal_emit_by_name (pinch, "begin", NULL);
    g_signal_emit_by_name (pinch, "scale-changed", 2.0);
    g_assert_cmpfloat_with_epsilon (cg_class_graph_get_zoom (self), start * 2, 1e-9);
    g_assert_true (cg_class_graph_get_node_bounds (self, "book", &after));
    g_assert_cmpfloat_with_epsilon (after.origin.x - width / 2.0, (before.origin.x - width / 2.0) * 2, 1e-3);
    g_assert_cmpfloat_with_epsilon (after.origin.y - height / 2.0, (before.origin.y - height / 2.0) * 2, 1e-3);
    g_signal_emit_by_name (pinch, "end", NULL);
  }

  /* Zoom is bounded. */
  for (int i = 0; i < 100; i++)
    cg_class_graph_zoom_out (self);
  g_assert_cmpfloat (cg_class_graph_get_zoom (self), >, 0);
  for (int i = 0; i < 100; i++)
    cg_class_graph_zoom_in (self);
  g_assert_cmpfloat (cg_class_graph_get_zoom (self), <=, 4.0);

  g_assert_true (gtk_widget_activate_action (graph, "class-graph.zoom-fit", NULL));
  g_assert_cmpfloat_with_epsilon (cg_class_graph_get_zoom (self), fitted, 1e-9);
  for (guint i = 0; i < classes->len; i++)
    {
      CgPageClass *klass = g_ptr_array_index (classes, i);
      graphene_rect_t box;

      g_assert_true (cg_class_graph_get_node_bounds (self, klass->name, &box));
      g_assert_true (graphene_rect_contains_rect (&GRAPHENE_RECT_INIT (0, 0, width, height), &box));
    }

  gtk_window_destroy (window);
  cg_test_iterate ();
}

/* The demo model as a first exploration might have had it: no authors,
 * author index, search or static pages yet, a "news" class the next
 * version no longer has, and categories found under another URL. */
static CgSiteModel *
previous_model (void)
{
  CgSiteModel *model = cg_site_model_new ("127.0.0.1");
  CgPageClass *klass;

  klass = cg_site_model_add_class (model, "home", "Home");
  klass->url_pattern = g_strdup ("^/$");
  klass = cg_site_model_add_class (model, "category", "Category");
  klass->url_pattern = g_strdup ("^/category/[^/]+$");
  klass = cg_site_model_add_class (model, "book", "Book");
  klass->url_pattern = g_strdup ("^/book/[^/]+$");
  klass = cg_site_model_add_class (model, "news", "News");
  klass->url_pattern = g_strdup ("^/news/[^/]+$");
  cg_site_model_add_link (model, "home", "category", CG_CLASS_LINK_MENU, "//nav/a");
  cg_site_model_add_link (model, "category", "category", CG_CLASS_LINK_LIST, "//a[@rel='next']");
  cg_site_model_add_link (model, "category", "book", CG_CLASS_LINK_LIST, "//h3/a");
  cg_site_model_add_link (model, "home", "news", CG_CLASS_LINK_MENU, "//nav/a");
  cg_site_model_add_link (model, "news", "book", CG_CLASS_LINK_SINGLETON, "//p/a");
  cg_site_model_set_entry_class (model, "home");
  return model;
}

static void
test_diff (void)
{
  g_autoptr(CgSiteModel) model = demo_like_model ();
  g_autoptr(CgSiteModel) previous = previous_model ();
  GtkWindow *window;
  GtkWidget *graph = show_graph (model, 900, 600, &window);
  CgClassGraph *self = CG_CLASS_GRAPH (graph);
  const CgClassGraphLayout *layout;
  const CgClassGraphEdge *edge;
  graphene_rect_t box;
  graphene_point_t centre;

  g_assert_cmpint (cg_class_graph_get_node_state (self, "book"), ==, CG_CLASS_GRAPH_NODE_NORMAL);
  g_assert_cmpint (cg_class_graph_get_node_state (self, "news"), ==, CG_CLASS_GRAPH_NODE_ABSENT);

  cg_class_graph_set_diff (self, previous);
  g_assert_true (cg_class_graph_get_diff (self) == previous);
  wait_for_layout (self);

  g_assert_cmpint (cg_class_graph_get_node_state (self, "home"), ==, CG_CLASS_GRAPH_NODE_NORMAL);
  g_assert_cmpint (cg_class_graph_get_node_state (self, "book"), ==, CG_CLASS_GRAPH_NODE_NORMAL);
  g_assert_cmpint (cg_class_graph_get_node_state (self, "category"), ==, CG_CLASS_GRAPH_NODE_CHANGED);
  g_assert_cmpint (cg_class_graph_get_node_state (self, "author"), ==, CG_CLASS_GRAPH_NODE_ADDED);
  g_assert_cmpint (cg_class_graph_get_node_state (self, "search"), ==, CG_CLASS_GRAPH_NODE_ADDED);
  g_assert_cmpint (cg_class_graph_get_node_state (self, "static"), ==, CG_CLASS_GRAPH_NODE_ADDED);
  g_assert_cmpint (cg_class_graph_get_node_state (self, "news"), ==, CG_CLASS_GRAPH_NODE_REMOVED);
  g_assert_cmpint (cg_class_graph_get_node_state (self, "no-such-class"), ==, CG_CLASS_GRAPH_NODE_ABSENT);

  layout = cg_class_graph_get_layout (self);
  g_assert_cmpuint (cg_class_graph_layout_get_n_nodes (layout), ==, 8);
  assert_no_overlaps (layout);
  edge = find_edge (layout, "category", "book", CG_CLASS_LINK_LIST);
  g_assert_cmpint (edge->state, ==, CG_CLASS_GRAPH_NODE_NORMAL);
  edge = find_edge (layout, "book", "author", CG_CLASS_LINK_SINGLETON);
  g_assert_cmpint (edge->state, ==, CG_CLASS_GRAPH_NODE_ADDED);
  /* The removed links are there, ghosted, with the removed class. */
  edge = find_edge (layout, "home", "news", CG_CLASS_LINK_MENU);
  g_assert_nonnull (edge);
  g_assert_cmpint (edge->state, ==, CG_CLASS_GRAPH_NODE_REMOVED);
  edge = find_edge (layout, "news", "book", CG_CLASS_LINK_SINGLETON);
  g_assert_nonnull (edge);
  g_assert_cmpint (edge->state, ==, CG_CLASS_GRAPH_NODE_REMOVED);
  g_assert_cmpuint (cg_class_graph_layout_get_n_edges (layout), ==, cg_site_model_get_links (model)->len + 2);

  /* New and removed links are named so, not only coloured. */
  g_assert_true (gtk_widget_child_focus (graph, GTK_DIR_TAB_FORWARD));
  for (guint i = 0; i < 8 && g_strcmp0 (cg_class_graph_get_focus_class (self), "book") != 0; i++)
    g_assert_true (gtk_widget_child_focus (graph, GTK_DIR_TAB_FORWARD));
  g_assert_cmpstr (cg_class_graph_get_focus_class (self), ==, "book");
  gtk_test_accessible_assert_property (graph, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                       "Book: 120 pages. Links to Author (Singleton, new), Category (Singleton, new). "
                                       "Linked from Home (List, new), Category (List), Author (List, new), "
                                       "Search Results (List, new), News (Singleton, removed).");

  /* A ghost is not a class one can open. */
  g_assert_true (cg_class_graph_get_node_bounds (self, "news", &box));
  graphene_rect_get_center (&box, &centre);
  g_assert_null (cg_class_graph_pick (self, centre.x, centre.y));

  /* No diff, no highlights and no ghosts. */
  cg_class_graph_set_diff (self, NULL);
  wait_for_layout (self);
  g_assert_cmpint (cg_class_graph_get_node_state (self, "author"), ==, CG_CLASS_GRAPH_NODE_NORMAL);
  g_assert_cmpint (cg_class_graph_get_node_state (self, "category"), ==, CG_CLASS_GRAPH_NODE_NORMAL);
  g_assert_cmpint (cg_class_graph_get_node_state (self, "news"), ==, CG_CLASS_GRAPH_NODE_ABSENT);

  gtk_window_destroy (window);
  cg_test_iterate ();
}

static void
test_empty (void)
{
  g_autoptr(CgSiteModel) empty = cg_site_model_new ("127.0.0.1");
  g_autoptr(CgSiteModel) broken = cg_site_model_new ("127.0.0.1");
  GtkWindow *window;
  GtkWidget *graph = show_graph (NULL, 600, 400, &window);
  CgClassGraph *self = CG_CLASS_GRAPH (graph);
  const CgClassGraphLayout *layout = cg_class_graph_get_layout (self);

  g_assert_nonnull (layout);
  g_assert_cmpuint (cg_class_graph_layout_get_n_nodes (layout), ==, 0);
  g_assert_null (cg_class_graph_pick (self, 300, 200));
  g_assert_cmpint (cg_class_graph_get_node_state (self, "home"), ==, CG_CLASS_GRAPH_NODE_ABSENT);
  g_assert_false (cg_class_graph_get_node_bounds (self, "home", &(graphene_rect_t) { 0 }));
  cg_class_graph_zoom_in (self);
  cg_class_graph_zoom_fit (self);
  cg_class_graph_set_class_count (self, "home", 3);
  g_assert_false (gtk_widget_activate_action (graph, "no-such.action", NULL));
  g_assert_true (gtk_widget_activate_action (graph, "class-graph.activate", NULL));
  gtk_widget_child_focus (graph, GTK_DIR_TAB_FORWARD);
  g_assert_null (cg_class_graph_get_focus_class (self));
  gtk_widget_queue_draw (graph);
  cg_test_iterate ();

  cg_class_graph_set_model (self, empty);
  g_assert_false (cg_class_graph_is_layout_pending (self));
  g_assert_cmpuint (cg_class_graph_layout_get_n_nodes (cg_class_graph_get_layout (self)), ==, 0);

  /* A link to a class the model does not have is left out, and counted. */
  cg_site_model_add_class (broken, "home", "Home");
  cg_site_model_add_link (broken, "home", "nowhere", CG_CLASS_LINK_LIST, "//a");
  cg_class_graph_set_model (self, broken);
  wait_for_layout (self);
  layout = cg_class_graph_get_layout (self);
  g_assert_cmpuint (cg_class_graph_layout_get_n_nodes (layout), ==, 1);
  g_assert_cmpuint (cg_class_graph_layout_get_n_edges (layout), ==, 0);
  g_assert_cmpuint (cg_class_graph_layout_get_n_omitted_links (layout), ==, 1);

  /* And back to nothing. */
  cg_class_graph_set_model (self, NULL);
  g_assert_cmpuint (cg_class_graph_layout_get_n_nodes (cg_class_graph_get_layout (self)), ==, 0);
  g_assert_null (cg_class_graph_get_model (self));
  cg_test_iterate ();

  gtk_window_destroy (window);
  cg_test_iterate ();
}

/* A wide site: a home page, categories, sub-categories and item classes,
 * with links back to the home page and between neighbours. */
static CgSiteModel *
big_model (guint n_classes)
{
  CgSiteModel *model = cg_site_model_new ("127.0.0.1");

  for (guint i = 0; i < n_classes; i++)
    {
      g_autofree char *name = g_strdup_printf ("class-%03u", i);
      CgPageClass *klass = cg_site_model_add_class (model, name, name);

      klass->n_pages = 1 + i % 17;
      if (i > 0)
        {
          g_autofree char *parent = g_strdup_printf ("class-%03u", (i - 1) / 6);

          cg_site_model_add_link (model, parent, name, i % 2 ? CG_CLASS_LINK_LIST : CG_CLASS_LINK_MENU, "//a");
          cg_site_model_add_link (model, name, "class-000", CG_CLASS_LINK_MENU, "//nav/a");
        }
      if (i > 1 && i % 5 == 0)
        {
          g_autofree char *other = g_strdup_printf ("class-%03u", i / 2);

          cg_site_model_add_link (model, name, other, CG_CLASS_LINK_SINGLETON, "//p/a");
          cg_site_model_add_link (model, name, name, CG_CLASS_LINK_LIST, "//a[@rel='next']");
        }
    }
  cg_site_model_set_entry_class (model, "class-000");
  cg_site_model_compute_depths (model);
  return model;
}

static void
test_big (void)
{
  g_autoptr(CgSiteModel) model = big_model (300);
  g_autoptr(CgSiteModel) huge = big_model (CG_CLASS_GRAPH_MAX_CLASSES + 100);
  GtkWindow *window;
  GtkWidget *graph = show_graph (model, 900, 600, &window);
  CgClassGraph *self = CG_CLASS_GRAPH (graph);
  const CgClassGraphLayout *layout = cg_class_graph_get_layout (self);
  GPtrArray *huge_classes = cg_site_model_get_classes (huge);
  int deepest_kept = 0, shallowest_left = G_MAXINT;

  g_assert_cmpuint (cg_class_graph_layout_get_n_nodes (layout), ==, 300);
  /* Every class's link back home is one site-wide menu, left to the
   * home's badge. */
  g_assert_cmpuint (cg_class_graph_layout_get_n_edges (layout) + cg_class_graph_layout_get_n_bundled_links (layout), ==,
                    cg_site_model_get_links (model)->len);
  g_assert_cmpuint (cg_class_graph_layout_get_n_bundled_links (layout), ==, 299);
  g_assert_cmpuint (node_named (layout, "class-000")->n_menu_classes, ==, 299);
  g_assert_cmpuint (cg_class_graph_layout_get_n_omitted_classes (layout), ==, 0);
  assert_no_overlaps (layout);
  /* Fitted, however small that makes it, and drawn. */
  g_assert_cmpfloat (cg_class_graph_get_zoom (self), <, 1.0);
  gtk_widget_queue_draw (graph);
  cg_test_iterate ();

  /* Past the cap: the classes nearest the entry are laid out, the rest
   * counted. */
  cg_class_graph_set_model (self, huge);
  wait_for_layout (self);
  layout = cg_class_graph_get_layout (self);
  g_assert_cmpuint (cg_class_graph_layout_get_n_nodes (layout), ==, CG_CLASS_GRAPH_MAX_CLASSES);
  g_assert_cmpuint (cg_class_graph_layout_get_n_omitted_classes (layout), ==, 100);
  g_assert_cmpuint (cg_class_graph_layout_get_n_edges (layout), <=, CG_CLASS_GRAPH_MAX_LINKS);
  g_assert_cmpint (cg_class_graph_layout_find_node (layout, "class-000"), >=, 0);
  for (guint i = 0; i < huge_classes->len; i++)
    {
      CgPageClass *klass = g_ptr_array_index (huge_classes, i);

      if (cg_class_graph_layout_find_node (layout, klass->name) >= 0)
        deepest_kept = MAX (deepest_kept, klass->depth);
      else
        shallowest_left = MIN (shallowest_left, klass->depth);
    }
  g_assert_cmpint (deepest_kept, <=, shallowest_left);
  assert_no_overlaps (layout);
  gtk_widget_queue_draw (graph);
  cg_test_iterate ();

  gtk_window_destroy (window);
  cg_test_iterate ();
}

static void
test_grow (void)
{
  g_autoptr(CgSiteModel) model = previous_model ();
  g_autoptr(CgSiteModel) grown = demo_like_model ();
  GtkWindow *window;
  GtkWidget *graph = show_graph (model, 900, 600, &window);
  CgClassGraph *self = CG_CLASS_GRAPH (graph);
  g_autoptr(GPtrArray) notified = g_ptr_array_new_with_free_func (g_free);
  graphene_rect_t before, after;
  double zoom;
  int index;

  /* The user moves in and picks a class: the view is theirs from now. */
  cg_class_graph_zoom_in (self);
  zoom = cg_class_graph_get_zoom (self);
  cg_class_graph_set_selected_class (self, "book");
  g_assert_true (cg_class_graph_get_node_bounds (self, "book", &before));
  cg_class_graph_set_class_count (self, "book", 512);
  index = cg_class_graph_layout_find_node (cg_class_graph_get_layout (self), "book");
  g_assert_cmpuint (cg_class_graph_layout_get_node (cg_class_graph_get_layout (self), index)->n_pages, ==, 512);

  /* The exploration finds more classes. */
  cg_class_graph_set_model (self, grown);
  wait_for_layout (self);
  g_assert_cmpuint (cg_class_graph_layout_get_n_nodes (cg_class_graph_get_layout (self)), ==, 7);
  g_assert_cmpstr (cg_class_graph_get_selected_class (self), ==, "book");
  g_assert_cmpfloat (cg_class_graph_get_zoom (self), ==, zoom);
  g_assert_true (cg_class_graph_get_node_bounds (self, "book", &after));
  g_assert_cmpfloat_with_epsilon (after.origin.x, before.origin.x, 0.01);
  g_assert_cmpfloat_with_epsilon (after.origin.y, before.origin.y, 0.01);
  /* The live count outlives the new model's own. */
  index = cg_class_graph_layout_find_node (cg_class_graph_get_layout (self), "book");
  g_assert_cmpuint (cg_class_graph_layout_get_node (cg_class_graph_get_layout (self), index)->n_pages, ==, 512);

  /* The same model object, grown in place, is laid out again. */
  cg_site_model_add_class (grown, "basket", "Basket");
  cg_site_model_add_link (grown, "book", "basket", CG_CLASS_LINK_FORM, "//form");
  cg_class_graph_set_model (self, grown);
  wait_for_layout (self);
  g_assert_cmpint (cg_class_graph_get_node_state (self, "basket"), ==, CG_CLASS_GRAPH_NODE_NORMAL);
  g_assert_cmpstr (cg_class_graph_get_selected_class (self), ==, "book");

  /* A selected class the model loses is no longer selected. */
  cg_class_graph_set_model (self, model);
  wait_for_layout (self);
  cg_class_graph_set_selected_class (self, "news");
  cg_class_graph_set_model (self, grown);
  wait_for_layout (self);
  g_assert_cmpint (cg_class_graph_get_node_state (self, "news"), ==, CG_CLASS_GRAPH_NODE_ABSENT);
  g_assert_null (cg_class_graph_get_selected_class (self));

  /* Requests made while a layout runs are merged: the last one wins. */
  cg_class_graph_set_model (self, model);
  cg_class_graph_set_model (self, grown);
  cg_class_graph_set_model (self, model);
  g_assert_true (cg_class_graph_is_layout_pending (self));
  wait_for_layout (self);
  g_assert_cmpuint (cg_class_graph_layout_get_n_nodes (cg_class_graph_get_layout (self)), ==, 4);
  g_assert_cmpint (cg_class_graph_get_node_state (self, "news"), ==, CG_CLASS_GRAPH_NODE_NORMAL);

  /* Nothing to lay out shows at once, whatever is computing. */
  cg_class_graph_set_model (self, model);
  cg_class_graph_set_model (self, NULL);
  g_assert_false (cg_class_graph_is_layout_pending (self));
  g_assert_cmpuint (cg_class_graph_layout_get_n_nodes (cg_class_graph_get_layout (self)), ==, 0);
  wait_for_layout (self);
  g_assert_cmpuint (cg_class_graph_layout_get_n_nodes (cg_class_graph_get_layout (self)), ==, 0);

  gtk_window_destroy (window);
  cg_test_iterate ();
}

static GdkTexture *
solid_texture (guint32 argb,
               int     width,
               int     height)
{
  g_autoptr(GBytes) bytes = NULL;
  guint32 *pixels = g_new (guint32, width * height);

  for (int i = 0; i < width * height; i++)
    pixels[i] = argb;
  bytes = g_bytes_new_take (pixels, width * height * 4);
  /* B8G8R8A8 in memory is ARGB in a little-endian guint32, as Cairo has it. */
  return gdk_memory_texture_new (width, height, GDK_MEMORY_B8G8R8A8_PREMULTIPLIED, bytes, width * 4);
}

/* The widget's own drawing, as its snapshot function makes it. */
static GdkTexture *
render (GtkWidget *widget)
{
  g_autoptr(GtkSnapshot) snapshot = gtk_snapshot_new ();
  g_autoptr(GskRenderNode) node = NULL;
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  GskRenderer *renderer = gtk_native_get_renderer (gtk_widget_get_native (widget));

  GTK_WIDGET_GET_CLASS (widget)->snapshot (widget, snapshot);
  node = gtk_snapshot_free_to_node (g_steal_pointer (&snapshot));
  g_assert_nonnull (node);
  return gsk_renderer_render_texture (renderer, node, &GRAPHENE_RECT_INIT (0, 0, width, height));
}

/* The whole window, the way GTK draws it on screen. */
static GdkTexture *
render_window (GtkWindow *window)
{
  GtkWidget *widget = GTK_WIDGET (window);
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (widget);
  g_autoptr(GtkSnapshot) snapshot = gtk_snapshot_new ();
  g_autoptr(GskRenderNode) node = NULL;
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  GskRenderer *renderer = gtk_native_get_renderer (GTK_NATIVE (window));
  gint64 end = g_get_monotonic_time () + G_USEC_PER_SEC;

  /* The paintable follows the window's frames; let a few go by. */
  while (g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, FALSE);
  gdk_paintable_snapshot (paintable, GDK_SNAPSHOT (snapshot), width, height);
  node = gtk_snapshot_free_to_node (g_steal_pointer (&snapshot));
  if (node == NULL)
    g_error ("The window drew nothing");
  return gsk_renderer_render_texture (renderer, node, &GRAPHENE_RECT_INIT (0, 0, width, height));
}

static guint32
pixel_at (GdkTexture *texture,
          int         x,
          int         y)
{
  int width = gdk_texture_get_width (texture);
  int height = gdk_texture_get_height (texture);
  g_autofree guint32 *pixels = g_new (guint32, width * height);

  gdk_texture_download (texture, (guchar *) pixels, width * 4);
  return pixels[y * width + x];
}

/* The width, in pixels, of @text in the graph's bold title font, or in
 * its smaller page count font. */
static int
text_width (GtkWidget  *graph,
            const char *text,
            gboolean    title)
{
  g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (graph, text);
  PangoFontDescription *font = pango_font_description_copy (pango_context_get_font_description (pango_layout_get_context (layout)));
  int width;

  if (title)
    pango_font_description_set_weight (font, PANGO_WEIGHT_BOLD);
  else if (pango_font_description_get_size_is_absolute (font))
    pango_font_description_set_absolute_size (font, (int) (pango_font_description_get_size (font) * 0.85));
  else
    pango_font_description_set_size (font, (int) (pango_font_description_get_size (font) * 0.85));
  pango_layout_set_font_description (layout, font);
  pango_font_description_free (font);
  pango_layout_get_pixel_size (layout, &width, NULL);
  return width;
}

#define TOO_LONG_NAME "A class whose name is far too long to fit even the widest card there is"

/* Checks that every card of @graph holds its name and page count, in the
 * widget's font now, and is no wider than they need, except the name
 * TOO_LONG_NAME, whose card is as wide as a card gets; returns the cards'
 * height. */
static double
assert_names_fit (GtkWidget *graph)
{
  const CgClassGraphLayout *layout = cg_class_graph_get_layout (CG_CLASS_GRAPH (graph));
  double height = 0;

  for (guint i = 0; i < cg_class_graph_layout_get_n_nodes (layout); i++)
    {
      const CgClassGraphNode *node = cg_class_graph_layout_get_node (layout, i);
      /* The card's padding on both sides, and the room the widget keeps
       * beside the text. */
      double room = node->box.size.width - 2 * 8 - 4;
      g_autofree char *pages = g_strdup_printf ("%u pages", node->n_pages);

      if (g_str_equal (node->label, TOO_LONG_NAME))
        g_assert_cmpfloat_with_epsilon (node->box.size.width, 2 * CG_CLASS_GRAPH_CARD_WIDTH, 1);
      else if (text_width (graph, node->label, TRUE) > room)
        g_error ("“%s” (%d px) does not fit its card (%.0f px for text)", node->label,
                 text_width (graph, node->label, TRUE), room);
      if (text_width (graph, pages, FALSE) > room)
        g_error ("“%s” of “%s” (%d px) does not fit its card (%.0f px for text)", pages, node->label,
                 text_width (graph, pages, FALSE), room);
      g_assert_cmpfloat (node->box.size.width, >=, CG_CLASS_GRAPH_CARD_WIDTH);
      /* Grown to the text drawn in the widget's own font: a card sized to
       * text a third larger than the window's other text was this much
       * wider. */
      if (!g_str_equal (node->label, TOO_LONG_NAME) && node->box.size.width > CG_CLASS_GRAPH_CARD_WIDTH)
        g_assert_cmpfloat_with_epsilon (node->box.size.width,
                                        MAX (text_width (graph, node->label, TRUE), text_width (graph, pages, FALSE)) + 2 * 8 + 4,
                                        1);
      height = node->box.size.height;
    }
  return height;
}

/* The graph, and the layout it had before. */
typedef struct {
  CgClassGraph             *graph;
  const CgClassGraphLayout *old;
} Relayout;

static gboolean
layout_is_new (gpointer data)
{
  Relayout *relayout = data;

  return !cg_class_graph_is_layout_pending (relayout->graph) &&
         cg_class_graph_get_layout (relayout->graph) != relayout->old;
}

/* With the desktop's large text (one and a half times the size), every
 * class name still fits its card: the cards grow to their names and keep
 * the thumbnail's room instead of ellipsizing the names (whose cards were
 * of one size at every text size) and shrinking the thumbnail. A name
 * longer than the widest card is ellipsized in it. */
static void
test_large_text (void)
{
  g_autoptr(CgSiteModel) model = cg_site_model_new ("127.0.0.1");
  const char *labels[] = { "Home", "Customer Reviews", "Frequently Asked Questions", "Order Confirmations",
                           TOO_LONG_NAME, "Book" };
  GtkSettings *settings = gtk_settings_get_default ();
  Relayout relayout;
  GtkWindow *window;
  GtkWidget *graph;
  double normal_height, large_height;
  int dpi;

  for (guint i = 0; i < G_N_ELEMENTS (labels); i++)
    {
      g_autofree char *name = g_strdup_printf ("class-%u", i);

      /* "Book" has the most pages: its count is wider than its name. */
      cg_site_model_add_class (model, name, labels[i])->n_pages = g_str_equal (labels[i], "Book") ? 123456 : 10 * (i + 1);
      if (i > 0)
        cg_site_model_add_link (model, "class-0", name, CG_CLASS_LINK_LIST, "//a");
    }
  cg_site_model_set_entry_class (model, "class-0");
  cg_site_model_compute_depths (model);

  g_object_get (settings, "gtk-xft-dpi", &dpi, NULL);
  if (dpi <= 0)
    dpi = 96 * 1024;
  graph = show_graph (model, 1400, 700, &window);
  normal_height = assert_names_fit (graph);
  g_assert_cmpfloat (normal_height, >=, CG_CLASS_GRAPH_CARD_HEIGHT);

  relayout.graph = CG_CLASS_GRAPH (graph);
  relayout.old = cg_class_graph_get_layout (relayout.graph);
  g_object_set (settings, "gtk-xft-dpi", dpi * 3 / 2, NULL);
  cg_test_wait_for (layout_is_new, &relayout, "the graph's layout for large text");
  cg_test_iterate ();
  large_height = assert_names_fit (graph);
  /* Taller by what the larger name and count need. */
  g_assert_cmpfloat (large_height, >, normal_height);

  /* Back to the normal size, back to the normal cards. */
  relayout.old = cg_class_graph_get_layout (relayout.graph);
  g_object_set (settings, "gtk-xft-dpi", dpi, NULL);
  cg_test_wait_for (layout_is_new, &relayout, "the graph's layout for normal text");
  cg_test_iterate ();
  g_assert_cmpfloat_with_epsilon (assert_names_fit (graph), normal_height, 0.5);

  gtk_window_destroy (window);
}

static void
test_thumbnail (void)
{
  g_autoptr(CgSiteModel) model = demo_like_model ();
  g_autoptr(GdkTexture) red = solid_texture (0xffe01b24, 64, 40);
  g_autoptr(GdkTexture) before = NULL;
  g_autoptr(GdkTexture) with_thumbnail = NULL;
  g_autoptr(GdkTexture) without = NULL;
  GtkWindow *window;
  GtkWidget *graph = show_graph (model, 900, 600, &window);
  CgClassGraph *self = CG_CLASS_GRAPH (graph);
  double zoom = cg_class_graph_get_zoom (self);
  graphene_rect_t box;
  int x, y;
  guint32 pixel;

  /* The middle of the thumbnail's area, below the card's padding. */
  g_assert_true (cg_class_graph_get_node_bounds (self, "book", &box));
  x = box.origin.x + box.size.width / 2;
  y = box.origin.y + 8 * zoom + 30 * zoom;

  before = render (graph);
  /* The placeholder is grey, light or dark: not red. */
  pixel = pixel_at (before, x, y);
  g_assert_cmpuint ((pixel >> 16 & 0xff) - (pixel >> 8 & 0xff), <, 0x20);

  cg_class_graph_set_thumbnail (self, "book", red);
  with_thumbnail = render (graph);
  pixel = pixel_at (with_thumbnail, x, y);
  g_assert_cmpuint (pixel >> 16 & 0xff, >, 0xc0);
  g_assert_cmpuint (pixel >> 8 & 0xff, <, 0x40);
  g_assert_cmpuint (pixel & 0xff, <, 0x40);

  cg_class_graph_set_thumbnail (self, "book", NULL);
  without = render (graph);
  g_assert_cmpuint (pixel_at (without, x, y), ==, pixel_at (before, x, y));

  gtk_window_destroy (window);
  cg_test_iterate ();
}

static int
take_screenshot (const char *path,
                 gboolean    dark,
                 gboolean    diff,
                 gboolean    large_text,
                 GStrv       thumbnails)
{
  g_autoptr(CgSiteModel) model = demo_like_model ();
  g_autoptr(CgSiteModel) previous = previous_model ();
  g_autoptr(GdkTexture) texture = NULL;
  GtkWindow *window;
  GtkWidget *graph;

  adw_style_manager_set_color_scheme (adw_style_manager_get_default (),
                                      dark ? ADW_COLOR_SCHEME_FORCE_DARK : ADW_COLOR_SCHEME_FORCE_LIGHT);
  if (large_text)
    g_object_set (gtk_settings_get_default (), "gtk-xft-dpi", 96 * 1024 * 3 / 2, NULL);
  graph = show_graph (model, 1100, 640, &window);
  for (guint i = 0; thumbnails[i] != NULL; i++)
    {
      g_auto(GStrv) pair = g_strsplit (thumbnails[i], "=", 2);
      g_autoptr(GdkTexture) thumbnail = NULL;
      g_autoptr(GError) error = NULL;

      if (pair[1] == NULL)
        {
          g_printerr ("--thumbnail wants CLASS=FILE, not “%s”\n", thumbnails[i]);
          return 2;
        }
      thumbnail = gdk_texture_new_from_filename (pair[1], &error);
      if (thumbnail == NULL)
        {
          g_printerr ("%s: %s\n", pair[1], error->message);
          return 1;
        }
      cg_class_graph_set_thumbnail (CG_CLASS_GRAPH (graph), pair[0], thumbnail);
    }
  cg_class_graph_set_selected_class (CG_CLASS_GRAPH (graph), "book");
  if (diff)
    {
      cg_class_graph_set_diff (CG_CLASS_GRAPH (graph), previous);
      wait_for_layout (CG_CLASS_GRAPH (graph));
    }
  texture = render_window (window);
  if (!gdk_texture_save_to_png (texture, path))
    {
      g_printerr ("Could not write %s\n", path);
      return 1;
    }
  g_print ("%s\n", path);
  gtk_window_destroy (window);
  return 0;
}

int
main (int argc, char **argv)
{
  const char *screenshot = NULL;
  g_autoptr(GStrvBuilder) thumbnails = g_strv_builder_new ();
  gboolean dark = FALSE;
  gboolean diff = FALSE;
  gboolean large_text = FALSE;

  for (int i = 1; i < argc; i++)
    {
      if (g_str_equal (argv[i], "--screenshot") && i + 1 < argc)
        screenshot = argv[++i];
      else if (g_str_equal (argv[i], "--thumbnail") && i + 1 < argc)
        g_strv_builder_add (thumbnails, argv[++i]);
      else if (g_str_equal (argv[i], "--dark"))
        dark = TRUE;
      else if (g_str_equal (argv[i], "--diff"))
        diff = TRUE;
      else if (g_str_equal (argv[i], "--large-text"))
        large_text = TRUE;
    }
  if (screenshot != NULL)
    {
      g_auto(GStrv) list = g_strv_builder_end (thumbnails);

      gtk_init ();
      adw_init ();
      return take_screenshot (screenshot, dark, diff, large_text, list);
    }

  /* GTK's in-process accessibility backend, whatever the suite's
   * environment says, so that the tests can read what the graph tells
   * assistive technologies. */
  g_setenv ("GTK_A11Y", "test", TRUE);
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

  g_test_add_func ("/class-graph/layout", test_layout);
  g_test_add_func ("/class-graph/click", test_click);
  g_test_add_func ("/class-graph/keyboard", test_keyboard);
  g_test_add_func ("/class-graph/zoom", test_zoom);
  g_test_add_func ("/class-graph/edges-node", test_edges_node);
  g_test_add_func ("/class-graph/diff", test_diff);
  g_test_add_func ("/class-graph/empty", test_empty);
  g_test_add_func ("/class-graph/big", test_big);
  g_test_add_func ("/class-graph/grow", test_grow);
  g_test_add_func ("/class-graph/thumbnail", test_thumbnail);
  g_test_add_func ("/class-graph/large-text", test_large_text);
  g_test_add_func ("/class-graph/menus-layout", test_menus_layout);
  g_test_add_func ("/class-graph/menus-diff", test_menus_diff);
  g_test_add_func ("/class-graph/menus-widget", test_menus_widget);

  return g_test_run ();
}
