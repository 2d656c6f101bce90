/* cg-test-widgets.c: widget-tree walkers and main-loop helpers the app
 * tests share.
 *
 * The tests find widgets the way a person finds them on screen: by their
 * type and the text they show (a button's label, a row's or a status
 * page's title), or by the action they trigger. GTK has no query API for
 * its widget tree, so these walk it depth first.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "cg-test-widgets.h"

/* Runs what is pending without blocking, in bounded steps so that a
 * source that keeps itself ready (an animation, a spinner) cannot hang a
 * test. */
void
cg_test_iterate (void)
{
  for (int i = 0; i < 100 && g_main_context_pending (NULL); i++)
    g_main_context_iteration (NULL, FALSE);
}

CgTestFolder *
cg_test_init_app (int       *argc,
                  char    ***argv,
                  gboolean   c_locale)
{
  CgTestFolder *home = cg_test_folder_new ("cg-app-XXXXXX");

  g_setenv ("HOME", home, TRUE);
  g_setenv ("XDG_DATA_HOME", home, TRUE);
  g_setenv ("XDG_CONFIG_HOME", home, TRUE);
  g_setenv ("XDG_CACHE_HOME", home, TRUE);
  /* GTK's in-process accessibility backend, so that the tests read what
   * the widgets tell assistive technologies, and need no AT-SPI bus. */
  g_setenv ("GTK_A11Y", "test", TRUE);
  if (c_locale)
    gtk_disable_setlocale ();
  gtk_test_init (argc, argv, NULL);
  adw_init ();
  g_main_context_acquire (g_main_context_default ());
  return home;
}

static gboolean
wake_up_cb (gpointer user_data)
{
  return G_SOURCE_CONTINUE;
}

/* Runs the main loop until @condition holds, and fails the test naming
 * @what if it does not within CG_TEST_WAIT_TIMEOUT_S. */
/* The message dialogs shown, as " (dialogs shown: “heading”: body)", or
 * "": a wait that times out often does because the window met an error
 * and says so in a dialog nobody answers. */
static char *
describe_message_dialogs (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();
  g_autoptr(GString) text = g_string_new (NULL);

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWidget) toplevel = g_list_model_get_item (toplevels, i);

      if (!ADW_IS_MESSAGE_DIALOG (toplevel) || !gtk_widget_get_visible (toplevel))
        continue;
      g_string_append_printf (text, "%s“%s”: %s", text->len == 0 ? " (dialogs shown: " : "; ",
                              adw_message_dialog_get_heading (ADW_MESSAGE_DIALOG (toplevel)),
                              adw_message_dialog_get_body (ADW_MESSAGE_DIALOG (toplevel)));
    }
  if (text->len > 0)
    g_string_append_c (text, ')');
  return g_string_free (g_steal_pointer (&text), FALSE);
}

void
cg_test_wait_for (CgTestCondition  condition,
                  gpointer         user_data,
                  const char      *what)
{
  gint64 deadline = g_get_monotonic_time () + CG_TEST_WAIT_TIMEOUT_S * G_USEC_PER_SEC;
  /* The loop blocks while nothing happens; the timer wakes it so that the
   * deadline is seen even then. */
  guint wake_up = g_timeout_add_seconds (1, wake_up_cb, NULL);

  while (!condition (user_data))
    {
      if (g_get_monotonic_time () > deadline)
        {
          g_autofree char *dialogs = describe_message_dialogs ();

          g_error ("Waited %d s for %s%s", CG_TEST_WAIT_TIMEOUT_S, what, dialogs);
        }
      g_main_context_iteration (NULL, TRUE);
    }
  g_source_remove (wake_up);
}

static gboolean
flag_is_set (gpointer user_data)
{
  return *(const gboolean *) user_data;
}

void
cg_test_wait_for_flag (const gboolean *flag,
                       const char     *what)
{
  cg_test_wait_for (flag_is_set, (gpointer) flag, what);
}

static gboolean
result_is_set (gpointer user_data)
{
  return *(GAsyncResult **) user_data != NULL;
}

/* An asynchronous call's callback that keeps its result in the
 * GAsyncResult pointer @user_data, for cg_test_wait_for_result(). */
void
cg_test_store_result (GObject      *source,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

/* Waits for an asynchronous call whose callback, cg_test_store_result(),
 * stores its result in @result. */
void
cg_test_wait_for_result (GAsyncResult **result,
                         const char    *what)
{
  cg_test_wait_for (result_is_set, result, what);
}

/* The first widget below @root, @root included, that @match accepts. */
GtkWidget *
cg_test_find_matching (GtkWidget         *root,
                       CgTestWidgetMatch  match,
                       gpointer           user_data)
{
  if (match (root, user_data))
    return root;
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = cg_test_find_matching (child, match, user_data);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* The text a person identifies @widget by: a button's label, a row's or
 * a status page's title, a label's or a window's title; NULL for other
 * widgets. */
const char *
cg_test_widget_text (GtkWidget *widget)
{
  if (GTK_IS_BUTTON (widget))
    return gtk_button_get_label (GTK_BUTTON (widget));
  if (ADW_IS_PREFERENCES_ROW (widget))
    return adw_preferences_row_get_title (ADW_PREFERENCES_ROW (widget));
  if (ADW_IS_STATUS_PAGE (widget))
    return adw_status_page_get_title (ADW_STATUS_PAGE (widget));
  if (GTK_IS_LABEL (widget))
    return gtk_label_get_label (GTK_LABEL (widget));
  if (ADW_IS_WINDOW_TITLE (widget))
    return adw_window_title_get_title (ADW_WINDOW_TITLE (widget));
  return NULL;
}

typedef struct {
  GType       type;
  const char *text;
} TypedText;

static gboolean
matches_typed_text (GtkWidget *widget,
                    gpointer   user_data)
{
  const TypedText *wanted = user_data;

  return G_TYPE_CHECK_INSTANCE_TYPE (widget, wanted->type) &&
         (wanted->text == NULL || g_strcmp0 (cg_test_widget_text (widget), wanted->text) == 0);
}

/* The first widget of @type below @root whose text (see
 * cg_test_widget_text()) is @text, or of any text if @text is NULL. */
GtkWidget *
cg_test_find_widget (GtkWidget  *root,
                     GType       type,
                     const char *text)
{
  TypedText wanted = { type, text };

  return cg_test_find_matching (root, matches_typed_text, &wanted);
}

GtkWidget *
cg_test_find_button (GtkWidget  *root,
                     const char *label)
{
  return cg_test_find_widget (root, GTK_TYPE_BUTTON, label);
}

GtkWidget *
cg_test_find_row (GtkWidget  *root,
                  const char *title)
{
  return cg_test_find_widget (root, ADW_TYPE_PREFERENCES_ROW, title);
}

static gboolean
matches_action (GtkWidget *widget,
                gpointer   user_data)
{
  return GTK_IS_ACTIONABLE (widget) &&
         g_strcmp0 (gtk_actionable_get_action_name (GTK_ACTIONABLE (widget)), user_data) == 0;
}

/* The first widget below @root bound to @action ("page.explore"). */
GtkWidget *
cg_test_find_actionable (GtkWidget  *root,
                         const char *action)
{
  return cg_test_find_matching (root, matches_action, (gpointer) action);
}

typedef struct {
  GType       type;
  const char *css_class;
} TypedClass;

static gboolean
matches_css_class (GtkWidget *widget,
                   gpointer   user_data)
{
  const TypedClass *wanted = user_data;

  return G_TYPE_CHECK_INSTANCE_TYPE (widget, wanted->type) && gtk_widget_has_css_class (widget, wanted->css_class);
}

/* The first widget of @type below @root styled with @css_class ("error"). */
GtkWidget *
cg_test_find_with_css_class (GtkWidget  *root,
                             GType       type,
                             const char *css_class)
{
  TypedClass wanted = { type, css_class };

  return cg_test_find_matching (root, matches_css_class, &wanted);
}

guint
cg_test_count_children (GtkWidget *widget)
{
  guint n = 0;

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    n++;
  return n;
}

/* The widget's event controller of @type: tests emit the signals it
 * emits for real input, since GTK 4 has no way to synthesise events. */
GtkEventController *
cg_test_find_controller (GtkWidget *widget,
                         GType      type)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (widget);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);

      /* The window keeps the widget, which keeps its controllers, so the
       * pointer stays valid after this reference goes. */
      if (G_TYPE_CHECK_INSTANCE_TYPE (controller, type))
        return GTK_EVENT_CONTROLLER (controller);
    }
  return NULL;
}

/* Shows @child in a new window of @width × @height, so that it is laid out
 * and drawn as it would be. The caller destroys the window. */
GtkWindow *
cg_test_show_in_window (GtkWidget *child,
                        int        width,
                        int        height)
{
  GtkWindow *window = GTK_WINDOW (gtk_window_new ());

  gtk_window_set_default_size (window, width, height);
  gtk_window_set_child (window, child);
  gtk_window_present (window);
  cg_test_iterate ();
  return window;
}

/* The AdwMessageDialog shown for @parent, if any. */
AdwMessageDialog *
cg_test_find_message_dialog (GtkWindow *parent)
{
  g_autoptr(GList) toplevels = gtk_window_list_toplevels ();

  for (GList *l = toplevels; l != NULL; l = l->next)
    if (ADW_IS_MESSAGE_DIALOG (l->data) && gtk_window_get_transient_for (l->data) == parent)
      return l->data;
  return NULL;
}

/* The visible message dialog of @parent whose heading is @heading, if any. */
AdwMessageDialog *
cg_test_find_dialog_headed (GtkWindow  *parent,
                            const char *heading)
{
  AdwMessageDialog *dialog = cg_test_find_message_dialog (parent);

  if (dialog == NULL || !gtk_widget_get_visible (GTK_WIDGET (dialog)) ||
      g_strcmp0 (adw_message_dialog_get_heading (dialog), heading) != 0)
    return NULL;
  return dialog;
}

/* Clicks the button of @dialog labelled @label, as the user would. */
void
cg_test_click_response (AdwMessageDialog *dialog,
                        const char       *label)
{
  GtkWidget *button = cg_test_find_button (GTK_WIDGET (dialog), label);

  g_assert_nonnull (button);
  g_signal_emit_by_name (button, "clicked");
  cg_test_iterate ();
}
