/* cg-crawl-log.c: the crawl log, in Heritrix's crawl.log format.
 *
 * One line per URL the crawl dealt with, the format Heritrix writes and
 * archivists' tools read: log time, status, size, URL, hop path, via,
 * MIME type, worker, fetch start+duration, digest, source, annotations.
 * The log is appended to, so a resumed crawl continues the same file.
 * A crawl killed while writing, or stopped by a full disk, can leave half
 * a line at the end; it is cut before appending, or the next line would
 * be glued to it and neither could be read. A crawl that knows how long
 * the log was at its last commit has it cut there instead: the lines of
 * what it did not commit go, and are written again when that is done
 * again.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "cg-crawl-log.h"
#include "cg-fd.h"
#include "cg-format.h"

/* Lines held past this are written out without waiting for a flush, so
 * that a caller that never flushes does not hold the whole log. */
#define MAX_HELD_BYTES (8 * 1024 * 1024)

struct _CgCrawlLog
{
  GObject  parent_instance;
  char    *path;
  int      fd;       /* opened for appending */
  goffset  size;     /* of the file: whole lines */
  GString *held;     /* whole lines written since the last flush */
};

G_DEFINE_FINAL_TYPE (CgCrawlLog, cg_crawl_log, G_TYPE_OBJECT)

static void
cg_crawl_log_finalize (GObject *object)
{
  CgCrawlLog *self = CG_CRAWL_LOG (object);

  if (self->fd >= 0)
    {
      cg_crawl_log_flush (self, NULL);
      close (self->fd);
    }
  g_string_free (self->held, TRUE);
  g_free (self->path);

  G_OBJECT_CLASS (cg_crawl_log_parent_class)->finalize (object);
}

static void
cg_crawl_log_class_init (CgCrawlLogClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = cg_crawl_log_finalize;
}

static void
cg_crawl_log_init (CgCrawlLog *self)
{
  self->fd = -1;
  self->held = g_string_sized_new (64 * 1024);
}

static gboolean
write_error (GError     **error,
             const char  *path,
             int          saved_errno)
{
  g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
               _("Cannot write to the crawl log “%s”: %s"), path, g_strerror (saved_errno));
  return FALSE;
}

static gboolean
open_error (GError     **error,
            const char  *path,
            int          saved_errno)
{
  g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
               _("Cannot open the crawl log “%s”: %s"), path, g_strerror (saved_errno));
  return FALSE;
}

/* How far back the end of a log is read at a time, looking for the end of
 * its last whole line. */
#define TAIL_BLOCK 4096

/* The size of @fd's file, @size bytes long, up to the end of its last
 * whole line, or -1 with errno set. */
static goffset
whole_lines_size (int     fd,
                  goffset size)
{
  char block[TAIL_BLOCK];
  goffset end = size;

  while (end > 0)
    {
      goffset start = MAX (end - TAIL_BLOCK, 0);
      gssize n = pread (fd, block, (gsize) (end - start), start);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        {
          if (n == 0)
            errno = EIO;
          return -1;
        }
      for (gssize i = n - 1; i >= 0; i--)
        if (block[i] == '\n')
          return start + i + 1;
      end = start;
    }
  return 0;
}

/* Cuts the log at @path, if it exists, to @committed_size when it is
 * longer, or else after its last newline; sets @out_size to its size. */
static gboolean
cut_uncommitted (const char  *path,
                 gint64       committed_size,
                 goffset     *out_size,
                 GError     **error)
{
  int fd = g_open (path, O_RDWR | O_CLOEXEC, 0);
  goffset size = -1, kept = -1;
  int saved_errno;

  *out_size = 0;
  if (fd < 0 && errno == ENOENT)
    return TRUE;
  if (fd >= 0 && (size = lseek (fd, 0, SEEK_END)) >= 0)
    kept = committed_size >= 0 && committed_size < size ? committed_size : whole_lines_size (fd, size);
  if (kept >= 0 && (kept == size || ftruncate (fd, kept) == 0))
    {
      close (fd);
      *out_size = kept;
      return TRUE;
    }
  saved_errno = errno;
  if (fd >= 0)
    close (fd);
  return open_error (error, path, saved_errno);
}

CgCrawlLog *
cg_crawl_log_open (const char  *path,
                   gint64       committed_size,
                   GError     **error)
{
  g_autoptr(CgCrawlLog) self = g_object_new (CG_TYPE_CRAWL_LOG, NULL);

  self->path = g_strdup (path);
  if (!cut_uncommitted (path, committed_size, &self->size, error))
    return NULL;
  self->fd = g_open (path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (self->fd < 0)
    {
      open_error (error, path, errno);
      return NULL;
    }
  return g_steal_pointer (&self);
}

/* Appends @entry as a line, without its newline. */
static void
append_entry (GString               *line,
              const CgCrawlLogEntry *entry)
{
  /* Formatted by hand (cg-format.h): a crawl writes a line per URL. */
  cg_format_append_utc (line, entry->log_time_us, FALSE);
  g_string_append_c (line, '.');
  cg_format_append_decimal (line, (entry->log_time_us / 1000) % 1000, 3, '0');
  g_string_append (line, "Z ");
  cg_format_append_decimal (line, entry->status, 5, ' ');
  g_string_append_c (line, ' ');
  if (entry->size >= 0)
    cg_format_append_decimal (line, entry->size, 10, ' ');
  else
    g_string_append (line, "         -");
  g_string_append_c (line, ' ');
  g_string_append (line, entry->url);
  g_string_append_c (line, ' ');
  g_string_append (line, entry->hops != NULL && *entry->hops != '\0' ? entry->hops : "-");
  g_string_append_c (line, ' ');
  g_string_append (line, entry->via != NULL ? entry->via : "-");
  g_string_append_c (line, ' ');
  g_string_append (line, entry->mime != NULL && *entry->mime != '\0' ? entry->mime : "no-type");
  g_string_append (line, " #");
  cg_format_append_decimal (line, entry->worker, 3, '0');
  g_string_append_c (line, ' ');
  if (entry->fetch_start_us > 0)
    {
      cg_format_append_utc (line, entry->fetch_start_us, TRUE);
      cg_format_append_decimal (line, (entry->fetch_start_us / 1000) % 1000, 3, '0');
      g_string_append_c (line, '+');
      cg_format_append_decimal (line, entry->duration_ms, 0, ' ');
      g_string_append_c (line, ' ');
    }
  else
    g_string_append (line, "- ");
  g_string_append (line, entry->digest != NULL ? entry->digest : "-");
  g_string_append (line, " - ");
  g_string_append (line, entry->annotations != NULL && *entry->annotations != '\0' ? entry->annotations : "-");
}

char *
cg_crawl_log_format_entry (const CgCrawlLogEntry *entry)
{
  GString *line = g_string_sized_new (256);

  append_entry (line, entry);
  return g_string_free (line, FALSE);
}

gboolean
cg_crawl_log_write (CgCrawlLog             *self,
                    const CgCrawlLogEntry  *entry,
                    GError                **error)
{
  g_return_val_if_fail (CG_IS_CRAWL_LOG (self), FALSE);

  append_entry (self->held, entry);
  g_string_append_c (self->held, '\n');
  return self->held->len < MAX_HELD_BYTES || cg_crawl_log_flush (self, error);
}

gboolean
cg_crawl_log_flush (CgCrawlLog  *self,
                    GError     **error)
{
  int saved_errno = 0;

  g_return_val_if_fail (CG_IS_CRAWL_LOG (self), FALSE);

  /* Whole lines only, in one write: a process killed meanwhile leaves at
   * most an unfinished last line, which the next opening cuts. */
  if (!cg_fd_write_all (self->fd, self->held->str, self->held->len, &saved_errno))
    {
      /* No part of a line is left for the next lines to be glued to. */
      if (ftruncate (self->fd, self->size) != 0)
        g_debug ("Could not cut the crawl log “%s” back: %s", self->path, g_strerror (errno));
      return write_error (error, self->path, saved_errno);
    }
  self->size += self->held->len;
  g_string_truncate (self->held, 0);
  return TRUE;
}

goffset
cg_crawl_log_get_size (CgCrawlLog *self)
{
  g_return_val_if_fail (CG_IS_CRAWL_LOG (self), 0);
  return self->size;
}

gboolean
cg_crawl_log_cut (CgCrawlLog  *self,
                  goffset      size,
                  GError     **error)
{
  g_return_val_if_fail (CG_IS_CRAWL_LOG (self), FALSE);
  g_return_val_if_fail (size >= 0, FALSE);

  g_string_truncate (self->held, 0);
  if (size >= self->size)
    return TRUE;
  if (ftruncate (self->fd, size) != 0)
    return write_error (error, self->path, errno);
  self->size = size;
  return TRUE;
}

void
cg_crawl_log_discard (CgCrawlLog *self)
{
  g_return_if_fail (CG_IS_CRAWL_LOG (self));
  g_string_truncate (self->held, 0);
}
