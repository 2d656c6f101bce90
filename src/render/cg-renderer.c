/* cg-renderer.c: renders one page at a time and captures the visual
 * features of every element.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "cg-archive-proxy.h"
#include "cg-renderer.h"
#include "cg-url.h"

#define CAPTURE_SCRIPT_RESOURCE "/io/github/cartograph/Cartograph/render/cg-capture.js"
/* The isolated script world the capture runs in: the page's scripts see
 * the attributes it writes but not its variables, and cannot replace the
 * DOM functions it calls. */
#define CAPTURE_WORLD "cartograph-capture"
/* Pages that navigate again after their load event (client redirects)
 * are followed this many times, within the render's timeout. */
#define MAX_CLIENT_REDIRECTS 5

typedef enum {
  STAGE_IDLE,
  STAGE_LOADING,
  STAGE_CAPTURING,
  STAGE_SNAPSHOT,
} Stage;

struct _CgRenderer
{
  GObject          parent_instance;

  CgWebContext    *context;
  CgRenderOptions  options;
  GtkWidget       *window;
  WebKitWebView   *view;
  guint            n_recoveries;
  guint            recover_id;

  /* The render under way. */
  GTask           *task;
  Stage            stage;
  guint            generation;
  GCancellable    *ops;
  guint            timeout_id;
  GCancellable    *cancellable;
  gulong           cancelled_id;
  guint            cancel_idle_id;
  GError          *load_error;
  CgRenderResult  *result;
  gint64           started;
  guint            n_loads;
};

enum {
  SIGNAL_WEB_PROCESS_TERMINATED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_TYPE (CgRenderer, cg_renderer, G_TYPE_OBJECT)
G_DEFINE_QUARK (cg-render-error-quark, cg_render_error)
G_DEFINE_BOXED_TYPE (CgRenderResult, cg_render_result, cg_render_result_copy, cg_render_result_free)

static void replace_view (CgRenderer *self);

void
cg_render_options_init (CgRenderOptions *options)
{
  g_return_if_fail (options != NULL);

  options->viewport_width = CG_RENDER_DEFAULT_VIEWPORT_WIDTH;
  options->viewport_height = CG_RENDER_DEFAULT_VIEWPORT_HEIGHT;
  options->timeout_ms = CG_RENDER_DEFAULT_TIMEOUT_MS;
  options->quiet_ms = CG_RENDER_DEFAULT_QUIET_MS;
  options->settle_max_ms = CG_RENDER_DEFAULT_SETTLE_MAX_MS;
  options->max_elements = CG_RENDER_DEFAULT_MAX_ELEMENTS;
  options->max_html_size = CG_RENDER_DEFAULT_MAX_HTML_SIZE;
  options->thumbnail_width = CG_RENDER_DEFAULT_THUMBNAIL_WIDTH;
}

CgRenderResult *
cg_render_result_copy (const CgRenderResult *result)
{
  CgRenderResult *copy;

  g_return_val_if_fail (result != NULL, NULL);

  copy = g_memdup2 (result, sizeof *result);
  copy->requested_url = g_strdup (result->requested_url);
  copy->url = g_strdup (result->url);
  copy->mime = g_strdup (result->mime);
  copy->title = g_strdup (result->title);
  copy->html = g_strdup (result->html);
  copy->thumbnail = result->thumbnail != NULL ? g_bytes_ref (result->thumbnail) : NULL;
  return copy;
}

void
cg_render_result_free (CgRenderResult *result)
{
  if (result == NULL)
    return;
  g_free (result->requested_url);
  g_free (result->url);
  g_free (result->mime);
  g_free (result->title);
  g_free (result->html);
  g_clear_pointer (&result->thumbnail, g_bytes_unref);
  g_free (result);
}

/* --- Ending a render ------------------------------------------------------- */

static void
clear_render (CgRenderer *self)
{
  g_clear_handle_id (&self->timeout_id, g_source_remove);
  g_clear_handle_id (&self->cancel_idle_id, g_source_remove);
  if (self->cancellable != NULL)
    g_cancellable_disconnect (self->cancellable, self->cancelled_id);
  self->cancelled_id = 0;
  g_clear_object (&self->cancellable);
  if (self->ops != NULL)
    g_cancellable_cancel (self->ops);
  g_clear_object (&self->ops);
  g_clear_error (&self->load_error);
  g_clear_pointer (&self->result, cg_render_result_free);
  self->stage = STAGE_IDLE;
  self->generation++;
}

/* State is cleared before the task returns, so that its callback may
 * start the next render on this renderer at once. */
static void
finish_error (CgRenderer *self,
              GError     *error)
{
  g_autoptr(GTask) task = g_steal_pointer (&self->task);

  clear_render (self);
  if (task != NULL)
    g_task_return_error (task, error);
  else
    g_error_free (error);
}

static void
finish_ok (CgRenderer *self)
{
  g_autoptr(GTask) task = g_steal_pointer (&self->task);
  CgRenderResult *result = g_steal_pointer (&self->result);

  result->duration_ms = (guint) ((g_get_monotonic_time () - self->started) / 1000);
  clear_render (self);
  g_task_return_pointer (task, result, (GDestroyNotify) cg_render_result_free);
}

/* --- Stale callbacks --------------------------------------------------------- */

/* Callbacks of WebKit calls carry the render they belong to, because the
 * render may have ended (timeout, crash, cancellation) before they come. */
typedef struct {
  CgRenderer *renderer;
  guint       generation;
} Pending;

static Pending *
pending_new (CgRenderer *self)
{
  Pending *pending = g_new (Pending, 1);

  pending->renderer = g_object_ref (self);
  pending->generation = self->generation;
  return pending;
}

static CgRenderer *
pending_take (Pending *pending,
              gboolean *current)
{
  CgRenderer *self = pending->renderer;

  *current = self->task != NULL && pending->generation == self->generation;
  g_free (pending);
  return self;
}

/* --- Thumbnail --------------------------------------------------------------- */

static GBytes *
thumbnail_from_texture (GdkTexture  *texture,
                        guint        width,
                        GError     **error)
{
  g_autoptr(GdkPixbuf) pixbuf = gdk_pixbuf_get_from_texture (texture);
  g_autoptr(GdkPixbuf) scaled = NULL;
  g_autofree char *buffer = NULL;
  gsize size = 0;
  int source_width, source_height, height;

  if (pixbuf == NULL)
    {
      g_set_error_literal (error, CG_RENDER_ERROR, CG_RENDER_ERROR_CAPTURE,
                           _("The page snapshot could not be read"));
      return NULL;
    }
  source_width = gdk_pixbuf_get_width (pixbuf);
  source_height = gdk_pixbuf_get_height (pixbuf);
  if ((int) width < source_width)
    {
      height = MAX (1, (int) ((double) source_height * width / source_width + 0.5));
      scaled = gdk_pixbuf_scale_simple (pixbuf, (int) width, height, GDK_INTERP_BILINEAR);
    }
  else
    scaled = g_object_ref (pixbuf);
  if (!gdk_pixbuf_save_to_buffer (scaled, &buffer, &size, "png", error, NULL))
    return NULL;
  return g_bytes_new_take (g_steal_pointer (&buffer), size);
}

static void
snapshot_cb (GObject      *source,
             GAsyncResult *res,
             gpointer      user_data)
{
  gboolean current;
  g_autoptr(CgRenderer) self = pending_take (user_data, &current);
  g_autoptr(GdkTexture) texture = NULL;
  g_autoptr(GError) error = NULL;

  texture = webkit_web_view_get_snapshot_finish (WEBKIT_WEB_VIEW (source), res, &error);
  if (!current || self->stage != STAGE_SNAPSHOT)
    return;
  if (texture != NULL)
    self->result->thumbnail = thumbnail_from_texture (texture, self->options.thumbnail_width, &error);
  if (self->result->thumbnail == NULL)
    {
      finish_error (self, g_error_new (CG_RENDER_ERROR, CG_RENDER_ERROR_CAPTURE,
                                       _("Cannot take the thumbnail of %s: %s"),
                                       self->result->requested_url, error->message));
      return;
    }
  finish_ok (self);
}

/* --- Capture ---------------------------------------------------------------- */

static char *
property_string (JSCValue   *object,
                 const char *name)
{
  g_autoptr(JSCValue) value = jsc_value_object_get_property (object, name);

  return value != NULL && jsc_value_is_string (value) ? jsc_value_to_string (value) : NULL;
}

static double
property_number (JSCValue   *object,
                 const char *name)
{
  g_autoptr(JSCValue) value = jsc_value_object_get_property (object, name);

  return value != NULL && jsc_value_is_number (value) ? jsc_value_to_double (value) : 0.0;
}

static gboolean
property_boolean (JSCValue   *object,
                  const char *name)
{
  g_autoptr(JSCValue) value = jsc_value_object_get_property (object, name);

  return value != NULL && jsc_value_to_boolean (value);
}

static guint
clamp_count (double value)
{
  return value <= 0 ? 0 : value >= G_MAXUINT ? G_MAXUINT : (guint) value;
}

static void
capture_cb (GObject      *source,
            GAsyncResult *res,
            gpointer      user_data)
{
  gboolean current;
  g_autoptr(CgRenderer) self = pending_take (user_data, &current);
  g_autoptr(JSCValue) value = NULL;
  g_autoptr(GError) error = NULL;
  CgRenderResult *result;
  char *html;

  value = webkit_web_view_call_async_javascript_function_finish (WEBKIT_WEB_VIEW (source), res, &error);
  if (!current || self->stage != STAGE_CAPTURING)
    return;
  if (value == NULL || !jsc_value_is_object (value))
    {
      /* A page that navigates during the capture destroys the capture's
       * context; the new load is followed by load_changed_cb. */
      if (webkit_web_view_is_loading (self->view))
        return;
      finish_error (self, g_error_new (CG_RENDER_ERROR, CG_RENDER_ERROR_CAPTURE,
                                       _("The capture script failed on %s: %s"),
                                       self->result->requested_url,
                                       error != NULL ? error->message : _("it returned no object")));
      return;
    }

  result = self->result;
  html = property_string (value, "html");
  if (html == NULL)
    {
      finish_error (self, g_error_new (CG_RENDER_ERROR, CG_RENDER_ERROR_CAPTURE,
                                       _("The capture script returned no document for %s"),
                                       result->requested_url));
      return;
    }
  if (strlen (html) > self->options.max_html_size)
    {
      g_autofree char *limit = g_format_size (self->options.max_html_size);

      g_free (html);
      finish_error (self, g_error_new (CG_RENDER_ERROR, CG_RENDER_ERROR_TOO_LARGE,
                                       _("The rendered document of %s is larger than %s"),
                                       result->requested_url, limit));
      return;
    }
  result->html = html;
  g_free (result->url);
  result->url = property_string (value, "url");
  if (result->url == NULL)
    result->url = g_strdup (webkit_web_view_get_uri (self->view));
  result->title = property_string (value, "title");
  result->n_elements = clamp_count (property_number (value, "elements"));
  result->n_visible = clamp_count (property_number (value, "visible"));
  result->truncated = property_boolean (value, "truncated");
  result->settled = property_boolean (value, "settled");
  result->document_width = property_number (value, "width");
  result->document_height = property_number (value, "height");

  if (self->options.thumbnail_width == 0)
    {
      finish_ok (self);
      return;
    }
  self->stage = STAGE_SNAPSHOT;
  g_debug ("Renderer: %s captured after %" G_GINT64_FORMAT " ms (%g ms waiting for quiet)",
           result->requested_url, (g_get_monotonic_time () - self->started) / 1000,
           property_number (value, "waited"));
  webkit_web_view_get_snapshot (self->view, WEBKIT_SNAPSHOT_REGION_VISIBLE, WEBKIT_SNAPSHOT_OPTIONS_NONE,
                                self->ops, snapshot_cb, pending_new (self));
}

static const char *
capture_script (gsize *length)
{
  static GBytes *script;
  static gsize once;

  if (g_once_init_enter (&once))
    {
      script = g_resources_lookup_data (CAPTURE_SCRIPT_RESOURCE, 0, NULL);
      /* The script is compiled into the library; its absence is a build
       * error, not something a user can act on. */
      g_assert (script != NULL);
      g_once_init_leave (&once, 1);
    }
  return g_bytes_get_data (script, length);
}

static gboolean
uri_is_web (const char *uri)
{
  g_autofree char *scheme = uri != NULL ? g_uri_parse_scheme (uri) : NULL;

  return scheme != NULL && (g_ascii_strcasecmp (scheme, "http") == 0 ||
                            g_ascii_strcasecmp (scheme, "https") == 0);
}

/* A load can end without load-failed and still not have brought the page.
 * WebKit refuses the ports that browsers block (1, 25, 6000 and others)
 * by showing about:blank, with no error at all; and when replaying, what
 * the archive cannot supply (a URL it lacks, a WARC file gone or damaged)
 * is answered by the archive proxy with an error response of its own,
 * which WebKit shows like any page. Capturing either would report a page
 * rendered that never was. */
static gboolean
check_loaded_page (CgRenderer         *self,
                   WebKitURIResponse  *response,
                   GError            **error)
{
  const char *shown = webkit_web_view_get_uri (self->view);
  g_autofree char *reason = NULL;

  if (!uri_is_web (shown))
    {
      if (self->n_loads == 0)
        g_set_error (error, CG_RENDER_ERROR, CG_RENDER_ERROR_LOAD_FAILED,
                     _("Cannot load %s: WebKit refused it and showed “%s” instead "
                       "(it refuses the ports that browsers block, such as 1, 25 and 6000)"),
                     self->result->requested_url, shown != NULL ? shown : "");
      else
        g_set_error (error, CG_RENDER_ERROR, CG_RENDER_ERROR_LOAD_FAILED,
                     _("%s navigated to “%s”, which is not a web page"),
                     self->result->requested_url, shown != NULL ? shown : "");
      return FALSE;
    }

  if (cg_web_context_get_archive (self->context) == NULL || response == NULL)
    return TRUE;
  reason = cg_archive_proxy_describe_miss (webkit_uri_response_get_http_headers (response));
  if (reason != NULL)
    {
      g_set_error (error, CG_RENDER_ERROR, CG_RENDER_ERROR_LOAD_FAILED,
                   _("Cannot replay %s from the archive “%s”: %s"),
                   self->result->requested_url,
                   cg_archive_get_description (cg_web_context_get_archive (self->context)),
                   reason);
      return FALSE;
    }
  return TRUE;
}

static void
start_capture (CgRenderer *self)
{
  g_auto(GVariantDict) arguments = G_VARIANT_DICT_INIT (NULL);
  WebKitWebResource *resource;
  WebKitURIResponse *response = NULL;
  GError *error = NULL;
  const char *script;
  gsize length;

  resource = webkit_web_view_get_main_resource (self->view);
  if (resource != NULL)
    response = webkit_web_resource_get_response (resource);
  if (!check_loaded_page (self, response, &error))
    {
      finish_error (self, error);
      return;
    }
  if (response != NULL)
    {
      self->result->status = webkit_uri_response_get_status_code (response);
      g_free (self->result->mime);
      self->result->mime = g_strdup (webkit_uri_response_get_mime_type (response));
    }
  g_free (self->result->url);
  self->result->url = g_strdup (webkit_web_view_get_uri (self->view));

  g_variant_dict_insert (&arguments, "quietMs", "u", self->options.quiet_ms);
  g_variant_dict_insert (&arguments, "settleMaxMs", "u", self->options.settle_max_ms);
  g_variant_dict_insert (&arguments, "maxElements", "u", self->options.max_elements);

  self->stage = STAGE_CAPTURING;
  g_debug ("Renderer: %s loaded after %" G_GINT64_FORMAT " ms", self->result->requested_url,
           (g_get_monotonic_time () - self->started) / 1000);
  script = capture_script (&length);
  webkit_web_view_call_async_javascript_function (self->view, script, (gssize) length,
                                                  g_variant_dict_end (&arguments),
                                                  CAPTURE_WORLD, "cartograph:///cg-capture.js",
                                                  self->ops, capture_cb, pending_new (self));
}

/* --- View signals ------------------------------------------------------------ */

static void
load_changed_cb (WebKitWebView   *view,
                 WebKitLoadEvent  event,
                 CgRenderer      *self)
{
  if (self->task == NULL)
    return;

  if (event == WEBKIT_LOAD_STARTED && self->stage == STAGE_CAPTURING)
    {
      /* A client redirect: the capture under way is lost with its
       * document; wait for the new one. */
      if (++self->n_loads > MAX_CLIENT_REDIRECTS)
        {
          finish_error (self, g_error_new (CG_RENDER_ERROR, CG_RENDER_ERROR_LOAD_FAILED,
                                           _("%s kept navigating to other pages (more than %d times)"),
                                           self->result->requested_url, MAX_CLIENT_REDIRECTS));
          return;
        }
      self->generation++;
      self->stage = STAGE_LOADING;
      return;
    }

  if (event != WEBKIT_LOAD_FINISHED || self->stage != STAGE_LOADING)
    return;
  /* A load that ends while the view is still loading was replaced by
   * another one, whose end is the one to wait for. Either the page
   * navigated again before its load ended (a refresh that only a browser
   * without scripts follows, cancelling the page's own load), or this is
   * the end of a navigation an earlier page started after its render
   * (the view then still loads this render's URL, and WebKit reports the
   * old load cancelled by it). Taking that end for this render's made it
   * fail with "Load request cancelled", or capture the wrong document,
   * and left its own load to be cancelled in turn by the next render. */
  if (webkit_web_view_is_loading (view))
    {
      if (++self->n_loads > MAX_CLIENT_REDIRECTS)
        {
          g_clear_error (&self->load_error);
          finish_error (self, g_error_new (CG_RENDER_ERROR, CG_RENDER_ERROR_LOAD_FAILED,
                                           _("%s kept navigating to other pages (more than %d times)"),
                                           self->result->requested_url, MAX_CLIENT_REDIRECTS));
          return;
        }
      g_clear_error (&self->load_error);
      return;
    }
  if (self->load_error != NULL)
    {
      finish_error (self, g_steal_pointer (&self->load_error));
      return;
    }
  start_capture (self);
}

static gboolean
load_failed_cb (WebKitWebView   *view,
                WebKitLoadEvent  event,
                const char      *failing_uri,
                GError          *error,
                CgRenderer      *self)
{
  if (self->task == NULL || self->stage != STAGE_LOADING)
    return TRUE;
  g_clear_error (&self->load_error);
  if (g_error_matches (error, WEBKIT_POLICY_ERROR, WEBKIT_POLICY_ERROR_FRAME_LOAD_INTERRUPTED_BY_POLICY_CHANGE) ||
      g_error_matches (error, WEBKIT_POLICY_ERROR, WEBKIT_POLICY_ERROR_CANNOT_SHOW_MIME_TYPE))
    self->load_error = g_error_new (CG_RENDER_ERROR, CG_RENDER_ERROR_LOAD_FAILED,
                                    _("%s cannot be rendered: its content type is not a page"),
                                    failing_uri);
  else if (g_error_matches (error, WEBKIT_NETWORK_ERROR, WEBKIT_NETWORK_ERROR_CANCELLED) ||
           g_error_matches (error, WEBKIT_POLICY_ERROR, WEBKIT_POLICY_ERROR_CANNOT_SHOW_URI))
    self->load_error = g_error_new (CG_RENDER_ERROR, CG_RENDER_ERROR_LOAD_FAILED,
                                    _("Loading %s was refused or cancelled: %s"),
                                    failing_uri, error->message);
  else
    self->load_error = g_error_new (CG_RENDER_ERROR, CG_RENDER_ERROR_LOAD_FAILED,
                                    _("Cannot load %s: %s"), failing_uri, error->message);
  /* Suppresses WebKit's error page; load-changed FINISHED follows. */
  return TRUE;
}

static const char *
termination_reason (WebKitWebProcessTerminationReason reason)
{
  switch (reason)
    {
    case WEBKIT_WEB_PROCESS_CRASHED:
      return _("the web process crashed");
    case WEBKIT_WEB_PROCESS_EXCEEDED_MEMORY_LIMIT:
      return _("the web process used more memory than allowed");
    case WEBKIT_WEB_PROCESS_TERMINATED_BY_API:
    default:
      return _("the web process was terminated");
    }
}

static gboolean
recover_cb (gpointer user_data)
{
  CgRenderer *self = user_data;

  self->recover_id = 0;
  replace_view (self);
  return G_SOURCE_REMOVE;
}

static void
web_process_terminated_cb (WebKitWebView                     *view,
                           WebKitWebProcessTerminationReason  reason,
                           CgRenderer                        *self)
{
  g_message ("Renderer: %s", termination_reason (reason));
  if (self->task != NULL)
    finish_error (self, g_error_new (CG_RENDER_ERROR, CG_RENDER_ERROR_WEB_PROCESS_TERMINATED,
                                     _("Rendering %s failed: %s"),
                                     self->result->requested_url, termination_reason (reason)));
  /* The view is replaced from the main loop, not from inside its own
   * signal; renders asked for meanwhile wait for it (see render_async). */
  if (self->recover_id == 0)
    self->recover_id = g_idle_add_full (G_PRIORITY_HIGH, recover_cb, self, NULL);
  g_signal_emit (self, signals[SIGNAL_WEB_PROCESS_TERMINATED], 0, (int) reason);
}

/* Nothing a page asks for reaches anyone: no dialogs (they would stop the
 * page until closed), no permissions, printing, file choosers,
 * notifications or full screen. */
static gboolean
script_dialog_cb (WebKitWebView      *view,
                  WebKitScriptDialog *dialog,
                  CgRenderer         *self)
{
  return TRUE;
}

static gboolean
permission_request_cb (WebKitWebView           *view,
                       WebKitPermissionRequest *request,
                       CgRenderer              *self)
{
  webkit_permission_request_deny (request);
  return TRUE;
}

static gboolean
file_chooser_cb (WebKitWebView            *view,
                 WebKitFileChooserRequest *request,
                 CgRenderer               *self)
{
  webkit_file_chooser_request_cancel (request);
  return TRUE;
}

static gboolean
refuse_cb (WebKitWebView *view,
           gpointer       data,
           CgRenderer    *self)
{
  return TRUE;
}

static gboolean
refuse_plain_cb (WebKitWebView *view,
                 CgRenderer    *self)
{
  return TRUE;
}

static gboolean
decide_policy_cb (WebKitWebView            *view,
                  WebKitPolicyDecision     *decision,
                  WebKitPolicyDecisionType  type,
                  CgRenderer               *self)
{
  /* What WebKit cannot show would otherwise become a download. */
  if (type == WEBKIT_POLICY_DECISION_TYPE_RESPONSE &&
      !webkit_response_policy_decision_is_mime_type_supported (WEBKIT_RESPONSE_POLICY_DECISION (decision)))
    {
      webkit_policy_decision_ignore (decision);
      return TRUE;
    }
  return FALSE;
}

static void
replace_view (CgRenderer *self)
{
  g_autoptr(WebKitWebView) old = g_steal_pointer (&self->view);

  if (old != NULL)
    {
      g_signal_handlers_disconnect_by_data (old, self);
      /* A view whose web process is stuck (an endless script) would keep
       * it; ask WebKit to end it before the view goes. */
      webkit_web_view_terminate_web_process (old);
      self->n_recoveries++;
    }

  self->view = g_object_ref_sink (cg_web_context_create_view (self->context));
  g_signal_connect (self->view, "load-changed", G_CALLBACK (load_changed_cb), self);
  g_signal_connect (self->view, "load-failed", G_CALLBACK (load_failed_cb), self);
  g_signal_connect (self->view, "web-process-terminated", G_CALLBACK (web_process_terminated_cb), self);
  g_signal_connect (self->view, "script-dialog", G_CALLBACK (script_dialog_cb), self);
  g_signal_connect (self->view, "permission-request", G_CALLBACK (permission_request_cb), self);
  g_signal_connect (self->view, "run-file-chooser", G_CALLBACK (file_chooser_cb), self);
  g_signal_connect (self->view, "print", G_CALLBACK (refuse_cb), self);
  g_signal_connect (self->view, "show-notification", G_CALLBACK (refuse_cb), self);
  g_signal_connect (self->view, "enter-fullscreen", G_CALLBACK (refuse_plain_cb), self);
  g_signal_connect (self->view, "decide-policy", G_CALLBACK (decide_policy_cb), self);
  gtk_window_set_child (GTK_WINDOW (self->window), GTK_WIDGET (self->view));
}

/* --- The object ---------------------------------------------------------------- */

static void
cg_renderer_dispose (GObject *object)
{
  CgRenderer *self = CG_RENDERER (object);

  if (self->task != NULL)
    finish_error (self, g_error_new (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                     _("The renderer was closed")));
  g_clear_handle_id (&self->recover_id, g_source_remove);
  if (self->view != NULL)
    g_signal_handlers_disconnect_by_data (self->view, self);
  g_clear_object (&self->view);
  if (self->window != NULL)
    gtk_window_destroy (GTK_WINDOW (self->window));
  g_clear_object (&self->window);
  g_clear_object (&self->context);

  G_OBJECT_CLASS (cg_renderer_parent_class)->dispose (object);
}

static void
cg_renderer_class_init (CgRendererClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = cg_renderer_dispose;

  /**
   * CgRenderer::web-process-terminated:
   * @reason: a #WebKitWebProcessTerminationReason
   *
   * The web process of the renderer's view ended; the render under way,
   * if any, failed, and a new view is being made.
   */
  signals[SIGNAL_WEB_PROCESS_TERMINATED] =
    g_signal_new ("web-process-terminated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_INT);
}

static void
cg_renderer_init (CgRenderer *self)
{
}

CgRenderer *
cg_renderer_new (CgWebContext          *context,
                 const CgRenderOptions *options)
{
  CgRenderer *self;

  g_return_val_if_fail (CG_IS_WEB_CONTEXT (context), NULL);
  g_return_val_if_fail (gtk_is_initialized (), NULL);

  self = g_object_new (CG_TYPE_RENDERER, NULL);
  self->context = g_object_ref (context);
  if (options != NULL)
    self->options = *options;
  else
    cg_render_options_init (&self->options);
  self->options.viewport_width = CLAMP (self->options.viewport_width, 200, 8192);
  self->options.viewport_height = CLAMP (self->options.viewport_height, 200, 8192);
  self->options.timeout_ms = MAX (self->options.timeout_ms, 100);

  self->window = g_object_ref_sink (gtk_window_new ());
  gtk_window_set_title (GTK_WINDOW (self->window), _("Cartograph renderer"));
  gtk_window_set_default_size (GTK_WINDOW (self->window),
                               (int) self->options.viewport_width, (int) self->options.viewport_height);
  gtk_window_set_resizable (GTK_WINDOW (self->window), FALSE);
  gtk_window_set_deletable (GTK_WINDOW (self->window), FALSE);
  self->view = NULL;
  replace_view (self);
  self->n_recoveries = 0;
  gtk_window_present (GTK_WINDOW (self->window));
  return self;
}

CgWebContext *
cg_renderer_get_context (CgRenderer *self)
{
  g_return_val_if_fail (CG_IS_RENDERER (self), NULL);
  return self->context;
}

WebKitWebView *
cg_renderer_get_view (CgRenderer *self)
{
  g_return_val_if_fail (CG_IS_RENDERER (self), NULL);
  return self->view;
}

gboolean
cg_renderer_is_busy (CgRenderer *self)
{
  g_return_val_if_fail (CG_IS_RENDERER (self), FALSE);
  return self->task != NULL;
}

guint
cg_renderer_get_n_recoveries (CgRenderer *self)
{
  g_return_val_if_fail (CG_IS_RENDERER (self), 0);
  return self->n_recoveries;
}

static gboolean
timeout_cb (gpointer user_data)
{
  CgRenderer *self = user_data;

  self->timeout_id = 0;
  finish_error (self, g_error_new (CG_RENDER_ERROR, CG_RENDER_ERROR_TIMEOUT,
                                   _("Rendering %s took longer than %.1f s"),
                                   self->result->requested_url, self->options.timeout_ms / 1000.0));
  /* The web process may be stuck in a script; a fresh view is the only
   * sure way on. */
  replace_view (self);
  return G_SOURCE_REMOVE;
}

static gboolean
cancelled_idle_cb (gpointer user_data)
{
  CgRenderer *self = user_data;

  self->cancel_idle_id = 0;
  if (self->task == NULL)
    return G_SOURCE_REMOVE;
  webkit_web_view_stop_loading (self->view);
  finish_error (self, g_error_new (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                   _("Rendering %s was cancelled"), self->result->requested_url));
  return G_SOURCE_REMOVE;
}

/* May run in any thread; the render is ended from the main loop. */
static void
cancelled_cb (GCancellable *cancellable,
              CgRenderer   *self)
{
  GSource *source = g_idle_source_new ();

  g_source_set_callback (source, cancelled_idle_cb, self, NULL);
  self->cancel_idle_id = g_source_attach (source, g_main_context_default ());
  g_source_unref (source);
}

static gboolean
start_load_cb (gpointer user_data)
{
  gboolean current;
  g_autoptr(CgRenderer) self = pending_take (user_data, &current);

  if (!current)
    return G_SOURCE_REMOVE;
  if (self->recover_id != 0)
    {
      g_clear_handle_id (&self->recover_id, g_source_remove);
      replace_view (self);
    }
  self->stage = STAGE_LOADING;
  webkit_web_view_load_uri (self->view, self->result->requested_url);
  return G_SOURCE_REMOVE;
}

void
cg_renderer_render_async (CgRenderer          *self,
                          const char          *url,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GUri) uri = NULL;
  CgArchive *archive;

  g_return_if_fail (CG_IS_RENDERER (self));
  g_return_if_fail (url != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, cg_renderer_render_async);

  if (self->task != NULL)
    {
      g_task_return_new_error (task, CG_RENDER_ERROR, CG_RENDER_ERROR_BUSY,
                               _("The renderer is already rendering %s"), self->result->requested_url);
      return;
    }
  /* http(s) URLs as the crawler would take them (a host, a sane length),
   * and nothing else: about:blank is where WebKit leaves a view whose load
   * it refused, so rendering it would look like a success. A URL that is
   * not UTF-8 is not even loaded by WebKit, and would only time out. */
  if (g_utf8_validate (url, -1, NULL) && uri_is_web (url))
    uri = cg_url_parse (url, CG_URL_NORMALIZE_SYNTAX, NULL);
  if (uri == NULL)
    {
      g_autofree char *shown = g_utf8_make_valid (url, MIN (strlen (url), 200));

      g_task_return_new_error (task, CG_RENDER_ERROR, CG_RENDER_ERROR_BAD_URL,
                               _("“%s” cannot be rendered: only http and https URLs with a host can"),
                               shown);
      return;
    }
  archive = cg_web_context_get_archive (self->context);
  if (archive != NULL && !cg_archive_contains (archive, url))
    {
      g_task_return_new_error (task, CG_RENDER_ERROR, CG_RENDER_ERROR_NOT_IN_ARCHIVE,
                               _("%s is not in the archive “%s”"), url, cg_archive_get_description (archive));
      return;
    }
  if (g_task_return_error_if_cancelled (task))
    return;

  self->task = g_steal_pointer (&task);
  self->generation++;
  self->ops = g_cancellable_new ();
  self->result = g_new0 (CgRenderResult, 1);
  self->result->requested_url = g_strdup (url);
  self->started = g_get_monotonic_time ();
  self->n_loads = 0;
  self->timeout_id = g_timeout_add (self->options.timeout_ms, timeout_cb, self);
  if (cancellable != NULL)
    {
      self->cancellable = g_object_ref (cancellable);
      self->cancelled_id = g_cancellable_connect (cancellable, G_CALLBACK (cancelled_cb), self, NULL);
    }
  /* Loading starts from the main loop, never inside the caller's (or a
   * finished render's) callback. */
  self->stage = STAGE_IDLE;
  g_idle_add (start_load_cb, pending_new (self));
}

CgRenderResult *
cg_renderer_render_finish (CgRenderer    *self,
                           GAsyncResult  *result,
                           GError       **error)
{
  g_return_val_if_fail (CG_IS_RENDERER (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
