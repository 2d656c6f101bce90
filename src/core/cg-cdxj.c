/* cg-cdxj.c: CDXJ indexes of WARC files.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "cg-cdxj.h"
#include "cg-json.h"
#include "cg-url.h"

struct _CgCdxjIndex
{
  GPtrArray *lines;
};

void
cg_cdxj_entry_free (CgCdxjEntry *entry)
{
  if (entry == NULL)
    return;

  g_free (entry->urlkey);
  g_free (entry->timestamp);
  g_free (entry->url);
  g_free (entry->mime);
  g_free (entry->digest);
  g_free (entry->filename);
  g_free (entry);
}

static int
compare_strings_cb (gconstpointer a,
                    gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

/* The CDX key is a SURT massaged for replay lookups (no scheme, no "www",
 * lower case, sorted query), which is not the scope SURT that cg-url
 * writes ("http://(org,example,www,)/"), so it is built here from the URL
 * as cg-url parses and normalises it. */
char *
cg_cdxj_urlkey (const char *url)
{
  g_autoptr(GUri) uri = NULL;
  g_auto(GStrv) labels = NULL;
  g_autoptr(GString) key = g_string_new (NULL);
  g_autofree char *path = NULL;
  const char *query;
  guint n_labels;

  g_return_val_if_fail (url != NULL, NULL);

  uri = cg_url_parse (url, CG_URL_NORMALIZE_SYNTAX | CG_URL_NORMALIZE_STRIP_WWW |
                           CG_URL_NORMALIZE_STRIP_USERINFO, NULL);
  if (uri == NULL)
    return g_strdup (url);

  labels = g_strsplit (g_uri_get_host (uri), ".", -1);
  n_labels = g_strv_length (labels);
  for (guint i = n_labels; i > 0; i--)
    {
      g_string_append (key, labels[i - 1]);
      if (i > 1)
        g_string_append_c (key, ',');
    }
  if (g_uri_get_port (uri) > 0)
    g_string_append_printf (key, ":%d", g_uri_get_port (uri));
  g_string_append_c (key, ')');

  path = g_ascii_strdown (g_uri_get_path (uri), -1);
  g_string_append (key, path[0] != '\0' ? path : "/");

  query = g_uri_get_query (uri);
  if (query != NULL && query[0] != '\0')
    {
      g_autofree char *lower = g_ascii_strdown (query, -1);
      g_auto(GStrv) args = g_strsplit (lower, "&", -1);
      g_autofree char *joined = NULL;

      qsort (args, g_strv_length (args), sizeof (char *), compare_strings_cb);
      joined = g_strjoinv ("&", args);
      g_string_append_c (key, '?');
      g_string_append (key, joined);
    }

  return g_string_free (g_steal_pointer (&key), FALSE);
}

char *
cg_cdxj_path_for_warc (const char *warc_path)
{
  g_return_val_if_fail (warc_path != NULL, NULL);

  if (g_str_has_suffix (warc_path, ".warc.gz"))
    {
      g_autofree char *stem = g_strndup (warc_path, strlen (warc_path) - strlen (".warc.gz"));

      return g_strconcat (stem, ".cdxj", NULL);
    }
  if (g_str_has_suffix (warc_path, ".warc"))
    {
      g_autofree char *stem = g_strndup (warc_path, strlen (warc_path) - strlen (".warc"));

      return g_strconcat (stem, ".cdxj", NULL);
    }
  return g_strconcat (warc_path, ".cdxj", NULL);
}

CgCdxjIndex *
cg_cdxj_index_new (void)
{
  CgCdxjIndex *self = g_new0 (CgCdxjIndex, 1);

  self->lines = g_ptr_array_new_with_free_func (g_free);
  return self;
}

void
cg_cdxj_index_free (CgCdxjIndex *self)
{
  if (self == NULL)
    return;

  g_ptr_array_unref (self->lines);
  g_free (self);
}

guint
cg_cdxj_index_get_n_lines (CgCdxjIndex *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->lines->len;
}

/* Appends ,"@name":"@value" (or the first member, without the comma). */
static void
append_member (GString    *line,
               const char *name,
               const char *value)
{
  if (line->str[line->len - 1] != '{')
    g_string_append_c (line, ',');
  g_string_append_c (line, '"');
  g_string_append (line, name);
  g_string_append (line, "\":");
  cg_json_append_string (line, value);
}

void
cg_cdxj_index_add (CgCdxjIndex *self,
                   const char  *url,
                   const char  *timestamp14,
                   const char  *mime,
                   guint        status,
                   const char  *digest,
                   guint64      length,
                   guint64      offset,
                   const char  *filename)
{
  g_autofree char *urlkey = NULL;
  GString *line;
  char number[32];

  g_return_if_fail (self != NULL);
  g_return_if_fail (url != NULL);
  g_return_if_fail (timestamp14 != NULL);
  g_return_if_fail (filename != NULL);

  urlkey = cg_cdxj_urlkey (url);
  /* A key with a space would split the line wrongly; URLs have none once
   * normalised, but an unparsable one is kept as it is. */
  g_strdelimit (urlkey, " \t\r\n", '+');

  /* The JSON block is written directly: one line per record, and a
   * JsonBuilder tree for each cost more than everything else here. */
  line = g_string_sized_new (strlen (urlkey) + 2 * strlen (url) + 160);
  g_string_append (line, urlkey);
  g_string_append_c (line, ' ');
  g_string_append (line, timestamp14);
  g_string_append (line, " {");
  append_member (line, "url", url);
  /* pywb's indexer says "unk" for a response of no type, and its readers
   * expect the member. */
  append_member (line, "mime", mime != NULL ? mime : "unk");
  if (status != 0)
    {
      g_snprintf (number, sizeof number, "%u", status);
      append_member (line, "status", number);
    }
  if (digest != NULL)
    append_member (line, "digest", digest);
  g_snprintf (number, sizeof number, "%" G_GUINT64_FORMAT, length);
  append_member (line, "length", number);
  g_snprintf (number, sizeof number, "%" G_GUINT64_FORMAT, offset);
  append_member (line, "offset", number);
  append_member (line, "filename", filename);
  g_string_append_c (line, '}');
  g_ptr_array_add (self->lines, g_string_free (line, FALSE));
}

void
cg_cdxj_timestamp14_of_date (const char *date,
                             char        out[15])
{
  gsize n = 0;

  for (const char *p = date; *p != '\0' && n < 14; p++)
    if (g_ascii_isdigit (*p))
      out[n++] = *p;
  out[n] = '\0';
}

char *
cg_cdxj_mime_of_content_type (const char *content_type)
{
  const char *start;
  const char *end;

  if (content_type == NULL)
    return NULL;
  start = content_type;
  end = strchr (content_type, ';');
  if (end == NULL)
    end = content_type + strlen (content_type);
  while (start < end && g_ascii_isspace (*start))
    start++;
  while (end > start && g_ascii_isspace (end[-1]))
    end--;
  if (start == end)
    return NULL;
  return g_ascii_strdown (start, end - start);
}

gboolean
cg_cdxj_index_add_record (CgCdxjIndex   *self,
                          CgWarcRecord  *record,
                          const char    *filename,
                          GError       **error)
{
  CgWarcRecordType type;
  g_autoptr(CgWarcHttpMessage) http = NULL;
  g_autofree char *mime = NULL;
  const char *digest;
  const char *url;
  guint status = 0;
  char timestamp[15];

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (record != NULL, FALSE);
  g_return_val_if_fail (filename != NULL, FALSE);

  type = cg_warc_record_get_record_type (record);
  if (type != CG_WARC_RECORD_RESPONSE && type != CG_WARC_RECORD_REVISIT &&
      type != CG_WARC_RECORD_RESOURCE)
    return TRUE;

  url = cg_warc_record_get_target_uri (record);
  if (url == NULL)
    {
      g_autofree char *offset = g_strdup_printf ("%" G_GUINT64_FORMAT,
                                                 cg_warc_record_get_offset (record));

      g_set_error (error, CG_WARC_ERROR, CG_WARC_ERROR_BAD_HEADER,
                   _("The %s record at offset %s of “%s” has no WARC-Target-URI"),
                   cg_warc_record_get_type_name (record), offset, filename);
      return FALSE;
    }

  if (type == CG_WARC_RECORD_RESOURCE)
    mime = cg_cdxj_mime_of_content_type (cg_warc_record_get_header (record, "Content-Type"));
  else if (cg_warc_record_get_content_length (record) > 0)
    {
      /* A response whose HTTP message does not parse is still indexed, as
       * replay tools do, only without status and type. */
      http = cg_warc_record_parse_http (record, NULL);
      if (http != NULL && !http->is_request)
        {
          status = http->status;
          if (type == CG_WARC_RECORD_RESPONSE)
            mime = cg_cdxj_mime_of_content_type (soup_message_headers_get_one (http->headers, "Content-Type"));
        }
    }
  if (type == CG_WARC_RECORD_REVISIT)
    mime = g_strdup ("warc/revisit");

  digest = cg_warc_record_get_header (record, "WARC-Payload-Digest");
  if (digest != NULL && strchr (digest, ':') != NULL)
    digest = strchr (digest, ':') + 1;

  cg_cdxj_timestamp14_of_date (cg_warc_record_get_date_string (record), timestamp);
  cg_cdxj_index_add (self, url, timestamp, mime, status, digest,
                     cg_warc_record_get_length (record), cg_warc_record_get_offset (record),
                     filename);
  return TRUE;
}

gboolean
cg_cdxj_index_write (CgCdxjIndex  *self,
                     const char   *path,
                     GError      **error)
{
  g_autoptr(GString) contents = NULL;
  gsize size = 0;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  /* Sized once: a crawl's index is megabytes, and growing the buffer by
   * doubling copied it over and over at the end of the crawl, when the
   * crawl waits for it. */
  for (guint i = 0; i < self->lines->len; i++)
    size += strlen (g_ptr_array_index (self->lines, i)) + 1;
  contents = g_string_sized_new (size);

  g_ptr_array_sort (self->lines, compare_strings_cb);
  for (guint i = 0; i < self->lines->len; i++)
    {
      g_string_append (contents, g_ptr_array_index (self->lines, i));
      g_string_append_c (contents, '\n');
    }

  return g_file_set_contents_full (path, contents->str, contents->len,
                                   G_FILE_SET_CONTENTS_CONSISTENT | G_FILE_SET_CONTENTS_DURABLE,
                                   0644, error);
}

gboolean
cg_cdxj_index_warc_file (const char  *warc_path,
                         const char  *cdxj_path,
                         GError     **error)
{
  g_autoptr(CgWarcReader) reader = NULL;
  g_autoptr(CgCdxjIndex) index = NULL;
  g_autofree char *filename = NULL;
  GError *local_error = NULL;

  g_return_val_if_fail (warc_path != NULL, FALSE);
  g_return_val_if_fail (cdxj_path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  reader = cg_warc_reader_new (warc_path, error);
  if (reader == NULL)
    return FALSE;

  filename = g_path_get_basename (warc_path);
  index = cg_cdxj_index_new ();
  for (;;)
    {
      g_autoptr(CgWarcRecord) record = cg_warc_reader_next (reader, &local_error);

      if (record == NULL)
        break;
      if (!cg_cdxj_index_add_record (index, record, filename, error))
        return FALSE;
    }
  if (local_error != NULL)
    {
      g_propagate_error (error, local_error);
      return FALSE;
    }

  return cg_cdxj_index_write (index, cdxj_path, error);
}

static gboolean
index_error (GError     **error,
             const char  *line,
             const char  *what)
{
  g_autofree char *shown = g_utf8_make_valid (line, MIN (strlen (line), 200));

  g_set_error (error, CG_WARC_ERROR, CG_WARC_ERROR_BAD_INDEX,
               _("Bad CDXJ line “%s”: %s"), shown, what);
  return FALSE;
}

static gboolean
object_number (JsonObject *object,
               const char *name,
               guint64    *out_value)
{
  JsonNode *node = json_object_get_member (object, name);

  if (node == NULL || JSON_NODE_TYPE (node) != JSON_NODE_VALUE)
    return FALSE;
  if (json_node_get_value_type (node) == G_TYPE_INT64)
    {
      gint64 value = json_node_get_int (node);

      if (value < 0)
        return FALSE;
      *out_value = (guint64) value;
      return TRUE;
    }
  if (json_node_get_value_type (node) == G_TYPE_STRING)
    return g_ascii_string_to_unsigned (json_node_get_string (node), 10, 0, G_MAXUINT64,
                                       out_value, NULL);
  return FALSE;
}

CgCdxjEntry *
cg_cdxj_parse_line (const char  *line,
                    GError     **error)
{
  g_autoptr(CgCdxjEntry) entry = NULL;
  g_autoptr(GError) json_error = NULL;
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *text = NULL;
  const char *first_space;
  const char *second_space;
  JsonObject *object;
  const char *value;
  guint64 number;

  g_return_val_if_fail (line != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  text = g_strdup (line);
  g_strchomp (text);

  first_space = strchr (text, ' ');
  second_space = first_space != NULL ? strchr (first_space + 1, ' ') : NULL;
  if (first_space == NULL || second_space == NULL || first_space == text)
    {
      index_error (error, text, _("it is not “KEY TIMESTAMP {JSON}”"));
      return NULL;
    }

  entry = g_new0 (CgCdxjEntry, 1);
  entry->urlkey = g_strndup (text, first_space - text);
  entry->timestamp = g_strndup (first_space + 1, second_space - first_space - 1);
  if (strlen (entry->timestamp) != 14 ||
      strspn (entry->timestamp, "0123456789") != 14)
    {
      index_error (error, text, _("the timestamp is not 14 digits"));
      return NULL;
    }

  /* An index beside a WARC file may come from another tool. */
  root = cg_json_parse (second_space + 1, -1, &json_error);
  if (root == NULL)
    {
      index_error (error, text, json_error->message);
      return NULL;
    }
  if (!JSON_NODE_HOLDS_OBJECT (root))
    {
      index_error (error, text, _("the JSON part is not an object"));
      return NULL;
    }
  object = json_node_get_object (root);

  value = cg_json_get_string (object, "url");
  if (value == NULL)
    {
      index_error (error, text, _("it has no “url”"));
      return NULL;
    }
  entry->url = g_strdup (value);

  value = cg_json_get_string (object, "filename");
  if (value == NULL)
    {
      index_error (error, text, _("it has no “filename”"));
      return NULL;
    }
  entry->filename = g_strdup (value);

  if (!object_number (object, "offset", &entry->offset) ||
      !object_number (object, "length", &entry->length))
    {
      index_error (error, text, _("it has no valid “offset” and “length”"));
      return NULL;
    }

  entry->mime = g_strdup (cg_json_get_string (object, "mime"));
  entry->digest = g_strdup (cg_json_get_string (object, "digest"));
  if (json_object_has_member (object, "status"))
    {
      if (!object_number (object, "status", &number) || number > 999)
        {
          index_error (error, text, _("its “status” is not an HTTP status"));
          return NULL;
        }
      entry->status = (guint) number;
    }

  return g_steal_pointer (&entry);
}
