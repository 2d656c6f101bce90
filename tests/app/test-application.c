/* test-application.c: the application, run as the workbench runs it.
 *
 * g_application_run() with the window it makes; the tests act on the
 * window from sources of the application's own main loop.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gstdio.h>
#include <sqlite3.h>

#include "cg-application.h"
#include "cg-demo-server.h"
#include "cg-project-page.h"
#include "cg-project.h"
#include "cg-record-store.h"
#include "cg-store.h"
#include "core/cg-test-files.h"
#include "cg-test-widgets.h"
#include "cg-window.h"

typedef struct {
  CgApplication *app;
  CgWindow      *window;
  char          *project_folder;
  gboolean       kept_running;
  CgDemoServer  *server;        /* the site explored, when not the demo's own */
  CgPipeline    *pipeline;      /* the window's, kept past the window */
  const char    *renderer;      /* the command the window's pipeline renders with, or NULL */
} QuitTest;

static gboolean
has_window (gpointer user_data)
{
  QuitTest *test = user_data;

  return gtk_application_get_active_window (GTK_APPLICATION (test->app)) != NULL;
}

/* Waits for the application's window, which test->window then follows
 * until it goes. */
static void
wait_for_window (QuitTest *test)
{
  cg_test_wait_for (has_window, test, "the application's window");
  test->window = CG_WINDOW (gtk_application_get_active_window (GTK_APPLICATION (test->app)));
  g_object_add_weak_pointer (G_OBJECT (test->window), (gpointer *) &test->window);
}

static AdwMessageDialog *
stop_question (QuitTest *test)
{
  return cg_test_find_dialog_headed (GTK_WINDOW (test->window), "Stop the Running Crawl?");
}

/* Waits for the application's window and has it explore the demo site:
 * with nothing running, quitting would not ask. */
static CgProject *
start_demo (QuitTest *test)
{
  CgProject *project;

  wait_for_window (test);

  cg_window_try_demo (test->window);
  cg_test_wait_for ((CgTestCondition) cg_window_is_busy, test->window, "the demo to explore");
  project = cg_project_page_get_project (CG_PROJECT_PAGE (cg_window_get_project_page (test->window)));
  test->project_folder = g_strdup (cg_project_get_folder (project));
  return project;
}

/* Runs only if Cancel left the application running. */
static gboolean
quit_and_stop_cb (gpointer user_data)
{
  QuitTest *test = user_data;
  AdwMessageDialog *dialog;

  test->kept_running = TRUE;
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (test->window)));
  g_assert_true (cg_window_is_busy (test->window));

  /* Asked again, agreeing stops the crawl and quits. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (test->window), "app.quit", NULL));
  dialog = stop_question (test);
  g_assert_nonnull (dialog);
  cg_test_click_response (dialog, "_Stop Crawl");
  return G_SOURCE_REMOVE;
}

static gboolean
quit_and_cancel_cb (gpointer user_data)
{
  QuitTest *test = user_data;
  CgProject *project = start_demo (test);
  g_auto(GStrv) accels = gtk_application_get_accels_for_action (GTK_APPLICATION (test->app), "app.quit");
  AdwMessageDialog *dialog;

  g_assert_cmpstr (accels[0], ==, "<Control>q");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (test->window), "app.quit", NULL));
  dialog = stop_question (test);
  g_assert_nonnull (dialog);
  g_assert_nonnull (strstr (adw_message_dialog_get_body (dialog), cg_project_get_name (project)));
  cg_test_click_response (dialog, "_Cancel");

  /* Had Cancel quit, the application's loop would end before this runs. */
  g_timeout_add (200, quit_and_stop_cb, test);
  return G_SOURCE_REMOVE;
}

/* Everything that had @folder's project open has closed it: the last
 * connection to close copies the write-ahead log into the database and
 * removes it. Work released in the background (the explorer of the crawl
 * just stopped) is over, not left to the exit or to the next application
 * run in this process. */
static void
assert_project_closed (const char *folder)
{
  g_autofree char *log = g_build_filename (folder, CG_PROJECT_DATABASE_NAME "-wal", NULL);

  g_assert_false (g_file_test (log, G_FILE_TEST_EXISTS));
}

/* The state of the newest crawl of @folder's project. */
static char *
newest_crawl_state (const char *folder)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CgProject) project = cg_project_open (folder, &error);
  sqlite3_stmt *stmt;
  char *state;

  g_assert_no_error (error);
  stmt = cg_store_prepare (cg_project_get_store (project), "SELECT state FROM crawls ORDER BY id DESC LIMIT 1", &error);
  g_assert_no_error (error);
  g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
  state = g_strdup ((const char *) sqlite3_column_text (stmt, 0));
  sqlite3_finalize (stmt);
  return state;
}

/* Runs a new application until it quits, with @start_cb called from its
 * main loop, and returns its exit status. */
static int
run_application_with (QuitTest    *test,
                      GSourceFunc  start_cb,
                      const char  *folder)
{
  char *argv[] = { (char *) "cartograph", (char *) folder, NULL };
  int status;

  test->app = cg_application_new ();
  /* A workbench the tester has open must not take the command line. */
  g_application_set_flags (G_APPLICATION (test->app),
                           g_application_get_flags (G_APPLICATION (test->app)) | G_APPLICATION_NON_UNIQUE);
  g_idle_add (start_cb, test);
  status = g_application_run (G_APPLICATION (test->app), folder != NULL ? 2 : 1, argv);
  g_clear_object (&test->app);
  return status;
}

static int
run_application (QuitTest    *test,
                 GSourceFunc  start_cb)
{
  return run_application_with (test, start_cb, NULL);
}

static gboolean
shows_test_project (gpointer user_data)
{
  QuitTest *test = user_data;
  CgProject *project = cg_project_page_get_project (CG_PROJECT_PAGE (cg_window_get_project_page (test->window)));

  return project != NULL && g_str_equal (cg_project_get_folder (project), test->project_folder);
}

static gboolean
quit_when_open_cb (gpointer user_data)
{
  QuitTest *test = user_data;

  wait_for_window (test);
  cg_test_wait_for (shows_test_project, test, "the project given on the command line");
  /* Laid out and drawn, as the crash of a bad argument list showed there. */
  cg_test_iterate ();
  test->kept_running = TRUE;
  g_application_quit (G_APPLICATION (test->app));
  return G_SOURCE_REMOVE;
}

/* "cartograph FOLDER" opens the project in FOLDER. */
static void
test_open_from_command_line (void)
{
  QuitTest test = { 0 };
  g_autoptr(GError) error = NULL;
  g_autoptr(CgTestFolder) dir = cg_test_folder_new ("cg-app-XXXXXX");
  g_autoptr(CgProject) project = NULL;

  test.project_folder = g_build_filename (dir, "given", NULL);
  project = cg_project_create (test.project_folder, "Given", &error);
  g_assert_no_error (error);
  g_assert_cmpint (run_application_with (&test, quit_when_open_cb, test.project_folder), ==, 0);
  g_assert_true (test.kept_running);
  g_clear_object (&project);
  g_free (test.project_folder);
}

/* app.quit (Ctrl+Q) while a crawl runs asks first: Cancel keeps the
 * application and the crawl running; Stop Crawl quits, and the crawl is
 * stopped in order, not left running in the project. */
static void
test_quit_asks (void)
{
  QuitTest test = { 0 };
  g_autofree char *state = NULL;

  g_assert_cmpint (run_application (&test, quit_and_cancel_cb), ==, 0);
  g_assert_true (test.kept_running);
  /* Quitting took the window, and the crawl ended before the exit. */
  g_assert_null (test.window);
  assert_project_closed (test.project_folder);
  state = newest_crawl_state (test.project_folder);
  g_assert_cmpstr (state, ==, "stopped");
  g_free (test.project_folder);
}

static gboolean
close_and_stop_cb (gpointer user_data)
{
  QuitTest *test = user_data;
  AdwMessageDialog *dialog;

  start_demo (test);
  gtk_window_close (GTK_WINDOW (test->window));
  cg_test_iterate ();
  dialog = stop_question (test);
  g_assert_nonnull (dialog);
  cg_test_click_response (dialog, "_Stop Crawl");
  return G_SOURCE_REMOVE;
}

/* Closing the last window while a crawl runs, once the user agreed, ends
 * the application as quitting does: the crawl ends in order first. */
static void
test_close_last_window (void)
{
  QuitTest test = { 0 };
  g_autofree char *state = NULL;

  g_assert_cmpint (run_application (&test, close_and_stop_cb), ==, 0);
  g_assert_null (test.window);
  assert_project_closed (test.project_folder);
  state = newest_crawl_state (test.project_folder);
  g_assert_cmpstr (state, ==, "stopped");
  g_free (test.project_folder);
}

/* The renderer's first progress line, with ten minutes of rendering to
 * come: the application quits there (the question before it is another
 * test's). */
static void
render_progress_cb (CgPipeline *pipeline,
                    const char *class_name,
                    guint       done,
                    guint       total,
                    QuitTest   *test)
{
  if (test->pipeline != NULL)
    return;
  g_assert_cmpint (cg_pipeline_get_stage (pipeline), ==, CG_PIPELINE_RENDERING);
  test->pipeline = g_object_ref (pipeline);
  g_application_quit (G_APPLICATION (test->app));
}

static gboolean
shows_project_folder (gpointer user_data)
{
  QuitTest *test = user_data;
  CgProject *shown = cg_project_page_get_project (CG_PROJECT_PAGE (cg_window_get_project_page (test->window)));

  return shown != NULL && g_str_equal (cg_project_get_folder (shown), test->project_folder);
}

static gboolean
quit_while_rendering_cb (gpointer user_data)
{
  QuitTest *test = user_data;
  g_autoptr(CgCrawlConfig) config = cg_crawl_config_new ();
  g_autoptr(CgProject) created = NULL;
  g_autoptr(GFile) folder = NULL;
  g_autoptr(GError) error = NULL;
  CgLearnerParams params;

  wait_for_window (test);

  /* A small exploration of the demo site, politeness off. */
  test->project_folder = g_build_filename (g_get_home_dir (), "quit-while-rendering", NULL);
  created = cg_project_create (test->project_folder, "Quit", &error);
  g_assert_no_error (error);
  g_clear_object (&created);
  folder = g_file_new_for_path (test->project_folder);
  cg_window_open_project (test->window, folder);
  cg_test_wait_for (shows_project_folder, test, "the project to open");
  g_strfreev (config->seeds);
  config->seeds = g_new0 (char *, 2);
  config->seeds[0] = cg_demo_server_get_url (test->server);
  cg_crawl_config_disable_politeness (config);
  cg_learner_params_init (&params);
  params.max_pages = 40;
  cg_pipeline_set_renderer (cg_project_page_get_pipeline (CG_PROJECT_PAGE (cg_window_get_project_page (test->window))),
                            test->renderer);
  g_assert_true (cg_project_page_explore (CG_PROJECT_PAGE (cg_window_get_project_page (test->window)),
                                          config, &params, FALSE, &error));
  g_assert_no_error (error);
  g_signal_connect (cg_project_page_get_pipeline (CG_PROJECT_PAGE (cg_window_get_project_page (test->window))),
                    "task-progress", G_CALLBACK (render_progress_cb), test);
  return G_SOURCE_REMOVE;
}

/* Quitting while sample pages are rendered (in a process of their own)
 * stops that and waits for it: nothing is left running for the exit to
 * cut off, and the model says its records were not extracted. */
static void
test_quit_while_rendering (void)
{
  QuitTest test = { 0 };
  g_autoptr(CgProject) project = NULL;
  g_autoptr(CgSiteModel) model = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *renderer = g_build_filename (g_get_home_dir (), "slow-renderer.sh", NULL);
  g_auto(GStrv) sites = NULL;
  gboolean extracted = TRUE;

  /* A renderer that would take ten minutes. */
  g_file_set_contents (renderer, "#!/bin/sh\necho 'progress 0 3'\nexec sleep 600\n", -1, &error);
  g_assert_no_error (error);
  g_assert_cmpint (g_chmod (renderer, 0755), ==, 0);
  test.renderer = renderer;
  test.server = cg_demo_server_new ();
  g_assert_true (cg_demo_server_start (test.server, 0, &error));
  g_assert_no_error (error);
  g_assert_cmpint (run_application (&test, quit_while_rendering_cb), ==, 0);
  /* Over when the application's run is: nothing was left to the exit. */
  g_assert_nonnull (test.pipeline);
  g_assert_false (cg_pipeline_is_busy (test.pipeline));
  g_clear_object (&test.pipeline);
  cg_demo_server_stop (test.server);
  g_clear_object (&test.server);
  g_assert_null (test.window);

  project = cg_project_open (test.project_folder, &error);
  g_assert_no_error (error);
  sites = cg_site_model_list_sites (cg_project_get_store (project), &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_strv_length (sites), ==, 1);
  model = cg_site_model_load_latest (cg_project_get_store (project), sites[0], &error);
  g_assert_no_error (error);
  g_assert_true (cg_record_store_is_extracted (cg_project_get_store (project), cg_site_model_get_id (model),
                                               &extracted, &error));
  g_assert_no_error (error);
  g_assert_false (extracted);
  g_free (test.project_folder);
}

int
main (int argc, char **argv)
{
  g_autoptr(CgTestFolder) home = cg_test_init_app (&argc, &argv, FALSE);

  g_test_add_func ("/application/open-from-command-line", test_open_from_command_line);
  g_test_add_func ("/application/quit-asks", test_quit_asks);
  g_test_add_func ("/application/close-last-window", test_close_last_window);
  g_test_add_func ("/application/quit-while-rendering", test_quit_while_rendering);

  return g_test_run ();
}
