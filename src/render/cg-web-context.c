/* cg-web-context.c: WebKit views that web content cannot escape from.
 *
 * Every page Cartograph shows or renders comes from the web or from an
 * archive of it, so none of it is trusted: sessions are ephemeral (nothing
 * a site stores survives), file access from pages is off, and navigation
 * is refused for any scheme but http, https and about. WebKitGTK 6.0 also
 * runs every web process in a bubblewrap sandbox; Cartograph never turns
 * that off.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "cg-archive-proxy.h"
#include "cg-web-context.h"

struct _CgWebContext
{
  GObject                parent_instance;
  WebKitNetworkSession  *network_session;
  WebKitSettings        *settings;
  gboolean               javascript;
  CgArchiveProxy        *proxy;
};

G_DEFINE_TYPE (CgWebContext, cg_web_context, G_TYPE_OBJECT)

static void
cg_web_context_finalize (GObject *object)
{
  CgWebContext *self = CG_WEB_CONTEXT (object);

  g_clear_object (&self->network_session);
  g_clear_object (&self->settings);
  g_clear_object (&self->proxy);

  G_OBJECT_CLASS (cg_web_context_parent_class)->finalize (object);
}

static void
cg_web_context_class_init (CgWebContextClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = cg_web_context_finalize;
}

static void
cg_web_context_init (CgWebContext *self)
{
}

/* A download would write what a page sends into a local file. */
static void
download_started_cb (WebKitNetworkSession *session,
                     WebKitDownload       *download,
                     gpointer              user_data)
{
  webkit_download_cancel (download);
}

CgWebContext *
cg_web_context_new (gboolean javascript)
{
  CgWebContext *self = g_object_new (CG_TYPE_WEB_CONTEXT, NULL);

  self->javascript = javascript;
  self->network_session = webkit_network_session_new_ephemeral ();
  g_signal_connect (self->network_session, "download-started", G_CALLBACK (download_started_cb), NULL);
  /* JavaScript itself stays on so that the capture script can run; the
   * markup switch is what keeps the page's scripts from running. */
  self->settings = webkit_settings_new_with_settings (
      "enable-javascript", TRUE,
      "enable-javascript-markup", javascript,
      "allow-file-access-from-file-urls", FALSE,
      "allow-top-navigation-to-data-urls", FALSE,
      "enable-media-stream", FALSE,
      "enable-webrtc", FALSE,
      "enable-encrypted-media", FALSE,
      "javascript-can-access-clipboard", FALSE,
      "allow-universal-access-from-file-urls", FALSE,
      "enable-developer-extras", FALSE,
      "enable-back-forward-navigation-gestures", FALSE,
      "javascript-can-open-windows-automatically", FALSE,
      "enable-page-cache", FALSE,
      /* Pages are laid out to be measured and shown as thumbnails, not
       * scrolled: without a GPU (as under Xvfb) accelerated compositing
       * runs on Mesa's software GL, which costs about a third more CPU
       * and 100 MB more per view than WebKit's own software painting. */
      "hardware-acceleration-policy", WEBKIT_HARDWARE_ACCELERATION_POLICY_NEVER,
      NULL);
  webkit_settings_set_user_agent_with_application_details (self->settings, "Cartograph", PACKAGE_VERSION);
  return self;
}

CgWebContext *
cg_web_context_new_for_archive (CgArchive  *archive,
                                gboolean    javascript,
                                GError    **error)
{
  g_autoptr(CgWebContext) self = NULL;
  g_autoptr(WebKitNetworkProxySettings) proxy_settings = NULL;
  const char * const no_exceptions[] = { NULL };

  g_return_val_if_fail (CG_IS_ARCHIVE (archive), NULL);

  self = cg_web_context_new (javascript);
  self->proxy = cg_archive_proxy_new (archive, error);
  if (self->proxy == NULL)
    return NULL;
  /* Every request of the session, whatever its host (127.0.0.1 too), goes
   * to the proxy; so TLS errors can be ignored: the only TLS peer this
   * session can reach is the proxy's tunnel end, with its self-signed
   * certificate. */
  proxy_settings = webkit_network_proxy_settings_new (cg_archive_proxy_get_uri (self->proxy), no_exceptions);
  webkit_network_session_set_proxy_settings (self->network_session, WEBKIT_NETWORK_PROXY_MODE_CUSTOM,
                                             proxy_settings);
  webkit_network_session_set_tls_errors_policy (self->network_session, WEBKIT_TLS_ERRORS_POLICY_IGNORE);
  return g_steal_pointer (&self);
}

CgArchive *
cg_web_context_get_archive (CgWebContext *self)
{
  g_return_val_if_fail (CG_IS_WEB_CONTEXT (self), NULL);
  return self->proxy != NULL ? cg_archive_proxy_get_archive (self->proxy) : NULL;
}

gboolean
cg_web_context_get_javascript (CgWebContext *self)
{
  g_return_val_if_fail (CG_IS_WEB_CONTEXT (self), FALSE);
  return self->javascript;
}

gboolean
cg_web_context_uri_is_allowed (const char *uri)
{
  g_autofree char *scheme = NULL;

  if (uri == NULL)
    return FALSE;
  scheme = g_uri_parse_scheme (uri);
  return scheme != NULL &&
         (g_ascii_strcasecmp (scheme, "http") == 0 ||
          g_ascii_strcasecmp (scheme, "https") == 0 ||
          g_ascii_strcasecmp (scheme, "about") == 0);
}

static gboolean
decide_policy_cb (WebKitWebView            *view,
                  WebKitPolicyDecision     *decision,
                  WebKitPolicyDecisionType  type,
                  gpointer                  user_data)
{
  WebKitNavigationAction *action;
  WebKitURIRequest *request;

  if (type == WEBKIT_POLICY_DECISION_TYPE_RESPONSE)
    return FALSE;

  action = webkit_navigation_policy_decision_get_navigation_action (WEBKIT_NAVIGATION_POLICY_DECISION (decision));
  request = webkit_navigation_action_get_request (action);
  if (!cg_web_context_uri_is_allowed (webkit_uri_request_get_uri (request)))
    {
      webkit_policy_decision_ignore (decision);
      return TRUE;
    }

  /* Pages that open new windows stay in the one view. */
  if (type == WEBKIT_POLICY_DECISION_TYPE_NEW_WINDOW_ACTION)
    {
      webkit_policy_decision_ignore (decision);
      return TRUE;
    }
  return FALSE;
}

WebKitWebView *
cg_web_context_create_view (CgWebContext *self)
{
  WebKitWebView *view;

  g_return_val_if_fail (CG_IS_WEB_CONTEXT (self), NULL);

  view = g_object_new (WEBKIT_TYPE_WEB_VIEW,
                       "network-session", self->network_session,
                       "settings", self->settings,
                       NULL);
  g_signal_connect (view, "decide-policy", G_CALLBACK (decide_policy_cb), NULL);
  return view;
}
