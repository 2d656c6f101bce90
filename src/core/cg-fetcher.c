/* cg-fetcher.c: the crawler's HTTP fetcher, on libsoup 3.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>
#include <sys/resource.h>

#include "cg-content-decoder.h"
#include "cg-fetcher.h"
#include "cg-format.h"

/* The body is read in pieces of this size, so the body cap is checked
 * after at most this much more data than it allows has arrived. */
#define READ_CHUNK (64 * 1024)

/* At most this many pieces of a body are read in one main loop iteration. */
#define MAX_READS_AT_ONCE 16

/* URLs longer than this are refused before any connection is made;
 * servers commonly reject request lines past 8 KiB anyway. */
#define MAX_URL_LENGTH (32 * 1024)

/* The translation domain libsoup's own messages are in; see
 * is_header_too_big(). */
#define LIBSOUP_GETTEXT_DOMAIN "libsoup-3.0"

/* RFC 6585; libsoup 3.2's SoupStatus has no name for it. */
#define HTTP_STATUS_TOO_MANY_REQUESTS 429

/* ------------------------------------------------------------------ */
/* CgFetchResult                                                       */
/* ------------------------------------------------------------------ */

struct _CgFetchResult
{
  char               *url;
  GError             *error;
  gboolean            has_response;
  guint               status;
  char               *reason;
  const char         *http_version;
  GBytes             *request_block;
  GBytes             *response_block;
  SoupMessageHeaders *response_headers;
  GBytes             *payload;
  gboolean            dechunked;
  CgFetchTruncation   truncated;
  char               *content_encoding;
  GBytes             *decoded;
  GError             *decode_error;
  char               *content_type;
  char               *charset;
  char               *location;
  char               *remote_ip;
  gint64              start_time;
  gint64              duration;
  GArray             *attempts;
};

G_DEFINE_BOXED_TYPE (CgFetchResult, cg_fetch_result, cg_fetch_result_ref, cg_fetch_result_unref)

static void
attempt_clear (gpointer data)
{
  CgFetchAttempt *attempt = data;

  g_clear_error (&attempt->error);
}

static CgFetchResult *
cg_fetch_result_new (const char *url)
{
  CgFetchResult *self = g_atomic_rc_box_new0 (CgFetchResult);

  self->url = g_strdup (url);
  self->attempts = g_array_new (FALSE, TRUE, sizeof (CgFetchAttempt));
  g_array_set_clear_func (self->attempts, attempt_clear);
  return self;
}

static void
cg_fetch_result_clear (CgFetchResult *self)
{
  g_free (self->url);
  g_clear_error (&self->error);
  g_free (self->reason);
  g_clear_pointer (&self->request_block, g_bytes_unref);
  g_clear_pointer (&self->response_block, g_bytes_unref);
  g_clear_pointer (&self->response_headers, soup_message_headers_unref);
  g_clear_pointer (&self->payload, g_bytes_unref);
  g_free (self->content_encoding);
  g_clear_pointer (&self->decoded, g_bytes_unref);
  g_clear_error (&self->decode_error);
  g_free (self->content_type);
  g_free (self->charset);
  g_free (self->location);
  g_free (self->remote_ip);
  g_clear_pointer (&self->attempts, g_array_unref);
}

CgFetchResult *
cg_fetch_result_ref (CgFetchResult *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return g_atomic_rc_box_acquire (self);
}

void
cg_fetch_result_unref (CgFetchResult *self)
{
  g_return_if_fail (self != NULL);

  g_atomic_rc_box_release_full (self, (GDestroyNotify) cg_fetch_result_clear);
}

const char *
cg_fetch_result_get_url (CgFetchResult *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->url;
}

const GError *
cg_fetch_result_get_error (CgFetchResult *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->error;
}

gboolean
cg_fetch_result_propagate_error (CgFetchResult  *self,
                                 GError        **error)
{
  g_return_val_if_fail (self != NULL, FALSE);

  if (self->error == NULL)
    return TRUE;
  if (error != NULL)
    *error = g_error_copy (self->error);
  return FALSE;
}

gboolean
cg_fetch_result_has_response (CgFetchResult *self)
{
  g_return_val_if_fail (self != NULL, FALSE);
  return self->has_response;
}

guint
cg_fetch_result_get_status (CgFetchResult *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->status;
}

const char *
cg_fetch_result_get_reason (CgFetchResult *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->reason;
}

const char *
cg_fetch_result_get_http_version (CgFetchResult *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->http_version;
}

GBytes *
cg_fetch_result_get_request_header_block (CgFetchResult *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->request_block;
}

GBytes *
cg_fetch_result_get_response_header_block (CgFetchResult *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->response_block;
}

SoupMessageHeaders *
cg_fetch_result_get_response_headers (CgFetchResult *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->response_headers;
}

GBytes *
cg_fetch_result_get_payload (CgFetchResult *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->payload;
}

gboolean
cg_fetch_result_get_payload_dechunked (CgFetchResult *self)
{
  g_return_val_if_fail (self != NULL, FALSE);
  return self->dechunked;
}

CgFetchTruncation
cg_fetch_result_get_truncated (CgFetchResult *self)
{
  g_return_val_if_fail (self != NULL, CG_FETCH_TRUNCATED_NONE);
  return self->truncated;
}

const char *
cg_fetch_result_get_content_encoding (CgFetchResult *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->content_encoding;
}

GBytes *
cg_fetch_result_get_decoded_payload (CgFetchResult *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->decoded;
}

const GError *
cg_fetch_result_get_decode_error (CgFetchResult *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->decode_error;
}

const char *
cg_fetch_result_get_content_type (CgFetchResult *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->content_type;
}

const char *
cg_fetch_result_get_charset (CgFetchResult *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->charset;
}

const char *
cg_fetch_result_get_location (CgFetchResult *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->location;
}

static gboolean
status_is_redirect (guint status)
{
  return status == SOUP_STATUS_MOVED_PERMANENTLY ||
         status == SOUP_STATUS_FOUND ||
         status == SOUP_STATUS_SEE_OTHER ||
         status == SOUP_STATUS_TEMPORARY_REDIRECT ||
         status == SOUP_STATUS_PERMANENT_REDIRECT;
}

gboolean
cg_fetch_result_is_redirect (CgFetchResult *self)
{
  g_return_val_if_fail (self != NULL, FALSE);
  return self->has_response && status_is_redirect (self->status) && self->location != NULL;
}

gboolean
cg_fetch_result_is_not_modified (CgFetchResult *self)
{
  g_return_val_if_fail (self != NULL, FALSE);
  return self->has_response && self->status == SOUP_STATUS_NOT_MODIFIED;
}

const char *
cg_fetch_result_get_remote_ip (CgFetchResult *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->remote_ip;
}

gint64
cg_fetch_result_get_start_time (CgFetchResult *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->start_time;
}

gint64
cg_fetch_result_get_duration (CgFetchResult *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->duration;
}

guint
cg_fetch_result_get_n_attempts (CgFetchResult *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->attempts->len;
}

const CgFetchAttempt *
cg_fetch_result_get_attempt (CgFetchResult *self,
                             guint          index)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (index < self->attempts->len, NULL);
  return &g_array_index (self->attempts, CgFetchAttempt, index);
}

const char *
cg_fetch_truncation_to_string (CgFetchTruncation truncation)
{
  switch (truncation)
    {
    case CG_FETCH_TRUNCATED_LENGTH:
      return "length";
    case CG_FETCH_TRUNCATED_TIME:
      return "time";
    case CG_FETCH_TRUNCATED_DISCONNECT:
      return "disconnect";
    case CG_FETCH_TRUNCATED_NONE:
    default:
      return NULL;
    }
}

/* ------------------------------------------------------------------ */
/* CgFetcher                                                           */
/* ------------------------------------------------------------------ */

struct _CgFetcher
{
  GObject          parent_instance;

  CgFetcherConfig  config;
  char            *user_agent;
  char            *contact_url;
  char            *accept_encoding;

  SoupSession     *session;
  GMainContext    *context;
};

G_DEFINE_TYPE (CgFetcher, cg_fetcher, G_TYPE_OBJECT)
G_DEFINE_QUARK (cg-fetcher-error-quark, cg_fetcher_error)

static void
cg_fetcher_dispose (GObject *object)
{
  CgFetcher *self = CG_FETCHER (object);

  if (self->session != NULL)
    soup_session_abort (self->session);
  g_clear_object (&self->session);

  G_OBJECT_CLASS (cg_fetcher_parent_class)->dispose (object);
}

static void
cg_fetcher_finalize (GObject *object)
{
  CgFetcher *self = CG_FETCHER (object);

  g_free (self->user_agent);
  g_free (self->contact_url);
  g_free (self->accept_encoding);
  g_clear_pointer (&self->context, g_main_context_unref);

  G_OBJECT_CLASS (cg_fetcher_parent_class)->finalize (object);
}

static void
cg_fetcher_class_init (CgFetcherClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = cg_fetcher_dispose;
  object_class->finalize = cg_fetcher_finalize;
}

static void
cg_fetcher_init (CgFetcher *self)
{
}

void
cg_fetcher_config_init (CgFetcherConfig *config)
{
  g_return_if_fail (config != NULL);

  memset (config, 0, sizeof *config);
  config->connect_timeout = CG_FETCHER_DEFAULT_CONNECT_TIMEOUT;
  config->io_timeout = CG_FETCHER_DEFAULT_IO_TIMEOUT;
  config->idle_timeout = CG_FETCHER_DEFAULT_IDLE_TIMEOUT;
  config->total_timeout = CG_FETCHER_DEFAULT_TOTAL_TIMEOUT;
  config->max_body_size = CG_FETCHER_DEFAULT_MAX_BODY_SIZE;
  config->max_decoded_size = CG_FETCHER_DEFAULT_MAX_DECODED_SIZE;
  config->max_header_size = CG_FETCHER_DEFAULT_MAX_HEADER_SIZE;
  config->max_conns = CG_FETCHER_DEFAULT_MAX_CONNS;
  config->max_conns_per_host = CG_FETCHER_DEFAULT_MAX_CONNS_PER_HOST;
  config->max_attempts = CG_FETCHER_DEFAULT_MAX_ATTEMPTS;
  config->retry_base_delay_ms = CG_FETCHER_DEFAULT_RETRY_BASE_DELAY_MS;
  config->retry_max_delay_ms = CG_FETCHER_DEFAULT_RETRY_MAX_DELAY_MS;
  config->max_retry_after = CG_FETCHER_DEFAULT_MAX_RETRY_AFTER;
}

char *
cg_fetcher_build_user_agent (const char *contact_url)
{
  if (contact_url == NULL || *contact_url == '\0')
    return g_strdup ("Cartograph/" PACKAGE_VERSION);

  return g_strdup_printf ("Cartograph/%s (+%s)", PACKAGE_VERSION, contact_url);
}

static gboolean
has_line_break (const char *value)
{
  return value != NULL && strpbrk (value, "\r\n") != NULL;
}

/**
 * cg_fetcher_check_identity:
 * @user_agent: (nullable): the whole User-Agent value, or NULL for the default
 * @contact_url: (nullable): the contact page put in the default User-Agent
 *
 * Checks how a crawl names itself to servers, so that settings can be
 * refused before a crawl that would fail with them is recorded.
 */
gboolean
cg_fetcher_check_identity (const char  *user_agent,
                           const char  *contact_url,
                           GError     **error)
{
  if (user_agent != NULL &&
      (*user_agent == '\0' || has_line_break (user_agent) || !g_utf8_validate (user_agent, -1, NULL)))
    {
      g_autofree char *shown = g_utf8_make_valid (user_agent, -1);

      g_set_error (error, CG_FETCHER_ERROR, CG_FETCHER_ERROR_INVALID_ARGUMENT,
                   _("The User-Agent “%s” is empty, contains a line break or is not UTF-8 text"),
                   shown);
      return FALSE;
    }

  if (contact_url != NULL && *contact_url != '\0')
    {
      g_autoptr(GUri) uri = g_uri_parse (contact_url, G_URI_FLAGS_NONE, NULL);
      const char *scheme = uri != NULL ? g_uri_get_scheme (uri) : NULL;

      if (uri == NULL || has_line_break (contact_url) || !g_utf8_validate (contact_url, -1, NULL) ||
          (g_ascii_strcasecmp (scheme, "http") != 0 &&
           g_ascii_strcasecmp (scheme, "https") != 0 &&
           g_ascii_strcasecmp (scheme, "mailto") != 0))
        {
          g_autofree char *shown = g_utf8_make_valid (contact_url, -1);

          g_set_error (error, CG_FETCHER_ERROR, CG_FETCHER_ERROR_INVALID_ARGUMENT,
                       _("The contact address “%s” is not an http, https or mailto URL"),
                       shown);
          return FALSE;
        }
    }
  return TRUE;
}

static gboolean
validate_config (const CgFetcherConfig  *config,
                 GError                **error)
{
  struct {
    const char *name;
    gsize       value;
  } limits[] = {
    { "max-body-size", config->max_body_size },
    { "max-decoded-size", config->max_decoded_size },
    { "max-header-size", config->max_header_size },
    { "max-conns", config->max_conns },
    { "max-conns-per-host", config->max_conns_per_host },
    { "max-attempts", config->max_attempts },
  };

  for (guint i = 0; i < G_N_ELEMENTS (limits); i++)
    {
      if (limits[i].value == 0)
        {
          g_set_error (error, CG_FETCHER_ERROR, CG_FETCHER_ERROR_INVALID_ARGUMENT,
                       _("The fetcher setting %s must be at least 1"), limits[i].name);
          return FALSE;
        }
    }

  if (!cg_fetcher_check_identity (config->user_agent, config->contact_url, error))
    return FALSE;

  if (has_line_break (config->accept_encoding))
    {
      g_set_error (error, CG_FETCHER_ERROR, CG_FETCHER_ERROR_INVALID_ARGUMENT,
                   _("The Accept-Encoding value “%s” contains a line break"),
                   config->accept_encoding);
      return FALSE;
    }

  return TRUE;
}

/* Seed 002 (§3.8) saw its crawl die of "too many open files": each open
 * connection is a descriptor, so a cap above the process's limit turns
 * into connect errors instead of waits. Half of the limit is left to the
 * connections; the rest is for the WARC files, the database and GLib. */
static guint
clamp_to_open_file_limit (guint max_conns)
{
  struct rlimit limit;

  if (getrlimit (RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY)
    return max_conns;

  if ((rlim_t) max_conns > limit.rlim_cur / 2)
    {
      guint clamped = MAX (1, (guint) (limit.rlim_cur / 2));

      g_debug ("Open connections capped at %u instead of %u: the open-file limit is %lu",
               clamped, max_conns, (unsigned long) limit.rlim_cur);
      return clamped;
    }

  return max_conns;
}

CgFetcher *
cg_fetcher_new (const CgFetcherConfig  *config,
                GError                **error)
{
  g_autoptr(CgFetcher) self = NULL;
  CgFetcherConfig defaults;

  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (config == NULL)
    {
      cg_fetcher_config_init (&defaults);
      config = &defaults;
    }

  if (!validate_config (config, error))
    return NULL;

  self = g_object_new (CG_TYPE_FETCHER, NULL);
  self->config = *config;

  self->contact_url = g_strdup (config->contact_url);
  self->user_agent = config->user_agent != NULL
    ? g_strdup (config->user_agent)
    : cg_fetcher_build_user_agent (config->contact_url);
  self->accept_encoding = g_strdup (config->accept_encoding != NULL
                                    ? config->accept_encoding
                                    : CG_FETCHER_DEFAULT_ACCEPT_ENCODING);
  self->config.contact_url = self->contact_url;
  self->config.user_agent = self->user_agent;
  self->config.accept_encoding = self->accept_encoding;
  self->config.max_conns = clamp_to_open_file_limit (config->max_conns);

  self->context = g_main_context_ref_thread_default ();

  /* libsoup appends its own product token to a User-Agent that ends in a
   * space; validate_config() and the builder never produce one. */
  self->session = soup_session_new_with_options ("max-conns", self->config.max_conns,
                                                 "max-conns-per-host", self->config.max_conns_per_host,
                                                 "timeout", self->config.io_timeout,
                                                 "idle-timeout", self->config.idle_timeout,
                                                 "user-agent", self->user_agent,
                                                 NULL);

  /* The archive needs the bytes as the server sent them, so libsoup must
   * not undo content codings; it also stops libsoup from sending its own
   * Accept-Encoding, which the fetch sets instead. */
  soup_session_remove_feature_by_type (self->session, SOUP_TYPE_CONTENT_DECODER);
  /* A crawl has no credentials to answer a 401 or 407 with, which is
   * archived as it came; the manager hooked its handlers to every message
   * all the same. */
  soup_session_remove_feature_by_type (self->session, SOUP_TYPE_AUTH_MANAGER);

  if (config->cookies)
    {
      g_autoptr(SoupCookieJar) jar = soup_cookie_jar_new ();

      /* Every fetch of a crawl is a top-level navigation of its own, so
       * there are no third parties to refuse. */
      soup_cookie_jar_set_accept_policy (jar, SOUP_COOKIE_JAR_ACCEPT_ALWAYS);
      soup_session_add_feature (self->session, SOUP_SESSION_FEATURE (jar));
    }

  return g_steal_pointer (&self);
}

const CgFetcherConfig *
cg_fetcher_get_config (CgFetcher *self)
{
  g_return_val_if_fail (CG_IS_FETCHER (self), NULL);
  return &self->config;
}

/* ------------------------------------------------------------------ */
/* One fetch                                                           */
/* ------------------------------------------------------------------ */

typedef struct {
  GTask         *task;               /* owns this data */
  CgFetcher     *fetcher;            /* owned by the task */
  char          *url;
  GUri          *uri;
  char          *if_none_match;
  char          *if_modified_since;
  char          *referer;
  guint          max_attempts;
  GCancellable  *cancellable;        /* the caller's; may be NULL */
  GArray        *attempts;

  /* The attempt in progress. */
  CgFetchResult *result;
  SoupMessage   *msg;
  GCancellable  *attempt_cancellable;
  gulong         cancelled_id;
  GSource       *total_timer;
  GSource       *connect_timer;
  gboolean       total_timed_out;
  gboolean       connect_timed_out;
  GInputStream  *body;
  GSource       *body_source;        /* waits for more of the body */
  GByteArray    *buffer;
  guint8        *scratch;            /* READ_CHUNK bytes, for a body of unknown length */
  gint64         expected_length;    /* Content-Length, or -1 */
  gint64         start_real;
  gint64         start_monotonic;

  /* Between attempts. */
  GSource       *retry_timer;
  GSource       *retry_cancelled;
} FetchData;

static void
clear_source (GSource **source)
{
  if (*source != NULL)
    {
      g_source_destroy (*source);
      g_source_unref (*source);
      *source = NULL;
    }
}

static void
end_attempt_io (FetchData *fd)
{
  clear_source (&fd->total_timer);
  clear_source (&fd->connect_timer);

  if (fd->cancelled_id != 0)
    {
      g_cancellable_disconnect (fd->cancellable, fd->cancelled_id);
      fd->cancelled_id = 0;
    }

  if (fd->msg != NULL)
    {
      /* libsoup may hold the message a little longer than the attempt
       * lasts; its signals must not reach a finished fetch. */
      g_signal_handlers_disconnect_by_data (fd->msg, fd->task);
      g_clear_object (&fd->msg);
    }

  clear_source (&fd->body_source);
  g_clear_object (&fd->body);
  g_clear_object (&fd->attempt_cancellable);
  g_clear_pointer (&fd->buffer, g_byte_array_unref);
  g_clear_pointer (&fd->scratch, g_free);
}

static void
fetch_data_free (FetchData *fd)
{
  end_attempt_io (fd);
  clear_source (&fd->retry_timer);
  clear_source (&fd->retry_cancelled);
  g_free (fd->url);
  g_clear_pointer (&fd->uri, g_uri_unref);
  g_free (fd->if_none_match);
  g_free (fd->if_modified_since);
  g_free (fd->referer);
  g_clear_object (&fd->cancellable);
  g_clear_pointer (&fd->attempts, g_array_unref);
  g_clear_pointer (&fd->result, cg_fetch_result_unref);
  g_free (fd);
}

static GSource *
attach_timeout (FetchData   *fd,
                guint        milliseconds,
                GSourceFunc  func,
                GTask       *task)
{
  GSource *source = g_timeout_source_new (milliseconds);

  /* Between attempts nothing else keeps the task alive. Every timer is
   * destroyed when it fires or when its attempt ends, so this reference
   * never outlives the fetch. */
  g_source_set_callback (source, func, g_object_ref (task), g_object_unref);
  g_source_attach (source, fd->fetcher->context);
  return source;
}

static const char *
http_version_string (SoupHTTPVersion version)
{
  switch (version)
    {
    case SOUP_HTTP_1_0:
      return "HTTP/1.0";
    case SOUP_HTTP_2_0:
      return "HTTP/2";
    case SOUP_HTTP_1_1:
    default:
      return "HTTP/1.1";
    }
}

/* The version written in a header block: HTTP/2 has no text form, so its
 * blocks take the HTTP/1.1 one (see the header). */
static const char *
block_version_string (SoupHTTPVersion version)
{
  return version == SOUP_HTTP_1_0 ? "HTTP/1.0" : "HTTP/1.1";
}

static void
append_headers (GString            *block,
                SoupMessageHeaders *headers)
{
  SoupMessageHeadersIter iter;
  const char *name, *value;

  /* Without printf: every fetch builds two blocks of a dozen lines. */
  soup_message_headers_iter_init (&iter, headers);
  while (soup_message_headers_iter_next (&iter, &name, &value))
    {
      g_string_append (block, name);
      g_string_append_len (block, ": ", 2);
      g_string_append (block, value);
      g_string_append_len (block, "\r\n", 2);
    }
  g_string_append_len (block, "\r\n", 2);
}

/* Rebuilds the request the way libsoup's HTTP/1 writer builds it: the
 * method, the path and query of the message's URI, the version, then the
 * request headers in iteration order. */
static GBytes *
build_request_block (SoupMessage *msg)
{
  GUri *uri = soup_message_get_uri (msg);
  GString *block = g_string_sized_new (512);
  const char *path = g_uri_get_path (uri);
  const char *query = g_uri_get_query (uri);

  /* The URI was parsed with its path and query kept encoded
   * (SOUP_HTTP_URI_FLAGS), so they go into the request line as they are,
   * as g_uri_join() would put them, without its general work for every
   * page. */
  g_string_append (block, soup_message_get_method (msg));
  g_string_append_c (block, ' ');
  g_string_append (block, *path != '\0' ? path : "/");
  if (query != NULL)
    {
      g_string_append_c (block, '?');
      g_string_append (block, query);
    }
  g_string_append_c (block, ' ');
  g_string_append (block, block_version_string (soup_message_get_http_version (msg)));
  g_string_append_len (block, "\r\n", 2);
  append_headers (block, soup_message_get_request_headers (msg));
  return g_string_free_to_bytes (block);
}

static GBytes *
build_response_block (SoupMessage *msg)
{
  SoupHTTPVersion version = soup_message_get_http_version (msg);
  guint status = soup_message_get_status (msg);
  const char *reason = soup_message_get_reason_phrase (msg);
  GString *block = g_string_sized_new (512);

  if (version == SOUP_HTTP_2_0 || reason == NULL)
    reason = soup_status_get_phrase (status);

  g_string_append (block, block_version_string (version));
  g_string_append_c (block, ' ');
  cg_format_append_decimal (block, status, 0, ' ');
  g_string_append_c (block, ' ');
  if (reason != NULL)
    g_string_append (block, reason);
  g_string_append_len (block, "\r\n", 2);
  append_headers (block, soup_message_get_response_headers (msg));
  return g_string_free_to_bytes (block);
}

static char *
remote_ip_of (SoupMessage *msg)
{
  GSocketAddress *address = soup_message_get_remote_address (msg);

  if (address == NULL || !G_IS_INET_SOCKET_ADDRESS (address))
    return NULL;

  return g_inet_address_to_string (g_inet_socket_address_get_address (G_INET_SOCKET_ADDRESS (address)));
}

static void
capture_remote_ip (FetchData *fd)
{
  if (fd->result->remote_ip == NULL)
    fd->result->remote_ip = remote_ip_of (fd->msg);
}

static gboolean
total_timeout_cb (gpointer user_data)
{
  FetchData *fd = g_task_get_task_data (G_TASK (user_data));

  fd->total_timed_out = TRUE;
  clear_source (&fd->total_timer);
  g_cancellable_cancel (fd->attempt_cancellable);
  return G_SOURCE_REMOVE;
}

static gboolean
connect_timeout_cb (gpointer user_data)
{
  FetchData *fd = g_task_get_task_data (G_TASK (user_data));

  fd->connect_timed_out = TRUE;
  clear_source (&fd->connect_timer);
  g_cancellable_cancel (fd->attempt_cancellable);
  return G_SOURCE_REMOVE;
}

/* The total time starts when the request leaves libsoup's queue, which is
 * either its first network event or, on a reused connection, "starting":
 * time spent waiting at the connection cap must not turn into timeouts
 * (seed 002 wants the cap to cause waits, never errors). */
static void
start_total_timer (GTask *task)
{
  FetchData *fd = g_task_get_task_data (task);
  guint seconds = fd->fetcher->config.total_timeout;

  if (seconds == 0 || fd->total_timer != NULL || fd->total_timed_out)
    return;

  fd->total_timer = attach_timeout (fd, seconds * 1000, total_timeout_cb, task);
}

static void
msg_starting_cb (SoupMessage *msg,
                 GTask       *task)
{
  start_total_timer (task);
}

static void
msg_network_event_cb (SoupMessage        *msg,
                      GSocketClientEvent  event,
                      GIOStream          *connection,
                      GTask              *task)
{
  FetchData *fd = g_task_get_task_data (task);
  guint seconds = fd->fetcher->config.connect_timeout;

  start_total_timer (task);

  /* libsoup 3.2 has no connect timeout of its own (its I/O timeout
   * restarts with every step), so it is timed from the first event of a
   * new connection to the last. */
  if (event == G_SOCKET_CLIENT_COMPLETE)
    clear_source (&fd->connect_timer);
  else if (seconds > 0 && fd->connect_timer == NULL && !fd->connect_timed_out)
    fd->connect_timer = attach_timeout (fd, seconds * 1000, connect_timeout_cb, task);
}

static void
msg_wrote_headers_cb (SoupMessage *msg,
                      GTask       *task)
{
  FetchData *fd = g_task_get_task_data (task);

  /* Only now are the headers final: the session adds Host, User-Agent,
   * Connection and the cookies just before writing. */
  g_clear_pointer (&fd->result->request_block, g_bytes_unref);
  fd->result->request_block = build_request_block (msg);
  capture_remote_ip (fd);
}

static void
caller_cancelled_cb (GCancellable *cancellable,
                     GCancellable *attempt_cancellable)
{
  /* This may run in another thread; cancelling is thread-safe, and the
   * attempt notices in its own context. */
  g_cancellable_cancel (attempt_cancellable);
}

static gboolean
is_header_too_big (const GError *error)
{
  /* libsoup 3.2 reports an oversized header block as a bare
   * G_IO_ERROR_PARTIAL_INPUT, the same code as a connection closed
   * mid-headers, and tells them apart only by its message. Comparing with
   * the message translated in libsoup's own domain gives the same text
   * libsoup produced, in any locale. */
  return g_error_matches (error, G_IO_ERROR, G_IO_ERROR_PARTIAL_INPUT) &&
         (strcmp (error->message, g_dgettext (LIBSOUP_GETTEXT_DOMAIN, "Header too big")) == 0 ||
          strcmp (error->message, "Header too big") == 0);
}

/* Turns what libsoup or GIO reported into a CgFetcherError naming the URL,
 * and says whether another attempt could do better. */
static GError *
classify_error (FetchData    *fd,
                const GError *error,
                gboolean     *retryable)
{
  const CgFetcherConfig *config = &fd->fetcher->config;

  *retryable = FALSE;

  if (fd->connect_timed_out)
    {
      *retryable = TRUE;
      return g_error_new (CG_FETCHER_ERROR, CG_FETCHER_ERROR_TIMEOUT,
                          _("Connecting for %s took longer than %u s"),
                          fd->url, config->connect_timeout);
    }

  if (fd->total_timed_out)
    {
      *retryable = TRUE;
      return g_error_new (CG_FETCHER_ERROR, CG_FETCHER_ERROR_TIMEOUT,
                          _("Fetching %s took longer than %u s"),
                          fd->url, config->total_timeout);
    }

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return g_error_new (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                        _("The fetch of %s was cancelled"), fd->url);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT))
    {
      *retryable = TRUE;
      return g_error_new (CG_FETCHER_ERROR, CG_FETCHER_ERROR_TIMEOUT,
                          _("The server of %s sent nothing for %u s"),
                          fd->url, config->io_timeout);
    }

  if (is_header_too_big (error))
    {
      g_autofree char *limit = g_format_size_full (CG_FETCHER_LIBSOUP_HEADER_LIMIT,
                                                   G_FORMAT_SIZE_IEC_UNITS);

      return g_error_new (CG_FETCHER_ERROR, CG_FETCHER_ERROR_HEADERS_TOO_LARGE,
                          _("The response headers of %s are larger than %s"),
                          fd->url, limit);
    }

  if (error->domain == G_RESOLVER_ERROR)
    {
      *retryable = g_error_matches (error, G_RESOLVER_ERROR, G_RESOLVER_ERROR_TEMPORARY_FAILURE);
      return g_error_new (CG_FETCHER_ERROR, CG_FETCHER_ERROR_DNS,
                          _("Could not resolve the host of %s: %s"),
                          fd->url, error->message);
    }

  if (error->domain == G_TLS_ERROR)
    return g_error_new (CG_FETCHER_ERROR, CG_FETCHER_ERROR_TLS,
                        _("The secure connection for %s failed: %s"),
                        fd->url, error->message);

  if (error->domain == SOUP_SESSION_ERROR)
    return g_error_new (CG_FETCHER_ERROR, CG_FETCHER_ERROR_BAD_RESPONSE,
                        _("The response for %s is not valid HTTP: %s"),
                        fd->url, error->message);

  *retryable = error->domain == G_IO_ERROR;
  /* Told apart for the crawl log, where Heritrix's -2 is a connection
   * never made and -3 one that broke. */
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CONNECTION_REFUSED) ||
      g_error_matches (error, G_IO_ERROR, G_IO_ERROR_HOST_UNREACHABLE) ||
      g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NETWORK_UNREACHABLE))
    return g_error_new (CG_FETCHER_ERROR, CG_FETCHER_ERROR_CONNECT,
                        _("Could not connect to the host of %s: %s"),
                        fd->url, error->message);
  return g_error_new (CG_FETCHER_ERROR, CG_FETCHER_ERROR_CONNECTION,
                      _("The connection for %s failed: %s"),
                      fd->url, error->message);
}

/* The seconds a Retry-After header asks for, or -1 when there is none or
 * it cannot be read. */
static gint64
parse_retry_after (SoupMessageHeaders *headers)
{
  const char *value = soup_message_headers_get_one (headers, "Retry-After");
  g_autoptr(GDateTime) date = NULL;
  g_autoptr(GDateTime) now = NULL;
  guint64 seconds;

  if (value == NULL)
    return -1;

  if (g_ascii_string_to_unsigned (value, 10, 0, G_MAXINT32, &seconds, NULL))
    return (gint64) seconds;

  date = soup_date_time_new_from_http_string (value);
  if (date == NULL)
    return -1;

  now = g_date_time_new_now_utc ();
  return MAX (0, g_date_time_difference (date, now) / G_USEC_PER_SEC);
}

static gint64
backoff_delay (FetchData *fd)
{
  const CgFetcherConfig *config = &fd->fetcher->config;
  /* Called before the attempt ending now is logged, so the first retry
   * waits the base delay. */
  guint shift = MIN (fd->attempts->len, 30u);
  guint64 delay_ms = (guint64) config->retry_base_delay_ms << shift;

  delay_ms = MIN (delay_ms, (guint64) config->retry_max_delay_ms);
  return (gint64) delay_ms * 1000;
}

static void start_attempt (GTask *task);
static void complete_fetch (GTask *task);

static gboolean
retry_timer_cb (gpointer user_data)
{
  GTask *task = user_data;
  FetchData *fd = g_task_get_task_data (task);

  clear_source (&fd->retry_timer);
  clear_source (&fd->retry_cancelled);
  start_attempt (task);
  return G_SOURCE_REMOVE;
}

static gboolean
retry_cancelled_cb (GCancellable *cancellable,
                    gpointer      user_data)
{
  GTask *task = user_data;
  FetchData *fd = g_task_get_task_data (task);

  clear_source (&fd->retry_timer);
  clear_source (&fd->retry_cancelled);

  /* The last response was dropped to retry, so nothing of it is kept. */
  g_clear_pointer (&fd->result, cg_fetch_result_unref);
  fd->result = cg_fetch_result_new (fd->url);
  fd->result->error = g_error_new (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                   _("The fetch of %s was cancelled"), fd->url);
  complete_fetch (task);
  return G_SOURCE_REMOVE;
}

/* Records the attempt just ended in the log and closes its I/O. */
static void
record_attempt (FetchData *fd)
{
  CgFetchAttempt attempt = { 0 };

  attempt.status = fd->result->status;
  attempt.error = fd->result->error != NULL ? g_error_copy (fd->result->error) : NULL;
  attempt.start_time = fd->start_real;
  attempt.duration = g_get_monotonic_time () - fd->start_monotonic;
  g_array_append_val (fd->attempts, attempt);

  fd->result->start_time = attempt.start_time;
  fd->result->duration = attempt.duration;

  end_attempt_io (fd);
}

/* Ends the attempt in progress, then either waits @delay µs and tries
 * again, or (@delay < 0) completes the fetch with this attempt's result. */
static void
end_attempt (GTask  *task,
             gint64  delay)
{
  FetchData *fd = g_task_get_task_data (task);

  record_attempt (fd);

  if (delay < 0)
    {
      complete_fetch (task);
      return;
    }

  g_array_index (fd->attempts, CgFetchAttempt, fd->attempts->len - 1).retry_delay = delay;

  fd->retry_timer = attach_timeout (fd, (guint) MIN (delay / 1000, (gint64) G_MAXUINT),
                                    retry_timer_cb, task);
  if (fd->cancellable != NULL)
    {
      fd->retry_cancelled = g_cancellable_source_new (fd->cancellable);
      g_source_set_callback (fd->retry_cancelled, G_SOURCE_FUNC (retry_cancelled_cb),
                             g_object_ref (task), g_object_unref);
      g_source_attach (fd->retry_cancelled, fd->fetcher->context);
    }
}

/* The delay before another attempt after a failure, or -1 for none. */
static gint64
retry_delay_after_error (FetchData *fd,
                         gboolean   retryable)
{
  /* fd->attempts holds the attempts before the one ending now. */
  if (!retryable || fd->attempts->len + 1 >= fd->max_attempts)
    return -1;
  return backoff_delay (fd);
}

/* Ends the attempt with @error (taken), retrying if it is worth it. */
static void
fail_attempt (GTask  *task,
              GError *error,
              gboolean retryable)
{
  FetchData *fd = g_task_get_task_data (task);

  g_clear_error (&fd->result->error);
  fd->result->error = error;
  end_attempt (task, retry_delay_after_error (fd, retryable));
}

static void
stop_attempt (FetchData *fd)
{
  /* Cancelling makes libsoup close the connection instead of reading the
   * rest of the body to reuse it, which could take as long as the body
   * is big. */
  g_cancellable_cancel (fd->attempt_cancellable);
}

static void
finish_body (GTask             *task,
             CgFetchTruncation  truncated,
             GError            *error,
             gboolean           retryable)
{
  FetchData *fd = g_task_get_task_data (task);
  CgFetchResult *result = fd->result;

  result->truncated = truncated;
  result->payload = g_byte_array_free_to_bytes (g_steal_pointer (&fd->buffer));

  if (error != NULL)
    fail_attempt (task, error, retryable);
  else
    end_attempt (task, -1);
}

/* Ends the body after a failed read: what arrived is kept and marked. */
static void
body_read_failed (GTask        *task,
                  const GError *error)
{
  FetchData *fd = g_task_get_task_data (task);
  gboolean retryable;
  GError *fetch_error;

  /* The total time ran out with the body under way: what arrived is
   * kept and marked, as WARC-Truncated: time. */
  if (fd->total_timed_out)
    {
      finish_body (task, CG_FETCH_TRUNCATED_TIME, NULL, FALSE);
      return;
    }

  fetch_error = classify_error (fd, error, &retryable);
  finish_body (task, CG_FETCH_TRUNCATED_DISCONNECT, fetch_error, retryable);
}

/* Adds @size bytes read to the body, or ends it at its end or at the cap.
 * Returns TRUE when more is to be read. */
static gboolean
body_take (GTask        *task,
           const guint8 *data,
           gsize         size)
{
  FetchData *fd = g_task_get_task_data (task);
  gsize max_body = fd->fetcher->config.max_body_size;

  if (size == 0)
    {
      finish_body (task, CG_FETCH_TRUNCATED_NONE, NULL, FALSE);
      return FALSE;
    }

  if (size > max_body - fd->buffer->len)
    {
      g_byte_array_append (fd->buffer, data, max_body - fd->buffer->len);
      stop_attempt (fd);
      finish_body (task, CG_FETCH_TRUNCATED_LENGTH, NULL, FALSE);
      return FALSE;
    }

  g_byte_array_append (fd->buffer, data, size);
  return TRUE;
}

static void read_next (GTask *task);

static void
read_cb (GObject      *source,
         GAsyncResult *res,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;

  bytes = g_input_stream_read_bytes_finish (G_INPUT_STREAM (source), res, &error);
  if (bytes == NULL)
    {
      body_read_failed (task, error);
      return;
    }
  if (body_take (task, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes)))
    read_next (task);
}

static gboolean
body_ready_cb (GObject  *stream,
               gpointer  user_data)
{
  GTask *task = user_data;
  FetchData *fd = g_task_get_task_data (task);

  /* The source is removed on return; the attempt may end before that. */
  g_clear_pointer (&fd->body_source, g_source_unref);
  read_next (task);
  return G_SOURCE_REMOVE;
}

/* Reads the rest of the body when the stream has more. */
static void
wait_for_body (GTask *task)
{
  FetchData *fd = g_task_get_task_data (task);

  fd->body_source = g_pollable_input_stream_create_source (G_POLLABLE_INPUT_STREAM (fd->body),
                                                           fd->attempt_cancellable);
  g_source_set_callback (fd->body_source, G_SOURCE_FUNC (body_ready_cb), g_object_ref (task), g_object_unref);
  g_source_attach (fd->body_source, fd->fetcher->context);
}

/* Reads what the body stream has without waiting, and waits for the
 * socket only when it has nothing more yet. A small page mostly arrives
 * with its headers, so it is read whole at once: reading it through
 * g_input_stream_read_bytes_async() cost a main loop iteration per piece
 * and one more for its end, the largest share of the crawl thread's
 * wake-ups in the crawl throughput benchmark (tests/bench). */
static void
read_pollable (GTask *task)
{
  FetchData *fd = g_task_get_task_data (task);
  GPollableInputStream *stream = G_POLLABLE_INPUT_STREAM (fd->body);

  for (guint reads = 0;; reads++)
    {
      gsize room = fd->fetcher->config.max_body_size - fd->buffer->len;
      /* One byte past the cap is asked for, so that a body of exactly the
       * cap is not mistaken for a longer one. */
      gsize want = MIN ((gsize) READ_CHUNK, room + 1);
      g_autoptr(GError) error = NULL;
      gboolean into_buffer;
      guint8 *into;
      gsize len = fd->buffer->len;
      gssize n;

      /* A body that keeps coming must not hold the main loop (and the
       * timers of this fetch) for long: after a few pieces, the source,
       * ready at once, lets the loop run between them. */
      if (reads >= MAX_READS_AT_ONCE)
        {
          wait_for_body (task);
          return;
        }

      /* A body of known length is read straight into its buffer, which
       * was sized for it (up to READ_CHUNK); any other through a scratch
       * buffer, so that the payload keeps no chunk's worth of slack. */
      into_buffer = fd->expected_length >= 0 && (guint64) fd->expected_length >= len;
      if (into_buffer)
        {
          want = MIN (want, (gsize) fd->expected_length - len + 1);
          g_byte_array_set_size (fd->buffer, len + want);
          into = fd->buffer->data + len;
        }
      else
        {
          if (fd->scratch == NULL)
            fd->scratch = g_malloc (READ_CHUNK);
          into = fd->scratch;
        }

      n = g_pollable_input_stream_read_nonblocking (stream, into, want, fd->attempt_cancellable, &error);
      if (into_buffer)
        g_byte_array_set_size (fd->buffer, len + MAX (n, 0));

      if (n < 0 && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_WOULD_BLOCK))
        {
          wait_for_body (task);
          return;
        }
      if (n < 0)
        {
          body_read_failed (task, error);
          return;
        }
      if (into_buffer && n > 0)
        {
          /* Already in the buffer: only the cap is checked, which at most
           * the one byte asked for past it can exceed. */
          if (fd->buffer->len > fd->fetcher->config.max_body_size)
            {
              g_byte_array_set_size (fd->buffer, fd->fetcher->config.max_body_size);
              stop_attempt (fd);
              finish_body (task, CG_FETCH_TRUNCATED_LENGTH, NULL, FALSE);
              return;
            }
          continue;
        }
      if (!body_take (task, into, (gsize) n))
        return;
    }
}

static void
read_next (GTask *task)
{
  FetchData *fd = g_task_get_task_data (task);
  gsize room = fd->fetcher->config.max_body_size - fd->buffer->len;

  if (G_IS_POLLABLE_INPUT_STREAM (fd->body) &&
      g_pollable_input_stream_can_poll (G_POLLABLE_INPUT_STREAM (fd->body)))
    {
      read_pollable (task);
      return;
    }

  /* One byte past the cap is asked for, so that a body of exactly the
   * cap is not mistaken for a longer one. */
  g_input_stream_read_bytes_async (fd->body, MIN ((gsize) READ_CHUNK, room + 1),
                                   G_PRIORITY_DEFAULT, fd->attempt_cancellable,
                                   read_cb, g_object_ref (task));
}

static void
capture_response (FetchData *fd)
{
  CgFetchResult *result = fd->result;
  SoupMessage *msg = fd->msg;
  SoupMessageHeaders *headers = soup_message_get_response_headers (msg);
  GHashTable *params = NULL;
  const char *content_type;
  const char *location;
  const char *encoding;

  result->has_response = TRUE;
  result->status = soup_message_get_status (msg);
  result->reason = g_strdup (soup_message_get_reason_phrase (msg));
  result->http_version = http_version_string (soup_message_get_http_version (msg));
  result->response_headers = soup_message_headers_ref (headers);
  result->response_block = build_response_block (msg);
  result->dechunked = soup_message_headers_get_encoding (headers) == SOUP_ENCODING_CHUNKED;
  capture_remote_ip (fd);

  encoding = soup_message_headers_get_list (headers, "Content-Encoding");
  if (encoding != NULL)
    result->content_encoding = g_strdup (encoding);

  content_type = soup_message_headers_get_content_type (headers, &params);
  if (content_type != NULL)
    {
      const char *charset = params != NULL ? g_hash_table_lookup (params, "charset") : NULL;

      result->content_type = g_ascii_strdown (content_type, -1);
      result->charset = g_strdup (charset);
    }
  g_clear_pointer (&params, g_hash_table_unref);

  location = soup_message_headers_get_one (headers, "Location");
  if (location != NULL && status_is_redirect (result->status))
    {
      g_autoptr(GUri) target = g_uri_parse_relative (soup_message_get_uri (msg), location,
                                                     SOUP_HTTP_URI_FLAGS, NULL);

      /* An unusable Location leaves the redirect unfollowable; the header
       * itself is still in the archived block. */
      if (target != NULL)
        result->location = g_uri_to_string_partial (target, G_URI_HIDE_FRAGMENT);
    }
}

static gboolean
status_is_retryable (guint status)
{
  return status == HTTP_STATUS_TOO_MANY_REQUESTS || (status >= 500 && status <= 599);
}

static void
send_cb (GObject      *source,
         GAsyncResult *res,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  FetchData *fd = g_task_get_task_data (task);
  const CgFetcherConfig *config = &fd->fetcher->config;
  g_autoptr(GError) error = NULL;
  GInputStream *stream;
  gsize header_size;

  stream = soup_session_send_finish (SOUP_SESSION (source), res, &error);
  if (stream == NULL)
    {
      gboolean retryable;
      GError *fetch_error = classify_error (fd, error, &retryable);

      fail_attempt (task, fetch_error, retryable);
      return;
    }

  fd->body = stream;
  capture_response (fd);

  header_size = g_bytes_get_size (fd->result->response_block);
  if (header_size > config->max_header_size)
    {
      g_autofree char *limit = g_format_size_full (config->max_header_size, G_FORMAT_SIZE_IEC_UNITS);
      CgFetchResult *result = fd->result;

      stop_attempt (fd);
      /* Nothing of an oversized header block is kept, so none of it can
       * reach the archive or the crawl. */
      result->has_response = FALSE;
      result->status = 0;
      result->http_version = NULL;
      g_clear_pointer (&result->reason, g_free);
      g_clear_pointer (&result->response_block, g_bytes_unref);
      g_clear_pointer (&result->response_headers, soup_message_headers_unref);
      g_clear_pointer (&result->content_type, g_free);
      g_clear_pointer (&result->charset, g_free);
      g_clear_pointer (&result->content_encoding, g_free);
      g_clear_pointer (&result->location, g_free);
      fail_attempt (task,
                    g_error_new (CG_FETCHER_ERROR, CG_FETCHER_ERROR_HEADERS_TOO_LARGE,
                                 _("The response headers of %s are larger than %s"),
                                 fd->url, limit),
                    FALSE);
      return;
    }

  if (status_is_retryable (fd->result->status) && fd->attempts->len + 1 < fd->max_attempts)
    {
      gint64 retry_after = parse_retry_after (soup_message_get_response_headers (fd->msg));
      gint64 delay = backoff_delay (fd);

      /* Waiting less than the server asked would be impolite, and waiting
       * very long holds the crawl; past the bound the response stands and
       * the crawler can come back later. */
      if (retry_after <= (gint64) config->max_retry_after)
        {
          delay = MAX (delay, retry_after * G_USEC_PER_SEC);
          stop_attempt (fd);
          end_attempt (task, delay);
          return;
        }
    }

  {
    SoupMessageHeaders *headers = soup_message_get_response_headers (fd->msg);

    fd->expected_length = soup_message_headers_get_encoding (headers) == SOUP_ENCODING_CONTENT_LENGTH
                            ? soup_message_headers_get_content_length (headers) : -1;
    /* Sized for the whole body when its length is known, within reason:
     * a server may announce any length. */
    fd->buffer = g_byte_array_sized_new ((guint) CLAMP (fd->expected_length + 1, 1, READ_CHUNK));
  }
  read_next (task);
}

static gboolean
header_value_ok (const char  *name,
                 const char  *value,
                 GError     **error)
{
  if (value == NULL || !has_line_break (value))
    return TRUE;

  g_set_error (error, CG_FETCHER_ERROR, CG_FETCHER_ERROR_INVALID_ARGUMENT,
               _("The %s value “%s” contains a line break"), name, value);
  return FALSE;
}

static void
start_attempt (GTask *task)
{
  FetchData *fd = g_task_get_task_data (task);
  CgFetcher *self = fd->fetcher;
  SoupMessageHeaders *headers;

  g_clear_pointer (&fd->result, cg_fetch_result_unref);
  fd->result = cg_fetch_result_new (fd->url);
  fd->total_timed_out = FALSE;
  fd->connect_timed_out = FALSE;
  fd->start_real = g_get_real_time ();
  fd->start_monotonic = g_get_monotonic_time ();

  fd->msg = soup_message_new_from_uri (SOUP_METHOD_GET, fd->uri);
  /* Every hop of a redirect is a response of its own to archive. */
  soup_message_add_flags (fd->msg, SOUP_MESSAGE_NO_REDIRECT);

  headers = soup_message_get_request_headers (fd->msg);
  if (*self->accept_encoding != '\0')
    soup_message_headers_replace (headers, "Accept-Encoding", self->accept_encoding);
  if (fd->if_none_match != NULL)
    soup_message_headers_replace (headers, "If-None-Match", fd->if_none_match);
  if (fd->if_modified_since != NULL)
    soup_message_headers_replace (headers, "If-Modified-Since", fd->if_modified_since);
  if (fd->referer != NULL)
    soup_message_headers_replace (headers, "Referer", fd->referer);

  /* Each fetch is a navigation to its own URL, so SameSite cookies set by
   * the site are sent back as a browser would. */
  soup_message_set_first_party (fd->msg, fd->uri);
  soup_message_set_site_for_cookies (fd->msg, fd->uri);
  soup_message_set_is_top_level_navigation (fd->msg, TRUE);

  g_signal_connect (fd->msg, "starting", G_CALLBACK (msg_starting_cb), task);
  g_signal_connect (fd->msg, "network-event", G_CALLBACK (msg_network_event_cb), task);
  g_signal_connect (fd->msg, "wrote-headers", G_CALLBACK (msg_wrote_headers_cb), task);

  fd->attempt_cancellable = g_cancellable_new ();
  if (fd->cancellable != NULL)
    fd->cancelled_id = g_cancellable_connect (fd->cancellable,
                                              G_CALLBACK (caller_cancelled_cb),
                                              g_object_ref (fd->attempt_cancellable),
                                              g_object_unref);

  soup_session_send_async (self->session, fd->msg, G_PRIORITY_DEFAULT,
                           fd->attempt_cancellable, send_cb, g_object_ref (task));
}

typedef struct {
  char   *content_encoding;
  GBytes *payload;
  gsize   max_size;
  GBytes *decoded;
  GError *error;
} DecodeJob;

static void
decode_job_free (DecodeJob *job)
{
  g_free (job->content_encoding);
  g_clear_pointer (&job->payload, g_bytes_unref);
  g_clear_pointer (&job->decoded, g_bytes_unref);
  g_clear_error (&job->error);
  g_free (job);
}

static void
decode_thread (GTask        *decode_task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  DecodeJob *job = task_data;
  g_autoptr(GBytes) partial = NULL;

  job->decoded = cg_content_decode_header (job->content_encoding, job->payload,
                                           job->max_size, &partial, &job->error);
  if (job->decoded == NULL)
    job->decoded = partial != NULL ? g_steal_pointer (&partial) : g_bytes_new (NULL, 0);
  g_task_return_boolean (decode_task, TRUE);
}

static void
decode_done_cb (GObject      *source,
                GAsyncResult *res,
                gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  FetchData *fd = g_task_get_task_data (task);
  DecodeJob *job = g_task_get_task_data (G_TASK (res));

  fd->result->decoded = g_steal_pointer (&job->decoded);
  if (job->error != NULL)
    {
      fd->result->decode_error = g_steal_pointer (&job->error);
      g_prefix_error (&fd->result->decode_error, _("Decoding %s: "), fd->url);
    }

  g_task_return_pointer (task, g_steal_pointer (&fd->result), (GDestroyNotify) cg_fetch_result_unref);
}

static void
complete_fetch (GTask *task)
{
  FetchData *fd = g_task_get_task_data (task);
  CgFetchResult *result = fd->result;
  GTask *decode_task;
  DecodeJob *job;

  g_array_set_size (result->attempts, 0);
  for (guint i = 0; i < fd->attempts->len; i++)
    {
      CgFetchAttempt copy = g_array_index (fd->attempts, CgFetchAttempt, i);

      copy.error = copy.error != NULL ? g_error_copy (copy.error) : NULL;
      g_array_append_val (result->attempts, copy);
    }

  if (!result->has_response || result->payload == NULL ||
      g_bytes_get_size (result->payload) == 0 ||
      cg_content_coding_from_string (result->content_encoding) == CG_CONTENT_CODING_IDENTITY)
    {
      if (result->payload != NULL)
        result->decoded = g_bytes_ref (result->payload);
      g_task_return_pointer (task, g_steal_pointer (&fd->result), (GDestroyNotify) cg_fetch_result_unref);
      return;
    }

  /* Decompressing up to max_decoded_size can take a while; the caller's
   * context may be the main loop of the window, so it runs in a worker. */
  job = g_new0 (DecodeJob, 1);
  job->content_encoding = g_strdup (result->content_encoding);
  job->payload = g_bytes_ref (result->payload);
  job->max_size = fd->fetcher->config.max_decoded_size;

  decode_task = g_task_new (NULL, NULL, decode_done_cb, g_object_ref (task));
  g_task_set_source_tag (decode_task, complete_fetch);
  g_task_set_task_data (decode_task, job, (GDestroyNotify) decode_job_free);
  g_task_run_in_thread (decode_task, decode_thread);
  g_object_unref (decode_task);
}

/* GUri accepts any reg-name as a host, spaces included, and such a name
 * would go to the resolver as it is. A DNS name is letters, digits,
 * hyphens and dots once IDNA has made it ASCII (underscores occur in real
 * host names, so they are let through). */
static gboolean
host_is_valid (const char *host)
{
  g_autofree char *ascii = NULL;

  if (g_hostname_is_ip_address (host))
    return TRUE;

  ascii = g_hostname_to_ascii (host);
  if (ascii == NULL || *ascii == '\0' || strlen (ascii) > 253)
    return FALSE;

  for (const char *p = ascii; *p != '\0'; p++)
    {
      if (!g_ascii_isalnum (*p) && *p != '-' && *p != '.' && *p != '_')
        return FALSE;
    }

  return TRUE;
}

static GUri *
parse_url (const char  *url,
           GError     **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autoptr(GUri) uri = NULL;
  const char *scheme;
  const char *host;

  if (strlen (url) > MAX_URL_LENGTH)
    {
      g_set_error (error, CG_FETCHER_ERROR, CG_FETCHER_ERROR_INVALID_URL,
                   _("The URL “%.64s…” is longer than %d bytes"), url, MAX_URL_LENGTH);
      return NULL;
    }

  uri = g_uri_parse (url, SOUP_HTTP_URI_FLAGS, &local_error);
  if (uri == NULL)
    {
      g_set_error (error, CG_FETCHER_ERROR, CG_FETCHER_ERROR_INVALID_URL,
                   _("“%s” is not a valid URL: %s"), url, local_error->message);
      return NULL;
    }

  scheme = g_uri_get_scheme (uri);
  if (g_strcmp0 (scheme, "http") != 0 && g_strcmp0 (scheme, "https") != 0)
    {
      g_set_error (error, CG_FETCHER_ERROR, CG_FETCHER_ERROR_UNSUPPORTED_SCHEME,
                   _("“%s” uses the scheme “%s”; only http and https can be fetched"),
                   url, scheme);
      return NULL;
    }

  host = g_uri_get_host (uri);
  if (host == NULL || *host == '\0')
    {
      g_set_error (error, CG_FETCHER_ERROR, CG_FETCHER_ERROR_INVALID_URL,
                   _("“%s” has no host"), url);
      return NULL;
    }

  if (!host_is_valid (host))
    {
      g_set_error (error, CG_FETCHER_ERROR, CG_FETCHER_ERROR_INVALID_URL,
                   _("“%s” has an invalid host “%s”"), url, host);
      return NULL;
    }

  return g_steal_pointer (&uri);
}

void
cg_fetcher_fetch_async (CgFetcher            *self,
                        const char           *url,
                        const CgFetchOptions *options,
                        GCancellable         *cancellable,
                        GAsyncReadyCallback   callback,
                        gpointer              user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GMainContext) context = NULL;
  FetchData *fd;

  g_return_if_fail (CG_IS_FETCHER (self));
  g_return_if_fail (url != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  context = g_main_context_ref_thread_default ();
  g_return_if_fail (context == self->context);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, cg_fetcher_fetch_async);
  /* Failures are part of the result, not of the task. */
  g_task_set_check_cancellable (task, FALSE);

  fd = g_new0 (FetchData, 1);
  fd->task = task;
  fd->fetcher = self;
  fd->url = g_strdup (url);
  fd->cancellable = cancellable != NULL ? g_object_ref (cancellable) : NULL;
  fd->attempts = g_array_new (FALSE, TRUE, sizeof (CgFetchAttempt));
  g_array_set_clear_func (fd->attempts, attempt_clear);
  fd->max_attempts = self->config.max_attempts;
  if (options != NULL)
    {
      fd->if_none_match = g_strdup (options->if_none_match);
      fd->if_modified_since = g_strdup (options->if_modified_since);
      fd->referer = g_strdup (options->referer);
      if (options->max_attempts != 0)
        fd->max_attempts = options->max_attempts;
    }
  g_task_set_task_data (task, fd, (GDestroyNotify) fetch_data_free);

  fd->uri = parse_url (url, &error);
  if (fd->uri != NULL)
    {
      if (header_value_ok ("If-None-Match", fd->if_none_match, &error) &&
          header_value_ok ("If-Modified-Since", fd->if_modified_since, &error) &&
          header_value_ok ("Referer", fd->referer, &error))
        {
          start_attempt (task);
          return;
        }
    }

  fd->result = cg_fetch_result_new (url);
  fd->result->error = g_steal_pointer (&error);
  fd->result->start_time = g_get_real_time ();
  complete_fetch (task);
}

CgFetchResult *
cg_fetcher_fetch_finish (CgFetcher    *self,
                         GAsyncResult *result)
{
  g_return_val_if_fail (CG_IS_FETCHER (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == cg_fetcher_fetch_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), NULL);
}

/* ------------------------------------------------------------------ */
/* Following redirects                                                 */
/* ------------------------------------------------------------------ */

typedef struct {
  GPtrArray *hops;
  guint      max_redirects;
  char      *referer;
  guint      max_attempts;
} FollowData;

static void
follow_data_free (FollowData *follow)
{
  g_clear_pointer (&follow->hops, g_ptr_array_unref);
  g_free (follow->referer);
  g_free (follow);
}

static void
follow_hop_cb (GObject      *source,
               GAsyncResult *res,
               gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  CgFetcher *self = CG_FETCHER (source);
  FollowData *follow = g_task_get_task_data (task);
  CgFetchResult *hop = cg_fetcher_fetch_finish (self, res);
  CgFetchOptions options = { 0 };

  g_ptr_array_add (follow->hops, hop);

  if (hop->error != NULL || !cg_fetch_result_is_redirect (hop))
    {
      g_task_return_pointer (task, g_ptr_array_ref (follow->hops), (GDestroyNotify) g_ptr_array_unref);
      return;
    }

  /* hops holds the first fetch and every redirect followed so far. */
  if (follow->hops->len > follow->max_redirects)
    {
      hop->error = g_error_new (CG_FETCHER_ERROR, CG_FETCHER_ERROR_TOO_MANY_REDIRECTS,
                                _("%s redirects more than %u times"),
                                cg_fetch_result_get_url (g_ptr_array_index (follow->hops, 0)),
                                follow->max_redirects);
      g_task_return_pointer (task, g_ptr_array_ref (follow->hops), (GDestroyNotify) g_ptr_array_unref);
      return;
    }

  options.referer = follow->referer;
  options.max_attempts = follow->max_attempts;
  cg_fetcher_fetch_async (self, hop->location, &options, g_task_get_cancellable (task),
                          follow_hop_cb, g_object_ref (task));
}

void
cg_fetcher_fetch_following_async (CgFetcher            *self,
                                  const char           *url,
                                  guint                 max_redirects,
                                  const CgFetchOptions *options,
                                  GCancellable         *cancellable,
                                  GAsyncReadyCallback   callback,
                                  gpointer              user_data)
{
  g_autoptr(GTask) task = NULL;
  FollowData *follow;

  g_return_if_fail (CG_IS_FETCHER (self));
  g_return_if_fail (url != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, cg_fetcher_fetch_following_async);
  g_task_set_check_cancellable (task, FALSE);

  follow = g_new0 (FollowData, 1);
  follow->hops = g_ptr_array_new_with_free_func ((GDestroyNotify) cg_fetch_result_unref);
  follow->max_redirects = MIN (max_redirects, CG_FETCHER_MAX_REDIRECTS_LIMIT);
  if (options != NULL)
    {
      follow->referer = g_strdup (options->referer);
      follow->max_attempts = options->max_attempts;
    }
  g_task_set_task_data (task, follow, (GDestroyNotify) follow_data_free);

  cg_fetcher_fetch_async (self, url, options, cancellable, follow_hop_cb, g_object_ref (task));
}

GPtrArray *
cg_fetcher_fetch_following_finish (CgFetcher    *self,
                                   GAsyncResult *result)
{
  g_return_val_if_fail (CG_IS_FETCHER (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == cg_fetcher_fetch_following_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), NULL);
}
