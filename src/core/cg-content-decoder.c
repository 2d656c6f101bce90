/* cg-content-decoder.c: bounded decoding of HTTP content codings.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>
#include <zlib.h>
#include <brotli/decode.h>

#include "cg-content-decoder.h"

G_DEFINE_QUARK (cg-content-decoder-error-quark, cg_content_decoder_error)

/* Decoders write into a buffer of this size and the result is checked
 * against the limit after every step, so a bomb never costs more memory
 * than the limit plus one buffer. */
#define OUTPUT_CHUNK (64 * 1024)

/* zlib counts input in 32-bit unsigned ints, so larger inputs are fed in
 * pieces of this size. */
#define INPUT_PIECE ((gsize) 1 << 30)

/* inflateInit2() window bits: 15 is the largest window; adding 32 lets
 * zlib detect a gzip or a zlib header by itself; a negative value means
 * raw deflate with no header at all. */
#define WINDOW_AUTO_HEADER (15 + 32)
#define WINDOW_RAW         (-15)

CgContentCoding
cg_content_coding_from_string (const char *token)
{
  g_autofree char *name = NULL;

  if (token == NULL)
    return CG_CONTENT_CODING_IDENTITY;

  name = g_ascii_strdown (token, -1);
  g_strstrip (name);

  if (*name == '\0' || strcmp (name, "identity") == 0)
    return CG_CONTENT_CODING_IDENTITY;
  /* "x-gzip" is the old name that RFC 9110 still asks recipients to
   * accept as gzip. */
  if (strcmp (name, "gzip") == 0 || strcmp (name, "x-gzip") == 0)
    return CG_CONTENT_CODING_GZIP;
  if (strcmp (name, "deflate") == 0)
    return CG_CONTENT_CODING_DEFLATE;
  if (strcmp (name, "br") == 0)
    return CG_CONTENT_CODING_BROTLI;

  return CG_CONTENT_CODING_UNKNOWN;
}

static const char *
coding_name (CgContentCoding coding)
{
  switch (coding)
    {
    case CG_CONTENT_CODING_GZIP:
      return "gzip";
    case CG_CONTENT_CODING_DEFLATE:
      return "deflate";
    case CG_CONTENT_CODING_BROTLI:
      return "br";
    case CG_CONTENT_CODING_IDENTITY:
      return "identity";
    case CG_CONTENT_CODING_UNKNOWN:
    default:
      return "unknown";
    }
}

/* Appends @length bytes to @out unless that passes @max_size, in which case
 * only what fits is appended and FALSE is returned. */
static gboolean
append_bounded (GByteArray   *out,
                const guint8 *data,
                gsize         length,
                gsize         max_size)
{
  gsize room = max_size - MIN (out->len, max_size);

  if (length > room)
    {
      g_byte_array_append (out, data, room);
      return FALSE;
    }

  g_byte_array_append (out, data, length);
  return TRUE;
}

static void
set_too_large (GError          **error,
               CgContentCoding   coding,
               gsize             max_size)
{
  g_autofree char *limit = g_format_size_full (max_size, G_FORMAT_SIZE_IEC_UNITS);

  g_set_error (error, CG_CONTENT_DECODER_ERROR, CG_CONTENT_DECODER_ERROR_TOO_LARGE,
               _("The %s-encoded content decodes to more than %s, the limit"),
               coding_name (coding), limit);
}

typedef enum {
  INFLATE_DONE,
  INFLATE_TOO_LARGE,
  INFLATE_BAD_HEADER,
  INFLATE_CORRUPT,
  INFLATE_TRUNCATED,
} InflateStatus;

/* Runs zlib over all of @data. Gzip allows several members back to back
 * (RFC 1952 §2.2), so after the end of one stream the next is decoded
 * too; bytes after the last member that do not start a new one are
 * ignored, as browsers ignore the zero padding some servers append. */
static InflateStatus
run_inflate (const guint8  *data,
             gsize          length,
             int            window_bits,
             gsize          max_size,
             GByteArray    *out,
             const char   **zlib_message)
{
  g_autofree guint8 *buffer = g_malloc (OUTPUT_CHUNK);
  z_stream zs;
  gsize offset = 0;
  guint members = 0;
  InflateStatus status;

  memset (&zs, 0, sizeof zs);
  if (inflateInit2 (&zs, window_bits) != Z_OK)
    {
      *zlib_message = zs.msg;
      return INFLATE_CORRUPT;
    }

  for (;;)
    {
      gsize produced;
      int ret;

      if (zs.avail_in == 0 && offset < length)
        {
          gsize piece = MIN (length - offset, INPUT_PIECE);

          zs.next_in = (Bytef *) data + offset;
          zs.avail_in = (uInt) piece;
          offset += piece;
        }

      zs.next_out = buffer;
      zs.avail_out = OUTPUT_CHUNK;
      ret = inflate (&zs, Z_NO_FLUSH);
      produced = OUTPUT_CHUNK - zs.avail_out;

      if (produced > 0 && !append_bounded (out, buffer, produced, max_size))
        {
          status = INFLATE_TOO_LARGE;
          break;
        }

      if (ret == Z_STREAM_END)
        {
          members++;
          if (zs.avail_in == 0 && offset >= length)
            {
              status = INFLATE_DONE;
              break;
            }
          inflateReset (&zs);
          continue;
        }

      if (ret == Z_OK || ret == Z_BUF_ERROR)
        {
          /* All input consumed, room left in the buffer, and still no
           * end of stream: the data stops early. */
          if (zs.avail_in == 0 && offset >= length && zs.avail_out != 0)
            {
              status = members > 0 && zs.total_in == 0 ? INFLATE_DONE : INFLATE_TRUNCATED;
              break;
            }
          continue;
        }

      /* A data error where a further gzip member would start is the
       * trailing junk described above, not damage. */
      if (members > 0 && zs.total_out == 0)
        {
          status = INFLATE_DONE;
          break;
        }

      *zlib_message = zs.msg;
      status = members == 0 && zs.total_out == 0 ? INFLATE_BAD_HEADER : INFLATE_CORRUPT;
      break;
    }

  inflateEnd (&zs);
  return status;
}

static gboolean
decode_zlib (CgContentCoding   coding,
             const guint8     *data,
             gsize             length,
             gsize             max_size,
             GByteArray       *out,
             GError          **error)
{
  const char *zlib_message = NULL;
  InflateStatus status;

  status = run_inflate (data, length, WINDOW_AUTO_HEADER, max_size, out, &zlib_message);

  /* RFC 9110 defines deflate as zlib-wrapped, but some servers send raw
   * deflate under that name; browsers accept both, so Cartograph does. */
  if (status == INFLATE_BAD_HEADER && coding == CG_CONTENT_CODING_DEFLATE)
    {
      g_byte_array_set_size (out, 0);
      zlib_message = NULL;
      status = run_inflate (data, length, WINDOW_RAW, max_size, out, &zlib_message);
    }

  switch (status)
    {
    case INFLATE_DONE:
      return TRUE;
    case INFLATE_TOO_LARGE:
      set_too_large (error, coding, max_size);
      return FALSE;
    case INFLATE_TRUNCATED:
      g_set_error (error, CG_CONTENT_DECODER_ERROR, CG_CONTENT_DECODER_ERROR_CORRUPT,
                   _("The %s-encoded content ends before the end of its stream"),
                   coding_name (coding));
      return FALSE;
    case INFLATE_BAD_HEADER:
    case INFLATE_CORRUPT:
    default:
      g_set_error (error, CG_CONTENT_DECODER_ERROR, CG_CONTENT_DECODER_ERROR_CORRUPT,
                   _("The %s-encoded content is damaged: %s"),
                   coding_name (coding),
                   zlib_message != NULL ? zlib_message : _("invalid data"));
      return FALSE;
    }
}

static gboolean
decode_brotli (const guint8  *data,
               gsize          length,
               gsize          max_size,
               GByteArray    *out,
               GError       **error)
{
  g_autofree guint8 *buffer = g_malloc (OUTPUT_CHUNK);
  BrotliDecoderState *state;
  const uint8_t *next_in = data;
  size_t avail_in = length;
  gboolean ok = FALSE;

  state = BrotliDecoderCreateInstance (NULL, NULL, NULL);
  if (state == NULL)
    g_error ("Out of memory creating a brotli decoder");

  for (;;)
    {
      uint8_t *next_out = buffer;
      size_t avail_out = OUTPUT_CHUNK;
      BrotliDecoderResult result;
      gsize produced;

      result = BrotliDecoderDecompressStream (state, &avail_in, &next_in,
                                              &avail_out, &next_out, NULL);
      produced = OUTPUT_CHUNK - avail_out;
      if (produced > 0 && !append_bounded (out, buffer, produced, max_size))
        {
          set_too_large (error, CG_CONTENT_CODING_BROTLI, max_size);
          break;
        }

      if (result == BROTLI_DECODER_RESULT_SUCCESS)
        {
          ok = TRUE;
          break;
        }
      if (result == BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT)
        continue;
      if (result == BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT)
        {
          /* All of the input was handed over at once. */
          g_set_error (error, CG_CONTENT_DECODER_ERROR, CG_CONTENT_DECODER_ERROR_CORRUPT,
                       _("The %s-encoded content ends before the end of its stream"),
                       coding_name (CG_CONTENT_CODING_BROTLI));
          break;
        }

      g_set_error (error, CG_CONTENT_DECODER_ERROR, CG_CONTENT_DECODER_ERROR_CORRUPT,
                   _("The %s-encoded content is damaged: %s"),
                   coding_name (CG_CONTENT_CODING_BROTLI),
                   BrotliDecoderErrorString (BrotliDecoderGetErrorCode (state)));
      break;
    }

  BrotliDecoderDestroyInstance (state);
  return ok;
}

GBytes *
cg_content_decode (CgContentCoding   coding,
                   GBytes           *input,
                   gsize             max_size,
                   GBytes          **partial,
                   GError          **error)
{
  g_autoptr(GByteArray) out = NULL;
  const guint8 *data;
  gsize length = 0;
  gboolean ok;

  g_return_val_if_fail (input != NULL, NULL);
  g_return_val_if_fail (partial == NULL || *partial == NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  data = g_bytes_get_data (input, &length);

  switch (coding)
    {
    case CG_CONTENT_CODING_IDENTITY:
      return g_bytes_ref (input);

    case CG_CONTENT_CODING_GZIP:
    case CG_CONTENT_CODING_DEFLATE:
      out = g_byte_array_new ();
      ok = decode_zlib (coding, data, length, max_size, out, error);
      break;

    case CG_CONTENT_CODING_BROTLI:
      out = g_byte_array_new ();
      ok = decode_brotli (data, length, max_size, out, error);
      break;

    case CG_CONTENT_CODING_UNKNOWN:
    default:
      g_set_error (error, CG_CONTENT_DECODER_ERROR, CG_CONTENT_DECODER_ERROR_UNSUPPORTED,
                   _("The content coding is not supported"));
      return NULL;
    }

  if (!ok)
    {
      if (partial != NULL)
        *partial = g_byte_array_free_to_bytes (g_steal_pointer (&out));
      return NULL;
    }

  return g_byte_array_free_to_bytes (g_steal_pointer (&out));
}

GBytes *
cg_content_decode_header (const char  *content_encoding,
                          GBytes      *input,
                          gsize        max_size,
                          GBytes     **partial,
                          GError     **error)
{
  g_auto(GStrv) tokens = NULL;
  g_autoptr(GBytes) current = NULL;
  guint n_tokens;

  g_return_val_if_fail (input != NULL, NULL);
  g_return_val_if_fail (partial == NULL || *partial == NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (content_encoding == NULL)
    return g_bytes_ref (input);

  tokens = g_strsplit (content_encoding, ",", -1);
  n_tokens = g_strv_length (tokens);
  if (n_tokens > CG_CONTENT_DECODER_MAX_CODINGS)
    {
      g_set_error (error, CG_CONTENT_DECODER_ERROR, CG_CONTENT_DECODER_ERROR_UNSUPPORTED,
                   _("The Content-Encoding “%s” stacks more than %d codings"),
                   content_encoding, CG_CONTENT_DECODER_MAX_CODINGS);
      return NULL;
    }

  /* Check every token first, so an unsupported coding is reported before
   * any work is done. */
  for (guint i = 0; i < n_tokens; i++)
    {
      if (cg_content_coding_from_string (tokens[i]) == CG_CONTENT_CODING_UNKNOWN)
        {
          g_autofree char *name = g_strstrip (g_strdup (tokens[i]));

          g_set_error (error, CG_CONTENT_DECODER_ERROR, CG_CONTENT_DECODER_ERROR_UNSUPPORTED,
                       _("The content coding “%s” is not supported"), name);
          return NULL;
        }
    }

  /* Codings are listed in the order they were applied, so they are undone
   * from the last to the first. */
  current = g_bytes_ref (input);
  for (guint i = n_tokens; i > 0; i--)
    {
      CgContentCoding coding = cg_content_coding_from_string (tokens[i - 1]);
      g_autoptr(GBytes) layer_partial = NULL;
      GBytes *next;

      next = cg_content_decode (coding, current, max_size, &layer_partial, error);
      if (next == NULL)
        {
          /* Only the last layer's partial output is content; an inner
           * layer's is still encoded. */
          if (partial != NULL && i == 1)
            *partial = g_steal_pointer (&layer_partial);
          return NULL;
        }

      g_bytes_unref (current);
      current = next;
    }

  return g_steal_pointer (&current);
}
