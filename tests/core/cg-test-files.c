/* cg-test-files.c: temporary folders and whole files for the core tests.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <signal.h>
#include <sys/resource.h>
#include <glib/gstdio.h>

#include "cg-test-files.h"

static struct rlimit unlimited_file_size;
static void (*unlimited_sigxfsz) (int);

void
cg_test_remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
        cg_test_remove_tree (child);
      else
        g_remove (child);
    }
  g_rmdir (path);
}

CgTestFolder *
cg_test_folder_new (const char *name_template)
{
  g_autoptr(GError) error = NULL;
  char *folder = g_dir_make_tmp (name_template, &error);

  g_assert_no_error (error);
  return folder;
}

void
cg_test_folder_remove (CgTestFolder *folder)
{
  cg_test_remove_tree (folder);
  g_free (folder);
}

GBytes *
cg_test_read_file (const char *path)
{
  g_autoptr(GError) error = NULL;
  char *contents = NULL;
  gsize length = 0;

  g_file_get_contents (path, &contents, &length, &error);
  g_assert_no_error (error);
  return g_bytes_new_take (contents, length);
}

void
cg_test_write_file (const char *path,
                    const void *data,
                    gsize       length)
{
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, data, (gssize) length, &error);
  g_assert_no_error (error);
}

void
cg_test_limit_file_size (guint64 size)
{
  struct rlimit limited;

  g_assert_cmpint (getrlimit (RLIMIT_FSIZE, &unlimited_file_size), ==, 0);
  limited = unlimited_file_size;
  limited.rlim_cur = (rlim_t) size;
  unlimited_sigxfsz = signal (SIGXFSZ, SIG_IGN);
  g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &limited), ==, 0);
}

void
cg_test_unlimit_file_size (void)
{
  g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &unlimited_file_size), ==, 0);
  signal (SIGXFSZ, unlimited_sigxfsz);
}
