/* test-project.c: creating and opening project folders.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>
#include <glib/gstdio.h>

#include "cg-project.h"
#include "cg-test-damage.h"
#include "cg-test-files.h"

static void
test_create_new_folder (void)
{
  g_autoptr(CgTestFolder) tmp = cg_test_folder_new ("cg-project-XXXXXX");
  g_autofree char *folder = g_build_filename (tmp, "shop", "archive", NULL);
  g_autofree char *warc = NULL;
  g_autofree char *thumbs = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(CgProject) project = cg_project_create (folder, "Corner bookshop", &error);

  g_assert_no_error (error);
  g_assert_cmpstr (cg_project_get_name (project), ==, "Corner bookshop");
  g_assert_true (cg_project_is_project_folder (folder));
  warc = cg_project_get_warc_dir (project);
  thumbs = cg_project_get_thumbnails_dir (project);
  g_assert_true (g_file_test (warc, G_FILE_TEST_IS_DIR));
  g_assert_true (g_file_test (thumbs, G_FILE_TEST_IS_DIR));
  g_assert_cmpuint (cg_project_count_crawls (project), ==, 0);
  g_assert_cmpint (cg_project_add_crawl (project, "explore", "http://127.0.0.1/", "{\"pages\":200}", &error), >, 0);
  g_assert_no_error (error);
  g_clear_object (&project);

  project = cg_project_open (folder, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (cg_project_get_name (project), ==, "Corner bookshop");
  g_assert_cmpuint (cg_project_count_crawls (project), ==, 1);
}

static void
test_default_name_is_folder_name (void)
{
  g_autoptr(CgTestFolder) tmp = cg_test_folder_new ("cg-project-XXXXXX");
  g_autofree char *folder = g_build_filename (tmp, "museum-site", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(CgProject) project = cg_project_create (folder, NULL, &error);

  g_assert_no_error (error);
  g_assert_cmpstr (cg_project_get_name (project), ==, "museum-site");
}

static void
test_create_refuses_busy_folder (void)
{
  g_autoptr(CgTestFolder) tmp = cg_test_folder_new ("cg-project-XXXXXX");
  g_autofree char *notes = g_build_filename (tmp, "notes.txt", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(CgProject) project = NULL;
  g_autofree char *contents = NULL;

  g_assert_true (g_file_set_contents (notes, "keep me", -1, NULL));
  project = cg_project_create (tmp, NULL, &error);
  g_assert_null (project);
  g_assert_error (error, CG_STORE_ERROR, CG_STORE_ERROR_EXISTS);
  g_assert_nonnull (strstr (error->message, "not empty"));
  g_assert_false (cg_project_is_project_folder (tmp));
  g_assert_true (g_file_get_contents (notes, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, "keep me");
}

static void
test_create_refuses_existing_project (void)
{
  g_autoptr(CgTestFolder) tmp = cg_test_folder_new ("cg-project-XXXXXX");
  g_autoptr(GError) error = NULL;
  g_autoptr(CgProject) first = cg_project_create (tmp, "First", &error);
  g_autoptr(CgProject) second = NULL;

  g_assert_no_error (error);
  g_assert_cmpint (cg_project_add_crawl (first, "crawl", "http://127.0.0.1/", NULL, &error), >, 0);
  g_clear_object (&first);

  second = cg_project_create (tmp, "Second", &error);
  g_assert_null (second);
  g_assert_error (error, CG_STORE_ERROR, CG_STORE_ERROR_EXISTS);
  g_clear_error (&error);

  first = cg_project_open (tmp, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (cg_project_get_name (first), ==, "First");
  g_assert_cmpuint (cg_project_count_crawls (first), ==, 1);
}

static void
test_open_missing_folder (void)
{
  g_autoptr(CgTestFolder) tmp = cg_test_folder_new ("cg-project-XXXXXX");
  g_autofree char *folder = g_build_filename (tmp, "nowhere", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(CgProject) project = cg_project_open (folder, &error);

  g_assert_null (project);
  g_assert_error (error, CG_STORE_ERROR, CG_STORE_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, folder));
  g_assert_false (g_file_test (folder, G_FILE_TEST_EXISTS));
}

static void
test_open_ordinary_folder (void)
{
  g_autoptr(CgTestFolder) tmp = cg_test_folder_new ("cg-project-XXXXXX");
  g_autofree char *photo = g_build_filename (tmp, "holiday.jpg", NULL);
  g_autofree char *warc = g_build_filename (tmp, CG_PROJECT_WARC_DIR, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(CgProject) project = NULL;

  g_assert_true (g_file_set_contents (photo, "\xff\xd8\xff", 3, NULL));
  project = cg_project_open (tmp, &error);
  g_assert_null (project);
  g_assert_error (error, CG_STORE_ERROR, CG_STORE_ERROR_NOT_A_PROJECT);
  g_assert_nonnull (strstr (error->message, "not a Cartograph project"));
  /* Nothing was added to the user's folder. */
  g_assert_false (g_file_test (warc, G_FILE_TEST_EXISTS));
}

static void
test_open_or_create (void)
{
  g_autoptr(CgTestFolder) tmp = cg_test_folder_new ("cg-project-XXXXXX");
  g_autofree char *folder = g_build_filename (tmp, "p", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(CgProject) project = cg_project_open_or_create (folder, &error);

  g_assert_no_error (error);
  g_assert_cmpint (cg_project_add_crawl (project, "crawl", "http://127.0.0.1/", NULL, &error), >, 0);
  g_clear_object (&project);
  project = cg_project_open_or_create (folder, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (cg_project_count_crawls (project), ==, 1);
}

/* A creation killed half-way leaves its subfolders and the database it was
 * building under a temporary name; the folder is still free for a project
 * and no half-made database is ever taken for one. */
static void
test_create_after_interrupted_create (void)
{
  g_autoptr(CgTestFolder) tmp = cg_test_folder_new ("cg-project-XXXXXX");
  g_autofree char *warc = g_build_filename (tmp, CG_PROJECT_WARC_DIR, NULL);
  g_autofree char *thumbs = g_build_filename (tmp, CG_PROJECT_THUMBNAILS_DIR, NULL);
  g_autofree char *half = g_build_filename (tmp, CG_PROJECT_DATABASE_NAME ".creating", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(CgProject) project = NULL;

  g_assert_cmpint (g_mkdir (warc, 0755), ==, 0);
  g_assert_cmpint (g_mkdir (thumbs, 0755), ==, 0);
  g_assert_true (g_file_set_contents (half, "SQLite format 3", -1, NULL));
  g_assert_false (cg_project_is_project_folder (tmp));

  project = cg_project_open (tmp, &error);
  g_assert_null (project);
  g_assert_error (error, CG_STORE_ERROR, CG_STORE_ERROR_NOT_A_PROJECT);
  g_clear_error (&error);

  project = cg_project_create (tmp, "Again", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (cg_project_get_name (project), ==, "Again");
  g_assert_false (g_file_test (half, G_FILE_TEST_EXISTS));
}

static gboolean
is_empty_folder (const char *folder)
{
  g_autoptr(GDir) dir = g_dir_open (folder, 0, NULL);

  return dir != NULL && g_dir_read_name (dir) == NULL;
}

/* A creation that fails half-way (the disk fills up as the project's
 * details are written) leaves nothing behind: no project without its
 * details, which the next try would call "already a Cartograph project",
 * and no folder it made (the parents it made included). A folder that
 * was there, empty, stays. */
static void
test_create_fails_half_way (void)
{
  g_autoptr(CgTestFolder) dir = cg_test_folder_new ("cg-project-XXXXXX");
  g_autofree char *parent = g_build_filename (dir, "parent", NULL);
  g_autofree char *folder = g_build_filename (parent, "new", NULL);
  g_autofree char *existing = g_build_filename (dir, "existing", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(CgProject) project = NULL;

  g_assert_cmpint (g_mkdir (existing, 0755), ==, 0);
  cg_test_full_disk_install ();
  cg_test_full_disk_set_marker ("Disk Full Archive");

  project = cg_project_create (folder, "Disk Full Archive", &error);
  g_assert_null (project);
  g_assert_error (error, CG_STORE_ERROR, CG_STORE_ERROR_SQL);
  g_assert_nonnull (strstr (error->message, "is full: free some space"));
  g_clear_error (&error);
  /* The parent folder it made for it goes too. */
  g_assert_false (g_file_test (parent, G_FILE_TEST_EXISTS));

  project = cg_project_create (existing, "Disk Full Archive", &error);
  g_assert_null (project);
  g_assert_nonnull (error);
  g_clear_error (&error);
  g_assert_true (is_empty_folder (existing));

  cg_test_full_disk_set_marker (NULL);
  cg_test_full_disk_uninstall ();
  project = cg_project_create (folder, "Disk Full Archive", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (cg_project_get_name (project), ==, "Disk Full Archive");
  g_clear_object (&project);
  project = cg_project_create (existing, "Disk Full Archive", &error);
  g_assert_no_error (error);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/project/create-new-folder", test_create_new_folder);
  g_test_add_func ("/project/default-name-is-folder-name", test_default_name_is_folder_name);
  g_test_add_func ("/project/create-refuses-busy-folder", test_create_refuses_busy_folder);
  g_test_add_func ("/project/create-refuses-existing-project", test_create_refuses_existing_project);
  g_test_add_func ("/project/open-missing-folder", test_open_missing_folder);
  g_test_add_func ("/project/open-ordinary-folder", test_open_ordinary_folder);
  g_test_add_func ("/project/open-or-create", test_open_or_create);
  g_test_add_func ("/project/create-after-interrupted-create", test_create_after_interrupted_create);
  g_test_add_func ("/project/create-fails-half-way", test_create_fails_half_way);

  return g_test_run ();
}
