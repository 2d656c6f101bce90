/* cg-warc-reader.c: reads WARC files, record by record or at an offset.
 *
 * The reader works on a byte stream: the file itself for a plain .warc,
 * or the inflated gzip members, one after another, for a .warc.gz. Both
 * buffers are of fixed size, so memory does not grow with the file or
 * with a record's block beyond the block cap.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "cg-warc-reader.h"

#define IN_BUFFER_SIZE  (64 * 1024)
#define OUT_BUFFER_SIZE (64 * 1024)

/* Blocks are kept in a GByteArray, whose length is a guint. */
#define MAX_KEPT_BLOCK_SIZE ((guint64) G_MAXUINT32 - 1)

/* ------------------------------------------------------------------ */
/* Records                                                             */

struct _CgWarcRecord
{
  gatomicrefcount   ref_count;
  /* The file the record was read from, for error messages. */
  char             *path;
  guint64           offset;
  guint64           length;
  char             *version;
  GPtrArray        *names;
  GPtrArray        *values;
  CgWarcRecordType  type;
  const char       *type_name;
  const char       *record_id;
  const char       *target_uri;
  const char       *date_string;
  GDateTime        *date;
  guint64           content_length;
  GBytes           *block;
  /* The start of a block too large to keep, for its HTTP header. */
  GBytes           *head;
  gboolean          digests_verified;
};

G_DEFINE_BOXED_TYPE (CgWarcRecord, cg_warc_record, cg_warc_record_ref, cg_warc_record_unref)

static CgWarcRecord *
cg_warc_record_new (void)
{
  CgWarcRecord *record = g_new0 (CgWarcRecord, 1);

  g_atomic_ref_count_init (&record->ref_count);
  record->names = g_ptr_array_new_with_free_func (g_free);
  record->values = g_ptr_array_new_with_free_func (g_free);
  return record;
}

CgWarcRecord *
cg_warc_record_ref (CgWarcRecord *record)
{
  g_return_val_if_fail (record != NULL, NULL);

  g_atomic_ref_count_inc (&record->ref_count);
  return record;
}

void
cg_warc_record_unref (CgWarcRecord *record)
{
  g_return_if_fail (record != NULL);

  if (!g_atomic_ref_count_dec (&record->ref_count))
    return;

  g_free (record->path);
  g_free (record->version);
  g_ptr_array_unref (record->names);
  g_ptr_array_unref (record->values);
  g_clear_pointer (&record->date, g_date_time_unref);
  g_clear_pointer (&record->block, g_bytes_unref);
  g_clear_pointer (&record->head, g_bytes_unref);
  g_free (record);
}

guint64
cg_warc_record_get_offset (CgWarcRecord *record)
{
  return record->offset;
}

guint64
cg_warc_record_get_length (CgWarcRecord *record)
{
  return record->length;
}

const char *
cg_warc_record_get_version (CgWarcRecord *record)
{
  return record->version;
}

CgWarcRecordType
cg_warc_record_get_record_type (CgWarcRecord *record)
{
  return record->type;
}

const char *
cg_warc_record_get_type_name (CgWarcRecord *record)
{
  return record->type_name;
}

const char *
cg_warc_record_get_record_id (CgWarcRecord *record)
{
  return record->record_id;
}

const char *
cg_warc_record_get_target_uri (CgWarcRecord *record)
{
  return record->target_uri;
}

const char *
cg_warc_record_get_date_string (CgWarcRecord *record)
{
  return record->date_string;
}

GDateTime *
cg_warc_record_get_date (CgWarcRecord *record)
{
  return record->date;
}

guint64
cg_warc_record_get_content_length (CgWarcRecord *record)
{
  return record->content_length;
}

const char *
cg_warc_record_get_header (CgWarcRecord *record,
                           const char   *name)
{
  g_return_val_if_fail (record != NULL, NULL);
  g_return_val_if_fail (name != NULL, NULL);

  for (guint i = 0; i < record->names->len; i++)
    if (g_ascii_strcasecmp (g_ptr_array_index (record->names, i), name) == 0)
      return g_ptr_array_index (record->values, i);
  return NULL;
}

guint
cg_warc_record_get_n_headers (CgWarcRecord *record)
{
  return record->names->len;
}

void
cg_warc_record_get_nth_header (CgWarcRecord  *record,
                               guint          index,
                               const char   **name,
                               const char   **value)
{
  g_return_if_fail (index < record->names->len);

  if (name != NULL)
    *name = g_ptr_array_index (record->names, index);
  if (value != NULL)
    *value = g_ptr_array_index (record->values, index);
}

GBytes *
cg_warc_record_get_block (CgWarcRecord *record)
{
  return record->block;
}

gboolean
cg_warc_record_get_digests_verified (CgWarcRecord *record)
{
  return record->digests_verified;
}

static const struct {
  const char       *name;
  CgWarcRecordType  type;
} record_types[] = {
  { "warcinfo", CG_WARC_RECORD_WARCINFO },
  { "response", CG_WARC_RECORD_RESPONSE },
  { "resource", CG_WARC_RECORD_RESOURCE },
  { "request", CG_WARC_RECORD_REQUEST },
  { "metadata", CG_WARC_RECORD_METADATA },
  { "revisit", CG_WARC_RECORD_REVISIT },
  { "conversion", CG_WARC_RECORD_CONVERSION },
  { "continuation", CG_WARC_RECORD_CONTINUATION },
};

static CgWarcRecordType
record_type_from_name (const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (record_types); i++)
    if (g_ascii_strcasecmp (name, record_types[i].name) == 0)
      return record_types[i].type;
  return CG_WARC_RECORD_OTHER;
}

/* ------------------------------------------------------------------ */
/* HTTP messages                                                       */

void
cg_warc_http_message_free (CgWarcHttpMessage *message)
{
  if (message == NULL)
    return;

  g_free (message->method);
  g_free (message->request_target);
  g_free (message->reason);
  g_clear_pointer (&message->headers, soup_message_headers_unref);
  g_clear_pointer (&message->payload, g_bytes_unref);
  g_free (message);
}

/* Finds the end of an HTTP header block: the empty line after the start
 * line and fields. HTTP wants CRLF, but bare LF line ends are accepted as
 * every browser and archive reader accepts them. Returns the length of the
 * block through that empty line, or 0 when data holds no empty line. */
static gsize
find_http_header_end (const guint8 *data,
                      gsize         length)
{
  /* 0: inside a line; 1: just after LF; 2: after LF then CR. */
  int state = 0;

  for (gsize i = 0; i < length; i++)
    {
      guint8 c = data[i];

      if (c == '\n')
        {
          if (state != 0)
            return i + 1;
          state = 1;
        }
      else if (c == '\r' && state == 1)
        state = 2;
      else
        state = 0;
    }
  return 0;
}

static gboolean
http_error (GError       **error,
            CgWarcRecord  *record,
            const char    *what)
{
  g_autofree char *offset = g_strdup_printf ("%" G_GUINT64_FORMAT, record->offset);

  g_set_error (error, CG_WARC_ERROR, CG_WARC_ERROR_BAD_HTTP,
               _("WARC file “%s”, offset %s: the %s record for %s holds no valid HTTP "
                 "message: %s"),
               record->path, offset, record->type_name,
               record->target_uri != NULL ? record->target_uri : "-", what);
  return FALSE;
}

CgWarcHttpMessage *
cg_warc_record_parse_http (CgWarcRecord  *record,
                           GError       **error)
{
  g_autoptr(CgWarcHttpMessage) message = NULL;
  GBytes *source;
  const guint8 *data;
  gsize size;
  gsize scan;
  gsize header_length;

  g_return_val_if_fail (record != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  source = record->block != NULL ? record->block : record->head;
  data = g_bytes_get_data (source, &size);
  scan = MIN (size, (gsize) CG_WARC_READER_MAX_HTTP_HEADER_SIZE);

  if (size == 0)
    {
      http_error (error, record, _("the block is empty"));
      return NULL;
    }

  header_length = find_http_header_end (data, scan);
  if (header_length == 0)
    {
      if (scan < size || (record->block == NULL && size == CG_WARC_READER_MAX_HTTP_HEADER_SIZE))
        http_error (error, record, _("the HTTP header is larger than the reader accepts"));
      else
        http_error (error, record, _("the HTTP header has no empty line at its end"));
      return NULL;
    }

  message = g_new0 (CgWarcHttpMessage, 1);
  message->header_length = header_length;

  /* libsoup's parsers want no NUL byte; a header holding one is broken. */
  if (memchr (data, '\0', header_length) != NULL)
    {
      http_error (error, record, _("the HTTP header holds a NUL byte"));
      return NULL;
    }

  if (header_length >= 5 && memcmp (data, "HTTP/", 5) == 0)
    {
      g_autoptr(GString) head = NULL;
      const char *text = (const char *) data;
      gsize text_length = header_length;
      gboolean http2 = FALSE;

      /* Some tools record HTTP/2 and HTTP/3 exchanges with their real
       * version in the status line; libsoup parses HTTP/1 syntax only, and
       * the rest of the message is in that syntax, so read it as 1.1. */
      for (guint i = 0; i < 2 && !http2; i++)
        {
          const char *prefixes[] = { "HTTP/2", "HTTP/3" };
          gsize n = strlen (prefixes[i]);

          if (header_length > n && memcmp (data, prefixes[i], n) == 0)
            {
              const char *space = memchr (data, ' ', header_length);

              if (space == NULL)
                break;
              head = g_string_new ("HTTP/1.1");
              g_string_append_len (head, space, header_length - (space - text));
              text = head->str;
              text_length = head->len;
              http2 = TRUE;
            }
        }

      message->headers = soup_message_headers_new (SOUP_MESSAGE_HEADERS_RESPONSE);
      if (!soup_headers_parse_response (text, (int) text_length,
                                        message->headers, &message->http_version,
                                        &message->status, &message->reason))
        {
          http_error (error, record, _("bad HTTP status line"));
          return NULL;
        }
      if (http2)
        message->http_version = SOUP_HTTP_2_0;
    }
  else
    {
      guint status;

      message->is_request = TRUE;
      message->headers = soup_message_headers_new (SOUP_MESSAGE_HEADERS_REQUEST);
      status = soup_headers_parse_request ((const char *) data, (int) header_length,
                                           message->headers, &message->method,
                                           &message->request_target,
                                           &message->http_version);
      if (status != SOUP_STATUS_OK)
        {
          http_error (error, record, _("bad HTTP start line"));
          return NULL;
        }
    }

  message->transfer_chunked =
    soup_message_headers_header_contains (message->headers, "Transfer-Encoding", "chunked");

  if (record->block != NULL)
    message->payload = g_bytes_new_from_bytes (record->block, header_length,
                                               size - header_length);

  return g_steal_pointer (&message);
}

/* ------------------------------------------------------------------ */
/* The reader                                                          */

struct _CgWarcReader
{
  GObject   parent_instance;

  char     *path;
  int       fd;
  gboolean  gzip;
  guint64   max_block_size;
  gboolean  verify;

  /* Compressed input (gzip files only). in_offset is the file offset of
   * in[0]. */
  guint8   *in;
  gsize     in_pos;
  gsize     in_len;
  guint64   in_offset;
  gboolean  in_eof;

  z_stream  zs;
  gboolean  zs_ready;
  gboolean  member_open;
  guint64   member_start;
  guint64   member_end;

  /* The byte stream the records are parsed from. For plain files,
   * out_offset is the file offset of out[0]. */
  guint8   *out;
  gsize     out_pos;
  gsize     out_len;
  guint64   out_offset;
  gboolean  out_eof;

  guint64   end_of_last_record;
  GError   *sticky_error;
};

G_DEFINE_TYPE (CgWarcReader, cg_warc_reader, G_TYPE_OBJECT)

static void
cg_warc_reader_finalize (GObject *object)
{
  CgWarcReader *self = CG_WARC_READER (object);

  if (self->zs_ready)
    inflateEnd (&self->zs);
  if (self->fd >= 0)
    close (self->fd);
  g_free (self->in);
  g_free (self->out);
  g_free (self->path);
  g_clear_error (&self->sticky_error);

  G_OBJECT_CLASS (cg_warc_reader_parent_class)->finalize (object);
}

static void
cg_warc_reader_class_init (CgWarcReaderClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = cg_warc_reader_finalize;
}

static void
cg_warc_reader_init (CgWarcReader *self)
{
  self->fd = -1;
  self->max_block_size = CG_WARC_READER_DEFAULT_MAX_BLOCK_SIZE;
}

static gboolean
reader_error (CgWarcReader  *self,
              GError       **error,
              int            code,
              guint64        offset,
              const char    *format,
              ...) G_GNUC_PRINTF (5, 6);

static gboolean
reader_error (CgWarcReader  *self,
              GError       **error,
              int            code,
              guint64        offset,
              const char    *format,
              ...)
{
  g_autofree char *what = NULL;
  g_autofree char *where = g_strdup_printf ("%" G_GUINT64_FORMAT, offset);
  va_list args;

  va_start (args, format);
  what = g_strdup_vprintf (format, args);
  va_end (args);

  g_set_error (error, CG_WARC_ERROR, code,
               _("WARC file “%s”, offset %s: %s"), self->path, where, what);
  return FALSE;
}

static gboolean
io_error (CgWarcReader  *self,
          GError       **error,
          int            saved_errno)
{
  g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
               _("Could not read WARC file “%s”: %s"),
               self->path, g_strerror (saved_errno));
  return FALSE;
}

static gssize
read_some (int     fd,
           guint8 *buffer,
           gsize   size)
{
  gssize n;

  do
    n = read (fd, buffer, size);
  while (n < 0 && errno == EINTR);
  return n;
}

/* Makes sure at least `want` compressed bytes are buffered, unless the
 * file ends first. */
static gboolean
fill_in (CgWarcReader  *self,
         gsize          want,
         GError       **error)
{
  if (self->in_pos > 0 && self->in_len - self->in_pos < want)
    {
      memmove (self->in, self->in + self->in_pos, self->in_len - self->in_pos);
      self->in_offset += self->in_pos;
      self->in_len -= self->in_pos;
      self->in_pos = 0;
    }

  while (!self->in_eof && self->in_len - self->in_pos < want)
    {
      gssize n = read_some (self->fd, self->in + self->in_len, IN_BUFFER_SIZE - self->in_len);

      if (n < 0)
        return io_error (self, error, errno);
      if (n == 0)
        self->in_eof = TRUE;
      self->in_len += n;
    }
  return TRUE;
}

static guint64
raw_position (CgWarcReader *self)
{
  return self->in_offset + self->in_pos;
}

/* Inflates the next piece of the byte stream into the empty out buffer.
 * With stay_in_member, stops at the end of the current member instead of
 * going on to the next one. Returns FALSE on error; at the end of the
 * stream, returns TRUE with out_len 0. */
static gboolean
fill_out_gzip (CgWarcReader  *self,
               gboolean       stay_in_member,
               GError       **error)
{
  self->out_pos = self->out_len = 0;

  for (;;)
    {
      gsize avail;
      int ret;

      if (!self->member_open)
        {
          if (stay_in_member)
            return TRUE;
          if (!fill_in (self, 2, error))
            return FALSE;
          avail = self->in_len - self->in_pos;
          if (avail == 0)
            return TRUE;
          if (avail == 1 && self->in_eof && self->in[self->in_pos] == 0x1f)
            return reader_error (self, error, CG_WARC_ERROR_TRUNCATED, raw_position (self),
                                 _("the file ends inside this gzip member"));
          if (avail < 2 || self->in[self->in_pos] != 0x1f || self->in[self->in_pos + 1] != 0x8b)
            {
              if (raw_position (self) == 0)
                return reader_error (self, error, CG_WARC_ERROR_NOT_WARC, 0,
                                     _("not a gzip file"));
              return reader_error (self, error, CG_WARC_ERROR_BAD_GZIP, raw_position (self),
                                   _("no gzip member starts here (garbage after the previous member?)"));
            }
          inflateReset (&self->zs);
          self->member_open = TRUE;
          self->member_start = raw_position (self);
        }

      if (self->in_pos == self->in_len)
        {
          if (!fill_in (self, 1, error))
            return FALSE;
          if (self->in_pos == self->in_len)
            return reader_error (self, error, CG_WARC_ERROR_TRUNCATED, self->member_start,
                                 _("the file ends inside this gzip member"));
        }

      avail = self->in_len - self->in_pos;
      self->zs.next_in = self->in + self->in_pos;
      self->zs.avail_in = (uInt) avail;
      self->zs.next_out = self->out;
      self->zs.avail_out = OUT_BUFFER_SIZE;

      ret = inflate (&self->zs, Z_NO_FLUSH);
      self->in_pos += avail - self->zs.avail_in;
      self->out_len = OUT_BUFFER_SIZE - self->zs.avail_out;

      if (ret == Z_STREAM_END)
        {
          self->member_open = FALSE;
          self->member_end = raw_position (self);
        }
      else if (ret != Z_OK && ret != Z_BUF_ERROR)
        {
          return reader_error (self, error, CG_WARC_ERROR_BAD_GZIP, self->member_start,
                               _("damaged gzip member: %s"),
                               self->zs.msg != NULL ? self->zs.msg : zError (ret));
        }

      if (self->out_len > 0)
        return TRUE;
    }
}

static gboolean
fill_out_plain (CgWarcReader  *self,
                GError       **error)
{
  gssize n;

  self->out_offset += self->out_len;
  self->out_pos = self->out_len = 0;
  if (self->out_eof)
    return TRUE;

  n = read_some (self->fd, self->out, OUT_BUFFER_SIZE);
  if (n < 0)
    return io_error (self, error, errno);
  if (n == 0)
    self->out_eof = TRUE;
  self->out_len = n;
  return TRUE;
}

/* Makes sure out holds at least one byte. Returns FALSE with error set on
 * an error, FALSE with error unset at the end of the stream. */
static gboolean
ensure_out (CgWarcReader  *self,
            GError       **error)
{
  if (self->out_pos < self->out_len)
    return TRUE;
  if (self->gzip)
    {
      if (!fill_out_gzip (self, FALSE, error))
        return FALSE;
    }
  else if (!fill_out_plain (self, error))
    return FALSE;
  return self->out_len > 0;
}

/* Whether the stream is at the end of a gzip member: nothing is left of
 * the current member (inflating on if need be to find out). */
static gboolean
at_member_end (CgWarcReader  *self,
               gboolean      *at_end,
               GError       **error)
{
  while (self->out_pos == self->out_len && self->member_open)
    if (!fill_out_gzip (self, TRUE, error))
      return FALSE;
  *at_end = self->out_pos == self->out_len && !self->member_open;
  return TRUE;
}

static guint64
stream_position (CgWarcReader *self)
{
  return self->gzip ? self->member_start : self->out_offset + self->out_pos;
}

CgWarcReader *
cg_warc_reader_new (const char  *path,
                    GError     **error)
{
  g_autoptr(CgWarcReader) self = NULL;
  guint8 magic[5];
  gssize n;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  self = g_object_new (CG_TYPE_WARC_READER, NULL);
  self->path = g_strdup (path);
  self->fd = g_open (path, O_RDONLY | O_CLOEXEC, 0);
  if (self->fd < 0)
    {
      int saved_errno = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                   _("Could not open WARC file “%s”: %s"), path, g_strerror (saved_errno));
      return NULL;
    }

  do
    n = pread (self->fd, magic, sizeof magic, 0);
  while (n < 0 && errno == EINTR);
  if (n < 0)
    {
      io_error (self, error, errno);
      return NULL;
    }

  /* A file cut one byte into its first member, or into its first
   * version line, is still told apart: repair must see it as truncated. */
  if (n >= 1 && magic[0] == 0x1f && (n == 1 || magic[1] == 0x8b))
    self->gzip = TRUE;
  else if (n != 0 && memcmp (magic, "WARC/", MIN ((gsize) n, 5)) != 0)
    {
      reader_error (self, error, CG_WARC_ERROR_NOT_WARC, 0,
                    _("neither a gzip-compressed nor a plain WARC file"));
      return NULL;
    }

  self->out = g_malloc (OUT_BUFFER_SIZE);
  if (self->gzip)
    {
      self->in = g_malloc (IN_BUFFER_SIZE);
      if (inflateInit2 (&self->zs, 16 + MAX_WBITS) != Z_OK)
        {
          g_set_error (error, CG_WARC_ERROR, CG_WARC_ERROR_BAD_GZIP,
                       _("Could not start decompressing “%s”"), path);
          return NULL;
        }
      self->zs_ready = TRUE;
    }

  return g_steal_pointer (&self);
}

const char *
cg_warc_reader_get_path (CgWarcReader *self)
{
  g_return_val_if_fail (CG_IS_WARC_READER (self), NULL);

  return self->path;
}

gboolean
cg_warc_reader_is_compressed (CgWarcReader *self)
{
  g_return_val_if_fail (CG_IS_WARC_READER (self), FALSE);

  return self->gzip;
}

void
cg_warc_reader_set_max_block_size (CgWarcReader *self,
                                   guint64       max_block_size)
{
  g_return_if_fail (CG_IS_WARC_READER (self));

  self->max_block_size = MIN (max_block_size, MAX_KEPT_BLOCK_SIZE);
}

void
cg_warc_reader_set_verify_digests (CgWarcReader *self,
                                   gboolean      verify)
{
  g_return_if_fail (CG_IS_WARC_READER (self));

  self->verify = !!verify;
}

guint64
cg_warc_reader_get_end_of_last_record (CgWarcReader *self)
{
  g_return_val_if_fail (CG_IS_WARC_READER (self), 0);

  return self->end_of_last_record;
}

/* Reads one line of the WARC header, its line end included, into line.
 * *eof is set when the stream ended before any byte of the line. */
static gboolean
read_header_line (CgWarcReader  *self,
                  GString       *line,
                  gsize          limit,
                  guint64        record_offset,
                  gboolean      *eof,
                  GError       **error)
{
  GError *local_error = NULL;

  g_string_truncate (line, 0);
  *eof = FALSE;

  for (;;)
    {
      const guint8 *start;
      const guint8 *newline;
      gsize avail;
      gsize take;

      if (!ensure_out (self, &local_error))
        {
          if (local_error != NULL)
            {
              g_propagate_error (error, local_error);
              return FALSE;
            }
          if (line->len == 0)
            {
              *eof = TRUE;
              return TRUE;
            }
          return reader_error (self, error, CG_WARC_ERROR_TRUNCATED, record_offset,
                               _("the file ends inside a record header"));
        }

      start = self->out + self->out_pos;
      avail = self->out_len - self->out_pos;
      newline = memchr (start, '\n', avail);
      take = newline != NULL ? (gsize) (newline - start) + 1 : avail;

      if (line->len + take > limit)
        return reader_error (self, error, CG_WARC_ERROR_BAD_HEADER, record_offset,
                             _("the record header is larger than %u bytes"),
                             (guint) CG_WARC_READER_MAX_HEADER_SIZE);

      g_string_append_len (line, (const char *) start, take);
      self->out_pos += take;
      if (newline != NULL)
        return TRUE;
    }
}

static gboolean
is_token_char (char c)
{
  return g_ascii_isalnum (c) || strchr ("!#$%&'*+-.^_`|~", c) != NULL;
}

static char *
strip_line_end (GString *line)
{
  gsize len = line->len;

  if (len > 0 && line->str[len - 1] == '\n')
    len--;
  if (len > 0 && line->str[len - 1] == '\r')
    len--;
  return g_strndup (line->str, len);
}

/* The digest a record declares, as a running checksum and the expected
 * encoded value. */
typedef struct {
  GChecksum     *checksum;
  char          *expected;
  const char    *field;
} Digest;

static void
digest_clear (Digest *digest)
{
  g_clear_pointer (&digest->checksum, g_checksum_free);
  g_clear_pointer (&digest->expected, g_free);
}

static void
digest_start (Digest     *digest,
              const char *field,
              const char *value)
{
  static const struct {
    const char    *label;
    GChecksumType  type;
  } algorithms[] = {
    { "sha1", G_CHECKSUM_SHA1 },
    { "sha-1", G_CHECKSUM_SHA1 },
    { "sha256", G_CHECKSUM_SHA256 },
    { "sha-256", G_CHECKSUM_SHA256 },
    { "sha384", G_CHECKSUM_SHA384 },
    { "sha-384", G_CHECKSUM_SHA384 },
    { "sha512", G_CHECKSUM_SHA512 },
    { "sha-512", G_CHECKSUM_SHA512 },
    { "md5", G_CHECKSUM_MD5 },
  };
  const char *colon;

  digest->field = field;
  if (value == NULL || (colon = strchr (value, ':')) == NULL)
    return;

  for (guint i = 0; i < G_N_ELEMENTS (algorithms); i++)
    if (strlen (algorithms[i].label) == (gsize) (colon - value) &&
        g_ascii_strncasecmp (value, algorithms[i].label, colon - value) == 0)
      {
        digest->checksum = g_checksum_new (algorithms[i].type);
        digest->expected = g_strdup (colon + 1);
        return;
      }
}

/* Compares with the declared value, which may be written in base32 (the
 * convention, padded or not) or in hex, as some tools write it. */
static gboolean
digest_matches (Digest *digest,
                char  **computed_out)
{
  guint8 raw[64];
  gsize raw_length = sizeof raw;
  g_autofree char *base32 = NULL;
  g_autofree char *expected = g_strdup (digest->expected);
  const char *hex;
  char *pad;

  g_checksum_get_digest (digest->checksum, raw, &raw_length);
  base32 = cg_warc_base32_encode (raw, raw_length);
  hex = g_checksum_get_string (digest->checksum);

  if ((pad = strchr (base32, '=')) != NULL)
    *pad = '\0';
  if ((pad = strchr (expected, '=')) != NULL)
    *pad = '\0';

  *computed_out = g_strdup (base32);
  return g_ascii_strcasecmp (expected, base32) == 0 || g_ascii_strcasecmp (expected, hex) == 0;
}

static gboolean
check_digest (CgWarcReader  *self,
              Digest        *digest,
              guint64        offset,
              GError       **error)
{
  g_autofree char *computed = NULL;

  if (digest->checksum == NULL)
    return TRUE;
  if (digest_matches (digest, &computed))
    return TRUE;
  return reader_error (self, error, CG_WARC_ERROR_DIGEST_MISMATCH, offset,
                       _("%s is “%s”, but the data gives “%s”"),
                       digest->field, digest->expected, computed);
}

/* The whole of one record, from its version line to the CRLF CRLF after
 * its block. */
static CgWarcRecord *
read_record (CgWarcReader  *self,
             GError       **error)
{
  g_autoptr(CgWarcRecord) record = NULL;
  g_autoptr(GString) line = g_string_sized_new (256);
  g_autoptr(GByteArray) kept = NULL;
  Digest block_digest = { 0, };
  Digest payload_digest = { 0, };
  const char *content_length;
  const char *content_type;
  gboolean payload_is_http = FALSE;
  gboolean keep_all;
  gsize header_size = 0;
  guint64 offset;
  guint64 remaining;
  int http_state = 0;
  gboolean in_payload = FALSE;
  gboolean eof;
  guint8 tail[4];
  gsize tail_len = 0;
  GError *local_error = NULL;

  /* Find where the record starts: at a gzip member boundary this starts
   * the next member, so its offset is known. */
  if (!ensure_out (self, &local_error))
    {
      if (local_error != NULL)
        g_propagate_error (error, local_error);
      return NULL;
    }
  offset = stream_position (self);

  if (!read_header_line (self, line, CG_WARC_READER_MAX_HEADER_SIZE, offset, &eof, error))
    return NULL;
  g_assert (!eof);
  header_size += line->len;

  if (!g_str_has_prefix (line->str, "WARC/"))
    {
      reader_error (self, error,
                    offset == 0 ? CG_WARC_ERROR_NOT_WARC : CG_WARC_ERROR_BAD_HEADER, offset,
                    offset == 0 ? _("not a WARC file (no “WARC/” version line)")
                                : _("no WARC record starts here (garbage between records?)"));
      return NULL;
    }

  record = cg_warc_record_new ();
  record->path = g_strdup (self->path);
  record->offset = offset;
  record->version = strip_line_end (line);
  if (strcmp (record->version, "WARC/1.1") != 0 && strcmp (record->version, "WARC/1.0") != 0)
    {
      g_autofree char *shown = g_strescape (record->version, NULL);

      reader_error (self, error, CG_WARC_ERROR_BAD_HEADER, offset,
                    _("unsupported WARC version “%s”"), shown);
      return NULL;
    }

  for (;;)
    {
      g_autofree char *text = NULL;
      const char *colon;

      if (!read_header_line (self, line, CG_WARC_READER_MAX_HEADER_SIZE - header_size,
                             offset, &eof, error))
        return NULL;
      if (eof)
        {
          reader_error (self, error, CG_WARC_ERROR_TRUNCATED, offset,
                        _("the file ends inside a record header"));
          return NULL;
        }
      header_size += line->len;
      text = strip_line_end (line);

      if (text[0] == '\0')
        break;

      if (text[0] == ' ' || text[0] == '\t')
        {
          char *previous;

          if (record->values->len == 0)
            {
              reader_error (self, error, CG_WARC_ERROR_BAD_HEADER, offset,
                            _("a continuation line before any header field"));
              return NULL;
            }
          previous = g_ptr_array_index (record->values, record->values->len - 1);
          g_ptr_array_index (record->values, record->values->len - 1) =
            previous[0] != '\0' ? g_strconcat (previous, " ", g_strstrip (text), NULL)
                                : g_strdup (g_strstrip (text));
          g_free (previous);
          continue;
        }

      colon = strchr (text, ':');
      if (colon == NULL || colon == text)
        {
          g_autofree char *shown = g_strescape (text, NULL);

          reader_error (self, error, CG_WARC_ERROR_BAD_HEADER, offset,
                        _("bad header field “%s”"), shown);
          return NULL;
        }
      for (const char *p = text; p < colon; p++)
        if (!is_token_char (*p))
          {
            g_autofree char *shown = g_strescape (text, NULL);

            reader_error (self, error, CG_WARC_ERROR_BAD_HEADER, offset,
                          _("bad header field name in “%s”"), shown);
            return NULL;
          }

      g_ptr_array_add (record->names, g_strndup (text, colon - text));
      g_ptr_array_add (record->values, g_strstrip (g_strdup (colon + 1)));
    }

  record->type_name = cg_warc_record_get_header (record, "WARC-Type");
  record->record_id = cg_warc_record_get_header (record, "WARC-Record-ID");
  record->date_string = cg_warc_record_get_header (record, "WARC-Date");
  record->target_uri = cg_warc_record_get_header (record, "WARC-Target-URI");
  content_length = cg_warc_record_get_header (record, "Content-Length");
  content_type = cg_warc_record_get_header (record, "Content-Type");

  {
    const char *required[] = { "WARC-Type", "WARC-Record-ID", "WARC-Date", "Content-Length" };
    const char *values[] = { record->type_name, record->record_id, record->date_string, content_length };

    for (guint i = 0; i < G_N_ELEMENTS (required); i++)
      if (values[i] == NULL)
        {
          reader_error (self, error, CG_WARC_ERROR_BAD_HEADER, offset,
                        _("the record has no %s field"), required[i]);
          return NULL;
        }
  }

  if (content_length[0] == '\0' || strspn (content_length, "0123456789") != strlen (content_length) ||
      strlen (content_length) > 18)
    {
      g_autofree char *shown = g_strescape (content_length, NULL);

      reader_error (self, error, CG_WARC_ERROR_BAD_LENGTH, offset,
                    _("bad Content-Length “%s”"), shown);
      return NULL;
    }
  record->content_length = g_ascii_strtoull (content_length, NULL, 10);
  record->type = record_type_from_name (record->type_name);
  record->date = g_date_time_new_from_iso8601 (record->date_string, NULL);

  if (self->verify)
    {
      digest_start (&block_digest, "WARC-Block-Digest",
                    cg_warc_record_get_header (record, "WARC-Block-Digest"));
      /* A revisit's payload digest is the one of the payload it refers
       * to, which is not in the record. */
      if (record->type != CG_WARC_RECORD_REVISIT)
        digest_start (&payload_digest, "WARC-Payload-Digest",
                      cg_warc_record_get_header (record, "WARC-Payload-Digest"));
    }
  payload_is_http = (record->type == CG_WARC_RECORD_RESPONSE ||
                     record->type == CG_WARC_RECORD_REQUEST) &&
                    content_type != NULL &&
                    g_ascii_strncasecmp (content_type, "application/http", 16) == 0;
  in_payload = !payload_is_http;

  keep_all = record->content_length <= self->max_block_size;
  kept = g_byte_array_sized_new (keep_all ? (guint) MIN (record->content_length, OUT_BUFFER_SIZE)
                                          : CG_WARC_READER_MAX_HTTP_HEADER_SIZE);

  remaining = record->content_length;
  while (remaining > 0)
    {
      const guint8 *chunk;
      gsize n;

      if (!ensure_out (self, &local_error))
        {
          if (local_error != NULL)
            g_propagate_error (error, local_error);
          else
            reader_error (self, error, CG_WARC_ERROR_TRUNCATED, offset,
                          _("the file ends inside the record’s block (Content-Length %s)"),
                          content_length);
          digest_clear (&block_digest);
          digest_clear (&payload_digest);
          return NULL;
        }

      chunk = self->out + self->out_pos;
      n = (gsize) MIN (remaining, (guint64) (self->out_len - self->out_pos));

      if (block_digest.checksum != NULL)
        g_checksum_update (block_digest.checksum, chunk, n);

      if (payload_digest.checksum != NULL)
        {
          gsize start = 0;

          /* Finds the end of the HTTP header as the block streams by. */
          for (; !in_payload && start < n; start++)
            {
              guint8 c = chunk[start];

              if (c == '\n')
                {
                  if (http_state != 0)
                    in_payload = TRUE;
                  http_state = 1;
                }
              else if (c == '\r' && http_state == 1)
                http_state = 2;
              else
                http_state = 0;
            }
          if (in_payload && start < n)
            g_checksum_update (payload_digest.checksum, chunk + start, n - start);
        }

      if (keep_all)
        g_byte_array_append (kept, chunk, n);
      else if (kept->len < CG_WARC_READER_MAX_HTTP_HEADER_SIZE)
        g_byte_array_append (kept, chunk, MIN (n, CG_WARC_READER_MAX_HTTP_HEADER_SIZE - kept->len));

      self->out_pos += n;
      remaining -= n;
    }

  /* The block is followed by two CRLF. Anything else means that
   * Content-Length is wrong or that something was written in between. */
  while (tail_len < 4)
    {
      gsize n;

      if (!ensure_out (self, &local_error))
        {
          if (local_error != NULL)
            g_propagate_error (error, local_error);
          else
            reader_error (self, error, CG_WARC_ERROR_TRUNCATED, offset,
                          _("the file ends before the end of the record"));
          digest_clear (&block_digest);
          digest_clear (&payload_digest);
          return NULL;
        }
      n = MIN (4 - tail_len, self->out_len - self->out_pos);
      memcpy (tail + tail_len, self->out + self->out_pos, n);
      tail_len += n;
      self->out_pos += n;
    }
  if (memcmp (tail, "\r\n\r\n", 4) != 0)
    {
      reader_error (self, error, CG_WARC_ERROR_BAD_LENGTH, offset,
                    _("the block is not followed by an empty line: Content-Length %s "
                      "is wrong, or something was written after the block"),
                    content_length);
      digest_clear (&block_digest);
      digest_clear (&payload_digest);
      return NULL;
    }

  if (self->verify)
    {
      gboolean ok = check_digest (self, &block_digest, offset, error) &&
                    check_digest (self, &payload_digest, offset, error);

      record->digests_verified = ok;
      digest_clear (&block_digest);
      digest_clear (&payload_digest);
      if (!ok)
        return NULL;
    }

  if (self->gzip)
    {
      gboolean member_end;

      if (!at_member_end (self, &member_end, error))
        return NULL;
      if (member_end)
        {
          record->length = self->member_end - offset;
          self->end_of_last_record = self->member_end;
        }
    }
  else
    {
      record->length = self->out_offset + self->out_pos - offset;
      self->end_of_last_record = self->out_offset + self->out_pos;
    }

  if (keep_all)
    record->block = g_byte_array_free_to_bytes (g_steal_pointer (&kept));
  else
    record->head = g_byte_array_free_to_bytes (g_steal_pointer (&kept));

  return g_steal_pointer (&record);
}

CgWarcRecord *
cg_warc_reader_next (CgWarcReader  *self,
                     GError       **error)
{
  CgWarcRecord *record;
  GError *local_error = NULL;

  g_return_val_if_fail (CG_IS_WARC_READER (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (self->sticky_error != NULL)
    {
      g_propagate_error (error, g_error_copy (self->sticky_error));
      return NULL;
    }

  record = read_record (self, &local_error);
  if (local_error != NULL)
    {
      self->sticky_error = g_error_copy (local_error);
      g_propagate_error (error, local_error);
    }
  return record;
}

CgWarcRecord *
cg_warc_reader_read_at (CgWarcReader  *self,
                        guint64        offset,
                        GError       **error)
{
  GError *local_error = NULL;
  CgWarcRecord *record;

  g_return_val_if_fail (CG_IS_WARC_READER (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (offset > G_MAXINT64 || lseek (self->fd, (off_t) offset, SEEK_SET) < 0)
    {
      reader_error (self, error, CG_WARC_ERROR_TRUNCATED, offset,
                    _("cannot seek to this offset"));
      return NULL;
    }

  g_clear_error (&self->sticky_error);
  self->in_pos = self->in_len = 0;
  self->in_offset = offset;
  self->in_eof = FALSE;
  self->member_open = FALSE;
  self->member_start = offset;
  self->out_pos = self->out_len = 0;
  self->out_offset = offset;
  self->out_eof = FALSE;

  if (!ensure_out (self, &local_error))
    {
      if (local_error == NULL)
        reader_error (self, &local_error, CG_WARC_ERROR_TRUNCATED, offset,
                      _("the file ends before this offset"));
      self->sticky_error = g_error_copy (local_error);
      g_propagate_error (error, local_error);
      return NULL;
    }
  if (self->gzip && self->member_start != offset)
    {
      reader_error (self, &local_error, CG_WARC_ERROR_BAD_GZIP, offset,
                    _("no gzip member starts at this offset"));
      self->sticky_error = g_error_copy (local_error);
      g_propagate_error (error, local_error);
      return NULL;
    }

  record = read_record (self, &local_error);
  if (local_error != NULL)
    {
      self->sticky_error = g_error_copy (local_error);
      g_propagate_error (error, local_error);
    }
  return record;
}
