/* cg-archived-page.c: an archived page, replayed from the project's WARC files.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "cg-archive.h"
#include "cg-archive-proxy.h"
#include "cg-archived-page.h"
#include "cg-web-context.h"

struct _CgArchivedPage
{
  AdwBin          parent_instance;

  GtkLabel       *url_label;
  GtkSpinner     *spinner;
  GtkStack       *stack;
  AdwBin         *view_bin;
  AdwStatusPage  *error_page;

  CgProject      *project;
  CgArchive      *archive;
  CgWebContext   *context;
  WebKitWebView  *web_view;
  char           *url;
};

G_DEFINE_FINAL_TYPE (CgArchivedPage, cg_archived_page, ADW_TYPE_BIN)

enum {
  SIGNAL_BACK,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
set_url (CgArchivedPage *self,
         const char     *url)
{
  if (g_strcmp0 (self->url, url) == 0)
    return;
  g_free (self->url);
  self->url = g_strdup (url);
  gtk_label_set_label (self->url_label, url != NULL ? url : "");
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->url_label), url);
}

static void
show_error (CgArchivedPage *self,
            const char     *url,
            const char     *reason)
{
  g_autofree char *description = g_strdup_printf (_("%s could not be shown from the archive: %s"), url, reason);

  gtk_spinner_stop (self->spinner);
  adw_status_page_set_description (self->error_page, description);
  gtk_stack_set_visible_child_name (self->stack, "error");
}

/* The archive's answer for a page it could not supply (a WARC file gone
 * or damaged) is a plain page of the proxy's, which no load-failed
 * reports: its headers tell it, and why. */
static void
check_archive_miss (CgArchivedPage *self,
                    WebKitWebView  *view)
{
  WebKitWebResource *resource = webkit_web_view_get_main_resource (view);
  WebKitURIResponse *response = resource != NULL ? webkit_web_resource_get_response (resource) : NULL;
  g_autofree char *reason = NULL;

  if (response == NULL)
    return;
  reason = cg_archive_proxy_describe_miss (webkit_uri_response_get_http_headers (response));
  if (reason != NULL)
    show_error (self, webkit_uri_response_get_uri (response), reason);
}

static void
load_changed_cb (WebKitWebView   *view,
                 WebKitLoadEvent  event,
                 CgArchivedPage  *self)
{
  const char *uri = webkit_web_view_get_uri (view);

  /* about:blank is where a failed load leaves the view; the address of
   * the page asked for says more. */
  if (uri != NULL && !g_str_has_prefix (uri, "about:"))
    set_url (self, uri);
  if (event == WEBKIT_LOAD_STARTED)
    {
      gtk_spinner_start (self->spinner);
      gtk_stack_set_visible_child_name (self->stack, "page");
    }
  else if (event == WEBKIT_LOAD_COMMITTED)
    check_archive_miss (self, view);
  else if (event == WEBKIT_LOAD_FINISHED)
    gtk_spinner_stop (self->spinner);
}

static gboolean
load_failed_cb (WebKitWebView   *view,
                WebKitLoadEvent  event,
                const char      *failing_uri,
                GError          *error,
                CgArchivedPage  *self)
{
  /* A load replaced by another one is not a failure to show. */
  if (g_error_matches (error, WEBKIT_NETWORK_ERROR, WEBKIT_NETWORK_ERROR_CANCELLED))
    return FALSE;
  show_error (self, failing_uri, error->message);
  return TRUE;
}

static void
drop_web_view (CgArchivedPage *self)
{
  if (self->web_view != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->web_view, self);
      webkit_web_view_stop_loading (self->web_view);
      adw_bin_set_child (self->view_bin, NULL);
      g_clear_object (&self->web_view);
    }
  g_clear_object (&self->context);
  g_clear_object (&self->archive);
  g_clear_object (&self->project);
}

gboolean
cg_archived_page_load (CgArchivedPage  *self,
                       CgProject       *project,
                       const char      *url,
                       GError         **error)
{
  g_return_val_if_fail (CG_IS_ARCHIVED_PAGE (self), FALSE);
  g_return_val_if_fail (CG_IS_PROJECT (project), FALSE);
  g_return_val_if_fail (url != NULL, FALSE);

  if (project != self->project)
    {
      g_autoptr(CgArchive) archive = NULL;
      g_autoptr(CgWebContext) context = NULL;

      /* Every crawl of the project: the links of an explored page may lead
       * to pages only a later harvest archived. */
      archive = cg_archive_new_for_project (cg_project_get_folder (project), 0, error);
      if (archive == NULL)
        return FALSE;
      if (!cg_archive_contains (archive, url))
        {
          g_set_error (error, CG_ARCHIVE_ERROR, CG_ARCHIVE_ERROR_NOT_FOUND,
                       _("The page %s is not in the archive of the project “%s”"),
                       url, cg_project_get_name (project));
          return FALSE;
        }
      context = cg_web_context_new_for_archive (archive, TRUE, error);
      if (context == NULL)
        return FALSE;

      drop_web_view (self);
      self->project = g_object_ref (project);
      self->archive = g_steal_pointer (&archive);
      self->context = g_steal_pointer (&context);
      self->web_view = g_object_ref_sink (cg_web_context_create_view (self->context));
      gtk_widget_set_vexpand (GTK_WIDGET (self->web_view), TRUE);
      gtk_accessible_update_property (GTK_ACCESSIBLE (self->web_view),
                                      GTK_ACCESSIBLE_PROPERTY_LABEL, _("Archived page"),
                                      -1);
      g_signal_connect (self->web_view, "load-changed", G_CALLBACK (load_changed_cb), self);
      g_signal_connect (self->web_view, "load-failed", G_CALLBACK (load_failed_cb), self);
      adw_bin_set_child (self->view_bin, GTK_WIDGET (self->web_view));
    }
  else if (!cg_archive_contains (self->archive, url))
    {
      g_set_error (error, CG_ARCHIVE_ERROR, CG_ARCHIVE_ERROR_NOT_FOUND,
                   _("The page %s is not in the archive of the project “%s”"),
                   url, cg_project_get_name (project));
      return FALSE;
    }

  set_url (self, url);
  gtk_stack_set_visible_child_name (self->stack, "page");
  webkit_web_view_load_uri (self->web_view, url);
  return TRUE;
}

const char *
cg_archived_page_get_url (CgArchivedPage *self)
{
  g_return_val_if_fail (CG_IS_ARCHIVED_PAGE (self), NULL);
  return self->url;
}

CgProject *
cg_archived_page_get_project (CgArchivedPage *self)
{
  g_return_val_if_fail (CG_IS_ARCHIVED_PAGE (self), NULL);
  return self->project;
}

WebKitWebView *
cg_archived_page_get_web_view (CgArchivedPage *self)
{
  g_return_val_if_fail (CG_IS_ARCHIVED_PAGE (self), NULL);
  return self->web_view;
}

static void
back_clicked_cb (CgArchivedPage *self)
{
  g_signal_emit (self, signals[SIGNAL_BACK], 0);
}

static gboolean
back_shortcut_cb (GtkWidget *widget,
                  GVariant  *args,
                  gpointer   user_data)
{
  g_signal_emit (widget, signals[SIGNAL_BACK], 0);
  return TRUE;
}

static void
cg_archived_page_dispose (GObject *object)
{
  CgArchivedPage *self = CG_ARCHIVED_PAGE (object);

  drop_web_view (self);
  G_OBJECT_CLASS (cg_archived_page_parent_class)->dispose (object);
}

static void
cg_archived_page_finalize (GObject *object)
{
  CgArchivedPage *self = CG_ARCHIVED_PAGE (object);

  g_free (self->url);
  G_OBJECT_CLASS (cg_archived_page_parent_class)->finalize (object);
}

static void
cg_archived_page_class_init (CgArchivedPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = cg_archived_page_dispose;
  object_class->finalize = cg_archived_page_finalize;

  signals[SIGNAL_BACK] = g_signal_new ("back", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                       0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  gtk_widget_class_add_binding (widget_class, GDK_KEY_Escape, 0, back_shortcut_cb, NULL);
}

/* Built in code rather than from a template: it is a bar and a view. */
static void
cg_archived_page_init (CgArchivedPage *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *back = gtk_button_new_from_icon_name ("go-previous-symbolic");
  GtkWidget *title = gtk_label_new (_("Archived Page"));
  GtkEventController *shortcuts = gtk_shortcut_controller_new ();
  GtkShortcutTrigger *trigger;

  gtk_widget_add_css_class (bar, "toolbar");
  gtk_widget_set_tooltip_text (back, _("Back to the Class"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (back), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Back to the Class"), -1);
  g_signal_connect_swapped (back, "clicked", G_CALLBACK (back_clicked_cb), self);
  gtk_box_append (GTK_BOX (bar), back);

  gtk_widget_add_css_class (title, "heading");
  gtk_box_append (GTK_BOX (bar), title);

  self->url_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_selectable (self->url_label, TRUE);
  gtk_label_set_ellipsize (self->url_label, PANGO_ELLIPSIZE_MIDDLE);
  gtk_label_set_xalign (self->url_label, 0.0);
  gtk_widget_set_hexpand (GTK_WIDGET (self->url_label), TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (self->url_label), "monospace");
  gtk_widget_add_css_class (GTK_WIDGET (self->url_label), "dim-label");
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->url_label), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Address of the archived page"), -1);
  gtk_box_append (GTK_BOX (bar), GTK_WIDGET (self->url_label));

  self->spinner = GTK_SPINNER (gtk_spinner_new ());
  gtk_box_append (GTK_BOX (bar), GTK_WIDGET (self->spinner));
  gtk_box_append (GTK_BOX (box), bar);
  gtk_box_append (GTK_BOX (box), gtk_separator_new (GTK_ORIENTATION_HORIZONTAL));

  self->stack = GTK_STACK (gtk_stack_new ());
  gtk_widget_set_vexpand (GTK_WIDGET (self->stack), TRUE);
  self->view_bin = ADW_BIN (adw_bin_new ());
  gtk_stack_add_named (self->stack, GTK_WIDGET (self->view_bin), "page");
  self->error_page = ADW_STATUS_PAGE (adw_status_page_new ());
  adw_status_page_set_icon_name (self->error_page, "dialog-error-symbolic");
  adw_status_page_set_title (self->error_page, _("The Page Cannot Be Shown"));
  gtk_stack_add_named (self->stack, GTK_WIDGET (self->error_page), "error");
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->stack));

  adw_bin_set_child (ADW_BIN (self), box);

  /* Alt+Left is the browser's back key; it is caught before the web view,
   * which would otherwise take it for the page's own history. */
  trigger = gtk_alternative_trigger_new (gtk_keyval_trigger_new (GDK_KEY_Left, GDK_ALT_MASK),
                                         gtk_keyval_trigger_new (GDK_KEY_Back, 0));
  gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (shortcuts),
                                        gtk_shortcut_new (trigger, gtk_callback_action_new (back_shortcut_cb, NULL, NULL)));
  gtk_event_controller_set_propagation_phase (shortcuts, GTK_PHASE_CAPTURE);
  gtk_widget_add_controller (GTK_WIDGET (self), shortcuts);
}

GtkWidget *
cg_archived_page_new (void)
{
  return g_object_new (CG_TYPE_ARCHIVED_PAGE, NULL);
}
