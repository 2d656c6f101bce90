/* cg-application.c: the Cartograph application.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "cg-application.h"
#include "cg-crawler.h"
#include "cg-project-page.h"
#include "cg-window.h"

/* How long quitting waits for the work it stopped to end. A crawl ends a
 * few moments after it is told to stop: it cancels its fetches and
 * commits what it archived. One that takes longer is left to exit, and
 * resumes where it was. */
#define STOP_TIMEOUT_S 30

struct _CgApplication
{
  AdwApplication parent_instance;
};

G_DEFINE_FINAL_TYPE (CgApplication, cg_application, ADW_TYPE_APPLICATION)

static CgWindow *
get_or_create_window (CgApplication *self)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (self));

  if (window == NULL)
    window = GTK_WINDOW (cg_window_new (self));
  return CG_WINDOW (window);
}

static void
cg_application_activate (GApplication *app)
{
  gtk_window_present (GTK_WINDOW (get_or_create_window (CG_APPLICATION (app))));
}

static void
cg_application_open (GApplication  *app,
                     GFile        **files,
                     int            n_files,
                     const char    *hint)
{
  CgWindow *window = get_or_create_window (CG_APPLICATION (app));

  if (n_files > 0)
    cg_window_open_project (window, files[0]);
  gtk_window_present (GTK_WINDOW (window));
}

static int
cg_application_handle_local_options (GApplication *app,
                                     GVariantDict *options)
{
  if (g_variant_dict_contains (options, "version"))
    {
      g_print ("cartograph %s\n", PACKAGE_VERSION);
      return 0;
    }
  return -1;
}

static int
cg_application_command_line (GApplication            *app,
                             GApplicationCommandLine *command_line)
{
  GVariantDict *options = g_application_command_line_get_options_dict (command_line);
  g_auto(GStrv) arguments = NULL;
  CgWindow *window;

  window = get_or_create_window (CG_APPLICATION (app));
  gtk_window_present (GTK_WINDOW (window));

  if (g_variant_dict_contains (options, "demo"))
    {
      cg_window_try_demo (window);
      return 0;
    }

  /* "^aay" copies the strings, which the GStrv frees ("^a&ay" would lend
   * them from the options). */
  if (g_variant_dict_lookup (options, G_OPTION_REMAINING, "^aay", &arguments) &&
      arguments != NULL && arguments[0] != NULL)
    {
      g_autoptr(GFile) folder = g_application_command_line_create_file_for_arg (command_line, arguments[0]);

      cg_window_open_project (window, folder);
    }
  return 0;
}

static void
quit_activated (GSimpleAction *action,
                GVariant      *parameter,
                gpointer       user_data)
{
  /* A window where a crawl runs asks first: quitting stops the crawl. */
  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (user_data)); l != NULL; l = l->next)
    if (CG_IS_WINDOW (l->data) && cg_window_is_busy (l->data))
      {
        cg_window_quit (l->data);
        return;
      }
  g_application_quit (G_APPLICATION (user_data));
}

static void
about_activated (GSimpleAction *action,
                 GVariant      *parameter,
                 gpointer       user_data)
{
  GtkApplication *app = GTK_APPLICATION (user_data);
  const char *developers[] = { _("The Cartograph authors"), NULL };

  adw_show_about_window (gtk_application_get_active_window (app),
                         "application-name", _("Cartograph"),
                         "application-icon", APP_ID,
                         "developer-name", _("The Cartograph authors"),
                         "version", PACKAGE_VERSION,
                         "comments", _("Learn how a website is built, extract its records and archive it"),
                         "license-type", GTK_LICENSE_GPL_3_0,
                         "developers", developers,
                         /* Translators: put your name here to be credited. */
                         "translator-credits", _("translator-credits"),
                         NULL);
}

static void
cg_application_startup (GApplication *app)
{
  static const GActionEntry entries[] = {
    { .name = "quit", .activate = quit_activated },
    { .name = "about", .activate = about_activated },
  };
  const char *quit_accels[] = { "<Control>q", NULL };

  G_APPLICATION_CLASS (cg_application_parent_class)->startup (app);

  g_action_map_add_action_entries (G_ACTION_MAP (app), entries, G_N_ELEMENTS (entries), app);
  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "app.quit", quit_accels);
}

static gboolean
wake_up_cb (gpointer user_data)
{
  return G_SOURCE_CONTINUE;
}

/* Runs the main loop until @done holds for @data, or the deadline. */
static void
run_until (GSourceFunc  done,
           gpointer     data,
           gint64       deadline)
{
  /* The work ends in this context, which nothing else iterates now; the
   * timer makes the deadline seen if nothing comes. */
  guint wake_up = g_timeout_add_seconds (1, wake_up_cb, NULL);

  while (!done (data) && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (wake_up);
}

static gboolean
no_window_busy (gpointer data)
{
  for (GList *l = data; l != NULL; l = l->next)
    if (CG_IS_WINDOW (l->data) && cg_window_is_busy (l->data))
      return FALSE;
  return TRUE;
}

static gboolean
nothing_left_running (gpointer data)
{
  return cg_crawler_count_running () == 0 && cg_pipeline_count_releasing () == 0;
}

/* The main loop has ended, by app.quit or with the last window (the user
 * agreed first to stop what ran). What runs is stopped and let end in
 * order before the exit: an exploration saves the model it learned, an
 * extraction stops after its page (a model's records are then marked
 * not all extracted), and each crawl commits what it archived and records
 * that it stopped, instead of being cut off where it was. */
static void
cg_application_shutdown (GApplication *app)
{
  g_autoptr(GList) windows = g_list_copy (gtk_application_get_windows (GTK_APPLICATION (app)));
  gint64 deadline = g_get_monotonic_time () + STOP_TIMEOUT_S * G_USEC_PER_SEC;

  for (GList *l = windows; l != NULL; l = l->next)
    if (CG_IS_WINDOW (l->data))
      cg_project_page_stop (CG_PROJECT_PAGE (cg_window_get_project_page (l->data)));
  run_until (no_window_busy, windows, deadline);
  for (GList *l = windows; l != NULL; l = l->next)
    gtk_window_destroy (l->data);
  /* Finished work is released in the background, holding its project's
   * database open until it is (see cg_pipeline_count_releasing()). */
  run_until (nothing_left_running, NULL, deadline);
  if (cg_crawler_count_running () > 0)
    g_warning ("A crawl did not stop within %d s of quitting; it resumes where it was", STOP_TIMEOUT_S);

  G_APPLICATION_CLASS (cg_application_parent_class)->shutdown (app);
}

static void
cg_application_class_init (CgApplicationClass *klass)
{
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  app_class->activate = cg_application_activate;
  app_class->open = cg_application_open;
  app_class->startup = cg_application_startup;
  app_class->shutdown = cg_application_shutdown;
  app_class->command_line = cg_application_command_line;
  app_class->handle_local_options = cg_application_handle_local_options;
}

static void
cg_application_init (CgApplication *self)
{
  const GOptionEntry entries[] = {
    { "demo", 0, 0, G_OPTION_ARG_NONE, NULL, N_("Start the bundled demo site and explore it"), NULL },
    { "version", 0, 0, G_OPTION_ARG_NONE, NULL, N_("Print the version and exit"), NULL },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, NULL, NULL, N_("[PROJECT]") },
    { NULL }
  };

  g_application_add_main_option_entries (G_APPLICATION (self), entries);
}

CgApplication *
cg_application_new (void)
{
  return g_object_new (CG_TYPE_APPLICATION,
                       "application-id", APP_ID,
                       "flags", G_APPLICATION_HANDLES_COMMAND_LINE | G_APPLICATION_HANDLES_OPEN,
                       "resource-base-path", "/io/github/cartograph/Cartograph",
                       NULL);
}
