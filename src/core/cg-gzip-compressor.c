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
 * Longer records are mostly the pages of one site, whose bytes are much
 * alike: codes built once from the first of them fit the rest nearly as
 * well as codes built for each. So the first LEARN_RECORDS long records
 * that level 1 compresses well (pages, not images) are counted into a
 * histogram, igzip builds codes from it, and the records after are
 * compressed at level 0 with those codes: on the crawl benchmark's pages
 * 1.4 times as fast as level 1, for 1.3 % more bytes. A record that the
 * learned codes fit badly (an image after pages) is compressed again at
 * level 1; when that happens to many records in a row the crawl has
 * changed, and the codes are learned again.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <libdeflate.h>
#include <string.h>

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
#define LEARN_RECORDS      8
/* Records that level 1 shrinks less than this (images, compressed
 * payloads) would teach codes that fit pages badly. */
#define LEARNABLE_RATIO    0.8
/* A record fits the learned codes badly when they make it this much
 * larger, as a share of its length, than the learning records' mean
 * (0.46 on the crawl benchmark's pages), or when they barely compress
 * it at all. */
#define MISFIT_MARGIN      0.25
#define MISFIT_RATIO       0.95
/* Learn again when more than MISFITS_TO_RELEARN of the last
 * MISFIT_WINDOW records coded with the learned codes fit them badly. */
#define MISFIT_WINDOW      64
#define MISFITS_TO_RELEARN 16

struct _CgGzipCompressor
{
  int                            level;
  char                          *description;
  struct libdeflate_compressor  *deflate;
#ifdef HAVE_ISAL
  guint8                        *isal_level_buffer;

  /* Codes learned from the long records (see above). */
  struct isal_huff_histogram    *histogram;
  struct isal_hufftables        *learned_codes;
  guint                          learned_records; /* counted into the histogram */
  gsize                          learned_in;      /* their bytes, and at level 1 */
  gsize                          learned_out;
  gboolean                       codes_ready;
  guint                          coded_records;   /* in the current window */
  guint                          misfits;
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
      self->histogram = g_try_new0 (struct isal_huff_histogram, 1);
      self->learned_codes = g_try_new0 (struct isal_hufftables, 1);
      if (self->isal_level_buffer == NULL || self->histogram == NULL || self->learned_codes == NULL)
        return NULL;
    }
#endif
  self->description = uses_isal (level)
    ? g_strdup_printf ("ISA-L igzip level %d (records under %d bytes: fixed codes; "
                       "later records: level 0 with codes learned from the first %d)",
                       level, SHORT_RECORD, LEARN_RECORDS)
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
  g_free (self->histogram);
  g_free (self->learned_codes);
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
typedef enum {
  CODES_FIXED,
  CODES_PER_RECORD,
  CODES_LEARNED,
} IsalCodes;

static gsize
deflate_with_isal (CgGzipCompressor *self,
                   IsalCodes         codes,
                   const void       *data,
                   gsize             length,
                   void             *out,
                   gsize             out_size)
{
  struct isal_zstream stream;

  isal_deflate_stateless_init (&stream);
  switch (codes)
    {
    case CODES_FIXED:
      stream.level = 0;
      if (isal_deflate_set_hufftables (&stream, NULL, IGZIP_HUFFTABLE_STATIC) != COMP_OK)
        return 0;
      break;
    case CODES_LEARNED:
      stream.level = 0;
      if (isal_deflate_set_hufftables (&stream, self->learned_codes, IGZIP_HUFFTABLE_CUSTOM) != COMP_OK)
        return 0;
      break;
    case CODES_PER_RECORD:
    default:
      stream.level = (guint32) self->level;
      stream.level_buf = self->isal_level_buffer;
      stream.level_buf_size = ISAL_DEF_LVL1_DEFAULT;
      break;
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

static void
start_learning (CgGzipCompressor *self)
{
  memset (self->histogram, 0, sizeof *self->histogram);
  self->learned_records = 0;
  self->learned_in = 0;
  self->learned_out = 0;
  self->codes_ready = FALSE;
  self->coded_records = 0;
  self->misfits = 0;
}

/* Compresses a long record at level 1 and learns from it if it is like a
 * page. */
static gsize
compress_learning (CgGzipCompressor *self,
                   const void       *data,
                   gsize             length,
                   void             *out,
                   gsize             out_size)
{
  gsize written = deflate_with_isal (self, CODES_PER_RECORD, data, length, out, out_size);

  if (written == 0 || (double) written > (double) length * LEARNABLE_RATIO)
    return written;
  /* Records given to igzip are under 2 GiB (see cg_gzip_compressor_compress()). */
  isal_update_histogram ((guint8 *) data, (int) length, self->histogram);
  self->learned_records++;
  self->learned_in += length;
  self->learned_out += written;
  if (self->learned_records == LEARN_RECORDS)
    {
      self->codes_ready = isal_create_hufftables (self->learned_codes, self->histogram) == 0;
      /* Codes that cannot be built are learned again from the next records. */
      if (!self->codes_ready)
        start_learning (self);
    }
  return written;
}

/* Compresses a long record with the learned codes, or again at level 1
 * when they fit it badly. */
static gsize
compress_learned (CgGzipCompressor *self,
                  const void       *data,
                  gsize             length,
                  void             *out,
                  gsize             out_size)
{
  double learned_ratio = (double) self->learned_out / (double) MAX (self->learned_in, 1);
  gsize fit_limit = (gsize) ((double) length * MIN (MISFIT_RATIO, learned_ratio + MISFIT_MARGIN));
  gsize written = deflate_with_isal (self, CODES_LEARNED, data, length, out, out_size);

  self->coded_records++;
  /* 0: the learned codes made it longer than out_size. */
  if (written == 0 || written > fit_limit)
    {
      self->misfits++;
      written = deflate_with_isal (self, CODES_PER_RECORD, data, length, out, out_size);
    }
  if (self->coded_records == MISFIT_WINDOW)
    {
      if (self->misfits > MISFITS_TO_RELEARN)
        start_learning (self);
      else
        self->coded_records = self->misfits = 0;
    }
  return written;
}

static gsize
compress_with_isal (CgGzipCompressor *self,
                    const void       *data,
                    gsize             length,
                    void             *out,
                    gsize             out_size)
{
  if (length < SHORT_RECORD)
    return deflate_with_isal (self, CODES_FIXED, data, length, out, out_size);
  if (self->codes_ready)
    return compress_learned (self, data, length, out, out_size);
  return compress_learning (self, data, length, out, out_size);
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
