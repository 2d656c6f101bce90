/* test-crawl-lock.c: one process at a time runs a crawl.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "cg-crawl-lock.h"
#include "cg-test-files.h"

static char *project_folder;

/* The child process of test_other_process(): the parent holds crawl 1. */
static void
take_held_lock (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CgProject) project = cg_project_open (project_folder, &error);
  g_autoptr(CgCrawlLock) lock = NULL;
  g_autoptr(CgCrawlLock) other = NULL;
  g_autofree char *holder = g_strdup_printf ("in another process (%d)", (int) getppid ());

  g_assert_no_error (error);
  lock = cg_crawl_lock_acquire (project, 1, &error);
  g_assert_null (lock);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_BUSY);
  g_assert_nonnull (strstr (error->message, "Crawl 1 of"));
  g_assert_nonnull (strstr (error->message, holder));
  g_clear_error (&error);

  /* Nothing else may start on the project meanwhile, and is told why. */
  g_assert_false (cg_crawl_lock_check_none_running (project, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_BUSY);
  g_assert_nonnull (strstr (error->message, "Crawl 1 of"));
  g_assert_nonnull (strstr (error->message, holder));
  g_clear_error (&error);

  /* Another crawl of the project is free. */
  other = cg_crawl_lock_acquire (project, 2, &error);
  g_assert_no_error (error);
  g_assert_nonnull (other);
}

/* The child once the parent has let go. */
static void
take_free_lock (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CgProject) project = cg_project_open (project_folder, &error);
  g_autoptr(CgCrawlLock) lock = NULL;

  g_assert_no_error (error);
  /* Recorded as running, but no process runs it. */
  g_assert_true (cg_crawl_lock_check_none_running (project, &error));
  g_assert_no_error (error);
  lock = cg_crawl_lock_acquire (project, 1, &error);
  g_assert_no_error (error);
  g_assert_nonnull (lock);
}

/* A crawl locked by this process cannot be locked by another, which is
 * told who holds it; the lock goes with the last holder in this process,
 * which may be two (a harvest and its crawler). */
static void
test_other_process (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CgProject) project = NULL;
  CgCrawlLock *harvest_lock, *crawler_lock;

  if (g_test_subprocess ())
    {
      if (g_strcmp0 (g_getenv ("CG_TEST_LOCK_STEP"), "held") == 0)
        take_held_lock ();
      else
        take_free_lock ();
      return;
    }

  project_folder = cg_test_folder_new ("cg-crawl-lock-XXXXXX");
  /* The child processes run this function again, and find it here. */
  g_setenv ("CG_TEST_LOCK_FOLDER", project_folder, TRUE);
  project = cg_project_create (project_folder, "Locks", &error);
  g_assert_no_error (error);
  g_assert_cmpint (cg_project_add_crawl (project, "crawl", "http://locks.example/", "{}", &error), ==, 1);
  g_assert_true (cg_store_exec (cg_project_get_store (project), "UPDATE crawls SET state = 'running'", &error));
  g_assert_no_error (error);
  harvest_lock = cg_crawl_lock_acquire (project, 1, &error);
  g_assert_no_error (error);
  crawler_lock = cg_crawl_lock_acquire (project, 1, &error);
  g_assert_no_error (error);
  g_assert_true (crawler_lock == harvest_lock);

  g_setenv ("CG_TEST_LOCK_STEP", "held", TRUE);
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();

  /* Still held by one of the two. */
  cg_crawl_lock_release (crawler_lock);
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();

  cg_crawl_lock_release (harvest_lock);
  g_setenv ("CG_TEST_LOCK_STEP", "free", TRUE);
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();

  g_clear_object (&project);
  cg_test_folder_remove (project_folder);
}

/* A project folder where the locks cannot be kept says so. */
static void
test_unwritable_folder (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CgProject) project = NULL;
  g_autoptr(CgTestFolder) folder = cg_test_folder_new ("cg-crawl-lock-XXXXXX");
  g_autofree char *locks = g_build_filename (folder, "locks", NULL);

  g_assert_nonnull (folder);
  project = cg_project_create (folder, "Locks", &error);
  g_assert_no_error (error);
  /* A file where the locks' folder goes. */
  g_assert_true (g_file_set_contents (locks, "", 0, &error));
  g_assert_null (cg_crawl_lock_acquire (project, 1, &error));
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, locks));
  g_clear_object (&project);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  project_folder = g_strdup (g_getenv ("CG_TEST_LOCK_FOLDER"));
  g_test_add_func ("/crawl-lock/other-process", test_other_process);
  g_test_add_func ("/crawl-lock/unwritable-folder", test_unwritable_folder);

  return g_test_run ();
}
