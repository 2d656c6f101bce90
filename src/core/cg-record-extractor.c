/* cg-record-extractor.c: wrappers of a model's classes learned and applied to the archived pages.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "cg-content-decoder.h"
#include "cg-links.h"
#include "cg-page-classifier.h"
#include "cg-record-extractor.h"
#include "cg-record-store.h"
#include "cg-url.h"
#include "cg-warc-reader.h"

G_DEFINE_QUARK (cg-record-extractor-error-quark, cg_record_extractor_error)

/* Pages whose labels are read from the store at a time, so that memory
 * stays bounded whatever the number of pages of a class. */
#define PAGE_BATCH            256
/* WARC readers kept open at once. */
#define MAX_OPEN_READERS      8
/* A payload larger than this is not parsed (cg_html_parse's own bound). */
#define MAX_PAYLOAD_SIZE      CG_LINKS_MAX_INPUT_SIZE

/* --- Pages from the archive ---------------------------------------------- */

typedef struct {
  CgProject  *project;
  char       *warc_dir;
  GHashTable *readers;   /* file name → CgWarcReader */
} Archive;

static void
archive_init (Archive   *archive,
              CgProject *project)
{
  archive->project = project;
  archive->warc_dir = cg_project_get_warc_dir (project);
  archive->readers = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
}

static void
archive_clear (Archive *archive)
{
  g_clear_pointer (&archive->warc_dir, g_free);
  g_clear_pointer (&archive->readers, g_hash_table_unref);
}

static CgWarcReader *
archive_reader (Archive     *archive,
                const char  *name,
                GError     **error)
{
  CgWarcReader *reader = g_hash_table_lookup (archive->readers, name);
  g_autofree char *path = NULL;

  if (reader != NULL)
    return reader;
  /* The name comes from the database: a path in it would read a file
   * outside the project. */
  if (name[0] == '\0' || strchr (name, '/') != NULL || g_str_equal (name, "..") || g_str_equal (name, "."))
    {
      g_set_error (error, CG_RECORD_EXTRACTOR_ERROR, CG_RECORD_EXTRACTOR_ERROR_ARCHIVE,
                   _("The project names a WARC file “%s” that is not in its WARC folder"), name);
      return NULL;
    }
  path = g_build_filename (archive->warc_dir, name, NULL);
  reader = cg_warc_reader_new (path, error);
  if (reader == NULL)
    return NULL;
  cg_warc_reader_set_max_block_size (reader, MAX_PAYLOAD_SIZE + CG_WARC_READER_MAX_HTTP_HEADER_SIZE);
  if (g_hash_table_size (archive->readers) >= MAX_OPEN_READERS)
    g_hash_table_remove_all (archive->readers);
  g_hash_table_insert (archive->readers, g_strdup (name), reader);
  return reader;
}

static CgWarcRecord *
archive_read (Archive     *archive,
              const char  *file,
              gint64       offset,
              const char  *url,
              GError     **error)
{
  g_autoptr(GError) local_error = NULL;
  CgWarcReader *reader = archive_reader (archive, file, &local_error);
  CgWarcRecord *record;

  if (reader != NULL)
    record = cg_warc_reader_read_at (reader, (guint64) offset, &local_error);
  else
    record = NULL;
  if (record == NULL)
    {
      g_set_error (error, CG_RECORD_EXTRACTOR_ERROR, CG_RECORD_EXTRACTOR_ERROR_ARCHIVE,
                   _("Cannot read the archived page %s: %s"), url, local_error->message);
      return NULL;
    }
  return record;
}

/* The HTTP response of the record at @offset of @file, and the record
 * in @out_record, which the message's payload lies in. @revisited says
 * that it is the response a revisit of @url refers to, for the message. */
static CgWarcHttpMessage *
archive_read_http (Archive       *archive,
                   const char    *file,
                   gint64         offset,
                   const char    *url,
                   gboolean       revisited,
                   CgWarcRecord **out_record,
                   GError       **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autoptr(CgWarcRecord) record = archive_read (archive, file, offset, url, error);
  g_autoptr(CgWarcHttpMessage) http = NULL;
  const char *reason;

  if (record == NULL)
    return NULL;
  http = cg_warc_record_parse_http (record, &local_error);
  if (http != NULL && !http->is_request)
    {
      *out_record = g_steal_pointer (&record);
      return g_steal_pointer (&http);
    }
  reason = local_error != NULL ? local_error->message : _("it holds a request");
  if (revisited)
    g_set_error (error, CG_RECORD_EXTRACTOR_ERROR, CG_RECORD_EXTRACTOR_ERROR_ARCHIVE,
                 _("The archived response that the revisit of %s refers to is bad: %s"), url, reason);
  else
    g_set_error (error, CG_RECORD_EXTRACTOR_ERROR, CG_RECORD_EXTRACTOR_ERROR_ARCHIVE,
                 _("The archived response of %s is bad: %s"), url, reason);
  return NULL;
}

/* The newest archived response of @url_id, parsed; NULL with @error unset
 * when the page has no archived HTML (not fetched, not HTML, an error
 * status). */
static htmlDocPtr
archive_load_page (Archive     *archive,
                   gint64       url_id,
                   const char  *url,
                   GError     **error)
{
  CgStore *store = cg_project_get_store (archive->project);
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autoptr(CgWarcRecord) record = NULL;
  g_autoptr(CgWarcRecord) original = NULL;
  g_autoptr(CgWarcHttpMessage) http = NULL;
  g_autoptr(CgWarcHttpMessage) original_http = NULL;
  g_autoptr(GBytes) payload = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autofree char *file = NULL;
  g_autofree char *record_type = NULL;
  g_autofree char *digest = NULL;
  CgWarcHttpMessage *body_from;
  const char *content_type, *encoding;
  gint64 offset;
  int rc;

  stmt = cg_store_prepare (store,
                           "SELECT w.name, f.warc_offset, f.record_type, f.payload_digest "
                           "FROM fetches f JOIN warc_files w ON w.id = f.warc_file_id "
                           "WHERE f.url_id = ?1 AND f.warc_offset IS NOT NULL AND f.status = 200 "
                           "ORDER BY f.fetched_at DESC, f.id DESC LIMIT 1",
                           error);
  if (stmt == NULL)
    return NULL;
  sqlite3_bind_int64 (stmt, 1, url_id);
  rc = sqlite3_step (stmt);
  if (rc == SQLITE_DONE)
    return NULL;
  /* The step's own error: stepping again would run the query afresh. */
  if (rc != SQLITE_ROW)
    {
      cg_store_set_error (store, rc, error);
      return NULL;
    }
  file = g_strdup ((const char *) sqlite3_column_text (stmt, 0));
  offset = sqlite3_column_int64 (stmt, 1);
  record_type = g_strdup ((const char *) sqlite3_column_text (stmt, 2));
  digest = g_strdup ((const char *) sqlite3_column_text (stmt, 3));
  g_clear_pointer (&stmt, sqlite3_finalize);
  if (file == NULL)
    return NULL;

  http = archive_read_http (archive, file, offset, url, FALSE, &record, error);
  if (http == NULL)
    return NULL;
  body_from = http;

  /* A revisit has no payload of its own: it is the payload of the first
   * response with the same digest. */
  if (g_strcmp0 (record_type, "revisit") == 0)
    {
      g_autofree char *original_file = NULL;
      gint64 original_offset;

      if (digest == NULL)
        return NULL;
      stmt = cg_store_prepare (store,
                               "SELECT w.name, f.warc_offset FROM fetches f "
                               "JOIN warc_files w ON w.id = f.warc_file_id "
                               "WHERE f.payload_digest = ?1 AND f.record_type = 'response' "
                               "AND f.warc_offset IS NOT NULL LIMIT 1",
                               error);
      if (stmt == NULL)
        return NULL;
      sqlite3_bind_text (stmt, 1, digest, -1, SQLITE_TRANSIENT);
      rc = sqlite3_step (stmt);
      if (rc != SQLITE_ROW)
        {
          if (rc != SQLITE_DONE)
            cg_store_set_error (store, rc, error);
          return NULL;
        }
      original_file = g_strdup ((const char *) sqlite3_column_text (stmt, 0));
      original_offset = sqlite3_column_int64 (stmt, 1);
      g_clear_pointer (&stmt, sqlite3_finalize);
      original_http = archive_read_http (archive, original_file, original_offset, url, TRUE, &original, error);
      if (original_http == NULL)
        return NULL;
      body_from = original_http;
    }

  content_type = soup_message_headers_get_one (body_from->headers, "Content-Type");
  if (content_type != NULL &&
      g_ascii_strncasecmp (content_type, "text/html", 9) != 0 &&
      g_ascii_strncasecmp (content_type, "application/xhtml+xml", 21) != 0)
    return NULL;
  if (body_from->payload == NULL)
    {
      g_set_error (error, CG_RECORD_EXTRACTOR_ERROR, CG_RECORD_EXTRACTOR_ERROR_ARCHIVE,
                   _("The archived page %s is too large to read"), url);
      return NULL;
    }
  if (body_from->transfer_chunked)
    {
      g_set_error (error, CG_RECORD_EXTRACTOR_ERROR, CG_RECORD_EXTRACTOR_ERROR_ARCHIVE,
                   _("The archived page %s was stored with its chunked transfer encoding"), url);
      return NULL;
    }
  encoding = soup_message_headers_get_list (body_from->headers, "Content-Encoding");
  payload = cg_content_decode_header (encoding, body_from->payload, MAX_PAYLOAD_SIZE, NULL, &local_error);
  if (payload == NULL)
    {
      g_set_error (error, CG_RECORD_EXTRACTOR_ERROR, CG_RECORD_EXTRACTOR_ERROR_ARCHIVE,
                   _("The archived page %s cannot be decoded: %s"), url, local_error->message);
      return NULL;
    }
  return cg_html_parse (g_bytes_get_data (payload, NULL), g_bytes_get_size (payload), url, content_type, error);
}

/* The id of @url in the store: in the model's crawl when it is there,
 * else the newest one fetched. 0 when it is unknown. */
static gint64
lookup_url_id (CgStore     *store,
               CgSiteModel *model,
               const char  *url,
               GError     **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autofree char *normal = cg_url_normalize (url, CG_URL_NORMALIZE_CRAWL, NULL);
  int rc;

  if (normal == NULL)
    return 0;
  stmt = cg_store_prepare (store,
                           "SELECT u.id FROM urls u "
                           "WHERE u.url = ?1 AND EXISTS (SELECT 1 FROM fetches f WHERE f.url_id = u.id) "
                           "ORDER BY (u.crawl_id = ?2) DESC, u.id DESC LIMIT 1",
                           error);
  if (stmt == NULL)
    return -1;
  sqlite3_bind_text (stmt, 1, normal, -1, SQLITE_TRANSIENT);
  sqlite3_bind_int64 (stmt, 2, cg_site_model_get_crawl_id (model));
  rc = sqlite3_step (stmt);
  if (rc == SQLITE_ROW)
    return sqlite3_column_int64 (stmt, 0);
  if (rc != SQLITE_DONE)
    {
      cg_store_set_error (store, rc, error);
      return -1;
    }
  return 0;
}

/* --- Learning ------------------------------------------------------------ */

static gboolean
check_model (CgProject    *project,
             CgSiteModel  *model,
             GError      **error)
{
  g_return_val_if_fail (CG_IS_PROJECT (project), FALSE);
  g_return_val_if_fail (CG_IS_SITE_MODEL (model), FALSE);
  if (cg_site_model_get_id (model) <= 0)
    {
      g_set_error (error, CG_SITE_MODEL_ERROR, CG_SITE_MODEL_ERROR_NOT_FOUND,
                   _("The model of %s is not saved in the project, so its records cannot be stored"),
                   cg_site_model_get_site (model));
      return FALSE;
    }
  return TRUE;
}

static CgPageClass *
get_class (CgSiteModel  *model,
           const char   *class_name,
           GError      **error)
{
  CgPageClass *klass = cg_site_model_get_class (model, class_name);

  if (klass == NULL)
    g_set_error (error, CG_RECORD_EXTRACTOR_ERROR, CG_RECORD_EXTRACTOR_ERROR_NO_CLASS,
                 _("The model version %d of %s has no class “%s”"),
                 cg_site_model_get_version (model), cg_site_model_get_site (model), class_name);
  return klass;
}

/* Where the pages that cannot be read go: the caller's function, or the
 * log. */
typedef struct {
  CgExtractSkippedFunc func;
  gpointer             user_data;
} Skips;

static void
report_skip (const Skips  *skips,
             const char   *class_name,
             const char   *url,
             const GError *reason)
{
  if (skips != NULL && skips->func != NULL)
    skips->func (class_name, url, reason, skips->user_data);
  else
    g_warning ("%s", reason->message);
}

/* The sample pages of a class: its renders in thumbnails/model-V/ when
 * there are some, else its sample URLs' archived HTML. */
static gboolean
load_samples (CgProject    *project,
              CgSiteModel  *model,
              Archive      *archive,
              const Skips  *skips,
              CgPageClass  *klass,
              guint         max_pages,
              GPtrArray    *docs,
              GPtrArray    *urls,
              GError      **error)
{
  g_autofree char *thumbnails = cg_project_get_thumbnails_dir (project);
  g_autofree char *subfolder = g_strdup_printf ("model-%d", cg_site_model_get_version (model));

  for (guint j = 0; klass->samples != NULL && klass->samples[j] != NULL && docs->len < max_pages; j++)
    {
      g_autofree char *name = g_strdup_printf ("%s-%u.html", klass->name, j + 1);
      g_autofree char *path = g_build_filename (thumbnails, subfolder, name, NULL);
      g_autofree char *data = NULL;
      g_autoptr(GError) local_error = NULL;
      gsize length;
      htmlDocPtr doc;

      if (!g_file_get_contents (path, &data, &length, NULL))
        continue;
      doc = cg_html_parse (data, length, klass->samples[j], "text/html; charset=utf-8", &local_error);
      if (doc == NULL)
        {
          g_warning ("The rendered sample %s is not usable: %s", path, local_error->message);
          continue;
        }
      g_ptr_array_add (docs, doc);
      g_ptr_array_add (urls, g_strdup (klass->samples[j]));
    }
  if (docs->len > 0)
    return TRUE;

  for (guint j = 0; klass->samples != NULL && klass->samples[j] != NULL && docs->len < max_pages; j++)
    {
      g_autoptr(GError) local_error = NULL;
      gint64 url_id = lookup_url_id (cg_project_get_store (project), model, klass->samples[j], error);
      htmlDocPtr doc;

      if (url_id < 0)
        return FALSE;
      if (url_id == 0)
        continue;
      doc = archive_load_page (archive, url_id, klass->samples[j], &local_error);
      if (doc == NULL)
        {
          if (local_error != NULL)
            report_skip (skips, klass->name, klass->samples[j], local_error);
          continue;
        }
      g_ptr_array_add (docs, doc);
      g_ptr_array_add (urls, g_strdup (klass->samples[j]));
    }
  return TRUE;
}

static void
free_doc (gpointer doc)
{
  xmlFreeDoc (doc);
}

/* Learns and stores the wrappers of the classes in @wanted (CgPageClass).
 * When @strict, a class where none can be learned fails; otherwise it is
 * skipped. Cancelling stops between two classes (or two sample pages):
 * learning one class reads at most CG_WRAPPER_DEFAULT_PAGES pages, and the
 * wrappers already stored stay. */
static gboolean
learn_classes (CgProject    *project,
               CgSiteModel  *model,
               GPtrArray    *wanted,
               gboolean      strict,
               GCancellable *cancellable,
               const Skips  *skips,
               GError      **error)
{
  GPtrArray *classes = cg_site_model_get_classes (model);
  g_autoptr(GPtrArray) site_docs = g_ptr_array_new_with_free_func (free_doc);
  g_autoptr(GPtrArray) site_classes = g_ptr_array_new ();
  Archive archive = { 0 };
  gboolean ok = TRUE;

  if (wanted->len == 0)
    return TRUE;
  archive_init (&archive, project);

  /* One page of every class shows the site's template (menus, footers)
   * to the others. */
  for (guint i = 0; i < classes->len; i++)
    {
      CgPageClass *klass = g_ptr_array_index (classes, i);
      g_autoptr(GPtrArray) docs = g_ptr_array_new ();
      g_autoptr(GPtrArray) urls = g_ptr_array_new_with_free_func (g_free);

      if (g_cancellable_set_error_if_cancelled (cancellable, error) ||
          !load_samples (project, model, &archive, skips, klass, 1, docs, urls, error))
        {
          for (guint d = 0; d < docs->len; d++)
            xmlFreeDoc (g_ptr_array_index (docs, d));
          archive_clear (&archive);
          return FALSE;
        }
      if (docs->len > 0)
        {
          g_ptr_array_add (site_docs, g_ptr_array_index (docs, 0));
          g_ptr_array_add (site_classes, klass);
        }
    }

  for (guint i = 0; i < classes->len && ok; i++)
    {
      CgPageClass *klass = g_ptr_array_index (classes, i);
      g_autoptr(GPtrArray) docs = g_ptr_array_new_with_free_func (free_doc);
      g_autoptr(GPtrArray) urls = g_ptr_array_new_with_free_func (g_free);
      g_autoptr(GPtrArray) others = g_ptr_array_new ();
      g_autoptr(CgWrapper) wrapper = NULL;
      g_autoptr(GError) local_error = NULL;
      g_autofree char *json = NULL;
      CgWrapperOptions options;

      if (!g_ptr_array_find (wanted, klass, NULL))
        continue;
      if (g_cancellable_set_error_if_cancelled (cancellable, error) ||
          !load_samples (project, model, &archive, skips, klass, CG_WRAPPER_DEFAULT_PAGES, docs, urls, error) ||
          g_cancellable_set_error_if_cancelled (cancellable, error))
        {
          ok = FALSE;
          break;
        }
      for (guint s = 0; s < site_docs->len; s++)
        if (g_ptr_array_index (site_classes, s) != klass)
          g_ptr_array_add (others, g_ptr_array_index (site_docs, s));
      cg_wrapper_options_init (&options);
      options.site_docs = others;
      if (docs->len == 0)
        g_set_error (&local_error, CG_RECORD_EXTRACTOR_ERROR, CG_RECORD_EXTRACTOR_ERROR_NO_PAGES,
                     _("The class “%s” has no rendered or archived sample page to learn a wrapper from"),
                     klass->name);
      else
        wrapper = cg_wrapper_learn_full (klass->name, docs, urls, &options, &local_error);
      if (wrapper == NULL)
        {
          /* Learning every class skips those without records. */
          if (!strict)
            {
              g_debug ("No wrapper for the class %s: %s", klass->name, local_error->message);
              continue;
            }
          g_propagate_error (error, g_steal_pointer (&local_error));
          ok = FALSE;
          break;
        }
      json = cg_wrapper_to_json (wrapper);
      ok = cg_record_store_save_wrapper (cg_project_get_store (project), cg_site_model_get_id (model),
                                         klass->name, cg_wrapper_get_kind (wrapper), json,
                                         cg_wrapper_get_n_pages (wrapper), error);
    }
  archive_clear (&archive);
  return ok;
}

gboolean
cg_record_extractor_learn (CgProject    *project,
                           CgSiteModel  *model,
                           const char   *class_name,
                           GError      **error)
{
  return cg_record_extractor_learn_cancellable (project, model, class_name, NULL, NULL, NULL, error);
}

gboolean
cg_record_extractor_learn_cancellable (CgProject            *project,
                                       CgSiteModel          *model,
                                       const char           *class_name,
                                       GCancellable         *cancellable,
                                       CgExtractSkippedFunc  skipped,
                                       gpointer              user_data,
                                       GError              **error)
{
  g_autoptr(GPtrArray) wanted = NULL;
  Skips skips = { skipped, user_data };

  if (!check_model (project, model, error))
    return FALSE;
  if (class_name != NULL)
    {
      CgPageClass *klass = get_class (model, class_name, error);

      if (klass == NULL)
        return FALSE;
      wanted = g_ptr_array_new ();
      g_ptr_array_add (wanted, klass);
    }
  else
    {
      GPtrArray *classes = cg_site_model_get_classes (model);

      /* Borrowed: a copy would take the model's free function along. */
      wanted = g_ptr_array_sized_new (classes->len);
      for (guint i = 0; i < classes->len; i++)
        g_ptr_array_add (wanted, g_ptr_array_index (classes, i));
    }
  return learn_classes (project, model, wanted, class_name != NULL, cancellable, &skips, error);
}

/* --- Parsed wrappers ------------------------------------------------------ */

/* The harvester extracts its pages one at a time as they arrive, each
 * with cg_record_extractor_extract_page(); parsing the class's wrapper
 * (its JSON, and compiling every XPath to check it) for each page would
 * cost more than applying it. The parsed wrappers are kept with the
 * project, by model and class, together with the definition they were
 * parsed from: the stored definition is still read for each page (one
 * indexed query), so that a wrapper learned again, by this process or by
 * another one on the same project, is parsed again. Harvests may run in a
 * thread of their own, hence the lock. */
#define WRAPPER_CACHE_MAX  256

typedef struct {
  char      *definition;
  CgWrapper *wrapper;
} CachedWrapper;

typedef struct {
  GMutex      lock;
  GHashTable *entries;   /* "MODEL-ID/CLASS" → CachedWrapper */
} WrapperCache;

static void
cached_wrapper_free (CachedWrapper *cached)
{
  g_free (cached->definition);
  cg_wrapper_unref (cached->wrapper);
  g_free (cached);
}

static void
wrapper_cache_free (WrapperCache *cache)
{
  g_mutex_clear (&cache->lock);
  g_hash_table_unref (cache->entries);
  g_free (cache);
}

static WrapperCache *
wrapper_cache_get (CgProject *project)
{
  static GMutex creating;
  WrapperCache *cache;

  g_mutex_lock (&creating);
  cache = g_object_get_data (G_OBJECT (project), "cg-record-extractor-wrappers");
  if (cache == NULL)
    {
      cache = g_new0 (WrapperCache, 1);
      g_mutex_init (&cache->lock);
      cache->entries = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                              (GDestroyNotify) cached_wrapper_free);
      g_object_set_data_full (G_OBJECT (project), "cg-record-extractor-wrappers", cache,
                              (GDestroyNotify) wrapper_cache_free);
    }
  g_mutex_unlock (&creating);
  return cache;
}

/* A new reference to the wrapper parsed from @definition, or NULL. */
static CgWrapper *
wrapper_cache_lookup (WrapperCache *cache,
                      const char   *key,
                      const char   *definition)
{
  CachedWrapper *cached;
  CgWrapper *wrapper = NULL;

  g_mutex_lock (&cache->lock);
  cached = g_hash_table_lookup (cache->entries, key);
  if (cached != NULL && g_str_equal (cached->definition, definition))
    wrapper = cg_wrapper_ref (cached->wrapper);
  g_mutex_unlock (&cache->lock);
  return wrapper;
}

static void
wrapper_cache_insert (WrapperCache *cache,
                      const char   *key,
                      const char   *definition,
                      CgWrapper    *wrapper)
{
  CachedWrapper *cached = g_new0 (CachedWrapper, 1);

  cached->definition = g_strdup (definition);
  cached->wrapper = cg_wrapper_ref (wrapper);
  g_mutex_lock (&cache->lock);
  /* Models pile up over a project's life; a full cache starts again. */
  if (g_hash_table_size (cache->entries) >= WRAPPER_CACHE_MAX && !g_hash_table_contains (cache->entries, key))
    g_hash_table_remove_all (cache->entries);
  g_hash_table_insert (cache->entries, g_strdup (key), cached);
  g_mutex_unlock (&cache->lock);
}

/* --- Extraction ---------------------------------------------------------- */

static CgWrapper *
load_wrapper (CgProject    *project,
              CgSiteModel  *model,
              const char   *class_name,
              GError      **error)
{
  g_autoptr(CgStoredWrapper) stored = NULL;
  g_autoptr(GError) local_error = NULL;
  WrapperCache *cache = wrapper_cache_get (project);
  g_autofree char *key = NULL;
  CgWrapper *wrapper;

  stored = cg_record_store_load_wrapper (cg_project_get_store (project), cg_site_model_get_id (model),
                                         class_name, &local_error);
  if (stored == NULL)
    {
      if (g_error_matches (local_error, CG_STORE_ERROR, CG_STORE_ERROR_NOT_FOUND))
        g_set_error (error, CG_RECORD_EXTRACTOR_ERROR, CG_RECORD_EXTRACTOR_ERROR_NO_WRAPPER,
                     _("The class “%s” has no wrapper yet"), class_name);
      else
        g_propagate_error (error, g_steal_pointer (&local_error));
      return NULL;
    }
  key = g_strdup_printf ("%" G_GINT64_FORMAT "/%s", cg_site_model_get_id (model), class_name);
  wrapper = wrapper_cache_lookup (cache, key, stored->definition);
  if (wrapper != NULL)
    return wrapper;
  wrapper = cg_wrapper_new_from_json (stored->definition, &local_error);
  if (wrapper == NULL)
    {
      g_set_error (error, CG_RECORD_EXTRACTOR_ERROR, CG_RECORD_EXTRACTOR_ERROR_NO_WRAPPER,
                   _("The stored wrapper of the class “%s” is not usable: %s"), class_name, local_error->message);
      return NULL;
    }
  cg_wrapper_set_class_name (wrapper, class_name);
  wrapper_cache_insert (cache, key, stored->definition, wrapper);
  return wrapper;
}

static gboolean
store_page (CgProject    *project,
            CgSiteModel  *model,
            CgWrapper    *wrapper,
            const char   *class_name,
            gint64        url_id,
            htmlDocPtr    doc,
            const char   *url,
            guint        *out_n_records,
            GError      **error)
{
  g_autoptr(GPtrArray) records = cg_wrapper_apply (wrapper, doc, url, error);

  if (records == NULL)
    return FALSE;
  for (guint i = 0; i < records->len; i++)
    ((CgRecord *) g_ptr_array_index (records, i))->url_id = url_id;
  if (!cg_record_store_replace_page (cg_project_get_store (project), cg_site_model_get_id (model),
                                     class_name, url_id, records, error))
    return FALSE;
  if (out_n_records != NULL)
    *out_n_records = records->len;
  return TRUE;
}

gboolean
cg_record_extractor_extract_page (CgProject    *project,
                                  CgSiteModel  *model,
                                  const char   *class_name,
                                  gint64        url_id,
                                  htmlDocPtr    doc,
                                  const char   *url,
                                  guint        *out_n_records,
                                  GError      **error)
{
  g_autoptr(CgWrapper) wrapper = NULL;

  if (out_n_records != NULL)
    *out_n_records = 0;
  if (!check_model (project, model, error) || get_class (model, class_name, error) == NULL)
    return FALSE;
  wrapper = load_wrapper (project, model, class_name, error);
  if (wrapper == NULL)
    return FALSE;
  return store_page (project, model, wrapper, class_name, url_id, doc, url, out_n_records, error);
}

typedef struct {
  gint64  url_id;
  char   *url;
} PageRef;

static void
page_ref_clear (PageRef *ref)
{
  g_clear_pointer (&ref->url, g_free);
}

/* The next batch of pages of a class, by URL id after @after. */
static GArray *
list_pages (CgStore      *store,
            gint64        model_id,
            const char   *class_name,
            gint64        after,
            GError      **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autoptr(GArray) pages = g_array_new (FALSE, FALSE, sizeof (PageRef));
  int rc;

  g_array_set_clear_func (pages, (GDestroyNotify) page_ref_clear);
  stmt = cg_store_prepare (store,
                           "SELECT l.url_id, u.url FROM page_labels l JOIN urls u ON u.id = l.url_id "
                           "WHERE l.model_id = ?1 AND l.class = ?2 AND l.url_id > ?3 "
                           "ORDER BY l.url_id LIMIT ?4",
                           error);
  if (stmt == NULL)
    return NULL;
  sqlite3_bind_int64 (stmt, 1, model_id);
  sqlite3_bind_text (stmt, 2, class_name, -1, SQLITE_TRANSIENT);
  sqlite3_bind_int64 (stmt, 3, after);
  sqlite3_bind_int (stmt, 4, PAGE_BATCH);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      PageRef ref = { sqlite3_column_int64 (stmt, 0), g_strdup ((const char *) sqlite3_column_text (stmt, 1)) };

      g_array_append_val (pages, ref);
    }
  if (rc != SQLITE_DONE)
    {
      cg_store_set_error (store, rc, error);
      return NULL;
    }
  return g_steal_pointer (&pages);
}

static gboolean
count_pages (CgStore     *store,
             gint64       model_id,
             const char  *class_name,
             guint       *out_count,
             GError     **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  int rc;

  stmt = cg_store_prepare (store, "SELECT count(*) FROM page_labels WHERE model_id = ?1 AND class = ?2", error);
  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, model_id);
  sqlite3_bind_text (stmt, 2, class_name, -1, SQLITE_TRANSIENT);
  /* A count always has its row. Stepping again to get the error would
   * run the query afresh, and could return TRUE with no count. */
  if ((rc = sqlite3_step (stmt)) != SQLITE_ROW)
    return cg_store_set_error (store, rc, error);
  *out_count = (guint) sqlite3_column_int64 (stmt, 0);
  return TRUE;
}

static gboolean
extract_class (CgProject              *project,
               CgSiteModel            *model,
               Archive                *archive,
               const char             *class_name,
               GCancellable           *cancellable,
               CgExtractProgressFunc   progress,
               const Skips            *skips,
               gpointer                user_data,
               GError                **error)
{
  CgStore *store = cg_project_get_store (project);
  gint64 model_id = cg_site_model_get_id (model);
  g_autoptr(CgWrapper) wrapper = load_wrapper (project, model, class_name, error);
  guint total = 0, done = 0, n_records = 0;
  gint64 after = 0;

  if (wrapper == NULL || !count_pages (store, model_id, class_name, &total, error))
    return FALSE;
  if (progress != NULL)
    progress (class_name, 0, total, 0, user_data);
  for (;;)
    {
      g_autoptr(GArray) pages = list_pages (store, model_id, class_name, after, error);

      if (pages == NULL)
        return FALSE;
      if (pages->len == 0)
        break;
      for (guint i = 0; i < pages->len; i++)
        {
          PageRef *ref = &g_array_index (pages, PageRef, i);
          g_autoptr(GError) local_error = NULL;
          htmlDocPtr doc;
          guint n = 0;

          if (g_cancellable_set_error_if_cancelled (cancellable, error))
            return FALSE;
          after = ref->url_id;
          doc = archive_load_page (archive, ref->url_id, ref->url, &local_error);
          if (doc != NULL)
            {
              if (!store_page (project, model, wrapper, class_name, ref->url_id, doc, ref->url, &n, &local_error))
                {
                  xmlFreeDoc (doc);
                  /* A failing store is not a page's problem: stop. */
                  if (local_error->domain == CG_STORE_ERROR)
                    {
                      g_propagate_error (error, g_steal_pointer (&local_error));
                      return FALSE;
                    }
                  report_skip (skips, class_name, ref->url, local_error);
                }
              else
                xmlFreeDoc (doc);
              n_records += n;
            }
          else if (local_error != NULL)
            report_skip (skips, class_name, ref->url, local_error);
          done++;
          if (progress != NULL)
            progress (class_name, done, MAX (total, done), n_records, user_data);
        }
    }
  return TRUE;
}

/* Whether any page is labelled with the model's classes: by the
 * exploration that learned it, by a harvest with it, or by
 * label_pages(). */
static gboolean
has_labels (CgStore      *store,
            CgSiteModel  *model,
            gboolean     *out_labelled,
            GError      **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  int rc;

  stmt = cg_store_prepare (store, "SELECT EXISTS (SELECT 1 FROM page_labels WHERE model_id = ?1)", error);
  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, cg_site_model_get_id (model));
  if ((rc = sqlite3_step (stmt)) != SQLITE_ROW)
    return cg_store_set_error (store, rc, error);
  *out_labelled = sqlite3_column_int (stmt, 0) != 0;
  return TRUE;
}

/* The pages of a model's site to label: the newest archived copy of each
 * URL under the site that was fetched whole (status 200), by URL id. */
static GArray *
list_site_pages (CgStore      *store,
                 CgSiteModel  *model,
                 GError      **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autoptr(GArray) pages = g_array_new (FALSE, FALSE, sizeof (PageRef));
  const char *site = cg_site_model_get_site (model);
  int rc;

  g_array_set_clear_func (pages, (GDestroyNotify) page_ref_clear);
  stmt = cg_store_prepare (store,
                           "SELECT max(u.id), u.url FROM urls u JOIN fetches f ON f.url_id = u.id "
                           "WHERE f.status = 200 AND f.warc_offset IS NOT NULL "
                           "  AND (f.mime IS NULL OR f.mime LIKE 'text/html%' OR f.mime LIKE 'application/xhtml+xml%') "
                           "GROUP BY u.url ORDER BY 1",
                           error);
  if (stmt == NULL)
    return NULL;
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      const char *url = (const char *) sqlite3_column_text (stmt, 1);
      PageRef ref;

      /* The site is a URL ending in "/": its pages are the URLs under it. */
      if (url == NULL || !g_str_has_prefix (url, site))
        continue;
      ref.url_id = sqlite3_column_int64 (stmt, 0);
      ref.url = g_strdup (url);
      g_array_append_val (pages, ref);
    }
  if (rc != SQLITE_DONE)
    {
      cg_store_set_error (store, rc, error);
      return NULL;
    }
  return g_steal_pointer (&pages);
}

/* Pages labelled in one transaction. */
#define LABEL_BATCH 100

/* Labels the archived pages of the model's site with its classes, as a
 * harvest with the model would: its classifier, given the schemas and
 * fingerprints of each class's samples, classifies the newest copy of
 * each page. For a model no crawl labelled pages for, such as one
 * imported from a file, so that its records can be extracted from what
 * the project already holds. Progress is reported with a NULL class. */
static gboolean
label_pages (CgProject              *project,
             CgSiteModel            *model,
             Archive                *archive,
             GCancellable           *cancellable,
             CgExtractProgressFunc   progress,
             const Skips            *skips,
             gpointer                user_data,
             guint                  *out_labelled,
             GError                **error)
{
  CgStore *store = cg_project_get_store (project);
  GPtrArray *classes = cg_site_model_get_classes (model);
  g_autoptr(CgPageClassifier) classifier = cg_page_classifier_new (model, error);
  g_autoptr(GArray) pages = NULL;
  g_autoptr(GError) local_error = NULL;
  guint labelled = 0;
  gboolean in_transaction = FALSE;

  *out_labelled = 0;
  if (classifier == NULL)
    return FALSE;
  for (guint c = 0; c < classes->len; c++)
    {
      CgPageClass *klass = g_ptr_array_index (classes, c);
      g_autoptr(GPtrArray) docs = g_ptr_array_new_with_free_func (free_doc);
      g_autoptr(GPtrArray) urls = g_ptr_array_new_with_free_func (g_free);

      if (!load_samples (project, model, archive, skips, klass, G_MAXUINT, docs, urls, error) ||
          !cg_page_classifier_learn_samples (classifier, klass->name, docs, urls, error))
        return FALSE;
    }
  pages = list_site_pages (store, model, error);
  if (pages == NULL)
    return FALSE;
  for (guint i = 0; i < pages->len && local_error == NULL; i++)
    {
      const PageRef *page = &g_array_index (pages, PageRef, i);
      CgClassification classification = { NULL, CG_CLASSIFY_NONE, 0 };
      htmlDocPtr doc;

      if (g_cancellable_set_error_if_cancelled (cancellable, &local_error))
        break;
      if (!in_transaction && !(in_transaction = cg_store_begin (store, &local_error)))
        break;
      /* A page that cannot be read is not labelled, and so has no
       * records: extraction, which reads it again, reports it. */
      doc = archive_load_page (archive, page->url_id, page->url, NULL);
      if (doc != NULL &&
          cg_page_classifier_classify (classifier, doc, page->url, NULL, NULL, &classification, NULL) &&
          classification.class_name != NULL &&
          cg_page_classifier_store_label (store, page->url_id, cg_site_model_get_id (model),
                                          classification.class_name, classification.method, &local_error))
        labelled++;
      g_clear_pointer (&doc, xmlFreeDoc);
      if (local_error == NULL && ((i + 1) % LABEL_BATCH == 0 || i + 1 == pages->len))
        {
          in_transaction = FALSE;
          cg_store_commit (store, &local_error);
        }
      if (local_error == NULL && progress != NULL)
        progress (NULL, i + 1, pages->len, 0, user_data);
    }
  /* Labelling is all or nothing: had a stop kept the labels made, the
   * next run would take the model for labelled and extract from part of
   * its pages. The model had none before. */
  if (in_transaction)
    cg_store_rollback (store);
  if (local_error != NULL)
    {
      g_autoptr(sqlite3_stmt) forget = cg_store_prepare (store, "DELETE FROM page_labels WHERE model_id = ?1", NULL);

      if (forget != NULL)
        {
          sqlite3_bind_int64 (forget, 1, cg_site_model_get_id (model));
          cg_store_step_done (store, forget, NULL);
        }
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }
  *out_labelled = labelled;
  return TRUE;
}

/* Records are extracted from the pages labelled with the model's
 * classes. A model no crawl labelled pages for (one imported from a
 * file) labels the site's archived pages first; one that labels none
 * says so, rather than extracting from no page. */
static gboolean
ensure_labelled (CgProject              *project,
                 CgSiteModel            *model,
                 Archive                *archive,
                 GCancellable           *cancellable,
                 CgExtractProgressFunc   progress,
                 const Skips            *skips,
                 gpointer                user_data,
                 GError                **error)
{
  gboolean labelled = FALSE;
  guint n_labelled = 0;

  if (!has_labels (cg_project_get_store (project), model, &labelled, error))
    return FALSE;
  if (labelled)
    return TRUE;
  if (!label_pages (project, model, archive, cancellable, progress, skips, user_data, &n_labelled, error))
    return FALSE;
  if (n_labelled > 0)
    return TRUE;
  g_set_error (error, CG_RECORD_EXTRACTOR_ERROR, CG_RECORD_EXTRACTOR_ERROR_NO_PAGES,
               _("No archived page of %s is like a class of model version %d: crawl or harvest the site "
                 "with this model first"),
               cg_site_model_get_site (model), cg_site_model_get_version (model));
  return FALSE;
}

gboolean
cg_record_extractor_run (CgProject              *project,
                         CgSiteModel            *model,
                         const char             *class_name,
                         GCancellable           *cancellable,
                         CgExtractProgressFunc   progress,
                         CgExtractSkippedFunc    skipped,
                         gpointer                user_data,
                         GError                **error)
{
  GPtrArray *classes = cg_site_model_get_classes (model);
  g_autoptr(GPtrArray) missing = NULL;
  Archive archive = { 0 };
  Skips skips = { skipped, user_data };
  gboolean ok = TRUE;

  if (!check_model (project, model, error))
    return FALSE;
  if (class_name != NULL && get_class (model, class_name, error) == NULL)
    return FALSE;
  /* A run over every class that is cut off (a stop, a quit, a kill)
   * leaves the model's records marked as not all extracted. */
  if (class_name == NULL &&
      !cg_record_store_set_extracted (cg_project_get_store (project), cg_site_model_get_id (model), FALSE, error))
    return FALSE;

  /* Classes without a wrapper are learned first. */
  missing = g_ptr_array_new ();
  for (guint i = 0; i < classes->len; i++)
    {
      CgPageClass *klass = g_ptr_array_index (classes, i);
      g_autoptr(CgStoredWrapper) stored = NULL;
      g_autoptr(GError) local_error = NULL;

      if (class_name != NULL && !g_str_equal (class_name, klass->name))
        continue;
      stored = cg_record_store_load_wrapper (cg_project_get_store (project), cg_site_model_get_id (model),
                                             klass->name, &local_error);
      if (stored != NULL)
        continue;
      if (!g_error_matches (local_error, CG_STORE_ERROR, CG_STORE_ERROR_NOT_FOUND))
        {
          g_propagate_error (error, g_steal_pointer (&local_error));
          return FALSE;
        }
      g_ptr_array_add (missing, klass);
    }
  archive_init (&archive, project);
  if (!ensure_labelled (project, model, &archive, cancellable, progress, &skips, user_data, error) ||
      !learn_classes (project, model, missing, class_name != NULL, cancellable, &skips, error))
    {
      archive_clear (&archive);
      return FALSE;
    }

  for (guint i = 0; i < classes->len && ok; i++)
    {
      CgPageClass *klass = g_ptr_array_index (classes, i);
      g_autoptr(GError) local_error = NULL;

      if (class_name != NULL && !g_str_equal (class_name, klass->name))
        continue;
      ok = extract_class (project, model, &archive, klass->name, cancellable, progress, &skips, user_data, &local_error);
      /* With every class asked for, those that have no wrapper have no
       * records. */
      if (!ok && class_name == NULL &&
          g_error_matches (local_error, CG_RECORD_EXTRACTOR_ERROR, CG_RECORD_EXTRACTOR_ERROR_NO_WRAPPER))
        {
          g_clear_error (&local_error);
          ok = TRUE;
        }
      if (!ok)
        g_propagate_error (error, g_steal_pointer (&local_error));
    }
  archive_clear (&archive);
  if (ok && class_name == NULL)
    ok = cg_record_store_set_extracted (cg_project_get_store (project), cg_site_model_get_id (model), TRUE, error);
  return ok;
}
