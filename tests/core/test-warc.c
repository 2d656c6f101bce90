/* test-warc.c: the WARC writer, reader, crash repair and CDXJ index.
 *
 * Run as "test-warc --write-sample DIR", the program writes the sample set
 * of WARC files that tests/tools/warcio-check.sh has warcio read back.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>
#include <string.h>
#include <zlib.h>

#include "cg-cdxj.h"
#include "cg-gzip-compressor.h"
#include "cg-warc-reader.h"
#include "cg-warc-writer.h"
#include "cg-test-files.h"

typedef struct {
  char *dir;
} Fixture;

static void
fixture_set_up (Fixture *f, gconstpointer data)
{
  f->dir = cg_test_folder_new ("cg-warc-XXXXXX");
}

static void
fixture_tear_down (Fixture *f, gconstpointer data)
{
  cg_test_folder_remove (f->dir);
}

static int
compare_names_cb (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

/* The names of the .warc.gz files in dir, sorted. */
static GPtrArray *
list_warc_files (const char *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)) != NULL)
    if (g_str_has_suffix (name, ".warc.gz"))
      g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_names_cb);
  return names;
}

/* Reads every record of a file, verifying digests, and fails on error. */
static GPtrArray *
read_all (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CgWarcReader) reader = cg_warc_reader_new (path, &error);
  GPtrArray *records = g_ptr_array_new_with_free_func ((GDestroyNotify) cg_warc_record_unref);
  CgWarcRecord *record;

  g_assert_no_error (error);
  cg_warc_reader_set_verify_digests (reader, TRUE);
  while ((record = cg_warc_reader_next (reader, &error)) != NULL)
    {
      g_assert_true (cg_warc_record_get_digests_verified (record));
      g_ptr_array_add (records, record);
    }
  g_assert_no_error (error);
  return records;
}

static GError *
read_all_error (const char *path, gboolean verify)
{
  GError *error = NULL;
  g_autoptr(CgWarcReader) reader = cg_warc_reader_new (path, &error);
  CgWarcRecord *record;

  if (reader == NULL)
    return error;
  cg_warc_reader_set_verify_digests (reader, verify);
  while ((record = cg_warc_reader_next (reader, &error)) != NULL)
    cg_warc_record_unref (record);
  return error;
}

static void
assert_bytes_equal (GBytes *bytes, const void *data, gsize length)
{
  g_assert_nonnull (bytes);
  g_assert_cmpmem (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), data, length);
}

/* ------------------------------------------------------------------ */
/* Sample exchanges                                                    */

typedef struct {
  char    *uri;
  GString *request;
  GString *response;
  GBytes  *payload;
} Sample;

static void
sample_free (Sample *sample)
{
  g_free (sample->uri);
  g_string_free (sample->request, TRUE);
  g_string_free (sample->response, TRUE);
  g_bytes_unref (sample->payload);
  g_free (sample);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Sample, sample_free)

static Sample *
sample_new (const char *uri,
            guint       status,
            const char *reason,
            const char *content_type,
            const char *extra_headers,
            GBytes     *payload)
{
  Sample *sample = g_new0 (Sample, 1);
  g_autoptr(GUri) parsed = g_uri_parse (uri, G_URI_FLAGS_ENCODED, NULL);
  const char *query;

  g_assert_nonnull (parsed);
  query = g_uri_get_query (parsed);
  sample->uri = g_strdup (uri);
  sample->payload = g_bytes_ref (payload);
  sample->request = g_string_new (NULL);
  g_string_append_printf (sample->request,
                          "GET %s%s%s HTTP/1.1\r\n"
                          "Host: %s:%d\r\n"
                          "User-Agent: Cartograph-test\r\n"
                          "Accept-Encoding: gzip\r\n"
                          "\r\n",
                          g_uri_get_path (parsed), query != NULL ? "?" : "",
                          query != NULL ? query : "",
                          g_uri_get_host (parsed), g_uri_get_port (parsed));
  sample->response = g_string_new (NULL);
  g_string_append_printf (sample->response,
                          "HTTP/1.1 %u %s\r\n"
                          "Content-Type: %s\r\n"
                          "Content-Length: %" G_GSIZE_FORMAT "\r\n"
                          "%s"
                          "\r\n",
                          status, reason, content_type, g_bytes_get_size (payload),
                          extra_headers != NULL ? extra_headers : "");
  return sample;
}

static GBytes *
html_page (guint n)
{
  GString *html = g_string_new ("<!DOCTYPE html>\n<html><head><title>");

  g_string_append_printf (html, "Page %u</title></head><body>\n", n);
  for (guint i = 0; i < 20 + n; i++)
    g_string_append_printf (html, "<p><a href=\"/item/%u\">Item %u of page %u</a></p>\n", i, i, n);
  g_string_append (html, "</body></html>\n");
  return g_string_free_to_bytes (html);
}

static GBytes *
random_bytes (gsize length, guint32 seed)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
  guint8 *data = g_malloc (length);

  for (gsize i = 0; i < length; i++)
    data[i] = (guint8) g_rand_int_range (rand, 0, 256);
  return g_bytes_new_take (data, length);
}

static GBytes *
gzip_bytes (GBytes *input)
{
  g_autoptr(GZlibCompressor) compressor = g_zlib_compressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP, 6);
  g_autoptr(GInputStream) base = g_memory_input_stream_new_from_bytes (input);
  g_autoptr(GInputStream) stream = g_converter_input_stream_new (base, G_CONVERTER (compressor));
  g_autoptr(GOutputStream) out = g_memory_output_stream_new_resizable ();
  g_autoptr(GError) error = NULL;

  g_output_stream_splice (out, stream, G_OUTPUT_STREAM_SPLICE_CLOSE_SOURCE |
                                       G_OUTPUT_STREAM_SPLICE_CLOSE_TARGET, NULL, &error);
  g_assert_no_error (error);
  return g_memory_output_stream_steal_as_bytes (G_MEMORY_OUTPUT_STREAM (out));
}

static CgWarcExchange
exchange_for (Sample *sample, const char *ip)
{
  CgWarcExchange exchange = {
    .target_uri = sample->uri,
    .ip_address = ip,
    .request_headers = (const guint8 *) sample->request->str,
    .request_headers_length = sample->request->len,
    .response_headers = (const guint8 *) sample->response->str,
    .response_headers_length = sample->response->len,
    .payload = g_bytes_get_data (sample->payload, NULL),
    .payload_length = g_bytes_get_size (sample->payload),
  };

  return exchange;
}

static CgWarcWriter *
new_writer (const char *dir, const char *prefix)
{
  g_autoptr(GError) error = NULL;
  CgWarcWriter *writer = cg_warc_writer_new (dir, prefix, &error);

  g_assert_no_error (error);
  g_assert_nonnull (writer);
  return writer;
}

/* ------------------------------------------------------------------ */
/* Digests                                                             */

static void
test_base32_rfc4648 (void)
{
  /* RFC 4648 §10. */
  static const struct { const char *in; const char *out; } vectors[] = {
    { "", "" },
    { "f", "MY======" },
    { "fo", "MZXQ====" },
    { "foo", "MZXW6===" },
    { "foob", "MZXW6YQ=" },
    { "fooba", "MZXW6YTB" },
    { "foobar", "MZXW6YTBOI======" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (vectors); i++)
    {
      g_autofree char *encoded = cg_warc_base32_encode ((const guint8 *) vectors[i].in,
                                                        strlen (vectors[i].in));

      g_assert_cmpstr (encoded, ==, vectors[i].out);
    }
}

static void
test_digest_known_values (void)
{
  g_autofree char *empty = cg_warc_digest_compute (CG_WARC_DIGEST_SHA1, "", 0);
  g_autofree char *abc = cg_warc_digest_compute (CG_WARC_DIGEST_SHA1, "abc", 3);
  g_autofree char *abc256 = cg_warc_digest_compute (CG_WARC_DIGEST_SHA256, "abc", 3);

  /* SHA-1("") and SHA-1("abc") (FIPS 180 test vector a9993e36…) and
   * SHA-256("abc") (ba7816bf…), in base32. */
  g_assert_cmpstr (empty, ==, "sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ");
  g_assert_cmpstr (abc, ==, "sha1:VGMT4NSHA2AWVOR6EVYXQUGCNSONBWE5");
  g_assert_cmpstr (abc256, ==, "sha256:XJ4BNP4PAHH6UQKBIDPF3LRCEOYAGYNDSYLXVHFUCD7WD4QACWWQ====");
}

/* A digest given its data in uneven pieces (across the 64-byte blocks of
 * SHA-1 and SHA-256) agrees with GLib's independent implementation, and
 * starts again empty once read. */
static void
test_digest_in_pieces (void)
{
  static const CgWarcDigestAlgorithm algorithms[] = { CG_WARC_DIGEST_SHA1, CG_WARC_DIGEST_SHA256 };
  static const GChecksumType types[] = { G_CHECKSUM_SHA1, G_CHECKSUM_SHA256 };
  g_autofree guint8 *data = g_malloc (300000);
  guint32 state = 12345;

  for (gsize i = 0; i < 300000; i++)
    {
      state = state * 1103515245 + 12345;
      data[i] = state >> 24;
    }

  for (gsize a = 0; a < G_N_ELEMENTS (algorithms); a++)
    {
      g_autoptr(CgWarcDigest) digest = cg_warc_digest_new (algorithms[a]);
      g_autoptr(GChecksum) reference = g_checksum_new (types[a]);
      g_autofree char *empty_expected = cg_warc_digest_compute (algorithms[a], "", 0);
      g_autofree char *got = NULL;
      g_autofree char *encoded = NULL;
      g_autofree char *expected = NULL;
      g_autofree char *empty = NULL;
      g_autofree char *one_shot = NULL;
      guint8 raw[32];
      gsize raw_length = sizeof raw;
      gsize done = 0;

      for (gsize piece = 1; done < 300000; piece = piece * 3 + 1)
        {
          gsize n = MIN (piece % 70001, 300000 - done);

          cg_warc_digest_update (digest, data + done, n);
          cg_warc_digest_update (digest, NULL, 0);
          done += n;
        }
      g_checksum_update (reference, data, 300000);
      g_checksum_get_digest (reference, raw, &raw_length);
      encoded = cg_warc_base32_encode (raw, raw_length);
      expected = g_strconcat (cg_warc_digest_algorithm_get_label (algorithms[a]), ":", encoded, NULL);

      got = cg_warc_digest_to_string (digest);
      g_assert_cmpstr (got, ==, expected);
      one_shot = cg_warc_digest_compute (algorithms[a], data, 300000);
      g_assert_cmpstr (one_shot, ==, expected);

      empty = cg_warc_digest_to_string (digest);
      g_assert_cmpstr (empty, ==, empty_expected);
    }
}

/* ------------------------------------------------------------------ */
/* One gzip member per record                                          */

/* Inflates @member with zlib, which must find exactly one gzip member
 * filling all @member_length bytes, and returns what it held. */
static GByteArray *
inflate_one_member (const guint8 *member,
                    gsize         member_length)
{
  GByteArray *plain = g_byte_array_new ();
  z_stream stream = { 0, };
  guint8 chunk[16384];
  int status;

  g_assert_cmpint (inflateInit2 (&stream, 16 + MAX_WBITS), ==, Z_OK);
  stream.next_in = (Bytef *) member;
  stream.avail_in = (uInt) member_length;
  do
    {
      stream.next_out = chunk;
      stream.avail_out = sizeof chunk;
      status = inflate (&stream, Z_NO_FLUSH);
      g_assert_true (status == Z_OK || status == Z_STREAM_END);
      g_byte_array_append (plain, chunk, (guint) (sizeof chunk - stream.avail_out));
    }
  while (status != Z_STREAM_END);
  /* Nothing after the member's trailer. */
  g_assert_cmpuint (stream.avail_in, ==, 0);
  inflateEnd (&stream);
  return plain;
}

static void
test_gzip_member_every_level (void)
{
  g_autoptr(GString) html = g_string_new (NULL);
  g_autofree guint8 *noise = g_malloc (300 * 1024);
  g_autoptr(GString) headers = g_string_new (NULL);
  struct { const char *what; const guint8 *data; gsize length; } inputs[5];

  /* Pages repeat themselves (compressible); noise does not, and is long
   * enough to take several stored blocks where a compressor gives up. */
  for (guint i = 0; i < 2000; i++)
    g_string_append_printf (html, "<li><a href=\"/item/%u\">Item %u</a></li>\n", i * 7919 % 10007, i);
  for (gsize i = 0; i < 300 * 1024; i++)
    noise[i] = (guint8) g_test_rand_int_range (0, 256);
  /* Short, as request records are, and coded another way (see
   * cg-gzip-compressor.c). */
  for (guint i = 0; i < 12; i++)
    g_string_append_printf (headers, "X-Header-%u: value %u of a request header block\r\n", i, i % 3);
  inputs[0].what = "nothing";
  inputs[0].data = (const guint8 *) "";
  inputs[0].length = 0;
  inputs[1].what = "one byte";
  inputs[1].data = (const guint8 *) "x";
  inputs[1].length = 1;
  inputs[2].what = "HTML";
  inputs[2].data = (const guint8 *) html->str;
  inputs[2].length = html->len;
  inputs[3].what = "noise";
  inputs[3].data = noise;
  inputs[3].length = 300 * 1024;
  inputs[4].what = "short headers";
  inputs[4].data = (const guint8 *) headers->str;
  inputs[4].length = headers->len;

  for (int level = 0; level <= CG_WARC_WRITER_MAX_COMPRESSION_LEVEL; level++)
    {
      g_autoptr(CgGzipCompressor) compressor = cg_gzip_compressor_new (level);

      g_assert_nonnull (compressor);
      for (guint i = 0; i < G_N_ELEMENTS (inputs); i++)
        {
          /* Exactly the bound: a compressor that needs more fails here. */
          gsize bound = cg_gzip_compressor_bound (compressor, inputs[i].length);
          g_autofree guint8 *member = g_malloc (bound);
          gsize length = cg_gzip_compressor_compress (compressor, inputs[i].data, inputs[i].length,
                                                      member, bound);
          g_autoptr(GByteArray) plain = NULL;

          if (length == 0)
            g_error ("level %d could not compress %s into its bound of %" G_GSIZE_FORMAT " bytes",
                     level, inputs[i].what, bound);
          plain = inflate_one_member (member, length);
          g_assert_cmpmem (plain->data, plain->len, inputs[i].data, inputs[i].length);
          if (level > 0 && i == 2)
            g_assert_cmpuint (length, <, inputs[i].length / 3);
          if (level > 0 && i == 4)
            g_assert_cmpuint (length, <, inputs[i].length / 2);
        }
    }
}

/* Compresses @data with @compressor and checks that the member gives it
 * back. Returns the member's length. */
static gsize
compress_and_check (CgGzipCompressor *compressor,
                    GBytes           *data)
{
  gsize length = g_bytes_get_size (data);
  gsize bound = cg_gzip_compressor_bound (compressor, length);
  g_autofree guint8 *member = g_malloc (bound);
  gsize packed = cg_gzip_compressor_compress (compressor, g_bytes_get_data (data, NULL), length,
                                              member, bound);
  g_autoptr(GByteArray) plain = NULL;

  g_assert_cmpuint (packed, >, 0);
  plain = inflate_one_member (member, packed);
  g_assert_cmpmem (plain->data, plain->len, g_bytes_get_data (data, NULL), length);
  return packed;
}

/* Compresses @count pages of one SWDE site with @compressor, each of them
 * also with a new compressor, which codes each long record for itself
 * (see cg-gzip-compressor.c); returns the lengths of both, and how many
 * members differ in length. */
static void
compress_site_pages (CgGzipCompressor *compressor,
                     const char       *site,
                     guint             count,
                     gsize            *out_length,
                     gsize            *out_fresh_length,
                     guint            *out_differing)
{
  const char *shared = g_getenv ("CARTOGRAPH_SHARED_DIR");

  *out_length = *out_fresh_length = 0;
  *out_differing = 0;
  for (guint i = 0; i < count; i++)
    {
      g_autofree char *name = g_strdup_printf ("%04u.htm", i);
      g_autofree char *path = g_build_filename (shared, "datasets", "swde-book-subset", "pages", site,
                                                name, NULL);
      g_autoptr(GBytes) page = cg_test_read_file (path);
      g_autoptr(CgGzipCompressor) fresh = cg_gzip_compressor_new (1);
      gsize length = compress_and_check (compressor, page);
      gsize fresh_length = compress_and_check (fresh, page);

      g_assert_cmpuint (g_bytes_get_size (page), >=, 4096);
      *out_length += length;
      *out_fresh_length += fresh_length;
      *out_differing += length != fresh_length;
    }
  g_test_message ("%s: %" G_GSIZE_FORMAT " bytes, %" G_GSIZE_FORMAT " with each page's codes, "
                  "%u members differ", site, *out_length, *out_fresh_length, *out_differing);
}

/* Compresses @count records of 64 KiB of noise (seeds @first_seed on),
 * checking that each comes back and is expanded by less than 1 KiB. */
static void
compress_noise (CgGzipCompressor *compressor,
                guint             count,
                guint32           first_seed)
{
  for (guint i = 0; i < count; i++)
    {
      g_autoptr(GBytes) noise = random_bytes (64 * 1024, first_seed + i);

      g_assert_cmpuint (compress_and_check (compressor, noise), <, 64 * 1024 + 1024);
    }
}

/* Level 1 codes most records with codes learned from the first long
 * records like pages; records they fit badly (noise, as an image or a
 * compressed payload is) are coded for themselves, and are not learned
 * from. */
static void
test_gzip_member_learned_codes (void)
{
  g_autoptr(CgGzipCompressor) compressor = cg_gzip_compressor_new (1);
  gsize length, fresh_length;
  guint differing;

  if (g_getenv ("CARTOGRAPH_SHARED_DIR") == NULL)
    {
      g_test_skip ("CARTOGRAPH_SHARED_DIR is not set: the SWDE pages are not found");
      return;
    }

  /* Noise first, as a crawl's first long records may be images. */
  compress_noise (compressor, 4, 1);

  /* Learned from pages of one site, the codes fit its other pages nearly
   * as well as each page's own. */
  compress_site_pages (compressor, "book-booksamillion", 40, &length, &fresh_length, &differing);
  g_assert_cmpuint (length, <=, fresh_length * 103 / 100);
#ifdef HAVE_ISAL
  /* All but the 8 learned from. */
  g_assert_cmpuint (differing, >=, 32);
#endif

  /* Noise after pages is coded for itself: the pages' codes would make
   * it a third longer. */
  compress_noise (compressor, 40, 100);

  /* Pages of another site after it: still close to their own codes. */
  compress_site_pages (compressor, "book-christianbook", 40, &length, &fresh_length, &differing);
  g_assert_cmpuint (length, <=, fresh_length * 103 / 100);
#ifdef HAVE_ISAL
  /* The noise, badly fit by the first site's codes, made the compressor
   * learn again: from this site's first 8 pages (coded for themselves,
   * else all 40 would differ), whose codes most of the others use. */
  g_assert_cmpuint (differing, <=, 32);
  g_assert_cmpuint (differing, >=, 28);
#endif
}

static void
test_gzip_member_compressor_named (void)
{
  g_autoptr(CgGzipCompressor) fastest = cg_gzip_compressor_new (1);
  g_autoptr(CgGzipCompressor) stored = cg_gzip_compressor_new (0);
  g_autoptr(CgGzipCompressor) smallest = cg_gzip_compressor_new (12);

#ifdef HAVE_ISAL
  g_assert_cmpstr (cg_gzip_compressor_describe (fastest), ==,
                   "ISA-L igzip level 1 (records under 4096 bytes: fixed codes; "
                   "later records: level 0 with codes learned from the first 8)");
#else
  g_assert_cmpstr (cg_gzip_compressor_describe (fastest), ==, "libdeflate level 1");
#endif
  g_assert_cmpstr (cg_gzip_compressor_describe (stored), ==, "libdeflate level 0");
  g_assert_cmpstr (cg_gzip_compressor_describe (smallest), ==, "libdeflate level 12");
}

/* ------------------------------------------------------------------ */
/* Round trip                                                          */

static void
check_warcinfo (CgWarcRecord *record, const char *file_name)
{
  g_autofree char *software = g_strdup_printf ("software: Cartograph %s\r\n", PACKAGE_VERSION);
  g_autofree char *host = g_strdup_printf ("hostname: %s\r\n", g_get_host_name ());
  GBytes *block = cg_warc_record_get_block (record);
  g_autofree char *text = g_strndup (g_bytes_get_data (block, NULL), g_bytes_get_size (block));

  g_assert_cmpint (cg_warc_record_get_record_type (record), ==, CG_WARC_RECORD_WARCINFO);
  g_assert_cmpstr (cg_warc_record_get_header (record, "WARC-Filename"), ==, file_name);
  g_assert_cmpstr (cg_warc_record_get_header (record, "Content-Type"), ==, "application/warc-fields");
  g_assert_nonnull (strstr (text, software));
  g_assert_nonnull (strstr (text, "format: WARC File Format 1.1\r\n"));
  g_assert_nonnull (strstr (text, "conformsTo: " CG_WARC_CONFORMS_TO "\r\n"));
  g_assert_nonnull (strstr (text, host));
  {
    g_autoptr(CgGzipCompressor) compressor = cg_gzip_compressor_new (CG_WARC_WRITER_DEFAULT_COMPRESSION_LEVEL);
    g_autofree char *compression = g_strdup_printf ("compression: gzip, one member per record, %s\r\n",
                                                    cg_gzip_compressor_describe (compressor));

    g_assert_nonnull (strstr (text, compression));
  }
}

static void
test_round_trip (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CgWarcWriter) writer = new_writer (f->dir, "crawl");
  g_autoptr(GBytes) page = html_page (1);
  g_autoptr(GBytes) page_gz = gzip_bytes (page);
  g_autoptr(Sample) html = sample_new ("http://127.0.0.1:8080/index.html", 200, "OK",
                                       "text/html; charset=utf-8", NULL, page);
  g_autoptr(Sample) gz = sample_new ("http://127.0.0.1:8080/compressed", 200, "OK",
                                     "text/html", "Content-Encoding: gzip\r\n", page_gz);
  g_autoptr(GBytes) image = random_bytes (3000, 7);
  g_autoptr(CgWarcRecordInfo) req1 = NULL, resp1 = NULL, req2 = NULL, resp2 = NULL;
  g_autoptr(CgWarcRecordInfo) req3 = NULL, revisit = NULL, meta = NULL, resource = NULL;
  g_autoptr(CgWarcRecordInfo) cut = NULL;
  g_autoptr(GDateTime) when = g_date_time_new_utc (2026, 3, 1, 12, 30, 45.75);
  g_autoptr(GPtrArray) files = NULL;
  g_autoptr(GPtrArray) records = NULL;
  g_autoptr(GBytes) short_payload = g_bytes_new_static ("<html>cut", 9);
  g_autoptr(Sample) truncated = sample_new ("http://127.0.0.1:8080/big", 200, "OK",
                                            "text/html", NULL, short_payload);
  g_autofree char *path = NULL;
  g_autofree char *expected_digest = NULL;
  const char *outlinks[] = { "http://127.0.0.1:8080/item/1", "http://127.0.0.1:8080/item/2 L a/@href", NULL };
  const char *fields[] = { "page-class", "product", "model-version", "3", NULL };
  CgWarcExchange exchange;
  CgWarcRecord *r;
  GBytes *block;
  g_autoptr(CgWarcHttpMessage) http = NULL;

  g_assert_true (cg_warc_writer_set_crawl_config (writer, "seed: http://127.0.0.1:8080/\n"
                                                  "max-pages: 200\r\n\n", &error));
  g_assert_no_error (error);
  g_assert_true (cg_warc_writer_set_operator (writer, "Test Archivist <a@example.org>", &error));
  cg_warc_writer_set_robots_policy (writer, CG_WARC_ROBOTS_IGNORE);

  exchange = exchange_for (html, "127.0.0.1");
  exchange.date = when;
  g_assert_true (cg_warc_writer_write_exchange (writer, &exchange, &req1, &resp1, &error));
  g_assert_no_error (error);

  exchange = exchange_for (gz, "::1");
  g_assert_true (cg_warc_writer_write_exchange (writer, &exchange, &req2, &resp2, &error));
  g_assert_no_error (error);

  /* The same page again: a revisit of the first response. */
  exchange = exchange_for (html, "127.0.0.1");
  exchange.revisit_payload_digest = resp1->payload_digest;
  exchange.revisit_target_uri = html->uri;
  exchange.revisit_date = resp1->date;
  exchange.revisit_record_id = resp1->record_id;
  g_assert_true (cg_warc_writer_write_exchange (writer, &exchange, &req3, &revisit, &error));
  g_assert_no_error (error);

  meta = cg_warc_writer_write_metadata (writer, html->uri, NULL, resp1->record_id,
                                        outlinks, fields, &error);
  g_assert_no_error (error);
  resource = cg_warc_writer_write_resource (writer, "urn:cartograph:screenshot:index", NULL,
                                            resp1->record_id, "image/png",
                                            g_bytes_get_data (image, NULL),
                                            g_bytes_get_size (image), &error);
  g_assert_no_error (error);
  cut = cg_warc_writer_write_response (writer, truncated->uri, NULL, "127.0.0.1", NULL,
                                       (const guint8 *) truncated->response->str,
                                       truncated->response->len,
                                       g_bytes_get_data (short_payload, NULL), 9,
                                       CG_WARC_TRUNCATED_LENGTH, &error);
  g_assert_no_error (error);

  /* What the writer says of the records. */
  g_assert_cmpstr (resp1->file_name, ==, cg_warc_writer_get_current_file_name (writer));
  g_assert_cmpstr (resp1->date, ==, "2026-03-01T12:30:45Z");
  g_assert_true (g_regex_match_simple ("^<urn:uuid:[0-9a-f-]{36}>$", resp1->record_id, 0, 0));
  expected_digest = cg_warc_digest_compute (CG_WARC_DIGEST_SHA1, g_bytes_get_data (page, NULL),
                                            g_bytes_get_size (page));
  g_assert_cmpstr (resp1->payload_digest, ==, expected_digest);
  g_assert_cmpstr (revisit->payload_digest, ==, expected_digest);
  g_assert_null (meta->payload_digest);
  g_assert_cmpuint (req1->offset + req1->length, ==, resp1->offset);
  g_assert_cmpuint (resp1->offset + resp1->length, ==, req2->offset);

  g_assert_true (cg_warc_writer_close (writer, &error));
  g_assert_no_error (error);
  g_assert_null (cg_warc_writer_get_current_file_name (writer));

  files = list_warc_files (f->dir);
  g_assert_cmpuint (files->len, ==, 1);
  g_assert_true (g_regex_match_simple ("^crawl-[0-9]{14}-00000\\.warc\\.gz$",
                                       g_ptr_array_index (files, 0), 0, 0));
  path = g_build_filename (f->dir, g_ptr_array_index (files, 0), NULL);
  records = read_all (path);
  g_assert_cmpuint (records->len, ==, 10);

  /* warcinfo */
  r = g_ptr_array_index (records, 0);
  check_warcinfo (r, g_ptr_array_index (files, 0));
  block = cg_warc_record_get_block (r);
  g_assert_nonnull (g_strstr_len (g_bytes_get_data (block, NULL), g_bytes_get_size (block),
                                  "robots: ignore\r\n"));
  g_assert_nonnull (g_strstr_len (g_bytes_get_data (block, NULL), g_bytes_get_size (block),
                                  "operator: Test Archivist <a@example.org>\r\n"));
  g_assert_nonnull (g_strstr_len (g_bytes_get_data (block, NULL), g_bytes_get_size (block),
                                  "seed: http://127.0.0.1:8080/\r\nmax-pages: 200\r\n"));
  g_assert_cmpstr (cg_warc_record_get_version (r), ==, "WARC/1.1");

  /* request and response of the first exchange, linked both ways */
  r = g_ptr_array_index (records, 1);
  g_assert_cmpint (cg_warc_record_get_record_type (r), ==, CG_WARC_RECORD_REQUEST);
  g_assert_cmpstr (cg_warc_record_get_record_id (r), ==, req1->record_id);
  g_assert_cmpstr (cg_warc_record_get_header (r, "WARC-Concurrent-To"), ==, resp1->record_id);
  g_assert_cmpstr (cg_warc_record_get_header (r, "Content-Type"), ==, "application/http;msgtype=request");
  g_assert_cmpstr (cg_warc_record_get_header (r, "WARC-Warcinfo-ID"), ==,
                   cg_warc_record_get_record_id (g_ptr_array_index (records, 0)));
  g_assert_cmpstr (cg_warc_record_get_target_uri (r), ==, html->uri);
  g_assert_cmpuint (cg_warc_record_get_offset (r), ==, req1->offset);
  g_assert_cmpuint (cg_warc_record_get_length (r), ==, req1->length);
  assert_bytes_equal (cg_warc_record_get_block (r), html->request->str, html->request->len);
  http = cg_warc_record_parse_http (r, &error);
  g_assert_no_error (error);
  g_assert_true (http->is_request);
  g_assert_cmpstr (http->method, ==, "GET");
  g_assert_cmpstr (http->request_target, ==, "/index.html");
  g_assert_cmpuint (g_bytes_get_size (http->payload), ==, 0);
  g_clear_pointer (&http, cg_warc_http_message_free);

  r = g_ptr_array_index (records, 2);
  g_assert_cmpint (cg_warc_record_get_record_type (r), ==, CG_WARC_RECORD_RESPONSE);
  g_assert_cmpstr (cg_warc_record_get_record_id (r), ==, resp1->record_id);
  g_assert_cmpstr (cg_warc_record_get_header (r, "WARC-Concurrent-To"), ==, req1->record_id);
  g_assert_cmpstr (cg_warc_record_get_header (r, "WARC-IP-Address"), ==, "127.0.0.1");
  g_assert_cmpstr (cg_warc_record_get_date_string (r), ==, "2026-03-01T12:30:45Z");
  g_assert_cmpint (g_date_time_get_hour (cg_warc_record_get_date (r)), ==, 12);
  g_assert_cmpstr (cg_warc_record_get_header (r, "WARC-Payload-Digest"), ==, expected_digest);
  g_assert_cmpstr (cg_warc_record_get_header (r, "WARC-Block-Digest"), ==, resp1->block_digest);
  g_assert_null (cg_warc_record_get_header (r, "WARC-Truncated"));
  http = cg_warc_record_parse_http (r, &error);
  g_assert_no_error (error);
  g_assert_false (http->is_request);
  g_assert_cmpuint (http->status, ==, 200);
  g_assert_cmpstr (soup_message_headers_get_content_type (http->headers, NULL), ==, "text/html");
  g_assert_cmpuint (http->header_length, ==, html->response->len);
  g_assert_true (g_bytes_equal (http->payload, page));
  g_assert_false (http->transfer_chunked);
  g_clear_pointer (&http, cg_warc_http_message_free);

  /* the gzip-encoded payload is stored as received */
  r = g_ptr_array_index (records, 4);
  g_assert_cmpstr (cg_warc_record_get_header (r, "WARC-IP-Address"), ==, "::1");
  http = cg_warc_record_parse_http (r, &error);
  g_assert_no_error (error);
  g_assert_true (g_bytes_equal (http->payload, page_gz));
  g_assert_cmpstr (soup_message_headers_get_one (http->headers, "Content-Encoding"), ==, "gzip");
  g_clear_pointer (&http, cg_warc_http_message_free);

  /* revisit: headers only, pointing at the first response */
  r = g_ptr_array_index (records, 6);
  g_assert_cmpint (cg_warc_record_get_record_type (r), ==, CG_WARC_RECORD_REVISIT);
  g_assert_cmpstr (cg_warc_record_get_header (r, "WARC-Profile"), ==,
                   CG_WARC_REVISIT_PROFILE_IDENTICAL_PAYLOAD);
  g_assert_cmpstr (cg_warc_record_get_header (r, "WARC-Refers-To-Target-URI"), ==, html->uri);
  g_assert_cmpstr (cg_warc_record_get_header (r, "WARC-Refers-To-Date"), ==, resp1->date);
  g_assert_cmpstr (cg_warc_record_get_header (r, "WARC-Refers-To"), ==, resp1->record_id);
  g_assert_cmpstr (cg_warc_record_get_header (r, "WARC-Payload-Digest"), ==, expected_digest);
  g_assert_cmpstr (cg_warc_record_get_header (r, "WARC-Concurrent-To"), ==, req3->record_id);
  assert_bytes_equal (cg_warc_record_get_block (r), html->response->str, html->response->len);
  http = cg_warc_record_parse_http (r, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (http->status, ==, 200);
  g_clear_pointer (&http, cg_warc_http_message_free);

  /* metadata */
  r = g_ptr_array_index (records, 7);
  g_assert_cmpint (cg_warc_record_get_record_type (r), ==, CG_WARC_RECORD_METADATA);
  g_assert_cmpstr (cg_warc_record_get_header (r, "Content-Type"), ==, "application/warc-fields");
  g_assert_cmpstr (cg_warc_record_get_header (r, "WARC-Concurrent-To"), ==, resp1->record_id);
  g_assert_null (cg_warc_record_get_header (r, "WARC-Payload-Digest"));
  {
    const char *expected = "outlink: http://127.0.0.1:8080/item/1\r\n"
                           "outlink: http://127.0.0.1:8080/item/2 L a/@href\r\n"
                           "page-class: product\r\n"
                           "model-version: 3\r\n";

    assert_bytes_equal (cg_warc_record_get_block (r), expected, strlen (expected));
  }

  /* resource */
  r = g_ptr_array_index (records, 8);
  g_assert_cmpint (cg_warc_record_get_record_type (r), ==, CG_WARC_RECORD_RESOURCE);
  g_assert_cmpstr (cg_warc_record_get_header (r, "Content-Type"), ==, "image/png");
  g_assert_true (g_bytes_equal (cg_warc_record_get_block (r), image));

  /* truncated response */
  r = g_ptr_array_index (records, 9);
  g_assert_cmpstr (cg_warc_record_get_header (r, "WARC-Truncated"), ==, "length");
  g_assert_cmpstr (cg_warc_record_get_record_id (r), ==, cut->record_id);

  /* Random access: every record can be read at its offset. */
  {
    g_autoptr(CgWarcReader) reader = cg_warc_reader_new (path, &error);
    CgWarcRecordInfo *infos[] = { req1, resp1, req2, resp2, req3, revisit, meta, resource, cut };

    g_assert_no_error (error);
    cg_warc_reader_set_verify_digests (reader, TRUE);
    for (gint i = G_N_ELEMENTS (infos) - 1; i >= 0; i--)
      {
        g_autoptr(CgWarcRecord) at = cg_warc_reader_read_at (reader, infos[i]->offset, &error);

        g_assert_no_error (error);
        g_assert_cmpstr (cg_warc_record_get_record_id (at), ==, infos[i]->record_id);
        g_assert_cmpuint (cg_warc_record_get_length (at), ==, infos[i]->length);
      }
  }
}

static void
test_sha256 (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CgWarcWriter) writer = new_writer (f->dir, "strong");
  g_autoptr(GBytes) page = html_page (2);
  g_autoptr(Sample) html = sample_new ("http://127.0.0.1:8080/a", 200, "OK", "text/html", NULL, page);
  g_autoptr(CgWarcRecordInfo) response = NULL;
  g_autoptr(GPtrArray) files = NULL;
  g_autoptr(GPtrArray) records = NULL;
  g_autofree char *path = NULL;
  g_autofree char *expected = NULL;
  CgWarcExchange exchange = exchange_for (html, NULL);

  cg_warc_writer_set_digest_algorithm (writer, CG_WARC_DIGEST_SHA256);
  g_assert_true (cg_warc_writer_write_exchange (writer, &exchange, NULL, &response, &error));
  g_assert_no_error (error);
  g_assert_true (cg_warc_writer_close (writer, &error));

  expected = cg_warc_digest_compute (CG_WARC_DIGEST_SHA256, g_bytes_get_data (page, NULL),
                                     g_bytes_get_size (page));
  g_assert_cmpstr (response->payload_digest, ==, expected);
  g_assert_true (g_str_has_prefix (response->block_digest, "sha256:"));
  g_assert_cmpuint (strlen (response->block_digest), ==, strlen ("sha256:") + 56);

  files = list_warc_files (f->dir);
  path = g_build_filename (f->dir, g_ptr_array_index (files, 0), NULL);
  records = read_all (path);
  g_assert_cmpuint (records->len, ==, 3);
  g_assert_null (cg_warc_record_get_header (g_ptr_array_index (records, 2), "WARC-IP-Address"));
}

/* A payload digest the caller has already computed is written as given
 * when it is of the writer's algorithm (the writer trusts it: here it is
 * that of another payload, to tell it from one the writer computed), and
 * is ignored when it is of another algorithm. */
static void
test_given_payload_digest (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CgWarcWriter) writer = new_writer (f->dir, "given");
  g_autoptr(GBytes) page = html_page (3);
  g_autoptr(GBytes) other = html_page (4);
  g_autoptr(Sample) html = sample_new ("http://127.0.0.1:8080/b", 200, "OK", "text/html", NULL, page);
  g_autoptr(CgWarcRecordInfo) sha1_given = NULL;
  g_autoptr(CgWarcRecordInfo) sha256_given = NULL;
  g_autoptr(GPtrArray) files = NULL;
  g_autofree char *path = NULL;
  g_autofree char *other_sha1 = cg_warc_digest_compute (CG_WARC_DIGEST_SHA1, g_bytes_get_data (other, NULL),
                                                        g_bytes_get_size (other));
  g_autofree char *other_sha256 = cg_warc_digest_compute (CG_WARC_DIGEST_SHA256, g_bytes_get_data (other, NULL),
                                                          g_bytes_get_size (other));
  g_autofree char *page_sha1 = cg_warc_digest_compute (CG_WARC_DIGEST_SHA1, g_bytes_get_data (page, NULL),
                                                       g_bytes_get_size (page));
  CgWarcExchange exchange = exchange_for (html, NULL);

  exchange.payload_digest = other_sha1;
  g_assert_true (cg_warc_writer_write_exchange (writer, &exchange, NULL, &sha1_given, &error));
  g_assert_no_error (error);
  exchange.payload_digest = other_sha256;
  g_assert_true (cg_warc_writer_write_exchange (writer, &exchange, NULL, &sha256_given, &error));
  g_assert_no_error (error);
  g_assert_true (cg_warc_writer_close (writer, &error));

  g_assert_cmpstr (sha1_given->payload_digest, ==, other_sha1);
  g_assert_cmpstr (sha256_given->payload_digest, ==, page_sha1);

  /* The file is sound, but a reader that checks digests sees the one
   * given for another payload. */
  files = list_warc_files (f->dir);
  path = g_build_filename (f->dir, g_ptr_array_index (files, 0), NULL);
  g_assert_no_error (read_all_error (path, FALSE));
  error = read_all_error (path, TRUE);
  g_assert_error (error, CG_WARC_ERROR, CG_WARC_ERROR_DIGEST_MISMATCH);
  g_assert_nonnull (strstr (error->message, "WARC-Payload-Digest"));
  g_assert_nonnull (strstr (error->message, other_sha1 + strlen ("sha1:")));
}

/* Writes the exchange of http://127.0.0.1:8080/@folder/@n, a body of
 * @size random bytes. */
static void
write_random_exchange (CgWarcWriter      *writer,
                       const char        *folder,
                       guint              n,
                       gsize              size,
                       CgWarcRecordInfo **request,
                       CgWarcRecordInfo **response)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *uri = g_strdup_printf ("http://127.0.0.1:8080/%s/%u", folder, n);
  g_autoptr(GBytes) body = random_bytes (size, n);
  g_autoptr(Sample) sample = sample_new (uri, 200, "OK", "application/octet-stream", NULL, body);
  CgWarcExchange exchange = exchange_for (sample, "127.0.0.1");

  g_assert_true (cg_warc_writer_write_exchange (writer, &exchange, request, response, &error));
  g_assert_no_error (error);
}

/* A file past the steps in which the writer starts writing out (8 MiB):
 * every record reads back whole, digests verified, and the file is as
 * long as the records written. */
static void
test_large_file (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CgWarcWriter) writer = new_writer (f->dir, "large");
  g_autoptr(GPtrArray) files = NULL;
  g_autoptr(GPtrArray) records = NULL;
  g_autofree char *path = NULL;
  guint64 end = 0;
  GStatBuf st;

  for (guint i = 0; i < 24; i++)
    {
      g_autoptr(CgWarcRecordInfo) request = NULL;
      g_autoptr(CgWarcRecordInfo) response = NULL;

      write_random_exchange (writer, "big", i, 1024 * 1024, &request, &response);
      end = response->offset + response->length;
    }
  g_assert_true (cg_warc_writer_close (writer, &error));
  g_assert_no_error (error);

  files = list_warc_files (f->dir);
  g_assert_cmpuint (files->len, ==, 1);
  path = g_build_filename (f->dir, g_ptr_array_index (files, 0), NULL);
  g_assert_cmpint (g_stat (path, &st), ==, 0);
  g_assert_cmpuint ((guint64) st.st_size, ==, end);
  g_assert_cmpuint (end, >, 3 * 8 * 1024 * 1024);
  records = read_all (path);
  /* warcinfo, then a request and a response for each. */
  g_assert_cmpuint (records->len, ==, 1 + 2 * 24);
}

/* ------------------------------------------------------------------ */
/* Held records                                                        */

static guint64
file_size_of (const char *path)
{
  GStatBuf st;

  g_assert_cmpint (g_stat (path, &st), ==, 0);
  return (guint64) st.st_size;
}

/* A writer that holds records writes nothing until it flushes, then all
 * of them with their offsets as returned; past a mebibyte held it writes
 * them out by itself, whole; turned off, it writes each record at once. */
static void
test_hold_records (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CgWarcWriter) writer = new_writer (f->dir, "held");
  g_autoptr(GPtrArray) infos = g_ptr_array_new_with_free_func ((GDestroyNotify) cg_warc_record_info_free);
  g_autoptr(GPtrArray) records = NULL;
  g_autofree char *path = NULL;
  guint64 end = 0;

  g_assert_true (cg_warc_writer_set_hold_records (writer, TRUE, &error));
  for (guint i = 0; i < 10; i++)
    {
      CgWarcRecordInfo *request = NULL;
      CgWarcRecordInfo *response = NULL;

      write_random_exchange (writer, "small", i, 2000, &request, &response);
      g_assert_cmpuint (request->offset, ==, i == 0 ? request->offset : end);
      g_assert_cmpuint (response->offset, ==, request->offset + request->length);
      end = response->offset + response->length;
      g_ptr_array_add (infos, request);
      g_ptr_array_add (infos, response);
    }
  path = g_build_filename (f->dir, cg_warc_writer_get_current_file_name (writer), NULL);
  /* Not even the warcinfo is in the file yet. */
  g_assert_cmpuint (file_size_of (path), ==, 0);
  g_assert_true (cg_warc_writer_flush (writer, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (file_size_of (path), ==, end);
  records = read_all (path);
  g_assert_cmpuint (records->len, ==, 1 + infos->len);
  for (guint i = 0; i < infos->len; i++)
    {
      CgWarcRecordInfo *info = g_ptr_array_index (infos, i);
      CgWarcRecord *record = g_ptr_array_index (records, i + 1);

      g_assert_cmpuint (cg_warc_record_get_offset (record), ==, info->offset);
      g_assert_cmpstr (cg_warc_record_get_record_id (record), ==, info->record_id);
    }

  /* Incompressible payloads of 400 KB: the third exchange passes a
   * mebibyte held, and what is in the file then ends at a record's end. */
  for (guint i = 0; i < 3; i++)
    {
      g_autoptr(CgWarcRecordInfo) request = NULL;
      g_autoptr(CgWarcRecordInfo) response = NULL;
      guint64 before = file_size_of (path);

      write_random_exchange (writer, "large", i, 400 * 1000, &request, &response);
      if (i < 2)
        g_assert_cmpuint (file_size_of (path), ==, before);
      else
        g_assert_cmpuint (file_size_of (path), ==, response->offset + response->length);
      end = response->offset + response->length;
    }

  /* Turned off: flushed first, then every record goes to the file as it
   * is written. */
  g_assert_true (cg_warc_writer_set_hold_records (writer, FALSE, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (file_size_of (path), ==, end);
  {
    g_autoptr(CgWarcRecordInfo) request = NULL;
    g_autoptr(CgWarcRecordInfo) response = NULL;

    write_random_exchange (writer, "unheld", 0, 2000, &request, &response);
    g_assert_cmpuint (file_size_of (path), ==, response->offset + response->length);
  }
  g_assert_true (cg_warc_writer_close (writer, &error));
  g_assert_no_error (error);
  g_clear_pointer (&records, g_ptr_array_unref);
  records = read_all (path);
  g_assert_cmpuint (records->len, ==, 1 + infos->len + 2 * 3 + 2);
}

/* Held records that cannot be written (the file may grow no further):
 * the flush fails naming the file, the part written is cut off so that
 * the file ends with the last record flushed before, and the writer goes
 * on after it. The file closes without its index, which named records
 * the file lacks; recovering writes it from the file. */
static void
test_hold_records_write_fails (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CgWarcWriter) writer = new_writer (f->dir, "refused");
  g_autoptr(CgWarcRecordInfo) kept = NULL;
  g_autoptr(CgWarcRecordInfo) later = NULL;
  g_autoptr(GPtrArray) records = NULL;
  g_autofree char *path = NULL;
  g_autofree char *index_path = NULL;
  g_autofree char *index_text = NULL;
  g_auto(GStrv) index_lines = NULL;
  guint64 flushed;

  g_assert_true (cg_warc_writer_set_hold_records (writer, TRUE, &error));
  write_random_exchange (writer, "kept", 0, 2000, NULL, &kept);
  g_assert_true (cg_warc_writer_flush (writer, &error));
  path = g_build_filename (f->dir, cg_warc_writer_get_current_file_name (writer), NULL);
  flushed = file_size_of (path);
  g_assert_cmpuint (flushed, ==, kept->offset + kept->length);

  /* Two exchanges of 20 KB held, and room for only 10 KB more: the first
   * write(2) is cut short, the next fails. */
  for (guint i = 0; i < 2; i++)
    write_random_exchange (writer, "lost", i, 20 * 1000, NULL, NULL);
  cg_test_limit_file_size (flushed + 10 * 1000);
  g_assert_false (cg_warc_writer_flush (writer, &error));
  cg_test_unlimit_file_size ();
  g_assert_nonnull (error);
  g_assert_true (error->domain == G_IO_ERROR);
  g_assert_nonnull (strstr (error->message, path));
  g_clear_error (&error);
  g_assert_cmpuint (file_size_of (path), ==, flushed);

  /* The next record goes where the lost ones were. */
  later = cg_warc_writer_write_resource (writer, "urn:test:later", NULL, NULL, "text/plain",
                                         (const guint8 *) "later", 5, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (later->offset, ==, flushed);
  g_assert_true (cg_warc_writer_close (writer, &error));
  g_assert_no_error (error);
  records = read_all (path);
  g_assert_cmpuint (records->len, ==, 4);
  g_assert_cmpstr (cg_warc_record_get_record_id (g_ptr_array_index (records, 3)), ==, later->record_id);

  index_path = cg_cdxj_path_for_warc (path);
  g_assert_false (g_file_test (index_path, G_FILE_TEST_EXISTS));
  g_assert_true (cg_warc_writer_recover (f->dir, "refused", NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (index_path, &index_text, NULL, &error));
  g_assert_no_error (error);
  /* The response and the resource, each a line. */
  index_lines = g_strsplit (g_strchomp (index_text), "\n", -1);
  g_assert_cmpuint (g_strv_length (index_lines), ==, 2);
}

/* The first write to a new file fails: without its warcinfo the file is
 * of no use and is removed; the next record starts a new file, warcinfo
 * first. */
static void
test_hold_records_first_write_fails (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CgWarcWriter) writer = new_writer (f->dir, "first");
  g_autoptr(CgWarcRecordInfo) lost = NULL;
  g_autoptr(CgWarcRecordInfo) kept = NULL;
  g_autoptr(GPtrArray) files = NULL;
  g_autoptr(GPtrArray) records = NULL;
  g_autofree char *lost_path = NULL;
  g_autofree char *path = NULL;

  g_assert_true (cg_warc_writer_set_hold_records (writer, TRUE, &error));
  write_random_exchange (writer, "lost", 0, 2000, NULL, &lost);
  lost_path = g_build_filename (f->dir, lost->file_name, NULL);
  cg_test_limit_file_size (100);
  g_assert_false (cg_warc_writer_flush (writer, &error));
  cg_test_unlimit_file_size ();
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, lost->file_name));
  g_clear_error (&error);
  g_assert_false (g_file_test (lost_path, G_FILE_TEST_EXISTS));
  g_assert_null (cg_warc_writer_get_current_file_name (writer));

  write_random_exchange (writer, "kept", 0, 2000, NULL, &kept);
  g_assert_cmpstr (kept->file_name, !=, lost->file_name);
  g_assert_true (cg_warc_writer_close (writer, &error));
  g_assert_no_error (error);
  files = list_warc_files (f->dir);
  g_assert_cmpuint (files->len, ==, 1);
  path = g_build_filename (f->dir, kept->file_name, NULL);
  records = read_all (path);
  g_assert_cmpuint (records->len, ==, 3);
  check_warcinfo (g_ptr_array_index (records, 0), kept->file_name);
}

/* ------------------------------------------------------------------ */
/* Rollover                                                            */

static void
test_rollover (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CgWarcWriter) writer = new_writer (f->dir, "roll");
  g_autoptr(GPtrArray) files = NULL;
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  const guint64 max_size = 16 * 1024;
  guint responses = 0;

  cg_warc_writer_set_max_file_size (writer, max_size);
  for (guint i = 0; i < 20; i++)
    {
      g_autoptr(CgWarcRecordInfo) request = NULL;
      g_autoptr(CgWarcRecordInfo) response = NULL;

      write_random_exchange (writer, "file", i, 3000, &request, &response);
      /* An exchange is never split across files. */
      g_assert_cmpstr (request->file_name, ==, response->file_name);
      g_hash_table_add (seen, g_strdup (response->file_name));
      /* Nor is its metadata, every other time, even when the exchange
       * filled the file. */
      if (i % 2 == 0)
        {
          const char *outlinks[] = { "http://127.0.0.1/next", NULL };
          g_autoptr(CgWarcRecordInfo) metadata = NULL;

          metadata = cg_warc_writer_write_metadata (writer, "http://127.0.0.1/file", NULL, response->record_id,
                                                    outlinks, NULL, &error);
          g_assert_no_error (error);
          g_assert_cmpstr (metadata->file_name, ==, response->file_name);
        }
    }
  g_assert_true (cg_warc_writer_close (writer, &error));

  files = list_warc_files (f->dir);
  g_assert_cmpuint (files->len, >=, 3);
  g_assert_cmpuint (files->len, ==, g_hash_table_size (seen));
  for (guint i = 0; i < files->len; i++)
    {
      const char *name = g_ptr_array_index (files, i);
      g_autofree char *path = g_build_filename (f->dir, name, NULL);
      g_autofree char *index_path = cg_cdxj_path_for_warc (path);
      g_autofree char *serial = g_strdup_printf ("-%05u.warc.gz", i);
      g_autoptr(GPtrArray) records = read_all (path);
      GStatBuf st;

      g_assert_true (g_str_has_suffix (name, serial));
      g_assert_true (g_hash_table_contains (seen, name));
      g_assert_true (g_file_test (index_path, G_FILE_TEST_IS_REGULAR));
      g_assert_cmpint (g_stat (path, &st), ==, 0);
      /* Every file but the last is closed once it reaches the size. */
      if (i + 1 < files->len)
        g_assert_cmpuint ((guint64) st.st_size, >=, max_size);
      check_warcinfo (g_ptr_array_index (records, 0), name);
      for (guint j = 1; j < records->len; j++)
        if (cg_warc_record_get_record_type (g_ptr_array_index (records, j)) == CG_WARC_RECORD_RESPONSE)
          responses++;
    }
  g_assert_cmpuint (responses, ==, 20);

  /* A new writer for the same prefix goes on with the next serial. */
  {
    g_autoptr(CgWarcWriter) again = new_writer (f->dir, "roll");
    g_autoptr(CgWarcRecordInfo) info = NULL;
    g_autofree char *serial = g_strdup_printf ("-%05u.warc.gz", files->len);

    info = cg_warc_writer_write_resource (again, "urn:test:x", NULL, NULL, "text/plain",
                                          (const guint8 *) "x", 1, &error);
    g_assert_no_error (error);
    g_assert_true (g_str_has_suffix (info->file_name, serial));
  }
}

/* ------------------------------------------------------------------ */
/* Repair                                                              */

/* Writes a file of a few exchanges; returns its path and the offset of
 * its last record. */
static char *
write_repair_sample (const char *dir, guint n, guint64 *out_last_offset, GPtrArray **out_infos)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CgWarcWriter) writer = new_writer (dir, "repair");
  g_autofree char *path = NULL;
  g_autoptr(GPtrArray) infos = g_ptr_array_new_with_free_func ((GDestroyNotify) cg_warc_record_info_free);

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *uri = g_strdup_printf ("http://127.0.0.1:8080/page/%u", i);
      g_autoptr(GBytes) page = html_page (i);
      g_autoptr(Sample) sample = sample_new (uri, 200, "OK", "text/html", NULL, page);
      CgWarcExchange exchange = exchange_for (sample, "127.0.0.1");
      CgWarcRecordInfo *request = NULL;
      CgWarcRecordInfo *response = NULL;

      g_assert_true (cg_warc_writer_write_exchange (writer, &exchange, &request, &response, &error));
      g_assert_no_error (error);
      g_ptr_array_add (infos, request);
      g_ptr_array_add (infos, response);
    }
  path = g_build_filename (dir, cg_warc_writer_get_current_file_name (writer), NULL);
  g_assert_true (cg_warc_writer_close (writer, &error));
  g_assert_no_error (error);

  *out_last_offset = ((CgWarcRecordInfo *) g_ptr_array_index (infos, infos->len - 1))->offset;
  if (out_infos != NULL)
    *out_infos = g_steal_pointer (&infos);
  return g_steal_pointer (&path);
}

static void
test_repair_every_cut (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  guint64 last_offset;
  g_autofree char *path = write_repair_sample (f->dir, 3, &last_offset, NULL);
  g_autoptr(GBytes) original = cg_test_read_file (path);
  const guint8 *bytes = g_bytes_get_data (original, NULL);
  gsize size = g_bytes_get_size (original);
  g_autofree char *cut_path = g_build_filename (f->dir, "cut.warc.gz", NULL);

  g_assert_cmpuint (last_offset, <, size);

  /* Every cut inside the last member, as a kill during its write(2)
   * leaves it, and the cut at its start. */
  for (gsize cut = last_offset; cut < size; cut++)
    {
      g_autoptr(GBytes) repaired = NULL;
      g_autoptr(GPtrArray) records = NULL;
      guint64 removed = G_MAXUINT64;

      cg_test_write_file (cut_path, bytes, cut);
      g_assert_true (cg_warc_writer_repair_file (cut_path, &removed, &error));
      g_assert_no_error (error);
      g_assert_cmpuint (removed, ==, cut - last_offset);

      repaired = cg_test_read_file (cut_path);
      g_assert_cmpmem (g_bytes_get_data (repaired, NULL), g_bytes_get_size (repaired),
                       bytes, last_offset);
      records = read_all (cut_path);
      /* warcinfo and six records, less the last response. */
      g_assert_cmpuint (records->len, ==, 6);
    }

  /* A complete file is left as it is. */
  {
    guint64 removed = G_MAXUINT64;
    g_autoptr(GBytes) after = NULL;

    g_assert_true (cg_warc_writer_repair_file (path, &removed, &error));
    g_assert_no_error (error);
    g_assert_cmpuint (removed, ==, 0);
    after = cg_test_read_file (path);
    g_assert_true (g_bytes_equal (after, original));
  }
}

static void
test_repair_cuts_in_first_record (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  guint64 last_offset;
  g_autofree char *path = write_repair_sample (f->dir, 1, &last_offset, NULL);
  g_autoptr(GBytes) original = cg_test_read_file (path);
  g_autofree char *cut_path = g_build_filename (f->dir, "cut.warc.gz", NULL);
  g_autoptr(CgWarcReader) reader = cg_warc_reader_new (path, &error);
  g_autoptr(CgWarcRecord) warcinfo = cg_warc_reader_next (reader, &error);
  guint64 first_length = cg_warc_record_get_length (warcinfo);

  g_assert_no_error (error);
  /* Cuts inside the warcinfo record leave an empty file, which reads as a
   * file of no records. */
  for (gsize cut = 1; cut < first_length; cut += 7)
    {
      g_autoptr(GPtrArray) records = NULL;
      guint64 removed = 0;

      cg_test_write_file (cut_path, g_bytes_get_data (original, NULL), cut);
      g_assert_true (cg_warc_writer_repair_file (cut_path, &removed, &error));
      g_assert_no_error (error);
      g_assert_cmpuint (removed, ==, cut);
      records = read_all (cut_path);
      g_assert_cmpuint (records->len, ==, 0);
    }
}

static void
test_repair_zero_tail (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  guint64 last_offset;
  g_autofree char *path = write_repair_sample (f->dir, 2, &last_offset, NULL);
  g_autoptr(GBytes) original = cg_test_read_file (path);
  gsize size = g_bytes_get_size (original);
  g_autofree guint8 *padded = g_malloc0 (size + 4096);
  g_autoptr(GBytes) after = NULL;
  guint64 removed = 0;

  memcpy (padded, g_bytes_get_data (original, NULL), size);
  cg_test_write_file (path, padded, size + 4096);
  g_assert_true (cg_warc_writer_repair_file (path, &removed, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (removed, ==, 4096);
  after = cg_test_read_file (path);
  g_assert_true (g_bytes_equal (after, original));
}

static void
test_repair_refuses_middle_damage (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  guint64 last_offset;
  g_autoptr(GPtrArray) infos = NULL;
  g_autofree char *path = write_repair_sample (f->dir, 3, &last_offset, &infos);
  g_autoptr(GBytes) original = cg_test_read_file (path);
  gsize size = g_bytes_get_size (original);
  g_autofree guint8 *damaged = g_memdup2 (g_bytes_get_data (original, NULL), size);
  CgWarcRecordInfo *second = g_ptr_array_index (infos, 1);
  g_autoptr(GBytes) after = NULL;
  guint64 removed = 0;

  /* Garbage over the middle of the second member: complete records follow. */
  memset (damaged + second->offset + second->length / 2, 0x55, 16);
  cg_test_write_file (path, damaged, size);
  g_assert_false (cg_warc_writer_repair_file (path, &removed, &error));
  g_assert_error (error, CG_WARC_ERROR, CG_WARC_ERROR_DAMAGED);
  g_assert_nonnull (strstr (error->message, path));
  after = cg_test_read_file (path);
  g_assert_cmpmem (g_bytes_get_data (after, NULL), g_bytes_get_size (after), damaged, size);
  g_clear_error (&error);

  /* A member cut short in the middle of the file, complete ones after it. */
  {
    g_autoptr(GByteArray) spliced = g_byte_array_new ();

    g_byte_array_append (spliced, g_bytes_get_data (original, NULL), second->offset + 10);
    g_byte_array_append (spliced, (const guint8 *) g_bytes_get_data (original, NULL) + second->offset + second->length,
                         size - second->offset - second->length);
    cg_test_write_file (path, spliced->data, spliced->len);
    g_assert_false (cg_warc_writer_repair_file (path, &removed, &error));
    g_assert_error (error, CG_WARC_ERROR, CG_WARC_ERROR_DAMAGED);
    after = cg_test_read_file (path);
    g_assert_cmpuint (g_bytes_get_size (after), ==, spliced->len);
  }
}

static void
test_recover_directory (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *crashed_dir = g_build_filename (f->dir, "crashed", NULL);
  g_autoptr(CgWarcWriter) writer = new_writer (f->dir, "live");
  g_autoptr(CgWarcRecordInfo) last = NULL;
  g_autofree char *live_path = NULL;
  g_autofree char *copy_path = NULL;
  g_autofree char *index_path = NULL;
  g_autoptr(GBytes) live = NULL;
  g_autoptr(GPtrArray) records = NULL;
  g_autofree char *index_text = NULL;
  g_auto(GStrv) index_lines = NULL;
  guint64 removed = 0;

  /* The file as a killed crawler leaves it: flushed, not closed, the last
   * member half written, no index. */
  for (guint i = 0; i < 4; i++)
    {
      g_autofree char *uri = g_strdup_printf ("http://127.0.0.1:8080/p%u", i);
      g_autoptr(GBytes) page = html_page (i);
      g_autoptr(Sample) sample = sample_new (uri, 200, "OK", "text/html", NULL, page);
      CgWarcExchange exchange = exchange_for (sample, "127.0.0.1");

      g_clear_pointer (&last, cg_warc_record_info_free);
      g_assert_true (cg_warc_writer_write_exchange (writer, &exchange, NULL, &last, &error));
      g_assert_no_error (error);
    }
  g_assert_true (cg_warc_writer_sync (writer, &error));
  live_path = g_build_filename (f->dir, last->file_name, NULL);
  live = cg_test_read_file (live_path);
  g_assert_cmpint (g_mkdir (crashed_dir, 0755), ==, 0);
  copy_path = g_build_filename (crashed_dir, last->file_name, NULL);
  cg_test_write_file (copy_path, g_bytes_get_data (live, NULL), last->offset + last->length / 3);

  g_assert_true (cg_warc_writer_recover (crashed_dir, "live", &removed, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (removed, ==, last->length / 3);
  records = read_all (copy_path);
  g_assert_cmpuint (records->len, ==, 1 + 4 * 2 - 1);

  index_path = cg_cdxj_path_for_warc (copy_path);
  g_assert_true (g_file_get_contents (index_path, &index_text, NULL, &error));
  /* Three responses survive. */
  index_lines = g_strsplit (g_strchomp (index_text), "\n", -1);
  g_assert_cmpuint (g_strv_length (index_lines), ==, 3);

  /* Recovering again changes nothing, and a new writer starts a new file. */
  g_assert_true (cg_warc_writer_recover (crashed_dir, "live", &removed, &error));
  g_assert_cmpuint (removed, ==, 0);
  {
    g_autoptr(CgWarcWriter) resumed = new_writer (crashed_dir, "live");
    g_autoptr(CgWarcRecordInfo) info = NULL;

    info = cg_warc_writer_write_resource (resumed, "urn:test:y", NULL, NULL, "text/plain",
                                          (const guint8 *) "y", 1, &error);
    g_assert_no_error (error);
    g_assert_true (g_str_has_suffix (info->file_name, "-00001.warc.gz"));
  }
}

/* ------------------------------------------------------------------ */
/* Reader errors                                                       */

static const char plain_record[] =
  "WARC/1.1\r\n"
  "WARC-Type: resource\r\n"
  "WARC-Record-ID: <urn:uuid:00000000-0000-4000-8000-000000000001>\r\n"
  "WARC-Date: 2026-01-01T00:00:00Z\r\n"
  "WARC-Target-URI: urn:test:one\r\n"
  "Content-Type: text/plain\r\n"
  "WARC-Block-Digest: sha1:VGMT4NSHA2AWVOR6EVYXQUGCNSONBWE5\r\n"
  "Content-Length: 3\r\n"
  "\r\n"
  "abc\r\n\r\n";

static void
assert_error_at (GError *error, int code, const char *path, const char *offset)
{
  g_autofree char *where = g_strdup_printf ("offset %s", offset);

  g_assert_error (error, CG_WARC_ERROR, code);
  g_assert_nonnull (strstr (error->message, path));
  g_assert_nonnull (strstr (error->message, where));
}

static void
test_reader_plain (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = g_build_filename (f->dir, "plain.warc", NULL);
  g_autofree char *two = g_strconcat (plain_record, plain_record, NULL);
  g_autoptr(GPtrArray) records = NULL;
  CgWarcRecord *second;

  cg_test_write_file (path, two, strlen (two));
  records = read_all (path);
  g_assert_cmpuint (records->len, ==, 2);
  second = g_ptr_array_index (records, 1);
  g_assert_cmpuint (cg_warc_record_get_offset (second), ==, strlen (plain_record));
  g_assert_cmpuint (cg_warc_record_get_length (second), ==, strlen (plain_record));
  assert_bytes_equal (cg_warc_record_get_block (second), "abc", 3);

  {
    g_autoptr(CgWarcReader) reader = cg_warc_reader_new (path, &error);
    g_autoptr(CgWarcRecord) at = cg_warc_reader_read_at (reader, strlen (plain_record), &error);

    g_assert_no_error (error);
    g_assert_false (cg_warc_reader_is_compressed (reader));
    g_assert_cmpstr (cg_warc_record_get_target_uri (at), ==, "urn:test:one");
  }
}

static void
test_repair_plain (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = g_build_filename (f->dir, "plain.warc", NULL);
  g_autofree char *two = g_strconcat (plain_record, plain_record, NULL);
  gsize first = strlen (plain_record);

  for (gsize cut = first + 1; cut < strlen (two); cut += 5)
    {
      g_autoptr(GBytes) after = NULL;
      guint64 removed = 0;

      cg_test_write_file (path, two, cut);
      g_assert_true (cg_warc_writer_repair_file (path, &removed, &error));
      g_assert_no_error (error);
      g_assert_cmpuint (removed, ==, cut - first);
      after = cg_test_read_file (path);
      g_assert_cmpmem (g_bytes_get_data (after, NULL), g_bytes_get_size (after), plain_record, first);
    }
}

static void
test_reader_continuation_lines (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = g_build_filename (f->dir, "folded.warc", NULL);
  const char *text =
    "WARC/1.0\r\n"
    "WARC-Type: metadata\r\n"
    "WARC-Record-ID: <urn:uuid:00000000-0000-4000-8000-000000000002>\r\n"
    "WARC-Date: 2026-01-01T00:00:00Z\r\n"
    "X-Folded: first part\r\n"
    "   second part\r\n"
    "\tthird\r\n"
    "Content-Length: 0\r\n"
    "\r\n"
    "\r\n\r\n";
  g_autoptr(GPtrArray) records = NULL;
  CgWarcRecord *record;

  cg_test_write_file (path, text, strlen (text));
  records = read_all (path);
  record = g_ptr_array_index (records, 0);
  g_assert_cmpstr (cg_warc_record_get_version (record), ==, "WARC/1.0");
  g_assert_cmpstr (cg_warc_record_get_header (record, "x-folded"), ==, "first part second part third");
  g_assert_cmpuint (cg_warc_record_get_n_headers (record), ==, 5);
}

/* A response record as another tool may write it: given HTTP header block
 * and payload, plain WARC. */
static char *
foreign_response (const char *http_head, const char *payload)
{
  g_autofree char *block = g_strconcat (http_head, payload, NULL);

  return g_strdup_printf ("WARC/1.1\r\n"
                          "WARC-Type: response\r\n"
                          "WARC-Record-ID: <urn:uuid:00000000-0000-4000-8000-000000000003>\r\n"
                          "WARC-Date: 2026-01-01T00:00:00Z\r\n"
                          "WARC-Target-URI: http://127.0.0.1/\r\n"
                          "Content-Type: application/http; msgtype=response\r\n"
                          "Content-Length: %" G_GSIZE_FORMAT "\r\n"
                          "\r\n"
                          "%s\r\n\r\n", strlen (block), block);
}

static CgWarcHttpMessage *
parse_foreign (const char *path, const char *http_head, const char *payload, GError **error)
{
  g_autofree char *text = foreign_response (http_head, payload);
  g_autoptr(GPtrArray) records = NULL;

  cg_test_write_file (path, text, strlen (text));
  records = read_all (path);
  g_assert_cmpuint (records->len, ==, 1);
  return cg_warc_record_parse_http (g_ptr_array_index (records, 0), error);
}

static void
test_reader_http_messages (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = g_build_filename (f->dir, "foreign.warc", NULL);
  CgWarcHttpMessage *http;

  /* HTTP/2 status line and a declared chunked transfer coding. */
  http = parse_foreign (path, "HTTP/2 301 Moved Permanently\r\nLocation: /b\r\n"
                              "Transfer-Encoding: chunked\r\n\r\n", "0\r\n\r\n", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (http->status, ==, 301);
  g_assert_cmpint (http->http_version, ==, SOUP_HTTP_2_0);
  g_assert_cmpstr (soup_message_headers_get_one (http->headers, "Location"), ==, "/b");
  g_assert_true (http->transfer_chunked);
  assert_bytes_equal (http->payload, "0\r\n\r\n", 5);
  cg_warc_http_message_free (http);

  /* Bare LF line ends. */
  http = parse_foreign (path, "HTTP/1.0 200 OK\nContent-Type: text/plain\n\n", "hi", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (http->status, ==, 200);
  g_assert_cmpint (http->http_version, ==, SOUP_HTTP_1_0);
  g_assert_false (http->transfer_chunked);
  assert_bytes_equal (http->payload, "hi", 2);
  cg_warc_http_message_free (http);

  /* No end to the header, and a start line that is not HTTP. */
  http = parse_foreign (path, "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n", "", &error);
  g_assert_null (http);
  g_assert_error (error, CG_WARC_ERROR, CG_WARC_ERROR_BAD_HTTP);
  g_assert_nonnull (strstr (error->message, path));
  g_assert_nonnull (strstr (error->message, "offset 0"));
  g_clear_error (&error);
  http = parse_foreign (path, "HTTP/x 2000\r\n\r\n", "", &error);
  g_assert_null (http);
  g_assert_error (error, CG_WARC_ERROR, CG_WARC_ERROR_BAD_HTTP);
}

static void
test_reader_bad_inputs (Fixture *f, gconstpointer data)
{
  g_autofree char *path = g_build_filename (f->dir, "bad.warc", NULL);
  GError *error;

  /* Neither gzip nor WARC. */
  cg_test_write_file (path, "hello world\n", 12);
  error = read_all_error (path, FALSE);
  assert_error_at (error, CG_WARC_ERROR_NOT_WARC, path, "0");
  g_error_free (error);

  /* Garbage after a record. */
  {
    g_autofree char *text = g_strconcat (plain_record, "garbage\r\n", plain_record, NULL);
    g_autofree char *at = g_strdup_printf ("%" G_GSIZE_FORMAT, strlen (plain_record));

    cg_test_write_file (path, text, strlen (text));
    error = read_all_error (path, FALSE);
    assert_error_at (error, CG_WARC_ERROR_BAD_HEADER, path, at);
    g_error_free (error);
  }

  /* Truncated inside the header, inside the block, before the end. */
  {
    const gsize cuts[] = { 30, strstr (plain_record, "abc") - plain_record + 1, strlen (plain_record) - 2 };

    for (guint i = 0; i < G_N_ELEMENTS (cuts); i++)
      {
        cg_test_write_file (path, plain_record, cuts[i]);
        error = read_all_error (path, FALSE);
        assert_error_at (error, CG_WARC_ERROR_TRUNCATED, path, "0");
        g_error_free (error);
      }
  }

  /* Bad Content-Length values. */
  {
    const char *values[] = { "abc", "-3", "+3", "", "99999999999999999999", "2", "4" };

    /* Each bad record is followed by a good one, so a Content-Length that
     * is too large runs into it rather than into the end of the file. */
    for (guint i = 0; i < G_N_ELEMENTS (values); i++)
      {
        g_autoptr(GRegex) regex = g_regex_new ("Content-Length: 3", 0, 0, NULL);
        g_autofree char *replacement = g_strdup_printf ("Content-Length: %s", values[i]);
        g_autofree char *bad_record = g_regex_replace_literal (regex, plain_record, -1, 0,
                                                               replacement, 0, NULL);
        g_autofree char *text = g_strconcat (bad_record, plain_record, NULL);

        cg_test_write_file (path, text, strlen (text));
        error = read_all_error (path, FALSE);
        assert_error_at (error, CG_WARC_ERROR_BAD_LENGTH, path, "0");
        g_error_free (error);
      }
  }

  /* A missing mandatory field, a bad version, a bad field line. */
  {
    const char *from[] = { "WARC-Record-ID: <urn:uuid:00000000-0000-4000-8000-000000000001>\r\n",
                           "WARC/1.1", "WARC-Type: resource" };
    const char *to[] = { "", "WARC/2.0", "WARC Type resource" };

    for (guint i = 0; i < G_N_ELEMENTS (from); i++)
      {
        g_autofree char *escaped = g_regex_escape_string (from[i], -1);
        g_autoptr(GRegex) regex = g_regex_new (escaped, 0, 0, NULL);
        g_autofree char *text = g_regex_replace_literal (regex, plain_record, -1, 0, to[i], 0, NULL);

        cg_test_write_file (path, text, strlen (text));
        error = read_all_error (path, FALSE);
        assert_error_at (error, CG_WARC_ERROR_BAD_HEADER, path, "0");
        g_error_free (error);
      }
  }

  /* An oversized header. */
  {
    g_autoptr(GString) text = g_string_new ("WARC/1.1\r\nX-Big: ");

    for (guint i = 0; i < CG_WARC_READER_MAX_HEADER_SIZE / 10 + 10; i++)
      g_string_append (text, "0123456789");
    g_string_append (text, "\r\n\r\n");
    cg_test_write_file (path, text->str, text->len);
    error = read_all_error (path, FALSE);
    assert_error_at (error, CG_WARC_ERROR_BAD_HEADER, path, "0");
    g_assert_nonnull (strstr (error->message, "larger"));
    g_error_free (error);
  }

  /* A block that does not match its digest: read without checking, it
   * passes; checked, it fails. */
  {
    g_autoptr(GRegex) regex = g_regex_new ("abc", 0, 0, NULL);
    g_autofree char *text = g_regex_replace_literal (regex, plain_record, -1, 0, "abd", 0, NULL);

    cg_test_write_file (path, text, strlen (text));
    error = read_all_error (path, FALSE);
    g_assert_no_error (error);
    error = read_all_error (path, TRUE);
    assert_error_at (error, CG_WARC_ERROR_DIGEST_MISMATCH, path, "0");
    g_assert_nonnull (strstr (error->message, "WARC-Block-Digest"));
    g_error_free (error);
  }

  /* An empty file holds no records; a missing one is an I/O error. */
  cg_test_write_file (path, "", 0);
  error = read_all_error (path, TRUE);
  g_assert_no_error (error);
  g_remove (path);
  error = read_all_error (path, TRUE);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_error_free (error);
}

static void
test_reader_bad_gzip (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  guint64 last_offset;
  g_autoptr(GPtrArray) infos = NULL;
  g_autofree char *path = write_repair_sample (f->dir, 2, &last_offset, &infos);
  g_autoptr(GBytes) original = cg_test_read_file (path);
  const guint8 *bytes = g_bytes_get_data (original, NULL);
  gsize size = g_bytes_get_size (original);
  g_autofree char *bad = g_build_filename (f->dir, "bad.warc.gz", NULL);
  CgWarcRecordInfo *second = g_ptr_array_index (infos, 1);
  g_autofree char *second_offset = g_strdup_printf ("%" G_GUINT64_FORMAT, second->offset);
  GError *read_error;

  /* Garbage between two members. */
  {
    g_autoptr(GByteArray) spliced = g_byte_array_new ();
    g_autofree char *at = g_strdup_printf ("%" G_GUINT64_FORMAT, second->offset);

    g_byte_array_append (spliced, bytes, second->offset);
    g_byte_array_append (spliced, (const guint8 *) "garbage!", 8);
    g_byte_array_append (spliced, bytes + second->offset, size - second->offset);
    cg_test_write_file (bad, spliced->data, spliced->len);
    read_error = read_all_error (bad, FALSE);
    assert_error_at (read_error, CG_WARC_ERROR_BAD_GZIP, bad, at);
    g_error_free (read_error);
  }

  /* A damaged member: its CRC does not match. */
  {
    g_autofree guint8 *damaged = g_memdup2 (bytes, size);

    damaged[second->offset + second->length - 6] ^= 0xff;
    cg_test_write_file (bad, damaged, size);
    read_error = read_all_error (bad, FALSE);
    assert_error_at (read_error, CG_WARC_ERROR_BAD_GZIP, bad, second_offset);
    g_error_free (read_error);
  }

  /* Truncated inside a member. */
  cg_test_write_file (bad, bytes, second->offset + 20);
  read_error = read_all_error (bad, FALSE);
  assert_error_at (read_error, CG_WARC_ERROR_TRUNCATED, bad, second_offset);
  g_error_free (read_error);

  /* A gzip file that holds no WARC. */
  {
    g_autoptr(GBytes) text = g_bytes_new_static ("just some text\n", 15);
    g_autoptr(GBytes) packed = gzip_bytes (text);

    cg_test_write_file (bad, g_bytes_get_data (packed, NULL), g_bytes_get_size (packed));
    read_error = read_all_error (bad, FALSE);
    assert_error_at (read_error, CG_WARC_ERROR_NOT_WARC, bad, "0");
    g_error_free (read_error);
  }

  /* Random access to an offset where no member starts. */
  {
    g_autoptr(CgWarcReader) reader = cg_warc_reader_new (path, &error);
    g_autoptr(CgWarcRecord) record = NULL;
    g_autofree char *at = g_strdup_printf ("%" G_GUINT64_FORMAT, second->offset + 3);

    g_assert_no_error (error);
    record = cg_warc_reader_read_at (reader, second->offset + 3, &error);
    g_assert_null (record);
    assert_error_at (error, CG_WARC_ERROR_BAD_GZIP, path, at);
    g_clear_error (&error);
    record = cg_warc_reader_read_at (reader, size + 100, &error);
    g_assert_null (record);
    g_assert_error (error, CG_WARC_ERROR, CG_WARC_ERROR_TRUNCATED);
    g_clear_error (&error);
    /* The reader is still usable after errors. */
    record = cg_warc_reader_read_at (reader, second->offset, &error);
    g_assert_no_error (error);
    g_assert_cmpstr (cg_warc_record_get_record_id (record), ==, second->record_id);
  }
}

static void
test_reader_block_cap (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CgWarcWriter) writer = new_writer (f->dir, "big");
  g_autoptr(GBytes) body = random_bytes (200000, 3);
  g_autoptr(Sample) sample = sample_new ("http://127.0.0.1:8080/big.bin", 200, "OK",
                                         "application/octet-stream", NULL, body);
  g_autoptr(CgWarcRecordInfo) response = NULL;
  g_autoptr(CgWarcReader) reader = NULL;
  g_autoptr(CgWarcRecord) record = NULL;
  g_autoptr(CgWarcHttpMessage) http = NULL;
  g_autofree char *path = NULL;
  CgWarcExchange exchange = exchange_for (sample, "127.0.0.1");

  g_assert_true (cg_warc_writer_write_exchange (writer, &exchange, NULL, &response, &error));
  path = g_build_filename (f->dir, response->file_name, NULL);
  g_assert_true (cg_warc_writer_close (writer, &error));

  reader = cg_warc_reader_new (path, &error);
  g_assert_no_error (error);
  cg_warc_reader_set_max_block_size (reader, 1000);
  cg_warc_reader_set_verify_digests (reader, TRUE);
  record = cg_warc_reader_read_at (reader, response->offset, &error);
  g_assert_no_error (error);
  /* Not kept, but read through and its digests checked. */
  g_assert_null (cg_warc_record_get_block (record));
  g_assert_true (cg_warc_record_get_digests_verified (record));
  http = cg_warc_record_parse_http (record, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (http->status, ==, 200);
  g_assert_null (http->payload);
}

/* ------------------------------------------------------------------ */
/* Writer argument checks                                              */

static void
test_writer_refuses_bad_input (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CgWarcWriter) writer = new_writer (f->dir, "refuse");
  g_autoptr(GBytes) page = html_page (0);
  g_autoptr(Sample) sample = sample_new ("http://127.0.0.1:8080/", 200, "OK", "text/html", NULL, page);
  CgWarcExchange exchange;
  g_autoptr(CgWarcWriter) bad_prefix = NULL;
  g_autoptr(GPtrArray) files = NULL;
  const char *bad_fields[] = { "bad name", "x", NULL };

  exchange = exchange_for (sample, NULL);
  exchange.target_uri = "http://127.0.0.1/\r\nWARC-Type: forged";
  g_assert_false (cg_warc_writer_write_exchange (writer, &exchange, NULL, NULL, &error));
  g_assert_error (error, CG_WARC_ERROR, CG_WARC_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  exchange = exchange_for (sample, "not-an-ip");
  g_assert_false (cg_warc_writer_write_exchange (writer, &exchange, NULL, NULL, &error));
  g_assert_error (error, CG_WARC_ERROR, CG_WARC_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  exchange = exchange_for (sample, NULL);
  exchange.response_headers = (const guint8 *) "HTTP/2 200 OK\r\n\r\n";
  exchange.response_headers_length = strlen ((const char *) exchange.response_headers);
  g_assert_false (cg_warc_writer_write_exchange (writer, &exchange, NULL, NULL, &error));
  g_assert_error (error, CG_WARC_ERROR, CG_WARC_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  exchange = exchange_for (sample, NULL);
  exchange.response_headers_length -= 2;
  g_assert_false (cg_warc_writer_write_exchange (writer, &exchange, NULL, NULL, &error));
  g_assert_error (error, CG_WARC_ERROR, CG_WARC_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  exchange = exchange_for (sample, NULL);
  exchange.revisit_payload_digest = "no-label";
  exchange.revisit_target_uri = sample->uri;
  exchange.revisit_date = "2026-01-01T00:00:00Z";
  g_assert_false (cg_warc_writer_write_exchange (writer, &exchange, NULL, NULL, &error));
  g_assert_error (error, CG_WARC_ERROR, CG_WARC_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  g_assert_null (cg_warc_writer_write_metadata (writer, sample->uri, NULL, NULL, NULL, bad_fields, &error));
  g_assert_error (error, CG_WARC_ERROR, CG_WARC_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  g_assert_false (cg_warc_writer_set_crawl_config (writer, "seed http://x/\n", &error));
  g_assert_error (error, CG_WARC_ERROR, CG_WARC_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "Line 1"));
  g_clear_error (&error);

  bad_prefix = cg_warc_writer_new (f->dir, "a/b", &error);
  g_assert_null (bad_prefix);
  g_assert_error (error, CG_WARC_ERROR, CG_WARC_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  /* Nothing was written: no file was even started. */
  files = list_warc_files (f->dir);
  g_assert_cmpuint (files->len, ==, 0);
}

/* WARC-Date is UTC to the second, whatever the zone of the time given;
 * the year has four digits even before 1000. */
static void
test_format_date (void)
{
  static const struct {
    int         year, month, day, hour, minute;
    double      seconds;
    const char *zone;
    const char *expected;
  } cases[] = {
    { 2026, 3, 1, 12, 0, 0, "Z", "2026-03-01T12:00:00Z" },
    { 2026, 3, 1, 0, 30, 59.75, "+02:00", "2026-02-28T22:30:59Z" },
    { 2024, 12, 31, 23, 59, 59.999, "-05:30", "2025-01-01T05:29:59Z" },
    { 1969, 12, 31, 23, 59, 58, "Z", "1969-12-31T23:59:58Z" },
    { 999, 1, 2, 3, 4, 5, "Z", "0999-01-02T03:04:05Z" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GTimeZone) zone = g_time_zone_new_identifier (cases[i].zone);
      g_autoptr(GDateTime) date = g_date_time_new (zone, cases[i].year, cases[i].month, cases[i].day,
                                                   cases[i].hour, cases[i].minute, cases[i].seconds);
      g_autofree char *text = cg_warc_format_date (date);

      g_assert_nonnull (date);
      g_assert_cmpstr (text, ==, cases[i].expected);
    }

  /* Now, as the clock says it. */
  {
    gint64 before = g_get_real_time () / G_USEC_PER_SEC;
    g_autofree char *now = cg_warc_format_date (NULL);
    gint64 after = g_get_real_time () / G_USEC_PER_SEC;
    g_autoptr(GTimeZone) utc = g_time_zone_new_utc ();
    g_autoptr(GDateTime) parsed = g_date_time_new_from_iso8601 (now, utc);

    g_assert_nonnull (parsed);
    g_assert_cmpint (strlen (now), ==, strlen ("2026-03-01T12:00:00Z"));
    g_assert_cmpint (g_date_time_to_unix (parsed), >=, before);
    g_assert_cmpint (g_date_time_to_unix (parsed), <=, after);
  }
}

/* Record ids are random (version 4) UUIDs in RFC 9562's text form, each
 * one new: GLib's parser accepts them, the version and variant bits are
 * set, and every hex digit takes several values over many ids, so no
 * position is stuck (a byte left out of the random fill would be). */
static void
test_record_ids (void)
{
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  guint values[36][16] = { { 0 } };

  for (guint n = 0; n < 4000; n++)
    {
      char *id = cg_warc_new_record_id ();
      g_autofree char *uuid = NULL;

      g_assert_true (g_str_has_prefix (id, "<urn:uuid:"));
      g_assert_true (g_str_has_suffix (id, ">"));
      g_assert_cmpuint (strlen (id), ==, strlen ("<urn:uuid:>") + 36);
      uuid = g_strndup (id + strlen ("<urn:uuid:"), 36);
      g_assert_true (g_uuid_string_is_valid (uuid));
      g_assert_true (g_regex_match_simple ("^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$",
                                           uuid, 0, 0));
      for (guint i = 0; i < 36; i++)
        if (uuid[i] != '-')
          values[i][g_ascii_xdigit_value (uuid[i])]++;
      g_assert_true (g_hash_table_add (seen, id));
    }

  for (guint i = 0; i < 36; i++)
    {
      guint distinct = 0;

      for (guint v = 0; v < 16; v++)
        distinct += values[i][v] > 0;
      if (i == 8 || i == 13 || i == 18 || i == 23)
        g_assert_cmpuint (distinct, ==, 0);      /* the dashes */
      else if (i == 14)
        g_assert_cmpuint (distinct, ==, 1);      /* the version */
      else if (i == 19)
        g_assert_cmpuint (distinct, ==, 4);      /* the variant: 8, 9, a, b */
      else
        g_assert_cmpuint (distinct, ==, 16);
    }
}

/* ------------------------------------------------------------------ */
/* CDXJ                                                                */

static void
test_cdxj_urlkey (void)
{
  static const struct { const char *url; const char *key; } cases[] = {
    { "http://www.Example.com:80/Path/Page.html?b=2&a=1#top", "com,example)/path/page.html?a=1&b=2" },
    { "https://example.org/", "org,example)/" },
    { "https://www2.example.org", "org,example)/" },
    { "http://127.0.0.1:8080/x?z", "1,0,0,127:8080)/x?z" },
    { "urn:cartograph:screenshot:1", "urn:cartograph:screenshot:1" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *key = cg_cdxj_urlkey (cases[i].url);

      g_assert_cmpstr (key, ==, cases[i].key);
    }
}

static void
test_cdxj_mime_of_content_type (void)
{
  static const struct { const char *content_type; const char *mime; } cases[] = {
    { "text/html", "text/html" },
    { " Text/HTML ; charset=UTF-8", "text/html" },
    { "image/PNG;x=1", "image/png" },
    { "\tapplication/json\t", "application/json" },
    { "", NULL },
    { "  ", NULL },
    { " ; charset=UTF-8", NULL },
    { NULL, NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *mime = cg_cdxj_mime_of_content_type (cases[i].content_type);

      g_assert_cmpstr (mime, ==, cases[i].mime);
    }
}

/* The writer, while it writes, and the reindexer, from the file, take a
 * line's timestamp from the same WARC-Date with this helper. */
static void
test_cdxj_timestamp14_of_date (void)
{
  static const struct { const char *date; const char *timestamp; } cases[] = {
    { "2026-03-01T12:00:00Z", "20260301120000" },
    { "2026-03-01T12:00:00.123456Z", "20260301120000" },
    { "0999-01-02T03:04:05Z", "09990102030405" },
    { "2026-03", "202603" },
    { "", "" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      char timestamp[15];

      cg_cdxj_timestamp14_of_date (cases[i].date, timestamp);
      g_assert_cmpstr (timestamp, ==, cases[i].timestamp);
    }
}

static void
test_cdxj_bad_lines (void)
{
  const char *bad[] = {
    "",
    "com,example)/",
    "com,example)/ 2026 {\"url\":\"x\",\"offset\":\"1\",\"length\":\"2\",\"filename\":\"f\"}",
    "com,example)/ 20260101000000 not json",
    "com,example)/ 20260101000000 [1,2]",
    "com,example)/ 20260101000000 {\"offset\":\"1\",\"length\":\"2\",\"filename\":\"f\"}",
    "com,example)/ 20260101000000 {\"url\":\"x\",\"offset\":\"-1\",\"length\":\"2\",\"filename\":\"f\"}",
    "com,example)/ 20260101000000 {\"url\":\"x\",\"offset\":\"1\",\"length\":\"2\"}",
    /* A url or filename that is there but is no string. */
    "com,example)/ 20260101000000 {\"url\":5,\"offset\":\"1\",\"length\":\"2\",\"filename\":\"f\"}",
    "com,example)/ 20260101000000 {\"url\":\"x\",\"offset\":\"1\",\"length\":\"2\",\"filename\":null}",
    "com,example)/ 20260101000000 {\"url\":[\"x\"],\"offset\":\"1\",\"length\":\"2\",\"filename\":\"f\"}",
    "com,example)/ 20260101000000 {\"url\":\"x\",\"offset\":\"1\",\"length\":\"2\",\"filename\":\"f\",\"status\":\"abc\"}",
  };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(CgCdxjEntry) entry = cg_cdxj_parse_line (bad[i], &error);

      g_assert_null (entry);
      g_assert_error (error, CG_WARC_ERROR, CG_WARC_ERROR_BAD_INDEX);
    }

  /* An index beside a WARC file may come from another tool: a line whose
   * JSON nests 100,000 levels deep is refused, not recursed into until the
   * stack overflows. */
  {
    GString *deep = g_string_new ("com,example)/ 20260101000000 {\"url\":");
    g_autoptr(GError) error = NULL;
    g_autoptr(CgCdxjEntry) entry = NULL;

    for (guint i = 0; i < 100000; i++)
      g_string_append_c (deep, '[');
    for (guint i = 0; i < 100000; i++)
      g_string_append_c (deep, ']');
    g_string_append_c (deep, '}');
    entry = cg_cdxj_parse_line (deep->str, &error);
    g_assert_null (entry);
    g_assert_error (error, CG_WARC_ERROR, CG_WARC_ERROR_BAD_INDEX);
    g_assert_nonnull (strstr (error->message, "levels deep"));
    g_string_free (deep, TRUE);
  }
}

/* Values that need escaping in the JSON block come back as they were
 * (invalid UTF-8 as U+FFFD), read by json-glib's parser. */
static void
test_cdxj_escaping (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CgCdxjIndex) index = cg_cdxj_index_new ();
  g_autofree char *path = g_build_filename (f->dir, "escaping.cdxj", NULL);
  g_autofree char *text = NULL;
  g_autoptr(CgCdxjEntry) entry = NULL;
  const char *url = "http://example.org/a\"b\\c\td\x01e/caf\xc3\xa9";
  const char *mime = "text/html; charset=\"\xff\"";

  cg_cdxj_index_add (index, url, "20260101000000", mime, 200, "ABC", 12, 34, "f \"1\".warc.gz");
  g_assert_true (cg_cdxj_index_write (index, path, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (path, &text, NULL, &error));
  g_assert_true (g_utf8_validate (text, -1, NULL));
  /* One line: the control characters are escaped, not written raw. */
  g_assert_cmpint (strchr (text, '\n') - text, ==, (int) strlen (text) - 1);
  g_assert_null (strchr (text, '\t'));
  g_assert_null (strchr (text, '\x01'));

  entry = cg_cdxj_parse_line (text, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (entry->url, ==, url);
  g_assert_cmpstr (entry->mime, ==, "text/html; charset=\"\xef\xbf\xbd\"");
  g_assert_cmpuint (entry->status, ==, 200);
  g_assert_cmpstr (entry->digest, ==, "ABC");
  g_assert_cmpuint (entry->length, ==, 12);
  g_assert_cmpuint (entry->offset, ==, 34);
  g_assert_cmpstr (entry->filename, ==, "f \"1\".warc.gz");

  /* A response of no type has pywb's "unk". */
  {
    g_autoptr(CgCdxjIndex) untyped = cg_cdxj_index_new ();
    g_autoptr(CgCdxjEntry) untyped_entry = NULL;
    g_autofree char *untyped_text = NULL;

    cg_cdxj_index_add (untyped, "http://example.org/", "20260101000000", NULL, 200, NULL, 1, 0, "f.warc.gz");
    g_assert_true (cg_cdxj_index_write (untyped, path, &error));
    g_assert_true (g_file_get_contents (path, &untyped_text, NULL, &error));
    untyped_entry = cg_cdxj_parse_line (untyped_text, &error);
    g_assert_no_error (error);
    g_assert_cmpstr (untyped_entry->mime, ==, "unk");
  }
}

static void
test_cdxj_index (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CgWarcWriter) writer = new_writer (f->dir, "idx");
  g_autoptr(GHashTable) digests = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autofree char *warc_path = NULL;
  g_autofree char *index_path = NULL;
  g_autofree char *reindex_path = NULL;
  g_autofree char *index_text = NULL;
  g_autofree char *reindex_text = NULL;
  g_autoptr(CgWarcReader) reader = NULL;
  g_auto(GStrv) lines = NULL;
  g_autofree char *file_name = NULL;
  const char *paths[] = { "/zeta", "/alpha?b=1&a=2", "/", "/Mixed/Case", "/alpha" };
  guint n_indexed = 0;

  for (guint round = 0; round < 2; round++)
    for (guint i = 0; i < G_N_ELEMENTS (paths); i++)
      {
        g_autofree char *uri = g_strdup_printf ("http://127.0.0.1:8080%s", paths[i]);
        g_autoptr(GBytes) page = html_page (i);
        g_autoptr(Sample) sample = sample_new (uri, i == 4 ? 404 : 200, i == 4 ? "Not Found" : "OK",
                                               "text/html; charset=UTF-8", NULL, page);
        CgWarcExchange exchange = exchange_for (sample, "127.0.0.1");
        g_autoptr(CgWarcRecordInfo) response = NULL;
        const char *earlier = g_hash_table_lookup (digests, uri);

        /* Some exchanges, responses and revisits, come with the status
         * and Content-Type of their header block, as a crawl gives them;
         * the index read back from the file below must be the same. */
        if (i % 2 == 1)
          {
            exchange.response_status = 200;
            exchange.response_content_type = "text/html; charset=UTF-8";
          }

        /* The second round finds the same payloads and writes revisits. */
        if (round == 1)
          {
            g_autofree char *digest = cg_warc_digest_compute (CG_WARC_DIGEST_SHA1,
                                                              g_bytes_get_data (page, NULL),
                                                              g_bytes_get_size (page));

            g_assert_cmpstr (digest, ==, earlier);
            exchange.revisit_payload_digest = earlier;
            exchange.revisit_target_uri = uri;
            exchange.revisit_date = "2026-01-01T00:00:00Z";
          }
        g_assert_true (cg_warc_writer_write_exchange (writer, &exchange, NULL, &response, &error));
        g_assert_no_error (error);
        if (round == 0)
          g_hash_table_insert (digests, g_strdup (uri), g_strdup (response->payload_digest));
        g_free (file_name);
        file_name = g_strdup (response->file_name);
        n_indexed++;
      }
  {
    g_autoptr(CgWarcRecordInfo) shot = NULL;

    shot = cg_warc_writer_write_resource (writer, "urn:cartograph:screenshot:1", NULL, NULL,
                                          "Image/PNG; x=1", (const guint8 *) "PNG", 3, &error);
    g_assert_no_error (error);
    n_indexed++;
  }
  g_assert_true (cg_warc_writer_close (writer, &error));

  warc_path = g_build_filename (f->dir, file_name, NULL);
  index_path = cg_cdxj_path_for_warc (warc_path);
  g_assert_true (g_str_has_suffix (index_path, ".cdxj"));
  g_assert_true (g_file_get_contents (index_path, &index_text, NULL, &error));
  g_assert_true (g_str_has_suffix (index_text, "\n"));
  lines = g_strsplit (g_strchomp (index_text), "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, n_indexed);

  reader = cg_warc_reader_new (warc_path, &error);
  g_assert_no_error (error);
  cg_warc_reader_set_verify_digests (reader, TRUE);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autoptr(CgCdxjEntry) entry = cg_cdxj_parse_line (lines[i], &error);
      g_autoptr(CgWarcRecord) record = NULL;
      g_autoptr(CgWarcHttpMessage) http = NULL;
      g_autofree char *key = NULL;
      const char *digest;
      char timestamp[15] = { 0, };
      gsize n = 0;

      g_assert_no_error (error);
      /* Sorted byte-wise. */
      if (i > 0)
        g_assert_cmpint (strcmp (lines[i - 1], lines[i]), <=, 0);

      g_assert_cmpstr (entry->filename, ==, file_name);
      record = cg_warc_reader_read_at (reader, entry->offset, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (cg_warc_record_get_length (record), ==, entry->length);
      g_assert_cmpstr (cg_warc_record_get_target_uri (record), ==, entry->url);
      key = cg_cdxj_urlkey (entry->url);
      g_assert_cmpstr (entry->urlkey, ==, key);
      for (const char *p = cg_warc_record_get_date_string (record); *p != '\0' && n < 14; p++)
        if (g_ascii_isdigit (*p))
          timestamp[n++] = *p;
      g_assert_cmpstr (entry->timestamp, ==, timestamp);
      digest = cg_warc_record_get_header (record, "WARC-Payload-Digest");
      g_assert_cmpstr (entry->digest, ==, strchr (digest, ':') + 1);

      switch (cg_warc_record_get_record_type (record))
        {
        case CG_WARC_RECORD_RESPONSE:
          http = cg_warc_record_parse_http (record, &error);
          g_assert_no_error (error);
          g_assert_cmpuint (entry->status, ==, http->status);
          g_assert_cmpstr (entry->mime, ==, "text/html");
          break;
        case CG_WARC_RECORD_REVISIT:
          g_assert_cmpstr (entry->mime, ==, "warc/revisit");
          g_assert_cmpuint (entry->status, !=, 0);
          break;
        case CG_WARC_RECORD_RESOURCE:
          g_assert_cmpstr (entry->mime, ==, "image/png");
          g_assert_cmpuint (entry->status, ==, 0);
          break;
        default:
          g_assert_not_reached ();
        }
    }

  /* The index built by reading the file back is the same. */
  reindex_path = g_build_filename (f->dir, "again.cdxj", NULL);
  g_assert_true (cg_cdxj_index_warc_file (warc_path, reindex_path, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (reindex_path, &reindex_text, NULL, &error));
  g_clear_pointer (&index_text, g_free);
  g_assert_true (g_file_get_contents (index_path, &index_text, NULL, &error));
  g_assert_cmpstr (reindex_text, ==, index_text);
}

/* The status and Content-Type a caller gives with an exchange are what
 * the index says: the writer takes them instead of parsing the header
 * block again, and parses the block only for an exchange without them. */
static void
test_cdxj_given_response_fields (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CgWarcWriter) writer = new_writer (f->dir, "given");
  g_autoptr(GBytes) page = html_page (0);
  g_autofree char *index_path = NULL;
  g_autofree char *index_text = NULL;
  g_auto(GStrv) lines = NULL;
  g_autofree char *file_name = NULL;
  const char *paths[] = { "/parsed", "/given", "/given-untyped" };

  for (guint i = 0; i < G_N_ELEMENTS (paths); i++)
    {
      g_autofree char *uri = g_strdup_printf ("http://127.0.0.1:8080%s", paths[i]);
      g_autoptr(Sample) sample = sample_new (uri, 200, "OK", "text/html; charset=UTF-8", NULL, page);
      CgWarcExchange exchange = exchange_for (sample, "127.0.0.1");
      g_autoptr(CgWarcRecordInfo) response = NULL;

      if (i > 0)
        {
          exchange.response_status = 203;
          exchange.response_content_type = i == 1 ? "Text/Plain; charset=UTF-8" : NULL;
        }
      g_assert_true (cg_warc_writer_write_exchange (writer, &exchange, NULL, &response, &error));
      g_assert_no_error (error);
      g_free (file_name);
      file_name = g_strdup (response->file_name);
    }
  g_assert_true (cg_warc_writer_close (writer, &error));

  {
    g_autofree char *warc_path = g_build_filename (f->dir, file_name, NULL);

    index_path = cg_cdxj_path_for_warc (warc_path);
  }
  g_assert_true (g_file_get_contents (index_path, &index_text, NULL, &error));
  lines = g_strsplit (g_strchomp (index_text), "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, G_N_ELEMENTS (paths));
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autoptr(CgCdxjEntry) entry = cg_cdxj_parse_line (lines[i], &error);

      g_assert_no_error (error);
      if (g_str_has_suffix (entry->url, "/parsed"))
        {
          g_assert_cmpuint (entry->status, ==, 200);
          g_assert_cmpstr (entry->mime, ==, "text/html");
        }
      else if (g_str_has_suffix (entry->url, "/given"))
        {
          g_assert_cmpuint (entry->status, ==, 203);
          g_assert_cmpstr (entry->mime, ==, "text/plain");
        }
      else
        {
          g_assert_true (g_str_has_suffix (entry->url, "/given-untyped"));
          g_assert_cmpuint (entry->status, ==, 203);
          g_assert_cmpstr (entry->mime, ==, "unk");
        }
    }
}

/* ------------------------------------------------------------------ */
/* The sample set for warcio                                           */

static int
write_sample (const char *dir)
{
  g_autoptr(GError) error = NULL;
  CgWarcDigestAlgorithm algorithms[] = { CG_WARC_DIGEST_SHA1, CG_WARC_DIGEST_SHA256 };
  const char *prefixes[] = { "sample-sha1", "sample-sha256" };

  for (guint a = 0; a < G_N_ELEMENTS (algorithms); a++)
    {
      g_autoptr(CgWarcWriter) writer = cg_warc_writer_new (dir, prefixes[a], &error);
      g_autoptr(CgWarcRecordInfo) first = NULL;
      g_autoptr(GBytes) big = random_bytes (1 << 20, 11);
      g_autoptr(Sample) big_sample = sample_new ("http://127.0.0.1:8080/big.bin", 200, "OK",
                                                 "application/octet-stream", NULL, big);

      if (writer == NULL)
        goto fail;
      cg_warc_writer_set_digest_algorithm (writer, algorithms[a]);
      cg_warc_writer_set_max_file_size (writer, 8 * 1024);
      if (!cg_warc_writer_set_crawl_config (writer, "seed: http://127.0.0.1:8080/\nmax-pages: 200\n", &error) ||
          !cg_warc_writer_set_operator (writer, "Cartograph tests", &error))
        goto fail;

      for (guint i = 0; i < 12; i++)
        {
          g_autofree char *uri = g_strdup_printf ("http://127.0.0.1:8080/page/%u?sort=name&page=%u", i, i);
          g_autoptr(GBytes) page = html_page (i);
          g_autoptr(GBytes) payload = i % 3 == 1 ? gzip_bytes (page) : g_bytes_ref (page);
          g_autoptr(Sample) sample = sample_new (uri, i == 5 ? 404 : 200, i == 5 ? "Not Found" : "OK",
                                                 "text/html; charset=utf-8",
                                                 i % 3 == 1 ? "Content-Encoding: gzip\r\n" : NULL,
                                                 payload);
          g_autoptr(CgWarcRecordInfo) response = NULL;
          g_autoptr(CgWarcRecordInfo) meta = NULL;
          g_autofree char *link1 = g_strdup_printf ("http://127.0.0.1:8080/page/%u", i + 1);
          const char *outlinks[] = { link1, "http://127.0.0.1:8080/ L a/@href", NULL };
          const char *fields[] = { "page-class", i % 2 ? "list" : "detail", NULL };
          CgWarcExchange exchange = exchange_for (sample, "127.0.0.1");

          if (i == 7)
            exchange.truncated = CG_WARC_TRUNCATED_LENGTH;
          if (!cg_warc_writer_write_exchange (writer, &exchange, NULL, &response, &error))
            goto fail;
          meta = cg_warc_writer_write_metadata (writer, uri, NULL, response->record_id,
                                                outlinks, fields, &error);
          if (meta == NULL)
            goto fail;
          if (first == NULL)
            first = g_steal_pointer (&response);
        }

      /* A revisit of the first page, a POST with a body, an empty 204, a
       * large binary payload and a resource. */
      {
        g_autoptr(GBytes) page = html_page (0);
        g_autoptr(Sample) again = sample_new ("http://127.0.0.1:8080/page/0?sort=name&page=0", 200, "OK",
                                              "text/html; charset=utf-8", NULL, page);
        CgWarcExchange exchange = exchange_for (again, "127.0.0.1");
        const char *form = "q=maps&lang=en";
        g_autofree char *post = g_strdup_printf ("POST /search HTTP/1.1\r\n"
                                                 "Host: 127.0.0.1:8080\r\n"
                                                 "Content-Type: application/x-www-form-urlencoded\r\n"
                                                 "Content-Length: %zu\r\n\r\n", strlen (form));
        g_autoptr(GBytes) empty = g_bytes_new_static ("", 0);
        g_autoptr(Sample) nothing = sample_new ("http://127.0.0.1:8080/ping", 204, "No Content",
                                                "text/plain", NULL, empty);
        g_autoptr(CgWarcRecordInfo) shot = NULL;
        g_autoptr(GBytes) png = random_bytes (5000, 5);

        exchange.revisit_payload_digest = first->payload_digest;
        exchange.revisit_target_uri = exchange.target_uri;
        exchange.revisit_date = first->date;
        exchange.revisit_record_id = first->record_id;
        if (!cg_warc_writer_write_exchange (writer, &exchange, NULL, NULL, &error))
          goto fail;

        exchange = exchange_for (again, "127.0.0.1");
        exchange.target_uri = "http://127.0.0.1:8080/search";
        exchange.request_headers = (const guint8 *) post;
        exchange.request_headers_length = strlen (post);
        exchange.request_body = (const guint8 *) form;
        exchange.request_body_length = strlen (form);
        if (!cg_warc_writer_write_exchange (writer, &exchange, NULL, NULL, &error))
          goto fail;

        exchange = exchange_for (nothing, "::1");
        if (!cg_warc_writer_write_exchange (writer, &exchange, NULL, NULL, &error))
          goto fail;

        exchange = exchange_for (big_sample, "127.0.0.1");
        if (!cg_warc_writer_write_exchange (writer, &exchange, NULL, NULL, &error))
          goto fail;

        shot = cg_warc_writer_write_resource (writer, "urn:cartograph:screenshot:page-0", NULL,
                                              first->record_id, "image/png",
                                              g_bytes_get_data (png, NULL), g_bytes_get_size (png),
                                              &error);
        if (shot == NULL)
          goto fail;
      }

      if (!cg_warc_writer_close (writer, &error))
        goto fail;
    }
  return 0;

fail:
  g_printerr ("Could not write the sample WARC files: %s\n", error->message);
  return 1;
}

int
main (int argc, char **argv)
{
  if (argc == 3 && strcmp (argv[1], "--write-sample") == 0)
    return write_sample (argv[2]);

  g_test_init (&argc, &argv, NULL);

#define ADD(name, func) g_test_add (name, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  g_test_add_func ("/warc/digest/base32-rfc4648", test_base32_rfc4648);
  g_test_add_func ("/warc/digest/known-values", test_digest_known_values);
  g_test_add_func ("/warc/digest/in-pieces", test_digest_in_pieces);
  g_test_add_func ("/warc/gzip-member/every-level", test_gzip_member_every_level);
  g_test_add_func ("/warc/gzip-member/compressor-named", test_gzip_member_compressor_named);
  g_test_add_func ("/warc/gzip-member/learned-codes", test_gzip_member_learned_codes);
  ADD ("/warc/writer/round-trip", test_round_trip);
  ADD ("/warc/writer/sha256", test_sha256);
  ADD ("/warc/writer/given-payload-digest", test_given_payload_digest);
  ADD ("/warc/writer/large-file", test_large_file);
  ADD ("/warc/writer/rollover", test_rollover);
  ADD ("/warc/writer/hold-records", test_hold_records);
  ADD ("/warc/writer/hold-records-write-fails", test_hold_records_write_fails);
  ADD ("/warc/writer/hold-records-first-write-fails", test_hold_records_first_write_fails);
  ADD ("/warc/writer/refuses-bad-input", test_writer_refuses_bad_input);
  ADD ("/warc/repair/every-cut-in-last-record", test_repair_every_cut);
  ADD ("/warc/repair/cuts-in-first-record", test_repair_cuts_in_first_record);
  ADD ("/warc/repair/zero-tail", test_repair_zero_tail);
  ADD ("/warc/repair/refuses-middle-damage", test_repair_refuses_middle_damage);
  ADD ("/warc/repair/recover-directory", test_recover_directory);
  ADD ("/warc/repair/plain", test_repair_plain);
  ADD ("/warc/reader/plain", test_reader_plain);
  ADD ("/warc/reader/continuation-lines", test_reader_continuation_lines);
  ADD ("/warc/reader/http-messages", test_reader_http_messages);
  ADD ("/warc/reader/bad-inputs", test_reader_bad_inputs);
  ADD ("/warc/reader/bad-gzip", test_reader_bad_gzip);
  ADD ("/warc/reader/block-cap", test_reader_block_cap);
  g_test_add_func ("/warc/record-ids", test_record_ids);
  g_test_add_func ("/warc/format-date", test_format_date);
  g_test_add_func ("/warc/cdxj/urlkey", test_cdxj_urlkey);
  g_test_add_func ("/warc/cdxj/mime-of-content-type", test_cdxj_mime_of_content_type);
  g_test_add_func ("/warc/cdxj/timestamp14-of-date", test_cdxj_timestamp14_of_date);
  g_test_add_func ("/warc/cdxj/bad-lines", test_cdxj_bad_lines);
  ADD ("/warc/cdxj/escaping", test_cdxj_escaping);
  ADD ("/warc/cdxj/index", test_cdxj_index);
  ADD ("/warc/cdxj/given-response-fields", test_cdxj_given_response_fields);
#undef ADD

  return g_test_run ();
}
