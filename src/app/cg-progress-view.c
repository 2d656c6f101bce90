/* cg-progress-view.c: the live progress of a crawl and of the work after it.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "cg-progress-view.h"

struct _CgProgressView
{
  AdwBin          parent_instance;

  CgCrawler      *crawler;
  CgHarvester    *harvester;
  CgSiteModel    *model;
  GObject        *coverage_source;
  GHashTable     *class_rows;    /* class name → AdwActionRow (borrowed) */
  guint           n_events;
  /* The subtitle given, which a pause stands in for while it lasts. */
  char           *subtitle;
  gboolean        paused;

  GtkLabel       *title_label;
  GtkLabel       *subtitle_label;
  GtkWidget      *pause_button;
  GtkWidget      *resume_button;
  GtkWidget      *stop_button;
  GtkWidget      *task_box;
  GtkLabel       *task_label;
  GtkProgressBar *task_bar;
  GtkFlowBox     *counter_box;
  CgCoveragePlot *plot;
  GtkWidget      *classes_group;
  GtkListBox     *classes_list;
  GtkListBox     *events_list;
  GtkLabel       *counter_values[CG_PROGRESS_N_COUNTERS];
};

G_DEFINE_FINAL_TYPE (CgProgressView, cg_progress_view, ADW_TYPE_BIN)

static const char *
counter_caption (CgProgressCounter counter)
{
  switch (counter)
    {
    case CG_PROGRESS_COUNTER_QUEUED:
      return _("Queued");
    case CG_PROGRESS_COUNTER_FETCHED:
      return _("Fetched");
    case CG_PROGRESS_COUNTER_FAILED:
      return _("Failed");
    case CG_PROGRESS_COUNTER_BYTES:
      return _("Downloaded");
    case CG_PROGRESS_COUNTER_RATE:
      return _("Pages per Second");
    case CG_PROGRESS_N_COUNTERS:
    default:
      g_return_val_if_reached (NULL);
    }
}

static void
set_counter (CgProgressView    *self,
             CgProgressCounter  counter,
             const char        *text)
{
  gtk_label_set_label (self->counter_values[counter], text);
}

static void
reset_counters (CgProgressView *self)
{
  for (guint i = 0; i < CG_PROGRESS_N_COUNTERS; i++)
    set_counter (self, i, "—");
}

void
cg_progress_view_update_stats (CgProgressView     *self,
                               const CgCrawlStats *stats)
{
  g_autofree char *queued = NULL;
  g_autofree char *fetched = NULL;
  g_autofree char *failed = NULL;
  g_autofree char *bytes = NULL;
  g_autofree char *rate = NULL;

  g_return_if_fail (CG_IS_PROGRESS_VIEW (self));
  g_return_if_fail (stats != NULL);

  /* The ' flag groups thousands as the locale does. */
  queued = g_strdup_printf ("%'" G_GUINT64_FORMAT, stats->queued);
  fetched = g_strdup_printf ("%'" G_GUINT64_FORMAT, stats->done);
  failed = g_strdup_printf ("%'" G_GUINT64_FORMAT, stats->failed);
  bytes = g_format_size (stats->bytes);
  /* A paused crawl fetches nothing: its rate of a moment ago would say
   * otherwise. */
  rate = stats->paused ? g_strdup ("—") : g_strdup_printf ("%.1f", stats->documents_per_second);

  set_counter (self, CG_PROGRESS_COUNTER_QUEUED, queued);
  set_counter (self, CG_PROGRESS_COUNTER_FETCHED, fetched);
  set_counter (self, CG_PROGRESS_COUNTER_FAILED, failed);
  set_counter (self, CG_PROGRESS_COUNTER_BYTES, bytes);
  set_counter (self, CG_PROGRESS_COUNTER_RATE, rate);

  cg_progress_view_set_paused (self, stats->paused);
}

const char *
cg_progress_view_get_counter_text (CgProgressView    *self,
                                   CgProgressCounter  counter)
{
  g_return_val_if_fail (CG_IS_PROGRESS_VIEW (self), NULL);
  g_return_val_if_fail (counter < CG_PROGRESS_N_COUNTERS, NULL);
  return gtk_label_get_label (self->counter_values[counter]);
}

static const char *
event_icon (CgCrawlEventKind kind)
{
  switch (kind)
    {
    case CG_CRAWL_EVENT_ROBOTS:
      return "action-unavailable-symbolic";
    case CG_CRAWL_EVENT_FETCH_FAILED:
      return "dialog-warning-symbolic";
    case CG_CRAWL_EVENT_LIMIT:
      return "dialog-information-symbolic";
    case CG_CRAWL_EVENT_REPAIRED:
      return "emblem-system-symbolic";
    case CG_CRAWL_EVENT_WARNING:
      return "dialog-warning-symbolic";
    case CG_CRAWL_EVENT_ERROR:
    default:
      return "dialog-error-symbolic";
    }
}

static const char *
event_kind_name (CgCrawlEventKind kind)
{
  switch (kind)
    {
    case CG_CRAWL_EVENT_ROBOTS:
      return _("Kept out by robots.txt");
    case CG_CRAWL_EVENT_FETCH_FAILED:
      return _("Fetch failed");
    case CG_CRAWL_EVENT_LIMIT:
      return _("Limit reached");
    case CG_CRAWL_EVENT_REPAIRED:
      return _("Repaired");
    case CG_CRAWL_EVENT_WARNING:
      return _("Warning");
    case CG_CRAWL_EVENT_ERROR:
    default:
      return _("Error");
    }
}

/* The icons' tooltips are given when asked for rather than set: setting a
 * tooltip on a shown widget makes GTK ask the display server where the
 * pointer is, a round trip for every event that streams in (issue 8). */
static gboolean
icon_query_tooltip_cb (GtkWidget  *icon,
                       int         x,
                       int         y,
                       gboolean    keyboard_mode,
                       GtkTooltip *tooltip,
                       gpointer    user_data)
{
  gtk_tooltip_set_text (tooltip, event_kind_name (GPOINTER_TO_INT (g_object_get_data (G_OBJECT (icon), "event-kind"))));
  return TRUE;
}

void
cg_progress_view_add_event (CgProgressView   *self,
                            CgCrawlEventKind  kind,
                            const char       *url,
                            const char       *message)
{
  GtkWidget *row;
  GtkWidget *icon;

  g_return_if_fail (CG_IS_PROGRESS_VIEW (self));

  row = adw_action_row_new ();
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row),
                                 message != NULL && *message != '\0' ? message : event_kind_name (kind));
  if (url != NULL)
    adw_action_row_set_subtitle (ADW_ACTION_ROW (row), url);
  adw_action_row_set_subtitle_lines (ADW_ACTION_ROW (row), 1);
  icon = gtk_image_new_from_icon_name (event_icon (kind));
  gtk_accessible_update_property (GTK_ACCESSIBLE (icon), GTK_ACCESSIBLE_PROPERTY_LABEL, event_kind_name (kind), -1);
  g_object_set_data (G_OBJECT (icon), "event-kind", GINT_TO_POINTER (kind));
  gtk_widget_set_has_tooltip (icon, TRUE);
  g_signal_connect (icon, "query-tooltip", G_CALLBACK (icon_query_tooltip_cb), NULL);
  adw_action_row_add_prefix (ADW_ACTION_ROW (row), icon);
  if (kind == CG_CRAWL_EVENT_ERROR)
    gtk_widget_add_css_class (row, "error");
  gtk_list_box_prepend (self->events_list, row);

  /* A long crawl can have thousands of failures; the oldest go. */
  if (++self->n_events > CG_PROGRESS_VIEW_MAX_EVENTS)
    {
      GtkListBoxRow *last = gtk_list_box_get_row_at_index (self->events_list, CG_PROGRESS_VIEW_MAX_EVENTS);

      gtk_list_box_remove (self->events_list, GTK_WIDGET (last));
      self->n_events--;
    }
}

guint
cg_progress_view_get_n_events (CgProgressView *self)
{
  g_return_val_if_fail (CG_IS_PROGRESS_VIEW (self), 0);
  return self->n_events;
}

const char *
cg_progress_view_get_event_text (CgProgressView *self,
                                 guint           index)
{
  GtkListBoxRow *row;

  g_return_val_if_fail (CG_IS_PROGRESS_VIEW (self), NULL);

  if (index >= self->n_events)
    return NULL;
  row = gtk_list_box_get_row_at_index (self->events_list, (int) index);
  return adw_preferences_row_get_title (ADW_PREFERENCES_ROW (row));
}

static char *
describe_class_counts (guint pages,
                       guint records)
{
  g_autofree char *pages_text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u page", "%u pages", pages), pages);
  g_autofree char *records_text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u record", "%u records", records), records);

  /* Translators: a class's page count and record count, such as "12 pages · 240 records". */
  return g_strdup_printf (_("%s · %s"), pages_text, records_text);
}

void
cg_progress_view_update_class (CgProgressView *self,
                               const char     *class_name,
                               guint           pages,
                               guint           records)
{
  GtkWidget *row;
  g_autofree char *subtitle = NULL;

  g_return_if_fail (CG_IS_PROGRESS_VIEW (self));
  g_return_if_fail (class_name != NULL);

  row = g_hash_table_lookup (self->class_rows, class_name);
  if (row == NULL)
    {
      CgPageClass *klass = self->model != NULL ? cg_site_model_get_class (self->model, class_name) : NULL;

      if (g_hash_table_size (self->class_rows) >= CG_PROGRESS_VIEW_MAX_CLASSES)
        return;
      row = adw_action_row_new ();
      adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row),
                                     klass != NULL && klass->label != NULL && *klass->label != '\0'
                                     ? klass->label : class_name);
      gtk_list_box_append (self->classes_list, row);
      g_hash_table_insert (self->class_rows, g_strdup (class_name), row);
      gtk_widget_set_visible (self->classes_group, TRUE);
    }
  g_object_set_data (G_OBJECT (row), "pages", GUINT_TO_POINTER (pages));
  g_object_set_data (G_OBJECT (row), "records", GUINT_TO_POINTER (records));
  subtitle = describe_class_counts (pages, records);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
  gtk_list_box_invalidate_sort (self->classes_list);
}

guint
cg_progress_view_get_n_classes (CgProgressView *self)
{
  g_return_val_if_fail (CG_IS_PROGRESS_VIEW (self), 0);
  return g_hash_table_size (self->class_rows);
}

gboolean
cg_progress_view_get_class_counts (CgProgressView *self,
                                   const char     *class_name,
                                   guint          *out_pages,
                                   guint          *out_records)
{
  GObject *row;

  g_return_val_if_fail (CG_IS_PROGRESS_VIEW (self), FALSE);

  row = g_hash_table_lookup (self->class_rows, class_name);
  if (row == NULL)
    return FALSE;
  if (out_pages != NULL)
    *out_pages = GPOINTER_TO_UINT (g_object_get_data (row, "pages"));
  if (out_records != NULL)
    *out_records = GPOINTER_TO_UINT (g_object_get_data (row, "records"));
  return TRUE;
}

/* Classes with the most pages first, so the busy ones stay in view. */
static int
compare_class_rows (GtkListBoxRow *a,
                    GtkListBoxRow *b,
                    gpointer       user_data)
{
  guint pages_a = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (a), "pages"));
  guint pages_b = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (b), "pages"));

  if (pages_a != pages_b)
    return pages_a > pages_b ? -1 : 1;
  return g_strcmp0 (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (a)),
                    adw_preferences_row_get_title (ADW_PREFERENCES_ROW (b)));
}

void
cg_progress_view_add_coverage (CgProgressView *self,
                               guint64         requests,
                               guint64         distinct_bigrams)
{
  g_return_if_fail (CG_IS_PROGRESS_VIEW (self));
  cg_coverage_plot_add_point (self->plot, requests, distinct_bigrams);
}

CgCoveragePlot *
cg_progress_view_get_plot (CgProgressView *self)
{
  g_return_val_if_fail (CG_IS_PROGRESS_VIEW (self), NULL);
  return self->plot;
}

static void
show_subtitle (CgProgressView *self)
{
  const char *shown = self->paused ? _("Paused: nothing is fetched until it resumes") : self->subtitle;

  gtk_label_set_label (self->subtitle_label, shown != NULL ? shown : "");
  gtk_widget_set_visible (GTK_WIDGET (self->subtitle_label), shown != NULL && *shown != '\0');
}

void
cg_progress_view_set_title (CgProgressView *self,
                            const char     *title,
                            const char     *subtitle)
{
  g_return_if_fail (CG_IS_PROGRESS_VIEW (self));

  gtk_label_set_label (self->title_label, title != NULL ? title : "");
  g_free (self->subtitle);
  self->subtitle = g_strdup (subtitle);
  show_subtitle (self);
}

void
cg_progress_view_focus_controls (CgProgressView *self)
{
  g_return_if_fail (CG_IS_PROGRESS_VIEW (self));

  if (!gtk_widget_grab_focus (gtk_widget_get_visible (self->resume_button) ? self->resume_button
                                                                           : self->pause_button))
    gtk_widget_grab_focus (self->stop_button);
}

void
cg_progress_view_set_paused (CgProgressView *self,
                             gboolean        paused)
{
  GtkWidget *shown = paused ? self->resume_button : self->pause_button;
  GtkWidget *hidden = paused ? self->pause_button : self->resume_button;
  gboolean had_focus;

  g_return_if_fail (CG_IS_PROGRESS_VIEW (self));

  /* The button that takes the place of the focused one takes the focus
   * too, instead of the keyboard being sent back to the window's start. */
  had_focus = gtk_widget_has_focus (hidden);
  gtk_widget_set_visible (shown, TRUE);
  if (had_focus)
    gtk_widget_grab_focus (shown);
  gtk_widget_set_visible (hidden, FALSE);
  if (self->paused != paused)
    {
      self->paused = paused;
      show_subtitle (self);
      if (paused)
        set_counter (self, CG_PROGRESS_COUNTER_RATE, "—");
    }
}

void
cg_progress_view_set_task_progress (CgProgressView *self,
                                    const char     *text,
                                    double          fraction)
{
  g_return_if_fail (CG_IS_PROGRESS_VIEW (self));

  gtk_widget_set_visible (self->task_box, text != NULL);
  if (text == NULL)
    return;
  gtk_label_set_label (self->task_label, text);
  if (fraction < 0)
    gtk_progress_bar_pulse (self->task_bar);
  else
    gtk_progress_bar_set_fraction (self->task_bar, CLAMP (fraction, 0.0, 1.0));
}

void
cg_progress_view_set_model (CgProgressView *self,
                            CgSiteModel    *model)
{
  g_return_if_fail (CG_IS_PROGRESS_VIEW (self));
  g_set_object (&self->model, model);
}

void
cg_progress_view_reset (CgProgressView *self)
{
  GtkWidget *child;

  g_return_if_fail (CG_IS_PROGRESS_VIEW (self));

  reset_counters (self);
  cg_coverage_plot_clear (self->plot);
  g_hash_table_remove_all (self->class_rows);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->classes_list))) != NULL)
    gtk_list_box_remove (self->classes_list, child);
  gtk_widget_set_visible (self->classes_group, FALSE);
  while ((child = GTK_WIDGET (gtk_list_box_get_row_at_index (self->events_list, 0))) != NULL)
    gtk_list_box_remove (self->events_list, child);
  self->n_events = 0;
  cg_progress_view_set_task_progress (self, NULL, 0);
  cg_progress_view_set_paused (self, FALSE);
}

static void
crawler_progress_cb (CgCrawler          *crawler,
                     const CgCrawlStats *stats,
                     CgProgressView     *self)
{
  cg_progress_view_update_stats (self, stats);
}

static void
crawler_event_cb (CgCrawler      *crawler,
                  int             kind,
                  const char     *url,
                  const char     *message,
                  CgProgressView *self)
{
  cg_progress_view_add_event (self, kind, url, message);
}

static void
class_progress_cb (GObject        *source,
                   const char     *class_name,
                   guint           pages,
                   guint           records,
                   CgProgressView *self)
{
  cg_progress_view_update_class (self, class_name, pages, records);
}

static void
coverage_cb (GObject        *source,
             guint64         requests,
             guint64         distinct_bigrams,
             CgProgressView *self)
{
  cg_progress_view_add_coverage (self, requests, distinct_bigrams);
}

void
cg_progress_view_set_crawler (CgProgressView *self,
                              CgCrawler      *crawler)
{
  g_return_if_fail (CG_IS_PROGRESS_VIEW (self));
  g_return_if_fail (crawler == NULL || CG_IS_CRAWLER (crawler));

  if (self->crawler == crawler)
    return;
  if (self->crawler != NULL)
    g_signal_handlers_disconnect_by_data (self->crawler, self);
  g_set_object (&self->crawler, crawler);
  /* Nothing runs: no rate. */
  if (crawler == NULL)
    set_counter (self, CG_PROGRESS_COUNTER_RATE, "—");
  if (crawler != NULL)
    {
      CgCrawlStats stats;

      g_signal_connect_object (crawler, "progress", G_CALLBACK (crawler_progress_cb), self, 0);
      g_signal_connect_object (crawler, "event", G_CALLBACK (crawler_event_cb), self, 0);
      cg_crawler_get_stats (crawler, &stats);
      cg_progress_view_update_stats (self, &stats);
    }
}

void
cg_progress_view_follow_coverage (CgProgressView *self,
                                  GObject        *source)
{
  g_return_if_fail (CG_IS_PROGRESS_VIEW (self));

  if (self->coverage_source == source)
    return;
  if (self->coverage_source != NULL)
    g_signal_handlers_disconnect_by_func (self->coverage_source, coverage_cb, self);
  g_set_object (&self->coverage_source, source);
  /* The signal is looked up rather than assumed, so that sources that do
   * not report coverage (yet) can be given too. */
  if (source != NULL && g_signal_lookup ("coverage", G_OBJECT_TYPE (source)) != 0)
    g_signal_connect_object (source, "coverage", G_CALLBACK (coverage_cb), self, 0);
}

void
cg_progress_view_set_harvester (CgProgressView *self,
                                CgHarvester    *harvester)
{
  g_return_if_fail (CG_IS_PROGRESS_VIEW (self));
  g_return_if_fail (harvester == NULL || CG_IS_HARVESTER (harvester));

  if (self->harvester == harvester)
    return;
  if (self->harvester != NULL)
    g_signal_handlers_disconnect_by_func (self->harvester, class_progress_cb, self);
  g_set_object (&self->harvester, harvester);
  cg_progress_view_follow_coverage (self, G_OBJECT (harvester));
  cg_progress_view_set_crawler (self, harvester != NULL ? cg_harvester_get_crawler (harvester) : NULL);
  if (harvester != NULL)
    {
      g_auto(GStrv) classes = cg_harvester_list_classes (harvester);

      g_signal_connect_object (harvester, "class-progress", G_CALLBACK (class_progress_cb), self, 0);
      /* A view set on a harvest under way starts from what it found. */
      for (guint i = 0; classes != NULL && classes[i] != NULL; i++)
        {
          guint pages = 0, records = 0;

          cg_harvester_get_class_counts (harvester, classes[i], &pages, &records);
          cg_progress_view_update_class (self, classes[i], pages, records);
        }
    }
}

static void
add_counter_cells (CgProgressView *self)
{
  for (guint i = 0; i < CG_PROGRESS_N_COUNTERS; i++)
    {
      GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
      GtkWidget *value = gtk_label_new ("—");
      GtkWidget *caption = gtk_label_new (counter_caption (i));

      gtk_widget_add_css_class (value, "title-2");
      gtk_widget_add_css_class (value, "numeric");
      gtk_label_set_wrap (GTK_LABEL (caption), TRUE);
      gtk_label_set_justify (GTK_LABEL (caption), GTK_JUSTIFY_CENTER);
      gtk_widget_add_css_class (caption, "caption");
      gtk_widget_add_css_class (caption, "dim-label");
      gtk_box_append (GTK_BOX (box), value);
      gtk_box_append (GTK_BOX (box), caption);
      /* Screen readers read the number with what it counts: the cell is a
       * group named by its caption, and the number keeps its own text as
       * its name. */
      gtk_accessible_update_property (GTK_ACCESSIBLE (box),
                                      GTK_ACCESSIBLE_PROPERTY_LABEL, counter_caption (i),
                                      -1);
      gtk_flow_box_append (self->counter_box, box);
      /* The cells are read, not chosen: the keyboard passes them by. */
      gtk_widget_set_focusable (gtk_widget_get_parent (box), FALSE);
      self->counter_values[i] = GTK_LABEL (value);
    }
}

static void
cg_progress_view_dispose (GObject *object)
{
  CgProgressView *self = CG_PROGRESS_VIEW (object);

  cg_progress_view_follow_coverage (self, NULL);
  if (self->harvester != NULL)
    g_signal_handlers_disconnect_by_data (self->harvester, self);
  g_clear_object (&self->harvester);
  cg_progress_view_set_crawler (self, NULL);
  g_clear_pointer (&self->class_rows, g_hash_table_unref);
  g_clear_object (&self->model);
  g_clear_pointer (&self->subtitle, g_free);

  G_OBJECT_CLASS (cg_progress_view_parent_class)->dispose (object);
}

static void
cg_progress_view_class_init (CgProgressViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = cg_progress_view_dispose;

  g_type_ensure (CG_TYPE_COVERAGE_PLOT);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/cartograph/Cartograph/cg-progress-view.ui");
  gtk_widget_class_bind_template_child (widget_class, CgProgressView, title_label);
  gtk_widget_class_bind_template_child (widget_class, CgProgressView, subtitle_label);
  gtk_widget_class_bind_template_child (widget_class, CgProgressView, pause_button);
  gtk_widget_class_bind_template_child (widget_class, CgProgressView, resume_button);
  gtk_widget_class_bind_template_child (widget_class, CgProgressView, stop_button);
  gtk_widget_class_bind_template_child (widget_class, CgProgressView, task_box);
  gtk_widget_class_bind_template_child (widget_class, CgProgressView, task_label);
  gtk_widget_class_bind_template_child (widget_class, CgProgressView, task_bar);
  gtk_widget_class_bind_template_child (widget_class, CgProgressView, counter_box);
  gtk_widget_class_bind_template_child (widget_class, CgProgressView, plot);
  gtk_widget_class_bind_template_child (widget_class, CgProgressView, classes_group);
  gtk_widget_class_bind_template_child (widget_class, CgProgressView, classes_list);
  gtk_widget_class_bind_template_child (widget_class, CgProgressView, events_list);
}

static void
cg_progress_view_init (CgProgressView *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->class_rows = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  add_counter_cells (self);
  gtk_list_box_set_sort_func (self->classes_list, compare_class_rows, NULL, NULL);
}

GtkWidget *
cg_progress_view_new (void)
{
  return g_object_new (CG_TYPE_PROGRESS_VIEW, NULL);
}
