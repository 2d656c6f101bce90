/* cg-gzip-compressor.c: one gzip member from one buffer.
 *
 * libdeflate compresses whole buffers several times faster than zlib, and
 * ISA-L's igzip is faster again at its level 1 (about 1.8 times on the
 * crawl benchmark's pages, for output about 3 % larger): compressing was
 * the largest part of the WARC writer's work, so the default level uses
 * igzip where it is available. Both write a complete gzip member
 * (header, deflate stream, CRC-32 and length) in one call.
 *
 * igzip's level 1 builds Huffman codes for each record, which for a short
 * record takes longer than compressing it: a quarter of the compressing
 * time of the crawl benchmark went to the request and metadata records
 * (a few hundred bytes to a few KiB each). Records shorter than
 * SHORT_RECORD are therefore coded with deflate's fixed codes (igzip's
 * level 0): five times as fast, for 3 % larger WARC files there.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <libdeflate.h>

#ifdef HAVE_ISAL
#include <isa-l/igzip_lib.h>
#endif

#include "cg-gzip-compressor.h"

/* gzip's header and trailer, with room to spare for igzip's header. */
#define GZIP_FRAMING_BYTES 64
/* A stored deflate block holds at most 65,535 bytes behind a 5-byte
 * header. */
#define STORED_BLOCK_SIZE  65535
#define STORED_BLOCK_HEAD  5

/* See above. */
#define SHORT_RECORD       4096

struct _CgGzipCompressor
{
  int                            level;
  char                          *description;
  struct libdeflate_compressor  *deflate;
#ifdef HAVE_ISAL
  guint8                        *isal_level_buffer;
#endif
};

static gboolean
uses_isal (int level)
{
#ifdef HAVE_ISAL
  return level == 1;
#else
  return FALSE;
#endif
}

CgGzipCompressor *
cg_gzip_compressor_new (int level)
{
  g_autoptr(CgGzipCompressor) self = g_new0 (CgGzipCompressor, 1);

  g_return_val_if_fail (level >= 0 && level <= 12, NULL);

  self->level = level;
  /* libdeflate is kept beside igzip for records igzip cannot take in one
   * call (4 GiB and more). */
  self->deflate = libdeflate_alloc_compressor (level);
  if (self->deflate == NULL)
    return NULL;
#ifdef HAVE_ISAL
  if (uses_isal (level))
    {
      self->isal_level_buffer = g_try_malloc (ISAL_DEF_LVL1_DEFAULT);
      if (self->isal_level_buffer == NULL)
        return NULL;
    }
#endif
  self->description = uses_isal (level)
    ? g_strdup_printf ("ISA-L igzip level %d (records under %d bytes: fixed codes)", level, SHORT_RECORD)
    : g_strdup_printf ("libdeflate level %d", level);
  return g_steal_pointer (&self);
}

void
cg_gzip_compressor_free (CgGzipCompressor *self)
{
  if (self == NULL)
    return;
  if (self->deflate != NULL)
    libdeflate_free_compressor (self->deflate);
#ifdef HAVE_ISAL
  g_free (self->isal_level_buffer);
#endif
  g_free (self->description);
  g_free (self);
}

gsize
cg_gzip_compressor_bound (CgGzipCompressor *self,
                          gsize             length)
{
  /* igzip falls back to stored blocks when its output would not fit; the
   * larger of that and libdeflate's own bound covers both. */
  gsize stored = length + STORED_BLOCK_HEAD * (length / STORED_BLOCK_SIZE + 1) + GZIP_FRAMING_BYTES;

  return MAX (stored, libdeflate_gzip_compress_bound (self->deflate, length));
}

#ifdef HAVE_ISAL
static gsize
compress_with_isal (CgGzipCompressor *self,
                    const void       *data,
                    gsize             length,
                    void             *out,
                    gsize             out_size)
{
  struct isal_zstream stream;

  isal_deflate_stateless_init (&stream);
  if (length < SHORT_RECORD)
    {
      stream.level = 0;
      if (isal_deflate_set_hufftables (&stream, NULL, IGZIP_HUFFTABLE_STATIC) != COMP_OK)
        return 0;
    }
  else
    {
      stream.level = (guint32) self->level;
      stream.level_buf = self->isal_level_buffer;
      stream.level_buf_size = ISAL_DEF_LVL1_DEFAULT;
    }
  stream.gzip_flag = IGZIP_GZIP;
  stream.end_of_stream = 1;
  stream.flush = NO_FLUSH;
  stream.next_in = (guint8 *) data;
  stream.avail_in = (guint32) length;
  stream.next_out = out;
  stream.avail_out = (guint32) MIN (out_size, G_MAXUINT32);

  if (isal_deflate_stateless (&stream) != COMP_OK)
    return 0;
  return stream.total_out;
}
#endif

gsize
cg_gzip_compressor_compress (CgGzipCompressor *self,
                             const void       *data,
                             gsize             length,
                             void             *out,
                             gsize             out_size)
{
#ifdef HAVE_ISAL
  if (self->isal_level_buffer != NULL && length < G_MAXUINT32 / 2)
    {
      gsize written = compress_with_isal (self, data, length, out, out_size);

      if (written > 0)
        return written;
    }
#endif
  return libdeflate_gzip_compress (self->deflate, data, length, out, out_size);
}

const char *
cg_gzip_compressor_describe (CgGzipCompressor *self)
{
  return self->description;
}
