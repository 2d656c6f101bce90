/* cg-class-view.c: one page class of a site model: samples, records, wrapper.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "cg-archived-page.h"
#include "cg-class-view.h"
#include "cg-record-store.h"
#include "cg-records-table.h"
#include "cg-wrapper.h"

struct _CgClassView
{
  AdwBin          parent_instance;

  GtkStack       *stack;
  AdwStatusPage  *none_page;
  GtkLabel       *label_label;
  GtkLabel       *name_label;
  GtkLabel       *pattern_label;
  GtkLabel       *depth_label;
  GtkLabel       *pages_label;
  GtkLabel       *records_label;
  GtkMenuButton  *rename_button;
  GtkPopover     *rename_popover;
  GtkEntry       *rename_entry;
  GtkButton      *rename_confirm;
  GtkStack       *samples_stack;
  GtkFlowBox     *samples_box;
  CgRecordsTable *records_table;
  GtkStack       *wrapper_stack;
  GtkBox         *wrapper_box;
  CgArchivedPage *archived_page;

  CgProject      *project;
  CgSiteModel    *model;
  char           *class_name;
  char           *records_class; /* the class whose records the table has */
  GStrv           sample_urls;   /* those shown, in the order of their files */
};

G_DEFINE_FINAL_TYPE (CgClassView, cg_class_view, ADW_TYPE_BIN)

enum {
  SIGNAL_CLASS_RENAMED,
  SIGNAL_TOAST,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
show_toast (CgClassView *self,
            const char  *message)
{
  gboolean handled = FALSE;

  g_signal_emit (self, signals[SIGNAL_TOAST], 0, message, &handled);
  if (!handled && !gtk_widget_activate_action (GTK_WIDGET (self), "win.toast", "s", message))
    g_message ("%s", message);
}

static gboolean
records_toast_cb (CgClassView    *self,
                  const char     *message,
                  CgRecordsTable *table)
{
  show_toast (self, message);
  return TRUE;
}

static CgPageClass *
get_class (CgClassView *self)
{
  if (self->model == NULL || self->class_name == NULL)
    return NULL;
  return cg_site_model_get_class (self->model, self->class_name);
}

static const char *
describe_column_kind (CgClustvxItemKind kind)
{
  switch (kind)
    {
    case CG_CLUSTVX_ITEM_LINK:
      return _("Link");
    case CG_CLUSTVX_ITEM_IMAGE:
      return _("Image");
    case CG_CLUSTVX_ITEM_PRICE:
      return _("Price");
    case CG_CLUSTVX_ITEM_DATE:
      return _("Date");
    case CG_CLUSTVX_ITEM_TEXT:
    default:
      return _("Text");
    }
}

static void
clear_wrapper_box (CgClassView *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->wrapper_box))) != NULL)
    gtk_box_remove (self->wrapper_box, child);
}

/* A row whose value is an XPath: monospace and selectable, so that it can
 * be copied into another tool. */
static GtkWidget *
make_xpath_row (const char *title,
                const char *subtitle,
                const char *xpath)
{
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *value = gtk_label_new (xpath);

  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  if (subtitle != NULL)
    adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
  gtk_label_set_selectable (GTK_LABEL (value), TRUE);
  gtk_label_set_wrap (GTK_LABEL (value), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (value), PANGO_WRAP_CHAR);
  gtk_label_set_xalign (GTK_LABEL (value), 1.0);
  /* A wrapping label asks for little room unless told how much it wants;
   * XPaths break anywhere. */
  gtk_label_set_width_chars (GTK_LABEL (value), MIN (g_utf8_strlen (xpath, -1), 40));
  gtk_label_set_max_width_chars (GTK_LABEL (value), 48);
  gtk_widget_add_css_class (value, "monospace");
  gtk_accessible_update_property (GTK_ACCESSIBLE (value), GTK_ACCESSIBLE_PROPERTY_LABEL, title, -1);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), value);
  return row;
}

static GtkWidget *
make_fact_row (const char *title,
               const char *value)
{
  GtkWidget *row = adw_action_row_new ();

  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), value);
  gtk_widget_add_css_class (row, "property");
  return row;
}

/* Shows the stored @wrapper: its facts, then each region of @definition,
 * which is the wrapper as read from the store, or NULL with @read_error
 * saying why it could not be read. */
static void
show_wrapper (CgClassView           *self,
              const CgStoredWrapper *wrapper,
              CgWrapper             *definition,
              const GError          *read_error)
{
  GtkWidget *group = adw_preferences_group_new ();
  g_autofree char *pages = g_strdup_printf (ngettext ("%u page", "%u pages", wrapper->n_pages), wrapper->n_pages);
  g_autoptr(GDateTime) when = g_date_time_new_from_unix_local (wrapper->created_at / G_USEC_PER_SEC);
  g_autofree char *learned = when != NULL ? g_date_time_format (when, "%c") : g_strdup ("");

  clear_wrapper_box (self);
  adw_preferences_group_set_title (ADW_PREFERENCES_GROUP (group), _("Wrapper"));
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (group),
                             make_fact_row (_("Kind"), wrapper->kind == CG_WRAPPER_LIST
                                                         ? _("List: many records on each page")
                                                         : _("Detail: one record on each page")));
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (group), make_fact_row (_("Learned on"), pages));
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (group), make_fact_row (_("Learned"), learned));
  gtk_box_append (self->wrapper_box, group);

  if (read_error != NULL)
    {
      g_autofree char *message = g_strdup_printf (_("The wrapper’s definition cannot be read: %s"), read_error->message);
      GtkWidget *label = gtk_label_new (message);

      gtk_label_set_wrap (GTK_LABEL (label), TRUE);
      gtk_label_set_xalign (GTK_LABEL (label), 0.0);
      gtk_widget_add_css_class (label, "error");
      gtk_box_append (self->wrapper_box, label);
      gtk_stack_set_visible_child_name (self->wrapper_stack, "wrapper");
      return;
    }

  for (guint i = 0; i < cg_wrapper_get_n_regions (definition); i++)
    {
      const char * const *columns = cg_wrapper_get_columns (definition, i);
      /* Numbered from 0 as cartograph-cli export --region and the
       * exported region_index number them; the first is the main one. */
      g_autofree char *title = i == 0 ? g_strdup (_("Region 0, the main one")) : g_strdup_printf (_("Region %u"), i);

      group = adw_preferences_group_new ();
      adw_preferences_group_set_title (ADW_PREFERENCES_GROUP (group), title);
      adw_preferences_group_add (ADW_PREFERENCES_GROUP (group),
                                 make_xpath_row (_("Region"), _("Absolute, on the page"),
                                                 cg_wrapper_get_region_xpath (definition, i)));
      adw_preferences_group_add (ADW_PREFERENCES_GROUP (group),
                                 make_xpath_row (_("Record"), _("Relative to the region"),
                                                 cg_wrapper_get_record_xpath (definition, i)));
      for (guint j = 0; columns[j] != NULL; j++)
        adw_preferences_group_add (ADW_PREFERENCES_GROUP (group),
                                   make_xpath_row (columns[j],
                                                   describe_column_kind (cg_wrapper_get_column_kind (definition, i, j)),
                                                   cg_wrapper_get_column_xpath (definition, i, j)));
      gtk_box_append (self->wrapper_box, group);
    }
  gtk_stack_set_visible_child_name (self->wrapper_stack, "wrapper");
}

void
cg_class_view_reload_records (CgClassView *self)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CgStoredWrapper) wrapper = NULL;
  g_autoptr(GPtrArray) records = NULL;
  g_autoptr(CgWrapper) definition = NULL;
  g_autofree char *count = NULL;
  CgStore *store;
  gint64 model_id;
  int region = -1;
  guint n_records;

  g_return_if_fail (CG_IS_CLASS_VIEW (self));

  if (get_class (self) == NULL || self->project == NULL)
    {
      cg_records_table_set_records (self->records_table, NULL, NULL);
      g_clear_pointer (&self->records_class, g_free);
      clear_wrapper_box (self);
      gtk_stack_set_visible_child_name (self->wrapper_stack, "none");
      return;
    }
  store = cg_project_get_store (self->project);
  model_id = cg_site_model_get_id (self->model);

  wrapper = cg_record_store_load_wrapper (store, model_id, self->class_name, &error);
  if (wrapper == NULL)
    {
      if (!g_error_matches (error, CG_STORE_ERROR, CG_STORE_ERROR_NOT_FOUND))
        show_toast (self, error->message);
      g_clear_error (&error);
      clear_wrapper_box (self);
      gtk_stack_set_visible_child_name (self->wrapper_stack, "none");
    }
  else
    {
      definition = cg_wrapper_new_from_json (wrapper->definition, &error);
      show_wrapper (self, wrapper, definition, error);
      g_clear_error (&error);
    }

  records = cg_record_store_list (store, model_id, self->class_name, &error);
  if (records == NULL)
    {
      g_autofree char *message = g_strdup_printf (_("The records of the class “%s” cannot be read: %s"),
                                                  self->class_name, error->message);

      show_toast (self, message);
    }
  /* Reading the records again (an extraction or a harvest added some)
   * keeps the region chosen; another class starts at its main region. */
  if (g_strcmp0 (self->records_class, self->class_name) == 0)
    region = cg_records_table_get_region (self->records_table);
  cg_records_table_set_class_records (self->records_table, wrapper != NULL ? wrapper->definition : NULL, records);
  if (region >= 0)
    cg_records_table_set_region (self->records_table, (guint) region);
  g_free (self->records_class);
  self->records_class = g_strdup (self->class_name);
  /* The class's records, whatever the region shown. */
  n_records = records != NULL ? records->len : 0;
  count = g_strdup_printf (ngettext ("%u record", "%u records", n_records), n_records);
  gtk_label_set_label (self->records_label, count);
}

/* Samples. */

static GdkTexture *
load_thumbnail (const char  *path,
                GError     **error)
{
  g_autoptr(GdkPixbuf) pixbuf = NULL;
  GStatBuf st;

  if (g_stat (path, &st) != 0)
    {
      int saved = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                   _("No thumbnail at %s: %s"), path, g_strerror (saved));
      return NULL;
    }
  if (st.st_size > CG_CLASS_VIEW_MAX_THUMBNAIL_SIZE)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE,
                   _("The thumbnail %s is larger than %d MB"), path, CG_CLASS_VIEW_MAX_THUMBNAIL_SIZE / (1024 * 1024));
      return NULL;
    }
  /* Scaled when read: a picture asks for its image's own size, and the
   * thumbnails are larger than a strip of them should be. */
  pixbuf = gdk_pixbuf_new_from_file_at_scale (path, CG_CLASS_VIEW_THUMBNAIL_WIDTH, -1, TRUE, error);
  if (pixbuf == NULL)
    return NULL;
  return gdk_texture_new_for_pixbuf (pixbuf);
}

static GtkWidget *
make_sample (const char *url,
             guint       number,
             const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GdkTexture) texture = load_thumbnail (path, &error);
  g_autoptr(GUri) uri = g_uri_parse (url, G_URI_FLAGS_NONE, NULL);
  g_autofree char *caption = NULL;
  g_autofree char *accessible = g_strdup_printf (_("Sample page %u: %s"), number, url);
  GtkWidget *child = gtk_flow_box_child_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *frame = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *label;

  gtk_widget_add_css_class (frame, "card");
  gtk_widget_set_overflow (frame, GTK_OVERFLOW_HIDDEN);
  gtk_widget_set_valign (frame, GTK_ALIGN_START);
  gtk_widget_set_valign (box, GTK_ALIGN_START);
  gtk_widget_set_size_request (frame, CG_CLASS_VIEW_THUMBNAIL_WIDTH, CG_CLASS_VIEW_THUMBNAIL_WIDTH * 5 / 8);
  if (texture != NULL)
    {
      GtkWidget *picture = gtk_picture_new_for_paintable (GDK_PAINTABLE (texture));

      gtk_picture_set_content_fit (GTK_PICTURE (picture), GTK_CONTENT_FIT_CONTAIN);
      gtk_picture_set_can_shrink (GTK_PICTURE (picture), FALSE);
      gtk_box_append (GTK_BOX (frame), picture);
      gtk_widget_set_tooltip_text (child, url);
    }
  else
    {
      GtkWidget *icon = gtk_image_new_from_icon_name ("image-missing-symbolic");
      g_autofree char *tooltip = g_strdup_printf ("%s\n%s", url, error->message);

      /* A sample whose thumbnail is missing (not rendered yet, or deleted)
       * can still be opened from the archive. */
      gtk_image_set_pixel_size (GTK_IMAGE (icon), 48);
      gtk_widget_add_css_class (icon, "dim-label");
      gtk_widget_set_vexpand (icon, TRUE);
      gtk_box_append (GTK_BOX (frame), icon);
      gtk_widget_set_tooltip_text (child, tooltip);
    }
  gtk_box_append (GTK_BOX (box), frame);

  /* The path and query say which page it is; the host is the same for
   * every sample. */
  if (uri != NULL)
    caption = g_uri_join (G_URI_FLAGS_NONE, NULL, NULL, NULL, -1, g_uri_get_path (uri),
                          g_uri_get_query (uri), NULL);
  label = gtk_label_new (caption != NULL ? caption : url);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_MIDDLE);
  gtk_label_set_max_width_chars (GTK_LABEL (label), 24);
  gtk_widget_add_css_class (label, "caption");
  gtk_box_append (GTK_BOX (box), label);

  gtk_flow_box_child_set_child (GTK_FLOW_BOX_CHILD (child), box);
  gtk_accessible_update_property (GTK_ACCESSIBLE (child), GTK_ACCESSIBLE_PROPERTY_LABEL, accessible, -1);
  return child;
}

void
cg_class_view_reload_samples (CgClassView *self)
{
  g_autoptr(GStrvBuilder) shown = g_strv_builder_new ();
  g_autofree char *thumbnails = NULL;
  g_autofree char *folder = NULL;
  CgPageClass *klass;
  GtkWidget *child;

  g_return_if_fail (CG_IS_CLASS_VIEW (self));

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->samples_box))) != NULL)
    gtk_flow_box_remove (self->samples_box, child);
  g_clear_pointer (&self->sample_urls, g_strfreev);

  klass = get_class (self);
  if (klass == NULL || self->project == NULL || klass->samples == NULL || klass->samples[0] == NULL)
    {
      gtk_stack_set_visible_child_name (self->samples_stack, "none");
      return;
    }

  /* Where the class sampler puts them: CLASS-N.png, N counting the
   * model's samples of the class from 1. */
  thumbnails = cg_project_get_thumbnails_dir (self->project);
  folder = g_strdup_printf ("model-%d", cg_site_model_get_version (self->model));
  for (guint i = 0; klass->samples[i] != NULL && i < CG_CLASS_VIEW_MAX_SAMPLES; i++)
    {
      g_autofree char *name = g_strdup_printf ("%s-%u.png", klass->name, i + 1);
      g_autofree char *path = g_build_filename (thumbnails, folder, name, NULL);

      gtk_flow_box_append (self->samples_box, make_sample (klass->samples[i], i + 1, path));
      g_strv_builder_add (shown, klass->samples[i]);
    }
  self->sample_urls = g_strv_builder_end (shown);
  gtk_stack_set_visible_child_name (self->samples_stack, "samples");
}

gboolean
cg_class_view_open_sample (CgClassView  *self,
                           guint         index,
                           GError      **error)
{
  g_return_val_if_fail (CG_IS_CLASS_VIEW (self), FALSE);

  if (self->sample_urls == NULL || index >= g_strv_length (self->sample_urls))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   _("The class has no sample page %u"), index + 1);
      return FALSE;
    }
  if (!cg_archived_page_load (self->archived_page, self->project, self->sample_urls[index], error))
    return FALSE;
  gtk_stack_set_visible_child_name (self->stack, "archived");
  gtk_widget_grab_focus (GTK_WIDGET (self->archived_page));
  return TRUE;
}

static void
sample_activated_cb (CgClassView     *self,
                     GtkFlowBoxChild *child,
                     GtkFlowBox      *box)
{
  g_autoptr(GError) error = NULL;
  int index = gtk_flow_box_child_get_index (child);

  if (index >= 0 && !cg_class_view_open_sample (self, (guint) index, &error))
    show_toast (self, error->message);
}

void
cg_class_view_show_class (CgClassView *self)
{
  g_return_if_fail (CG_IS_CLASS_VIEW (self));

  if (get_class (self) == NULL)
    return;
  gtk_stack_set_visible_child_name (self->stack, "class");
}

/* Back from an archived page to its class; FALSE when none is shown. */
gboolean
cg_class_view_go_back (CgClassView *self)
{
  g_return_val_if_fail (CG_IS_CLASS_VIEW (self), FALSE);

  if (g_strcmp0 (gtk_stack_get_visible_child_name (self->stack), "archived") != 0)
    return FALSE;
  cg_class_view_show_class (self);
  gtk_widget_grab_focus (GTK_WIDGET (self->samples_box));
  return TRUE;
}

static void
archived_back_cb (CgClassView    *self,
                  CgArchivedPage *page)
{
  cg_class_view_show_class (self);
  gtk_widget_grab_focus (GTK_WIDGET (self->samples_box));
}

/* The header. */

static void
show_header (CgClassView *self,
             CgPageClass *klass)
{
  g_autofree char *depth = NULL;
  g_autofree char *pages = NULL;

  gtk_label_set_label (self->label_label, klass->label != NULL ? klass->label : klass->name);
  gtk_label_set_label (self->name_label, klass->name);
  if (klass->url_pattern != NULL)
    {
      gtk_label_set_label (self->pattern_label, klass->url_pattern);
      gtk_widget_remove_css_class (GTK_WIDGET (self->pattern_label), "dim-label");
    }
  else
    {
      gtk_label_set_label (self->pattern_label, _("No URL pattern: the class’s addresses have none in common"));
      gtk_widget_add_css_class (GTK_WIDGET (self->pattern_label), "dim-label");
    }
  if (klass->depth < 0)
    depth = g_strdup (_("Not reachable from the entry page"));
  else
    depth = g_strdup_printf (_("Depth %d"), klass->depth);
  gtk_label_set_label (self->depth_label, depth);
  pages = g_strdup_printf (ngettext ("%u page in the sample", "%u pages in the sample", klass->n_pages), klass->n_pages);
  gtk_label_set_label (self->pages_label, pages);
}

static char *
make_export_name (const char *class_name)
{
  char *name = g_strdup_printf ("%s-records", class_name);

  /* Class names are the learner's, but a file name must not take a
   * separator or a dot-file from one. */
  for (char *p = name; *p != '\0'; p++)
    if (!g_ascii_isalnum (*p) && *p != '-' && *p != '_')
      *p = '-';
  return name;
}

void
cg_class_view_set_class (CgClassView *self,
                         CgProject   *project,
                         CgSiteModel *model,
                         const char  *class_name)
{
  g_autofree char *export_name = NULL;
  CgPageClass *klass;

  g_return_if_fail (CG_IS_CLASS_VIEW (self));
  g_return_if_fail (project == NULL || CG_IS_PROJECT (project));
  g_return_if_fail (model == NULL || CG_IS_SITE_MODEL (model));

  g_set_object (&self->project, project);
  g_set_object (&self->model, model);
  g_free (self->class_name);
  self->class_name = g_strdup (class_name);
  gtk_menu_button_popdown (self->rename_button);

  klass = get_class (self);
  if (klass == NULL)
    {
      g_autofree char *description = NULL;

      if (model != NULL && class_name != NULL)
        {
          description = g_strdup_printf (_("The model has no class “%s”."), class_name);
          adw_status_page_set_title (self->none_page, _("No Such Class"));
          adw_status_page_set_description (self->none_page, description);
        }
      else
        {
          adw_status_page_set_title (self->none_page, _("No Class Selected"));
          adw_status_page_set_description (self->none_page, _("Choose a page class in the site model to see its sample pages, its records and its wrapper."));
        }
      cg_class_view_reload_samples (self);
      cg_class_view_reload_records (self);
      gtk_stack_set_visible_child_name (self->stack, "none");
      return;
    }

  show_header (self, klass);
  export_name = make_export_name (klass->name);
  cg_records_table_set_export_name (self->records_table, export_name);
  cg_records_table_set_search_text (self->records_table, "");
  cg_class_view_reload_samples (self);
  cg_class_view_reload_records (self);
  gtk_stack_set_visible_child_name (self->stack, "class");
}

const char *
cg_class_view_get_class_name (CgClassView *self)
{
  g_return_val_if_fail (CG_IS_CLASS_VIEW (self), NULL);
  return self->class_name;
}

CgProject *
cg_class_view_get_project (CgClassView *self)
{
  g_return_val_if_fail (CG_IS_CLASS_VIEW (self), NULL);
  return self->project;
}

CgSiteModel *
cg_class_view_get_model (CgClassView *self)
{
  g_return_val_if_fail (CG_IS_CLASS_VIEW (self), NULL);
  return self->model;
}

GtkWidget *
cg_class_view_get_records_table (CgClassView *self)
{
  g_return_val_if_fail (CG_IS_CLASS_VIEW (self), NULL);
  return GTK_WIDGET (self->records_table);
}

GtkFlowBox *
cg_class_view_get_samples (CgClassView *self)
{
  g_return_val_if_fail (CG_IS_CLASS_VIEW (self), NULL);
  return self->samples_box;
}

GtkWidget *
cg_class_view_get_archived_page (CgClassView *self)
{
  g_return_val_if_fail (CG_IS_CLASS_VIEW (self), NULL);
  return GTK_WIDGET (self->archived_page);
}

/* Renaming. */

gboolean
cg_class_view_rename (CgClassView  *self,
                      const char   *label,
                      GError      **error)
{
  g_autofree char *stripped = NULL;
  CgPageClass *klass;

  g_return_val_if_fail (CG_IS_CLASS_VIEW (self), FALSE);
  g_return_val_if_fail (label != NULL, FALSE);

  klass = get_class (self);
  if (klass == NULL)
    {
      g_set_error (error, CG_SITE_MODEL_ERROR, CG_SITE_MODEL_ERROR_NOT_FOUND, _("No class is shown"));
      return FALSE;
    }
  if (!g_utf8_validate (label, -1, NULL))
    {
      g_set_error (error, CG_SITE_MODEL_ERROR, CG_SITE_MODEL_ERROR_INVALID,
                   _("The new name of the class “%s” is not valid UTF-8"), klass->name);
      return FALSE;
    }
  stripped = g_strstrip (g_strdup (label));
  if (g_utf8_strlen (stripped, -1) > CG_CLASS_VIEW_MAX_LABEL_LENGTH)
    {
      g_set_error (error, CG_SITE_MODEL_ERROR, CG_SITE_MODEL_ERROR_INVALID,
                   _("A class name can have at most %d characters"), CG_CLASS_VIEW_MAX_LABEL_LENGTH);
      return FALSE;
    }
  if (g_strcmp0 (stripped, klass->label) == 0)
    return TRUE;
  if (!cg_site_model_rename_class (self->model, cg_project_get_store (self->project), klass->name, stripped, error))
    return FALSE;
  show_header (self, klass);
  g_signal_emit (self, signals[SIGNAL_CLASS_RENAMED], 0, klass->name, klass->label);
  return TRUE;
}

static void
rename_popover_show_cb (CgClassView *self,
                        GtkPopover  *popover)
{
  CgPageClass *klass = get_class (self);

  gtk_widget_remove_css_class (GTK_WIDGET (self->rename_entry), "error");
  gtk_editable_set_text (GTK_EDITABLE (self->rename_entry), klass != NULL && klass->label != NULL ? klass->label : "");
  gtk_editable_select_region (GTK_EDITABLE (self->rename_entry), 0, -1);
  gtk_widget_grab_focus (GTK_WIDGET (self->rename_entry));
}

static void
rename_action_cb (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  CgClassView *self = CG_CLASS_VIEW (widget);
  g_autoptr(GError) error = NULL;

  if (!cg_class_view_rename (self, gtk_editable_get_text (GTK_EDITABLE (self->rename_entry)), &error))
    {
      /* The popover stays open, so that the name can be corrected. */
      gtk_widget_add_css_class (GTK_WIDGET (self->rename_entry), "error");
      show_toast (self, error->message);
      return;
    }
  gtk_menu_button_popdown (self->rename_button);
}

static void
cg_class_view_dispose (GObject *object)
{
  CgClassView *self = CG_CLASS_VIEW (object);

  /* The bin's child is a bound template child: the bin lets go of it
   * first, or both would unparent it. */
  adw_bin_set_child (ADW_BIN (self), NULL);
  gtk_widget_dispose_template (GTK_WIDGET (self), CG_TYPE_CLASS_VIEW);
  g_clear_object (&self->project);
  g_clear_object (&self->model);
  G_OBJECT_CLASS (cg_class_view_parent_class)->dispose (object);
}

static void
cg_class_view_finalize (GObject *object)
{
  CgClassView *self = CG_CLASS_VIEW (object);

  g_free (self->class_name);
  g_free (self->records_class);
  g_strfreev (self->sample_urls);
  G_OBJECT_CLASS (cg_class_view_parent_class)->finalize (object);
}

static void
cg_class_view_class_init (CgClassViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = cg_class_view_dispose;
  object_class->finalize = cg_class_view_finalize;

  signals[SIGNAL_CLASS_RENAMED] = g_signal_new ("class-renamed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                                0, NULL, NULL, NULL, G_TYPE_NONE, 2, G_TYPE_STRING, G_TYPE_STRING);
  signals[SIGNAL_TOAST] = g_signal_new ("toast", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                        0, g_signal_accumulator_true_handled, NULL, NULL,
                                        G_TYPE_BOOLEAN, 1, G_TYPE_STRING);

  g_type_ensure (CG_TYPE_RECORDS_TABLE);
  g_type_ensure (CG_TYPE_ARCHIVED_PAGE);
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/cartograph/Cartograph/cg-class-view.ui");
  gtk_widget_class_bind_template_child (widget_class, CgClassView, stack);
  gtk_widget_class_bind_template_child (widget_class, CgClassView, none_page);
  gtk_widget_class_bind_template_child (widget_class, CgClassView, label_label);
  gtk_widget_class_bind_template_child (widget_class, CgClassView, name_label);
  gtk_widget_class_bind_template_child (widget_class, CgClassView, pattern_label);
  gtk_widget_class_bind_template_child (widget_class, CgClassView, depth_label);
  gtk_widget_class_bind_template_child (widget_class, CgClassView, pages_label);
  gtk_widget_class_bind_template_child (widget_class, CgClassView, records_label);
  gtk_widget_class_bind_template_child (widget_class, CgClassView, rename_button);
  gtk_widget_class_bind_template_child (widget_class, CgClassView, rename_popover);
  gtk_widget_class_bind_template_child (widget_class, CgClassView, rename_entry);
  gtk_widget_class_bind_template_child (widget_class, CgClassView, rename_confirm);
  gtk_widget_class_bind_template_child (widget_class, CgClassView, samples_stack);
  gtk_widget_class_bind_template_child (widget_class, CgClassView, samples_box);
  gtk_widget_class_bind_template_child (widget_class, CgClassView, records_table);
  gtk_widget_class_bind_template_child (widget_class, CgClassView, wrapper_stack);
  gtk_widget_class_bind_template_child (widget_class, CgClassView, wrapper_box);
  gtk_widget_class_bind_template_child (widget_class, CgClassView, archived_page);
  gtk_widget_class_bind_template_callback (widget_class, records_toast_cb);
  gtk_widget_class_bind_template_callback (widget_class, sample_activated_cb);
  gtk_widget_class_bind_template_callback (widget_class, archived_back_cb);
  gtk_widget_class_bind_template_callback (widget_class, rename_popover_show_cb);

  gtk_widget_class_install_action (widget_class, "class.rename", NULL, rename_action_cb);
}

static void
cg_class_view_init (CgClassView *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_popover_set_default_widget (self->rename_popover, GTK_WIDGET (self->rename_confirm));
  gtk_stack_set_visible_child_name (self->samples_stack, "none");
  gtk_stack_set_visible_child_name (self->wrapper_stack, "none");
}

GtkWidget *
cg_class_view_new (void)
{
  return g_object_new (CG_TYPE_CLASS_VIEW, NULL);
}
