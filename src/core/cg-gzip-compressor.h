/* cg-gzip-compressor.h: compresses a buffer into one gzip member, as each
 * WARC record is stored.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _CgGzipCompressor CgGzipCompressor;

/* A compressor for @level, 0 (stored) to 12 (smallest). Level 1, the
 * fastest level that looks for repeats, uses ISA-L's igzip where Cartograph
 * was built with it (short records with deflate's fixed codes, most
 * longer ones with codes learned from the first: see cg-gzip-compressor.c);
 * every other level, and level 1 without ISA-L, uses libdeflate. A
 * compressor learns from what it compresses, so one is used from one
 * thread at a time. Returns NULL when out of memory. */
CgGzipCompressor *cg_gzip_compressor_new         (int                     level);
void              cg_gzip_compressor_free        (CgGzipCompressor       *self);

/* The most bytes compressing @length bytes can take, gzip header and
 * trailer included. */
gsize             cg_gzip_compressor_bound       (CgGzipCompressor       *self,
                                                  gsize                   length);

/* Compresses @length bytes of @data into one gzip member in @out, whose
 * @out_size must be at least cg_gzip_compressor_bound() of @length.
 * Returns the member's length, or 0 when it did not fit. */
gsize             cg_gzip_compressor_compress    (CgGzipCompressor       *self,
                                                  const void             *data,
                                                  gsize                   length,
                                                  void                   *out,
                                                  gsize                   out_size);

/* Which compressor and level, for the warcinfo record: "ISA-L igzip
 * level 1 (records under 4096 bytes: fixed codes; later records: …)" or
 * "libdeflate level 6". */
const char       *cg_gzip_compressor_describe    (CgGzipCompressor       *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CgGzipCompressor, cg_gzip_compressor_free)

G_END_DECLS
