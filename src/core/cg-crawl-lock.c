/* cg-crawl-lock.c: one process at a time runs a crawl.
 *
 * Two processes running the same crawl, such as `cartograph-cli harvest
 * --resume` started while the harvest still runs elsewhere, would both
 * write its WARC files, and the second would begin by cutting each file
 * back to its committed size under the feet of the first. So a crawl runs
 * under an exclusive flock(2) on a file of its own, locks/crawl-ID.lock in
 * the project folder. The system releases it when the process ends, however
 * it ends, so a crawl killed with SIGKILL can be resumed at once. Within a
 * process the lock is shared: a harvest and the crawler it drives hold it
 * together. The files stay: removing one could separate a process that
 * holds the lock from one that opens the file again.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "cg-crawl-lock.h"
#include "cg-store.h"

/* In the project folder. */
#define LOCKS_FOLDER "locks"

struct _CgCrawlLock
{
  guint  ref_count;   /* under held_lock */
  char  *path;
  int    fd;
};

/* The locks this process holds: lock file path → CgCrawlLock. */
static GMutex held_lock;
static GHashTable *held;

/* The lock file of crawl @crawl_id in the folder of locks @locks_dir. */
static char *
lock_file_path (const char *locks_dir,
                gint64      crawl_id)
{
  g_autofree char *name = g_strdup_printf ("crawl-%" PRId64 ".lock", crawl_id);

  return g_build_filename (locks_dir, name, NULL);
}

/* Who holds the lock, as the holder wrote it: for the message only. */
static char *
read_holder (int fd)
{
  char buffer[32] = { 0 };
  ssize_t n = pread (fd, buffer, sizeof buffer - 1, 0);

  if (n <= 0)
    return NULL;
  return g_strstrip (g_strndup (buffer, (gsize) n));
}

/* Whether a process, this one included, holds the lock file at @path,
 * and then the process id it wrote into it (*@out_holder, may be NULL). */
static gboolean
probe_lock (const char  *path,
            char       **out_holder)
{
  gboolean is_held;
  int fd;

  /* A crawl that never took its lock never ran (or ran before locks). */
  fd = g_open (path, O_RDONLY | O_CLOEXEC, 0);
  if (fd < 0)
    return FALSE;
  /* A shared lock conflicts with the runner's exclusive one, in this
   * process too, since flock(2) locks belong to open files. */
  is_held = flock (fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK;
  if (is_held && out_holder != NULL)
    *out_holder = read_holder (fd);
  close (fd);
  return is_held;
}

static void
set_running_error (GError     **error,
                   CgProject   *project,
                   gint64       crawl_id,
                   const char  *holder)
{
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_BUSY,
               /* Translators: the first %s is a project folder, the second a process id. */
               _("Crawl %" PRId64 " of “%s” is running in another process (%s): stop it there, "
                 "or wait for it to end"),
               crawl_id, cg_project_get_folder (project), holder != NULL ? holder : "?");
}

static CgCrawlLock *
acquire (CgProject  *project,
         gint64      crawl_id,
         gboolean    shared_here,
         GError    **error)
{
  g_autofree char *dir = NULL;
  g_autofree char *path = NULL;
  g_autofree char *pid = NULL;
  CgCrawlLock *lock;
  int fd;

  g_return_val_if_fail (CG_IS_PROJECT (project), NULL);

  dir = g_build_filename (cg_project_get_folder (project), LOCKS_FOLDER, NULL);
  if (g_mkdir_with_parents (dir, 0755) != 0)
    {
      int saved = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                   _("Cannot make the folder “%s” for the crawls’ locks: %s"), dir, g_strerror (saved));
      return NULL;
    }
  /* One path per file, however the project was named, so that this
   * process finds a lock it holds. */
  {
    char *real = realpath (dir, NULL);

    if (real != NULL)
      {
        g_free (dir);
        dir = g_strdup (real);
        free (real);
      }
  }
  path = lock_file_path (dir, crawl_id);

  g_mutex_lock (&held_lock);
  if (held == NULL)
    held = g_hash_table_new (g_str_hash, g_str_equal);
  lock = g_hash_table_lookup (held, path);
  if (lock != NULL && shared_here)
    {
      lock->ref_count++;
      g_mutex_unlock (&held_lock);
      return lock;
    }
  if (lock != NULL)
    {
      g_mutex_unlock (&held_lock);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_BUSY, _("Crawl %" PRId64 " of “%s” is running"),
                   crawl_id, cg_project_get_folder (project));
      return NULL;
    }

  fd = g_open (path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0)
    {
      int saved = errno;

      g_mutex_unlock (&held_lock);
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                   _("Cannot open the lock of crawl %" PRId64 ", “%s”: %s"), crawl_id, path, g_strerror (saved));
      return NULL;
    }
  if (flock (fd, LOCK_EX | LOCK_NB) != 0)
    {
      int saved = errno;
      g_autofree char *holder = saved == EWOULDBLOCK ? read_holder (fd) : NULL;

      close (fd);
      g_mutex_unlock (&held_lock);
      if (saved == EWOULDBLOCK)
        set_running_error (error, project, crawl_id, holder);
      else
        g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                     _("Cannot lock crawl %" PRId64 " (“%s”): %s"), crawl_id, path, g_strerror (saved));
      return NULL;
    }

  /* The process id, for whoever finds the lock taken. */
  pid = g_strdup_printf ("%d\n", (int) getpid ());
  if (ftruncate (fd, 0) != 0 || pwrite (fd, pid, strlen (pid), 0) < 0)
    g_debug ("Cannot write the process id into %s: %s", path, g_strerror (errno));

  lock = g_new0 (CgCrawlLock, 1);
  lock->ref_count = 1;
  lock->path = g_steal_pointer (&path);
  lock->fd = fd;
  g_hash_table_insert (held, lock->path, lock);
  g_mutex_unlock (&held_lock);
  return lock;
}

/* For running crawl @crawl_id: shared with whoever in this process runs it
 * too (a harvest and its crawler). */
CgCrawlLock *
cg_crawl_lock_acquire (CgProject  *project,
                       gint64      crawl_id,
                       GError    **error)
{
  return acquire (project, crawl_id, TRUE, error);
}

/* For tidying up after crawl @crawl_id: fails with G_IO_ERROR_BUSY when
 * any process runs it, this one included. */
CgCrawlLock *
cg_crawl_lock_acquire_unused (CgProject  *project,
                              gint64      crawl_id,
                              GError    **error)
{
  return acquire (project, crawl_id, FALSE, error);
}

/* Whether a process, this one included, runs crawl @crawl_id: for telling
 * a crawl that runs from one recorded as running whose process was
 * killed. */
gboolean
cg_crawl_lock_is_held (CgProject *project,
                       gint64     crawl_id)
{
  g_autofree char *dir = g_build_filename (cg_project_get_folder (project), LOCKS_FOLDER, NULL);
  g_autofree char *path = lock_file_path (dir, crawl_id);

  g_return_val_if_fail (CG_IS_PROJECT (project), FALSE);

  return probe_lock (path, NULL);
}

/* Fails with G_IO_ERROR_BUSY, naming the crawl and the process that runs
 * it, when a crawl of @project runs: work that a second process starts on
 * the project (a harvest in the window while the command line crawls)
 * would find the database locked half way through. */
gboolean
cg_crawl_lock_check_none_running (CgProject  *project,
                                  GError    **error)
{
  CgStore *store = cg_project_get_store (project);
  g_autofree char *dir = g_build_filename (cg_project_get_folder (project), LOCKS_FOLDER, NULL);
  g_autoptr(sqlite3_stmt) stmt = NULL;
  int rc;

  g_return_val_if_fail (CG_IS_PROJECT (project), FALSE);

  /* A crawl that runs is recorded as running; one recorded so whose lock
   * is free was killed. */
  stmt = cg_store_prepare (store, "SELECT id FROM crawls WHERE state = 'running'", error);
  if (stmt == NULL)
    return FALSE;
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      gint64 crawl_id = sqlite3_column_int64 (stmt, 0);
      g_autofree char *path = lock_file_path (dir, crawl_id);
      g_autofree char *holder = NULL;

      if (probe_lock (path, &holder))
        {
          set_running_error (error, project, crawl_id, holder);
          return FALSE;
        }
    }
  if (rc != SQLITE_DONE)
    {
      cg_store_set_error (store, rc, error);
      return FALSE;
    }
  return TRUE;
}

void
cg_crawl_lock_release (CgCrawlLock *lock)
{
  if (lock == NULL)
    return;

  g_mutex_lock (&held_lock);
  if (--lock->ref_count > 0)
    {
      g_mutex_unlock (&held_lock);
      return;
    }
  g_hash_table_remove (held, lock->path);
  g_mutex_unlock (&held_lock);

  /* Closing the only descriptor releases the flock. */
  close (lock->fd);
  g_free (lock->path);
  g_free (lock);
}
