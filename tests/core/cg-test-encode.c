/* cg-test-encode.c: content codings for test data, made with the real encoders.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "cg-test-encode.h"

GBytes *
cg_test_zlib_encode (GBytes *input,
                     int     window_bits)
{
  gsize length;
  const guint8 *data = g_bytes_get_data (input, &length);
  z_stream zs;
  guint8 *out;
  gsize bound;

  memset (&zs, 0, sizeof zs);
  g_assert_cmpint (deflateInit2 (&zs, 6, Z_DEFLATED, window_bits, 8, Z_DEFAULT_STRATEGY), ==, Z_OK);
  bound = deflateBound (&zs, length) + 32;
  out = g_malloc (bound);
  zs.next_in = (Bytef *) data;
  zs.avail_in = length;
  zs.next_out = out;
  zs.avail_out = bound;
  g_assert_cmpint (deflate (&zs, Z_FINISH), ==, Z_STREAM_END);
  bound = zs.total_out;
  deflateEnd (&zs);
  return g_bytes_new_take (out, bound);
}

GBytes *
cg_test_brotli_encode (GBytes            *input,
                       BrotliEncoderMode  mode)
{
  gsize length;
  const guint8 *data = g_bytes_get_data (input, &length);
  size_t out_size = BrotliEncoderMaxCompressedSize (length) + 16;
  guint8 *out = g_malloc (out_size);

  g_assert_true (BrotliEncoderCompress (5, BROTLI_DEFAULT_WINDOW, mode, length, data, &out_size, out));
  return g_bytes_new_take (out, out_size);
}
