/* cg-fetcher.h: the crawler's HTTP fetcher, on libsoup 3.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>
#include <libsoup/soup.h>

G_BEGIN_DECLS

/* # What the fetcher does
 *
 * One CgFetcher is one crawl's HTTP client: one connection pool, one
 * cookie jar (if enabled), one configuration. A fetch is one GET of one
 * URL and always completes with a CgFetchResult, also when it fails,
 * because a failed fetch is still logged with its attempts and timing.
 *
 * Redirects are never followed by a plain fetch: a 3xx is a result like
 * any other, to be archived, with its Location resolved to an absolute URL
 * (cg_fetch_result_get_location()); the crawler decides whether to follow.
 * cg_fetcher_fetch_following_async() follows a bounded chain for callers
 * that need the final answer, such as robots.txt (RFC 9309 §2.3.1.2).
 *
 * Content codings are not undone on the way in: the payload is kept as the
 * server sent it (gzip stays gzip) for the WARC response record, and a
 * decoded copy, bounded by max_decoded_size, is made for link extraction.
 *
 * # What is recorded, and how faithfully
 *
 * libsoup 3.2 parses HTTP/1.x messages itself and exposes no raw bytes, so
 * both header blocks are rebuilt from what libsoup parsed or wrote:
 *
 * - The request block is rebuilt exactly as libsoup's HTTP/1 writer builds
 *   it (request line, then the final request headers in the order it
 *   writes them, then CRLF), captured when libsoup reports the headers
 *   written; for HTTP/1.x it is byte for byte what went on the wire.
 * - The response block is the status line as received (version, code,
 *   reason phrase) and every header line with its value as received, but
 *   libsoup spells the names of the headers it knows in their canonical
 *   case ("content-type" becomes "Content-Type"), lists those headers
 *   before the others, and joins obsolete folded lines. Repeated headers
 *   (Set-Cookie) stay separate lines.
 * - The payload is de-chunked: with Transfer-Encoding: chunked, the block
 *   keeps that header as received and cg_fetch_result_get_payload_dechunked()
 *   is TRUE, so the WARC writer can say so, as wget does.
 * - HTTP/2 (libsoup negotiates it only over TLS) has no text form; its
 *   blocks are written in the HTTP/1.1 form and
 *   cg_fetch_result_get_http_version() returns "HTTP/2". Setting
 *   SOUP_FORCE_HTTP1 in the environment before the first fetch makes
 *   libsoup 3.2 use HTTP/1.1 everywhere.
 *
 * # Threads and main contexts
 *
 * A CgFetcher belongs to the thread that created it and to that thread's
 * default GMainContext at the time (g_main_context_push_thread_default()
 * in a worker thread); libsoup 3 binds its session the same way. Call every
 * function here from that thread with that context current. Callbacks,
 * timers and retries all run there.
 *
 * # The connection cap (seed 002, §3.7)
 *
 * max_conns bounds the TCP connections open at once, idle keep-alive ones
 * included, across all hosts; max_conns_per_host bounds them per host.
 * At the cap libsoup keeps the request queued until a connection is
 * released; it may close an idle keep-alive connection to make room, but
 * never one that is in use, so the cap causes waits, never fetch errors.
 * Timers do not run while a request waits in that queue. A connection
 * counts until it is closed.
 */

#define CG_FETCHER_ERROR (cg_fetcher_error_quark ())

typedef enum {
  /* The URL could not be parsed or has no host. */
  CG_FETCHER_ERROR_INVALID_URL,
  /* The URL is not http or https. */
  CG_FETCHER_ERROR_UNSUPPORTED_SCHEME,
  /* A configuration value or a fetch option is unusable. */
  CG_FETCHER_ERROR_INVALID_ARGUMENT,
  /* The host name could not be resolved. */
  CG_FETCHER_ERROR_DNS,
  /* The connection broke before the response ended, or failed in a way
   * not told apart below. */
  CG_FETCHER_ERROR_CONNECTION,
  /* The TLS handshake or certificate check failed. */
  CG_FETCHER_ERROR_TLS,
  /* A connect, idle or total timeout passed. */
  CG_FETCHER_ERROR_TIMEOUT,
  /* The response header block passed max_header_size. */
  CG_FETCHER_ERROR_HEADERS_TOO_LARGE,
  /* The response is not valid HTTP. */
  CG_FETCHER_ERROR_BAD_RESPONSE,
  /* A redirect chain passed its bound (following fetches only). */
  CG_FETCHER_ERROR_TOO_MANY_REDIRECTS,
  /* No connection could be made: refused, or no route to the host. */
  CG_FETCHER_ERROR_CONNECT,
} CgFetcherError;

/* Defaults, stated once. Timeouts from Heritrix's FetchHTTP as configured
 * in seed 002 (§3.8: sotimeout-ms 20000, timeout-seconds 1200) and its
 * connect-timeout-ms of 30000; the connection cap is seed 002's
 * max-contemporary-tcp-connection (§3.7). */
#define CG_FETCHER_DEFAULT_CONNECT_TIMEOUT      30      /* s */
#define CG_FETCHER_DEFAULT_IO_TIMEOUT           20      /* s */
#define CG_FETCHER_DEFAULT_IDLE_TIMEOUT         60      /* s */
#define CG_FETCHER_DEFAULT_TOTAL_TIMEOUT        1200    /* s */
#define CG_FETCHER_DEFAULT_MAX_BODY_SIZE        ((gsize) 64 * 1024 * 1024)
#define CG_FETCHER_DEFAULT_MAX_DECODED_SIZE     ((gsize) 32 * 1024 * 1024)
#define CG_FETCHER_DEFAULT_MAX_HEADER_SIZE      ((gsize) 64 * 1024)
#define CG_FETCHER_DEFAULT_MAX_CONNS            5000
#define CG_FETCHER_DEFAULT_MAX_CONNS_PER_HOST   2
#define CG_FETCHER_DEFAULT_MAX_ATTEMPTS         3
#define CG_FETCHER_DEFAULT_RETRY_BASE_DELAY_MS  1000
#define CG_FETCHER_DEFAULT_RETRY_MAX_DELAY_MS   60000
#define CG_FETCHER_DEFAULT_MAX_RETRY_AFTER      60      /* s */
#define CG_FETCHER_DEFAULT_ACCEPT_ENCODING      "gzip, deflate, br"

/* libsoup 3.2 refuses a response header block of about this size by
 * itself ("Header too big", measured on 3.2.3), so a larger
 * max_header_size has no effect there. */
#define CG_FETCHER_LIBSOUP_HEADER_LIMIT         ((gsize) 64 * 1024)

/* RFC 9309 §2.3.1.2: crawlers should follow at least five redirects for
 * robots.txt. */
#define CG_FETCHER_ROBOTS_MAX_REDIRECTS         5

/* Redirect chains followed by cg_fetcher_fetch_following_async() are
 * never longer than this, whatever the caller asks. */
#define CG_FETCHER_MAX_REDIRECTS_LIMIT          20

typedef struct {
  /* The whole User-Agent value. NULL builds one with
   * cg_fetcher_build_user_agent (contact_url). */
  const char *user_agent;
  /* A page saying who runs the crawl, put in the default User-Agent. */
  const char *contact_url;
  /* The Accept-Encoding value sent. NULL sends
   * CG_FETCHER_DEFAULT_ACCEPT_ENCODING; "" sends no Accept-Encoding, so
   * servers answer in identity. */
  const char *accept_encoding;
  /* Keep and send cookies for the life of this fetcher (one crawl). */
  gboolean    cookies;
  /* Seconds from the start of name resolution to an established (and,
   * for https, TLS-negotiated) connection. 0 disables. */
  guint       connect_timeout;
  /* Seconds a socket read or write may wait for data (libsoup's
   * SoupSession:timeout). A server that stalls mid-body hits this.
   * 0 disables. */
  guint       io_timeout;
  /* Seconds an unused keep-alive connection stays open
   * (SoupSession:idle-timeout). 0 keeps it until the server closes it. */
  guint       idle_timeout;
  /* Seconds one attempt may take, from leaving the connection queue to
   * the last body byte. Passing it before the response headers is a
   * timeout error; passing it during the body truncates the payload
   * (WARC-Truncated: time). 0 disables. */
  guint       total_timeout;
  /* The payload is cut at this many bytes (WARC-Truncated: length). */
  gsize       max_body_size;
  /* The decoded copy never grows past this many bytes. */
  gsize       max_decoded_size;
  /* A response header block larger than this is refused. */
  gsize       max_header_size;
  /* Open connections overall and per host; see the connection cap above.
   * max_conns is lowered to half the process's open-file limit if it is
   * larger, since past that limit every connect fails (seed 002, §3.8). */
  guint       max_conns;
  guint       max_conns_per_host;
  /* Attempts per fetch, the first included. 5xx, 429, connection errors
   * and timeouts are retried after retry_base_delay_ms × 2^(n−1),
   * at most retry_max_delay_ms; a Retry-After of up to max_retry_after
   * seconds is waited for, and a longer one ends the retries. */
  guint       max_attempts;
  guint       retry_base_delay_ms;
  guint       retry_max_delay_ms;
  guint       max_retry_after;
} CgFetcherConfig;

typedef struct {
  /* Conditional request (re-harvest): the ETag and the Last-Modified value
   * of the copy already archived, sent back as received. A 304 answer is
   * reported by cg_fetch_result_is_not_modified(). NULL sends nothing. */
  const char *if_none_match;
  const char *if_modified_since;
  /* The page the URL was found on, sent as Referer. */
  const char *referer;
  /* Overrides the configured max_attempts when not 0. */
  guint       max_attempts;
} CgFetchOptions;

/* WARC-Truncated values (WARC 1.1 §5.13). */
typedef enum {
  CG_FETCH_TRUNCATED_NONE,
  CG_FETCH_TRUNCATED_LENGTH,
  CG_FETCH_TRUNCATED_TIME,
  CG_FETCH_TRUNCATED_DISCONNECT,
} CgFetchTruncation;

/* One try at the URL, as the crawl log shows it. A result holds the
 * response of its last attempt only; earlier ones (a 503 before the 200)
 * are dropped once the retry is decided and live on only in this log. */
typedef struct {
  guint   status;        /* HTTP status, 0 if no response was received */
  GError *error;         /* NULL if the attempt got a complete response */
  gint64  start_time;    /* wall clock, µs since the Unix epoch */
  gint64  duration;      /* µs */
  gint64  retry_delay;   /* µs waited before the next attempt, 0 if none */
} CgFetchAttempt;

typedef struct _CgFetchResult CgFetchResult;

#define CG_TYPE_FETCH_RESULT (cg_fetch_result_get_type ())
GType              cg_fetch_result_get_type                 (void) G_GNUC_CONST;

CgFetchResult     *cg_fetch_result_ref                      (CgFetchResult  *self);
void               cg_fetch_result_unref                    (CgFetchResult  *self);

/* The URL exactly as passed to the fetch. */
const char        *cg_fetch_result_get_url                  (CgFetchResult  *self);
/* NULL on success. Also set when a response was received but its body was
 * cut by a failure (then get_truncated() is DISCONNECT), and on the last
 * hop of a chain that passed its redirect bound. */
const GError      *cg_fetch_result_get_error                (CgFetchResult  *self);
gboolean           cg_fetch_result_propagate_error          (CgFetchResult  *self,
                                                             GError        **error);
/* TRUE when a status line and headers were received, i.e. there is a
 * response to archive. */
gboolean           cg_fetch_result_has_response             (CgFetchResult  *self);
guint              cg_fetch_result_get_status               (CgFetchResult  *self);
const char        *cg_fetch_result_get_reason               (CgFetchResult  *self);
/* "HTTP/1.0", "HTTP/1.1" or "HTTP/2"; NULL without a response. */
const char        *cg_fetch_result_get_http_version         (CgFetchResult  *self);
/* The request as sent: request line, headers, blank line. NULL if the
 * request was never written. */
GBytes            *cg_fetch_result_get_request_header_block (CgFetchResult  *self);
/* The response status line, headers and blank line; see the top of this
 * file for how faithful it is. NULL without a response. */
GBytes            *cg_fetch_result_get_response_header_block (CgFetchResult *self);
SoupMessageHeaders *cg_fetch_result_get_response_headers    (CgFetchResult  *self);
/* The body as received after de-chunking, still content-encoded; empty
 * for a bodiless response, NULL without a response. */
GBytes            *cg_fetch_result_get_payload              (CgFetchResult  *self);
gboolean           cg_fetch_result_get_payload_dechunked    (CgFetchResult  *self);
CgFetchTruncation  cg_fetch_result_get_truncated            (CgFetchResult  *self);
/* The Content-Encoding as received, NULL if none. */
const char        *cg_fetch_result_get_content_encoding     (CgFetchResult  *self);
/* The payload with its content codings undone: the payload itself when it
 * had none, the part decoded before a failure when decoding failed
 * (possibly empty; see get_decode_error()), NULL without a response. */
GBytes            *cg_fetch_result_get_decoded_payload      (CgFetchResult  *self);
/* Why get_decoded_payload() is incomplete (CG_CONTENT_DECODER_ERROR), or
 * NULL. */
const GError      *cg_fetch_result_get_decode_error         (CgFetchResult  *self);
/* The media type in lower case ("text/html") and its charset parameter as
 * sent; NULL when absent. */
const char        *cg_fetch_result_get_content_type         (CgFetchResult  *self);
const char        *cg_fetch_result_get_charset              (CgFetchResult  *self);
/* For a redirect status with a usable Location: the target, absolute. */
const char        *cg_fetch_result_get_location             (CgFetchResult  *self);
gboolean           cg_fetch_result_is_redirect              (CgFetchResult  *self);
gboolean           cg_fetch_result_is_not_modified          (CgFetchResult  *self);
/* The server's address, "127.0.0.1" or "::1"; NULL if never connected. */
const char        *cg_fetch_result_get_remote_ip            (CgFetchResult  *self);
/* When the attempt whose response this is began (wall clock, µs since the
 * Unix epoch: the WARC-Date), and how long it took (µs). */
gint64             cg_fetch_result_get_start_time           (CgFetchResult  *self);
gint64             cg_fetch_result_get_duration             (CgFetchResult  *self);
guint              cg_fetch_result_get_n_attempts           (CgFetchResult  *self);
const CgFetchAttempt *cg_fetch_result_get_attempt           (CgFetchResult  *self,
                                                             guint           index);

/* The WARC-Truncated field value, or NULL for CG_FETCH_TRUNCATED_NONE. */
const char        *cg_fetch_truncation_to_string            (CgFetchTruncation truncation);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CgFetchResult, cg_fetch_result_unref)

#define CG_TYPE_FETCHER (cg_fetcher_get_type ())
G_DECLARE_FINAL_TYPE (CgFetcher, cg_fetcher, CG, FETCHER, GObject)

GQuark             cg_fetcher_error_quark                   (void);

/* Fills @config with the defaults above; no cookies, no contact URL. */
void               cg_fetcher_config_init                   (CgFetcherConfig *config);

/* "Cartograph/VERSION (+CONTACT_URL)", or "Cartograph/VERSION" when
 * @contact_url is NULL. */
char              *cg_fetcher_build_user_agent              (const char     *contact_url);
gboolean           cg_fetcher_check_identity                (const char     *user_agent,
                                                             const char     *contact_url,
                                                             GError        **error);

/* Creates a fetcher bound to the calling thread's default main context.
 * @config may be NULL for the defaults; it is copied. Fails with
 * CG_FETCHER_ERROR_INVALID_ARGUMENT on an unusable value (a User-Agent
 * with a line break, a zero limit, …). */
CgFetcher         *cg_fetcher_new                           (const CgFetcherConfig *config,
                                                             GError        **error);

/* The configuration in force, after the open-file clamp of max_conns; its
 * strings belong to the fetcher. */
const CgFetcherConfig *cg_fetcher_get_config                (CgFetcher      *self);

/* Fetches @url (http or https) with GET. @options may be NULL and is
 * copied. Cancelling @cancellable ends the fetch with G_IO_ERROR_CANCELLED
 * in the result's error. */
void               cg_fetcher_fetch_async                   (CgFetcher      *self,
                                                             const char     *url,
                                                             const CgFetchOptions *options,
                                                             GCancellable   *cancellable,
                                                             GAsyncReadyCallback callback,
                                                             gpointer        user_data);
/* Never returns NULL: the outcome, success or failure, is in the result. */
CgFetchResult     *cg_fetcher_fetch_finish                  (CgFetcher      *self,
                                                             GAsyncResult   *result);

/* Fetches @url and follows redirects, at most @max_redirects of them
 * (clamped to CG_FETCHER_MAX_REDIRECTS_LIMIT), each hop a separate fetch
 * with retries. Conditional headers in @options go on the first hop only. */
void               cg_fetcher_fetch_following_async         (CgFetcher      *self,
                                                             const char     *url,
                                                             guint           max_redirects,
                                                             const CgFetchOptions *options,
                                                             GCancellable   *cancellable,
                                                             GAsyncReadyCallback callback,
                                                             gpointer        user_data);
/* Returns (element-type CgFetchResult) every hop in order, at least one,
 * never NULL. The chain succeeded when the last hop has no error and is
 * not a redirect. When the bound was reached, the last hop is the
 * redirect that was not followed and its error is
 * CG_FETCHER_ERROR_TOO_MANY_REDIRECTS. */
GPtrArray         *cg_fetcher_fetch_following_finish        (CgFetcher      *self,
                                                             GAsyncResult   *result);

G_END_DECLS
