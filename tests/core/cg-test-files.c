/* cg-test-files.c: temporary folders and whole files for the core tests.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gstdio.h>

#include "cg-test-files.h"

void
cg_test_remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR))
        cg_test_remove_tree (child);
      else
        g_remove (child);
    }
  g_rmdir (path);
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
