/* cg-crawl-log.c: the crawl log, in Heritrix's crawl.log format.
 *
 * One line per URL the crawl dealt with, the format Heritrix writes and
 * archivists' tools read: log time, status, size, URL, hop path, via,
 * MIME type, worker, fetch start+duration, digest, source, annotations.
 * The log is appended to, so a resumed crawl continues the same file.
 * A crawl killed while writing, or stopped by a full disk, can leave half
 * a line at the end; it is cut before appending, or the next line would
 * be glued to it and neither could be read.
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
#include "cg-format.h"

/* Lines held past this are written out without waiting for a flush, so
 * that a caller that never flushes does not hold the whole log. */
#define MAX_HELD_BYTES (8 * 1024 * 1024)

struct _CgCrawlLog
{
  GObject        parent_instance;
  char          *path;
  GOutputStream *stream;
  GString       *held;   /* whole lines written since the last flush */
};

G_DEFINE_FINAL_TYPE (CgCrawlLog, cg_crawl_log, G_TYPE_OBJECT)

static void
cg_crawl_log_finalize (GObject *object)
{
  CgCrawlLog *self = CG_CRAWL_LOG (object);

  if (self->stream != NULL)
    {
      g_output_stream_write_all (self->stream, self->held->str, self->held->len, NULL, NULL, NULL);
      g_output_stream_close (self->stream, NULL, NULL);
    }
  g_clear_object (&self->stream);
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
  self->held = g_string_sized_new (64 * 1024);
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

/* Cuts what follows the last newline of the log at @path, if it exists. */
static gboolean
cut_unfinished_line (const char  *path,
                     GError     **error)
{
  int fd = g_open (path, O_RDWR | O_CLOEXEC, 0);
  goffset size = -1, whole = -1;
  int saved_errno;

  if (fd < 0 && errno == ENOENT)
    return TRUE;
  if (fd >= 0 && (size = lseek (fd, 0, SEEK_END)) >= 0)
    whole = whole_lines_size (fd, size);
  if (whole >= 0 && (whole == size || ftruncate (fd, whole) == 0))
    {
      close (fd);
      return TRUE;
    }
  saved_errno = errno;
  if (fd >= 0)
    close (fd);
  g_set_error_literal (error, G_IO_ERROR, g_io_error_from_errno (saved_errno), g_strerror (saved_errno));
  g_prefix_error (error, _("Cannot open the crawl log “%s”: "), path);
  return FALSE;
}

CgCrawlLog *
cg_crawl_log_open (const char  *path,
                   GError     **error)
{
  g_autoptr(CgCrawlLog) self = g_object_new (CG_TYPE_CRAWL_LOG, NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFileOutputStream) out = NULL;

  if (!cut_unfinished_line (path, error))
    return NULL;
  out = g_file_append_to (file, G_FILE_CREATE_NONE, NULL, error);
  if (out == NULL)
    {
      g_prefix_error (error, _("Cannot open the crawl log “%s”: "), path);
      return NULL;
    }
  self->path = g_strdup (path);
  self->stream = G_OUTPUT_STREAM (g_steal_pointer (&out));
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
  g_return_val_if_fail (CG_IS_CRAWL_LOG (self), FALSE);

  if (self->held->len == 0)
    return TRUE;
  /* Whole lines only, in one write: a process killed meanwhile leaves at
   * most an unfinished last line, which the next opening cuts. */
  if (!g_output_stream_write_all (self->stream, self->held->str, self->held->len, NULL, NULL, error))
    {
      g_prefix_error (error, _("Cannot write to the crawl log “%s”: "), self->path);
      return FALSE;
    }
  g_string_truncate (self->held, 0);
  return TRUE;
}

void
cg_crawl_log_discard (CgCrawlLog *self)
{
  g_return_if_fail (CG_IS_CRAWL_LOG (self));
  g_string_truncate (self->held, 0);
}
