/* cg-class-graph-layout.h: where the page-class graph's nodes and edges go.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <graphene.h>

#include "cg-site-model.h"

G_BEGIN_DECLS

/* Graphviz's dot is quadratic or worse in the number of edges crossing
 * ranks, so the graph lays out at most this many classes (and links); the
 * rest are counted, and the widget says so. */
#define CG_CLASS_GRAPH_MAX_CLASSES 500
#define CG_CLASS_GRAPH_MAX_LINKS   2000

/* A site-wide menu, for cg_class_graph_layout_bundle_menus(): links found
 * at one place of the page (one XPath) leading to one class, on pages of
 * at least this share of the classes, and of at least this many. */
#define CG_CLASS_GRAPH_MENU_SHARE        0.6
#define CG_CLASS_GRAPH_MENU_MIN_CLASSES  3

/* The default size of a node's card, in points: a thumbnail of the
 * class's sample page above its name and page count. */
#define CG_CLASS_GRAPH_CARD_WIDTH  184.0
#define CG_CLASS_GRAPH_CARD_HEIGHT 160.0

#define CG_CLASS_GRAPH_LAYOUT_ERROR (cg_class_graph_layout_error_quark ())

typedef enum {
  CG_CLASS_GRAPH_LAYOUT_ERROR_FAILED,   /* Graphviz could not lay the graph out */
} CgClassGraphLayoutError;

/* How a class or link compares with the previous model version given to
 * cg_class_graph_set_diff(). ABSENT is what a query for an unknown name
 * answers; nodes and edges are never ABSENT. */
typedef enum {
  CG_CLASS_GRAPH_NODE_ABSENT,
  CG_CLASS_GRAPH_NODE_NORMAL,
  CG_CLASS_GRAPH_NODE_ADDED,
  CG_CLASS_GRAPH_NODE_REMOVED,   /* only in the previous version: drawn ghosted */
  CG_CLASS_GRAPH_NODE_CHANGED,   /* its URL pattern or schema changed */
} CgClassGraphNodeState;

/* Geometry is in Graphviz points, with y growing downwards and the
 * layout's top-left corner at (0, 0). */
typedef struct {
  char                  *name;
  char                  *label;
  char                  *url_pattern;   /* NULL if unknown */
  guint                  n_pages;
  gboolean               entry;         /* the model's entry class */
  int                    depth;         /* links from the entry class; -1 if unknown */
  CgClassGraphNodeState  state;
  /* Bundled: the most classes a site-wide menu leading here is on; 0 if
   * no bundled menu leads here. */
  guint                  n_menu_classes;
  graphene_rect_t        box;
} CgClassGraphNode;

typedef struct {
  guint                  source;        /* node indices */
  guint                  target;
  CgClassLinkType        type;
  CgClassGraphNodeState  state;         /* NORMAL, ADDED or REMOVED */
  guint                  n_links;
  char                  *xpath;         /* where the links are on the source's pages */
  /* Bundled: the model's links this edge stands for (1 if only itself),
   * and, for a site-wide menu drawn once, the classes it is on (0 for
   * other edges). */
  guint                  n_bundled;
  guint                  n_menu_classes;
  /* A cubic Bézier spline: points[0], then three points per segment. */
  graphene_point_t      *points;
  guint                  n_points;
  /* The arrowhead runs from the spline's last point to this tip. */
  gboolean               has_arrow;
  graphene_point_t       arrow_tip;
} CgClassGraphEdge;

typedef struct _CgClassGraphLayout CgClassGraphLayout;

GQuark                   cg_class_graph_layout_error_quark (void);

/* Takes what it needs from @model (and @previous, for the differences)
 * by copy, so the result may be computed in another thread while the
 * models change. Both models may be NULL. */
CgClassGraphLayout      *cg_class_graph_layout_new        (CgSiteModel         *model,
                                                           CgSiteModel         *previous);
void                     cg_class_graph_layout_free       (CgClassGraphLayout  *self);

/* Draws each site-wide menu once (see CG_CLASS_GRAPH_MENU_SHARE): from
 * the entry class (or the class nearest it), its destination marked with
 * the number of classes the menu is on; a menu's way back to the entry
 * class itself is left to that mark. Several links of one type between
 * two classes become one edge. Call it before computing. The links left
 * out are counted by cg_class_graph_layout_get_n_bundled_links(). */
void                     cg_class_graph_layout_bundle_menus (CgClassGraphLayout *self);
guint                    cg_class_graph_layout_get_n_bundled_links (const CgClassGraphLayout *self);

/* Runs Graphviz's dot. Safe to call from any thread: calls into Graphviz,
 * which keeps global state, are serialised. */
gboolean                 cg_class_graph_layout_compute    (CgClassGraphLayout  *self,
                                                           GError             **error);
gboolean                 cg_class_graph_layout_is_computed (const CgClassGraphLayout *self);

guint                    cg_class_graph_layout_get_n_nodes (const CgClassGraphLayout *self);
const CgClassGraphNode  *cg_class_graph_layout_get_node    (const CgClassGraphLayout *self,
                                                            guint                     index);
guint                    cg_class_graph_layout_get_n_edges (const CgClassGraphLayout *self);
const CgClassGraphEdge  *cg_class_graph_layout_get_edge    (const CgClassGraphLayout *self,
                                                            guint                     index);
/* The node's index, or -1. */
int                      cg_class_graph_layout_find_node   (const CgClassGraphLayout *self,
                                                            const char               *name);
void                     cg_class_graph_layout_set_n_pages (CgClassGraphLayout       *self,
                                                            guint                     index,
                                                            guint                     n_pages);
void                     cg_class_graph_layout_set_card_size (CgClassGraphLayout     *self,
                                                              guint                   index,
                                                              double                  width,
                                                              double                  height);
void                     cg_class_graph_layout_get_bounds  (const CgClassGraphLayout *self,
                                                            graphene_rect_t          *out_bounds);
/* Classes and links left out by the caps above. */
guint                    cg_class_graph_layout_get_n_omitted_classes (const CgClassGraphLayout *self);
guint                    cg_class_graph_layout_get_n_omitted_links   (const CgClassGraphLayout *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CgClassGraphLayout, cg_class_graph_layout_free)

G_END_DECLS
