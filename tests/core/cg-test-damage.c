/* cg-test-damage.c: a project's database damaged under an open project.
 *
 * Both write in place (the open connection reads this file, not a new one
 * at its name), after the write-ahead log is checkpointed into the file
 * (or the damage would not be read), and then have the connection forget
 * the pages it read, so that its next read meets the damage.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdio.h>
#include <string.h>
#include <glib/gstdio.h>

#include "cg-test-damage.h"

/* The file's page size, once the log is in the file. */
static int
checkpoint (CgStore *store)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(sqlite3_stmt) stmt = NULL;

  g_assert_true (cg_store_exec (store, "PRAGMA wal_checkpoint(TRUNCATE)", &error));
  g_assert_no_error (error);
  stmt = cg_store_prepare (store, "PRAGMA page_size", &error);
  g_assert_no_error (error);
  g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
  return sqlite3_column_int (stmt, 0);
}

static void
overwrite_pages (CgStore *store,
                 int      page_size,
                 guint32  first,
                 guint32  n_pages)
{
  g_autofree guint8 *junk = g_malloc (page_size);
  FILE *file = fopen (cg_store_get_path (store), "r+b");

  g_assert_nonnull (file);
  memset (junk, 0xa5, page_size);
  g_assert_cmpint (fseek (file, (long) (first - 1) * page_size, SEEK_SET), ==, 0);
  for (guint32 i = 0; i < n_pages; i++)
    g_assert_cmpuint (fwrite (junk, 1, page_size, file), ==, (gsize) page_size);
  g_assert_cmpint (fclose (file), ==, 0);
  sqlite3_db_release_memory (cg_store_get_db (store));
}

void
cg_test_damage_database (CgProject *project)
{
  CgStore *store = cg_project_get_store (project);
  int page_size = checkpoint (store);
  GStatBuf info;

  g_assert_cmpint (g_stat (cg_store_get_path (store), &info), ==, 0);
  g_assert_cmpint (info.st_size, >, 2 * page_size);
  overwrite_pages (store, page_size, 2, (guint32) (info.st_size / page_size) - 1);
}

void
cg_test_damage_middle_of (CgProject  *project,
                          const char *name)
{
  CgStore *store = cg_project_get_store (project);
  int page_size = checkpoint (store);
  g_autoptr(GError) error = NULL;
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autofree guint8 *page = NULL;
  guint n_cells, cell;
  guint32 child;
  int root;
  FILE *file;

  stmt = cg_store_prepare (store, "SELECT rootpage FROM sqlite_schema WHERE name = ?1", &error);
  g_assert_no_error (error);
  sqlite3_bind_text (stmt, 1, name, -1, SQLITE_STATIC);
  g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
  root = sqlite3_column_int (stmt, 0);
  g_assert_cmpint (root, >, 1);

  page = g_malloc (page_size);
  file = fopen (cg_store_get_path (store), "rb");
  g_assert_nonnull (file);
  g_assert_cmpint (fseek (file, (long) (root - 1) * page_size, SEEK_SET), ==, 0);
  g_assert_cmpuint (fread (page, 1, page_size, file), ==, (gsize) page_size);
  g_assert_cmpint (fclose (file), ==, 0);
  /* An interior page, of an index (2) or of a table (5): a count of
   * cells at 3, the cells' offsets from 12, and each cell begins with the
   * page number of the child on its left. */
  g_assert_true (page[0] == 2 || page[0] == 5);
  n_cells = (guint) page[3] << 8 | page[4];
  g_assert_cmpuint (n_cells, >=, 2);
  cell = (guint) page[12 + 2 * (n_cells / 2)] << 8 | page[12 + 2 * (n_cells / 2) + 1];
  child = (guint32) page[cell] << 24 | (guint32) page[cell + 1] << 16 | (guint32) page[cell + 2] << 8 | page[cell + 3];
  g_assert_cmpuint (child, >, 1);
  overwrite_pages (store, page_size, child, 1);
}

/* A disk that fills up at one write: SQLite's own VFS, except that a
 * write of data holding full_disk_marker fails as on a full disk. SQLite
 * tests its I/O errors with such shims. */
static const char *full_disk_marker;
static sqlite3_vfs *real_vfs;
static sqlite3_vfs full_disk_vfs;

/* The unix VFS gives a database and its WAL different methods (locking
 * differs); each is copied once, with its xWrite replaced, and the copy
 * works on the same file. */
static struct {
  const sqlite3_io_methods *real;
  sqlite3_io_methods        full_disk;
} io_methods[4];

static gboolean
contains (const void *data,
          gsize       length,
          const char *needle)
{
  gsize needle_length = strlen (needle);

  for (gsize i = 0; i + needle_length <= length; i++)
    if (memcmp ((const char *) data + i, needle, needle_length) == 0)
      return TRUE;
  return FALSE;
}

static int
full_disk_write (sqlite3_file  *file,
                 const void    *data,
                 int            amount,
                 sqlite3_int64  offset)
{
  if (full_disk_marker != NULL && amount > 0 && contains (data, (gsize) amount, full_disk_marker))
    return SQLITE_FULL;
  for (guint i = 0; i < G_N_ELEMENTS (io_methods); i++)
    if (file->pMethods == &io_methods[i].full_disk)
      return io_methods[i].real->xWrite (file, data, amount, offset);
  g_assert_not_reached ();
}

static int
full_disk_open (sqlite3_vfs  *vfs,
                const char   *name,
                sqlite3_file *file,
                int           flags,
                int          *out_flags)
{
  int rc = real_vfs->xOpen (real_vfs, name, file, flags, out_flags);
  guint i;

  if (rc != SQLITE_OK || file->pMethods == NULL)
    return rc;
  for (i = 0; i < G_N_ELEMENTS (io_methods) && io_methods[i].real != NULL; i++)
    if (io_methods[i].real == file->pMethods)
      break;
  g_assert_cmpuint (i, <, G_N_ELEMENTS (io_methods));
  if (io_methods[i].real == NULL)
    {
      io_methods[i].real = file->pMethods;
      io_methods[i].full_disk = *file->pMethods;
      io_methods[i].full_disk.xWrite = full_disk_write;
    }
  file->pMethods = &io_methods[i].full_disk;
  return rc;
}

void
cg_test_full_disk_install (void)
{
  real_vfs = sqlite3_vfs_find (NULL);
  g_assert_nonnull (real_vfs);
  full_disk_vfs = *real_vfs;
  full_disk_vfs.zName = "cg-test-full-disk";
  full_disk_vfs.pNext = NULL;
  full_disk_vfs.xOpen = full_disk_open;
  g_assert_cmpint (sqlite3_vfs_register (&full_disk_vfs, 1), ==, SQLITE_OK);
}

void
cg_test_full_disk_uninstall (void)
{
  full_disk_marker = NULL;
  g_assert_cmpint (sqlite3_vfs_register (real_vfs, 1), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_vfs_unregister (&full_disk_vfs), ==, SQLITE_OK);
}

void
cg_test_full_disk_set_marker (const char *marker)
{
  full_disk_marker = marker;
}
