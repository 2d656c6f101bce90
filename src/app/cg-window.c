/* cg-window.c: the workbench's main window.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "cg-demo-server.h"
#include "cg-new-crawl-dialog.h"
#include "cg-preferences-window.h"
#include "cg-project.h"
#include "cg-project-page.h"
#include "cg-recent-projects.h"
#include "cg-window.h"

/* The demo server prefers a fixed port so that the demo project's stored
 * addresses stay valid from one run to the next; another free port is
 * taken when this one is busy. */
#define DEMO_PREFERRED_PORT 8642

/* The demo site is served from a thread of its own: an exploration
 * without politeness asks for pages as fast as it can, and serving them
 * from the main loop would keep the window from answering. The window
 * does not wait for the thread to listen either: making the demo site
 * takes tens of milliseconds, during which the window would stand still
 * (issue 8); the thread tells the window's main context instead. */
typedef struct {
  GThread      *thread;
  GMainContext *context;
  GMainLoop    *loop;
  GMutex        lock;
  gboolean      ready;
  char         *url;      /* set once it listens */
  GError       *error;    /* set when it could not */
  GMainContext *window_context;
  GWeakRef     *window;   /* handed to demo_ready_cb, on window_context */
} DemoThread;

static gboolean demo_ready_cb (gpointer user_data);

static void
free_weak_ref (gpointer user_data)
{
  GWeakRef *ref = user_data;

  g_weak_ref_clear (ref);
  g_free (ref);
}

static gpointer
demo_thread_main (gpointer user_data)
{
  DemoThread *demo = user_data;
  g_autoptr(CgDemoServer) server = cg_demo_server_new ();
  GError *error = NULL;
  gboolean ok;

  g_main_context_push_thread_default (demo->context);
  ok = cg_demo_server_start (server, DEMO_PREFERRED_PORT, NULL) || cg_demo_server_start (server, 0, &error);

  g_mutex_lock (&demo->lock);
  if (ok)
    demo->url = cg_demo_server_get_url (server);
  demo->error = error;
  demo->ready = TRUE;
  g_mutex_unlock (&demo->lock);
  g_main_context_invoke_full (demo->window_context, G_PRIORITY_DEFAULT, demo_ready_cb,
                              g_steal_pointer (&demo->window), free_weak_ref);

  if (ok)
    {
      g_main_loop_run (demo->loop);
      cg_demo_server_stop (server);
    }
  g_main_context_pop_thread_default (demo->context);
  return NULL;
}

static DemoThread *
demo_thread_start (CgWindow *window)
{
  DemoThread *demo = g_new0 (DemoThread, 1);

  g_mutex_init (&demo->lock);
  demo->context = g_main_context_new ();
  demo->loop = g_main_loop_new (demo->context, FALSE);
  demo->window_context = g_main_context_ref_thread_default ();
  demo->window = g_new0 (GWeakRef, 1);
  g_weak_ref_init (demo->window, window);
  demo->thread = g_thread_new ("cg-demo-server", demo_thread_main, demo);
  return demo;
}

/* Whether the thread is done starting; @out_url gets its address if it
 * listens, @error why not if it does not. */
static gboolean
demo_thread_is_ready (DemoThread  *demo,
                      char       **out_url,
                      GError     **error)
{
  gboolean ready;

  g_mutex_lock (&demo->lock);
  ready = demo->ready;
  if (ready && out_url != NULL)
    *out_url = g_strdup (demo->url);
  if (ready && demo->url == NULL && error != NULL)
    *error = g_error_copy (demo->error);
  g_mutex_unlock (&demo->lock);
  return ready;
}

static gboolean
quit_loop_cb (gpointer user_data)
{
  g_main_loop_quit (user_data);
  return G_SOURCE_REMOVE;
}

static void
demo_thread_stop (DemoThread *demo)
{
  /* A source on the thread's context rather than g_main_loop_quit(),
   * which would be lost if the thread had not started its loop yet. */
  GSource *quit = g_idle_source_new ();

  g_source_set_callback (quit, quit_loop_cb, demo->loop, NULL);
  g_source_attach (quit, demo->context);
  g_source_unref (quit);
  g_thread_join (demo->thread);
  g_main_loop_unref (demo->loop);
  g_main_context_unref (demo->context);
  g_main_context_unref (demo->window_context);
  if (demo->window != NULL)
    free_weak_ref (demo->window);
  g_mutex_clear (&demo->lock);
  g_clear_error (&demo->error);
  g_free (demo->url);
  g_free (demo);
}

struct _CgWindow
{
  AdwApplicationWindow parent_instance;

  GSettings     *settings;
  DemoThread    *demo;
  gboolean       demo_wanted;   /* Try the Demo waits for the server */
  gboolean       close_confirmed;  /* the user agreed to stop what runs */

  AdwToastOverlay *toast_overlay;
  AdwViewSwitcherTitle *switcher_title;
  AdwViewSwitcherBar   *switcher_bar;
  GtkWidget       *back_button;
  GtkStack        *stack;
  AdwPreferencesGroup *recent_group;
  GtkListBox      *recent_list;
  CgProjectPage   *project_page;
  AdwStatusPage   *opening_page;
  GtkSpinner      *opening_spinner;

  /* A project opening in a worker thread (see open_project_now()), and
   * the page shown before, to go back to if the user cancels. */
  GCancellable    *opening;
  char            *page_before_opening;
};

G_DEFINE_FINAL_TYPE (CgWindow, cg_window, ADW_TYPE_APPLICATION_WINDOW)

void
cg_window_show_toast (CgWindow   *self,
                      const char *message)
{
  g_return_if_fail (CG_IS_WINDOW (self));
  adw_toast_overlay_add_toast (self->toast_overlay, adw_toast_new (message));
}

void
cg_window_show_error (CgWindow   *self,
                      const char *heading,
                      const char *body)
{
  GtkWidget *dialog;

  g_return_if_fail (CG_IS_WINDOW (self));

  /* A toast shows one line for a few seconds: an error that stopped what
   * the user asked for stays until it is read, whole. */
  dialog = adw_message_dialog_new (GTK_WINDOW (self), heading, body);
  adw_message_dialog_add_response (ADW_MESSAGE_DIALOG (dialog), "close", _("_Close"));
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "close");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "close");
  gtk_window_present (GTK_WINDOW (dialog));
}

/* The switcher moves to the bottom bar when the window is too narrow for
 * it in the header bar (the title shows instead), as the HIG has it. */
static void
update_switcher_bar_cb (CgWindow *self)
{
  gboolean on_project = g_strcmp0 (gtk_stack_get_visible_child_name (self->stack), "project") == 0;

  adw_view_switcher_bar_set_reveal (self->switcher_bar,
                                    on_project && adw_view_switcher_title_get_title_visible (self->switcher_title));
}

static void
show_start (CgWindow *self)
{
  gtk_stack_set_visible_child_name (self->stack, "start");
  gtk_widget_set_visible (self->back_button, FALSE);
  adw_view_switcher_title_set_view_switcher_enabled (self->switcher_title, FALSE);
  adw_view_switcher_title_set_title (self->switcher_title, _("Cartograph"));
  adw_view_switcher_title_set_subtitle (self->switcher_title, NULL);
  update_switcher_bar_cb (self);
}

static void
reload_recent_projects (CgWindow *self)
{
  g_auto(GStrv) folders = cg_recent_projects_list (self->settings);
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->recent_list))) != NULL)
    gtk_list_box_remove (self->recent_list, child);

  for (guint i = 0; folders[i] != NULL; i++)
    {
      GtkWidget *row = adw_action_row_new ();
      g_autofree char *name = cg_recent_projects_get_name (self->settings, folders[i]);

      /* A folder kept before names were: its own name until it is opened. */
      if (name == NULL || *name == '\0')
        {
          g_free (name);
          name = g_path_get_basename (folders[i]);
        }

      adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), name);
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), folders[i]);
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), gtk_image_new_from_icon_name ("go-next-symbolic"));
      gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), TRUE);
      g_object_set_data_full (G_OBJECT (row), "folder", g_strdup (folders[i]), g_free);
      gtk_list_box_append (self->recent_list, row);
    }
  gtk_widget_set_visible (GTK_WIDGET (self->recent_group), folders[0] != NULL);
}

/* The project page, as it is, with its project in the header. */
static void
show_project_page (CgWindow *self)
{
  CgProject *project = cg_project_page_get_project (self->project_page);

  gtk_stack_set_visible_child_name (self->stack, "project");
  gtk_widget_set_visible (self->back_button, TRUE);
  adw_view_switcher_title_set_view_switcher_enabled (self->switcher_title, TRUE);
  adw_view_switcher_title_set_title (self->switcher_title, cg_project_get_name (project));
  adw_view_switcher_title_set_subtitle (self->switcher_title, cg_project_get_folder (project));
  update_switcher_bar_cb (self);
}

/* Forgets the project opening in the worker thread, if one is, whose
 * result is then dropped when it comes. */
static void
drop_opening (CgWindow *self)
{
  if (self->opening == NULL)
    return;
  g_cancellable_cancel (self->opening);
  g_clear_object (&self->opening);
  g_clear_pointer (&self->page_before_opening, g_free);
  gtk_spinner_stop (self->opening_spinner);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.cancel-open", FALSE);
}

static void
show_project (CgWindow   *self,
              CgProject  *project,
              const char *site_url)
{
  /* Another project shown meanwhile (the demo) wins over one opening. */
  drop_opening (self);
  cg_project_page_set_project (self->project_page, project);
  cg_project_page_set_site_url (self->project_page, site_url);
  show_project_page (self);

  cg_recent_projects_add (self->settings, cg_project_get_folder (project), cg_project_get_name (project));
  reload_recent_projects (self);
}

/* Something to do once the user has agreed to leave the project whose
 * crawl is running (see leave_project_then()). */
typedef void (*LeaveFunc) (CgWindow *self,
                           gpointer  data);

typedef struct {
  CgWindow       *self;
  LeaveFunc       func;
  gpointer        data;
  GDestroyNotify  free_data;
} Leave;

static void
leave_free (Leave *leave)
{
  if (leave->free_data != NULL)
    leave->free_data (leave->data);
  g_object_unref (leave->self);
  g_free (leave);
}

static void
leave_closure_notify (gpointer  data,
                      GClosure *closure)
{
  leave_free (data);
}

static void
leave_response_cb (AdwMessageDialog *dialog,
                   const char       *response,
                   Leave            *leave)
{
  if (g_str_equal (response, "stop"))
    leave->func (leave->self, leave->data);
}

/* Whether a crawl, an exploration or a harvest runs on the shown project. */
static gboolean
project_is_busy (CgWindow *self)
{
  CgPipeline *pipeline = cg_project_page_get_pipeline (self->project_page);

  return cg_project_page_get_project (self->project_page) != NULL && pipeline != NULL &&
         cg_pipeline_is_busy (pipeline);
}

/* Calls @func, which leaves the shown project (another project opens, or
 * the window closes), at once when nothing runs on it or when @folder is
 * the shown project's own folder; otherwise once the user has agreed to
 * stop what runs. Leaving stops it, keeping what it archived: nothing is
 * stopped without asking. @data is freed with @free_data either way. */
static void
leave_project_then (CgWindow       *self,
                    const char     *folder,
                    LeaveFunc       func,
                    gpointer        data,
                    GDestroyNotify  free_data)
{
  CgProject *shown = cg_project_page_get_project (self->project_page);
  Leave *leave;
  GtkWidget *dialog;

  if (!project_is_busy (self) || (folder != NULL && g_str_equal (cg_project_get_folder (shown), folder)))
    {
      func (self, data);
      if (free_data != NULL)
        free_data (data);
      return;
    }
  leave = g_new0 (Leave, 1);
  leave->self = g_object_ref (self);
  leave->func = func;
  leave->data = data;
  leave->free_data = free_data;
  dialog = adw_message_dialog_new (GTK_WINDOW (self), _("Stop the Running Crawl?"), NULL);
  adw_message_dialog_format_body (ADW_MESSAGE_DIALOG (dialog),
                                  /* Translators: %s is the name of a project. */
                                  _("A crawl is still running on “%s”. Stopping it keeps what it has "
                                    "archived so far."),
                                  cg_project_get_name (shown));
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog),
                                    "cancel", _("_Cancel"),
                                    "stop", _("_Stop Crawl"),
                                    NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "stop", ADW_RESPONSE_DESTRUCTIVE);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  /* Whatever the answer, or none if the window goes first, what was to
   * be done is freed with the dialog. */
  gtk_window_set_destroy_with_parent (GTK_WINDOW (dialog), TRUE);
  g_signal_connect_data (dialog, "response", G_CALLBACK (leave_response_cb), leave, leave_closure_notify, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

/* The project the page shows already, when it is the same folder, so
 * that opening it again does not stop what runs on it. */
static CgProject *
open_project_folder (CgWindow    *self,
                     const char  *folder,
                     const char  *new_name,
                     GError     **error)
{
  CgProject *shown = cg_project_page_get_project (self->project_page);

  if (shown != NULL && g_str_equal (cg_project_get_folder (shown), folder))
    return g_object_ref (shown);
  if (new_name != NULL && !cg_project_is_project_folder (folder))
    return cg_project_create (folder, new_name, error);
  return cg_project_open (folder, error);
}

/* Back to the page shown before a project started opening. */
static void
end_opening (CgWindow *self)
{
  gboolean back_to_project = g_strcmp0 (self->page_before_opening, "project") == 0 &&
                             cg_project_page_get_project (self->project_page) != NULL;

  drop_opening (self);
  if (back_to_project)
    show_project_page (self);
  else
    show_start (self);
}

static void
project_opened_cb (GObject      *source,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(CgWindow) self = user_data;
  g_autoptr(CgProject) project = NULL;
  g_autoptr(GError) error = NULL;

  project = cg_project_open_finish (result, &error);
  /* Cancelled: the user is back where they were already. */
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  end_opening (self);
  if (project == NULL)
    {
      cg_window_show_error (self, _("Cannot Open the Project"), error->message);
      return;
    }
  show_project (self, project, NULL);
}

static void
open_project_now (CgWindow *self,
                  gpointer  data)
{
  const char *path = data;
  CgProject *shown = cg_project_page_get_project (self->project_page);
  g_autofree char *name = g_path_get_basename (path);

  /* Opening the shown project again shows it, and stops nothing. */
  if (shown != NULL && g_str_equal (cg_project_get_folder (shown), path))
    {
      show_project_page (self);
      return;
    }

  /* Opening checks the whole database: seconds on a large project, in a
   * worker thread while the window shows it and offers to cancel. */
  if (self->opening != NULL)
    g_cancellable_cancel (self->opening);
  else
    self->page_before_opening = g_strdup (gtk_stack_get_visible_child_name (self->stack));
  g_clear_object (&self->opening);
  self->opening = g_cancellable_new ();
  adw_status_page_set_description (self->opening_page, path);
  gtk_stack_set_visible_child_name (self->stack, "opening");
  gtk_widget_set_visible (self->back_button, FALSE);
  adw_view_switcher_title_set_view_switcher_enabled (self->switcher_title, FALSE);
  adw_view_switcher_title_set_title (self->switcher_title, name);
  adw_view_switcher_title_set_subtitle (self->switcher_title, path);
  update_switcher_bar_cb (self);
  gtk_spinner_start (self->opening_spinner);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.cancel-open", TRUE);
  cg_project_open_async (path, self->opening, project_opened_cb, g_object_ref (self));
}

static void
cancel_open_activated (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  CgWindow *self = CG_WINDOW (widget);

  if (self->opening != NULL)
    end_opening (self);
}

void
cg_window_open_project (CgWindow *self,
                        GFile    *folder)
{
  g_autofree char *path = g_file_get_path (folder);

  g_return_if_fail (CG_IS_WINDOW (self));

  if (path == NULL)
    {
      g_autofree char *uri = g_file_get_uri (folder);
      g_autofree char *message = g_strdup_printf (_("“%s” is not a local folder: projects must be local folders."), uri);

      cg_window_show_error (self, _("Cannot Open the Project"), message);
      return;
    }
  leave_project_then (self, path, open_project_now, g_steal_pointer (&path), g_free);
}

static gboolean
project_has_model_of (CgProject  *project,
                      const char *site)
{
  g_autoptr(CgSiteModel) model = cg_site_model_load_latest (cg_project_get_store (project), site, NULL);

  return model != NULL;
}

/* The demo site is served from this process on 127.0.0.1, so its crawls
 * need no politeness; they still wait a little between requests, one at a
 * time, so that a harvest of the demo lasts long enough to be watched,
 * paused and stopped (about a minute). robots.txt, JavaScript and the
 * sample size follow the preferences like any other crawl's. */
#define DEMO_DELAY_S 0.05

static CgCrawlConfig *
demo_crawl_config (CgWindow   *self,
                   const char *url)
{
  CgCrawlConfig *config = cg_crawl_config_new ();
  g_autofree char *contact = g_settings_get_string (self->settings, "user-agent-contact");
  g_autofree char *problem = NULL;

  g_strfreev (config->seeds);
  config->seeds = g_new0 (char *, 2);
  config->seeds[0] = g_strdup (url);
  config->obey_robots = g_settings_get_boolean (self->settings, "respect-robots");
  /* A contact stored before Preferences checked it, which every crawl
   * would refuse, is left out: the demo's server is local, and
   * Preferences shows what is wrong with it. */
  problem = cg_new_crawl_dialog_validate_contact (contact);
  if (*contact != '\0' && problem == NULL)
    config->contact = g_steal_pointer (&contact);
  cg_crawl_config_disable_politeness (config);
  config->min_delay = DEMO_DELAY_S;
  config->max_delay = DEMO_DELAY_S;
  config->max_per_host = 1;
  return config;
}

static char *
demo_folder (void)
{
  return g_build_filename (g_get_user_data_dir (), "cartograph", "demo", NULL);
}

/* Opens the demo project once its site is served at @url (see open_demo()). */
static void
open_demo_now (CgWindow *self,
               gpointer  data)
{
  const char *url = data;
  g_autoptr(GError) error = NULL;
  g_autoptr(CgProject) project = NULL;
  g_autofree char *folder = NULL;
  g_autofree char *message = NULL;

  folder = demo_folder ();
  project = open_project_folder (self, folder, _("Demo Bookshop"), &error);
  if (project == NULL)
    {
      cg_window_show_error (self, _("Cannot Open the Demo"), error->message);
      return;
    }

  show_project (self, project, url);
  /* Translators: %s is the address of the demo site, such as http://127.0.0.1:8642/. */
  message = g_strdup_printf (_("The demo site is running at %s"), url);
  cg_window_show_toast (self, message);

  /* A demo explored before opens on its model; a new one is explored at
   * once, and nothing starts while something runs on the project. */
  if (!project_has_model_of (project, url) &&
      !cg_pipeline_is_busy (cg_project_page_get_pipeline (self->project_page)))
    {
      g_autoptr(CgCrawlConfig) config = demo_crawl_config (self, url);
      CgLearnerParams params;

      cg_learner_params_init (&params);
      params.max_pages = g_settings_get_uint (self->settings, "sample-size");
      if (!cg_project_page_explore (self->project_page, config, &params,
                                    g_settings_get_boolean (self->settings, "javascript"), &error))
        cg_window_show_error (self, _("Cannot Explore the Demo Site"), error->message);
    }
}

static void
open_demo (CgWindow   *self,
           const char *url)
{
  g_autofree char *folder = demo_folder ();

  leave_project_then (self, folder, open_demo_now, g_strdup (url), g_free);
}

static gboolean
demo_ready_cb (gpointer user_data)
{
  g_autoptr(CgWindow) self = g_weak_ref_get (user_data);
  g_autoptr(GError) error = NULL;
  g_autofree char *url = NULL;

  if (self == NULL || self->demo == NULL || !self->demo_wanted ||
      !demo_thread_is_ready (self->demo, &url, &error))
    return G_SOURCE_REMOVE;
  self->demo_wanted = FALSE;
  if (url == NULL)
    {
      /* The thread is over; the next try starts another. */
      g_clear_pointer (&self->demo, demo_thread_stop);
      cg_window_show_error (self, _("Cannot Start the Demo"), error->message);
      return G_SOURCE_REMOVE;
    }
  open_demo (self, url);
  return G_SOURCE_REMOVE;
}

void
cg_window_try_demo (CgWindow *self)
{
  g_autofree char *url = NULL;

  g_return_if_fail (CG_IS_WINDOW (self));

  /* A server that could not listen before is tried again. */
  if (self->demo != NULL && demo_thread_is_ready (self->demo, &url, NULL) && url == NULL)
    g_clear_pointer (&self->demo, demo_thread_stop);
  g_clear_pointer (&url, g_free);
  /* The demo opens once its server listens: now if it already does, else
   * from demo_ready_cb. */
  if (self->demo == NULL)
    self->demo = demo_thread_start (self);
  self->demo_wanted = TRUE;
  if (!demo_thread_is_ready (self->demo, &url, NULL) || url == NULL)
    return;
  self->demo_wanted = FALSE;
  open_demo (self, url);
}

static void
recent_row_activated_cb (CgWindow      *self,
                         GtkListBoxRow *row)
{
  const char *folder = g_object_get_data (G_OBJECT (row), "folder");
  g_autoptr(GFile) file = NULL;

  if (folder == NULL)
    return;
  file = g_file_new_for_path (folder);
  cg_window_open_project (self, file);
}

static void
show_created_project_now (CgWindow *self,
                          gpointer  data)
{
  g_autoptr(GError) error = NULL;

  show_project (self, data, NULL);
  /* The dialog recorded the exploration's settings; it starts now. */
  if (!cg_project_page_explore_stored (self->project_page, &error))
    cg_window_show_error (self, _("Cannot Explore the Site"), error->message);
  else
    cg_window_show_toast (self, _("Project created: exploring the site"));
}

static void
project_created_cb (CgNewCrawlDialog *dialog,
                    CgProject        *project,
                    CgWindow         *self)
{
  /* Listed at once, so that it is at hand even if the user keeps the
   * running crawl of the project shown. */
  cg_recent_projects_add (self->settings, cg_project_get_folder (project), cg_project_get_name (project));
  reload_recent_projects (self);
  leave_project_then (self, cg_project_get_folder (project), show_created_project_now, g_object_ref (project),
                      g_object_unref);
}

static void
new_crawl_activated (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  CgWindow *self = CG_WINDOW (widget);
  CgNewCrawlDialog *dialog = cg_new_crawl_dialog_new (GTK_WINDOW (self));

  g_signal_connect_object (dialog, "project-created", G_CALLBACK (project_created_cb), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

G_GNUC_BEGIN_IGNORE_DEPRECATIONS
static void
open_project_response_cb (GtkNativeDialog *chooser,
                          int              response,
                          CgWindow        *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) folder = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));

      cg_window_open_project (self, folder);
    }
  gtk_native_dialog_destroy (chooser);
  g_object_unref (chooser);
}

/* GtkFileDialog arrives in GTK 4.10 and Debian 12 has 4.8. */
static void
open_project_activated (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *parameter)
{
  CgWindow *self = CG_WINDOW (widget);
  GtkFileChooserNative *chooser;

  chooser = gtk_file_chooser_native_new (_("Open Project"),
                                         GTK_WINDOW (self),
                                         GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER,
                                         _("_Open"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  g_signal_connect (chooser, "response", G_CALLBACK (open_project_response_cb), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}
G_GNUC_END_IGNORE_DEPRECATIONS

static void
try_demo_activated (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  cg_window_try_demo (CG_WINDOW (widget));
}

static void
show_start_activated (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  show_start (CG_WINDOW (widget));
}

/* Alt+Left, wherever the focus is: one step back within the project
 * page if it has one (an archived page, a class), else the start page. */
static void
back_activated (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  CgWindow *self = CG_WINDOW (widget);

  if (g_strcmp0 (gtk_stack_get_visible_child_name (self->stack), "start") != 0 &&
      cg_project_page_go_back (self->project_page))
    return;
  show_start (self);
}

static void
toast_activated (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  cg_window_show_toast (CG_WINDOW (widget), g_variant_get_string (parameter, NULL));
}

static void
error_activated (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  const char *heading, *body;

  g_variant_get (parameter, "(&s&s)", &heading, &body);
  cg_window_show_error (CG_WINDOW (widget), heading, body);
}

static void
preferences_activated (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  GtkWindow *preferences = GTK_WINDOW (cg_preferences_window_new (GTK_WINDOW (widget)));

  gtk_window_present (preferences);
}

static gboolean
on_project_page (CgWindow *self)
{
  return g_strcmp0 (gtk_stack_get_visible_child_name (self->stack), "project") == 0;
}

static void
pause_crawl_activated (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  CgWindow *self = CG_WINDOW (widget);

  if (on_project_page (self))
    cg_project_page_toggle_pause (self->project_page);
}

static void
stop_crawl_activated (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  CgWindow *self = CG_WINDOW (widget);

  if (on_project_page (self))
    cg_project_page_stop (self->project_page);
}

static void
show_view_activated (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  CgWindow *self = CG_WINDOW (widget);

  if (on_project_page (self))
    cg_project_page_show_view (self->project_page, g_variant_get_string (parameter, NULL));
}

/* AdwStyleManager follows the system unless the preference forces a
 * scheme. */
static void
color_scheme_changed_cb (CgWindow *self)
{
  g_autofree char *scheme = g_settings_get_string (self->settings, "color-scheme");
  AdwColorScheme color_scheme = ADW_COLOR_SCHEME_DEFAULT;

  if (g_str_equal (scheme, "light"))
    color_scheme = ADW_COLOR_SCHEME_FORCE_LIGHT;
  else if (g_str_equal (scheme, "dark"))
    color_scheme = ADW_COLOR_SCHEME_FORCE_DARK;
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), color_scheme);
}

GtkWidget *
cg_window_get_project_page (CgWindow *self)
{
  g_return_val_if_fail (CG_IS_WINDOW (self), NULL);
  return GTK_WIDGET (self->project_page);
}

char *
cg_window_get_demo_url (CgWindow *self)
{
  g_autofree char *url = NULL;

  g_return_val_if_fail (CG_IS_WINDOW (self), NULL);
  if (self->demo == NULL || !demo_thread_is_ready (self->demo, &url, NULL))
    return NULL;
  return g_steal_pointer (&url);
}

static void
close_now (CgWindow *self,
           gpointer  data)
{
  self->close_confirmed = TRUE;
  gtk_window_close (GTK_WINDOW (self));
}

static void
quit_now (CgWindow *self,
          gpointer  data)
{
  g_application_quit (g_application_get_default ());
}

gboolean
cg_window_is_busy (CgWindow *self)
{
  g_return_val_if_fail (CG_IS_WINDOW (self), FALSE);
  return project_is_busy (self);
}

void
cg_window_quit (CgWindow *self)
{
  g_return_if_fail (CG_IS_WINDOW (self));
  leave_project_then (self, NULL, quit_now, NULL, NULL);
}

static gboolean
cg_window_close_request (GtkWindow *window)
{
  CgWindow *self = CG_WINDOW (window);
  int width, height;

  gtk_window_get_default_size (window, &width, &height);
  g_settings_set_int (self->settings, "window-width", width);
  g_settings_set_int (self->settings, "window-height", height);
  g_settings_set_boolean (self->settings, "window-maximized", gtk_window_is_maximized (window));

  if (!self->close_confirmed && project_is_busy (self))
    {
      leave_project_then (self, NULL, close_now, NULL, NULL);
      return TRUE;
    }
  return GTK_WINDOW_CLASS (cg_window_parent_class)->close_request (window);
}

static void
cg_window_dispose (GObject *object)
{
  CgWindow *self = CG_WINDOW (object);

  g_clear_pointer (&self->demo, demo_thread_stop);
  if (self->opening != NULL)
    g_cancellable_cancel (self->opening);
  g_clear_object (&self->opening);
  g_clear_pointer (&self->page_before_opening, g_free);
  g_clear_object (&self->settings);

  G_OBJECT_CLASS (cg_window_parent_class)->dispose (object);
}

static void
cg_window_class_init (CgWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->dispose = cg_window_dispose;
  window_class->close_request = cg_window_close_request;

  g_type_ensure (CG_TYPE_PROJECT_PAGE);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/cartograph/Cartograph/cg-window.ui");
  gtk_widget_class_bind_template_child (widget_class, CgWindow, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, CgWindow, switcher_title);
  gtk_widget_class_bind_template_child (widget_class, CgWindow, switcher_bar);
  gtk_widget_class_bind_template_child (widget_class, CgWindow, back_button);
  gtk_widget_class_bind_template_child (widget_class, CgWindow, stack);
  gtk_widget_class_bind_template_child (widget_class, CgWindow, recent_group);
  gtk_widget_class_bind_template_child (widget_class, CgWindow, recent_list);
  gtk_widget_class_bind_template_child (widget_class, CgWindow, project_page);
  gtk_widget_class_bind_template_child (widget_class, CgWindow, opening_page);
  gtk_widget_class_bind_template_child (widget_class, CgWindow, opening_spinner);
  gtk_widget_class_bind_template_callback (widget_class, recent_row_activated_cb);
  gtk_widget_class_bind_template_callback (widget_class, update_switcher_bar_cb);

  gtk_widget_class_install_action (widget_class, "win.new-crawl", NULL, new_crawl_activated);
  gtk_widget_class_install_action (widget_class, "win.open-project", NULL, open_project_activated);
  gtk_widget_class_install_action (widget_class, "win.try-demo", NULL, try_demo_activated);
  gtk_widget_class_install_action (widget_class, "win.show-start", NULL, show_start_activated);
  gtk_widget_class_install_action (widget_class, "win.back", NULL, back_activated);
  gtk_widget_class_install_action (widget_class, "win.toast", "s", toast_activated);
  gtk_widget_class_install_action (widget_class, "win.error", "(ss)", error_activated);
  gtk_widget_class_install_action (widget_class, "win.cancel-open", NULL, cancel_open_activated);
  gtk_widget_class_install_action (widget_class, "win.preferences", NULL, preferences_activated);
  gtk_widget_class_install_action (widget_class, "win.pause-crawl", NULL, pause_crawl_activated);
  gtk_widget_class_install_action (widget_class, "win.stop-crawl", NULL, stop_crawl_activated);
  gtk_widget_class_install_action (widget_class, "win.show-view", "s", show_view_activated);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_n, GDK_CONTROL_MASK, "win.new-crawl", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_o, GDK_CONTROL_MASK, "win.open-project", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Left, GDK_ALT_MASK, "win.back", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "win.cancel-open", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_comma, GDK_CONTROL_MASK, "win.preferences", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_p, GDK_CONTROL_MASK, "win.pause-crawl", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_period, GDK_CONTROL_MASK, "win.stop-crawl", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_1, GDK_ALT_MASK, "win.show-view", "s", "model");
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_2, GDK_ALT_MASK, "win.show-view", "s", "classes");
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_3, GDK_ALT_MASK, "win.show-view", "s", "crawl");
}

static void
cg_window_init (CgWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.cancel-open", FALSE);

  self->settings = g_settings_new (APP_ID);
  gtk_window_set_default_size (GTK_WINDOW (self),
                               g_settings_get_int (self->settings, "window-width"),
                               g_settings_get_int (self->settings, "window-height"));
  if (g_settings_get_boolean (self->settings, "window-maximized"))
    gtk_window_maximize (GTK_WINDOW (self));
  g_signal_connect_object (self->settings, "changed::color-scheme", G_CALLBACK (color_scheme_changed_cb), self,
                           G_CONNECT_SWAPPED);
  color_scheme_changed_cb (self);

  adw_view_switcher_title_set_stack (self->switcher_title, cg_project_page_get_view_stack (self->project_page));
  adw_view_switcher_bar_set_stack (self->switcher_bar, cg_project_page_get_view_stack (self->project_page));

  reload_recent_projects (self);
  show_start (self);
}

CgWindow *
cg_window_new (CgApplication *application)
{
  return g_object_new (CG_TYPE_WINDOW, "application", application, NULL);
}
