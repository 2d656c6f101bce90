/* cg-class-graph.h: the page-class graph of a site model.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "cg-class-graph-layout.h"
#include "cg-site-model.h"

G_BEGIN_DECLS

/* The widget manages its own viewport (zoom and pan), so it goes into a
 * window or box directly, not into a GtkScrolledWindow. It grabs focus;
 * keys: Tab and Shift+Tab move between nodes, Enter or Space activates the
 * focused node, + and - zoom, 0 fits the graph, 1 zooms to 100 %, arrows
 * pan. The pointer: click a node to activate it, drag or scroll to pan,
 * Ctrl+scroll or pinch to zoom.
 *
 * Properties: "model", "selected-class" (a class name, read-write),
 * "show-all-links" (FALSE: each site-wide menu is drawn once, see
 * cg_class_graph_layout_bundle_menus()) and "zoom" (read-only). Signal: "class-activated" (const char *class_name),
 * when a node is clicked or activated from the keyboard; the node is then
 * the selected class too. */
#define CG_TYPE_CLASS_GRAPH (cg_class_graph_get_type ())
G_DECLARE_FINAL_TYPE (CgClassGraph, cg_class_graph, CG, CLASS_GRAPH, GtkWidget)

GtkWidget               *cg_class_graph_new                (void);

/* Lays the model's classes out again (in a worker thread; the previous
 * layout stays on screen until the new one is ready). Call it again as the
 * model grows: the viewport, selection and focus are kept. */
void                     cg_class_graph_set_model          (CgClassGraph *self,
                                                            CgSiteModel  *model);
CgSiteModel             *cg_class_graph_get_model          (CgClassGraph *self);

void                     cg_class_graph_set_show_all_links (CgClassGraph *self,
                                                            gboolean      show_all_links);
gboolean                 cg_class_graph_get_show_all_links (CgClassGraph *self);

/* Highlights the classes and links added since @previous and shows those
 * it had that are gone, ghosted. NULL shows no differences. */
void                     cg_class_graph_set_diff           (CgClassGraph *self,
                                                            CgSiteModel  *previous);
CgSiteModel             *cg_class_graph_get_diff           (CgClassGraph *self);

/* Live page counts (during a crawl); they override the model's counts
 * and survive later cg_class_graph_set_model() calls. */
void                     cg_class_graph_set_class_count    (CgClassGraph *self,
                                                            const char   *class_name,
                                                            guint         n_pages);
void                     cg_class_graph_set_thumbnail      (CgClassGraph *self,
                                                            const char   *class_name,
                                                            GdkTexture   *texture);
/* The thumbnail given to @class_name, or NULL. */
GdkTexture              *cg_class_graph_get_thumbnail      (CgClassGraph *self,
                                                            const char   *class_name);

const char              *cg_class_graph_get_selected_class (CgClassGraph *self);
void                     cg_class_graph_set_selected_class (CgClassGraph *self,
                                                            const char   *class_name);
/* The node keyboard focus is on, or NULL. */
const char              *cg_class_graph_get_focus_class    (CgClassGraph *self);

void                     cg_class_graph_zoom_in            (CgClassGraph *self);
void                     cg_class_graph_zoom_out           (CgClassGraph *self);
void                     cg_class_graph_zoom_fit           (CgClassGraph *self);
void                     cg_class_graph_zoom_reset         (CgClassGraph *self);
/* Pixels per Graphviz point. */
double                   cg_class_graph_get_zoom           (CgClassGraph *self);

/* The class whose node is under (@x, @y) in widget coordinates, or NULL.
 * Ghosted (removed) classes are never picked. */
const char              *cg_class_graph_pick               (CgClassGraph *self,
                                                            double        x,
                                                            double        y);
/* The node's box in widget coordinates; FALSE if it has none. */
gboolean                 cg_class_graph_get_node_bounds    (CgClassGraph    *self,
                                                            const char      *class_name,
                                                            graphene_rect_t *out_bounds);
CgClassGraphNodeState    cg_class_graph_get_node_state     (CgClassGraph *self,
                                                            const char   *class_name);

/* The layout on screen (NULL before the first one), and whether a newer
 * one is being computed. */
const CgClassGraphLayout *cg_class_graph_get_layout        (CgClassGraph *self);
gboolean                 cg_class_graph_is_layout_pending  (CgClassGraph *self);

G_END_DECLS
