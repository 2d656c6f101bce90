/* test-content-decoder.c: bounded decoding of HTTP content codings.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>
#include <zlib.h>

#include "cg-content-decoder.h"
#include "cg-test-encode.h"

#define MIB (1024 * 1024)

static GBytes *
make_text (void)
{
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < 3000; i++)
    g_string_append_printf (text, "<li><a href=\"/item/%u\">Item %u</a></li>\n", i, i * 104729 % 1009);
  return g_string_free_to_bytes (text);
}

static GBytes *
concat (GBytes *a,
        GBytes *b)
{
  GByteArray *out = g_byte_array_new ();

  g_byte_array_append (out, g_bytes_get_data (a, NULL), g_bytes_get_size (a));
  g_byte_array_append (out, g_bytes_get_data (b, NULL), g_bytes_get_size (b));
  return g_byte_array_free_to_bytes (out);
}

static void
assert_bytes_equal (GBytes *actual,
                    GBytes *expected)
{
  g_assert_nonnull (actual);
  g_assert_cmpmem (g_bytes_get_data (actual, NULL), g_bytes_get_size (actual),
                   g_bytes_get_data (expected, NULL), g_bytes_get_size (expected));
}

static void
test_coding_names (void)
{
  g_assert_cmpint (cg_content_coding_from_string ("gzip"), ==, CG_CONTENT_CODING_GZIP);
  g_assert_cmpint (cg_content_coding_from_string (" X-GZip "), ==, CG_CONTENT_CODING_GZIP);
  g_assert_cmpint (cg_content_coding_from_string ("Deflate"), ==, CG_CONTENT_CODING_DEFLATE);
  g_assert_cmpint (cg_content_coding_from_string ("br"), ==, CG_CONTENT_CODING_BROTLI);
  g_assert_cmpint (cg_content_coding_from_string ("identity"), ==, CG_CONTENT_CODING_IDENTITY);
  g_assert_cmpint (cg_content_coding_from_string (""), ==, CG_CONTENT_CODING_IDENTITY);
  g_assert_cmpint (cg_content_coding_from_string (NULL), ==, CG_CONTENT_CODING_IDENTITY);
  g_assert_cmpint (cg_content_coding_from_string ("zstd"), ==, CG_CONTENT_CODING_UNKNOWN);
  g_assert_cmpint (cg_content_coding_from_string ("compress"), ==, CG_CONTENT_CODING_UNKNOWN);
}

static void
test_round_trips (void)
{
  g_autoptr(GBytes) text = make_text ();
  struct {
    const char *header;
    GBytes     *encoded;
  } cases[] = {
    { "gzip", cg_test_zlib_encode (text, 15 + 16) },
    { "x-gzip", cg_test_zlib_encode (text, 15 + 16) },
    { "deflate", cg_test_zlib_encode (text, 15) },
    { "deflate", cg_test_zlib_encode (text, -15) },
    { "br", cg_test_brotli_encode (text, BROTLI_MODE_GENERIC) },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GBytes) decoded = cg_content_decode_header (cases[i].header, cases[i].encoded,
                                                            MIB, NULL, &error);

      g_assert_no_error (error);
      assert_bytes_equal (decoded, text);
      g_bytes_unref (cases[i].encoded);
    }
}

static void
test_identity (void)
{
  g_autoptr(GBytes) text = make_text ();
  const char *headers[] = { NULL, "", "identity", " Identity " };

  for (guint i = 0; i < G_N_ELEMENTS (headers); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GBytes) decoded = cg_content_decode_header (headers[i], text, 16, NULL, &error);

      /* Nothing is decompressed, so the size limit does not apply. */
      g_assert_no_error (error);
      g_assert_true (decoded == text);
    }
}

static void
test_gzip_members (void)
{
  g_autoptr(GBytes) first = g_bytes_new_static ("first part, ", 12);
  g_autoptr(GBytes) second = g_bytes_new_static ("second part", 11);
  g_autoptr(GBytes) first_gz = cg_test_zlib_encode (first, 15 + 16);
  g_autoptr(GBytes) second_gz = cg_test_zlib_encode (second, 15 + 16);
  g_autoptr(GBytes) both = concat (first_gz, second_gz);
  g_autoptr(GBytes) zeros = g_bytes_new_take (g_malloc0 (64), 64);
  g_autoptr(GBytes) padded = concat (first_gz, zeros);
  g_autoptr(GBytes) decoded = NULL;
  g_autoptr(GBytes) decoded_padded = NULL;
  g_autoptr(GError) error = NULL;

  decoded = cg_content_decode (CG_CONTENT_CODING_GZIP, both, MIB, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpmem (g_bytes_get_data (decoded, NULL), g_bytes_get_size (decoded),
                   "first part, second part", 23);

  /* Zero padding after the last member is ignored, as browsers do. */
  decoded_padded = cg_content_decode (CG_CONTENT_CODING_GZIP, padded, MIB, NULL, &error);
  g_assert_no_error (error);
  assert_bytes_equal (decoded_padded, first);
}

static void
test_truncated (void)
{
  g_autoptr(GBytes) text = make_text ();
  GBytes *encoded[] = { cg_test_zlib_encode (text, 15 + 16), cg_test_brotli_encode (text, BROTLI_MODE_GENERIC) };
  CgContentCoding codings[] = { CG_CONTENT_CODING_GZIP, CG_CONTENT_CODING_BROTLI };

  for (guint i = 0; i < G_N_ELEMENTS (encoded); i++)
    {
      g_autoptr(GBytes) half = g_bytes_new_from_bytes (encoded[i], 0, g_bytes_get_size (encoded[i]) / 2);
      g_autoptr(GBytes) partial = NULL;
      g_autoptr(GError) error = NULL;
      GBytes *decoded = cg_content_decode (codings[i], half, MIB, &partial, &error);
      gsize size;

      g_assert_null (decoded);
      g_assert_error (error, CG_CONTENT_DECODER_ERROR, CG_CONTENT_DECODER_ERROR_CORRUPT);
      /* What was decoded is a true prefix of the page. */
      g_assert_nonnull (partial);
      size = g_bytes_get_size (partial);
      g_assert_cmpuint (size, >, 0);
      g_assert_cmpuint (size, <, g_bytes_get_size (text));
      g_assert_cmpmem (g_bytes_get_data (partial, NULL), size, g_bytes_get_data (text, NULL), size);
      g_bytes_unref (encoded[i]);
    }
}

static void
test_corrupt (void)
{
  g_autoptr(GBytes) junk = g_bytes_new_static ("this is not compressed at all", 29);
  CgContentCoding codings[] = {
    CG_CONTENT_CODING_GZIP, CG_CONTENT_CODING_DEFLATE, CG_CONTENT_CODING_BROTLI,
  };

  for (guint i = 0; i < G_N_ELEMENTS (codings); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GBytes) partial = NULL;
      GBytes *decoded = cg_content_decode (codings[i], junk, MIB, &partial, &error);

      g_assert_null (decoded);
      g_assert_error (error, CG_CONTENT_DECODER_ERROR, CG_CONTENT_DECODER_ERROR_CORRUPT);
    }
}

static void
test_bombs (void)
{
  g_autoptr(GBytes) zeros = g_bytes_new_take (g_malloc0 (10 * MIB), 10 * MIB);
  GBytes *bombs[] = { cg_test_zlib_encode (zeros, 15 + 16), cg_test_zlib_encode (zeros, -15), cg_test_brotli_encode (zeros, BROTLI_MODE_GENERIC) };
  CgContentCoding codings[] = {
    CG_CONTENT_CODING_GZIP, CG_CONTENT_CODING_DEFLATE, CG_CONTENT_CODING_BROTLI,
  };

  for (guint i = 0; i < G_N_ELEMENTS (bombs); i++)
    {
      g_autoptr(GBytes) partial = NULL;
      g_autoptr(GError) error = NULL;
      GBytes *decoded;

      g_assert_cmpuint (g_bytes_get_size (bombs[i]), <, MIB / 10);
      decoded = cg_content_decode (codings[i], bombs[i], MIB, &partial, &error);
      g_assert_null (decoded);
      g_assert_error (error, CG_CONTENT_DECODER_ERROR, CG_CONTENT_DECODER_ERROR_TOO_LARGE);
      g_assert_nonnull (partial);
      g_assert_cmpuint (g_bytes_get_size (partial), ==, MIB);
      g_bytes_unref (bombs[i]);
    }
}

static void
test_exactly_the_limit (void)
{
  g_autoptr(GBytes) text = make_text ();
  g_autoptr(GBytes) encoded = cg_test_zlib_encode (text, 15 + 16);
  g_autoptr(GBytes) decoded = NULL;
  g_autoptr(GBytes) partial = NULL;
  g_autoptr(GError) error = NULL;
  gsize size = g_bytes_get_size (text);

  decoded = cg_content_decode (CG_CONTENT_CODING_GZIP, encoded, size, NULL, &error);
  g_assert_no_error (error);
  assert_bytes_equal (decoded, text);

  g_assert_null (cg_content_decode (CG_CONTENT_CODING_GZIP, encoded, size - 1, &partial, &error));
  g_assert_error (error, CG_CONTENT_DECODER_ERROR, CG_CONTENT_DECODER_ERROR_TOO_LARGE);
  g_assert_cmpuint (g_bytes_get_size (partial), ==, size - 1);
}

static void
test_stacked (void)
{
  g_autoptr(GBytes) text = make_text ();
  g_autoptr(GBytes) gzipped = cg_test_zlib_encode (text, 15 + 16);
  g_autoptr(GBytes) both = cg_test_brotli_encode (gzipped, BROTLI_MODE_GENERIC);
  g_autoptr(GBytes) decoded = NULL;
  g_autoptr(GError) error = NULL;

  /* Listed in the order applied: gzip first, then br. */
  decoded = cg_content_decode_header ("gzip, br", both, MIB, NULL, &error);
  g_assert_no_error (error);
  assert_bytes_equal (decoded, text);

  g_assert_null (cg_content_decode_header ("br, gzip", both, MIB, NULL, &error));
  g_assert_error (error, CG_CONTENT_DECODER_ERROR, CG_CONTENT_DECODER_ERROR_CORRUPT);
}

static void
test_unsupported (void)
{
  g_autoptr(GBytes) text = make_text ();
  const char *headers[] = { "zstd", "gzip, compress", "gzip, gzip, gzip, gzip, gzip" };

  for (guint i = 0; i < G_N_ELEMENTS (headers); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GBytes) partial = NULL;

      g_assert_null (cg_content_decode_header (headers[i], text, MIB, &partial, &error));
      g_assert_error (error, CG_CONTENT_DECODER_ERROR, CG_CONTENT_DECODER_ERROR_UNSUPPORTED);
      g_assert_null (partial);
    }
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/content-decoder/coding-names", test_coding_names);
  g_test_add_func ("/content-decoder/round-trips", test_round_trips);
  g_test_add_func ("/content-decoder/identity", test_identity);
  g_test_add_func ("/content-decoder/gzip-members", test_gzip_members);
  g_test_add_func ("/content-decoder/truncated", test_truncated);
  g_test_add_func ("/content-decoder/corrupt", test_corrupt);
  g_test_add_func ("/content-decoder/bombs", test_bombs);
  g_test_add_func ("/content-decoder/exactly-the-limit", test_exactly_the_limit);
  g_test_add_func ("/content-decoder/stacked", test_stacked);
  g_test_add_func ("/content-decoder/unsupported", test_unsupported);

  return g_test_run ();
}
