/* cg-warc-writer.c: writes WARC 1.1 files, one gzip member per record.
 *
 * A record is built in one buffer (WARC header, block, the two CRLF),
 * compressed into a second in one call (cg-gzip-compressor.c), and written
 * with one write(2). The whole-buffer compressors are several times faster
 * than zlib's streaming one, so the payload is copied once into the first
 * buffer; that copy costs far less than the compressing that follows.
 * Both buffers are kept between records.
 *
 * WARC-Date is written with second precision. WARC 1.1 allows fractions,
 * but WARC 1.0 readers (OpenWayback, older pywb and many scripts) reject
 * them, CDXJ keys carry 14 digits anyway, and records written in the same
 * second stay told apart by WARC-Record-ID.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* For sync_file_range(). */
#define _GNU_SOURCE
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "cg-cdxj.h"
#include "cg-fd.h"
#include "cg-format.h"
#include "cg-gzip-compressor.h"
#include "cg-warc-reader.h"
#include "cg-warc-writer.h"

/* Buffers grown past this by one large record are released after it, so
 * one large download does not pin its size for the rest of the crawl. */
#define KEEP_BUFFER_SIZE (8 * 1024 * 1024)

/* Written data is handed to the kernel for writing out in steps of this
 * size (see start_writeback()). */
#define WRITEBACK_STEP (8 * 1024 * 1024)

/* A writer that holds records (see cg_warc_writer_set_hold_records())
 * writes them out once this much is held, so that a long batch does not
 * grow without bound. */
#define HELD_WRITE_SIZE (1024 * 1024)

/* How many names are tried when a file of the chosen name already exists
 * (another writer with the same prefix, which the caller should avoid). */
#define MAX_NAME_ATTEMPTS 1000

struct _CgWarcWriter
{
  GObject                        parent_instance;

  char                          *directory;
  char                          *prefix;
  guint64                        max_file_size;
  int                            level;
  CgWarcDigestAlgorithm          algorithm;
  gboolean                       write_index;

  char                          *crawl_config;
  CgWarcRobotsPolicy             robots;
  char                          *operator_;

  CgGzipCompressor              *compressor;
  guint8                        *scratch;
  gsize                          scratch_len;
  gsize                          scratch_size;
  guint8                        *packed;
  gsize                          packed_size;
  /* Compressed records not yet written to the file (see
   * cg_warc_writer_set_hold_records()): the file's last held_len bytes,
   * from flushed_size to file_size. */
  gboolean                       hold_records;
  guint8                        *held;
  gsize                          held_len;
  gsize                          held_size;

  int                            fd;
  char                          *file_name;
  char                          *file_path;
  guint64                        file_size;
  /* How much of the file is written to it; the rest is held. */
  guint64                        flushed_size;
  /* Up to where writing out to disk has been started. */
  guint64                        writeback_from;
  /* The record id of the open file's warcinfo, which every later record
   * of the file names in WARC-Warcinfo-ID. */
  char                          *warcinfo_id;
  /* The id of the last record written to the open file: a record
   * concurrent to it is written to the same file, full or not, so that
   * the records of one exchange are never split between two files (a
   * reader, and the crawl's bookkeeping, find a page's records in one). */
  char                          *last_record_id;
  gboolean                       serial_known;
  guint                          next_serial;
  CgCdxjIndex                   *index;
};

G_DEFINE_TYPE (CgWarcWriter, cg_warc_writer, G_TYPE_OBJECT)

void
cg_warc_record_info_free (CgWarcRecordInfo *info)
{
  if (info == NULL)
    return;

  g_free (info->file_name);
  g_free (info->record_id);
  g_free (info->date);
  g_free (info->block_digest);
  g_free (info->payload_digest);
  g_free (info);
}

static void
cg_warc_writer_finalize (GObject *object)
{
  CgWarcWriter *self = CG_WARC_WRITER (object);
  g_autoptr(GError) error = NULL;

  if (self->fd >= 0 && !cg_warc_writer_close (self, &error))
    g_warning ("%s", error->message);

  g_clear_pointer (&self->compressor, cg_gzip_compressor_free);
  g_free (self->scratch);
  g_free (self->packed);
  g_free (self->held);
  g_free (self->directory);
  g_free (self->prefix);
  g_free (self->crawl_config);
  g_free (self->operator_);
  g_free (self->file_name);
  g_free (self->file_path);
  g_free (self->warcinfo_id);
  g_free (self->last_record_id);
  g_clear_pointer (&self->index, cg_cdxj_index_free);

  G_OBJECT_CLASS (cg_warc_writer_parent_class)->finalize (object);
}

static void
cg_warc_writer_class_init (CgWarcWriterClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = cg_warc_writer_finalize;
}

static void
cg_warc_writer_init (CgWarcWriter *self)
{
  self->fd = -1;
  self->max_file_size = CG_WARC_WRITER_DEFAULT_MAX_FILE_SIZE;
  self->level = CG_WARC_WRITER_DEFAULT_COMPRESSION_LEVEL;
  self->algorithm = CG_WARC_DEFAULT_DIGEST;
  self->write_index = TRUE;
  self->robots = CG_WARC_ROBOTS_OBEY;
  self->crawl_config = g_strdup ("");
}

static gboolean
invalid (GError     **error,
         const char  *format,
         ...) G_GNUC_PRINTF (2, 3);

static gboolean
invalid (GError     **error,
         const char  *format,
         ...)
{
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error_literal (error, CG_WARC_ERROR, CG_WARC_ERROR_INVALID_ARGUMENT, message);
  return FALSE;
}

/* A field value may hold no control character: a line break in it would
 * end the field and let the rest be read as another field. */
static gboolean
is_clean_text (const char *text,
               gboolean    allow_space)
{
  for (const guchar *p = (const guchar *) text; *p != '\0'; p++)
    if (*p < 0x20 || *p == 0x7f || (!allow_space && *p == ' '))
      return FALSE;
  return TRUE;
}

/* @what, in these checks, is the untranslated name of the value (marked
 * with N_()), translated only for an error: the checks run for every
 * record and every outlink, and looking up a translation is not free. */
static gboolean
check_value (const char  *what,
             const char  *value,
             gboolean     allow_space,
             GError     **error)
{
  if (value == NULL || value[0] == '\0')
    return invalid (error, _("The WARC record needs a %s."), _(what));
  if (!g_utf8_validate (value, -1, NULL) || !is_clean_text (value, allow_space))
    {
      g_autofree char *shown = g_strescape (value, NULL);

      return invalid (error, _("The %s “%s” cannot be written in a WARC header."), _(what), shown);
    }
  return TRUE;
}

static gboolean
check_record_id (const char  *what,
                 const char  *value,
                 GError     **error)
{
  if (value == NULL)
    return TRUE;
  if (!check_value (what, value, FALSE, error))
    return FALSE;
  if (value[0] != '<' || !g_str_has_suffix (value, ">"))
    return invalid (error, _("The %s “%s” is not a record id in angle brackets."), _(what), value);
  return TRUE;
}

/* inet_pton() accepts what GLib's g_inet_address_new_from_string() does
 * (it is what that calls), without an object to create and free for
 * every record. */
static gboolean
check_ip_address (const char  *value,
                  GError     **error)
{
  struct in6_addr address;

  if (value == NULL)
    return TRUE;
  if (inet_pton (AF_INET, value, &address) <= 0 && inet_pton (AF_INET6, value, &address) <= 0)
    {
      g_autofree char *shown = g_strescape (value, NULL);

      return invalid (error, _("“%s” is not an IP address."), shown);
    }
  return TRUE;
}

static gboolean
is_http_token (const char *text,
               gsize       length)
{
  if (length == 0)
    return FALSE;
  for (gsize i = 0; i < length; i++)
    if (!g_ascii_isalnum (text[i]) && strchr ("!#$%&'*+-.^_`|~", text[i]) == NULL)
      return FALSE;
  return TRUE;
}

/* An HTTP header block must end with its empty line; otherwise readers
 * cannot tell where the payload starts. */
static gboolean
check_http_headers (const char    *what,
                    const guint8  *headers,
                    gsize          length,
                    gboolean       is_response,
                    GError       **error)
{
  if (headers == NULL || length == 0)
    return invalid (error, _("The WARC record needs the %s."), _(what));
  if (length < 4 || memcmp (headers + length - 4, "\r\n\r\n", 4) != 0)
    return invalid (error, _("The %s does not end with an empty line (CRLF CRLF)."), _(what));
  /* application/http is HTTP/1 message syntax; HTTP/2 exchanges are
   * recorded with an HTTP/1.1 status line, as other archiving tools do. */
  if (is_response && (length < 9 || (memcmp (headers, "HTTP/1.1 ", 9) != 0 &&
                                     memcmp (headers, "HTTP/1.0 ", 9) != 0)))
    return invalid (error, _("The %s does not start with an HTTP/1.1 or HTTP/1.0 status line."),
                    _(what));
  return TRUE;
}

CgWarcWriter *
cg_warc_writer_new (const char  *directory,
                    const char  *prefix,
                    GError     **error)
{
  g_autoptr(CgWarcWriter) self = NULL;

  g_return_val_if_fail (directory != NULL, NULL);
  g_return_val_if_fail (prefix != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (prefix[0] == '\0' || strchr (prefix, '/') != NULL ||
      !g_utf8_validate (prefix, -1, NULL) || !is_clean_text (prefix, FALSE))
    {
      g_autofree char *shown = g_strescape (prefix, NULL);

      invalid (error, _("“%s” cannot be used as a WARC file name prefix."), shown);
      return NULL;
    }

  if (g_mkdir_with_parents (directory, 0755) != 0)
    {
      int saved_errno = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                   _("Could not create the WARC folder “%s”: %s"),
                   directory, g_strerror (saved_errno));
      return NULL;
    }

  self = g_object_new (CG_TYPE_WARC_WRITER, NULL);
  self->directory = g_strdup (directory);
  self->prefix = g_strdup (prefix);
  return g_steal_pointer (&self);
}

const char *
cg_warc_writer_get_directory (CgWarcWriter *self)
{
  g_return_val_if_fail (CG_IS_WARC_WRITER (self), NULL);

  return self->directory;
}

const char *
cg_warc_writer_get_prefix (CgWarcWriter *self)
{
  g_return_val_if_fail (CG_IS_WARC_WRITER (self), NULL);

  return self->prefix;
}

void
cg_warc_writer_set_max_file_size (CgWarcWriter *self,
                                  guint64       max_file_size)
{
  g_return_if_fail (CG_IS_WARC_WRITER (self));
  g_return_if_fail (max_file_size > 0);

  self->max_file_size = max_file_size;
}

void
cg_warc_writer_set_compression_level (CgWarcWriter *self,
                                      int           level)
{
  g_return_if_fail (CG_IS_WARC_WRITER (self));
  g_return_if_fail (level >= 0 && level <= CG_WARC_WRITER_MAX_COMPRESSION_LEVEL);

  if (level != self->level)
    g_clear_pointer (&self->compressor, cg_gzip_compressor_free);
  self->level = level;
}

void
cg_warc_writer_set_digest_algorithm (CgWarcWriter          *self,
                                     CgWarcDigestAlgorithm  algorithm)
{
  g_return_if_fail (CG_IS_WARC_WRITER (self));
  g_return_if_fail (algorithm == CG_WARC_DIGEST_SHA1 || algorithm == CG_WARC_DIGEST_SHA256);

  self->algorithm = algorithm;
}

CgWarcDigestAlgorithm
cg_warc_writer_get_digest_algorithm (CgWarcWriter *self)
{
  g_return_val_if_fail (CG_IS_WARC_WRITER (self), CG_WARC_DEFAULT_DIGEST);

  return self->algorithm;
}

void
cg_warc_writer_set_write_index (CgWarcWriter *self,
                                gboolean      write_index)
{
  g_return_if_fail (CG_IS_WARC_WRITER (self));

  self->write_index = !!write_index;
}

gboolean
cg_warc_writer_set_crawl_config (CgWarcWriter  *self,
                                 const char    *crawl_config,
                                 GError       **error)
{
  g_auto(GStrv) lines = NULL;
  g_autoptr(GString) normalized = g_string_new (NULL);

  g_return_val_if_fail (CG_IS_WARC_WRITER (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (crawl_config == NULL)
    crawl_config = "";
  if (!g_utf8_validate (crawl_config, -1, NULL))
    return invalid (error, _("The crawl configuration for the warcinfo record is not valid UTF-8."));

  lines = g_strsplit (crawl_config, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      char *line = g_strstrip (lines[i]);
      const char *colon;
      g_autofree char *name = NULL;
      g_autofree char *value = NULL;

      if (line[0] == '\0')
        continue;

      colon = strchr (line, ':');
      if (colon == NULL || !is_http_token (line, colon - line))
        return invalid (error, _("Line %u of the crawl configuration, “%s”, is not of the form "
                                 "“name: value”."), i + 1, line);
      value = g_strstrip (g_strdup (colon + 1));
      if (!is_clean_text (value, TRUE))
        return invalid (error, _("Line %u of the crawl configuration holds a control character."),
                        i + 1);
      name = g_strndup (line, colon - line);
      g_string_append_printf (normalized, "%s: %s\r\n", name, value);
    }

  g_free (self->crawl_config);
  self->crawl_config = g_string_free (g_steal_pointer (&normalized), FALSE);
  return TRUE;
}

void
cg_warc_writer_set_robots_policy (CgWarcWriter       *self,
                                  CgWarcRobotsPolicy  policy)
{
  g_return_if_fail (CG_IS_WARC_WRITER (self));

  self->robots = policy;
}

gboolean
cg_warc_writer_set_operator (CgWarcWriter  *self,
                             const char    *operator_,
                             GError       **error)
{
  g_return_val_if_fail (CG_IS_WARC_WRITER (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (operator_ != NULL && operator_[0] != '\0' && !check_value (N_("operator"), operator_, TRUE, error))
    return FALSE;

  g_free (self->operator_);
  self->operator_ = operator_ != NULL && operator_[0] != '\0' ? g_strdup (operator_) : NULL;
  return TRUE;
}

const char *
cg_warc_writer_get_current_file_name (CgWarcWriter *self)
{
  g_return_val_if_fail (CG_IS_WARC_WRITER (self), NULL);

  return self->file_name;
}

/* A version 4 (random) UUID in its text form, as g_uuid_string_random()
 * makes it, from the same random numbers. GLib writes the 16 bytes with
 * one printf of 16 conversions: with the concatenation around it, 7,300
 * instructions an id under callgrind, where this takes 500. A crawl names
 * four records a page, and in perf profiles of the crawl throughput
 * benchmark (tests/bench) GLib's way was 2.7 % of the WARC writer
 * thread's time. */
char *
cg_warc_new_record_id (void)
{
  static const char hex[] = "0123456789abcdef";
  static const char prefix[] = "<urn:uuid:";
  guint8 bytes[16];
  char *id = g_malloc (sizeof prefix - 1 + 36 + 2);
  char *p = id;

  for (guint i = 0; i < sizeof bytes; i += 4)
    {
      guint32 r = g_random_int ();

      memcpy (bytes + i, &r, 4);
    }
  /* RFC 9562 §5.4: the version (4) in the high bits of byte 6, the
   * variant (binary 10) in the high bits of byte 8. */
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;

  memcpy (p, prefix, sizeof prefix - 1);
  p += sizeof prefix - 1;
  for (guint i = 0; i < sizeof bytes; i++)
    {
      if (i == 4 || i == 6 || i == 8 || i == 10)
        *p++ = '-';
      *p++ = hex[bytes[i] >> 4];
      *p++ = hex[bytes[i] & 0x0f];
    }
  *p++ = '>';
  *p = '\0';
  return id;
}

char *
cg_warc_format_date (GDateTime *date)
{
  /* Every record of a crawl needs one: g_date_time_format() interprets
   * its format and the locale each time, and was 2 % of the crawl
   * thread's work in the crawl throughput benchmark (tests/bench). */
  gint64 seconds = date != NULL ? g_date_time_to_unix (date) : g_get_real_time () / G_USEC_PER_SEC;
  GString *text = g_string_sized_new (24);

  cg_format_append_utc (text, seconds * G_USEC_PER_SEC, FALSE);
  g_string_append_c (text, 'Z');
  return g_string_free (text, FALSE);
}

/* ------------------------------------------------------------------ */
/* Records                                                             */

typedef enum {
  PAYLOAD_NONE,
  PAYLOAD_BODY,
  PAYLOAD_GIVEN,
} PayloadKind;

typedef struct {
  const char       *type;
  const char       *record_id;
  const char       *target_uri;
  const char       *date;
  const char       *ip_address;
  const char       *concurrent_to;
  const char       *content_type;
  /* Further fields, each ending with CRLF. */
  const char       *extra_fields;
  /* The block is head followed by body; the payload, when it is
   * computed, is body. */
  const guint8     *head;
  gsize             head_length;
  const guint8     *body;
  gsize             body_length;
  PayloadKind       payload;
  const char       *given_payload_digest;
  CgWarcTruncation  truncated;
} RecordSpec;

static const char *
truncation_name (CgWarcTruncation truncated)
{
  switch (truncated)
    {
    case CG_WARC_TRUNCATED_LENGTH:
      return "length";
    case CG_WARC_TRUNCATED_TIME:
      return "time";
    case CG_WARC_TRUNCATED_DISCONNECT:
      return "disconnect";
    case CG_WARC_TRUNCATED_UNSPECIFIED:
      return "unspecified";
    case CG_WARC_TRUNCATED_NONE:
    default:
      return NULL;
    }
}

/* Starts writing out what was written since the last step, without
 * waiting for it. The kernel would otherwise keep a whole crawl's records
 * in memory for up to half a minute, and the fdatasync() that closes the
 * file would then wait for all of it at once: a quarter of a second at the
 * end of the crawl throughput benchmark (tests/bench), with the crawl's
 * last records held back meanwhile. Where the call is not supported, the
 * kernel writes out on its own schedule, as before. */
static void
start_writeback (CgWarcWriter *self)
{
#ifdef HAVE_SYNC_FILE_RANGE
  /* A record cut off after a failed write moved the end back. */
  self->writeback_from = MIN (self->writeback_from, self->flushed_size);
  if (self->flushed_size - self->writeback_from < WRITEBACK_STEP)
    return;
  /* A failure (a file system that does not support it) is no error: the
   * next step tries again. */
  sync_file_range (self->fd, (off64_t) self->writeback_from,
                   (off64_t) (self->flushed_size - self->writeback_from), SYNC_FILE_RANGE_WRITE);
  self->writeback_from = self->flushed_size;
#endif
}

/* The compressor for the level set, made when the first record needs it
 * (the warcinfo record names it). */
static gboolean
ensure_compressor (CgWarcWriter  *self,
                   GError       **error)
{
  if (self->compressor != NULL)
    return TRUE;
  self->compressor = cg_gzip_compressor_new (self->level);
  if (self->compressor == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                   _("Could not start the WARC compressor (out of memory)"));
      return FALSE;
    }
  return TRUE;
}

static void
scratch_reserve (CgWarcWriter *self,
                 gsize         extra)
{
  gsize needed = self->scratch_len + extra;

  if (needed <= self->scratch_size)
    return;
  self->scratch_size = MAX (needed, MAX (self->scratch_size * 2, 64 * 1024));
  self->scratch = g_realloc (self->scratch, self->scratch_size);
}

static void
scratch_append (CgWarcWriter *self,
                const void   *data,
                gsize         length)
{
  if (length == 0)
    return;
  scratch_reserve (self, length);
  memcpy (self->scratch + self->scratch_len, data, length);
  self->scratch_len += length;
}

static void
scratch_append_field (CgWarcWriter *self,
                      const char   *name,
                      const char   *value)
{
  scratch_append (self, name, strlen (name));
  scratch_append (self, ": ", 2);
  scratch_append (self, value, strlen (value));
  scratch_append (self, "\r\n", 2);
}

static gboolean
file_error (CgWarcWriter  *self,
            GError       **error,
            const char    *what,
            int            saved_errno)
{
  g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
               "%s “%s”: %s", what,
               self->file_path != NULL ? self->file_path : self->directory,
               g_strerror (saved_errno));
  return FALSE;
}

/* Takes the records from @end on back out of the file: those held are
 * dropped, those written are cut off. When the file cannot be cut, it is
 * left as it is (the records stay). */
static void
cut_back (CgWarcWriter *self,
          guint64       end)
{
  if (end >= self->file_size)
    return;
  if (end >= self->flushed_size)
    {
      self->held_len = end - self->flushed_size;
      self->file_size = end;
      return;
    }
  if (ftruncate (self->fd, (off_t) end) != 0)
    return;
  lseek (self->fd, (off_t) end, SEEK_SET);
  self->held_len = 0;
  self->flushed_size = self->file_size = end;
}

/* After a write that failed: cuts off what part of it reached the file,
 * so that the file stays a sequence of whole records, and puts the next
 * write at @end whether or not that could be done, so that the next
 * record's offset is right. */
static void
rewind_after_failed_write (CgWarcWriter *self,
                           guint64       end)
{
  if (ftruncate (self->fd, (off_t) end) != 0)
    g_debug ("Could not cut “%s” back: %s", self->file_path, g_strerror (errno));
  lseek (self->fd, (off_t) end, SEEK_SET);
}

/* Forgets the open file after its first records could not be written:
 * without its warcinfo it cannot be continued, so it is removed, and the
 * next record starts a new file. */
static void
drop_file (CgWarcWriter *self)
{
  close (self->fd);
  self->fd = -1;
  g_unlink (self->file_path);
  self->file_size = self->flushed_size = 0;
  self->held_len = 0;
  g_clear_pointer (&self->file_name, g_free);
  g_clear_pointer (&self->file_path, g_free);
  g_clear_pointer (&self->warcinfo_id, g_free);
  g_clear_pointer (&self->last_record_id, g_free);
  g_clear_pointer (&self->index, cg_cdxj_index_free);
}

/* Writes the held records to the file. On error none of them is in it:
 * the file is cut back to its written part, and the index is dropped, so
 * that it names no record the file lacks (a file closed without its index
 * is indexed again by cg_warc_writer_recover()); a file that had nothing
 * written, not even its warcinfo, is removed (see drop_file()). */
static gboolean
write_held (CgWarcWriter  *self,
            GError       **error)
{
  int saved_errno = 0;

  if (self->held_len == 0)
    return TRUE;

  if (!cg_fd_write_all (self->fd, self->held, self->held_len, &saved_errno))
    {
      file_error (self, error, _("Could not write to the WARC file"), saved_errno);
      if (self->flushed_size == 0)
        {
          drop_file (self);
          return FALSE;
        }
      rewind_after_failed_write (self, self->flushed_size);
      self->held_len = 0;
      self->file_size = self->flushed_size;
      g_clear_pointer (&self->index, cg_cdxj_index_free);
      return FALSE;
    }

  self->flushed_size = self->file_size;
  self->held_len = 0;
  if (self->held_size > KEEP_BUFFER_SIZE)
    {
      g_clear_pointer (&self->held, g_free);
      self->held_size = 0;
    }
  start_writeback (self);
  return TRUE;
}

/* Where write_spec() compresses a record of at most @bound bytes: the
 * end of the held records, or the buffer of one record. */
static guint8 *
record_buffer (CgWarcWriter *self,
               gsize         bound)
{
  if (self->hold_records)
    {
      if (self->held_len + bound > self->held_size)
        {
          self->held_size = MAX (self->held_len + bound, MAX (self->held_size * 2, HELD_WRITE_SIZE + 64 * 1024));
          self->held = g_realloc (self->held, self->held_size);
        }
      return self->held + self->held_len;
    }
  if (bound > self->packed_size)
    {
      g_free (self->packed);
      self->packed_size = MAX (bound, 64 * 1024);
      self->packed = g_malloc (self->packed_size);
    }
  return self->packed;
}

/* Builds, compresses and appends one record to the open file, or to the
 * held records. On a write error the file is cut back to where it was. */
static CgWarcRecordInfo *
write_spec (CgWarcWriter      *self,
            const RecordSpec  *spec,
            GError           **error)
{
  g_autoptr(CgWarcRecordInfo) info = g_new0 (CgWarcRecordInfo, 1);
  g_autoptr(CgWarcDigest) block = NULL;
  g_autofree char *length_text = NULL;
  const char *truncated;
  gsize bound;
  gsize packed_length;
  guint8 *packed;
  int saved_errno = 0;

  g_assert (self->fd >= 0);

  block = cg_warc_digest_new (self->algorithm);
  cg_warc_digest_update (block, spec->head, spec->head_length);
  cg_warc_digest_update (block, spec->body, spec->body_length);
  info->block_digest = cg_warc_digest_to_string (block);

  if (spec->payload == PAYLOAD_BODY)
    info->payload_digest = cg_warc_digest_compute (self->algorithm, spec->body, spec->body_length);
  else if (spec->payload == PAYLOAD_GIVEN)
    info->payload_digest = g_strdup (spec->given_payload_digest);

  info->record_id = spec->record_id != NULL ? g_strdup (spec->record_id) : cg_warc_new_record_id ();
  info->date = g_strdup (spec->date);
  info->file_name = g_strdup (self->file_name);
  info->offset = self->file_size;

  self->scratch_len = 0;
  scratch_append (self, "WARC/1.1\r\n", 10);
  scratch_append_field (self, "WARC-Type", spec->type);
  scratch_append_field (self, "WARC-Record-ID", info->record_id);
  scratch_append_field (self, "WARC-Date", info->date);
  if (spec->target_uri != NULL)
    scratch_append_field (self, "WARC-Target-URI", spec->target_uri);
  if (spec->ip_address != NULL)
    scratch_append_field (self, "WARC-IP-Address", spec->ip_address);
  if (spec->concurrent_to != NULL)
    scratch_append_field (self, "WARC-Concurrent-To", spec->concurrent_to);
  if (self->warcinfo_id != NULL)
    scratch_append_field (self, "WARC-Warcinfo-ID", self->warcinfo_id);
  if (spec->extra_fields != NULL)
    scratch_append (self, spec->extra_fields, strlen (spec->extra_fields));
  scratch_append_field (self, "Content-Type", spec->content_type);
  scratch_append_field (self, "WARC-Block-Digest", info->block_digest);
  if (info->payload_digest != NULL)
    scratch_append_field (self, "WARC-Payload-Digest", info->payload_digest);
  truncated = truncation_name (spec->truncated);
  if (truncated != NULL)
    scratch_append_field (self, "WARC-Truncated", truncated);
  length_text = g_strdup_printf ("%" G_GSIZE_FORMAT, spec->head_length + spec->body_length);
  scratch_append_field (self, "Content-Length", length_text);
  scratch_append (self, "\r\n", 2);
  scratch_reserve (self, spec->head_length + spec->body_length + 4);
  scratch_append (self, spec->head, spec->head_length);
  scratch_append (self, spec->body, spec->body_length);
  scratch_append (self, "\r\n\r\n", 4);

  if (!ensure_compressor (self, error))
    return NULL;

  bound = cg_gzip_compressor_bound (self->compressor, self->scratch_len);
  packed = record_buffer (self, bound);
  packed_length = cg_gzip_compressor_compress (self->compressor, self->scratch, self->scratch_len,
                                               packed, bound);
  if (packed_length == 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                   _("Could not compress a WARC record for “%s”"), self->file_path);
      return NULL;
    }

  if (self->hold_records)
    {
      self->held_len += packed_length;
      self->file_size += packed_length;
      if (self->held_len >= HELD_WRITE_SIZE && !write_held (self, error))
        return NULL;
    }
  else
    {
      if (!cg_fd_write_all (self->fd, packed, packed_length, &saved_errno))
        {
          rewind_after_failed_write (self, self->file_size);
          file_error (self, error, _("Could not write to the WARC file"), saved_errno);
          return NULL;
        }
      self->file_size += packed_length;
      self->flushed_size = self->file_size;
      start_writeback (self);
    }

  info->length = packed_length;
  g_free (self->last_record_id);
  self->last_record_id = g_strdup (info->record_id);

  if (self->scratch_size > KEEP_BUFFER_SIZE)
    {
      g_clear_pointer (&self->scratch, g_free);
      self->scratch_size = 0;
    }
  if (self->packed_size > KEEP_BUFFER_SIZE)
    {
      g_clear_pointer (&self->packed, g_free);
      self->packed_size = 0;
    }
  self->scratch_len = 0;

  return g_steal_pointer (&info);
}

static void
index_record (CgWarcWriter     *self,
              CgWarcRecordInfo *info,
              const char       *target_uri,
              const char       *mime,
              guint             status)
{
  char timestamp[15];
  const char *digest = NULL;

  if (self->index == NULL)
    return;

  cg_cdxj_timestamp14_of_date (info->date, timestamp);
  if (info->payload_digest != NULL)
    {
      const char *colon = strchr (info->payload_digest, ':');

      digest = colon != NULL ? colon + 1 : info->payload_digest;
    }
  cg_cdxj_index_add (self->index, target_uri, timestamp, mime, status, digest,
                     info->length, info->offset, info->file_name);
}

/* What the index needs of a response's header block, as a caller gave it
 * (see CgWarcExchange); a status of 0 for not given. */
typedef struct {
  guint       status;
  const char *content_type;
} ResponseIndex;

/* The status and Content-Type value of a response header block, for the
 * index, when the caller has not given them. */
static void
read_status_and_content_type (const guint8  *headers,
                              gsize          length,
                              guint         *status,
                              char         **content_type)
{
  g_autoptr(SoupMessageHeaders) parsed = soup_message_headers_new (SOUP_MESSAGE_HEADERS_RESPONSE);
  SoupHTTPVersion version;

  *status = 0;
  *content_type = NULL;
  if (memchr (headers, '\0', length) != NULL ||
      !soup_headers_parse_response ((const char *) headers, (int) MIN (length, G_MAXINT),
                                    parsed, &version, status, NULL))
    {
      *status = 0;
      return;
    }
  *content_type = g_strdup (soup_message_headers_get_one (parsed, "Content-Type"));
}

/* Indexes a response or revisit record: with the status and Content-Type
 * the caller gave, or else with those of its header block. */
static void
index_http_record (CgWarcWriter        *self,
                   CgWarcRecordInfo    *info,
                   const char          *target_uri,
                   const guint8        *headers,
                   gsize                headers_length,
                   const ResponseIndex *known,
                   gboolean             is_revisit)
{
  g_autofree char *read_content_type = NULL;
  g_autofree char *mime = NULL;
  const char *content_type = NULL;
  guint status = 0;

  if (known != NULL && known->status != 0)
    {
      status = known->status;
      content_type = known->content_type;
    }
  else
    {
      read_status_and_content_type (headers, headers_length, &status, &read_content_type);
      content_type = read_content_type;
    }
  if (!is_revisit)
    mime = cg_cdxj_mime_of_content_type (content_type);
  index_record (self, info, target_uri, is_revisit ? "warc/revisit" : mime, status);
}

/* ------------------------------------------------------------------ */
/* Files                                                               */

/* The serial of "PREFIX-YYYYMMDDhhmmss-NNNNN.warc.gz" (or .warc), or -1. */
static gint64
serial_of_name (const char *prefix,
                const char *name)
{
  gsize prefix_length = strlen (prefix);
  const char *rest;
  const char *end;
  const char *dash;
  guint64 serial;

  if (strncmp (name, prefix, prefix_length) != 0 || name[prefix_length] != '-')
    return -1;
  rest = name + prefix_length + 1;
  if (g_str_has_suffix (rest, ".warc.gz"))
    end = rest + strlen (rest) - strlen (".warc.gz");
  else if (g_str_has_suffix (rest, ".warc"))
    end = rest + strlen (rest) - strlen (".warc");
  else
    return -1;

  if (end - rest < 14 + 1 + 1)
    return -1;
  for (int i = 0; i < 14; i++)
    if (!g_ascii_isdigit (rest[i]))
      return -1;
  dash = rest + 14;
  if (*dash != '-' || dash + 1 >= end)
    return -1;
  serial = 0;
  for (const char *p = dash + 1; p < end; p++)
    {
      if (!g_ascii_isdigit (*p) || serial > G_MAXUINT / 10)
        return -1;
      serial = serial * 10 + (*p - '0');
    }
  return serial;
}

gboolean
cg_warc_writer_is_own_file (const char *prefix,
                            const char *name)
{
  g_return_val_if_fail (prefix != NULL && name != NULL, FALSE);

  return g_str_has_suffix (name, ".warc.gz") && serial_of_name (prefix, name) >= 0;
}

static gboolean
find_next_serial (CgWarcWriter  *self,
                  GError       **error)
{
  g_autoptr(GDir) dir = NULL;
  const char *name;
  gint64 highest = -1;

  dir = g_dir_open (self->directory, 0, error);
  if (dir == NULL)
    return FALSE;
  while ((name = g_dir_read_name (dir)) != NULL)
    highest = MAX (highest, serial_of_name (self->prefix, name));

  self->next_serial = (guint) (highest + 1);
  self->serial_known = TRUE;
  return TRUE;
}

static char *
warcinfo_block (CgWarcWriter *self)
{
  GString *block = g_string_new (NULL);

  g_string_append (block, "software: Cartograph " PACKAGE_VERSION "\r\n");
  g_string_append (block, "format: WARC File Format 1.1\r\n");
  g_string_append (block, "conformsTo: " CG_WARC_CONFORMS_TO "\r\n");
  g_string_append_printf (block, "hostname: %s\r\n", g_get_host_name ());
  if (self->operator_ != NULL)
    g_string_append_printf (block, "operator: %s\r\n", self->operator_);
  g_string_append_printf (block, "robots: %s\r\n",
                          self->robots == CG_WARC_ROBOTS_IGNORE ? "ignore" : "obey");
  /* Not a field of the standard's list, which allows others: how the
   * records were compressed, for whoever wonders at the files' size. */
  g_string_append_printf (block, "compression: gzip, one member per record, %s\r\n",
                          cg_gzip_compressor_describe (self->compressor));
  g_string_append (block, self->crawl_config);
  return g_string_free (block, FALSE);
}

/* Opens a file for the next record if none is open, or if the open one
 * is full and the record is not @concurrent_to the last one written. */
static gboolean
ensure_file (CgWarcWriter  *self,
             const char    *concurrent_to,
             GError       **error)
{
  g_autoptr(GDateTime) now = NULL;
  g_autofree char *stamp = NULL;
  g_autofree char *date = NULL;
  g_autofree char *info_block = NULL;
  g_autofree char *extra = NULL;
  g_autoptr(CgWarcRecordInfo) info = NULL;
  RecordSpec spec = { 0, };
  int attempts;

  /* A full file is closed when the next record comes, so that a failure
   * to close it is reported by a call that has written nothing. */
  if (self->fd >= 0 && self->file_size >= self->max_file_size &&
      (concurrent_to == NULL || g_strcmp0 (concurrent_to, self->last_record_id) != 0) &&
      !cg_warc_writer_close (self, error))
    return FALSE;
  if (self->fd >= 0)
    return TRUE;

  if (!self->serial_known && !find_next_serial (self, error))
    return FALSE;
  if (!ensure_compressor (self, error))
    return FALSE;

  now = g_date_time_new_now_utc ();
  stamp = g_date_time_format (now, "%Y%m%d%H%M%S");

  for (attempts = 0; attempts < MAX_NAME_ATTEMPTS; attempts++)
    {
      g_free (self->file_name);
      g_free (self->file_path);
      self->file_name = g_strdup_printf ("%s-%s-%05u.warc.gz", self->prefix, stamp,
                                         self->next_serial++);
      self->file_path = g_build_filename (self->directory, self->file_name, NULL);
      self->fd = g_open (self->file_path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
      if (self->fd >= 0 || errno != EEXIST)
        break;
    }

  if (self->fd < 0)
    {
      file_error (self, error, _("Could not create the WARC file"), errno);
      g_clear_pointer (&self->file_name, g_free);
      g_clear_pointer (&self->file_path, g_free);
      return FALSE;
    }
  self->file_size = 0;
  self->flushed_size = 0;
  self->held_len = 0;
  self->writeback_from = 0;

  date = cg_warc_format_date (now);
  info_block = warcinfo_block (self);
  extra = g_strdup_printf ("WARC-Filename: %s\r\n", self->file_name);
  spec.type = "warcinfo";
  spec.date = date;
  spec.content_type = "application/warc-fields";
  spec.extra_fields = extra;
  spec.head = (const guint8 *) info_block;
  spec.head_length = strlen (info_block);
  spec.payload = PAYLOAD_NONE;

  g_clear_pointer (&self->warcinfo_id, g_free);
  info = write_spec (self, &spec, error);
  if (info == NULL)
    {
      if (self->fd >= 0)
        drop_file (self);
      return FALSE;
    }

  self->warcinfo_id = g_strdup (info->record_id);
  if (self->write_index)
    self->index = cg_cdxj_index_new ();
  return TRUE;
}

gboolean
cg_warc_writer_set_hold_records (CgWarcWriter  *self,
                                 gboolean       hold_records,
                                 GError       **error)
{
  g_return_val_if_fail (CG_IS_WARC_WRITER (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!hold_records && !cg_warc_writer_flush (self, error))
    return FALSE;
  self->hold_records = !!hold_records;
  return TRUE;
}

gboolean
cg_warc_writer_flush (CgWarcWriter  *self,
                      GError       **error)
{
  g_return_val_if_fail (CG_IS_WARC_WRITER (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return self->fd < 0 || write_held (self, error);
}

gboolean
cg_warc_writer_sync (CgWarcWriter  *self,
                     GError       **error)
{
  g_return_val_if_fail (CG_IS_WARC_WRITER (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (self->fd < 0)
    return TRUE;
  if (!write_held (self, error))
    return FALSE;
  if (fdatasync (self->fd) != 0)
    return file_error (self, error, _("Could not flush the WARC file"), errno);
  return TRUE;
}

gboolean
cg_warc_writer_close (CgWarcWriter  *self,
                      GError       **error)
{
  g_autoptr(CgCdxjIndex) index = NULL;
  g_autofree char *path = NULL;
  gboolean ok = TRUE;

  g_return_val_if_fail (CG_IS_WARC_WRITER (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (self->fd < 0)
    return TRUE;

  ok = write_held (self, error);
  if (ok && fdatasync (self->fd) != 0)
    ok = file_error (self, error, _("Could not flush the WARC file"), errno);
  if (close (self->fd) != 0 && ok)
    ok = file_error (self, error, _("Could not close the WARC file"), errno);
  self->fd = -1;

  index = g_steal_pointer (&self->index);
  path = g_steal_pointer (&self->file_path);
  g_clear_pointer (&self->warcinfo_id, g_free);
  g_clear_pointer (&self->last_record_id, g_free);
  g_clear_pointer (&self->file_name, g_free);

  /* An index is written only for a file that was closed well, so that a
   * missing index means the file needs cg_warc_writer_recover(). */
  if (ok && index != NULL)
    {
      g_autofree char *index_path = cg_cdxj_path_for_warc (path);

      ok = cg_cdxj_index_write (index, index_path, error);
    }
  return ok;
}

/* ------------------------------------------------------------------ */
/* Public record writers                                               */

static gboolean
check_common (const char  *target_uri,
              const char  *ip_address,
              const char  *concurrent_to,
              GError     **error)
{
  return check_value (N_("target URI"), target_uri, FALSE, error) &&
         check_ip_address (ip_address, error) &&
         check_record_id (N_("WARC-Concurrent-To value"), concurrent_to, error);
}

static gboolean
check_revisit (const char  *payload_digest,
               const char  *refers_to_target_uri,
               const char  *refers_to_date,
               const char  *refers_to_record_id,
               GError     **error)
{
  if (!check_value (N_("payload digest of the revisited record"), payload_digest, FALSE, error) ||
      !check_value (N_("WARC-Refers-To-Target-URI"), refers_to_target_uri, FALSE, error) ||
      !check_value (N_("WARC-Refers-To-Date"), refers_to_date, FALSE, error) ||
      !check_record_id (N_("WARC-Refers-To"), refers_to_record_id, error))
    return FALSE;
  if (strchr (payload_digest, ':') == NULL)
    return invalid (error, _("The payload digest “%s” has no algorithm label (such as “sha1:”)."),
                    payload_digest);
  return TRUE;
}

static char *
revisit_fields (const char *profile,
                const char *refers_to_target_uri,
                const char *refers_to_date,
                const char *refers_to_record_id)
{
  GString *extra = g_string_new (NULL);

  g_string_append_printf (extra, "WARC-Profile: %s\r\n",
                          profile != NULL ? profile : CG_WARC_REVISIT_PROFILE_IDENTICAL_PAYLOAD);

  if (refers_to_record_id != NULL)
    g_string_append_printf (extra, "WARC-Refers-To: %s\r\n", refers_to_record_id);
  g_string_append_printf (extra, "WARC-Refers-To-Target-URI: %s\r\n", refers_to_target_uri);
  g_string_append_printf (extra, "WARC-Refers-To-Date: %s\r\n", refers_to_date);
  return g_string_free (extra, FALSE);
}

static CgWarcRecordInfo *
write_request_spec (CgWarcWriter  *self,
                    const char    *record_id,
                    const char    *target_uri,
                    const char    *date,
                    const char    *ip_address,
                    const char    *concurrent_to,
                    const guint8  *headers,
                    gsize          headers_length,
                    const guint8  *body,
                    gsize          body_length,
                    GError       **error)
{
  RecordSpec spec = {
    .type = "request",
    .record_id = record_id,
    .target_uri = target_uri,
    .date = date,
    .ip_address = ip_address,
    .concurrent_to = concurrent_to,
    .content_type = "application/http;msgtype=request",
    .head = headers,
    .head_length = headers_length,
    .body = body,
    .body_length = body_length,
    .payload = PAYLOAD_BODY,
  };

  return write_spec (self, &spec, error);
}

static CgWarcRecordInfo *
write_response_spec (CgWarcWriter         *self,
                     const char           *record_id,
                     const char           *target_uri,
                     const char           *date,
                     const char           *ip_address,
                     const char           *concurrent_to,
                     const guint8         *headers,
                     gsize                 headers_length,
                     const guint8         *payload,
                     gsize                 payload_length,
                     const char           *payload_digest,
                     CgWarcTruncation      truncated,
                     const ResponseIndex  *known,
                     GError              **error)
{
  const char *label = cg_warc_digest_algorithm_get_label (self->algorithm);
  gsize label_length = strlen (label);
  /* A digest the caller computed is used if it is one of this writer's
   * algorithm, which saves reading the payload a second time. */
  gboolean given = payload_digest != NULL && strncmp (payload_digest, label, label_length) == 0 &&
                   payload_digest[label_length] == ':';
  RecordSpec spec = {
    .type = "response",
    .record_id = record_id,
    .target_uri = target_uri,
    .date = date,
    .ip_address = ip_address,
    .concurrent_to = concurrent_to,
    .content_type = "application/http;msgtype=response",
    .head = headers,
    .head_length = headers_length,
    .body = payload,
    .body_length = payload_length,
    .payload = given ? PAYLOAD_GIVEN : PAYLOAD_BODY,
    .given_payload_digest = given ? payload_digest : NULL,
    .truncated = truncated,
  };
  CgWarcRecordInfo *info;

  info = write_spec (self, &spec, error);
  if (info != NULL)
    index_http_record (self, info, target_uri, headers, headers_length, known, FALSE);
  return info;
}

static CgWarcRecordInfo *
write_revisit_spec (CgWarcWriter         *self,
                    const char           *record_id,
                    const char           *target_uri,
                    const char           *date,
                    const char           *ip_address,
                    const char           *concurrent_to,
                    const guint8         *headers,
                    gsize                 headers_length,
                    const char           *payload_digest,
                    const char           *refers_to_target_uri,
                    const char           *refers_to_date,
                    const char           *refers_to_record_id,
                    const char           *profile,
                    const ResponseIndex  *known,
                    GError              **error)
{
  g_autofree char *extra = revisit_fields (profile, refers_to_target_uri, refers_to_date,
                                           refers_to_record_id);
  RecordSpec spec = {
    .type = "revisit",
    .record_id = record_id,
    .target_uri = target_uri,
    .date = date,
    .ip_address = ip_address,
    .concurrent_to = concurrent_to,
    .content_type = "application/http;msgtype=response",
    .extra_fields = extra,
    .head = headers,
    .head_length = headers_length,
    .payload = PAYLOAD_GIVEN,
    .given_payload_digest = payload_digest,
  };
  CgWarcRecordInfo *info;

  info = write_spec (self, &spec, error);
  if (info != NULL)
    index_http_record (self, info, target_uri, headers, headers_length, known, TRUE);
  return info;
}

gboolean
cg_warc_writer_write_exchange (CgWarcWriter          *self,
                               const CgWarcExchange  *exchange,
                               CgWarcRecordInfo     **out_request,
                               CgWarcRecordInfo     **out_response,
                               GError               **error)
{
  g_autoptr(CgWarcRecordInfo) request = NULL;
  g_autoptr(CgWarcRecordInfo) response = NULL;
  g_autofree char *request_id = NULL;
  g_autofree char *response_id = NULL;
  g_autofree char *date = NULL;
  ResponseIndex known;
  gboolean is_revisit;
  guint64 start;

  g_return_val_if_fail (CG_IS_WARC_WRITER (self), FALSE);
  g_return_val_if_fail (exchange != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  is_revisit = exchange->revisit_payload_digest != NULL;
  known.status = exchange->response_status;
  known.content_type = exchange->response_content_type;

  if (!check_common (exchange->target_uri, exchange->ip_address, NULL, error) ||
      !check_http_headers (N_("HTTP request header block"), exchange->request_headers,
                           exchange->request_headers_length, FALSE, error) ||
      !check_http_headers (N_("HTTP response header block"), exchange->response_headers,
                           exchange->response_headers_length, TRUE, error))
    return FALSE;
  if (is_revisit &&
      !check_revisit (exchange->revisit_payload_digest, exchange->revisit_target_uri,
                      exchange->revisit_date, exchange->revisit_record_id, error))
    return FALSE;
  if (!ensure_file (self, NULL, error))
    return FALSE;

  start = self->file_size;
  request_id = cg_warc_new_record_id ();
  response_id = cg_warc_new_record_id ();
  date = cg_warc_format_date (exchange->date);

  request = write_request_spec (self, request_id, exchange->target_uri, date,
                                exchange->ip_address, response_id,
                                exchange->request_headers, exchange->request_headers_length,
                                exchange->request_body, exchange->request_body_length, error);
  if (request == NULL)
    return FALSE;

  if (is_revisit)
    response = write_revisit_spec (self, response_id, exchange->target_uri, date,
                                   exchange->ip_address, request_id,
                                   exchange->response_headers,
                                   exchange->response_headers_length,
                                   exchange->revisit_payload_digest,
                                   exchange->revisit_target_uri, exchange->revisit_date,
                                   exchange->revisit_record_id, exchange->revisit_profile,
                                   &known, error);
  else
    response = write_response_spec (self, response_id, exchange->target_uri, date,
                                    exchange->ip_address, request_id,
                                    exchange->response_headers,
                                    exchange->response_headers_length,
                                    exchange->payload, exchange->payload_length,
                                    exchange->payload_digest, exchange->truncated, &known, error);
  if (response == NULL)
    {
      /* Take the request back out, so the exchange is all or nothing. */
      cut_back (self, start);
      return FALSE;
    }

  if (out_request != NULL)
    *out_request = g_steal_pointer (&request);
  if (out_response != NULL)
    *out_response = g_steal_pointer (&response);
  return TRUE;
}

CgWarcRecordInfo *
cg_warc_writer_write_request (CgWarcWriter  *self,
                              const char    *target_uri,
                              GDateTime     *date,
                              const char    *ip_address,
                              const char    *concurrent_to,
                              const guint8  *headers,
                              gsize          headers_length,
                              const guint8  *body,
                              gsize          body_length,
                              GError       **error)
{
  g_autoptr(CgWarcRecordInfo) info = NULL;
  g_autofree char *date_text = NULL;

  g_return_val_if_fail (CG_IS_WARC_WRITER (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!check_common (target_uri, ip_address, concurrent_to, error) ||
      !check_http_headers (N_("HTTP request header block"), headers, headers_length, FALSE, error) ||
      !ensure_file (self, concurrent_to, error))
    return NULL;

  date_text = cg_warc_format_date (date);
  info = write_request_spec (self, NULL, target_uri, date_text, ip_address, concurrent_to,
                             headers, headers_length, body, body_length, error);
  return g_steal_pointer (&info);
}

CgWarcRecordInfo *
cg_warc_writer_write_response (CgWarcWriter      *self,
                               const char        *target_uri,
                               GDateTime         *date,
                               const char        *ip_address,
                               const char        *concurrent_to,
                               const guint8      *headers,
                               gsize              headers_length,
                               const guint8      *payload,
                               gsize              payload_length,
                               CgWarcTruncation   truncated,
                               GError           **error)
{
  g_autoptr(CgWarcRecordInfo) info = NULL;
  g_autofree char *date_text = NULL;

  g_return_val_if_fail (CG_IS_WARC_WRITER (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!check_common (target_uri, ip_address, concurrent_to, error) ||
      !check_http_headers (N_("HTTP response header block"), headers, headers_length, TRUE, error) ||
      !ensure_file (self, concurrent_to, error))
    return NULL;

  date_text = cg_warc_format_date (date);
  info = write_response_spec (self, NULL, target_uri, date_text, ip_address, concurrent_to,
                              headers, headers_length, payload, payload_length, NULL, truncated, NULL, error);
  return g_steal_pointer (&info);
}

CgWarcRecordInfo *
cg_warc_writer_write_revisit (CgWarcWriter  *self,
                              const char    *target_uri,
                              GDateTime     *date,
                              const char    *ip_address,
                              const char    *concurrent_to,
                              const guint8  *headers,
                              gsize          headers_length,
                              const char    *payload_digest,
                              const char    *refers_to_target_uri,
                              const char    *refers_to_date,
                              const char    *refers_to_record_id,
                              GError       **error)
{
  g_autoptr(CgWarcRecordInfo) info = NULL;
  g_autofree char *date_text = NULL;

  g_return_val_if_fail (CG_IS_WARC_WRITER (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!check_common (target_uri, ip_address, concurrent_to, error) ||
      !check_http_headers (N_("HTTP response header block"), headers, headers_length, TRUE, error) ||
      !check_revisit (payload_digest, refers_to_target_uri, refers_to_date, refers_to_record_id,
                      error) ||
      !ensure_file (self, concurrent_to, error))
    return NULL;

  date_text = cg_warc_format_date (date);
  info = write_revisit_spec (self, NULL, target_uri, date_text, ip_address, concurrent_to,
                             headers, headers_length, payload_digest, refers_to_target_uri,
                             refers_to_date, refers_to_record_id, NULL, NULL, error);
  return g_steal_pointer (&info);
}

CgWarcRecordInfo *
cg_warc_writer_write_metadata (CgWarcWriter       *self,
                               const char         *target_uri,
                               GDateTime          *date,
                               const char         *concurrent_to,
                               const char * const *outlinks,
                               const char * const *fields,
                               GError            **error)
{
  g_autoptr(CgWarcRecordInfo) info = NULL;
  g_autoptr(GString) block = NULL;
  g_autofree char *date_text = NULL;
  RecordSpec spec = { 0, };
  gsize length = 0;

  g_return_val_if_fail (CG_IS_WARC_WRITER (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!check_common (target_uri, NULL, concurrent_to, error))
    return NULL;

  /* The block is sized once: growing it line by line was most of the
   * cost of a page's metadata record in the crawl throughput benchmark. */
  for (guint i = 0; outlinks != NULL && outlinks[i] != NULL; i++)
    length += strlen ("outlink: \r\n") + strlen (outlinks[i]);
  block = g_string_sized_new (length + 256);
  for (guint i = 0; outlinks != NULL && outlinks[i] != NULL; i++)
    {
      if (!check_value (N_("outlink"), outlinks[i], TRUE, error))
        return NULL;
      /* Without printf: a page has dozens of outlinks. */
      g_string_append (block, "outlink: ");
      g_string_append (block, outlinks[i]);
      g_string_append (block, "\r\n");
    }
  for (guint i = 0; fields != NULL && fields[i] != NULL; i += 2)
    {
      if (fields[i + 1] == NULL)
        {
          invalid (error, _("The metadata field “%s” has no value."), fields[i]);
          return NULL;
        }
      if (!is_http_token (fields[i], strlen (fields[i])))
        {
          g_autofree char *shown = g_strescape (fields[i], NULL);

          invalid (error, _("“%s” cannot be a metadata field name."), shown);
          return NULL;
        }
      if (!is_clean_text (fields[i + 1], TRUE) || !g_utf8_validate (fields[i + 1], -1, NULL))
        {
          invalid (error, _("The value of the metadata field “%s” holds a control character."),
                   fields[i]);
          return NULL;
        }
      g_string_append_printf (block, "%s: %s\r\n", fields[i], fields[i + 1]);
    }

  if (!ensure_file (self, concurrent_to, error))
    return NULL;

  date_text = cg_warc_format_date (date);
  spec.type = "metadata";
  spec.target_uri = target_uri;
  spec.date = date_text;
  spec.concurrent_to = concurrent_to;
  spec.content_type = "application/warc-fields";
  spec.head = (const guint8 *) block->str;
  spec.head_length = block->len;
  spec.payload = PAYLOAD_NONE;

  info = write_spec (self, &spec, error);
  return g_steal_pointer (&info);
}

CgWarcRecordInfo *
cg_warc_writer_write_resource (CgWarcWriter  *self,
                               const char    *target_uri,
                               GDateTime     *date,
                               const char    *concurrent_to,
                               const char    *content_type,
                               const guint8  *data,
                               gsize          length,
                               GError       **error)
{
  g_autoptr(CgWarcRecordInfo) info = NULL;
  g_autofree char *date_text = NULL;
  g_autofree char *mime = NULL;
  RecordSpec spec = { 0, };

  g_return_val_if_fail (CG_IS_WARC_WRITER (self), NULL);
  g_return_val_if_fail (data != NULL || length == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!check_common (target_uri, NULL, concurrent_to, error) ||
      !check_value (N_("content type"), content_type, TRUE, error) ||
      !ensure_file (self, concurrent_to, error))
    return NULL;

  date_text = cg_warc_format_date (date);
  spec.type = "resource";
  spec.target_uri = target_uri;
  spec.date = date_text;
  spec.concurrent_to = concurrent_to;
  spec.content_type = content_type;
  spec.body = data;
  spec.body_length = length;
  spec.payload = PAYLOAD_BODY;

  info = write_spec (self, &spec, error);
  if (info == NULL)
    return NULL;

  mime = cg_cdxj_mime_of_content_type (content_type);
  index_record (self, info, target_uri, mime, 0);
  return g_steal_pointer (&info);
}

/* ------------------------------------------------------------------ */
/* Repair                                                              */

static gboolean
all_zero_from (int      fd,
               guint64  offset,
               gboolean *out_all_zero)
{
  guint8 buffer[64 * 1024];
  gssize n;

  *out_all_zero = TRUE;
  for (;;)
    {
      n = pread (fd, buffer, sizeof buffer, (off_t) offset);
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        return FALSE;
      if (n == 0)
        return TRUE;
      for (gssize i = 0; i < n; i++)
        if (buffer[i] != 0)
          {
            *out_all_zero = FALSE;
            return TRUE;
          }
      offset += n;
    }
}

/* Whether a complete gzip member starts at offset: it inflates to its end
 * and its CRC checks. */
static gboolean
complete_member_at (int      fd,
                    guint64  offset)
{
  guint8 in[16 * 1024];
  guint8 out[64 * 1024];
  z_stream zs = { 0, };
  gboolean complete = FALSE;

  if (inflateInit2 (&zs, 16 + MAX_WBITS) != Z_OK)
    return FALSE;

  for (;;)
    {
      gssize n = pread (fd, in, sizeof in, (off_t) offset);
      int ret = Z_OK;

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        break;
      offset += n;
      zs.next_in = in;
      zs.avail_in = (uInt) n;
      while (zs.avail_in > 0 && ret == Z_OK)
        {
          zs.next_out = out;
          zs.avail_out = sizeof out;
          ret = inflate (&zs, Z_NO_FLUSH);
        }
      if (ret == Z_STREAM_END)
        complete = TRUE;
      if (ret != Z_OK)
        break;
    }

  inflateEnd (&zs);
  return complete;
}

/* Whether anything after offset is a later complete record: a complete
 * gzip member (for a compressed file) or a WARC version line (for a plain
 * one). If so the damage is not only at the end of the file. */
static gboolean
later_record_after (int      fd,
                    guint64  offset,
                    gboolean gzip)
{
  guint8 buffer[64 * 1024 + 8];
  guint64 position = offset + 1;
  gsize carried = 0;

  for (;;)
    {
      gssize n = pread (fd, buffer + carried, sizeof buffer - carried, (off_t) (position + carried));
      gsize length;

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        return FALSE;
      length = carried + n;

      for (gsize i = 0; i + 8 <= length; i++)
        {
          if (gzip && buffer[i] == 0x1f && buffer[i + 1] == 0x8b && buffer[i + 2] == 0x08 &&
              complete_member_at (fd, position + i))
            return TRUE;
          if (!gzip && memcmp (buffer + i, "WARC/1.", 7) == 0)
            return TRUE;
        }

      /* Keep the last bytes, so a marker across two reads is seen. */
      carried = MIN (length, (gsize) 7);
      memmove (buffer, buffer + length - carried, carried);
      position += length - carried;
    }
}

gboolean
cg_warc_writer_repair_file (const char  *path,
                            guint64     *out_truncated_bytes,
                            GError     **error)
{
  g_autoptr(CgWarcReader) reader = NULL;
  g_autoptr(GError) read_error = NULL;
  GStatBuf st;
  guint64 good_end;
  gboolean all_zero = FALSE;
  gboolean gzip;
  int fd;

  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (out_truncated_bytes != NULL)
    *out_truncated_bytes = 0;

  if (g_stat (path, &st) != 0)
    {
      int saved_errno = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                   _("Could not read WARC file “%s”: %s"), path, g_strerror (saved_errno));
      return FALSE;
    }

  reader = cg_warc_reader_new (path, error);
  if (reader == NULL)
    return FALSE;
  gzip = cg_warc_reader_is_compressed (reader);

  for (;;)
    {
      g_autoptr(CgWarcRecord) record = cg_warc_reader_next (reader, &read_error);

      if (record == NULL)
        break;
    }
  if (read_error == NULL)
    return TRUE;
  if (!g_error_matches (read_error, CG_WARC_ERROR, CG_WARC_ERROR_TRUNCATED) &&
      read_error->domain != CG_WARC_ERROR)
    {
      g_propagate_error (error, g_steal_pointer (&read_error));
      return FALSE;
    }

  good_end = cg_warc_reader_get_end_of_last_record (reader);
  fd = g_open (path, O_RDWR | O_CLOEXEC, 0);
  if (fd < 0)
    {
      int saved_errno = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                   _("Could not open WARC file “%s” for repair: %s"), path,
                   g_strerror (saved_errno));
      return FALSE;
    }

  if (!g_error_matches (read_error, CG_WARC_ERROR, CG_WARC_ERROR_TRUNCATED))
    all_zero_from (fd, good_end, &all_zero);

  if ((!g_error_matches (read_error, CG_WARC_ERROR, CG_WARC_ERROR_TRUNCATED) && !all_zero) ||
      later_record_after (fd, good_end, gzip))
    {
      close (fd);
      g_set_error (error, CG_WARC_ERROR, CG_WARC_ERROR_DAMAGED,
                   _("The WARC file “%s” is damaged before its end and was not repaired, "
                     "so that no complete record is lost: %s"), path, read_error->message);
      return FALSE;
    }

  if (ftruncate (fd, (off_t) good_end) != 0 || fsync (fd) != 0)
    {
      int saved_errno = errno;

      close (fd);
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                   _("Could not cut the damaged end off WARC file “%s”: %s"), path,
                   g_strerror (saved_errno));
      return FALSE;
    }
  close (fd);

  if (out_truncated_bytes != NULL)
    *out_truncated_bytes = (guint64) st.st_size - good_end;
  return TRUE;
}

static int
compare_names_cb (gconstpointer a,
                  gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

gboolean
cg_warc_writer_recover (const char  *directory,
                        const char  *prefix,
                        guint64     *out_truncated_bytes,
                        GError     **error)
{
  g_autoptr(GDir) dir = NULL;
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;
  guint64 total = 0;

  g_return_val_if_fail (directory != NULL, FALSE);
  g_return_val_if_fail (prefix != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (out_truncated_bytes != NULL)
    *out_truncated_bytes = 0;

  dir = g_dir_open (directory, 0, error);
  if (dir == NULL)
    return FALSE;
  while ((name = g_dir_read_name (dir)) != NULL)
    if (g_str_has_suffix (name, ".warc.gz") && serial_of_name (prefix, name) >= 0)
      g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_names_cb);

  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *path = g_build_filename (directory, g_ptr_array_index (names, i), NULL);
      g_autofree char *index_path = cg_cdxj_path_for_warc (path);
      guint64 cut = 0;

      if (g_file_test (index_path, G_FILE_TEST_EXISTS))
        continue;
      if (!cg_warc_writer_repair_file (path, &cut, error) ||
          !cg_cdxj_index_warc_file (path, index_path, error))
        return FALSE;
      total += cut;
    }

  if (out_truncated_bytes != NULL)
    *out_truncated_bytes = total;
  return TRUE;
}
