/* cg-archive.c: archived HTTP responses, looked up by URL for replay.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <sqlite3.h>

#include "cg-archive.h"
#include "cg-cdxj.h"
#include "cg-project.h"
#include "cg-store.h"
#include "cg-url.h"
#include "cg-warc-reader.h"

/* Readers kept open at once for a project; a crawl rolls its WARC files
 * over by size, so a page and its requisites are mostly in one or two. */
#define MAX_OPEN_READERS 16

typedef struct {
  char    *url;
  char    *timestamp;
  char    *mime;
  char    *digest;
  guint64  offset;
  guint    status;
  gboolean revisit;
} WarcEntry;

struct _CgArchive
{
  GObject       parent_instance;

  GMutex        lock;
  char         *description;

  /* A WARC file. */
  char         *warc_path;
  CgWarcReader *warc_reader;
  GPtrArray    *entries;       /* every indexed record, WarcEntry */
  GHashTable   *by_key;        /* CDX key → latest WarcEntry */
  GHashTable   *by_digest;     /* payload digest → WarcEntry of a response */

  /* A project. */
  char         *folder;
  char         *warc_dir;
  gint64        crawl_id;
  sqlite3      *db;
  GHashTable   *readers;       /* WARC file name → CgWarcReader */
};

G_DEFINE_TYPE (CgArchive, cg_archive, G_TYPE_OBJECT)
G_DEFINE_QUARK (cg-archive-error-quark, cg_archive_error)

void
cg_archive_response_free (CgArchiveResponse *response)
{
  if (response == NULL)
    return;
  g_free (response->url);
  g_free (response->reason);
  g_clear_pointer (&response->headers, soup_message_headers_unref);
  g_clear_pointer (&response->payload, g_bytes_unref);
  g_free (response->date);
  g_free (response);
}

static void
warc_entry_free (WarcEntry *entry)
{
  g_free (entry->url);
  g_free (entry->timestamp);
  g_free (entry->mime);
  g_free (entry->digest);
  g_free (entry);
}

static void
cg_archive_finalize (GObject *object)
{
  CgArchive *self = CG_ARCHIVE (object);

  g_clear_pointer (&self->by_key, g_hash_table_unref);
  g_clear_pointer (&self->entries, g_ptr_array_unref);
  g_clear_pointer (&self->by_digest, g_hash_table_unref);
  g_clear_pointer (&self->readers, g_hash_table_unref);
  g_clear_object (&self->warc_reader);
  if (self->db != NULL)
    sqlite3_close_v2 (self->db);
  g_free (self->description);
  g_free (self->warc_path);
  g_free (self->folder);
  g_free (self->warc_dir);
  g_mutex_clear (&self->lock);

  G_OBJECT_CLASS (cg_archive_parent_class)->finalize (object);
}

static void
cg_archive_class_init (CgArchiveClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = cg_archive_finalize;
}

static void
cg_archive_init (CgArchive *self)
{
  g_mutex_init (&self->lock);
}

const char *
cg_archive_get_description (CgArchive *self)
{
  g_return_val_if_fail (CG_IS_ARCHIVE (self), NULL);
  return self->description;
}

/* --- WARC files ---------------------------------------------------------- */

static gboolean
is_html_mime (const char *mime)
{
  return mime != NULL &&
         (g_ascii_strncasecmp (mime, "text/html", 9) == 0 ||
          g_ascii_strncasecmp (mime, "application/xhtml+xml", 21) == 0);
}

static void
add_cdxj_entry (CgArchive   *self,
                CgCdxjEntry *line)
{
  WarcEntry *entry = g_new0 (WarcEntry, 1);
  WarcEntry *known;

  entry->url = g_steal_pointer (&line->url);
  entry->timestamp = g_steal_pointer (&line->timestamp);
  entry->mime = g_steal_pointer (&line->mime);
  entry->digest = g_steal_pointer (&line->digest);
  entry->offset = line->offset;
  entry->status = line->status;
  entry->revisit = g_strcmp0 (entry->mime, "warc/revisit") == 0;
  g_ptr_array_add (self->entries, entry);

  if (!entry->revisit && entry->digest != NULL &&
      !g_hash_table_contains (self->by_digest, entry->digest))
    g_hash_table_insert (self->by_digest, entry->digest, entry);

  /* The latest capture wins; among captures of the same second, the one
   * written last. */
  known = g_hash_table_lookup (self->by_key, line->urlkey);
  if (known == NULL || strcmp (known->timestamp, entry->timestamp) < 0 ||
      (strcmp (known->timestamp, entry->timestamp) == 0 && known->offset < entry->offset))
    g_hash_table_insert (self->by_key, g_steal_pointer (&line->urlkey), entry);
}

static gboolean
load_cdxj (CgArchive   *self,
           const char  *cdxj_path,
           GError     **error)
{
  g_autoptr(GFile) file = g_file_new_for_path (cdxj_path);
  g_autoptr(GFileInputStream) input = NULL;
  g_autoptr(GDataInputStream) data = NULL;
  g_autoptr(GError) local_error = NULL;
  guint line_number = 0;

  input = g_file_read (file, NULL, &local_error);
  if (input == NULL)
    {
      g_set_error (error, CG_ARCHIVE_ERROR, CG_ARCHIVE_ERROR_BAD_SOURCE,
                   _("Cannot read the index “%s”: %s"), cdxj_path, local_error->message);
      return FALSE;
    }
  data = g_data_input_stream_new (G_INPUT_STREAM (input));
  for (;;)
    {
      g_autofree char *text = NULL;
      g_autoptr(CgCdxjEntry) line = NULL;
      gsize length = 0;

      text = g_data_input_stream_read_line (data, &length, NULL, &local_error);
      if (text == NULL)
        break;
      line_number++;
      if (length == 0)
        continue;
      line = cg_cdxj_parse_line (text, &local_error);
      if (line == NULL)
        {
          g_set_error (error, CG_ARCHIVE_ERROR, CG_ARCHIVE_ERROR_BAD_SOURCE,
                       _("Line %u of the index “%s” is bad: %s"),
                       line_number, cdxj_path, local_error->message);
          return FALSE;
        }
      if (self->entries->len >= CG_ARCHIVE_MAX_WARC_ENTRIES)
        {
          g_set_error (error, CG_ARCHIVE_ERROR, CG_ARCHIVE_ERROR_TOO_LARGE,
                       _("The WARC file “%s” has more than %u records to replay; import it into a project instead"),
                       self->warc_path, (guint) CG_ARCHIVE_MAX_WARC_ENTRIES);
          return FALSE;
        }
      add_cdxj_entry (self, line);
    }
  if (local_error != NULL)
    {
      g_set_error (error, CG_ARCHIVE_ERROR, CG_ARCHIVE_ERROR_BAD_SOURCE,
                   _("Cannot read the index “%s”: %s"), cdxj_path, local_error->message);
      return FALSE;
    }
  return TRUE;
}

static gboolean
index_is_current (const char *warc_path,
                  const char *cdxj_path)
{
  GStatBuf warc_stat, cdxj_stat;

  if (g_stat (warc_path, &warc_stat) != 0 || g_stat (cdxj_path, &cdxj_stat) != 0)
    return FALSE;
  return cdxj_stat.st_mtime >= warc_stat.st_mtime;
}

CgArchive *
cg_archive_new_for_warc (const char  *warc_path,
                         GError     **error)
{
  g_autoptr(CgArchive) self = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autofree char *cdxj_path = NULL;

  g_return_val_if_fail (warc_path != NULL, NULL);

  self = g_object_new (CG_TYPE_ARCHIVE, NULL);
  self->warc_path = g_strdup (warc_path);
  self->description = g_strdup (warc_path);
  self->entries = g_ptr_array_new_with_free_func ((GDestroyNotify) warc_entry_free);
  self->by_key = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->by_digest = g_hash_table_new (g_str_hash, g_str_equal);

  self->warc_reader = cg_warc_reader_new (warc_path, &local_error);
  if (self->warc_reader == NULL)
    {
      g_set_error (error, CG_ARCHIVE_ERROR, CG_ARCHIVE_ERROR_BAD_SOURCE,
                   "%s", local_error->message);
      return NULL;
    }
  cg_warc_reader_set_max_block_size (self->warc_reader,
                                     CG_ARCHIVE_MAX_PAYLOAD_SIZE + CG_WARC_READER_MAX_HTTP_HEADER_SIZE);

  cdxj_path = cg_cdxj_path_for_warc (warc_path);
  if (index_is_current (warc_path, cdxj_path))
    {
      if (!load_cdxj (self, cdxj_path, error))
        return NULL;
    }
  else
    {
      /* The index is built with the same code that writes a crawl's
       * indexes, into a private directory that is removed again: the
       * WARC file's own directory may not be writable, and a file there
       * would surprise its owner. */
      g_autofree char *dir = g_dir_make_tmp ("cartograph-index-XXXXXX", &local_error);
      g_autofree char *tmp_index = NULL;
      gboolean ok;

      if (dir == NULL)
        {
          g_set_error (error, CG_ARCHIVE_ERROR, CG_ARCHIVE_ERROR_BAD_SOURCE,
                       _("Cannot index “%s”: %s"), warc_path, local_error->message);
          return NULL;
        }
      tmp_index = g_build_filename (dir, "index.cdxj", NULL);
      ok = cg_cdxj_index_warc_file (warc_path, tmp_index, &local_error);
      if (ok)
        ok = load_cdxj (self, tmp_index, &local_error);
      g_remove (tmp_index);
      g_rmdir (dir);
      if (!ok)
        {
          if (local_error->domain == CG_ARCHIVE_ERROR)
            g_propagate_error (error, g_steal_pointer (&local_error));
          else
            g_set_error (error, CG_ARCHIVE_ERROR, CG_ARCHIVE_ERROR_BAD_SOURCE,
                         _("Cannot index “%s”: %s"), warc_path, local_error->message);
          return NULL;
        }
    }
  return g_steal_pointer (&self);
}

static WarcEntry *
warc_find (CgArchive  *self,
           const char *url)
{
  g_autofree char *key = cg_cdxj_urlkey (url);

  return g_hash_table_lookup (self->by_key, key);
}

/* --- Projects ------------------------------------------------------------ */

static gboolean
project_sql_error (CgArchive  *self,
                   GError    **error)
{
  g_set_error (error, CG_ARCHIVE_ERROR, CG_ARCHIVE_ERROR_BAD_SOURCE,
               _("Cannot read the archive of the project “%s”: %s"),
               self->folder, sqlite3_errmsg (self->db));
  return FALSE;
}

CgArchive *
cg_archive_new_for_project (const char  *project_folder,
                            gint64       crawl_id,
                            GError     **error)
{
  g_autoptr(CgArchive) self = NULL;
  g_autofree char *db_path = NULL;
  g_autoptr(sqlite3_stmt) stmt = NULL;
  int rc;

  g_return_val_if_fail (project_folder != NULL, NULL);

  self = g_object_new (CG_TYPE_ARCHIVE, NULL);
  self->folder = g_strdup (project_folder);
  self->description = g_strdup (project_folder);
  self->crawl_id = crawl_id;
  self->warc_dir = g_build_filename (project_folder, CG_PROJECT_WARC_DIR, NULL);
  self->readers = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);

  db_path = g_build_filename (project_folder, CG_PROJECT_DATABASE_NAME, NULL);
  if (!g_file_test (project_folder, G_FILE_TEST_EXISTS))
    {
      g_set_error (error, CG_ARCHIVE_ERROR, CG_ARCHIVE_ERROR_BAD_SOURCE,
                   _("The project folder “%s” does not exist"), project_folder);
      return NULL;
    }
  if (!g_file_test (project_folder, G_FILE_TEST_IS_DIR))
    {
      g_set_error (error, CG_ARCHIVE_ERROR, CG_ARCHIVE_ERROR_BAD_SOURCE,
                   _("“%s” is a file, not a project folder"), project_folder);
      return NULL;
    }
  if (!g_file_test (db_path, G_FILE_TEST_IS_REGULAR))
    {
      g_set_error (error, CG_ARCHIVE_ERROR, CG_ARCHIVE_ERROR_BAD_SOURCE,
                   _("“%s” is not a Cartograph project: it has no %s"),
                   project_folder, CG_PROJECT_DATABASE_NAME);
      return NULL;
    }

  /* A read-only connection of its own: replay must never change a
   * project, and it may run while a crawl writes to it (WAL mode lets
   * readers and one writer work at once). */
  rc = sqlite3_open_v2 (db_path, &self->db, SQLITE_OPEN_READONLY | SQLITE_OPEN_FULLMUTEX, NULL);
  if (rc != SQLITE_OK)
    return project_sql_error (self, error), NULL;
  sqlite3_busy_timeout (self->db, 5000);

  rc = sqlite3_prepare_v2 (self->db, "PRAGMA application_id", -1, &stmt, NULL);
  if (rc != SQLITE_OK || sqlite3_step (stmt) != SQLITE_ROW)
    {
      g_set_error (error, CG_ARCHIVE_ERROR, CG_ARCHIVE_ERROR_BAD_SOURCE,
                   _("“%s” is not a Cartograph project: its database cannot be read (%s)"),
                   project_folder, sqlite3_errmsg (self->db));
      return NULL;
    }
  if (sqlite3_column_int (stmt, 0) != CG_STORE_APPLICATION_ID)
    {
      g_set_error (error, CG_ARCHIVE_ERROR, CG_ARCHIVE_ERROR_BAD_SOURCE,
                   _("“%s” is not a Cartograph project: its database belongs to another program"),
                   project_folder);
      return NULL;
    }
  g_clear_pointer (&stmt, sqlite3_finalize);

  /* The schema must have the archive tables (version 2 and later). */
  rc = sqlite3_prepare_v2 (self->db, "SELECT 1 FROM fetches, warc_files LIMIT 0", -1, &stmt, NULL);
  if (rc != SQLITE_OK)
    {
      g_set_error (error, CG_ARCHIVE_ERROR, CG_ARCHIVE_ERROR_BAD_SOURCE,
                   _("The project “%s” has no archive yet (open it once with this version of Cartograph)"),
                   project_folder);
      return NULL;
    }
  g_clear_pointer (&stmt, sqlite3_finalize);

  /* A crawl the project lacks is not one with no page. */
  if (crawl_id != 0)
    {
      rc = sqlite3_prepare_v2 (self->db, "SELECT 1 FROM crawls WHERE id = ?1", -1, &stmt, NULL);
      if (rc == SQLITE_OK)
        {
          sqlite3_bind_int64 (stmt, 1, crawl_id);
          rc = sqlite3_step (stmt);
        }
      if (rc == SQLITE_DONE)
        {
          g_set_error (error, CG_ARCHIVE_ERROR, CG_ARCHIVE_ERROR_BAD_SOURCE,
                       _("The project “%s” has no crawl %" PRId64), project_folder, crawl_id);
          return NULL;
        }
      if (rc != SQLITE_ROW)
        return project_sql_error (self, error), NULL;
    }
  return g_steal_pointer (&self);
}

typedef struct {
  char    *file;
  guint64  offset;
  char    *record_type;
  char    *digest;
} ProjectHit;

static void
project_hit_clear (ProjectHit *hit)
{
  g_clear_pointer (&hit->file, g_free);
  g_clear_pointer (&hit->record_type, g_free);
  g_clear_pointer (&hit->digest, g_free);
}

/* Returns TRUE and fills @hit when @url has a capture; FALSE with @error
 * unset when it has none. */
static gboolean
project_find (CgArchive   *self,
              const char  *url,
              ProjectHit  *hit,
              GError     **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autofree char *normal = cg_url_normalize (url, CG_URL_NORMALIZE_CRAWL, NULL);
  int rc;

  if (normal == NULL)
    return FALSE;
  /* Going through crawls lets SQLite use the (crawl_id, url) index of
   * urls. */
  rc = sqlite3_prepare_v2 (self->db,
                           "SELECT w.name, f.warc_offset, f.record_type, f.payload_digest "
                           "FROM crawls c "
                           "JOIN urls u ON u.crawl_id = c.id AND u.url = ?1 "
                           "JOIN fetches f ON f.url_id = u.id "
                           "JOIN warc_files w ON w.id = f.warc_file_id "
                           "WHERE f.warc_offset IS NOT NULL AND (?2 = 0 OR c.id = ?2) "
                           "ORDER BY f.fetched_at DESC, f.id DESC LIMIT 1",
                           -1, &stmt, NULL);
  if (rc != SQLITE_OK)
    return project_sql_error (self, error);
  sqlite3_bind_text (stmt, 1, normal, -1, SQLITE_STATIC);
  sqlite3_bind_int64 (stmt, 2, self->crawl_id);
  rc = sqlite3_step (stmt);
  if (rc == SQLITE_DONE)
    return FALSE;
  if (rc != SQLITE_ROW)
    return project_sql_error (self, error);
  hit->file = g_strdup ((const char *) sqlite3_column_text (stmt, 0));
  hit->offset = (guint64) sqlite3_column_int64 (stmt, 1);
  hit->record_type = g_strdup ((const char *) sqlite3_column_text (stmt, 2));
  hit->digest = g_strdup ((const char *) sqlite3_column_text (stmt, 3));
  return hit->file != NULL;
}

static gboolean
project_find_original (CgArchive   *self,
                       const char  *digest,
                       ProjectHit  *hit,
                       GError     **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  int rc;

  rc = sqlite3_prepare_v2 (self->db,
                           "SELECT w.name, f.warc_offset FROM fetches f "
                           "JOIN warc_files w ON w.id = f.warc_file_id "
                           "WHERE f.payload_digest = ?1 AND f.record_type = 'response' "
                           "AND f.warc_offset IS NOT NULL LIMIT 1",
                           -1, &stmt, NULL);
  if (rc != SQLITE_OK)
    return project_sql_error (self, error);
  sqlite3_bind_text (stmt, 1, digest, -1, SQLITE_STATIC);
  rc = sqlite3_step (stmt);
  if (rc == SQLITE_DONE)
    return FALSE;
  if (rc != SQLITE_ROW)
    return project_sql_error (self, error);
  hit->file = g_strdup ((const char *) sqlite3_column_text (stmt, 0));
  hit->offset = (guint64) sqlite3_column_int64 (stmt, 1);
  return hit->file != NULL;
}

static CgWarcReader *
project_reader (CgArchive   *self,
                const char  *name,
                GError     **error)
{
  CgWarcReader *reader;
  g_autofree char *path = NULL;
  g_autoptr(GError) local_error = NULL;

  reader = g_hash_table_lookup (self->readers, name);
  if (reader != NULL)
    return reader;

  /* The name comes from the database; a path in it would read a file
   * outside the project. */
  if (strchr (name, '/') != NULL || strcmp (name, "..") == 0 || name[0] == '\0')
    {
      g_set_error (error, CG_ARCHIVE_ERROR, CG_ARCHIVE_ERROR_BAD_SOURCE,
                   _("The project “%s” names a WARC file “%s” that is not in its WARC folder"),
                   self->folder, name);
      return NULL;
    }
  path = g_build_filename (self->warc_dir, name, NULL);
  reader = cg_warc_reader_new (path, &local_error);
  if (reader == NULL)
    {
      g_set_error (error, CG_ARCHIVE_ERROR, CG_ARCHIVE_ERROR_BAD_SOURCE,
                   "%s", local_error->message);
      return NULL;
    }
  cg_warc_reader_set_max_block_size (reader,
                                     CG_ARCHIVE_MAX_PAYLOAD_SIZE + CG_WARC_READER_MAX_HTTP_HEADER_SIZE);
  if (g_hash_table_size (self->readers) >= MAX_OPEN_READERS)
    g_hash_table_remove_all (self->readers);
  g_hash_table_insert (self->readers, g_strdup (name), reader);
  return reader;
}

/* --- Responses ----------------------------------------------------------- */

/* Some tools store chunked payloads as they came off the wire. libsoup
 * decodes chunking only inside its own message I/O and exposes no decoder
 * for a buffer, hence this small one. */
static GBytes *
dechunk (GBytes      *chunked,
         const char  *url,
         GError     **error)
{
  gsize size;
  const char *data = g_bytes_get_data (chunked, &size);
  const char *end = data + size;
  const char *p = data;
  g_autoptr(GByteArray) out = g_byte_array_new ();

  while (p < end)
    {
      const char *eol = g_strstr_len (p, end - p, "\r\n");
      guint64 length;
      char *after = NULL;

      if (eol == NULL)
        break;
      length = g_ascii_strtoull (p, &after, 16);
      if (after == p || length > (guint64) (end - eol - 2))
        {
          g_set_error (error, CG_ARCHIVE_ERROR, CG_ARCHIVE_ERROR_BAD_RECORD,
                       _("The archived response of %s has bad chunked encoding"), url);
          return NULL;
        }
      if (length == 0)
        return g_byte_array_free_to_bytes (g_steal_pointer (&out));
      g_byte_array_append (out, (const guint8 *) eol + 2, (guint) length);
      p = eol + 2 + length;
      if (p + 2 <= end && p[0] == '\r' && p[1] == '\n')
        p += 2;
    }
  /* A payload cut off before its last chunk is replayed as far as it
   * goes, as browsers show a truncated page. */
  return g_byte_array_free_to_bytes (g_steal_pointer (&out));
}

static CgWarcRecord *
read_record (CgArchive     *self,
             CgWarcReader  *reader,
             guint64        offset,
             const char    *url,
             GError       **error)
{
  g_autoptr(GError) local_error = NULL;
  CgWarcRecord *record = cg_warc_reader_read_at (reader, offset, &local_error);

  if (record == NULL)
    {
      g_set_error (error, CG_ARCHIVE_ERROR, CG_ARCHIVE_ERROR_BAD_RECORD,
                   _("Cannot read the archived record of %s: %s"), url, local_error->message);
      return NULL;
    }
  if (cg_warc_record_get_block (record) == NULL)
    {
      g_set_error (error, CG_ARCHIVE_ERROR, CG_ARCHIVE_ERROR_TOO_LARGE,
                   _("The archived response of %s is larger than %s and is not replayed"),
                   url, "64 MiB");
      cg_warc_record_unref (record);
      return NULL;
    }
  return record;
}

static CgArchiveResponse *
response_from_records (CgWarcRecord  *record,
                       CgWarcRecord  *original,
                       const char    *url,
                       GError       **error)
{
  g_autoptr(CgArchiveResponse) response = g_new0 (CgArchiveResponse, 1);
  g_autoptr(CgWarcHttpMessage) http = NULL;
  g_autoptr(CgWarcHttpMessage) original_http = NULL;
  g_autoptr(GError) local_error = NULL;
  CgWarcHttpMessage *payload_from;

  response->url = g_strdup (cg_warc_record_get_target_uri (record));
  response->date = g_strdup (cg_warc_record_get_date_string (record));

  if (cg_warc_record_get_record_type (record) == CG_WARC_RECORD_RESOURCE)
    {
      const char *type = cg_warc_record_get_header (record, "Content-Type");

      response->status = SOUP_STATUS_OK;
      response->reason = g_strdup ("OK");
      response->headers = soup_message_headers_new (SOUP_MESSAGE_HEADERS_RESPONSE);
      if (type != NULL)
        soup_message_headers_replace (response->headers, "Content-Type", type);
      response->payload = g_bytes_ref (cg_warc_record_get_block (record));
      return g_steal_pointer (&response);
    }

  http = cg_warc_record_parse_http (record, original == NULL ? &local_error : NULL);
  if (original != NULL)
    {
      original_http = cg_warc_record_parse_http (original, &local_error);
      if (original_http == NULL)
        {
          g_set_error (error, CG_ARCHIVE_ERROR, CG_ARCHIVE_ERROR_BAD_RECORD,
                       _("The archived response that the revisit of %s refers to is bad: %s"),
                       url, local_error->message);
          return NULL;
        }
    }
  if (http == NULL && original_http == NULL)
    {
      g_set_error (error, CG_ARCHIVE_ERROR, CG_ARCHIVE_ERROR_BAD_RECORD,
                   _("The archived response of %s is bad: %s"), url, local_error->message);
      return NULL;
    }
  /* A revisit keeps its own status and headers when it has them; the
   * payload always comes from the response it refers to. A revisit of a
   * 304 answer (a page found unchanged) is replayed as the response it
   * refers to: a 304 to a browser that never had the page is a page it
   * cannot show. */
  if (http == NULL || http->is_request || http->status == 0 ||
      (http->status == SOUP_STATUS_NOT_MODIFIED && original_http != NULL))
    {
      g_clear_pointer (&http, cg_warc_http_message_free);
      http = g_steal_pointer (&original_http);
    }
  payload_from = original_http != NULL ? original_http : http;
  if (http->is_request || payload_from->is_request)
    {
      g_set_error (error, CG_ARCHIVE_ERROR, CG_ARCHIVE_ERROR_BAD_RECORD,
                   _("The archived record of %s holds a request, not a response"), url);
      return NULL;
    }
  if (payload_from->payload == NULL)
    {
      g_set_error (error, CG_ARCHIVE_ERROR, CG_ARCHIVE_ERROR_TOO_LARGE,
                   _("The archived response of %s is too large to replay"), url);
      return NULL;
    }

  response->status = http->status;
  response->reason = g_strdup (http->reason);
  response->headers = soup_message_headers_ref (http->headers);
  if (payload_from->transfer_chunked)
    {
      response->payload = dechunk (payload_from->payload, url, error);
      if (response->payload == NULL)
        return NULL;
    }
  else
    response->payload = g_bytes_ref (payload_from->payload);
  return g_steal_pointer (&response);
}

static CgArchiveResponse *
lookup_warc (CgArchive   *self,
             const char  *url,
             GError     **error)
{
  WarcEntry *entry = warc_find (self, url);
  g_autoptr(CgWarcRecord) record = NULL;
  g_autoptr(CgWarcRecord) original = NULL;

  if (entry == NULL)
    {
      g_set_error (error, CG_ARCHIVE_ERROR, CG_ARCHIVE_ERROR_NOT_FOUND,
                   _("%s is not in the archive “%s”"), url, self->description);
      return NULL;
    }
  record = read_record (self, self->warc_reader, entry->offset, url, error);
  if (record == NULL)
    return NULL;
  if (entry->revisit)
    {
      WarcEntry *first = entry->digest != NULL ? g_hash_table_lookup (self->by_digest, entry->digest) : NULL;

      if (first == NULL)
        {
          g_set_error (error, CG_ARCHIVE_ERROR, CG_ARCHIVE_ERROR_BAD_RECORD,
                       _("%s was archived as a revisit of a response that is not in “%s”"),
                       url, self->description);
          return NULL;
        }
      original = read_record (self, self->warc_reader, first->offset, url, error);
      if (original == NULL)
        return NULL;
    }
  return response_from_records (record, original, url, error);
}

static CgArchiveResponse *
lookup_project (CgArchive   *self,
                const char  *url,
                GError     **error)
{
  ProjectHit hit = { 0 };
  ProjectHit first = { 0 };
  g_autoptr(CgWarcRecord) record = NULL;
  g_autoptr(CgWarcRecord) original = NULL;
  g_autoptr(GError) local_error = NULL;
  CgWarcReader *reader;
  CgArchiveResponse *response = NULL;

  if (!project_find (self, url, &hit, &local_error))
    {
      if (local_error != NULL)
        g_propagate_error (error, g_steal_pointer (&local_error));
      else
        g_set_error (error, CG_ARCHIVE_ERROR, CG_ARCHIVE_ERROR_NOT_FOUND,
                     _("%s is not in the archive of the project “%s”"), url, self->folder);
      goto out;
    }
  reader = project_reader (self, hit.file, error);
  if (reader == NULL)
    goto out;
  record = read_record (self, reader, hit.offset, url, error);
  if (record == NULL)
    goto out;
  if (g_strcmp0 (hit.record_type, "revisit") == 0)
    {
      if (hit.digest == NULL || !project_find_original (self, hit.digest, &first, &local_error))
        {
          if (local_error != NULL)
            g_propagate_error (error, g_steal_pointer (&local_error));
          else
            g_set_error (error, CG_ARCHIVE_ERROR, CG_ARCHIVE_ERROR_BAD_RECORD,
                         _("%s was archived as a revisit of a response that is not in the project “%s”"),
                         url, self->folder);
          goto out;
        }
      reader = project_reader (self, first.file, error);
      if (reader == NULL)
        goto out;
      original = read_record (self, reader, first.offset, url, error);
      if (original == NULL)
        goto out;
    }
  response = response_from_records (record, original, url, error);

out:
  project_hit_clear (&hit);
  project_hit_clear (&first);
  return response;
}

CgArchiveResponse *
cg_archive_lookup (CgArchive   *self,
                   const char  *url,
                   GError     **error)
{
  g_autoptr(GMutexLocker) locker = NULL;

  g_return_val_if_fail (CG_IS_ARCHIVE (self), NULL);
  g_return_val_if_fail (url != NULL, NULL);

  locker = g_mutex_locker_new (&self->lock);
  if (self->db != NULL)
    return lookup_project (self, url, error);
  return lookup_warc (self, url, error);
}

gboolean
cg_archive_contains (CgArchive  *self,
                     const char *url)
{
  g_autoptr(GMutexLocker) locker = NULL;
  ProjectHit hit = { 0 };
  gboolean found;

  g_return_val_if_fail (CG_IS_ARCHIVE (self), FALSE);
  g_return_val_if_fail (url != NULL, FALSE);

  locker = g_mutex_locker_new (&self->lock);
  if (self->db == NULL)
    return warc_find (self, url) != NULL;
  found = project_find (self, url, &hit, NULL);
  project_hit_clear (&hit);
  return found;
}

static int
compare_offsets_cb (gconstpointer a,
                    gconstpointer b)
{
  const WarcEntry *x = *(const WarcEntry * const *) a;
  const WarcEntry *y = *(const WarcEntry * const *) b;

  return x->offset < y->offset ? -1 : x->offset > y->offset;
}

GStrv
cg_archive_list_pages (CgArchive  *self,
                       guint       max_pages,
                       GError    **error)
{
  g_autoptr(GMutexLocker) locker = NULL;
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

  g_return_val_if_fail (CG_IS_ARCHIVE (self), NULL);

  locker = g_mutex_locker_new (&self->lock);
  if (self->db == NULL)
    {
      g_autoptr(GPtrArray) pages = g_ptr_array_new ();
      GHashTableIter iter;
      gpointer value;

      g_hash_table_iter_init (&iter, self->by_key);
      while (g_hash_table_iter_next (&iter, NULL, &value))
        {
          WarcEntry *entry = value;

          if (entry->status == SOUP_STATUS_OK && is_html_mime (entry->mime))
            g_ptr_array_add (pages, entry);
        }
      g_ptr_array_sort (pages, compare_offsets_cb);
      for (guint i = 0; i < pages->len && (max_pages == 0 || i < max_pages); i++)
        g_strv_builder_add (builder, ((WarcEntry *) pages->pdata[i])->url);
    }
  else
    {
      g_autoptr(sqlite3_stmt) stmt = NULL;
      int rc;

      rc = sqlite3_prepare_v2 (self->db,
                               "SELECT u.url FROM fetches f JOIN urls u ON u.id = f.url_id "
                               "WHERE f.status = 200 AND f.warc_offset IS NOT NULL "
                               "AND (f.mime LIKE 'text/html%' OR f.mime LIKE 'application/xhtml+xml%') "
                               "AND (?1 = 0 OR f.crawl_id = ?1) "
                               "GROUP BY u.url ORDER BY MIN(f.id) LIMIT ?2",
                               -1, &stmt, NULL);
      if (rc != SQLITE_OK)
        return project_sql_error (self, error), NULL;
      sqlite3_bind_int64 (stmt, 1, self->crawl_id);
      sqlite3_bind_int64 (stmt, 2, max_pages == 0 ? -1 : (gint64) max_pages);
      while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
        g_strv_builder_add (builder, (const char *) sqlite3_column_text (stmt, 0));
      if (rc != SQLITE_DONE)
        return project_sql_error (self, error), NULL;
    }
  return g_strv_builder_end (builder);
}
