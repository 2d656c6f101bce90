/* cg-project-page.c: the view of one open project.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <inttypes.h>
#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "cg-class-sampler.h"
#include "cg-crawl-lock.h"
#include "cg-json.h"
#include "cg-project-page.h"
#include "cg-record-store.h"

/* Versions offered for comparison in the dropdown; older ones are rarely
 * wanted and each costs a load from the store when chosen. */
#define MAX_COMPARED_VERSIONS 50

struct _CgProjectPage
{
  AdwBin           parent_instance;

  CgProject       *project;
  CgPipeline      *pipeline;
  CgSiteModel     *model;
  /* While an exploration runs: its model as it grows, which the graph
   * shows instead of the saved one. */
  CgSiteModel     *growing;
  char            *site_url;
  GArray          *compare_versions;   /* int, parallel to the dropdown after its first item */
  gboolean         filling_versions;
  gboolean         show_model_when_saved;
  /* Decoding the shown model's thumbnails, in a thread. */
  GCancellable    *thumbnails_cancellable;
  /* The classes list's rebuild after a new model is shown: waiting for
   * the next frame (tick), then for the end of that frame (idle). */
  guint            classes_tick_id;
  guint            classes_idle_id;

  /* The settings of the last exploration started here, for Explore Again. */
  CgCrawlConfig   *explore_config;
  CgLearnerParams  explore_params;
  gboolean         explore_javascript;

  /* That the store could not be read was said, and nothing read since. */
  gboolean         read_error_reported;

  /* Whether the shown model's records were extracted in full: a stop or
   * a quit during its rendering or extraction leaves them half done, and
   * Extract Records finishes them. */
  gboolean         model_extracted;

  /* The project's newest harvest when it can go on where it stopped (0:
   * none), and the Resume button on its row in the crawls list. */
  gint64           resumable_harvest;
  GtkWidget       *resume_harvest_button;
  GtkWidget       *resume_harvest_row;
  /* The open class was opened from the graph: Alt+Left goes back there. */
  gboolean         class_opened_from_graph;

  AdwViewStack        *view_stack;
  GtkStack            *model_stack;
  AdwStatusPage       *model_working_page;
  GtkSpinner          *model_spinner;
  GtkLabel            *model_summary_label;
  GtkDropDown         *version_dropdown;
  GtkWidget           *extract_records_button;
  CgClassGraph        *graph;
  AdwLeaflet          *classes_leaflet;
  GtkStack            *classes_stack;
  GtkLabel            *classes_heading;
  GtkListBox          *classes_list;
  GtkLabel            *class_title_label;
  CgClassView         *class_view;
  AdwComboRow         *strategy_row;
  AdwEntryRow         *like_row;
  CgProgressView      *progress_view;
  AdwPreferencesGroup *site_group;
  AdwActionRow        *site_row;
  AdwActionRow        *name_row;
  AdwActionRow        *folder_row;
  GtkListBox          *crawl_list;
};

G_DEFINE_FINAL_TYPE (CgProjectPage, cg_project_page, ADW_TYPE_BIN)

/* The order of the strategy combo row's items. */
static const CgHarvestStrategy strategies[] = {
  CG_HARVEST_STRATEGY_CLASSES,
  CG_HARVEST_STRATEGY_PATTERNS,
  CG_HARVEST_STRATEGY_LIKE,
};

static void
toast (CgProjectPage *self,
       const char    *message)
{
  /* The window shows it; a page outside a window (in tests) logs it. */
  if (!gtk_widget_activate_action (GTK_WIDGET (self), "win.toast", "s", message))
    g_message ("%s", message);
}

/* For what stops work the user asked for, or what cannot be read: a toast
 * is cut to one line and gone in seconds, while the window's dialog shows
 * the whole explanation until it is read. */
static void
report_error (CgProjectPage *self,
              const char    *heading,
              const char    *body)
{
  if (!gtk_widget_activate_action (GTK_WIDGET (self), "win.error", "(ss)", heading, body))
    g_message ("%s: %s", heading, body);
}

/* The views keep what they showed when the store cannot be read, so that a
 * damaged project does not look empty; this says why they did not change.
 * Each view reads the store, so once is enough until a read works again. */
static void
report_read_error (CgProjectPage *self,
                   const GError  *error)
{
  g_autofree char *body = NULL;

  if (self->read_error_reported)
    return;
  self->read_error_reported = TRUE;
  /* Translators: %s says what went wrong, in the database's words. */
  body = g_strdup_printf (_("The project’s database cannot be read: %s"), error->message);
  report_error (self, _("Cannot Read the Project"), body);
}

static void
update_actions (CgProjectPage *self)
{
  gboolean busy = self->pipeline != NULL && cg_pipeline_is_busy (self->pipeline);
  gboolean paused = self->pipeline != NULL && cg_pipeline_is_paused (self->pipeline);
  gboolean can_pause = self->pipeline != NULL && cg_pipeline_can_pause (self->pipeline);
  gboolean has_graph = self->model != NULL || self->growing != NULL;
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  g_autoptr(GtkWidget) focus = NULL;

  if (root != NULL && gtk_root_get_focus (root) != NULL)
    focus = g_object_ref (gtk_root_get_focus (root));

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "project.explore", self->project != NULL && !busy);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "project.harvest", self->model != NULL && !busy);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "project.extract-records", self->model != NULL && !busy);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "project.resume-harvest",
                                 self->project != NULL && self->resumable_harvest > 0 && !busy);
  gtk_widget_set_visible (self->extract_records_button, self->model != NULL && !self->model_extracted && !busy);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "crawl.pause", can_pause && !paused);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "crawl.resume", can_pause && paused);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "crawl.stop", busy);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "graph.zoom-in", has_graph);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "graph.zoom-out", has_graph);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "graph.zoom-fit", has_graph);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "graph.zoom-reset", has_graph);
  /* Alt+Left goes back to the start page unless a class is open. */
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "classes.back",
                                 g_strcmp0 (adw_leaflet_get_visible_child_name (self->classes_leaflet), "class") == 0);
  cg_progress_view_set_paused (self->progress_view, paused);
  /* The button that started the work (Start Harvest, Extract Records…)
   * is disabled or hidden while it runs: the keyboard goes on to the
   * controls of what runs, not back to the window's first widget. */
  if (busy && focus != NULL && gtk_widget_is_ancestor (focus, GTK_WIDGET (self)) &&
      (!gtk_widget_is_sensitive (focus) || !gtk_widget_get_visible (focus)))
    cg_progress_view_focus_controls (self->progress_view);
}

/* ------------------------------------------------------------------ */
/* The crawls of the project                                           */

static const char *
describe_kind (const char *kind)
{
  if (g_strcmp0 (kind, "explore") == 0)
    return _("Exploration");
  if (g_strcmp0 (kind, "harvest") == 0)
    return _("Harvest");
  return _("Crawl");
}

static const char *
describe_state (const char *state)
{
  if (g_strcmp0 (state, "created") == 0)
    return _("Not started");
  if (g_strcmp0 (state, "running") == 0)
    return _("Running");
  /* Recorded as running, but no process runs it: one was killed. */
  if (g_strcmp0 (state, "interrupted") == 0)
    return _("Interrupted");
  if (g_strcmp0 (state, "paused") == 0)
    return _("Paused");
  if (g_strcmp0 (state, "finished") == 0)
    return _("Finished");
  if (g_strcmp0 (state, "stopped") == 0)
    return _("Stopped");
  if (g_strcmp0 (state, "limit") == 0)
    return _("Stopped at its limit");
  if (g_strcmp0 (state, "failed") == 0)
    return _("Failed");
  return state;
}

static void
clear_list (GtkListBox *list)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (list))) != NULL)
    gtk_list_box_remove (list, child);
}

/* The crawls list shows the newest ones; a project harvested daily for
 * years would otherwise fill the page. */
#define MAX_LISTED_CRAWLS 100

/* Sets the title and subtitle of the @index-th row of @list, adding the
 * row if the list is shorter. Rows are reused rather than made afresh:
 * each new row costs the main loop the shaping of its text and a layout
 * of the list, which while pages stream in delays every frame. */
static void
set_plain_row (GtkListBox *list,
               guint       index,
               const char *title,
               const char *subtitle)
{
  GtkListBoxRow *row = gtk_list_box_get_row_at_index (list, (int) index);

  if (row == NULL)
    {
      row = GTK_LIST_BOX_ROW (adw_action_row_new ());
      adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
      gtk_list_box_append (list, GTK_WIDGET (row));
    }
  if (g_strcmp0 (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (row)), title) != 0)
    adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  if (g_strcmp0 (adw_action_row_get_subtitle (ADW_ACTION_ROW (row)), subtitle) != 0)
    adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
}

/* Removes the rows of @list from the @n_kept-th on. */
static void
truncate_list (GtkListBox *list,
               guint       n_kept)
{
  GtkListBoxRow *row;

  while ((row = gtk_list_box_get_row_at_index (list, (int) n_kept)) != NULL)
    gtk_list_box_remove (list, GTK_WIDGET (row));
}

/* Whether a harvest in @state can go on where it stopped: it was stopped,
 * its process was killed, or it failed (a server that was down may be up
 * again). A harvest that reached its limit would stop again at once. */
static gboolean
harvest_can_resume (const char *state)
{
  return g_strcmp0 (state, "stopped") == 0 || g_strcmp0 (state, "interrupted") == 0 ||
         g_strcmp0 (state, "failed") == 0;
}

/* Puts the Resume button on the @index-th row of the crawls list, or
 * takes it off the list when @index is -1. */
static void
place_resume_harvest_button (CgProjectPage *self,
                             int            index)
{
  GtkWidget *button = self->resume_harvest_button;
  GtkWidget *current = gtk_widget_get_ancestor (button, ADW_TYPE_ACTION_ROW);
  GtkWidget *wanted = index >= 0 ? GTK_WIDGET (gtk_list_box_get_row_at_index (self->crawl_list, index)) : NULL;

  /* In the Harvest group too, where the user looks after stopping one. */
  gtk_widget_set_visible (self->resume_harvest_row, wanted != NULL);
  if (current == wanted)
    return;
  if (current != NULL)
    adw_action_row_remove (ADW_ACTION_ROW (current), button);
  if (wanted != NULL)
    adw_action_row_add_suffix (ADW_ACTION_ROW (wanted), button);
}

/* Fails when the crawls cannot be read, keeping the rows shown before:
 * "No crawls yet" would say the project lost its crawls. */
static gboolean
reload_crawls (CgProjectPage  *self,
               GError        **error)
{
  CgStore *store;
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autoptr(GPtrArray) titles = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) subtitles = g_ptr_array_new_with_free_func (g_free);
  gboolean busy = self->pipeline != NULL && cg_pipeline_is_busy (self->pipeline);
  gboolean newest_harvest_seen = FALSE;
  gint64 resumable_harvest = 0;
  int resumable_row = -1;
  int rc;

  if (self->project == NULL)
    {
      place_resume_harvest_button (self, -1);
      self->resumable_harvest = 0;
      clear_list (self->crawl_list);
      return TRUE;
    }

  adw_action_row_set_subtitle (self->name_row, cg_project_get_name (self->project));
  adw_action_row_set_subtitle (self->folder_row, cg_project_get_folder (self->project));

  store = cg_project_get_store (self->project);
  stmt = cg_store_prepare (store,
                           "SELECT kind, seed_url, state, created_at, id FROM crawls ORDER BY id DESC LIMIT ?1",
                           error);
  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_int (stmt, 1, MAX_LISTED_CRAWLS);
  /* All rows are read before any is shown, so that a read failing half
   * way leaves the list as it was. */
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      const char *kind = (const char *) sqlite3_column_text (stmt, 0);
      const char *seed = (const char *) sqlite3_column_text (stmt, 1);
      const char *state = (const char *) sqlite3_column_text (stmt, 2);
      gint64 crawl_id = sqlite3_column_int64 (stmt, 4);
      g_autoptr(GDateTime) created = g_date_time_new_from_unix_local (sqlite3_column_int64 (stmt, 3));
      g_autofree char *when = created != NULL ? g_date_time_format (created, "%x %X") : g_strdup ("");

      if (g_strcmp0 (state, "running") == 0 && !cg_crawl_lock_is_held (self->project, crawl_id))
        state = "interrupted";
      /* Only the newest harvest resumes (as with cartograph-cli harvest
       * --resume), and not while this window runs something. */
      if (g_strcmp0 (kind, "harvest") == 0 && !newest_harvest_seen)
        {
          newest_harvest_seen = TRUE;
          if (!busy && harvest_can_resume (state))
            {
              resumable_harvest = crawl_id;
              resumable_row = (int) titles->len;
            }
        }
      g_ptr_array_add (titles, g_strdup (seed != NULL ? seed : ""));
      /* Translators: a crawl's kind, its state and when it was created. */
      g_ptr_array_add (subtitles, g_strdup_printf (_("%s · %s · %s"),
                                                   describe_kind (kind), describe_state (state), when));
    }
  if (rc != SQLITE_DONE)
    {
      cg_store_set_error (store, rc, error);
      return FALSE;
    }

  for (guint i = 0; i < titles->len; i++)
    set_plain_row (self->crawl_list, i, g_ptr_array_index (titles, i), g_ptr_array_index (subtitles, i));
  if (titles->len == 0)
    set_plain_row (self->crawl_list, 0, _("No crawls yet"), "");
  place_resume_harvest_button (self, resumable_row);
  truncate_list (self->crawl_list, MAX (titles->len, 1));
  self->resumable_harvest = resumable_harvest;
  update_actions (self);
  return TRUE;
}

/* After the work under way changed what the project holds. */
static void
refresh_crawls (CgProjectPage *self)
{
  g_autoptr(GError) error = NULL;

  if (!reload_crawls (self, &error))
    report_read_error (self, error);
}

/* ------------------------------------------------------------------ */
/* The model and its classes                                           */

/* The site whose model is shown: the one the page was pointed at when it
 * has a model, else the site of the newest model in the project. */
static CgSiteModel *
load_shown_model (CgProjectPage  *self,
                  GError        **error)
{
  CgStore *store = cg_project_get_store (self->project);
  g_auto(GStrv) sites = cg_site_model_list_sites (store, error);
  g_autoptr(CgSiteModel) newest = NULL;

  if (sites == NULL)
    return NULL;
  for (guint i = 0; sites[i] != NULL; i++)
    {
      g_autoptr(GError) load_error = NULL;
      g_autoptr(CgSiteModel) model = cg_site_model_load_latest (store, sites[i], &load_error);

      /* A site without a model is passed over; a store that cannot be
       * read is not taken for one. */
      if (model == NULL && !g_error_matches (load_error, CG_SITE_MODEL_ERROR, CG_SITE_MODEL_ERROR_NOT_FOUND))
        {
          g_propagate_error (error, g_steal_pointer (&load_error));
          return NULL;
        }
      if (model == NULL)
        continue;
      if (self->site_url != NULL && g_str_equal (sites[i], self->site_url))
        return g_steal_pointer (&model);
      if (newest == NULL || cg_site_model_get_id (model) > cg_site_model_get_id (newest))
        g_set_object (&newest, model);
    }
  return g_steal_pointer (&newest);
}

/* Pages labelled with each class under @model (by the exploration, and by
 * harvests after it): class name → count; NULL when they cannot be read. */
static GHashTable *
count_pages_by_class (CgProjectPage  *self,
                      CgSiteModel    *model,
                      GError        **error)
{
  g_autoptr(GHashTable) counts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  CgStore *store = cg_project_get_store (self->project);
  g_autoptr(sqlite3_stmt) stmt = NULL;
  int rc;

  stmt = cg_store_prepare (store,
                           "SELECT class, COUNT(*) FROM page_labels WHERE model_id = ?1 AND class IS NOT NULL GROUP BY class",
                           error);
  if (stmt == NULL)
    return NULL;
  sqlite3_bind_int64 (stmt, 1, cg_site_model_get_id (model));
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    g_hash_table_insert (counts, g_strdup ((const char *) sqlite3_column_text (stmt, 0)),
                         GUINT_TO_POINTER ((guint) sqlite3_column_int64 (stmt, 1)));
  if (rc != SQLITE_DONE)
    {
      cg_store_set_error (store, rc, error);
      return NULL;
    }
  return g_steal_pointer (&counts);
}

static char *
describe_counts (guint pages,
                 guint records)
{
  g_autofree char *pages_text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u page", "%u pages", pages), pages);
  g_autofree char *records_text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u record", "%u records", records), records);

  /* Translators: a class's page count and record count, such as "12 pages · 240 records". */
  return g_strdup_printf (_("%s · %s"), pages_text, records_text);
}

static void open_class_clicked_cb (CgProjectPage *self,
                                   GtkButton     *button);

/* The open buttons' tooltips are given when asked for rather than set:
 * setting a tooltip on a shown widget makes GTK ask the display server
 * where the pointer is, a round trip per row each time the list changes
 * (issue 8). */
static gboolean
open_button_query_tooltip_cb (GtkWidget  *button,
                              int         x,
                              int         y,
                              gboolean    keyboard_mode,
                              GtkTooltip *tooltip,
                              gpointer    user_data)
{
  const char *text = g_object_get_data (G_OBJECT (button), "tooltip");

  if (text == NULL)
    return FALSE;
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

/* A new row for the class @class_name, with a button that opens it. */
static GtkWidget *
new_class_row (CgProjectPage *self,
               const char    *class_name)
{
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *open_button;

  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_action_row_set_subtitle_lines (ADW_ACTION_ROW (row), 2);
  /* A button rather than an arrow image, so that assistive
   * technologies have something to press; the row activates it. */
  open_button = gtk_button_new_from_icon_name ("go-next-symbolic");
  gtk_widget_add_css_class (open_button, "flat");
  gtk_widget_set_valign (open_button, GTK_ALIGN_CENTER);
  gtk_widget_set_has_tooltip (open_button, TRUE);
  g_signal_connect (open_button, "query-tooltip", G_CALLBACK (open_button_query_tooltip_cb), NULL);
  g_object_set_data_full (G_OBJECT (open_button), "class-name", g_strdup (class_name), g_free);
  g_signal_connect_object (open_button, "clicked", G_CALLBACK (open_class_clicked_cb), self, G_CONNECT_SWAPPED);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), open_button);
  adw_action_row_set_activatable_widget (ADW_ACTION_ROW (row), open_button);
  g_object_set_data (G_OBJECT (row), "open-button", open_button);
  g_object_set_data_full (G_OBJECT (row), "class-name", g_strdup (class_name), g_free);
  return row;
}

static void cancel_classes_reload (CgProjectPage *self);

/* The classes list follows the model's classes in their order. Rows of
 * classes already listed are kept and only their changed texts set, since
 * records-changed reloads the list many times while records are extracted
 * and rebuilding every row each time stalled the window (issue 8). */
static void
reload_classes (CgProjectPage *self)
{
  g_autoptr(GHashTable) pages = NULL;
  g_autoptr(GHashTable) records = NULL;
  g_autoptr(GHashTable) old_rows = NULL;
  g_autoptr(GError) error = NULL;
  GPtrArray *classes;
  guint total_records = 0;
  g_autofree char *heading = NULL;
  GtkListBoxRow *old_row;

  /* Done now, so not again later. */
  cancel_classes_reload (self);
  if (self->model == NULL)
    {
      clear_list (self->classes_list);
      gtk_stack_set_visible_child_name (self->classes_stack, "empty");
      return;
    }

  /* The rows there are, by class name; those whose class is gone are
   * removed at the end. */
  old_rows = g_hash_table_new (g_str_hash, g_str_equal);
  for (int i = 0; (old_row = gtk_list_box_get_row_at_index (self->classes_list, i)) != NULL; i++)
    {
      const char *name = g_object_get_data (G_OBJECT (old_row), "class-name");

      if (name != NULL && !g_hash_table_contains (old_rows, name))
        g_hash_table_insert (old_rows, (gpointer) name, old_row);
    }

  /* Counts that cannot be read leave the rows as they were rather than
   * show every class empty. */
  pages = count_pages_by_class (self, self->model, &error);
  if (pages != NULL)
    records = cg_record_store_count_by_class (cg_project_get_store (self->project),
                                              cg_site_model_get_id (self->model), &error);
  if (records == NULL)
    {
      report_read_error (self, error);
      return;
    }

  classes = cg_site_model_get_classes (self->model);
  for (guint i = 0; i < classes->len; i++)
    {
      CgPageClass *klass = g_ptr_array_index (classes, i);
      guint n_pages = GPOINTER_TO_UINT (g_hash_table_lookup (pages, klass->name));
      guint n_records = GPOINTER_TO_UINT (g_hash_table_lookup (records, klass->name));
      g_autofree char *subtitle = NULL;
      g_autofree char *open_label = NULL;
      g_autofree char *counts = NULL;
      const char *title = klass->label != NULL && *klass->label != '\0' ? klass->label : klass->name;
      GtkWidget *row = g_hash_table_lookup (old_rows, klass->name);
      GtkWidget *open_button;

      /* Before any page is labelled, the sample's count is what there is. */
      if (n_pages == 0)
        n_pages = klass->n_pages;
      total_records += n_records;
      counts = describe_counts (n_pages, n_records);
      subtitle = klass->url_pattern != NULL
                 ? g_strdup_printf ("%s\n%s", counts, klass->url_pattern)
                 : g_strdup (counts);
      if (row == NULL)
        {
          row = new_class_row (self, klass->name);
          gtk_list_box_insert (self->classes_list, row, (int) i);
        }
      else
        {
          /* Kept, and moved where the model now puts it if need be. */
          g_hash_table_remove (old_rows, klass->name);
          if (gtk_list_box_row_get_index (GTK_LIST_BOX_ROW (row)) != (int) i)
            {
              g_object_ref (row);
              gtk_list_box_remove (self->classes_list, row);
              gtk_list_box_insert (self->classes_list, row, (int) i);
              g_object_unref (row);
            }
        }
      if (g_strcmp0 (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (row)), title) != 0)
        adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
      if (g_strcmp0 (adw_action_row_get_subtitle (ADW_ACTION_ROW (row)), subtitle) != 0)
        adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
      open_button = g_object_get_data (G_OBJECT (row), "open-button");
      /* Translators: %s is a class of pages, such as "Book". */
      open_label = g_strdup_printf (_("Open Class %s"), title);
      if (g_strcmp0 (g_object_get_data (G_OBJECT (open_button), "tooltip"), open_label) != 0)
        g_object_set_data_full (G_OBJECT (open_button), "tooltip", g_strdup (open_label), g_free);
      gtk_accessible_update_property (GTK_ACCESSIBLE (open_button),
                                      GTK_ACCESSIBLE_PROPERTY_LABEL, open_label,
                                      GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, counts,
                                      -1);
    }
  /* Rows of classes the model no longer has. */
  {
    GHashTableIter iter;
    gpointer row;

    g_hash_table_iter_init (&iter, old_rows);
    while (g_hash_table_iter_next (&iter, NULL, &row))
      {
        g_hash_table_iter_remove (&iter);
        gtk_list_box_remove (self->classes_list, row);
      }
  }
  /* Rows without a class name are none of reload_classes's making. */
  truncate_list (self->classes_list, classes->len);

  {
    g_autofree char *classes_text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u class", "%u classes",
                                                                  classes->len), classes->len);
    g_autofree char *records_text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u record", "%u records",
                                                                  total_records), total_records);

    /* Translators: above the list of classes: "12 classes, 240 records
     * extracted", the counts translated on their own. */
    heading = g_strdup_printf (_("%s, %s extracted"), classes_text, records_text);
  }
  gtk_label_set_label (self->classes_heading, heading);
  gtk_stack_set_visible_child_name (self->classes_stack, classes->len > 0 ? "list" : "empty");
}

static void
cancel_classes_reload (CgProjectPage *self)
{
  if (self->classes_tick_id != 0)
    gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->classes_tick_id);
  self->classes_tick_id = 0;
  g_clear_handle_id (&self->classes_idle_id, g_source_remove);
}

static gboolean
classes_idle_cb (gpointer user_data)
{
  CgProjectPage *self = user_data;

  self->classes_idle_id = 0;
  reload_classes (self);
  return G_SOURCE_REMOVE;
}

static gboolean
classes_tick_cb (GtkWidget     *widget,
                 GdkFrameClock *frame_clock,
                 gpointer       user_data)
{
  CgProjectPage *self = CG_PROJECT_PAGE (widget);

  /* Ticks run before the frame's layout and drawing; the idle runs once
   * they are done. */
  self->classes_tick_id = 0;
  if (self->classes_idle_id == 0)
    self->classes_idle_id = g_idle_add (classes_idle_cb, self);
  return G_SOURCE_REMOVE;
}

/* The rows of a newly shown model are made after the frame that shows
 * it: building a dozen rows, then measuring them, in the same main-loop
 * turn and frame as the switch to the model page and its first full
 * drawing stalled the window (issue 8). Readers of the list flush it with
 * flush_classes_reload(). */
static void
queue_classes_reload (CgProjectPage *self)
{
  if (self->classes_tick_id != 0 || self->classes_idle_id != 0)
    return;
  if (gtk_widget_get_mapped (GTK_WIDGET (self)))
    self->classes_tick_id = gtk_widget_add_tick_callback (GTK_WIDGET (self), classes_tick_cb, NULL, NULL);
  else
    self->classes_idle_id = g_idle_add (classes_idle_cb, self);
}

static void
flush_classes_reload (CgProjectPage *self)
{
  if (self->classes_tick_id == 0 && self->classes_idle_id == 0)
    return;
  cancel_classes_reload (self);
  reload_classes (self);
}

/* Thumbnails are decoded in a thread: a model's sample screenshots are
 * large PNG files, and decoding a dozen of them on the main thread held
 * the window still for tens of milliseconds (issue 8). */
typedef struct {
  CgSiteModel *model;     /* whose thumbnails these are */
  GPtrArray   *names;     /* char *, class names */
  GPtrArray   *paths;     /* char *, parallel to names */
  GPtrArray   *textures;  /* GdkTexture * or NULL, parallel to names */
  GPtrArray   *errors;    /* char *, why thumbnails could not be read */
} ThumbnailJob;

static void
unref_texture (gpointer texture)
{
  if (texture != NULL)
    g_object_unref (texture);
}

static void
thumbnail_job_free (ThumbnailJob *job)
{
  g_clear_object (&job->model);
  g_ptr_array_unref (job->names);
  g_ptr_array_unref (job->paths);
  g_ptr_array_unref (job->textures);
  g_ptr_array_unref (job->errors);
  g_free (job);
}

static void
decode_thumbnails_thread (GTask        *task,
                          gpointer      source_object,
                          gpointer      task_data,
                          GCancellable *cancellable)
{
  ThumbnailJob *job = task_data;

  for (guint i = 0; i < job->paths->len; i++)
    {
      const char *path = g_ptr_array_index (job->paths, i);
      g_autoptr(GError) error = NULL;
      GdkTexture *texture = NULL;

      if (g_task_return_error_if_cancelled (task))
        return;
      if (g_file_test (path, G_FILE_TEST_IS_REGULAR))
        {
          texture = gdk_texture_new_from_filename (path, &error);
          if (texture == NULL)
            /* Translators: %s is a thumbnail's file, the second %s why it cannot be read. */
            g_ptr_array_add (job->errors, g_strdup_printf (_("The thumbnail %s cannot be read: %s"), path,
                                                           error->message));
        }
      g_ptr_array_add (job->textures, texture);
    }
  g_task_return_boolean (task, TRUE);
}

static void
thumbnails_decoded_cb (GObject      *source,
                       GAsyncResult *result,
                       gpointer      user_data)
{
  CgProjectPage *self = CG_PROJECT_PAGE (source);
  ThumbnailJob *job = g_task_get_task_data (G_TASK (result));

  /* Cancelled, or for a model no longer shown: nothing to do. */
  if (!g_task_propagate_boolean (G_TASK (result), NULL) || job->model != self->model)
    return;
  /* Warned about here rather than in the thread, so that the warnings
   * come in the main thread's order. */
  for (guint i = 0; i < job->errors->len; i++)
    g_warning ("%s", (const char *) g_ptr_array_index (job->errors, i));
  for (guint i = 0; i < job->names->len; i++)
    {
      GdkTexture *texture = g_ptr_array_index (job->textures, i);

      if (texture != NULL)
        cg_class_graph_set_thumbnail (self->graph, g_ptr_array_index (job->names, i), texture);
    }
}

static void
reload_thumbnails (CgProjectPage *self)
{
  g_autoptr(GTask) task = NULL;
  ThumbnailJob *job;
  GPtrArray *classes;

  if (self->thumbnails_cancellable != NULL)
    g_cancellable_cancel (self->thumbnails_cancellable);
  g_clear_object (&self->thumbnails_cancellable);
  if (self->model == NULL)
    return;

  job = g_new0 (ThumbnailJob, 1);
  job->model = g_object_ref (self->model);
  job->names = g_ptr_array_new_with_free_func (g_free);
  job->paths = g_ptr_array_new_with_free_func (g_free);
  job->textures = g_ptr_array_new_with_free_func (unref_texture);
  job->errors = g_ptr_array_new_with_free_func (g_free);
  classes = cg_site_model_get_classes (self->model);
  for (guint i = 0; i < classes->len && i < CG_CLASS_GRAPH_MAX_CLASSES; i++)
    {
      CgPageClass *klass = g_ptr_array_index (classes, i);
      g_autofree char *base = cg_class_sampler_get_sample_base (self->project, self->model, klass->name, 0);

      g_ptr_array_add (job->names, g_strdup (klass->name));
      g_ptr_array_add (job->paths, g_strconcat (base, ".png", NULL));
    }

  self->thumbnails_cancellable = g_cancellable_new ();
  task = g_task_new (self, self->thumbnails_cancellable, thumbnails_decoded_cb, NULL);
  g_task_set_source_tag (task, reload_thumbnails);
  g_task_set_task_data (task, job, (GDestroyNotify) thumbnail_job_free);
  g_task_run_in_thread (task, decode_thumbnails_thread);
}

static void
reload_versions (CgProjectPage *self)
{
  g_autoptr(GArray) versions = NULL;
  g_autoptr(GtkStringList) items = gtk_string_list_new (NULL);
  g_autoptr(GError) error = NULL;
  int current = cg_site_model_get_version (self->model);

  g_array_set_size (self->compare_versions, 0);
  gtk_string_list_append (items, _("No Comparison"));
  versions = cg_site_model_list_versions (cg_project_get_store (self->project),
                                          cg_site_model_get_site (self->model), &error);
  if (versions == NULL)
    g_warning ("Could not list the model versions: %s", error->message);
  for (guint i = versions != NULL ? versions->len : 0; i > 0 && self->compare_versions->len < MAX_COMPARED_VERSIONS; i--)
    {
      int version = g_array_index (versions, int, i - 1);
      g_autofree char *label = NULL;

      if (version == current)
        continue;
      /* Translators: an earlier version of the model to compare with. */
      label = g_strdup_printf (_("Version %d"), version);
      gtk_string_list_append (items, label);
      g_array_append_val (self->compare_versions, version);
    }

  self->filling_versions = TRUE;
  gtk_drop_down_set_model (self->version_dropdown, G_LIST_MODEL (items));
  gtk_drop_down_set_selected (self->version_dropdown, 0);
  self->filling_versions = FALSE;
  gtk_widget_set_sensitive (GTK_WIDGET (self->version_dropdown), self->compare_versions->len > 0);
}

static void
update_model_summary (CgProjectPage *self)
{
  guint n_classes = cg_site_model_get_classes (self->model)->len;
  guint n_links = cg_site_model_get_links (self->model)->len;
  guint n_patterns = cg_site_model_get_patterns (self->model)->len;
  g_autofree char *classes = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u class", "%u classes", n_classes), n_classes);
  g_autofree char *links = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u link type", "%u link types", n_links), n_links);
  g_autofree char *patterns = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u navigation pattern", "%u navigation patterns", n_patterns), n_patterns);
  /* Translators: the shown model: its version, then counts of classes, links and patterns. */
  g_autofree char *summary = g_strdup_printf (_("Version %d · %s · %s · %s"),
                                              cg_site_model_get_version (self->model), classes, links, patterns);

  if (!self->model_extracted)
    {
      g_autofree char *shown = g_steal_pointer (&summary);

      /* Translators: appended to the model's summary (the %s) when the
       * extraction of its records was cut off. */
      summary = g_strdup_printf (_("%s · records not all extracted"), shown);
    }
  gtk_label_set_label (self->model_summary_label, summary);
  /* A narrow window cuts the summary short: the whole of it on hover. */
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->model_summary_label), summary);
}

/* Reads whether the shown model's records were extracted in full. One
 * that cannot be read is taken as extracted: the failure is said, and
 * nothing is offered on a guess. */
static void
read_model_extracted (CgProjectPage *self)
{
  g_autoptr(GError) error = NULL;
  gboolean extracted = TRUE;

  if (self->model != NULL &&
      !cg_record_store_is_extracted (cg_project_get_store (self->project), cg_site_model_get_id (self->model),
                                     &extracted, &error))
    {
      report_read_error (self, error);
      extracted = TRUE;
    }
  self->model_extracted = extracted;
}

static void
update_model_stack (CgProjectPage *self)
{
  CgPipelineStage stage = self->pipeline != NULL ? cg_pipeline_get_stage (self->pipeline) : CG_PIPELINE_IDLE;

  gboolean has_graph = self->model != NULL || self->growing != NULL;

  if (has_graph)
    gtk_stack_set_visible_child_name (self->model_stack, "graph");
  else if (stage == CG_PIPELINE_EXPLORING)
    gtk_stack_set_visible_child_name (self->model_stack, "working");
  else
    gtk_stack_set_visible_child_name (self->model_stack, "empty");
  gtk_spinner_set_spinning (self->model_spinner, stage == CG_PIPELINE_EXPLORING && !has_graph);
}

static void
show_model (CgProjectPage *self,
            CgSiteModel   *model)
{
  gboolean same_class_view = FALSE;

  g_clear_object (&self->growing);
  g_set_object (&self->model, model);
  cg_class_graph_set_diff (self->graph, NULL);
  cg_class_graph_set_model (self->graph, model);
  read_model_extracted (self);
  if (model != NULL)
    {
      update_model_summary (self);
      reload_versions (self);
      reload_thumbnails (self);
      same_class_view = cg_class_view_get_model (self->class_view) != NULL &&
                        cg_site_model_get_id (cg_class_view_get_model (self->class_view)) == cg_site_model_get_id (model);
      queue_classes_reload (self);
    }
  else
    reload_classes (self);

  /* A class open from another model is closed; one from this model
   * stays, with fresh records. */
  if (same_class_view)
    cg_class_view_reload_records (self->class_view);
  else
    {
      adw_leaflet_set_visible_child_name (self->classes_leaflet, "list");
      cg_class_view_set_class (self->class_view, NULL, NULL, NULL);
    }
  update_model_stack (self);
  update_actions (self);
}

/* Compares the shown model with its @version, as the dropdown does. */
static void
compare_with_version (CgProjectPage *self,
                      int            version)
{
  for (guint i = 0; i < self->compare_versions->len; i++)
    if (g_array_index (self->compare_versions, int, i) == version)
      {
        gtk_drop_down_set_selected (self->version_dropdown, i + 1);
        return;
      }
}

/* Fails when the models cannot be read, keeping the one shown: a damaged
 * project would otherwise look like one never explored. */
static gboolean
reload_model (CgProjectPage  *self,
              GError        **error)
{
  g_autoptr(CgSiteModel) model = NULL;
  g_autoptr(GError) load_error = NULL;

  if (self->project == NULL)
    {
      show_model (self, NULL);
      return TRUE;
    }
  model = load_shown_model (self, &load_error);
  if (load_error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&load_error));
      return FALSE;
    }
  show_model (self, model);
  return TRUE;
}

static void
version_selected_cb (CgProjectPage *self)
{
  guint selected = gtk_drop_down_get_selected (self->version_dropdown);
  g_autoptr(CgSiteModel) previous = NULL;
  g_autoptr(GError) error = NULL;

  if (self->filling_versions || self->model == NULL)
    return;
  if (selected == 0 || selected == GTK_INVALID_LIST_POSITION || selected > self->compare_versions->len)
    {
      cg_class_graph_set_diff (self->graph, NULL);
      return;
    }
  previous = cg_site_model_load (cg_project_get_store (self->project), cg_site_model_get_site (self->model),
                                 g_array_index (self->compare_versions, int, selected - 1), &error);
  if (previous == NULL)
    {
      report_error (self, _("Cannot Compare the Versions"), error->message);
      return;
    }
  cg_class_graph_set_diff (self->graph, previous);
}

gboolean
cg_project_page_open_class (CgProjectPage *self,
                            const char    *class_name)
{
  CgPageClass *klass;

  g_return_val_if_fail (CG_IS_PROJECT_PAGE (self), FALSE);

  if (self->model == NULL || class_name == NULL ||
      (klass = cg_site_model_get_class (self->model, class_name)) == NULL)
    return FALSE;
  cg_class_view_set_class (self->class_view, self->project, self->model, class_name);
  gtk_label_set_label (self->class_title_label,
                       klass->label != NULL && *klass->label != '\0' ? klass->label : klass->name);
  cg_class_graph_set_selected_class (self->graph, class_name);
  adw_view_stack_set_visible_child_name (self->view_stack, "classes");
  adw_leaflet_set_visible_child_name (self->classes_leaflet, "class");
  self->class_opened_from_graph = FALSE;
  return TRUE;
}

const char *
cg_project_page_get_open_class (CgProjectPage *self)
{
  g_return_val_if_fail (CG_IS_PROJECT_PAGE (self), NULL);

  if (g_strcmp0 (adw_leaflet_get_visible_child_name (self->classes_leaflet), "class") != 0)
    return NULL;
  return cg_class_view_get_class_name (self->class_view);
}

static void
class_row_activated_cb (CgProjectPage *self,
                        GtkListBoxRow *row)
{
  cg_project_page_open_class (self, g_object_get_data (G_OBJECT (row), "class-name"));
}

static void
open_class_clicked_cb (CgProjectPage *self,
                       GtkButton     *button)
{
  cg_project_page_open_class (self, g_object_get_data (G_OBJECT (button), "class-name"));
}

static void
graph_class_activated_cb (CgClassGraph  *graph,
                          const char    *class_name,
                          CgProjectPage *self)
{
  /* The growing model's classes have no pages labelled or records yet,
   * and a saved class of the same name would be another class. */
  if (self->growing != NULL)
    {
      toast (self, _("Classes open once the exploration has saved the model"));
      return;
    }
  /* Going back returns to the graph, not to the classes list. */
  if (cg_project_page_open_class (self, class_name))
    self->class_opened_from_graph = TRUE;
}

static void
class_renamed_cb (CgProjectPage *self,
                  const char    *name,
                  const char    *label)
{
  /* The class view renamed the class in the model the page shares. */
  cg_class_graph_set_model (self->graph, self->model);
  reload_classes (self);
  gtk_label_set_label (self->class_title_label, label);
}

/* ------------------------------------------------------------------ */
/* Background work                                                     */

static const char *
site_label (CgProjectPage *self)
{
  const char *site = self->pipeline != NULL ? cg_pipeline_get_site_url (self->pipeline) : NULL;

  return site != NULL ? site : "";
}

/* Back to the saved model after an exploration that saved none. */
static void
drop_growing_model (CgProjectPage *self)
{
  if (self->growing == NULL)
    return;
  if (self->model != NULL)
    show_model (self, self->model);
  else
    {
      g_clear_object (&self->growing);
      cg_class_graph_set_model (self->graph, NULL);
      update_model_stack (self);
      update_actions (self);
    }
}

static void
stage_changed_cb (CgPipeline      *pipeline,
                  CgPipelineStage  stage,
                  CgProjectPage   *self)
{
  g_autofree char *title = NULL;

  switch (stage)
    {
    case CG_PIPELINE_EXPLORING:
      cg_progress_view_reset (self->progress_view);
      cg_progress_view_set_crawler (self->progress_view, cg_pipeline_get_crawler (pipeline));
      cg_progress_view_follow_coverage (self->progress_view, G_OBJECT (cg_pipeline_get_explorer (pipeline)));
      /* Translators: %s is the address of the site. */
      title = g_strdup_printf (_("Exploring %s"), site_label (self));
      cg_progress_view_set_title (self->progress_view, title,
                                  _("Fetching a sample of pages to learn the site’s model"));
      break;
    case CG_PIPELINE_RENDERING:
      cg_progress_view_set_crawler (self->progress_view, NULL);
      cg_progress_view_follow_coverage (self->progress_view, NULL);
      cg_progress_view_set_title (self->progress_view, _("Rendering the Sample Pages"),
                                  _("Each class’s sample pages are rendered from the archive, for thumbnails and record extraction"));
      cg_progress_view_set_task_progress (self->progress_view, _("Starting the renderer…"), -1);
      break;
    case CG_PIPELINE_EXTRACTING:
      cg_progress_view_set_title (self->progress_view, _("Extracting Records"),
                                  _("The wrappers learned on the samples are applied to every archived page"));
      cg_progress_view_set_task_progress (self->progress_view, _("Learning the wrappers…"), -1);
      break;
    case CG_PIPELINE_HARVESTING:
      cg_progress_view_reset (self->progress_view);
      cg_progress_view_set_model (self->progress_view, cg_pipeline_get_model (pipeline));
      cg_progress_view_set_harvester (self->progress_view, cg_pipeline_get_harvester (pipeline));
      /* Translators: %s is the address of the site. */
      title = g_strdup_printf (_("Harvesting %s"), site_label (self));
      cg_progress_view_set_title (self->progress_view, title, _("Following the model and writing WARC files"));
      break;
    case CG_PIPELINE_IDLE:
    default:
      drop_growing_model (self);
      cg_progress_view_set_harvester (self->progress_view, NULL);
      cg_progress_view_set_crawler (self->progress_view, NULL);
      cg_progress_view_follow_coverage (self->progress_view, NULL);
      cg_progress_view_set_task_progress (self->progress_view, NULL, 0);
      break;
    }
  if (stage != CG_PIPELINE_IDLE)
    refresh_crawls (self);
  update_model_stack (self);
  update_actions (self);
}

static void
task_progress_cb (CgPipeline    *pipeline,
                  const char    *what,
                  guint          done,
                  guint          total,
                  CgProjectPage *self)
{
  g_autofree char *text = NULL;

  if (what == NULL && cg_pipeline_get_stage (pipeline) == CG_PIPELINE_EXTRACTING)
    /* Translators: archived pages given a class of the model so far, of all. */
    text = g_strdup_printf (_("%u of %u pages labelled with the model’s classes"), done, total);
  else if (what == NULL)
    /* Translators: sample pages rendered so far, of all. */
    text = g_strdup_printf (_("%u of %u sample pages rendered"), done, total);
  else
    /* Translators: %s is a class name; then pages done so far, of all. */
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Class %s: %u of %u page", "Class %s: %u of %u pages",
                                         total), what, done, total);
  cg_progress_view_set_task_progress (self->progress_view, text, total > 0 ? (double) done / total : -1);
}

static void
warning_cb (CgPipeline    *pipeline,
            const char    *message,
            CgProjectPage *self)
{
  cg_progress_view_add_event (self->progress_view, CG_CRAWL_EVENT_FETCH_FAILED, NULL, message);
}

/* The exploration's model as it grows: shown in the graph until the model
 * is saved, or the exploration ends without one, so that the classes
 * appear as they are found. The saved model, if any, stays the page's. */
static void
model_updated_cb (CgPipeline    *pipeline,
                  CgSiteModel   *snapshot,
                  CgProjectPage *self)
{
  guint n_classes = cg_site_model_get_classes (snapshot)->len;
  g_autofree char *summary = NULL;

  if (n_classes == 0)
    return;
  g_set_object (&self->growing, snapshot);
  cg_class_graph_set_diff (self->graph, NULL);
  cg_class_graph_set_model (self->graph, snapshot);
  /* Translators: above the graph while the site is explored; %u is the
   * number of page classes found so far. */
  summary = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Exploring · %u class so far", "Exploring · %u classes so far",
                                          n_classes),
                             n_classes);
  gtk_label_set_label (self->model_summary_label, summary);
  gtk_widget_set_sensitive (GTK_WIDGET (self->version_dropdown), FALSE);
  update_model_stack (self);
  update_actions (self);
}

static void
model_saved_cb (CgPipeline    *pipeline,
                CgSiteModel   *model,
                CgProjectPage *self)
{
  /* After Explore Again, the new version is compared with the one shown
   * before it, so that what changed is highlighted at once. */
  int earlier = self->model != NULL && g_strcmp0 (cg_site_model_get_site (self->model), cg_site_model_get_site (model)) == 0
                ? cg_site_model_get_version (self->model) : 0;

  show_model (self, model);
  if (earlier > 0 && earlier != cg_site_model_get_version (model))
    compare_with_version (self, earlier);
  refresh_crawls (self);
  if (self->show_model_when_saved &&
      g_strcmp0 (adw_view_stack_get_visible_child_name (self->view_stack), "crawl") == 0)
    adw_view_stack_set_visible_child_name (self->view_stack, "model");
  self->show_model_when_saved = FALSE;
}

static void
samples_rendered_cb (CgPipeline    *pipeline,
                     CgSiteModel   *model,
                     CgProjectPage *self)
{
  if (self->model != model)
    return;
  reload_thumbnails (self);
  if (cg_class_view_get_model (self->class_view) == model)
    cg_class_view_reload_samples (self->class_view);
}

static void
records_changed_cb (CgPipeline    *pipeline,
                    CgSiteModel   *model,
                    CgProjectPage *self)
{
  if (self->model == NULL || cg_site_model_get_id (self->model) != cg_site_model_get_id (model))
    return;
  reload_classes (self);
  if (cg_class_view_get_model (self->class_view) == self->model)
    cg_class_view_reload_records (self->class_view);
}

static guint
count_all_records (CgProjectPage *self)
{
  gint64 records;

  if (self->model == NULL)
    return 0;
  records = cg_record_store_count (cg_project_get_store (self->project), cg_site_model_get_id (self->model), NULL);
  return (guint) MAX (records, 0);
}

/* The end of a piece of work some of whose pages could not be read or
 * rendered: the model is there, but its records are not all new. Said in
 * the window's dialog, since a toast would not hold the whole of it and
 * the records look complete. Returns FALSE when all pages were read. */
static gboolean
report_unread_pages (CgProjectPage *self,
                     CgPipeline    *pipeline)
{
  guint n_unreadable = cg_pipeline_get_n_unreadable_pages (pipeline);
  guint n_unrendered = cg_pipeline_get_n_unrendered_samples (pipeline);
  g_autoptr(GString) body = g_string_new (NULL);
  const char *heading;

  if (n_unreadable == 0 && n_unrendered == 0)
    return FALSE;
  if (n_unreadable > 0)
    {
      heading = _("Some Archived Pages Could Not Be Read");
      /* The words of the pipeline's warning, which the Crawl view lists. */
      g_string_append_printf (body, g_dngettext (GETTEXT_PACKAGE,
                                                 "%u archived page could not be read and kept its earlier records: %s",
                                                 "%u archived pages could not be read and kept their earlier records; the first: %s",
                                                 n_unreadable),
                              n_unreadable, cg_pipeline_get_unreadable_reason (pipeline));
    }
  else
    heading = _("Some Sample Pages Could Not Be Rendered");
  if (n_unrendered > 0)
    {
      if (body->len > 0)
        g_string_append (body, "\n\n");
      /* Translators: %u is a number of sample pages; the Crawl view lists them. */
      g_string_append_printf (body, g_dngettext (GETTEXT_PACKAGE,
                                                 "%u sample page could not be rendered: the Crawl view says why.",
                                                 "%u sample pages could not be rendered: the Crawl view says why.",
                                                 n_unrendered),
                              n_unrendered);
    }
  cg_progress_view_set_title (self->progress_view, heading, body->str);
  report_error (self, heading, body->str);
  return TRUE;
}

static void
pipeline_finished_cb (CgPipeline      *pipeline,
                      CgPipelineStage  stage,
                      gboolean         cancelled,
                      const GError    *error,
                      CgProjectPage   *self)
{
  g_autofree char *message = NULL;
  const char *title;

  if (stage == CG_PIPELINE_EXPLORING)
    drop_growing_model (self);
  read_model_extracted (self);
  if (self->model != NULL)
    update_model_summary (self);
  update_actions (self);
  if (error != NULL)
    {
      switch (stage)
        {
        case CG_PIPELINE_EXPLORING:
          title = _("The Exploration Failed");
          break;
        case CG_PIPELINE_RENDERING:
          title = _("Rendering Failed");
          break;
        case CG_PIPELINE_EXTRACTING:
          title = _("Extracting Records Failed");
          break;
        case CG_PIPELINE_HARVESTING:
        case CG_PIPELINE_IDLE:
        default:
          title = _("The Harvest Failed");
          break;
        }
      cg_progress_view_set_title (self->progress_view, title, error->message);
      cg_progress_view_add_event (self->progress_view, CG_CRAWL_EVENT_ERROR, NULL, error->message);
      /* The work the user asked for stopped: the whole reason, not a toast. */
      report_error (self, title, error->message);
    }
  else if (cancelled)
    {
      const char *kept;

      /* What stays, and how to go on from it. */
      switch (stage)
        {
        case CG_PIPELINE_EXPLORING:
          kept = _("The pages fetched so far are kept, but no model was learned: explore the site again for one");
          break;
        case CG_PIPELINE_RENDERING:
        case CG_PIPELINE_EXTRACTING:
          kept = _("The records extracted so far are kept: Extract Records finishes them");
          break;
        case CG_PIPELINE_HARVESTING:
        case CG_PIPELINE_IDLE:
        default:
          kept = _("What was archived is kept: Resume Harvest goes on from there");
          break;
        }
      cg_progress_view_set_title (self->progress_view, _("Stopped"), kept);
      message = g_strdup (_("Stopped"));
    }
  else if (stage == CG_PIPELINE_HARVESTING)
    {
      cg_progress_view_set_title (self->progress_view, _("Harvest Finished"), NULL);
      message = g_strdup (_("The harvest is finished"));
    }
  else if (!report_unread_pages (self, pipeline))
    {
      guint n_classes = self->model != NULL ? cg_site_model_get_classes (self->model)->len : 0;
      guint n_records = count_all_records (self);

      cg_progress_view_set_title (self->progress_view, _("The Model Is Ready"), NULL);
      g_autofree char *classes_text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u class", "%u classes",
                                                                    n_classes), n_classes);
      g_autofree char *records_text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u record", "%u records",
                                                                    n_records), n_records);

      /* Translators: after an exploration: "The model is ready: 7 classes,
       * 240 records", the counts translated on their own. */
      message = g_strdup_printf (_("The model is ready: %s, %s"), classes_text, records_text);
    }
  if (message != NULL)
    toast (self, message);
  refresh_crawls (self);
}

static void
connect_pipeline (CgProjectPage *self)
{
  g_signal_connect_object (self->pipeline, "stage-changed", G_CALLBACK (stage_changed_cb), self, 0);
  g_signal_connect_object (self->pipeline, "task-progress", G_CALLBACK (task_progress_cb), self, 0);
  g_signal_connect_object (self->pipeline, "warning", G_CALLBACK (warning_cb), self, 0);
  g_signal_connect_object (self->pipeline, "model-saved", G_CALLBACK (model_saved_cb), self, 0);
  g_signal_connect_object (self->pipeline, "model-updated", G_CALLBACK (model_updated_cb), self, 0);
  g_signal_connect_object (self->pipeline, "samples-rendered", G_CALLBACK (samples_rendered_cb), self, 0);
  g_signal_connect_object (self->pipeline, "records-changed", G_CALLBACK (records_changed_cb), self, 0);
  g_signal_connect_object (self->pipeline, "finished", G_CALLBACK (pipeline_finished_cb), self, 0);
}

static void
drop_pipeline (CgProjectPage *self)
{
  if (self->pipeline == NULL)
    return;
  g_signal_handlers_disconnect_by_data (self->pipeline, self);
  cg_pipeline_stop (self->pipeline);
  g_clear_object (&self->pipeline);
}

gboolean
cg_project_page_explore (CgProjectPage          *self,
                         const CgCrawlConfig    *config,
                         const CgLearnerParams  *params,
                         gboolean                javascript,
                         GError                **error)
{
  g_return_val_if_fail (CG_IS_PROJECT_PAGE (self), FALSE);
  g_return_val_if_fail (self->pipeline != NULL, FALSE);

  if (!cg_pipeline_explore (self->pipeline, config, params, javascript, error))
    return FALSE;
  if (self->explore_config != config)
    {
      g_clear_pointer (&self->explore_config, cg_crawl_config_free);
      self->explore_config = cg_crawl_config_copy (config);
    }
  if (params != NULL)
    self->explore_params = *params;
  else
    cg_learner_params_init (&self->explore_params);
  self->explore_javascript = javascript;
  self->show_model_when_saved = TRUE;
  adw_view_stack_set_visible_child_name (self->view_stack, "crawl");
  return TRUE;
}

/* What the New Crawl dialog stores beside the crawl settings. */
static void
read_explore_extras (const char      *json,
                     CgLearnerParams *params,
                     gboolean        *javascript)
{
  g_autoptr(JsonNode) root = NULL;
  JsonObject *object;
  JsonNode *member;

  cg_learner_params_init (params);
  *javascript = TRUE;
  /* Stored with the crawl, where anything could have been written: what
   * is not of the right type keeps its default. */
  root = cg_json_parse (json, -1, NULL);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    return;
  object = json_node_get_object (root);
  member = json_object_get_member (object, "sample_size");
  if (member != NULL && JSON_NODE_HOLDS_VALUE (member) && json_node_get_value_type (member) == G_TYPE_INT64)
    params->max_pages = (guint) CLAMP (json_node_get_int (member), 1, CG_LEARNER_MAX_PAGES);
  member = json_object_get_member (object, "javascript");
  if (member != NULL && JSON_NODE_HOLDS_VALUE (member) && json_node_get_value_type (member) == G_TYPE_BOOLEAN)
    *javascript = json_node_get_boolean (member);
}

/* An exploration the dialog recorded but that never ran is only a
 * placeholder for its settings: the exploration records its own crawl,
 * so the placeholder goes once that has started. */
static void
drop_placeholder_crawl (CgProjectPage *self,
                        gint64         crawl_id)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autoptr(GError) error = NULL;
  CgStore *store = cg_project_get_store (self->project);

  stmt = cg_store_prepare (store,
                           "DELETE FROM crawls WHERE id = ?1 AND state = 'created' "
                           "AND NOT EXISTS (SELECT 1 FROM urls WHERE crawl_id = ?1)",
                           &error);
  if (stmt != NULL)
    {
      sqlite3_bind_int64 (stmt, 1, crawl_id);
      cg_store_step_done (store, stmt, &error);
    }
  if (error != NULL)
    g_warning ("Could not remove the placeholder crawl %" G_GINT64_FORMAT ": %s", crawl_id, error->message);
}

gboolean
cg_project_page_explore_stored (CgProjectPage  *self,
                                GError        **error)
{
  CgStore *store;
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autoptr(CgCrawlConfig) config = NULL;
  CgLearnerParams params;
  gboolean javascript;
  gint64 crawl_id;
  gboolean placeholder;
  int rc;

  g_return_val_if_fail (CG_IS_PROJECT_PAGE (self), FALSE);
  g_return_val_if_fail (self->project != NULL, FALSE);

  /* The newest exploration; in a project made by a plain crawl or a
   * harvest (from the command line), the newest crawl of any kind, whose
   * seed and settings serve as well: the user has no other way to
   * explore such a project from the window, since New Crawl makes a new
   * project folder. */
  store = cg_project_get_store (self->project);
  stmt = cg_store_prepare (store,
                           "SELECT id, kind, seed_url, config, state FROM crawls "
                           "ORDER BY kind = 'explore' DESC, id DESC LIMIT 1",
                           error);
  if (stmt == NULL)
    return FALSE;
  rc = sqlite3_step (stmt);
  if (rc == SQLITE_DONE)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   _("The project “%s” has no crawl, so there is no site to explore from. "
                     "Learn the site’s model from the command line with "
                     "“cartograph-cli model URL --project %s”, where URL is the site’s address, "
                     "then open the project again."),
                   cg_project_get_name (self->project), cg_project_get_folder (self->project));
      return FALSE;
    }
  if (rc != SQLITE_ROW)
    {
      cg_store_set_error (store, rc, error);
      return FALSE;
    }
  crawl_id = sqlite3_column_int64 (stmt, 0);
  config = cg_crawl_config_from_json_with_seed ((const char *) sqlite3_column_text (stmt, 3),
                                                (const char *) sqlite3_column_text (stmt, 2), error);
  if (config == NULL)
    {
      if (g_strcmp0 ((const char *) sqlite3_column_text (stmt, 1), "explore") == 0)
        g_prefix_error (error, _("Exploration %" PRId64 ": "), crawl_id);
      else
        /* Translators: the number of a crawl of the project, before what is wrong with its settings. */
        g_prefix_error (error, _("Crawl %" PRId64 ": "), crawl_id);
      return FALSE;
    }
  read_explore_extras ((const char *) sqlite3_column_text (stmt, 3), &params, &javascript);
  /* Only an exploration the dialog recorded is a placeholder: a plain
   * crawl that never ran is the user's own. */
  placeholder = g_strcmp0 ((const char *) sqlite3_column_text (stmt, 1), "explore") == 0 &&
                g_strcmp0 ((const char *) sqlite3_column_text (stmt, 4), "created") == 0;
  g_clear_pointer (&stmt, sqlite3_finalize);

  if (!cg_project_page_explore (self, config, &params, javascript, error))
    return FALSE;
  if (placeholder)
    drop_placeholder_crawl (self, crawl_id);
  refresh_crawls (self);
  return TRUE;
}

/* The settings (JSON) stored with the crawl that made the shown model;
 * NULL with @error when they cannot be read, and NULL without for a model
 * no crawl made (one imported from a file). */
static char *
model_crawl_settings (CgProjectPage  *self,
                      GError        **error)
{
  CgStore *store = cg_project_get_store (self->project);
  gint64 crawl_id = cg_site_model_get_crawl_id (self->model);
  g_autoptr(sqlite3_stmt) stmt = NULL;
  int rc;

  if (crawl_id <= 0)
    return NULL;
  stmt = cg_store_prepare (store, "SELECT config FROM crawls WHERE id = ?1", error);
  if (stmt == NULL)
    return NULL;
  sqlite3_bind_int64 (stmt, 1, crawl_id);
  rc = sqlite3_step (stmt);
  if (rc == SQLITE_ROW)
    return g_strdup ((const char *) sqlite3_column_text (stmt, 0));
  if (rc == SQLITE_DONE)
    g_set_error_literal (error, CG_STORE_ERROR, CG_STORE_ERROR_NOT_FOUND, _("the project no longer has that crawl"));
  else
    cg_store_set_error (store, rc, error);
  return NULL;
}

/* The harvest fetches as politely as the exploration that made the model
 * did: its stored settings, without its seeds (the harvest starts from
 * the model's site). @out_config is NULL for a model no crawl made (one
 * imported from a file), which harvests with the default settings. Fails
 * when the settings cannot be read: harvesting with the defaults instead
 * would ignore the robots.txt policy, contact and politeness the user
 * chose. */
static gboolean
config_of_model_crawl (CgProjectPage  *self,
                       CgCrawlConfig **out_config,
                       GError        **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autofree char *json = model_crawl_settings (self, &local_error);
  CgCrawlConfig *config = NULL;

  *out_config = NULL;
  if (json == NULL && local_error == NULL)
    return TRUE;
  if (json != NULL)
    config = cg_crawl_config_from_json (json, &local_error);
  if (config == NULL)
    {
      g_propagate_prefixed_error (error, g_steal_pointer (&local_error),
                                  /* Translators: the number of the crawl that made the model; why follows. */
                                  _("The settings of exploration %" PRId64 " cannot be read: "),
                                  cg_site_model_get_crawl_id (self->model));
      return FALSE;
    }
  g_clear_pointer (&config->seeds, g_strfreev);
  *out_config = config;
  return TRUE;
}

gboolean
cg_project_page_start_harvest (CgProjectPage      *self,
                               CgHarvestStrategy   strategy,
                               const char         *like_url,
                               GError            **error)
{
  g_autoptr(CgHarvestOptions) options = NULL;
  CgCrawlConfig *config;

  g_return_val_if_fail (CG_IS_PROJECT_PAGE (self), FALSE);

  if (self->model == NULL)
    {
      g_set_error_literal (error, CG_HARVESTER_ERROR, CG_HARVESTER_ERROR_MODEL,
                           _("There is no model to harvest with: explore the site first"));
      return FALSE;
    }
  if (!config_of_model_crawl (self, &config, error))
    return FALSE;
  options = cg_harvest_options_new ();
  options->strategy = strategy;
  if (strategy == CG_HARVEST_STRATEGY_LIKE)
    options->like_url = g_strstrip (g_strdup (like_url != NULL ? like_url : ""));
  if (config != NULL)
    {
      g_clear_pointer (&options->crawl, cg_crawl_config_free);
      options->crawl = config;
    }
  if (!cg_harvest_options_validate (options, error))
    return FALSE;
  if (!cg_pipeline_harvest (self->pipeline, self->model, options, error))
    return FALSE;
  adw_view_stack_set_visible_child_name (self->view_stack, "crawl");
  return TRUE;
}

gboolean
cg_project_page_resume_harvest (CgProjectPage  *self,
                                GError        **error)
{
  g_return_val_if_fail (CG_IS_PROJECT_PAGE (self), FALSE);

  if (self->project == NULL || self->resumable_harvest <= 0)
    {
      g_set_error_literal (error, CG_HARVESTER_ERROR, CG_HARVESTER_ERROR_NO_HARVEST,
                           _("There is no stopped harvest to resume"));
      return FALSE;
    }
  if (!cg_pipeline_resume_harvest (self->pipeline, self->resumable_harvest, error))
    return FALSE;
  adw_view_stack_set_visible_child_name (self->view_stack, "crawl");
  return TRUE;
}

void
cg_project_page_toggle_pause (CgProjectPage *self)
{
  g_return_if_fail (CG_IS_PROJECT_PAGE (self));

  if (self->pipeline == NULL || !cg_pipeline_can_pause (self->pipeline))
    return;
  if (cg_pipeline_is_paused (self->pipeline))
    cg_pipeline_resume (self->pipeline);
  else
    cg_pipeline_pause (self->pipeline);
  update_actions (self);
}

void
cg_project_page_stop (CgProjectPage *self)
{
  g_return_if_fail (CG_IS_PROJECT_PAGE (self));

  if (self->pipeline != NULL)
    cg_pipeline_stop (self->pipeline);
  update_actions (self);
}

/* ------------------------------------------------------------------ */
/* Actions                                                             */

static void
explore_activated (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  CgProjectPage *self = CG_PROJECT_PAGE (widget);
  g_autoptr(GError) error = NULL;
  gboolean ok;

  if (self->explore_config != NULL)
    {
      g_autoptr(CgCrawlConfig) config = cg_crawl_config_copy (self->explore_config);

      ok = cg_project_page_explore (self, config, &self->explore_params, self->explore_javascript, &error);
    }
  else
    ok = cg_project_page_explore_stored (self, &error);
  if (!ok)
    report_error (self, _("Cannot Explore the Site"), error->message);
}

/* Whether the exploration that learned the shown model rendered its
 * samples with JavaScript, as the New Crawl dialog stored it (TRUE when
 * unknown). */
static gboolean
model_uses_javascript (CgProjectPage *self)
{
  g_autofree char *json = model_crawl_settings (self, NULL);
  CgLearnerParams params;
  gboolean javascript = TRUE;

  if (json != NULL)
    read_explore_extras (json, &params, &javascript);
  return javascript;
}

gboolean
cg_project_page_extract_records (CgProjectPage  *self,
                                 GError        **error)
{
  g_return_val_if_fail (CG_IS_PROJECT_PAGE (self), FALSE);
  g_return_val_if_fail (self->model != NULL && self->pipeline != NULL, FALSE);

  if (!cg_pipeline_prepare_model (self->pipeline, self->model, model_uses_javascript (self), error))
    return FALSE;
  adw_view_stack_set_visible_child_name (self->view_stack, "crawl");
  return TRUE;
}

static void
extract_records_activated (GtkWidget  *widget,
                           const char *action_name,
                           GVariant   *parameter)
{
  CgProjectPage *self = CG_PROJECT_PAGE (widget);
  g_autoptr(GError) error = NULL;

  if (!cg_project_page_extract_records (self, &error))
    report_error (self, _("Cannot Extract the Records"), error->message);
}

static void
harvest_activated (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  CgProjectPage *self = CG_PROJECT_PAGE (widget);
  guint selected = adw_combo_row_get_selected (self->strategy_row);
  CgHarvestStrategy strategy = strategies[MIN (selected, G_N_ELEMENTS (strategies) - 1)];
  g_autoptr(GError) error = NULL;

  if (!cg_project_page_start_harvest (self, strategy, gtk_editable_get_text (GTK_EDITABLE (self->like_row)), &error))
    report_error (self, _("Cannot Start the Harvest"), error->message);
}

static void
resume_harvest_activated (GtkWidget  *widget,
                          const char *action_name,
                          GVariant   *parameter)
{
  CgProjectPage *self = CG_PROJECT_PAGE (widget);
  g_autoptr(GError) error = NULL;

  if (!cg_project_page_resume_harvest (self, &error))
    {
      report_error (self, _("Cannot Resume the Harvest"), error->message);
      /* What stood in the way (another process took the harvest up, say)
       * shows in the list. */
      refresh_crawls (self);
    }
}

static void
pause_activated (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  CgProjectPage *self = CG_PROJECT_PAGE (widget);

  if (self->pipeline != NULL && !cg_pipeline_is_paused (self->pipeline))
    cg_project_page_toggle_pause (self);
}

static void
resume_activated (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  CgProjectPage *self = CG_PROJECT_PAGE (widget);

  if (self->pipeline != NULL && cg_pipeline_is_paused (self->pipeline))
    cg_project_page_toggle_pause (self);
}

static void
stop_activated (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  cg_project_page_stop (CG_PROJECT_PAGE (widget));
}

static void
zoom_activated (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  CgProjectPage *self = CG_PROJECT_PAGE (widget);

  if (g_str_equal (action_name, "graph.zoom-in"))
    cg_class_graph_zoom_in (self->graph);
  else if (g_str_equal (action_name, "graph.zoom-out"))
    cg_class_graph_zoom_out (self->graph);
  else if (g_str_equal (action_name, "graph.zoom-fit"))
    cg_class_graph_zoom_fit (self->graph);
  else
    cg_class_graph_zoom_reset (self->graph);
}

/* One step back within the page (Alt+Left): from an archived page to its
 * class, from a class to where it was opened (the graph, with the focus on
 * its node, or the classes list). FALSE when there is none, and the window
 * goes back to its start page instead. */
gboolean
cg_project_page_go_back (CgProjectPage *self)
{
  g_return_val_if_fail (CG_IS_PROJECT_PAGE (self), FALSE);

  if (g_strcmp0 (adw_view_stack_get_visible_child_name (self->view_stack), "classes") != 0 ||
      g_strcmp0 (adw_leaflet_get_visible_child_name (self->classes_leaflet), "class") != 0)
    return FALSE;
  if (cg_class_view_go_back (self->class_view))
    return TRUE;
  adw_leaflet_set_visible_child_name (self->classes_leaflet, "list");
  if (self->class_opened_from_graph)
    {
      self->class_opened_from_graph = FALSE;
      adw_view_stack_set_visible_child_name (self->view_stack, "model");
      /* The graph keeps the node the class was opened from in focus. */
      gtk_widget_grab_focus (GTK_WIDGET (self->graph));
    }
  return TRUE;
}

static void
classes_back_activated (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *parameter)
{
  CgProjectPage *self = CG_PROJECT_PAGE (widget);

  adw_leaflet_set_visible_child_name (self->classes_leaflet, "list");
}

/* The sample page of a by-example harvest defaults to a sample of the
 * class selected in the graph, or of the entry class. */
static void
strategy_changed_cb (CgProjectPage *self)
{
  guint selected = adw_combo_row_get_selected (self->strategy_row);
  gboolean like = selected < G_N_ELEMENTS (strategies) && strategies[selected] == CG_HARVEST_STRATEGY_LIKE;
  const char *class_name;
  CgPageClass *klass;

  gtk_widget_set_visible (GTK_WIDGET (self->like_row), like);
  if (!like || self->model == NULL || *gtk_editable_get_text (GTK_EDITABLE (self->like_row)) != '\0')
    return;
  class_name = cg_class_graph_get_selected_class (self->graph);
  if (class_name == NULL)
    class_name = cg_site_model_get_entry_class (self->model);
  klass = class_name != NULL ? cg_site_model_get_class (self->model, class_name) : NULL;
  if (klass != NULL && klass->samples != NULL && klass->samples[0] != NULL)
    gtk_editable_set_text (GTK_EDITABLE (self->like_row), klass->samples[0]);
}

static void
open_site_clicked_cb (CgProjectPage *self)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));

  if (self->site_url != NULL)
    gtk_show_uri (GTK_WINDOW (root), self->site_url, GDK_CURRENT_TIME);
}

static void
open_folder_clicked_cb (CgProjectPage *self)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  g_autoptr(GFile) folder = NULL;
  g_autofree char *uri = NULL;

  if (self->project == NULL)
    return;
  folder = g_file_new_for_path (cg_project_get_folder (self->project));
  uri = g_file_get_uri (folder);
  gtk_show_uri (GTK_WINDOW (root), uri, GDK_CURRENT_TIME);
}

/* ------------------------------------------------------------------ */
/* Public API                                                          */

void
cg_project_page_reload (CgProjectPage *self)
{
  g_autoptr(GError) error = NULL;
  gboolean ok;

  g_return_if_fail (CG_IS_PROJECT_PAGE (self));

  /* Both are tried, and the first failure said: they share its cause. */
  ok = reload_crawls (self, &error);
  ok = reload_model (self, ok ? &error : NULL) && ok;
  if (!ok)
    report_read_error (self, error);
  else
    self->read_error_reported = FALSE;
}

void
cg_project_page_set_project (CgProjectPage *self,
                             CgProject     *project)
{
  g_return_if_fail (CG_IS_PROJECT_PAGE (self));

  if (self->project == project)
    return;
  drop_pipeline (self);
  g_set_object (&self->project, project);
  /* Nothing of the project shown before stays, even when this one
   * cannot be read. */
  clear_list (self->crawl_list);
  show_model (self, NULL);
  self->read_error_reported = FALSE;
  g_clear_pointer (&self->explore_config, cg_crawl_config_free);
  g_clear_pointer (&self->site_url, g_free);
  gtk_widget_set_visible (GTK_WIDGET (self->site_group), FALSE);
  gtk_editable_set_text (GTK_EDITABLE (self->like_row), "");
  cg_progress_view_reset (self->progress_view);
  cg_progress_view_set_title (self->progress_view, _("Nothing Running"), NULL);
  if (project != NULL)
    {
      self->pipeline = cg_pipeline_new (project);
      connect_pipeline (self);
    }
  cg_project_page_reload (self);
  adw_view_stack_set_visible_child_name (self->view_stack, self->model != NULL ? "model" : "crawl");
}

CgProject *
cg_project_page_get_project (CgProjectPage *self)
{
  g_return_val_if_fail (CG_IS_PROJECT_PAGE (self), NULL);
  return self->project;
}

void
cg_project_page_set_site_url (CgProjectPage *self,
                              const char    *url)
{
  g_return_if_fail (CG_IS_PROJECT_PAGE (self));

  if (g_strcmp0 (self->site_url, url) == 0)
    return;
  g_free (self->site_url);
  self->site_url = g_strdup (url);
  gtk_widget_set_visible (GTK_WIDGET (self->site_group), url != NULL);
  adw_action_row_set_subtitle (self->site_row, url != NULL ? url : "");
  /* The site's own model, when the project has models of several. */
  if (self->project != NULL)
    {
      g_autoptr(GError) error = NULL;

      if (!reload_model (self, &error))
        report_read_error (self, error);
    }
}

void
cg_project_page_show_view (CgProjectPage *self,
                           const char    *name)
{
  g_return_if_fail (CG_IS_PROJECT_PAGE (self));
  adw_view_stack_set_visible_child_name (self->view_stack, name);
}

const char *
cg_project_page_get_visible_view (CgProjectPage *self)
{
  g_return_val_if_fail (CG_IS_PROJECT_PAGE (self), NULL);
  return adw_view_stack_get_visible_child_name (self->view_stack);
}

AdwViewStack *
cg_project_page_get_view_stack (CgProjectPage *self)
{
  g_return_val_if_fail (CG_IS_PROJECT_PAGE (self), NULL);
  return self->view_stack;
}

CgPipeline *
cg_project_page_get_pipeline (CgProjectPage *self)
{
  g_return_val_if_fail (CG_IS_PROJECT_PAGE (self), NULL);
  return self->pipeline;
}

CgSiteModel *
cg_project_page_get_model (CgProjectPage *self)
{
  g_return_val_if_fail (CG_IS_PROJECT_PAGE (self), NULL);
  return self->model;
}

CgClassGraph *
cg_project_page_get_graph (CgProjectPage *self)
{
  g_return_val_if_fail (CG_IS_PROJECT_PAGE (self), NULL);
  return self->graph;
}

CgClassView *
cg_project_page_get_class_view (CgProjectPage *self)
{
  g_return_val_if_fail (CG_IS_PROJECT_PAGE (self), NULL);
  return self->class_view;
}

CgProgressView *
cg_project_page_get_progress_view (CgProjectPage *self)
{
  g_return_val_if_fail (CG_IS_PROJECT_PAGE (self), NULL);
  return self->progress_view;
}

guint
cg_project_page_get_n_listed_classes (CgProjectPage *self)
{
  guint n = 0;

  g_return_val_if_fail (CG_IS_PROJECT_PAGE (self), 0);

  flush_classes_reload (self);
  while (gtk_list_box_get_row_at_index (self->classes_list, (int) n) != NULL)
    n++;
  return n;
}

static void
cg_project_page_dispose (GObject *object)
{
  CgProjectPage *self = CG_PROJECT_PAGE (object);

  drop_pipeline (self);
  cancel_classes_reload (self);
  if (self->thumbnails_cancellable != NULL)
    g_cancellable_cancel (self->thumbnails_cancellable);
  g_clear_object (&self->thumbnails_cancellable);
  g_clear_object (&self->model);
  g_clear_object (&self->growing);
  g_clear_object (&self->project);
  g_clear_pointer (&self->site_url, g_free);
  g_clear_pointer (&self->explore_config, cg_crawl_config_free);
  g_clear_pointer (&self->compare_versions, g_array_unref);
  g_clear_object (&self->resume_harvest_button);

  G_OBJECT_CLASS (cg_project_page_parent_class)->dispose (object);
}

static void
cg_project_page_class_init (CgProjectPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = cg_project_page_dispose;

  g_type_ensure (CG_TYPE_CLASS_GRAPH);
  g_type_ensure (CG_TYPE_CLASS_VIEW);
  g_type_ensure (CG_TYPE_PROGRESS_VIEW);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/cartograph/Cartograph/cg-project-page.ui");
  gtk_widget_class_bind_template_child (widget_class, CgProjectPage, view_stack);
  gtk_widget_class_bind_template_child (widget_class, CgProjectPage, model_stack);
  gtk_widget_class_bind_template_child (widget_class, CgProjectPage, model_working_page);
  gtk_widget_class_bind_template_child (widget_class, CgProjectPage, model_spinner);
  gtk_widget_class_bind_template_child (widget_class, CgProjectPage, model_summary_label);
  gtk_widget_class_bind_template_child (widget_class, CgProjectPage, extract_records_button);
  gtk_widget_class_bind_template_child (widget_class, CgProjectPage, resume_harvest_row);
  gtk_widget_class_bind_template_child (widget_class, CgProjectPage, version_dropdown);
  gtk_widget_class_bind_template_child (widget_class, CgProjectPage, graph);
  gtk_widget_class_bind_template_child (widget_class, CgProjectPage, classes_leaflet);
  gtk_widget_class_bind_template_child (widget_class, CgProjectPage, classes_stack);
  gtk_widget_class_bind_template_child (widget_class, CgProjectPage, classes_heading);
  gtk_widget_class_bind_template_child (widget_class, CgProjectPage, classes_list);
  gtk_widget_class_bind_template_child (widget_class, CgProjectPage, class_title_label);
  gtk_widget_class_bind_template_child (widget_class, CgProjectPage, class_view);
  gtk_widget_class_bind_template_child (widget_class, CgProjectPage, strategy_row);
  gtk_widget_class_bind_template_child (widget_class, CgProjectPage, like_row);
  gtk_widget_class_bind_template_child (widget_class, CgProjectPage, progress_view);
  gtk_widget_class_bind_template_child (widget_class, CgProjectPage, site_group);
  gtk_widget_class_bind_template_child (widget_class, CgProjectPage, site_row);
  gtk_widget_class_bind_template_child (widget_class, CgProjectPage, name_row);
  gtk_widget_class_bind_template_child (widget_class, CgProjectPage, folder_row);
  gtk_widget_class_bind_template_child (widget_class, CgProjectPage, crawl_list);
  gtk_widget_class_bind_template_callback (widget_class, class_row_activated_cb);
  gtk_widget_class_bind_template_callback (widget_class, class_renamed_cb);
  gtk_widget_class_bind_template_callback (widget_class, strategy_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, open_site_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, open_folder_clicked_cb);

  gtk_widget_class_install_action (widget_class, "project.explore", NULL, explore_activated);
  gtk_widget_class_install_action (widget_class, "project.harvest", NULL, harvest_activated);
  gtk_widget_class_install_action (widget_class, "project.extract-records", NULL, extract_records_activated);
  gtk_widget_class_install_action (widget_class, "project.resume-harvest", NULL, resume_harvest_activated);
  gtk_widget_class_install_action (widget_class, "crawl.pause", NULL, pause_activated);
  gtk_widget_class_install_action (widget_class, "crawl.resume", NULL, resume_activated);
  gtk_widget_class_install_action (widget_class, "crawl.stop", NULL, stop_activated);
  gtk_widget_class_install_action (widget_class, "graph.zoom-in", NULL, zoom_activated);
  gtk_widget_class_install_action (widget_class, "graph.zoom-out", NULL, zoom_activated);
  gtk_widget_class_install_action (widget_class, "graph.zoom-fit", NULL, zoom_activated);
  gtk_widget_class_install_action (widget_class, "graph.zoom-reset", NULL, zoom_activated);
  gtk_widget_class_install_action (widget_class, "classes.back", NULL, classes_back_activated);

}

static void
cg_project_page_init (CgProjectPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->compare_versions = g_array_new (FALSE, FALSE, sizeof (int));
  cg_learner_params_init (&self->explore_params);
  /* The binding keeps the settings object alive as long as the graph. */
  {
    g_autoptr(GSettings) settings = g_settings_new (APP_ID);

    g_settings_bind (settings, "graph-show-all-links", self->graph, "show-all-links", G_SETTINGS_BIND_DEFAULT);
  }
  self->explore_javascript = TRUE;
  self->model_extracted = TRUE;
  /* Kept by the page: it moves from row to row as the crawls list is
   * rebuilt. */
  self->resume_harvest_button = g_object_ref_sink (gtk_button_new_with_mnemonic (_("_Resume")));
  gtk_widget_set_valign (self->resume_harvest_button, GTK_ALIGN_CENTER);
  gtk_widget_set_tooltip_text (self->resume_harvest_button, _("Go on with this harvest where it stopped"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (self->resume_harvest_button), "project.resume-harvest");
  g_signal_connect_object (self->graph, "class-activated", G_CALLBACK (graph_class_activated_cb), self, 0);
  g_signal_connect_object (self->version_dropdown, "notify::selected", G_CALLBACK (version_selected_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->classes_leaflet, "notify::visible-child-name", G_CALLBACK (update_actions), self,
                           G_CONNECT_SWAPPED);
  update_model_stack (self);
  update_actions (self);
}
