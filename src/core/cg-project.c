/* cg-project.c: a Cartograph project folder.
 *
 * A project is a folder holding one SQLite database and the files that are
 * too large for it: WARC files and page thumbnails.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "cg-project.h"

struct _CgProject
{
  GObject  parent_instance;
  char    *folder;
  char    *name;
  CgStore *store;
};

G_DEFINE_TYPE (CgProject, cg_project, G_TYPE_OBJECT)

static void
cg_project_finalize (GObject *object)
{
  CgProject *self = CG_PROJECT (object);

  g_clear_object (&self->store);
  g_free (self->folder);
  g_free (self->name);

  G_OBJECT_CLASS (cg_project_parent_class)->finalize (object);
}

static void
cg_project_class_init (CgProjectClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = cg_project_finalize;
}

static void
cg_project_init (CgProject *self)
{
}

static char *
database_path (const char *folder)
{
  return g_build_filename (folder, CG_PROJECT_DATABASE_NAME, NULL);
}

gboolean
cg_project_is_project_folder (const char *folder)
{
  g_autofree char *db = database_path (folder);

  return g_file_test (db, G_FILE_TEST_IS_REGULAR);
}

static gboolean
folder_is_empty_dir (const char *folder)
{
  g_autoptr(GDir) dir = g_dir_open (folder, 0, NULL);

  return dir != NULL && g_dir_read_name (dir) == NULL;
}

/* Empty, or holding only what an interrupted cg_project_create() left:
 * its empty subfolders and the database it was building. */
static gboolean
folder_is_empty (const char *folder)
{
  g_autoptr(GDir) dir = g_dir_open (folder, 0, NULL);
  const char *name;

  if (dir == NULL)
    return FALSE;
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (folder, name, NULL);

      if (g_str_has_prefix (name, CG_PROJECT_DATABASE_NAME) && cg_store_is_leftover_file (name))
        continue;
      if ((g_str_equal (name, CG_PROJECT_WARC_DIR) || g_str_equal (name, CG_PROJECT_THUMBNAILS_DIR)) &&
          folder_is_empty_dir (path))
        continue;
      return FALSE;
    }
  return TRUE;
}

static gboolean
make_folder (const char  *path,
             GError     **error)
{
  if (g_mkdir_with_parents (path, 0755) != 0)
    {
      int saved_errno = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                   _("Cannot create the folder “%s”: %s"),
                   path, g_strerror (saved_errno));
      return FALSE;
    }
  return TRUE;
}

static gboolean
make_subfolders (const char  *folder,
                 GError     **error)
{
  g_autofree char *warc = g_build_filename (folder, CG_PROJECT_WARC_DIR, NULL);
  g_autofree char *thumbnails = g_build_filename (folder, CG_PROJECT_THUMBNAILS_DIR, NULL);

  return make_folder (warc, error) && make_folder (thumbnails, error);
}

static CgProject *
project_new (const char *folder,
             CgStore    *store)
{
  CgProject *self = g_object_new (CG_TYPE_PROJECT, NULL);
  g_autofree char *name = cg_store_get_meta (store, "name");

  self->folder = g_canonicalize_filename (folder, NULL);
  self->store = g_object_ref (store);
  self->name = name != NULL ? g_steal_pointer (&name) : g_path_get_basename (self->folder);
  return self;
}

char *
cg_project_first_missing_folder (const char *folder)
{
  g_autofree char *missing = NULL;
  g_autofree char *path = g_strdup (folder);

  g_return_val_if_fail (folder != NULL, NULL);

  while (!g_file_test (path, G_FILE_TEST_EXISTS))
    {
      g_autofree char *parent = g_path_get_dirname (path);

      if (g_str_equal (parent, path))
        break;
      g_free (missing);
      missing = g_steal_pointer (&path);
      path = g_steal_pointer (&parent);
    }
  return g_steal_pointer (&missing);
}

void
cg_project_remove_unfinished (const char *folder,
                              const char *made_from)
{
  static const char * const subfolders[] = { CG_PROJECT_WARC_DIR, CG_PROJECT_THUMBNAILS_DIR };
  g_autofree char *database = database_path (folder);
  g_autofree char *path = NULL;

  g_return_if_fail (folder != NULL);

  cg_store_remove_files (database);
  /* g_rmdir() leaves a folder that is not empty, with what it holds. */
  for (guint i = 0; i < G_N_ELEMENTS (subfolders); i++)
    {
      g_autofree char *subfolder = g_build_filename (folder, subfolders[i], NULL);

      g_rmdir (subfolder);
    }
  if (made_from == NULL)
    return;
  path = g_strdup (folder);
  while (g_rmdir (path) == 0 && !g_str_equal (path, made_from))
    {
      char *parent = g_path_get_dirname (path);

      g_free (path);
      path = parent;
    }
}

CgProject *
cg_project_create (const char  *folder,
                   const char  *name,
                   GError     **error)
{
  g_autoptr(CgStore) store = NULL;
  g_autofree char *db = NULL;
  g_autofree char *created = NULL;
  g_autofree char *default_name = NULL;
  g_autofree char *made_from = NULL;

  g_return_val_if_fail (folder != NULL, NULL);

  if (cg_project_is_project_folder (folder))
    {
      g_set_error (error, CG_STORE_ERROR, CG_STORE_ERROR_EXISTS,
                   _("“%s” is already a Cartograph project"), folder);
      return NULL;
    }
  if (g_file_test (folder, G_FILE_TEST_EXISTS))
    {
      if (!g_file_test (folder, G_FILE_TEST_IS_DIR))
        {
          g_set_error (error, CG_STORE_ERROR, CG_STORE_ERROR_EXISTS,
                       _("Cannot create a project at “%s”: it is a file, not a folder"),
                       folder);
          return NULL;
        }
      /* A project never takes over a folder that holds other files: the
       * user may have picked the wrong folder, and their files are theirs. */
      if (!folder_is_empty (folder))
        {
          g_set_error (error, CG_STORE_ERROR, CG_STORE_ERROR_EXISTS,
                       _("Cannot create a project in “%s”: the folder is not empty "
                         "and is not a Cartograph project"),
                       folder);
          return NULL;
        }
    }

  /* A creation that fails half-way takes back what it made: a project
   * without its details would be "already a Cartograph project" to the
   * next try. */
  made_from = cg_project_first_missing_folder (folder);
  if (!make_folder (folder, error) || !make_subfolders (folder, error))
    {
      cg_project_remove_unfinished (folder, made_from);
      return NULL;
    }

  db = database_path (folder);
  store = cg_store_create (db, error);
  if (store == NULL)
    {
      cg_project_remove_unfinished (folder, made_from);
      return NULL;
    }

  default_name = g_path_get_basename (folder);
  created = g_strdup_printf ("%" G_GINT64_FORMAT, g_get_real_time () / G_USEC_PER_SEC);
  if (!cg_store_set_meta (store, "name", name != NULL && *name != '\0' ? name : default_name, error) ||
      !cg_store_set_meta (store, "created_at", created, error) ||
      !cg_store_set_meta (store, "created_by", "Cartograph " PACKAGE_VERSION, error))
    {
      g_clear_object (&store);
      cg_project_remove_unfinished (folder, made_from);
      return NULL;
    }

  return project_new (folder, store);
}

CgProject *
cg_project_open (const char  *folder,
                 GError     **error)
{
  g_autoptr(CgStore) store = NULL;
  g_autofree char *db = NULL;

  g_return_val_if_fail (folder != NULL, NULL);

  if (!g_file_test (folder, G_FILE_TEST_IS_DIR))
    {
      if (g_file_test (folder, G_FILE_TEST_EXISTS))
        g_set_error (error, CG_STORE_ERROR, CG_STORE_ERROR_NOT_A_PROJECT,
                     _("“%s” is a file, not a project folder"), folder);
      else
        g_set_error (error, CG_STORE_ERROR, CG_STORE_ERROR_NOT_FOUND,
                     _("The project folder “%s” does not exist"), folder);
      return NULL;
    }
  if (!cg_project_is_project_folder (folder))
    {
      g_set_error (error, CG_STORE_ERROR, CG_STORE_ERROR_NOT_A_PROJECT,
                   _("“%s” is not a Cartograph project: it has no %s"),
                   folder, CG_PROJECT_DATABASE_NAME);
      return NULL;
    }

  db = database_path (folder);
  store = cg_store_open (db, error);
  if (store == NULL)
    return NULL;

  if (!make_subfolders (folder, error))
    return NULL;

  return project_new (folder, store);
}

static void
open_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  GError *error = NULL;
  CgProject *project = cg_project_open (task_data, &error);

  if (project == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, project, g_object_unref);
}

void
cg_project_open_async (const char          *folder,
                       GCancellable        *cancellable,
                       GAsyncReadyCallback  callback,
                       gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (folder != NULL);

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, cg_project_open_async);
  /* A cancelled open returns at once; the thread's project is dropped. */
  g_task_set_return_on_cancel (task, TRUE);
  g_task_set_task_data (task, g_strdup (folder), g_free);
  g_task_run_in_thread (task, open_thread);
}

CgProject *
cg_project_open_finish (GAsyncResult  *result,
                        GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

CgProject *
cg_project_open_or_create (const char  *folder,
                           GError     **error)
{
  if (cg_project_is_project_folder (folder))
    return cg_project_open (folder, error);
  return cg_project_create (folder, NULL, error);
}

const char *
cg_project_get_folder (CgProject *self)
{
  g_return_val_if_fail (CG_IS_PROJECT (self), NULL);
  return self->folder;
}

const char *
cg_project_get_name (CgProject *self)
{
  g_return_val_if_fail (CG_IS_PROJECT (self), NULL);
  return self->name;
}

CgStore *
cg_project_get_store (CgProject *self)
{
  g_return_val_if_fail (CG_IS_PROJECT (self), NULL);
  return self->store;
}

char *
cg_project_get_warc_dir (CgProject *self)
{
  g_return_val_if_fail (CG_IS_PROJECT (self), NULL);
  return g_build_filename (self->folder, CG_PROJECT_WARC_DIR, NULL);
}

char *
cg_project_get_thumbnails_dir (CgProject *self)
{
  g_return_val_if_fail (CG_IS_PROJECT (self), NULL);
  return g_build_filename (self->folder, CG_PROJECT_THUMBNAILS_DIR, NULL);
}

/* @path made absolute, its folder's symbolic links resolved (the file
 * itself need not exist). */
static char *
resolve_path (const char *path)
{
  g_autofree char *absolute = g_canonicalize_filename (path, NULL);
  g_autofree char *parent = g_path_get_dirname (absolute);
  g_autofree char *name = g_path_get_basename (absolute);
  g_autofree char *real_parent = realpath (parent, NULL);

  return real_parent != NULL ? g_build_filename (real_parent, name, NULL) : g_steal_pointer (&absolute);
}

/**
 * cg_project_owns_path:
 *
 * Whether @path is, or lies in, one of the files and folders the project
 * keeps: its database (with its journal), WARC files, logs, locks,
 * harvest states and thumbnails. What is written from outside (an export)
 * must not go there; the project's folder is otherwise free.
 */
gboolean
cg_project_owns_path (CgProject  *self,
                      const char *path)
{
  /* The database's own files begin with its name (-wal, -shm, -journal). */
  static const char * const owned[] = {
    CG_PROJECT_DATABASE_NAME, CG_PROJECT_WARC_DIR "/", "logs/", "locks/", "harvests/", CG_PROJECT_THUMBNAILS_DIR "/",
  };
  g_autofree char *folder = NULL;
  g_autofree char *resolved = NULL;
  g_autofree char *inside = NULL;
  gsize n;

  g_return_val_if_fail (CG_IS_PROJECT (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  folder = realpath (self->folder, NULL);
  if (folder == NULL)
    folder = g_canonicalize_filename (self->folder, NULL);
  resolved = resolve_path (path);
  n = strlen (folder);
  if (strncmp (resolved, folder, n) != 0 || resolved[n] != G_DIR_SEPARATOR)
    return FALSE;
  /* A folder of the project, named with or without its slash. */
  inside = g_strconcat (resolved + n + 1, "/", NULL);
  for (guint i = 0; i < G_N_ELEMENTS (owned); i++)
    if (g_str_has_prefix (inside, owned[i]))
      return TRUE;
  return FALSE;
}

gint64
cg_project_add_crawl (CgProject   *self,
                      const char  *kind,
                      const char  *seed_url,
                      const char  *config_json,
                      GError     **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;

  g_return_val_if_fail (CG_IS_PROJECT (self), -1);

  stmt = cg_store_prepare (self->store,
                           "INSERT INTO crawls (kind, seed_url, config, created_at) "
                           "VALUES (?1, ?2, ?3, ?4)",
                           error);
  if (stmt == NULL)
    return -1;
  sqlite3_bind_text (stmt, 1, kind, -1, SQLITE_TRANSIENT);
  sqlite3_bind_text (stmt, 2, seed_url, -1, SQLITE_TRANSIENT);
  sqlite3_bind_text (stmt, 3, config_json != NULL ? config_json : "{}", -1, SQLITE_TRANSIENT);
  sqlite3_bind_int64 (stmt, 4, g_get_real_time () / G_USEC_PER_SEC);
  if (!cg_store_step_done (self->store, stmt, error))
    return -1;
  return sqlite3_last_insert_rowid (cg_store_get_db (self->store));
}

/* Best-effort: a read error counts 0. The count is only shown (by
 * "cartograph-cli info" and in tests) and nothing is decided or written
 * on it; the database was checked page by page when the project was
 * opened, and any read that matters reports its own error. */
guint
cg_project_count_crawls (CgProject *self)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;

  g_return_val_if_fail (CG_IS_PROJECT (self), 0);

  stmt = cg_store_prepare (self->store, "SELECT count(*) FROM crawls", NULL);
  if (stmt == NULL || sqlite3_step (stmt) != SQLITE_ROW)
    return 0;
  return (guint) sqlite3_column_int (stmt, 0);
}

void
cg_crawl_summary_free (CgCrawlSummary *summary)
{
  g_free (summary->kind);
  g_free (summary->state);
  g_free (summary->seed_url);
  g_free (summary);
}

GPtrArray *
cg_project_list_crawls (CgProject  *self,
                        GError    **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autoptr(GPtrArray) crawls = g_ptr_array_new_with_free_func ((GDestroyNotify) cg_crawl_summary_free);
  int rc;

  g_return_val_if_fail (CG_IS_PROJECT (self), NULL);

  stmt = cg_store_prepare (self->store,
                           "SELECT c.id, c.kind, c.state, c.seed_url, count(f.id), coalesce(sum(f.size), 0) "
                           "FROM crawls c LEFT JOIN fetches f ON f.crawl_id = c.id GROUP BY c.id ORDER BY c.id",
                           error);
  if (stmt == NULL)
    return NULL;
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      CgCrawlSummary *summary = g_new0 (CgCrawlSummary, 1);

      summary->id = sqlite3_column_int64 (stmt, 0);
      summary->kind = g_strdup ((const char *) sqlite3_column_text (stmt, 1));
      summary->state = g_strdup ((const char *) sqlite3_column_text (stmt, 2));
      summary->seed_url = g_strdup ((const char *) sqlite3_column_text (stmt, 3));
      summary->n_fetched = (guint) sqlite3_column_int64 (stmt, 4);
      summary->bytes = (guint64) sqlite3_column_int64 (stmt, 5);
      g_ptr_array_add (crawls, summary);
    }
  /* A read error is not a shorter list. */
  if (rc != SQLITE_DONE)
    {
      cg_store_set_error (self->store, rc, error);
      return NULL;
    }
  return g_steal_pointer (&crawls);
}
