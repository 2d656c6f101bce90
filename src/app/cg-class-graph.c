/* cg-class-graph.c: the page-class graph of a site model.
 *
 * The geometry comes from Graphviz (cg-class-graph-layout.c), computed in
 * a worker thread; the widget draws it itself with GtkSnapshot so that it
 * follows the theme (light and dark) and stays sharp at every zoom. It
 * manages its own viewport: graph points map to widget pixels through a
 * zoom factor and a pan offset, which survive new layouts as the model
 * grows during exploration.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "cg-class-graph.h"

#define ZOOM_MIN        0.01
#define ZOOM_MAX        4.0
#define ZOOM_STEP       1.25
#define FIT_MARGIN      24.0   /* pixels around the graph when it is fitted */
#define PAN_STEP        64.0   /* pixels per arrow key */
#define DRAG_THRESHOLD  4.0

/* The inside of a node's card, in graph points: the thumbnail fills the
 * top, the name and page count the bottom TEXT_HEIGHT at least. */
#define CARD_RADIUS     12.0
#define CARD_PADDING    8.0
#define THUMB_RADIUS    6.0
#define TEXT_HEIGHT     56.0
/* The width a card's text leaves free: the padding on both sides, and a
 * little room. */
#define CARD_TEXT_INSET (2 * CARD_PADDING + 4)

/* A card grows to the width its name needs (see size_cards()), up to this
 * many times the default width; a longer name is ellipsized. */
#define CARD_WIDTH_MAX_FACTOR 2.0

/* Below this zoom the text would be a few pixels high: cards are drawn
 * without it, which also keeps big graphs quick to draw. */
#define ZOOM_TEXT_MIN   0.3

typedef struct {
  PangoLayout *title;
  PangoLayout *count;
  PangoLayout *badge;
  PangoLayout *menu_badge;
} NodeText;

/* What the edges' drawing depends on besides the layout, whose change
 * drops the drawing. */
typedef struct {
  double  zoom;
  double  pan_x;
  double  pan_y;
  int     width;
  int     height;
  int     selected;
  int     hover;
  int     focused;
  GdkRGBA fg;
  GdkRGBA accent;
  GdkRGBA success;
  gboolean dark;
} EdgesKey;

struct _CgClassGraph
{
  GtkWidget           parent_instance;

  CgSiteModel        *model;
  CgSiteModel        *previous;
  CgClassGraphLayout *layout;
  GCancellable       *layout_cancellable;  /* of the layout computing */
  guint               layout_serial;       /* of the latest request */
  guint               running_serial;      /* of the one computing */
  gboolean            layout_queued;
  char               *layout_error;
  gboolean            show_all_links;

  double              card_text_height;  /* the text's height the cards were sized for */
  GHashTable         *counts;       /* class name → page count */
  GHashTable         *thumbnails;   /* class name → GdkTexture */
  GArray             *texts;        /* NodeText per node, made when drawn */
  GArray             *focus_order;  /* node indices, in reading order */

  char               *selected;
  char               *focused;
  gboolean            focus_ring;   /* the keyboard moved the focus last */
  int                 hover;        /* node index or -1 */

  double              zoom;
  double              pan_x;
  double              pan_y;
  /* Until the user moves the view, every new layout is fitted to the
   * widget, so that a graph growing during exploration stays in sight. */
  gboolean            follow;
  int                 last_width;
  int                 last_height;

  double              drag_pan_x;
  double              drag_pan_y;
  gboolean            dragging;
  double              gesture_zoom;
  double              gesture_x;    /* graph point under the pinch */
  double              gesture_y;
  double              gesture_centre_x;
  double              gesture_centre_y;
  double              pointer_x;
  double              pointer_y;

  /* The edges' drawing, reused by snapshots while nothing it depends on
   * changed: replaying the strokes is much of a frame's cost with the
   * Cairo renderer, and an unchanged node lets GTK leave the edges out of
   * the redrawn area (issue 8). */
  GskRenderNode      *edges_node;
  EdgesKey            edges_key;
};

G_DEFINE_FINAL_TYPE (CgClassGraph, cg_class_graph, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_MODEL,
  PROP_SELECTED_CLASS,
  PROP_ZOOM,
  PROP_SHOW_ALL_LINKS,
  N_PROPS
};

enum {
  CLASS_ACTIVATED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static void update_description (CgClassGraph *self);

/* ------------------------------------------------------------------ */
/* Geometry                                                            */

static guint
n_nodes (CgClassGraph *self)
{
  return self->layout != NULL ? cg_class_graph_layout_get_n_nodes (self->layout) : 0;
}

static const CgClassGraphNode *
get_node (CgClassGraph *self,
          guint         index)
{
  return cg_class_graph_layout_get_node (self->layout, index);
}

static int
find_node (CgClassGraph *self,
           const char   *name)
{
  return self->layout != NULL ? cg_class_graph_layout_find_node (self->layout, name) : -1;
}

static void
to_widget_rect (CgClassGraph          *self,
                const graphene_rect_t *graph,
                graphene_rect_t       *out)
{
  graphene_rect_init (out,
                      graph->origin.x * self->zoom + self->pan_x,
                      graph->origin.y * self->zoom + self->pan_y,
                      graph->size.width * self->zoom,
                      graph->size.height * self->zoom);
}

static void
to_widget_point (CgClassGraph           *self,
                 const graphene_point_t *graph,
                 double                 *x,
                 double                 *y)
{
  *x = graph->x * self->zoom + self->pan_x;
  *y = graph->y * self->zoom + self->pan_y;
}

static void
set_zoom_at (CgClassGraph *self,
             double        zoom,
             double        x,
             double        y)
{
  double gx = (x - self->pan_x) / self->zoom;
  double gy = (y - self->pan_y) / self->zoom;

  zoom = CLAMP (zoom, ZOOM_MIN, ZOOM_MAX);
  self->pan_x = x - gx * zoom;
  self->pan_y = y - gy * zoom;
  if (zoom != self->zoom)
    {
      self->zoom = zoom;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ZOOM]);
    }
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
fit (CgClassGraph *self)
{
  int width = gtk_widget_get_width (GTK_WIDGET (self));
  int height = gtk_widget_get_height (GTK_WIDGET (self));
  graphene_rect_t bounds;
  double zoom;

  if (width <= 0 || height <= 0 || n_nodes (self) == 0)
    return;
  cg_class_graph_layout_get_bounds (self->layout, &bounds);
  /* A small graph is shown at its natural size, not blown up. */
  zoom = MIN ((width - 2 * FIT_MARGIN) / MAX (bounds.size.width, 1.0),
              (height - 2 * FIT_MARGIN) / MAX (bounds.size.height, 1.0));
  zoom = CLAMP (zoom, ZOOM_MIN, 1.0);
  if (zoom != self->zoom)
    {
      self->zoom = zoom;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ZOOM]);
    }
  self->pan_x = (width - bounds.size.width * zoom) / 2;
  self->pan_y = (height - bounds.size.height * zoom) / 2;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* Pans just enough to bring a node (with a margin) into view. */
static void
scroll_to_node (CgClassGraph *self,
                int           index)
{
  int width = gtk_widget_get_width (GTK_WIDGET (self));
  int height = gtk_widget_get_height (GTK_WIDGET (self));
  graphene_rect_t box;
  double dx = 0, dy = 0;

  if (index < 0 || width <= 0 || height <= 0)
    return;
  to_widget_rect (self, &get_node (self, index)->box, &box);
  graphene_rect_inset (&box, -FIT_MARGIN, -FIT_MARGIN);
  if (box.size.width > width || box.origin.x < 0)
    dx = -box.origin.x;
  else if (box.origin.x + box.size.width > width)
    dx = width - (box.origin.x + box.size.width);
  if (box.size.height > height || box.origin.y < 0)
    dy = -box.origin.y;
  else if (box.origin.y + box.size.height > height)
    dy = height - (box.origin.y + box.size.height);
  if (dx != 0 || dy != 0)
    {
      self->pan_x += dx;
      self->pan_y += dy;
      self->follow = FALSE;
      gtk_widget_queue_draw (GTK_WIDGET (self));
    }
}

static int
pick_index (CgClassGraph *self,
            double        x,
            double        y)
{
  for (guint i = n_nodes (self); i-- > 0;)
    {
      const CgClassGraphNode *node = get_node (self, i);
      graphene_rect_t box;

      if (node->state == CG_CLASS_GRAPH_NODE_REMOVED)
        continue;
      to_widget_rect (self, &node->box, &box);
      if (graphene_rect_contains_point (&box, &GRAPHENE_POINT_INIT (x, y)))
        return i;
    }
  return -1;
}

/* ------------------------------------------------------------------ */
/* Text                                                                */

static void
node_text_clear (gpointer data)
{
  NodeText *text = data;

  g_clear_object (&text->title);
  g_clear_object (&text->count);
  g_clear_object (&text->badge);
  g_clear_object (&text->menu_badge);
}

static void
drop_texts (CgClassGraph *self)
{
  g_array_set_size (self->texts, 0);
}

static PangoLayout *
make_layout (CgClassGraph *self,
             const char   *text,
             double        scale,
             gboolean      bold,
             double        width)
{
  PangoLayout *layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), text);
  PangoFontDescription *font = pango_font_description_copy (pango_context_get_font_description (pango_layout_get_context (layout)));
  int size = (int) (pango_font_description_get_size (font) * scale);

  /* GTK gives the widget's font in pixels; set in points, the same number
   * was drawn a third larger than the rest of the window's text, and
   * twice as large with the desktop's large text. */
  if (pango_font_description_get_size_is_absolute (font))
    pango_font_description_set_absolute_size (font, size);
  else
    pango_font_description_set_size (font, size);
  if (bold)
    pango_font_description_set_weight (font, PANGO_WEIGHT_BOLD);
  pango_layout_set_font_description (layout, font);
  pango_font_description_free (font);
  if (width > 0)
    {
      pango_layout_set_width (layout, (int) (width * PANGO_SCALE));
      pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
    }
  /* Pango shapes a layout when it is first measured or drawn: measuring
   * it here shapes it now, in the turn that makes the texts, rather than
   * in the snapshot of the frame that first shows them, where shaping a
   * new model's cards took some 30 ms (issue 8). */
  pango_layout_get_pixel_size (layout, NULL, NULL);
  return layout;
}

/* The height a card's name and page count take with their margins, at
 * zoom 1, for lines of these heights. */
static double
text_block_height (int title_height,
                   int count_height)
{
  return 8 + title_height + 2 + count_height + 8;
}

static char *
describe_pages (guint n_pages)
{
  return g_strdup_printf (ngettext ("%u page", "%u pages", n_pages), n_pages);
}

static const char *
describe_state (CgClassGraphNodeState state)
{
  switch (state)
    {
    case CG_CLASS_GRAPH_NODE_ADDED:
      return C_("class in a model version", "New");
    case CG_CLASS_GRAPH_NODE_REMOVED:
      return C_("class in a model version", "Removed");
    case CG_CLASS_GRAPH_NODE_CHANGED:
      return C_("class in a model version", "Changed");
    case CG_CLASS_GRAPH_NODE_ABSENT:
    case CG_CLASS_GRAPH_NODE_NORMAL:
    default:
      return NULL;
    }
}

/* A link's state in a comparison, in lower case to follow its type
 * ("List, new"), or NULL. */
static const char *
describe_link_state (CgClassGraphNodeState state)
{
  switch (state)
    {
    case CG_CLASS_GRAPH_NODE_ADDED:
      return C_("link in a model version", "new");
    case CG_CLASS_GRAPH_NODE_REMOVED:
      return C_("link in a model version", "removed");
    case CG_CLASS_GRAPH_NODE_CHANGED:
    case CG_CLASS_GRAPH_NODE_ABSENT:
    case CG_CLASS_GRAPH_NODE_NORMAL:
    default:
      return NULL;
    }
}

static const char *
describe_link_type (CgClassLinkType type)
{
  switch (type)
    {
    case CG_CLASS_LINK_MENU:
      return C_("class link type", "Menu");
    case CG_CLASS_LINK_SINGLETON:
      return C_("class link type", "Singleton");
    case CG_CLASS_LINK_FORM:
      return C_("class link type", "Form");
    case CG_CLASS_LINK_LIST:
    default:
      return C_("class link type", "List");
    }
}

static NodeText *
get_text (CgClassGraph *self,
          guint         index)
{
  NodeText *text;

  if (self->texts->len != n_nodes (self))
    {
      drop_texts (self);
      g_array_set_size (self->texts, n_nodes (self));
    }
  text = &g_array_index (self->texts, NodeText, index);
  if (text->title == NULL)
    {
      const CgClassGraphNode *node = get_node (self, index);
      g_autofree char *pages = describe_pages (node->n_pages);
      double width = node->box.size.width - CARD_TEXT_INSET;
      const char *badge = describe_state (node->state);

      text->title = make_layout (self, node->label, 1.0, TRUE, width);
      text->count = make_layout (self, pages, 0.85, FALSE, width);
      if (badge != NULL)
        text->badge = make_layout (self, badge, 0.75, TRUE, -1);
      if (node->n_menu_classes > 0)
        {
          /* Translators: a badge on a class reached from a site-wide menu;
           * %u is the number of classes whose pages have the menu. */
          g_autofree char *menu = g_strdup_printf (C_("graph badge", "Menu · %u"), node->n_menu_classes);

          text->menu_badge = make_layout (self, menu, 0.75, TRUE, -1);
        }
    }
  return text;
}

/* ------------------------------------------------------------------ */
/* Drawing                                                             */

typedef struct {
  GdkRGBA fg;
  GdkRGBA card;
  GdkRGBA accent;
  GdkRGBA accent_bg;
  GdkRGBA success;
  GdkRGBA warning;
  gboolean dark;
} Palette;

static void
lookup_color (GtkWidget  *widget,
              const char *name,
              const char *fallback,
              GdkRGBA    *out)
{
  /* libadwaita's named colours follow the light or dark style; the style
   * context is the way GTK 4.8 gives them (later versions deprecate it
   * for CSS variables, which 4.8 does not have). */
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  if (!gtk_style_context_lookup_color (gtk_widget_get_style_context (widget), name, out))
    gdk_rgba_parse (out, fallback);
  G_GNUC_END_IGNORE_DEPRECATIONS
}

static void
get_palette (CgClassGraph *self,
             Palette      *palette)
{
  GtkWidget *widget = GTK_WIDGET (self);

  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  gtk_style_context_get_color (gtk_widget_get_style_context (widget), &palette->fg);
  G_GNUC_END_IGNORE_DEPRECATIONS
  lookup_color (widget, "card_bg_color", "#ffffff", &palette->card);
  lookup_color (widget, "accent_color", "#1c71d8", &palette->accent);
  lookup_color (widget, "accent_bg_color", "#3584e4", &palette->accent_bg);
  lookup_color (widget, "success_color", "#1b8553", &palette->success);
  lookup_color (widget, "warning_color", "#9c6e03", &palette->warning);
  /* A light foreground means a dark style. */
  palette->dark = (palette->fg.red + palette->fg.green + palette->fg.blue) / 3 > 0.5;
  /* Cards in the dark style are see-through; over edges they must not be. */
  if (palette->card.alpha < 1)
    {
      GdkRGBA base;

      lookup_color (widget, "view_bg_color", palette->dark ? "#1e1e1e" : "#ffffff", &base);
      palette->card.red = base.red * (1 - palette->card.alpha) + palette->card.red * palette->card.alpha;
      palette->card.green = base.green * (1 - palette->card.alpha) + palette->card.green * palette->card.alpha;
      palette->card.blue = base.blue * (1 - palette->card.alpha) + palette->card.blue * palette->card.alpha;
      palette->card.alpha = 1;
    }
}

static GdkRGBA
with_alpha (const GdkRGBA *color,
            double         alpha)
{
  GdkRGBA out = *color;

  out.alpha *= alpha;
  return out;
}

static void
set_dash (cairo_t         *cr,
          CgClassLinkType  type,
          double           unit)
{
  double dashed[] = { 6 * unit, 4 * unit };
  double dotted[] = { 0.01, 3.5 * unit };
  double dash_dot[] = { 8 * unit, 3.5 * unit, 0.01, 3.5 * unit };

  switch (type)
    {
    case CG_CLASS_LINK_MENU:
      cairo_set_dash (cr, dashed, G_N_ELEMENTS (dashed), 0);
      break;
    case CG_CLASS_LINK_SINGLETON:
      cairo_set_dash (cr, dotted, G_N_ELEMENTS (dotted), 0);
      break;
    case CG_CLASS_LINK_FORM:
      cairo_set_dash (cr, dash_dot, G_N_ELEMENTS (dash_dot), 0);
      break;
    case CG_CLASS_LINK_LIST:
    default:
      cairo_set_dash (cr, NULL, 0, 0);
      break;
    }
}

static void
draw_arrow (cairo_t *cr,
            double   from_x,
            double   from_y,
            double   tip_x,
            double   tip_y)
{
  double dx = tip_x - from_x, dy = tip_y - from_y;
  double length = hypot (dx, dy);
  double ux, uy;

  if (length < 0.01)
    return;
  ux = dx / length;
  uy = dy / length;
  cairo_set_dash (cr, NULL, 0, 0);
  cairo_move_to (cr, tip_x, tip_y);
  cairo_line_to (cr, from_x - uy * length * 0.4, from_y + ux * length * 0.4);
  cairo_line_to (cr, from_x + uy * length * 0.4, from_y - ux * length * 0.4);
  cairo_close_path (cr);
  cairo_fill (cr);
}

static gboolean
edge_touches (const CgClassGraphEdge *edge,
              int                     index)
{
  return index >= 0 && (edge->source == (guint) index || edge->target == (guint) index);
}

static void
draw_edge (CgClassGraph           *self,
           cairo_t                *cr,
           const CgClassGraphEdge *edge,
           const GdkRGBA          *color,
           double                  width)
{
  double unit = MAX (self->zoom, 0.4);
  double x, y, x1, y1, x2, y2;

  if (edge->n_points < 1)
    return;
  gdk_cairo_set_source_rgba (cr, color);
  cairo_set_line_width (cr, width);
  set_dash (cr, edge->type, unit);
  to_widget_point (self, &edge->points[0], &x, &y);
  cairo_move_to (cr, x, y);
  for (guint i = 1; i + 2 < edge->n_points; i += 3)
    {
      to_widget_point (self, &edge->points[i], &x1, &y1);
      to_widget_point (self, &edge->points[i + 1], &x2, &y2);
      to_widget_point (self, &edge->points[i + 2], &x, &y);
      cairo_curve_to (cr, x1, y1, x2, y2, x, y);
    }
  cairo_stroke (cr);
  if (edge->has_arrow)
    {
      double tx, ty;

      to_widget_point (self, &edge->arrow_tip, &tx, &ty);
      draw_arrow (cr, x, y, tx, ty);
    }
}

/* The widget-pixel rectangle the edges' strokes and arrows cover, clipped
 * to the widget; FALSE when it is empty. The control points of a Bézier
 * spline bound it, so their box bounds the curve. */
static gboolean
get_edges_bounds (CgClassGraph    *self,
                  int              width,
                  int              height,
                  double           margin,
                  graphene_rect_t *out)
{
  double min_x = G_MAXDOUBLE, min_y = G_MAXDOUBLE, max_x = -G_MAXDOUBLE, max_y = -G_MAXDOUBLE;
  double arrow = 0;

  for (guint i = 0; i < cg_class_graph_layout_get_n_edges (self->layout); i++)
    {
      const CgClassGraphEdge *edge = cg_class_graph_layout_get_edge (self->layout, i);
      double x, y;

      for (guint j = 0; j < edge->n_points; j++)
        {
          to_widget_point (self, &edge->points[j], &x, &y);
          min_x = MIN (min_x, x);
          min_y = MIN (min_y, y);
          max_x = MAX (max_x, x);
          max_y = MAX (max_y, y);
        }
      if (edge->has_arrow && edge->n_points > 0)
        {
          double from_x, from_y;

          to_widget_point (self, &edge->points[edge->n_points - 1], &from_x, &from_y);
          to_widget_point (self, &edge->arrow_tip, &x, &y);
          min_x = MIN (min_x, x);
          min_y = MIN (min_y, y);
          max_x = MAX (max_x, x);
          max_y = MAX (max_y, y);
          /* The arrow's base reaches 0.4 of its length to either side. */
          arrow = MAX (arrow, 0.4 * hypot (x - from_x, y - from_y));
        }
    }
  if (min_x > max_x)
    return FALSE;
  margin += arrow;
  graphene_rect_init (out, min_x - margin, min_y - margin,
                      max_x - min_x + 2 * margin, max_y - min_y + 2 * margin);
  graphene_rect_round_extents (out, out);
  return graphene_rect_intersection (out, &GRAPHENE_RECT_INIT (0, 0, width, height), out);
}

static GskRenderNode *
make_edges_node (CgClassGraph   *self,
                 const EdgesKey *key,
                 const Palette  *palette)
{
  double line = CLAMP (1.5 * self->zoom, 0.75, 3.0);
  g_autoptr(GtkSnapshot) snapshot = NULL;
  graphene_rect_t bounds;
  cairo_t *cr;

  /* The Cairo drawing covers only the edges, not the whole widget: the
   * renderer's surface for it, and what it replays, is that much smaller.
   * Edges are still stroked in widget pixels, so they are sharp at any
   * zoom and never need a texture larger than the window. */
  if (!get_edges_bounds (self, key->width, key->height, line * 1.5, &bounds))
    return NULL;
  snapshot = gtk_snapshot_new ();
  cr = gtk_snapshot_append_cairo (snapshot, &bounds);
  cairo_set_line_cap (cr, CAIRO_LINE_CAP_ROUND);
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
  /* Quiet edges first, the highlighted ones on top of them. */
  for (int pass = 0; pass < 2; pass++)
    for (guint i = 0; i < cg_class_graph_layout_get_n_edges (self->layout); i++)
      {
        const CgClassGraphEdge *edge = cg_class_graph_layout_get_edge (self->layout, i);
        gboolean highlighted = edge_touches (edge, key->selected) || edge_touches (edge, key->hover) ||
                               edge_touches (edge, key->focused);
        GdkRGBA color;

        if (highlighted != (pass == 1))
          continue;
        if (edge->state == CG_CLASS_GRAPH_NODE_REMOVED)
          color = with_alpha (&palette->fg, 0.25);
        else if (highlighted)
          color = palette->accent;
        else if (edge->state == CG_CLASS_GRAPH_NODE_ADDED)
          color = palette->success;
        else
          color = with_alpha (&palette->fg, palette->dark ? 0.5 : 0.45);
        draw_edge (self, cr, edge, &color,
                   highlighted || edge->state == CG_CLASS_GRAPH_NODE_ADDED ? line * 1.5 : line);
      }
  cairo_destroy (cr);
  return gtk_snapshot_free_to_node (g_steal_pointer (&snapshot));
}

static void
draw_edges (CgClassGraph  *self,
            GtkSnapshot   *snapshot,
            const Palette *palette,
            int            width,
            int            height)
{
  EdgesKey key;

  if (cg_class_graph_layout_get_n_edges (self->layout) == 0)
    return;
  /* Zeroed first so that the padding compares equal too. */
  memset (&key, 0, sizeof key);
  key.zoom = self->zoom;
  key.pan_x = self->pan_x;
  key.pan_y = self->pan_y;
  key.width = width;
  key.height = height;
  key.selected = find_node (self, self->selected);
  key.hover = self->hover;
  key.focused = self->focus_ring && gtk_widget_has_focus (GTK_WIDGET (self)) ? find_node (self, self->focused) : -1;
  key.fg = palette->fg;
  key.accent = palette->accent;
  key.success = palette->success;
  key.dark = palette->dark;
  if (self->edges_node == NULL || memcmp (&key, &self->edges_key, sizeof key) != 0)
    {
      g_clear_pointer (&self->edges_node, gsk_render_node_unref);
      self->edges_node = make_edges_node (self, &key, palette);
      self->edges_key = key;
    }
  if (self->edges_node != NULL)
    gtk_snapshot_append_node (snapshot, self->edges_node);
}

static void
append_rounded_color (GtkSnapshot           *snapshot,
                      const graphene_rect_t *rect,
                      double                 radius,
                      const GdkRGBA         *color)
{
  GskRoundedRect rounded;

  gsk_rounded_rect_init_from_rect (&rounded, rect, radius);
  gtk_snapshot_push_rounded_clip (snapshot, &rounded);
  gtk_snapshot_append_color (snapshot, color, rect);
  gtk_snapshot_pop (snapshot);
}

static void
append_outline (GtkSnapshot           *snapshot,
                const graphene_rect_t *rect,
                double                 radius,
                double                 width,
                const GdkRGBA         *color)
{
  GskRoundedRect rounded;
  float widths[4] = { width, width, width, width };
  GdkRGBA colors[4] = { *color, *color, *color, *color };

  gsk_rounded_rect_init_from_rect (&rounded, rect, radius);
  gtk_snapshot_append_border (snapshot, &rounded, widths, colors);
}

/* Where there is no thumbnail yet, a sketch of a page. */
static void
draw_placeholder (GtkSnapshot           *snapshot,
                  const graphene_rect_t *area,
                  double                 zoom,
                  const Palette         *palette)
{
  GdkRGBA back = with_alpha (&palette->fg, 0.05);
  GdkRGBA ink = with_alpha (&palette->fg, 0.09);
  double pad = 12 * zoom;
  double x = area->origin.x + pad;
  double w = area->size.width - 2 * pad;
  const double lines[] = { 0.9, 0.75, 0.85, 0.5 };

  append_rounded_color (snapshot, area, THUMB_RADIUS * zoom, &back);
  append_rounded_color (snapshot, &GRAPHENE_RECT_INIT (x, area->origin.y + pad, w, 12 * zoom), 3 * zoom, &ink);
  for (guint i = 0; i < G_N_ELEMENTS (lines); i++)
    {
      double y = area->origin.y + pad + (26 + 13 * i) * zoom;

      if (y + 6 * zoom > area->origin.y + area->size.height - pad / 2)
        break;
      append_rounded_color (snapshot, &GRAPHENE_RECT_INIT (x, y, w * lines[i], 6 * zoom), 3 * zoom, &ink);
    }
}

/* The thumbnail covers its area, scaled to its width and cut at the
 * bottom, since the top of a page is what tells pages apart. */
static void
draw_thumbnail (GtkSnapshot           *snapshot,
                const graphene_rect_t *area,
                double                 zoom,
                GdkTexture            *texture)
{
  GskRoundedRect rounded;
  double tw = gdk_texture_get_width (texture);
  double th = gdk_texture_get_height (texture);
  double scale = MAX (area->size.width / tw, area->size.height / th);
  double w = tw * scale, h = th * scale;

  gsk_rounded_rect_init_from_rect (&rounded, area, THUMB_RADIUS * zoom);
  gtk_snapshot_push_rounded_clip (snapshot, &rounded);
  gtk_snapshot_append_texture (snapshot, texture,
                               &GRAPHENE_RECT_INIT (area->origin.x + (area->size.width - w) / 2,
                                                    area->origin.y, w, h));
  gtk_snapshot_pop (snapshot);
}

static void
append_text (GtkSnapshot   *snapshot,
             PangoLayout   *layout,
             double         x,
             double         y,
             double         zoom,
             const GdkRGBA *color)
{
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (x, y));
  gtk_snapshot_scale (snapshot, zoom, zoom);
  gtk_snapshot_append_layout (snapshot, layout, color);
  gtk_snapshot_restore (snapshot);
}

/* A pill in a top corner of @area: the right one, or the left one when
 * @at_start. */
static void
draw_badge (GtkSnapshot           *snapshot,
            PangoLayout           *layout,
            const graphene_rect_t *area,
            gboolean               at_start,
            double                 zoom,
            const GdkRGBA         *back,
            const GdkRGBA         *ink)
{
  PangoRectangle ink_rect, logical;
  double w, h, x, y;

  pango_layout_get_pixel_extents (layout, &ink_rect, &logical);
  w = (logical.width + 12) * zoom;
  h = (logical.height + 4) * zoom;
  x = at_start ? area->origin.x + 6 * zoom : area->origin.x + area->size.width - w - 6 * zoom;
  y = area->origin.y + 6 * zoom;
  append_rounded_color (snapshot, &GRAPHENE_RECT_INIT (x, y, w, h), h / 2, back);
  append_text (snapshot, layout, x + 6 * zoom, y + 2 * zoom, zoom, ink);
}

static void
draw_node (CgClassGraph  *self,
           GtkSnapshot   *snapshot,
           guint          index,
           const Palette *palette,
           gboolean       with_text)
{
  const CgClassGraphNode *node = get_node (self, index);
  gboolean ghost = node->state == CG_CLASS_GRAPH_NODE_REMOVED;
  gboolean selected = g_strcmp0 (node->name, self->selected) == 0;
  /* The ring shows when the keyboard is in use, as libadwaita's do. */
  gboolean focused = (self->focus_ring || (gtk_widget_get_state_flags (GTK_WIDGET (self)) & GTK_STATE_FLAG_FOCUS_VISIBLE)) &&
                     gtk_widget_has_focus (GTK_WIDGET (self)) && g_strcmp0 (node->name, self->focused) == 0;
  double zoom = self->zoom;
  double radius = CARD_RADIUS * zoom;
  GskRoundedRect rounded;
  graphene_rect_t box, thumb;
  GdkTexture *texture;
  GdkRGBA outline;
  double outline_width = 1;
  double text_height = TEXT_HEIGHT;

  to_widget_rect (self, &node->box, &box);
  gsk_rounded_rect_init_from_rect (&rounded, &box, radius);

  if (!ghost)
    {
      /* libadwaita's card: a faint outline and a soft shadow below. */
      gtk_snapshot_append_outset_shadow (snapshot, &rounded,
                                         &(GdkRGBA) { 0, 0, 0, palette->dark ? 0.36 : 0.08 },
                                         0, 1 * zoom, 0, 4 * zoom);
      append_rounded_color (snapshot, &box, radius, &palette->card);
      /* Selected, the card is tinted with the accent as selected rows
       * are, so that it does not look like the focused one, whose ring
       * is its outline's colour too. */
      if (selected)
        {
          GdkRGBA tint = with_alpha (&palette->accent_bg, palette->dark ? 0.22 : 0.12);

          append_rounded_color (snapshot, &box, radius, &tint);
        }
      if (index == (guint) self->hover)
        {
          GdkRGBA hover = with_alpha (&palette->fg, 0.04);

          append_rounded_color (snapshot, &box, radius, &hover);
        }
    }
  else
    {
      GdkRGBA faint = with_alpha (&palette->fg, 0.03);

      append_rounded_color (snapshot, &box, radius, &faint);
    }

  if (with_text)
    {
      NodeText *text = get_text (self, index);
      int title_height, count_height;

      /* The name and count take the height their font needs: with large
       * text (the desktop's text scale) they take it from the thumbnail
       * instead of spilling out of the card. */
      pango_layout_get_pixel_size (text->title, NULL, &title_height);
      pango_layout_get_pixel_size (text->count, NULL, &count_height);
      text_height = MAX (TEXT_HEIGHT, text_block_height (title_height, count_height));
    }
  graphene_rect_init (&thumb,
                      box.origin.x + CARD_PADDING * zoom,
                      box.origin.y + CARD_PADDING * zoom,
                      box.size.width - 2 * CARD_PADDING * zoom,
                      box.size.height - (CARD_PADDING + text_height) * zoom);
  texture = g_hash_table_lookup (self->thumbnails, node->name);
  if (thumb.size.height > 1)
    {
      if (ghost)
        gtk_snapshot_push_opacity (snapshot, 0.4);
      if (texture != NULL && with_text)
        draw_thumbnail (snapshot, &thumb, zoom, texture);
      else
        draw_placeholder (snapshot, &thumb, zoom, palette);
      if (ghost)
        gtk_snapshot_pop (snapshot);
    }

  if (with_text)
    {
      NodeText *text = get_text (self, index);
      double x = box.origin.x + (CARD_PADDING + 2) * zoom;
      double y = thumb.origin.y + thumb.size.height + 8 * zoom;
      GdkRGBA title = with_alpha (&palette->fg, ghost ? 0.45 : 1.0);
      GdkRGBA dim = with_alpha (&palette->fg, ghost ? 0.35 : 0.6);
      int title_height;

      pango_layout_get_pixel_size (text->title, NULL, &title_height);
      append_text (snapshot, text->title, x, y, zoom, &title);
      append_text (snapshot, text->count, x, y + (title_height + 2) * zoom, zoom, &dim);
      if (text->badge != NULL)
        {
          GdkRGBA back, ink = { 1, 1, 1, 1 };

          if (node->state == CG_CLASS_GRAPH_NODE_ADDED)
            back = palette->success;
          else if (node->state == CG_CLASS_GRAPH_NODE_CHANGED)
            back = palette->warning;
          else
            {
              back = with_alpha (&palette->fg, 0.15);
              ink = palette->fg;
            }
          if (node->state != CG_CLASS_GRAPH_NODE_REMOVED && palette->dark)
            ink = (GdkRGBA) { 0, 0, 0, 0.87 };
          draw_badge (snapshot, text->badge, &thumb, FALSE, zoom, &back, &ink);
        }
      if (text->menu_badge != NULL)
        {
          GdkRGBA back = with_alpha (&palette->card, 0.9);
          GdkRGBA ink = with_alpha (&palette->fg, ghost ? 0.45 : 0.8);

          draw_badge (snapshot, text->menu_badge, &thumb, TRUE, zoom, &back, &ink);
        }
    }

  /* The outline says what the node is: selected, new, changed, or just a
   * card; removed ones get a dashed outline drawn with the edges' Cairo. */
  if (selected)
    {
      outline = palette->accent_bg;
      outline_width = MAX (1.5, 2 * zoom);
    }
  else if (node->state == CG_CLASS_GRAPH_NODE_ADDED)
    {
      outline = palette->success;
      outline_width = MAX (1.5, 2 * zoom);
    }
  else if (node->state == CG_CLASS_GRAPH_NODE_CHANGED)
    {
      outline = palette->warning;
      outline_width = MAX (1.5, 2 * zoom);
    }
  else
    outline = with_alpha (&palette->fg, palette->dark ? 0.15 : 0.12);
  if (!ghost)
    append_outline (snapshot, &box, radius, outline_width, &outline);

  if (focused)
    {
      /* libadwaita's focus ring: half-transparent accent, just outside. */
      GdkRGBA ring = with_alpha (&palette->accent, 0.5);
      graphene_rect_t outer = box;

      graphene_rect_inset (&outer, -3, -3);
      append_outline (snapshot, &outer, radius + 3, 2, &ring);
    }
}

static void
draw_ghost_outlines (CgClassGraph  *self,
                     GtkSnapshot   *snapshot,
                     const Palette *palette,
                     int            width,
                     int            height)
{
  cairo_t *cr = NULL;
  double dash[] = { 6, 4 };

  for (guint i = 0; i < n_nodes (self); i++)
    {
      const CgClassGraphNode *node = get_node (self, i);
      graphene_rect_t box;
      double r = CARD_RADIUS * self->zoom;

      if (node->state != CG_CLASS_GRAPH_NODE_REMOVED)
        continue;
      if (cr == NULL)
        {
          cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
          gdk_cairo_set_source_rgba (cr, &(GdkRGBA) { palette->fg.red, palette->fg.green, palette->fg.blue, 0.4 });
          cairo_set_line_width (cr, 1.5);
          cairo_set_dash (cr, dash, G_N_ELEMENTS (dash), 0);
        }
      to_widget_rect (self, &node->box, &box);
      cairo_new_sub_path (cr);
      cairo_arc (cr, box.origin.x + box.size.width - r, box.origin.y + r, r, -G_PI / 2, 0);
      cairo_arc (cr, box.origin.x + box.size.width - r, box.origin.y + box.size.height - r, r, 0, G_PI / 2);
      cairo_arc (cr, box.origin.x + r, box.origin.y + box.size.height - r, r, G_PI / 2, G_PI);
      cairo_arc (cr, box.origin.x + r, box.origin.y + r, r, G_PI, 3 * G_PI / 2);
      cairo_close_path (cr);
      cairo_stroke (cr);
    }
  if (cr != NULL)
    cairo_destroy (cr);
}

/* A floating card, like libadwaita's toasts, for notes over the graph. */
static void
draw_note (CgClassGraph  *self,
           GtkSnapshot   *snapshot,
           const char    *message,
           const Palette *palette,
           int            width)
{
  g_autoptr(PangoLayout) layout = make_layout (self, message, 1.0, FALSE, -1);
  GskRoundedRect rounded;
  graphene_rect_t rect;
  int w, h;

  pango_layout_set_width (layout, (width - 64) * PANGO_SCALE);
  pango_layout_set_wrap (layout, PANGO_WRAP_WORD_CHAR);
  pango_layout_set_alignment (layout, PANGO_ALIGN_CENTER);
  pango_layout_get_pixel_size (layout, &w, &h);
  graphene_rect_init (&rect, (width - (w + 32)) / 2.0, 12, w + 32, h + 16);
  gsk_rounded_rect_init_from_rect (&rounded, &rect, MIN (rect.size.height / 2, 18));
  gtk_snapshot_append_outset_shadow (snapshot, &rounded, &(GdkRGBA) { 0, 0, 0, 0.15 }, 0, 2, 0, 6);
  append_rounded_color (snapshot, &rect, rounded.corner[0].width, &palette->card);
  gtk_snapshot_save (snapshot);
  /* The layout is as wide as the widget allows and centres its lines. */
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (32, rect.origin.y + 8));
  gtk_snapshot_append_layout (snapshot, layout, &palette->fg);
  gtk_snapshot_restore (snapshot);
}

static void
draw_legend (CgClassGraph  *self,
             GtkSnapshot   *snapshot,
             const Palette *palette,
             int            height)
{
  const char *labels[] = {
    [CG_CLASS_LINK_LIST] = describe_link_type (CG_CLASS_LINK_LIST),
    [CG_CLASS_LINK_MENU] = describe_link_type (CG_CLASS_LINK_MENU),
    [CG_CLASS_LINK_SINGLETON] = describe_link_type (CG_CLASS_LINK_SINGLETON),
    [CG_CLASS_LINK_FORM] = describe_link_type (CG_CLASS_LINK_FORM),
  };
  gboolean present[G_N_ELEMENTS (labels)] = { FALSE, };
  /* While comparing versions: what the colours of the comparison mean. */
  const CgClassGraphNodeState states[] = { CG_CLASS_GRAPH_NODE_ADDED, CG_CLASS_GRAPH_NODE_CHANGED,
                                           CG_CLASS_GRAPH_NODE_REMOVED };
  gboolean state_present[G_N_ELEMENTS (states)] = { FALSE, };
  g_autoptr(PangoLayout) sample = NULL;
  guint rows = 0;
  double row_height, label_width = 0;
  graphene_rect_t rect;
  GskRoundedRect rounded;
  cairo_t *cr;
  GdkRGBA ink = with_alpha (&palette->fg, 0.75);

  for (guint i = 0; i < cg_class_graph_layout_get_n_edges (self->layout); i++)
    {
      const CgClassGraphEdge *edge = cg_class_graph_layout_get_edge (self->layout, i);

      if ((guint) edge->type < G_N_ELEMENTS (labels) && !present[edge->type])
        {
          present[edge->type] = TRUE;
          rows++;
        }
    }
  for (guint i = 0; i < cg_class_graph_layout_get_n_nodes (self->layout) + cg_class_graph_layout_get_n_edges (self->layout); i++)
    {
      guint n_nodes = cg_class_graph_layout_get_n_nodes (self->layout);
      CgClassGraphNodeState state = i < n_nodes ? get_node (self, i)->state
                                                : cg_class_graph_layout_get_edge (self->layout, i - n_nodes)->state;

      for (guint k = 0; k < G_N_ELEMENTS (states); k++)
        if (state == states[k] && !state_present[k])
          {
            state_present[k] = TRUE;
            rows++;
          }
    }
  if (rows == 0)
    return;

  sample = make_layout (self, "M", 0.85, FALSE, -1);
  {
    int h;

    pango_layout_get_pixel_size (sample, NULL, &h);
    row_height = h + 4;
  }
  for (guint t = 0; t < G_N_ELEMENTS (labels); t++)
    if (present[t])
      {
        int w;

        pango_layout_set_text (sample, labels[t], -1);
        pango_layout_get_pixel_size (sample, &w, NULL);
        label_width = MAX (label_width, w);
      }
  for (guint t = 0; t < G_N_ELEMENTS (states); t++)
    if (state_present[t])
      {
        int w;

        pango_layout_set_text (sample, describe_state (states[t]), -1);
        pango_layout_get_pixel_size (sample, &w, NULL);
        label_width = MAX (label_width, w);
      }

  graphene_rect_init (&rect, 12, height - 12 - (rows * row_height + 16), 12 + 32 + 8 + label_width + 12, rows * row_height + 16);
  gsk_rounded_rect_init_from_rect (&rounded, &rect, 8);
  gtk_snapshot_append_outset_shadow (snapshot, &rounded, &(GdkRGBA) { 0, 0, 0, palette->dark ? 0.36 : 0.08 }, 0, 1, 0, 4);
  append_rounded_color (snapshot, &rect, 8, &palette->card);
  append_outline (snapshot, &rect, 8, 1, &(GdkRGBA) { palette->fg.red, palette->fg.green, palette->fg.blue, 0.1 });

  cr = gtk_snapshot_append_cairo (snapshot, &rect);
  gdk_cairo_set_source_rgba (cr, &ink);
  cairo_set_line_width (cr, 1.5);
  cairo_set_line_cap (cr, CAIRO_LINE_CAP_ROUND);
  {
    double y = rect.origin.y + 8 + row_height / 2;

    for (guint t = 0; t < G_N_ELEMENTS (labels); t++)
      if (present[t])
        {
          set_dash (cr, t, 1.0);
          cairo_move_to (cr, rect.origin.x + 12, y);
          cairo_line_to (cr, rect.origin.x + 12 + 32, y);
          cairo_stroke (cr);
          y += row_height;
        }
    /* A comparison colours the outlines of classes and the links: a small
     * card in that colour, dashed and faint for what was removed. */
    for (guint t = 0; t < G_N_ELEMENTS (states); t++)
      if (state_present[t])
        {
          GdkRGBA color = states[t] == CG_CLASS_GRAPH_NODE_ADDED ? palette->success
                          : states[t] == CG_CLASS_GRAPH_NODE_CHANGED ? palette->warning
                          : with_alpha (&palette->fg, 0.35);

          set_dash (cr, states[t] == CG_CLASS_GRAPH_NODE_REMOVED ? CG_CLASS_LINK_MENU : CG_CLASS_LINK_LIST, 0.6);
          gdk_cairo_set_source_rgba (cr, &color);
          cairo_set_line_width (cr, 2);
          cairo_rectangle (cr, rect.origin.x + 12 + 6, y - row_height / 2 + 3, 20, row_height - 6);
          cairo_stroke (cr);
          y += row_height;
        }
  }
  cairo_destroy (cr);
  {
    double y = rect.origin.y + 8 + 2;

    for (guint t = 0; t < G_N_ELEMENTS (labels); t++)
      if (present[t])
        {
          pango_layout_set_text (sample, labels[t], -1);
          append_text (snapshot, sample, rect.origin.x + 12 + 32 + 8, y, 1.0, &palette->fg);
          y += row_height;
        }
    for (guint t = 0; t < G_N_ELEMENTS (states); t++)
      if (state_present[t])
        {
          pango_layout_set_text (sample, describe_state (states[t]), -1);
          append_text (snapshot, sample, rect.origin.x + 12 + 32 + 8, y, 1.0, &palette->fg);
          y += row_height;
        }
  }
}

static void
draw_empty (CgClassGraph  *self,
            GtkSnapshot   *snapshot,
            const Palette *palette,
            int            width,
            int            height)
{
  const char *title = self->layout_error != NULL ? _("Could Not Draw the Graph") : _("No Page Classes Yet");
  const char *body = self->layout_error != NULL ? self->layout_error
                                                : _("Classes appear here as the site is explored.");
  g_autoptr(PangoLayout) heading = make_layout (self, title, 1.6, TRUE, -1);
  g_autoptr(PangoLayout) text = make_layout (self, body, 1.0, FALSE, -1);
  GdkRGBA dim = with_alpha (&palette->fg, 0.55);
  int hw, hh, tw, th;

  pango_layout_set_width (text, MAX (width - 48, 50) * PANGO_SCALE);
  pango_layout_set_wrap (text, PANGO_WRAP_WORD_CHAR);
  pango_layout_set_alignment (text, PANGO_ALIGN_CENTER);
  pango_layout_get_pixel_size (heading, &hw, &hh);
  pango_layout_get_pixel_size (text, &tw, &th);
  append_text (snapshot, heading, (width - hw) / 2.0, (height - hh - 12 - th) / 2.0, 1.0, &dim);
  append_text (snapshot, text, 24, (height - hh - 12 - th) / 2.0 + hh + 12, 1.0, &dim);
}

static void
cg_class_graph_snapshot (GtkWidget   *widget,
                         GtkSnapshot *snapshot)
{
  CgClassGraph *self = CG_CLASS_GRAPH (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  gboolean with_text = self->zoom >= ZOOM_TEXT_MIN;
  graphene_rect_t view = GRAPHENE_RECT_INIT (0, 0, width, height);
  guint omitted_classes, omitted_links;
  Palette palette;

  get_palette (self, &palette);
  if (n_nodes (self) == 0)
    {
      draw_empty (self, snapshot, &palette, width, height);
      return;
    }

  gtk_snapshot_push_clip (snapshot, &view);
  draw_edges (self, snapshot, &palette, width, height);
  for (guint i = 0; i < n_nodes (self); i++)
    {
      graphene_rect_t box;

      to_widget_rect (self, &get_node (self, i)->box, &box);
      graphene_rect_inset (&box, -8, -8);
      if (graphene_rect_intersection (&box, &view, NULL))
        draw_node (self, snapshot, i, &palette, with_text);
    }
  draw_ghost_outlines (self, snapshot, &palette, width, height);
  gtk_snapshot_pop (snapshot);

  if (width > 320 && height > 240)
    draw_legend (self, snapshot, &palette, height);

  omitted_classes = cg_class_graph_layout_get_n_omitted_classes (self->layout);
  omitted_links = cg_class_graph_layout_get_n_omitted_links (self->layout);
  if (self->layout_error != NULL)
    draw_note (self, snapshot, self->layout_error, &palette, width);
  else if (omitted_classes > 0 || omitted_links > 0)
    {
      guint shown = n_nodes (self);
      guint total = shown + omitted_classes;
      g_autofree char *message = NULL;

      if (omitted_classes > 0)
        message = g_strdup_printf (ngettext ("Showing the %u classes nearest the start page of %u",
                                                       "Showing the %u classes nearest the start page of %u",
                                                       total),
                                   shown, total);
      else
        message = g_strdup_printf (ngettext ("%u link between classes is not shown",
                                                       "%u links between classes are not shown",
                                                       omitted_links),
                                   omitted_links);
      draw_note (self, snapshot, message, &palette, width);
    }
}

/* ------------------------------------------------------------------ */
/* Layout                                                              */

static void
update_focus_order (CgClassGraph *self)
{
  g_array_set_size (self->focus_order, 0);
  for (guint i = 0; i < n_nodes (self); i++)
    if (get_node (self, i)->state != CG_CLASS_GRAPH_NODE_REMOVED)
      g_array_append_val (self->focus_order, i);
}

static int
compare_reading_order (gconstpointer a,
                       gconstpointer b,
                       gpointer      user_data)
{
  CgClassGraph *self = user_data;
  const graphene_rect_t *x = &get_node (self, *(const guint *) a)->box;
  const graphene_rect_t *y = &get_node (self, *(const guint *) b)->box;

  /* Rows (dot's ranks, from the top), then left to right. */
  if (fabs (x->origin.y - y->origin.y) > 1)
    return x->origin.y < y->origin.y ? -1 : 1;
  if (fabs (x->origin.x - y->origin.x) > 1)
    return x->origin.x < y->origin.x ? -1 : 1;
  return 0;
}

static void
set_layout (CgClassGraph       *self,
            CgClassGraphLayout *layout)
{
  const char *anchor = NULL;
  graphene_rect_t before = GRAPHENE_RECT_INIT (0, 0, 0, 0), after;
  gboolean selection_gone;

  /* The node the user looks at stays where it is on screen, whatever dot
   * does to the rest. */
  if (self->layout != NULL && !self->follow)
    {
      const char *candidates[] = { self->selected, self->focused, self->hover >= 0 ? get_node (self, self->hover)->name : NULL };

      for (guint i = 0; i < G_N_ELEMENTS (candidates) && anchor == NULL; i++)
        if (candidates[i] != NULL && find_node (self, candidates[i]) >= 0 &&
            cg_class_graph_layout_find_node (layout, candidates[i]) >= 0)
          anchor = candidates[i];
      for (guint i = 0; i < n_nodes (self) && anchor == NULL; i++)
        if (cg_class_graph_layout_find_node (layout, get_node (self, i)->name) >= 0)
          anchor = get_node (self, i)->name;
      if (anchor != NULL)
        before = get_node (self, find_node (self, anchor))->box;
    }

  drop_texts (self);
  self->hover = -1;
  if (anchor != NULL)
    {
      /* The anchor's name belongs to the old layout. */
      int index = cg_class_graph_layout_find_node (layout, anchor);

      after = cg_class_graph_layout_get_node (layout, index)->box;
      self->pan_x += (before.origin.x - after.origin.x) * self->zoom;
      self->pan_y += (before.origin.y - after.origin.y) * self->zoom;
    }
  g_clear_pointer (&self->layout, cg_class_graph_layout_free);
  self->layout = layout;
  g_clear_pointer (&self->edges_node, gsk_render_node_unref);

  /* Live counts given by set_class_count() win over the model's. */
  for (guint i = 0; i < n_nodes (self); i++)
    {
      gpointer count;

      if (g_hash_table_lookup_extended (self->counts, get_node (self, i)->name, NULL, &count))
        cg_class_graph_layout_set_n_pages (self->layout, i, GPOINTER_TO_UINT (count));
    }

  update_focus_order (self);
  g_array_sort_with_data (self->focus_order, compare_reading_order, self);

  selection_gone = self->selected != NULL &&
                   (find_node (self, self->selected) < 0 ||
                    get_node (self, find_node (self, self->selected))->state == CG_CLASS_GRAPH_NODE_REMOVED);
  if (selection_gone)
    {
      g_clear_pointer (&self->selected, g_free);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_CLASS]);
    }
  if (self->focused != NULL &&
      (find_node (self, self->focused) < 0 ||
       get_node (self, find_node (self, self->focused))->state == CG_CLASS_GRAPH_NODE_REMOVED))
    g_clear_pointer (&self->focused, g_free);

  if (self->follow)
    fit (self);
  update_description (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* One layout computes at a time: a model that grows fast (during an
 * exploration) would otherwise fill GLib's shared pool of worker threads
 * with layouts waiting for Graphviz. Requests made meanwhile are merged
 * into one, made from the model as it is when the running one ends. */
typedef struct {
  CgClassGraphLayout *layout;
  guint               serial;
} LayoutJob;

static void
layout_job_free (LayoutJob *job)
{
  g_clear_pointer (&job->layout, cg_class_graph_layout_free);
  g_free (job);
}

static void
layout_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  LayoutJob *job = task_data;
  GError *error = NULL;

  if (cg_class_graph_layout_compute (job->layout, &error))
    g_task_return_pointer (task, g_steal_pointer (&job->layout), (GDestroyNotify) cg_class_graph_layout_free);
  else
    g_task_return_error (task, error);
}

static void start_layout (CgClassGraph *self);

static void
layout_done_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  CgClassGraph *self = CG_CLASS_GRAPH (object);
  LayoutJob *job = g_task_get_task_data (G_TASK (result));
  g_autoptr(GError) error = NULL;
  g_autoptr(CgClassGraphLayout) layout = g_task_propagate_pointer (G_TASK (result), &error);

  /* Cancelled: the widget is gone. */
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  g_clear_object (&self->layout_cancellable);

  /* A newer request came while this one ran: its result is out of date. */
  if (job->serial != self->layout_serial)
    {
      if (self->layout_queued)
        {
          self->layout_queued = FALSE;
          start_layout (self);
        }
      return;
    }

  g_clear_pointer (&self->layout_error, g_free);
  if (layout == NULL)
    {
      g_warning ("%s", error->message);
      self->layout_error = g_strdup (error->message);
      update_description (self);
      gtk_widget_queue_draw (GTK_WIDGET (self));
      return;
    }
  set_layout (self, g_steal_pointer (&layout));
  /* The nodes' texts are shaped now rather than in the next snapshot:
   * shaping a dozen cards' texts is several milliseconds, which here is a
   * main-loop turn of its own instead of part of the frame that also
   * draws the new layout (issue 8). */
  for (guint i = 0; i < n_nodes (self); i++)
    get_text (self, i);
}

/* The height the name and page count of a card take, in pixels at zoom
 * 1 (which are graph points): the draw code gives them that much of the
 * card, and the thumbnail the rest. */
static double
measure_card_text_height (CgClassGraph *self)
{
  g_autoptr(PangoLayout) title = make_layout (self, "Ag", 1.0, TRUE, -1);
  g_autoptr(PangoLayout) count = make_layout (self, "0", 0.85, FALSE, -1);
  int title_height, count_height;

  pango_layout_get_pixel_size (title, NULL, &title_height);
  pango_layout_get_pixel_size (count, NULL, &count_height);
  return text_block_height (title_height, count_height);
}

/* Sizes each card of @layout to the text drawn in it, in the widget's
 * font: as wide as its name and page count need, from the default width
 * up to CARD_WIDTH_MAX_FACTOR times it, and taller by what the text needs
 * beyond TEXT_HEIGHT, so that the thumbnail keeps its room. With the
 * desktop's large text (1.5 times), cards of the default size ellipsized
 * names that fit at the normal size, and the text took the thumbnail's
 * room. */
static void
size_cards (CgClassGraph       *self,
            CgClassGraphLayout *layout)
{
  g_autoptr(PangoLayout) title = make_layout (self, "", 1.0, TRUE, -1);
  g_autoptr(PangoLayout) count = make_layout (self, "", 0.85, FALSE, -1);
  double text_height = measure_card_text_height (self);
  double height = CG_CLASS_GRAPH_CARD_HEIGHT + MAX (0, text_height - TEXT_HEIGHT);

  self->card_text_height = text_height;
  for (guint i = 0; i < cg_class_graph_layout_get_n_nodes (layout); i++)
    {
      const CgClassGraphNode *node = cg_class_graph_layout_get_node (layout, i);
      gpointer live_count;
      g_autofree char *pages = NULL;
      int title_width, count_width;
      double width;

      /* The live count, as set_layout() will give the node, or the
       * model's. */
      if (!g_hash_table_lookup_extended (self->counts, node->name, NULL, &live_count))
        live_count = GUINT_TO_POINTER (node->n_pages);
      pages = describe_pages (GPOINTER_TO_UINT (live_count));
      pango_layout_set_text (title, node->label, -1);
      pango_layout_set_text (count, pages, -1);
      pango_layout_get_pixel_size (title, &title_width, NULL);
      pango_layout_get_pixel_size (count, &count_width, NULL);
      /* The text's room in a card, as get_text() gives it. */
      width = MAX (title_width, count_width) + CARD_TEXT_INSET;
      width = CLAMP (width, CG_CLASS_GRAPH_CARD_WIDTH, CARD_WIDTH_MAX_FACTOR * CG_CLASS_GRAPH_CARD_WIDTH);
      cg_class_graph_layout_set_card_size (layout, i, ceil (width), ceil (height));
    }
}

static void
start_layout (CgClassGraph *self)
{
  g_autoptr(CgClassGraphLayout) layout = NULL;
  g_autoptr(GTask) task = NULL;
  LayoutJob *job;

  self->layout_serial++;
  if (self->layout_cancellable != NULL)
    {
      self->layout_queued = TRUE;
      /* Nothing to lay out needs no wait (see below). */
      if (self->model != NULL && cg_site_model_get_classes (self->model)->len > 0)
        return;
    }
  self->layout_queued = FALSE;

  layout = cg_class_graph_layout_new (self->model, self->previous);
  if (!self->show_all_links)
    cg_class_graph_layout_bundle_menus (layout);
  size_cards (self, layout);
  /* Nothing to lay out: no thread, no wait. */
  if (cg_class_graph_layout_get_n_nodes (layout) == 0)
    {
      g_clear_pointer (&self->layout_error, g_free);
      cg_class_graph_layout_compute (layout, NULL);
      set_layout (self, g_steal_pointer (&layout));
      return;
    }

  job = g_new0 (LayoutJob, 1);
  job->layout = g_steal_pointer (&layout);
  job->serial = self->layout_serial;
  self->running_serial = job->serial;
  self->layout_cancellable = g_cancellable_new ();
  task = g_task_new (self, self->layout_cancellable, layout_done_cb, NULL);
  g_task_set_source_tag (task, start_layout);
  g_task_set_task_data (task, job, (GDestroyNotify) layout_job_free);
  g_task_run_in_thread (task, layout_thread);
}

/* ------------------------------------------------------------------ */
/* Accessibility                                                       */

/* GTK 4.8 has no accessible objects for parts of a custom-drawn widget,
 * so the nodes cannot be exposed one by one: the widget's description
 * names the focused node, its page count and its links instead (and
 * summarises the graph when no node has the focus). */
static void
append_links (GString      *out,
              CgClassGraph *self,
              guint         index,
              gboolean      outgoing)
{
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *list = NULL;

  for (guint i = 0; i < cg_class_graph_layout_get_n_edges (self->layout); i++)
    {
      const CgClassGraphEdge *edge = cg_class_graph_layout_get_edge (self->layout, i);
      const char *state = describe_link_state (edge->state);
      g_autofree char *type = NULL;

      if ((outgoing ? edge->source : edge->target) != index)
        continue;
      /* A comparison's new and removed links are named as such: their
       * colour alone says nothing to a screen reader. */
      type = state != NULL ? g_strjoin (_(", "), describe_link_type (edge->type), state, NULL)
                           : g_strdup (describe_link_type (edge->type));
      if (edge->source == edge->target)
        {
          if (outgoing)
            /* Translators: a class's link to itself, to its next pages;
             * %s is the link type (list, menu…). */
            g_ptr_array_add (items, g_strdup_printf (_("itself (%s, pagination)"), type));
        }
      else
        g_ptr_array_add (items, g_strdup_printf ("%s (%s)",
                                                 get_node (self, outgoing ? edge->target : edge->source)->label,
                                                 type));
    }
  if (items->len == 0)
    return;
  g_ptr_array_add (items, NULL);
  /* Translators: the separator of a list of classes. */
  list = g_strjoinv (_(", "), (char **) items->pdata);
  g_string_append_c (out, ' ');
  /* Translators: %s is a list of classes with their link types. */
  g_string_append_printf (out, outgoing ? _("Links to %s.") : _("Linked from %s."), list);
}

static void
update_description (CgClassGraph *self)
{
  g_autoptr(GString) out = g_string_new (NULL);
  int focused = find_node (self, self->focused);

  if (focused >= 0)
    {
      const CgClassGraphNode *node = get_node (self, focused);
      g_autofree char *pages = describe_pages (node->n_pages);
      const char *state = describe_state (node->state);

      g_string_append_printf (out, "%s: %s.", node->label, pages);
      if (state != NULL)
        g_string_append_printf (out, " %s.", state);
      if (node->n_menu_classes > 0)
        {
          g_string_append_c (out, ' ');
          g_string_append_printf (out,
                                  ngettext ("In a site-wide menu on %u class.", "In a site-wide menu on %u classes.",
                                            node->n_menu_classes),
                                  node->n_menu_classes);
        }
      append_links (out, self, focused, TRUE);
      append_links (out, self, focused, FALSE);
    }
  else if (self->layout_error != NULL)
    g_string_append (out, self->layout_error);
  else if (n_nodes (self) == 0)
    g_string_append (out, _("No page classes yet."));
  else
    {
      guint n = self->focus_order->len;
      guint links = cg_class_graph_layout_get_n_edges (self->layout);
      guint bundled = cg_class_graph_layout_get_n_bundled_links (self->layout);

      g_string_append_printf (out, ngettext ("%u page class", "%u page classes", n), n);
      g_string_append (out, _(", "));
      g_string_append_printf (out, ngettext ("%u link", "%u links", links), links);
      if (bundled > 0)
        {
          g_string_append_c (out, ' ');
          /* Translators: after a count of links drawn; the others are
           * site-wide menus drawn once and links drawn together. */
          g_string_append_printf (out, ngettext ("(%u more link drawn with others)",
                                                 "(%u more links drawn with others)", bundled),
                                  bundled);
        }
      g_string_append (out, _(". Press Tab to go through the classes."));
    }
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, out->str,
                                  -1);
}

/* ------------------------------------------------------------------ */
/* Input                                                               */

static void
set_focused (CgClassGraph *self,
             int           index)
{
  const char *name = index >= 0 ? get_node (self, index)->name : NULL;

  if (g_strcmp0 (name, self->focused) == 0)
    return;
  g_free (self->focused);
  self->focused = g_strdup (name);
  if (index >= 0)
    scroll_to_node (self, index);
  update_description (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
activate_node (CgClassGraph *self,
               int           index)
{
  g_autofree char *name = NULL;

  if (index < 0 || get_node (self, index)->state == CG_CLASS_GRAPH_NODE_REMOVED)
    return;
  /* The name is copied: a handler may give the widget a new model. */
  name = g_strdup (get_node (self, index)->name);
  set_focused (self, index);
  cg_class_graph_set_selected_class (self, name);
  g_signal_emit (self, signals[CLASS_ACTIVATED], 0, name);
}

static gboolean
cg_class_graph_focus (GtkWidget        *widget,
                      GtkDirectionType  direction)
{
  CgClassGraph *self = CG_CLASS_GRAPH (widget);
  GArray *order = self->focus_order;
  int current = -1;

  if (order->len == 0)
    return GTK_WIDGET_CLASS (cg_class_graph_parent_class)->focus (widget, direction);

  for (guint i = 0; i < order->len; i++)
    if (g_strcmp0 (get_node (self, g_array_index (order, guint, i))->name, self->focused) == 0)
      current = i;

  /* is_focus, not has_focus: has_focus is FALSE while another window is
   * active, and Tab would then enter the graph again and again. */
  if (!gtk_widget_is_focus (widget))
    {
      /* Entering the graph: the first or last node, by the way in. */
      if (direction == GTK_DIR_TAB_BACKWARD)
        current = order->len - 1;
      else if (direction == GTK_DIR_TAB_FORWARD || current < 0)
        current = 0;
      gtk_widget_grab_focus (widget);
      self->focus_ring = TRUE;
      set_focused (self, g_array_index (order, guint, current));
      return TRUE;
    }

  switch (direction)
    {
    case GTK_DIR_TAB_FORWARD:
      if (current + 1 >= (int) order->len)
        return FALSE;
      current++;
      break;
    case GTK_DIR_TAB_BACKWARD:
      if (current <= 0)
        return FALSE;
      current--;
      break;
    case GTK_DIR_UP:
    case GTK_DIR_DOWN:
    case GTK_DIR_LEFT:
    case GTK_DIR_RIGHT:
    default:
      return FALSE;
    }
  /* GTK 4.8 shows focus rings only when a key moves the focus from one
   * widget to another (its window hides them again when the key comes up
   * on the same widget); here the focus moves inside one widget, so the
   * graph keeps its own ring on until the pointer is used. */
  self->focus_ring = TRUE;
  set_focused (self, g_array_index (order, guint, current));
  return TRUE;
}

static void
activate_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  CgClassGraph *self = CG_CLASS_GRAPH (widget);

  activate_node (self, find_node (self, self->focused));
}

static void
zoom_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  CgClassGraph *self = CG_CLASS_GRAPH (widget);

  if (g_str_equal (action_name, "class-graph.zoom-in"))
    cg_class_graph_zoom_in (self);
  else if (g_str_equal (action_name, "class-graph.zoom-out"))
    cg_class_graph_zoom_out (self);
  else if (g_str_equal (action_name, "class-graph.zoom-fit"))
    cg_class_graph_zoom_fit (self);
  else
    cg_class_graph_zoom_reset (self);
}

static void
pan_action (GtkWidget  *widget,
            const char *action_name,
            GVariant   *parameter)
{
  CgClassGraph *self = CG_CLASS_GRAPH (widget);
  double dx, dy;

  g_variant_get (parameter, "(dd)", &dx, &dy);
  self->pan_x += dx;
  self->pan_y += dy;
  self->follow = FALSE;
  gtk_widget_queue_draw (widget);
}

static void
click_pressed_cb (GtkGestureClick *gesture,
                  int              n_press,
                  double           x,
                  double           y,
                  CgClassGraph    *self)
{
  self->focus_ring = FALSE;
  gtk_widget_grab_focus (GTK_WIDGET (self));
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
click_released_cb (GtkGestureClick *gesture,
                   int              n_press,
                   double           x,
                   double           y,
                   CgClassGraph    *self)
{
  if (self->dragging || n_press != 1)
    return;
  activate_node (self, pick_index (self, x, y));
}

static void
drag_begin_cb (GtkGestureDrag *gesture,
               double          x,
               double          y,
               CgClassGraph   *self)
{
  self->drag_pan_x = self->pan_x;
  self->drag_pan_y = self->pan_y;
  self->dragging = FALSE;
}

static void
drag_update_cb (GtkGestureDrag *gesture,
                double          dx,
                double          dy,
                CgClassGraph   *self)
{
  if (!self->dragging && hypot (dx, dy) < DRAG_THRESHOLD)
    return;
  if (!self->dragging)
    {
      self->dragging = TRUE;
      gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
      gtk_widget_set_cursor_from_name (GTK_WIDGET (self), "grabbing");
    }
  self->pan_x = self->drag_pan_x + dx;
  self->pan_y = self->drag_pan_y + dy;
  self->follow = FALSE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
update_hover (CgClassGraph *self,
              double        x,
              double        y)
{
  int hover = pick_index (self, x, y);

  self->pointer_x = x;
  self->pointer_y = y;
  if (!self->dragging)
    gtk_widget_set_cursor_from_name (GTK_WIDGET (self), hover >= 0 ? "pointer" : NULL);
  if (hover != self->hover)
    {
      self->hover = hover;
      gtk_widget_queue_draw (GTK_WIDGET (self));
    }
}

static void
drag_end_cb (GtkGestureDrag *gesture,
             double          dx,
             double          dy,
             CgClassGraph   *self)
{
  /* The click that ends a drag is not a click on a node: the flag is
   * cleared after the click gesture has seen the release. */
  if (self->dragging)
    {
      double x, y;

      gtk_gesture_drag_get_start_point (gesture, &x, &y);
      self->dragging = FALSE;
      update_hover (self, x + dx, y + dy);
    }
}

static void
motion_cb (GtkEventControllerMotion *motion,
           double                    x,
           double                    y,
           CgClassGraph             *self)
{
  update_hover (self, x, y);
}

static void
leave_cb (GtkEventControllerMotion *motion,
          CgClassGraph             *self)
{
  if (self->hover >= 0)
    {
      self->hover = -1;
      gtk_widget_queue_draw (GTK_WIDGET (self));
    }
}

static gboolean
scroll_cb (GtkEventControllerScroll *scroll,
           double                    dx,
           double                    dy,
           CgClassGraph             *self)
{
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (scroll));
  gboolean wheel = gtk_event_controller_scroll_get_unit (scroll) == GDK_SCROLL_UNIT_WHEEL;

  if (state & GDK_CONTROL_MASK)
    {
      /* Zoom around the pointer, so that what is under it stays there. */
      double factor = wheel ? pow (ZOOM_STEP, -dy) : exp (-dy * 0.01);

      self->follow = FALSE;
      set_zoom_at (self, self->zoom * factor, self->pointer_x, self->pointer_y);
      return TRUE;
    }
  if (wheel)
    {
      dx *= 48;
      dy *= 48;
    }
  /* Shift turns a plain wheel's vertical scrolling sideways. */
  if ((state & GDK_SHIFT_MASK) && dx == 0)
    {
      dx = dy;
      dy = 0;
    }
  self->pan_x -= dx;
  self->pan_y -= dy;
  self->follow = FALSE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  return TRUE;
}

static void
zoom_begin_cb (GtkGesture       *gesture,
               GdkEventSequence *sequence,
               CgClassGraph     *self)
{
  double x, y;

  self->gesture_zoom = self->zoom;
  if (!gtk_gesture_is_active (gesture) || !gtk_gesture_get_bounding_box_center (gesture, &x, &y))
    {
      x = gtk_widget_get_width (GTK_WIDGET (self)) / 2.0;
      y = gtk_widget_get_height (GTK_WIDGET (self)) / 2.0;
    }
  self->gesture_centre_x = x;
  self->gesture_centre_y = y;
  self->gesture_x = (x - self->pan_x) / self->zoom;
  self->gesture_y = (y - self->pan_y) / self->zoom;
}

static void
zoom_scale_changed_cb (GtkGestureZoom *gesture,
                       double          scale,
                       CgClassGraph   *self)
{
  double x, y, zoom = CLAMP (self->gesture_zoom * scale, ZOOM_MIN, ZOOM_MAX);

  if (!gtk_gesture_is_active (GTK_GESTURE (gesture)) ||
      !gtk_gesture_get_bounding_box_center (GTK_GESTURE (gesture), &x, &y))
    {
      x = self->gesture_centre_x;
      y = self->gesture_centre_y;
    }
  /* The graph point that was under the fingers follows them. */
  self->pan_x = x - self->gesture_x * zoom;
  self->pan_y = y - self->gesture_y * zoom;
  self->follow = FALSE;
  if (zoom != self->zoom)
    {
      self->zoom = zoom;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ZOOM]);
    }
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static gboolean
cg_class_graph_query_tooltip (GtkWidget  *widget,
                              int         x,
                              int         y,
                              gboolean    keyboard,
                              GtkTooltip *tooltip)
{
  CgClassGraph *self = CG_CLASS_GRAPH (widget);
  int index = keyboard ? find_node (self, self->focused) : pick_index (self, x, y);
  const CgClassGraphNode *node;
  g_autofree char *pages = NULL;
  g_autofree char *markup = NULL;
  graphene_rect_t box;

  if (index < 0)
    return FALSE;
  node = get_node (self, index);
  pages = describe_pages (node->n_pages);
  if (node->url_pattern != NULL)
    markup = g_markup_printf_escaped ("<b>%s</b>\n%s · %s\n<tt>%s</tt>", node->label, node->name, pages, node->url_pattern);
  else
    markup = g_markup_printf_escaped ("<b>%s</b>\n%s · %s", node->label, node->name, pages);
  if (node->n_menu_classes > 0)
    {
      g_autofree char *menu = g_strdup_printf (ngettext ("In a site-wide menu on %u class, drawn once",
                                                         "In a site-wide menu on %u classes, drawn once",
                                                         node->n_menu_classes),
                                               node->n_menu_classes);
      g_autofree char *escaped = g_markup_escape_text (menu, -1);
      char *longer = g_strconcat (markup, "\n", escaped, NULL);

      g_free (markup);
      markup = longer;
    }
  gtk_tooltip_set_markup (tooltip, markup);
  to_widget_rect (self, &node->box, &box);
  gtk_tooltip_set_tip_area (tooltip, &(GdkRectangle) { box.origin.x, box.origin.y, box.size.width, box.size.height });
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* GtkWidget                                                           */

static void
cg_class_graph_measure (GtkWidget      *widget,
                        GtkOrientation  orientation,
                        int             for_size,
                        int            *minimum,
                        int            *natural,
                        int            *minimum_baseline,
                        int            *natural_baseline)
{
  *minimum = orientation == GTK_ORIENTATION_HORIZONTAL ? 160 : 120;
  *natural = orientation == GTK_ORIENTATION_HORIZONTAL ? 640 : 420;
}

static void
cg_class_graph_size_allocate (GtkWidget *widget,
                              int        width,
                              int        height,
                              int        baseline)
{
  CgClassGraph *self = CG_CLASS_GRAPH (widget);

  if (self->follow)
    fit (self);
  else if (self->last_width > 0)
    {
      /* Keep what was in the middle in the middle. */
      self->pan_x += (width - self->last_width) / 2.0;
      self->pan_y += (height - self->last_height) / 2.0;
    }
  self->last_width = width;
  self->last_height = height;
}

static void
cg_class_graph_state_flags_changed (GtkWidget     *widget,
                                    GtkStateFlags  previous)
{
  GtkStateFlags changed = previous ^ gtk_widget_get_state_flags (widget);

  if (changed & (GTK_STATE_FLAG_FOCUSED | GTK_STATE_FLAG_FOCUS_VISIBLE))
    gtk_widget_queue_draw (widget);
  GTK_WIDGET_CLASS (cg_class_graph_parent_class)->state_flags_changed (widget, previous);
}

/* The cards were sized for the text of the font then (size_cards()): when
 * the text size changes (the desktop's large text turned on or off), the
 * graph is laid out again with cards of the new size. */
static void
relayout_for_text_size (CgClassGraph *self)
{
  if (self->model == NULL || self->card_text_height <= 0)
    return;
  if (fabs (measure_card_text_height (self) - self->card_text_height) < 0.5)
    return;
  start_layout (self);
}

static void
cg_class_graph_css_changed (GtkWidget         *widget,
                            GtkCssStyleChange *change)
{
  /* First, so that the widget's Pango context has the new font. */
  GTK_WIDGET_CLASS (cg_class_graph_parent_class)->css_changed (widget, change);
  /* The font may have changed; the colours are looked up at each draw. */
  drop_texts (CG_CLASS_GRAPH (widget));
  relayout_for_text_size (CG_CLASS_GRAPH (widget));
}

static void
cg_class_graph_system_setting_changed (GtkWidget        *widget,
                                       GtkSystemSetting  setting)
{
  /* First, so that the widget's Pango context has the new resolution. */
  GTK_WIDGET_CLASS (cg_class_graph_parent_class)->system_setting_changed (widget, setting);
  drop_texts (CG_CLASS_GRAPH (widget));
  relayout_for_text_size (CG_CLASS_GRAPH (widget));
  gtk_widget_queue_draw (widget);
}

static void
cg_class_graph_dispose (GObject *object)
{
  CgClassGraph *self = CG_CLASS_GRAPH (object);

  if (self->layout_cancellable != NULL)
    {
      g_cancellable_cancel (self->layout_cancellable);
      g_clear_object (&self->layout_cancellable);
    }
  g_clear_object (&self->model);
  g_clear_object (&self->previous);
  G_OBJECT_CLASS (cg_class_graph_parent_class)->dispose (object);
}

static void
cg_class_graph_finalize (GObject *object)
{
  CgClassGraph *self = CG_CLASS_GRAPH (object);

  g_clear_pointer (&self->layout, cg_class_graph_layout_free);
  g_clear_pointer (&self->edges_node, gsk_render_node_unref);
  g_clear_pointer (&self->layout_error, g_free);
  g_hash_table_unref (self->counts);
  g_hash_table_unref (self->thumbnails);
  g_array_unref (self->texts);
  g_array_unref (self->focus_order);
  g_free (self->selected);
  g_free (self->focused);
  G_OBJECT_CLASS (cg_class_graph_parent_class)->finalize (object);
}

static void
cg_class_graph_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  CgClassGraph *self = CG_CLASS_GRAPH (object);

  switch (prop_id)
    {
    case PROP_MODEL:
      g_value_set_object (value, self->model);
      break;
    case PROP_SELECTED_CLASS:
      g_value_set_string (value, self->selected);
      break;
    case PROP_ZOOM:
      g_value_set_double (value, self->zoom);
      break;
    case PROP_SHOW_ALL_LINKS:
      g_value_set_boolean (value, self->show_all_links);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cg_class_graph_set_property (GObject      *object,
                             guint         prop_id,
                             const GValue *value,
                             GParamSpec   *pspec)
{
  CgClassGraph *self = CG_CLASS_GRAPH (object);

  switch (prop_id)
    {
    case PROP_MODEL:
      cg_class_graph_set_model (self, g_value_get_object (value));
      break;
    case PROP_SELECTED_CLASS:
      cg_class_graph_set_selected_class (self, g_value_get_string (value));
      break;
    case PROP_SHOW_ALL_LINKS:
      cg_class_graph_set_show_all_links (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
add_binding (GtkWidgetClass *widget_class,
             guint           keyval,
             const char     *action)
{
  gtk_widget_class_add_binding_action (widget_class, keyval, 0, action, NULL);
  gtk_widget_class_add_binding_action (widget_class, keyval, GDK_CONTROL_MASK, action, NULL);
}

static void
add_pan_binding (GtkWidgetClass *widget_class,
                 guint           keyval,
                 guint           kp_keyval,
                 double          dx,
                 double          dy)
{
  gtk_widget_class_add_binding_action (widget_class, keyval, 0, "class-graph.pan", "(dd)", dx, dy);
  gtk_widget_class_add_binding_action (widget_class, kp_keyval, 0, "class-graph.pan", "(dd)", dx, dy);
}

static void
cg_class_graph_class_init (CgClassGraphClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = cg_class_graph_dispose;
  object_class->finalize = cg_class_graph_finalize;
  object_class->get_property = cg_class_graph_get_property;
  object_class->set_property = cg_class_graph_set_property;

  widget_class->snapshot = cg_class_graph_snapshot;
  widget_class->measure = cg_class_graph_measure;
  widget_class->size_allocate = cg_class_graph_size_allocate;
  widget_class->focus = cg_class_graph_focus;
  widget_class->query_tooltip = cg_class_graph_query_tooltip;
  widget_class->css_changed = cg_class_graph_css_changed;
  widget_class->state_flags_changed = cg_class_graph_state_flags_changed;
  widget_class->system_setting_changed = cg_class_graph_system_setting_changed;

  properties[PROP_MODEL] =
    g_param_spec_object ("model", NULL, NULL, CG_TYPE_SITE_MODEL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SELECTED_CLASS] =
    g_param_spec_string ("selected-class", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_ZOOM] =
    g_param_spec_double ("zoom", NULL, NULL, ZOOM_MIN, ZOOM_MAX, 1.0,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_SHOW_ALL_LINKS] =
    g_param_spec_boolean ("show-all-links", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * CgClassGraph::class-activated:
   * @class_name: the class's name in the model
   *
   * A node was clicked, or activated with Enter or Space.
   */
  signals[CLASS_ACTIVATED] =
    g_signal_new ("class-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);

  gtk_widget_class_install_action (widget_class, "class-graph.activate", NULL, activate_action);
  gtk_widget_class_install_action (widget_class, "class-graph.zoom-in", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "class-graph.zoom-out", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "class-graph.zoom-fit", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "class-graph.zoom-reset", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "class-graph.pan", "(dd)", pan_action);

  add_binding (widget_class, GDK_KEY_Return, "class-graph.activate");
  add_binding (widget_class, GDK_KEY_KP_Enter, "class-graph.activate");
  add_binding (widget_class, GDK_KEY_ISO_Enter, "class-graph.activate");
  add_binding (widget_class, GDK_KEY_space, "class-graph.activate");
  add_binding (widget_class, GDK_KEY_KP_Space, "class-graph.activate");
  add_binding (widget_class, GDK_KEY_plus, "class-graph.zoom-in");
  add_binding (widget_class, GDK_KEY_equal, "class-graph.zoom-in");
  add_binding (widget_class, GDK_KEY_KP_Add, "class-graph.zoom-in");
  add_binding (widget_class, GDK_KEY_minus, "class-graph.zoom-out");
  add_binding (widget_class, GDK_KEY_KP_Subtract, "class-graph.zoom-out");
  add_binding (widget_class, GDK_KEY_0, "class-graph.zoom-fit");
  add_binding (widget_class, GDK_KEY_KP_0, "class-graph.zoom-fit");
  add_binding (widget_class, GDK_KEY_1, "class-graph.zoom-reset");
  add_binding (widget_class, GDK_KEY_KP_1, "class-graph.zoom-reset");
  add_pan_binding (widget_class, GDK_KEY_Left, GDK_KEY_KP_Left, PAN_STEP, 0);
  add_pan_binding (widget_class, GDK_KEY_Right, GDK_KEY_KP_Right, -PAN_STEP, 0);
  add_pan_binding (widget_class, GDK_KEY_Up, GDK_KEY_KP_Up, 0, PAN_STEP);
  add_pan_binding (widget_class, GDK_KEY_Down, GDK_KEY_KP_Down, 0, -PAN_STEP);

  /* An image, since what it shows is a picture of the site; its parts are
   * described (see update_description()). */
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
  gtk_widget_class_set_css_name (widget_class, "classgraph");
}

static void
cg_class_graph_init (CgClassGraph *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  GtkGesture *click = gtk_gesture_click_new ();
  GtkGesture *drag = gtk_gesture_drag_new ();
  GtkGesture *zoom = gtk_gesture_zoom_new ();
  GtkEventController *motion = gtk_event_controller_motion_new ();
  GtkEventController *scroll = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);

  self->zoom = 1.0;
  self->follow = TRUE;
  self->hover = -1;
  self->counts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->thumbnails = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
  self->texts = g_array_new (FALSE, TRUE, sizeof (NodeText));
  g_array_set_clear_func (self->texts, node_text_clear);
  self->focus_order = g_array_new (FALSE, FALSE, sizeof (guint));

  gtk_widget_set_focusable (widget, TRUE);
  gtk_widget_set_overflow (widget, GTK_OVERFLOW_HIDDEN);
  gtk_widget_set_has_tooltip (widget, TRUE);

  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (click), GDK_BUTTON_PRIMARY);
  g_signal_connect (click, "pressed", G_CALLBACK (click_pressed_cb), self);
  g_signal_connect (click, "released", G_CALLBACK (click_released_cb), self);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (click));

  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (drag), GDK_BUTTON_PRIMARY);
  g_signal_connect (drag, "drag-begin", G_CALLBACK (drag_begin_cb), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (drag_update_cb), self);
  g_signal_connect (drag, "drag-end", G_CALLBACK (drag_end_cb), self);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (drag));

  g_signal_connect (zoom, "begin", G_CALLBACK (zoom_begin_cb), self);
  g_signal_connect (zoom, "scale-changed", G_CALLBACK (zoom_scale_changed_cb), self);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (zoom));

  g_signal_connect (motion, "enter", G_CALLBACK (motion_cb), self);
  g_signal_connect (motion, "motion", G_CALLBACK (motion_cb), self);
  g_signal_connect (motion, "leave", G_CALLBACK (leave_cb), self);
  gtk_widget_add_controller (widget, motion);

  g_signal_connect (scroll, "scroll", G_CALLBACK (scroll_cb), self);
  gtk_widget_add_controller (widget, scroll);

  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Page-class graph"),
                                  -1);
  update_description (self);
}

/* ------------------------------------------------------------------ */
/* Public API                                                          */

GtkWidget *
cg_class_graph_new (void)
{
  return g_object_new (CG_TYPE_CLASS_GRAPH, NULL);
}

void
cg_class_graph_set_model (CgClassGraph *self,
                          CgSiteModel  *model)
{
  g_return_if_fail (CG_IS_CLASS_GRAPH (self));
  g_return_if_fail (model == NULL || CG_IS_SITE_MODEL (model));

  /* The same model again is a grown model: it is laid out again too. */
  if (self->model != model)
    {
      g_set_object (&self->model, model);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MODEL]);
    }
  start_layout (self);
}

CgSiteModel *
cg_class_graph_get_model (CgClassGraph *self)
{
  g_return_val_if_fail (CG_IS_CLASS_GRAPH (self), NULL);
  return self->model;
}

void
cg_class_graph_set_show_all_links (CgClassGraph *self,
                                   gboolean      show_all_links)
{
  g_return_if_fail (CG_IS_CLASS_GRAPH (self));

  show_all_links = !!show_all_links;
  if (self->show_all_links == show_all_links)
    return;
  self->show_all_links = show_all_links;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SHOW_ALL_LINKS]);
  start_layout (self);
}

gboolean
cg_class_graph_get_show_all_links (CgClassGraph *self)
{
  g_return_val_if_fail (CG_IS_CLASS_GRAPH (self), FALSE);
  return self->show_all_links;
}

void
cg_class_graph_set_diff (CgClassGraph *self,
                         CgSiteModel  *previous)
{
  g_return_if_fail (CG_IS_CLASS_GRAPH (self));
  g_return_if_fail (previous == NULL || CG_IS_SITE_MODEL (previous));

  g_set_object (&self->previous, previous);
  start_layout (self);
}

CgSiteModel *
cg_class_graph_get_diff (CgClassGraph *self)
{
  g_return_val_if_fail (CG_IS_CLASS_GRAPH (self), NULL);
  return self->previous;
}

void
cg_class_graph_set_class_count (CgClassGraph *self,
                                const char   *class_name,
                                guint         n_pages)
{
  int index;

  g_return_if_fail (CG_IS_CLASS_GRAPH (self));
  g_return_if_fail (class_name != NULL);

  g_hash_table_insert (self->counts, g_strdup (class_name), GUINT_TO_POINTER (n_pages));
  index = find_node (self, class_name);
  if (index < 0 || get_node (self, index)->n_pages == n_pages)
    return;
  cg_class_graph_layout_set_n_pages (self->layout, index, n_pages);
  if ((guint) index < self->texts->len)
    node_text_clear (&g_array_index (self->texts, NodeText, index));
  if (g_strcmp0 (class_name, self->focused) == 0)
    update_description (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
cg_class_graph_set_thumbnail (CgClassGraph *self,
                              const char   *class_name,
                              GdkTexture   *texture)
{
  g_return_if_fail (CG_IS_CLASS_GRAPH (self));
  g_return_if_fail (class_name != NULL);
  g_return_if_fail (texture == NULL || GDK_IS_TEXTURE (texture));

  if (texture != NULL)
    g_hash_table_insert (self->thumbnails, g_strdup (class_name), g_object_ref (texture));
  else
    g_hash_table_remove (self->thumbnails, class_name);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

GdkTexture *
cg_class_graph_get_thumbnail (CgClassGraph *self,
                              const char   *class_name)
{
  g_return_val_if_fail (CG_IS_CLASS_GRAPH (self), NULL);
  g_return_val_if_fail (class_name != NULL, NULL);

  return g_hash_table_lookup (self->thumbnails, class_name);
}

const char *
cg_class_graph_get_selected_class (CgClassGraph *self)
{
  g_return_val_if_fail (CG_IS_CLASS_GRAPH (self), NULL);
  return self->selected;
}

void
cg_class_graph_set_selected_class (CgClassGraph *self,
                                   const char   *class_name)
{
  g_return_if_fail (CG_IS_CLASS_GRAPH (self));

  if (g_strcmp0 (class_name, self->selected) == 0)
    return;
  g_free (self->selected);
  self->selected = g_strdup (class_name);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_CLASS]);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

const char *
cg_class_graph_get_focus_class (CgClassGraph *self)
{
  g_return_val_if_fail (CG_IS_CLASS_GRAPH (self), NULL);
  return self->focused;
}

static void
zoom_at_centre (CgClassGraph *self,
                double        zoom)
{
  self->follow = FALSE;
  set_zoom_at (self, zoom,
               gtk_widget_get_width (GTK_WIDGET (self)) / 2.0,
               gtk_widget_get_height (GTK_WIDGET (self)) / 2.0);
}

void
cg_class_graph_zoom_in (CgClassGraph *self)
{
  g_return_if_fail (CG_IS_CLASS_GRAPH (self));
  zoom_at_centre (self, self->zoom * ZOOM_STEP);
}

void
cg_class_graph_zoom_out (CgClassGraph *self)
{
  g_return_if_fail (CG_IS_CLASS_GRAPH (self));
  zoom_at_centre (self, self->zoom / ZOOM_STEP);
}

void
cg_class_graph_zoom_reset (CgClassGraph *self)
{
  g_return_if_fail (CG_IS_CLASS_GRAPH (self));
  zoom_at_centre (self, 1.0);
}

void
cg_class_graph_zoom_fit (CgClassGraph *self)
{
  g_return_if_fail (CG_IS_CLASS_GRAPH (self));
  self->follow = TRUE;
  fit (self);
}

double
cg_class_graph_get_zoom (CgClassGraph *self)
{
  g_return_val_if_fail (CG_IS_CLASS_GRAPH (self), 1.0);
  return self->zoom;
}

const char *
cg_class_graph_pick (CgClassGraph *self,
                     double        x,
                     double        y)
{
  int index;

  g_return_val_if_fail (CG_IS_CLASS_GRAPH (self), NULL);
  index = pick_index (self, x, y);
  return index >= 0 ? get_node (self, index)->name : NULL;
}

gboolean
cg_class_graph_get_node_bounds (CgClassGraph    *self,
                                const char      *class_name,
                                graphene_rect_t *out_bounds)
{
  int index;

  g_return_val_if_fail (CG_IS_CLASS_GRAPH (self), FALSE);
  g_return_val_if_fail (out_bounds != NULL, FALSE);

  index = find_node (self, class_name);
  if (index < 0)
    return FALSE;
  to_widget_rect (self, &get_node (self, index)->box, out_bounds);
  return TRUE;
}

CgClassGraphNodeState
cg_class_graph_get_node_state (CgClassGraph *self,
                               const char   *class_name)
{
  int index;

  g_return_val_if_fail (CG_IS_CLASS_GRAPH (self), CG_CLASS_GRAPH_NODE_ABSENT);
  index = find_node (self, class_name);
  return index >= 0 ? get_node (self, index)->state : CG_CLASS_GRAPH_NODE_ABSENT;
}

const CgClassGraphLayout *
cg_class_graph_get_layout (CgClassGraph *self)
{
  g_return_val_if_fail (CG_IS_CLASS_GRAPH (self), NULL);
  return self->layout;
}

gboolean
cg_class_graph_is_layout_pending (CgClassGraph *self)
{
  g_return_val_if_fail (CG_IS_CLASS_GRAPH (self), FALSE);
  return self->layout_cancellable != NULL && (self->layout_queued || self->running_serial == self->layout_serial);
}
