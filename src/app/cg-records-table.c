/* cg-records-table.c: the data records of a page class, as a sortable, searchable table.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "cg-records-table.h"

/* The export's own columns, before the fields. */
static const char * const export_fixed_columns[] = { "url", "region", "position" };

struct _CgRecordRow
{
  GObject      parent_instance;

  CgRecord    *record;
  /* The record's value of each of the table's field columns (pointers
   * into the record, NULL for a field it lacks). Set once, before the row
   * is shown or exported. */
  const char **fields;
  guint        n_fields;
  /* Caches filled on the main thread only, when sorting or searching
   * first needs them: a natural collation key per field column and one
   * for the URL (index n_fields), and the casefolded text searched. */
  char       **keys;
  char        *search_text;
};

G_DEFINE_FINAL_TYPE (CgRecordRow, cg_record_row, G_TYPE_OBJECT)

static void
cg_record_row_finalize (GObject *object)
{
  CgRecordRow *self = CG_RECORD_ROW (object);

  if (self->keys != NULL)
    {
      for (guint i = 0; i <= self->n_fields; i++)
        g_free (self->keys[i]);
      g_free (self->keys);
    }
  g_free (self->fields);
  g_free (self->search_text);
  cg_record_free (self->record);
  G_OBJECT_CLASS (cg_record_row_parent_class)->finalize (object);
}

static void
cg_record_row_class_init (CgRecordRowClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = cg_record_row_finalize;
}

static void
cg_record_row_init (CgRecordRow *self)
{
}

const CgRecord *
cg_record_row_get_record (CgRecordRow *self)
{
  g_return_val_if_fail (CG_IS_RECORD_ROW (self), NULL);
  return self->record;
}

/* @index is a field column, or n_fields for the URL. */
static const char *
row_get_text (CgRecordRow *self,
              guint        index)
{
  const char *text;

  if (index < self->n_fields)
    text = self->fields[index];
  else
    text = self->record->url;
  return text != NULL ? text : "";
}

/* What a cell shows: a link to the record's own site loses its scheme
 * and host, which every row repeats, so that the path that tells rows
 * apart fits in the cell. */
static const char *
row_get_display_text (CgRecordRow *self,
                      guint        index)
{
  const char *text = row_get_text (self, index);
  const char *page = self->record->url;
  const char *authority;
  const char *path;
  gsize origin;

  if (page == NULL || (authority = strstr (page, "://")) == NULL)
    return text;
  path = strchr (authority + 3, '/');
  origin = path != NULL ? (gsize) (path - page) : strlen (page);
  if (strncmp (text, page, origin) == 0 && text[origin] == '/')
    return text + origin;
  return text;
}

static const char *
row_get_key (CgRecordRow *self,
             guint        index)
{
  if (self->keys == NULL)
    self->keys = g_new0 (char *, self->n_fields + 1);
  /* The file-name collation key orders digits by their value, so that
   * "page 9" sorts before "page 10" and "£9.50" before "£12.00". */
  if (self->keys[index] == NULL)
    self->keys[index] = g_utf8_collate_key_for_filename (row_get_text (self, index), -1);
  return self->keys[index];
}

static char *
fold_text (const char *text)
{
  g_autofree char *normal = g_utf8_normalize (text, -1, G_NORMALIZE_ALL);

  return g_utf8_casefold (normal != NULL ? normal : "", -1);
}

static const char *
row_get_search_text (CgRecordRow *self)
{
  if (self->search_text == NULL)
    {
      g_autoptr(GString) all = g_string_new (NULL);

      /* A line break between fields, so that a search never matches
       * across two of them. */
      for (guint i = 0; i <= self->n_fields; i++)
        {
          g_string_append (all, row_get_text (self, i));
          g_string_append_c (all, '\n');
        }
      self->search_text = fold_text (all->str);
    }
  return self->search_text;
}

struct _CgRecordsTable
{
  AdwBin          parent_instance;

  GtkDropDown    *region_chooser;
  GtkSearchEntry *search_entry;
  GtkLabel       *count_label;
  GtkMenuButton  *export_button;
  GtkStack       *stack;
  GtkColumnView  *column_view;

  GListStore     *store;
  GtkFilterListModel *filter_model;
  GtkSortListModel   *sort_model;
  GtkCustomFilter    *filter;
  char           *needle;        /* casefolded; NULL or "" keeps every row */

  GStrv           columns;       /* every field column, in order */
  GStrv           shown_columns; /* at most CG_RECORDS_TABLE_MAX_COLUMNS of them */
  char           *export_name;
  /* A class's records and their regions, when they were given with
   * cg_records_table_set_class_records(): the table shows one region at a
   * time. region_entries maps the chooser's items to regions (guint), the
   * regions with records only. */
  GPtrArray      *class_records;
  CgRecordRegions *regions;
  GArray         *region_entries;
  int             region;
  GtkNativeDialog *chooser;
  GCancellable   *cancellable;
};

G_DEFINE_FINAL_TYPE (CgRecordsTable, cg_records_table, ADW_TYPE_BIN)

enum {
  SIGNAL_TOAST,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
show_toast (CgRecordsTable *self,
            const char     *message)
{
  gboolean handled = FALSE;

  g_signal_emit (self, signals[SIGNAL_TOAST], 0, message, &handled);
  if (!handled)
    g_message ("%s", message);
}

static gboolean
filter_row_cb (gpointer item,
               gpointer user_data)
{
  CgRecordsTable *self = user_data;

  if (self->needle == NULL || *self->needle == '\0')
    return TRUE;
  return strstr (row_get_search_text (CG_RECORD_ROW (item)), self->needle) != NULL;
}

static int
compare_text_cb (gconstpointer a,
                 gconstpointer b,
                 gpointer      user_data)
{
  guint index = GPOINTER_TO_UINT (user_data);

  return strcmp (row_get_key (CG_RECORD_ROW ((gpointer) a), index),
                 row_get_key (CG_RECORD_ROW ((gpointer) b), index));
}

static int
compare_position_cb (gconstpointer a,
                     gconstpointer b,
                     gpointer      user_data)
{
  const CgRecord *ra = CG_RECORD_ROW ((gpointer) a)->record;
  const CgRecord *rb = CG_RECORD_ROW ((gpointer) b)->record;
  int order = strcmp (ra->url != NULL ? ra->url : "", rb->url != NULL ? rb->url : "");

  /* Positions count within a page: the page breaks ties. */
  if (ra->position != rb->position)
    return ra->position < rb->position ? -1 : 1;
  return order;
}

static void
update_state (CgRecordsTable *self)
{
  guint all = g_list_model_get_n_items (G_LIST_MODEL (self->store));
  guint shown = g_list_model_get_n_items (G_LIST_MODEL (self->sort_model));
  g_autofree char *count = NULL;

  if (all == shown)
    count = g_strdup_printf (ngettext ("%u record", "%u records", all), all);
  else
    count = g_strdup_printf (ngettext ("%u of %u record", "%u of %u records", all), shown, all);
  gtk_label_set_label (self->count_label, count);

  if (all == 0)
    gtk_stack_set_visible_child_name (self->stack, "empty");
  else if (shown == 0)
    gtk_stack_set_visible_child_name (self->stack, "no-match");
  else
    gtk_stack_set_visible_child_name (self->stack, "table");
  gtk_widget_set_sensitive (GTK_WIDGET (self->search_entry), all > 0);
  gtk_widget_set_sensitive (GTK_WIDGET (self->export_button), shown > 0);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "records.export-csv", shown > 0);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "records.export-jsonl", shown > 0);
}

static void
rows_changed_cb (CgRecordsTable *self)
{
  update_state (self);
}

void
cg_records_table_set_search_text (CgRecordsTable *self,
                                  const char     *text)
{
  g_autofree char *needle = NULL;
  GtkFilterChange change = GTK_FILTER_CHANGE_DIFFERENT;

  g_return_if_fail (CG_IS_RECORDS_TABLE (self));

  needle = fold_text (text != NULL ? text : "");
  if (g_strcmp0 (needle, self->needle) == 0)
    return;
  /* Tell the filter model when the new search only narrows or widens the
   * old one, so that it looks at fewer rows. */
  if (self->needle != NULL && strstr (needle, self->needle) != NULL)
    change = GTK_FILTER_CHANGE_MORE_STRICT;
  else if (self->needle != NULL && strstr (self->needle, needle) != NULL)
    change = GTK_FILTER_CHANGE_LESS_STRICT;
  g_free (self->needle);
  self->needle = g_steal_pointer (&needle);
  if (g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (self->search_entry)), text != NULL ? text : "") != 0)
    gtk_editable_set_text (GTK_EDITABLE (self->search_entry), text != NULL ? text : "");
  gtk_filter_changed (GTK_FILTER (self->filter), change);
}

static void
search_changed_cb (CgRecordsTable *self,
                   GtkSearchEntry *entry)
{
  cg_records_table_set_search_text (self, gtk_editable_get_text (GTK_EDITABLE (entry)));
}

static void
stop_search_cb (CgRecordsTable *self,
                GtkSearchEntry *entry)
{
  cg_records_table_set_search_text (self, "");
}

/* Cells. A column's factory carries its index: a field column, n_fields
 * for the URL, n_fields + 1 for the position. GtkInscription is the label
 * made for list cells: it asks for no more room than it is given. */

static void
setup_cell_cb (GtkSignalListItemFactory *factory,
               GtkListItem              *item,
               gpointer                  user_data)
{
  GtkWidget *cell = gtk_inscription_new (NULL);
  guint nat_chars = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (factory), "cg-nat-chars"));

  gtk_inscription_set_text_overflow (GTK_INSCRIPTION (cell), GTK_INSCRIPTION_OVERFLOW_ELLIPSIZE_END);
  gtk_inscription_set_min_chars (GTK_INSCRIPTION (cell), 3);
  gtk_inscription_set_nat_chars (GTK_INSCRIPTION (cell), nat_chars > 0 ? nat_chars : 20);
  gtk_list_item_set_child (item, cell);
}

static void
setup_position_cell_cb (GtkSignalListItemFactory *factory,
                        GtkListItem              *item,
                        gpointer                  user_data)
{
  setup_cell_cb (factory, item, user_data);
  gtk_inscription_set_min_chars (GTK_INSCRIPTION (gtk_list_item_get_child (item)), 3);
  gtk_inscription_set_nat_chars (GTK_INSCRIPTION (gtk_list_item_get_child (item)), 5);
  gtk_inscription_set_xalign (GTK_INSCRIPTION (gtk_list_item_get_child (item)), 1.0);
  gtk_widget_add_css_class (gtk_list_item_get_child (item), "numeric");
}

static void
bind_cell_cb (GtkSignalListItemFactory *factory,
              GtkListItem              *item,
              gpointer                  user_data)
{
  CgRecordRow *row = gtk_list_item_get_item (item);
  GtkInscription *cell = GTK_INSCRIPTION (gtk_list_item_get_child (item));
  guint index = GPOINTER_TO_UINT (user_data);
  const char *text;

  if (index > row->n_fields)
    {
      g_autofree char *position = g_strdup_printf ("%u", row->record->position);

      gtk_inscription_set_text (cell, position);
      return;
    }
  text = row_get_text (row, index);
  gtk_inscription_set_text (cell, row_get_display_text (row, index));
  /* Values may be cut in the cell; the tooltip shows them whole. */
  gtk_widget_set_tooltip_text (GTK_WIDGET (cell), *text != '\0' ? text : NULL);
}

/* Columns are as wide as their values, up to a point: the longest of the
 * first rows' shown values, in characters, between these bounds. Wide
 * columns also share the room left over. */
#define MIN_COLUMN_CHARS     4
#define MAX_COLUMN_CHARS     32
#define WIDE_COLUMN_CHARS    16
#define ROWS_MEASURED        500

#define LINK_COLUMN_CHARS    20

static guint
measure_column (GPtrArray *rows,
                guint      index)
{
  guint widest = MIN_COLUMN_CHARS;
  gboolean links = TRUE;

  for (guint i = 0; i < rows->len && i < ROWS_MEASURED; i++)
    {
      const char *text = row_get_display_text (g_ptr_array_index (rows, i), index);

      widest = MAX (widest, (guint) g_utf8_strlen (text, MAX_COLUMN_CHARS * 4));
      links = links && (*text == '\0' || *text == '/' || strstr (text, "://") != NULL);
    }
  /* Links are long, and alike from row to row; their ends are in the
   * tooltips. */
  return MIN (widest, links ? LINK_COLUMN_CHARS : MAX_COLUMN_CHARS);
}

static GtkColumnViewColumn *
make_column (const char *title,
             guint       index,
             guint       nat_chars,
             GCallback   setup,
             GtkSorter  *sorter)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  GtkColumnViewColumn *column;

  g_object_set_data (G_OBJECT (factory), "cg-nat-chars", GUINT_TO_POINTER (nat_chars));
  g_signal_connect (factory, "setup", setup, GUINT_TO_POINTER (index));
  g_signal_connect (factory, "bind", G_CALLBACK (bind_cell_cb), GUINT_TO_POINTER (index));
  column = gtk_column_view_column_new (title, factory);
  gtk_column_view_column_set_sorter (column, sorter);
  gtk_column_view_column_set_resizable (column, TRUE);
  g_object_unref (sorter);
  return column;
}

static void
remove_columns (CgRecordsTable *self)
{
  GListModel *columns = gtk_column_view_get_columns (self->column_view);

  while (g_list_model_get_n_items (columns) > 0)
    {
      g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, 0);

      gtk_column_view_remove_column (self->column_view, column);
    }
}

static void
add_columns (CgRecordsTable *self,
             GPtrArray      *rows)
{
  guint n_fields = g_strv_length (self->columns);
  guint n_shown = g_strv_length (self->shown_columns);
  GtkColumnViewColumn *column;
  guint width;

  for (guint i = 0; i < n_shown; i++)
    {
      width = measure_column (rows, i);
      column = make_column (self->shown_columns[i], i, width, G_CALLBACK (setup_cell_cb),
                            GTK_SORTER (gtk_custom_sorter_new (compare_text_cb, GUINT_TO_POINTER (i), NULL)));
      gtk_column_view_column_set_expand (column, width >= WIDE_COLUMN_CHARS);
      gtk_column_view_append_column (self->column_view, column);
      g_object_unref (column);
    }
  width = measure_column (rows, n_fields);
  column = make_column (_("Page"), n_fields, width, G_CALLBACK (setup_cell_cb),
                        GTK_SORTER (gtk_custom_sorter_new (compare_text_cb, GUINT_TO_POINTER (n_fields), NULL)));
  gtk_column_view_column_set_expand (column, width >= WIDE_COLUMN_CHARS);
  gtk_column_view_append_column (self->column_view, column);
  g_object_unref (column);
  column = make_column (_("Position"), n_fields + 1, 0, G_CALLBACK (setup_position_cell_cb),
                        GTK_SORTER (gtk_custom_sorter_new (compare_position_cb, NULL, NULL)));
  gtk_column_view_append_column (self->column_view, column);
  g_object_unref (column);
}

static void
show_records (CgRecordsTable     *self,
              const char * const *columns,
              GPtrArray          *records)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  g_autoptr(GHashTable) index = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func (g_object_unref);
  guint n_shown;

  /* The wrapper's columns first, then those only the records have. */
  for (guint i = 0; columns != NULL && columns[i] != NULL; i++)
    if (!g_hash_table_contains (index, columns[i]))
      {
        g_hash_table_insert (index, (gpointer) columns[i], GUINT_TO_POINTER (names->len));
        g_ptr_array_add (names, (gpointer) columns[i]);
      }
  for (guint i = 0; records != NULL && i < records->len; i++)
    {
      const CgRecord *record = g_ptr_array_index (records, i);

      for (guint j = 0; record->columns != NULL && record->columns[j] != NULL; j++)
        if (!g_hash_table_contains (index, record->columns[j]))
          {
            g_hash_table_insert (index, record->columns[j], GUINT_TO_POINTER (names->len));
            g_ptr_array_add (names, record->columns[j]);
          }
    }
  g_ptr_array_add (names, NULL);

  g_strfreev (self->columns);
  g_strfreev (self->shown_columns);
  self->columns = g_strdupv ((char **) names->pdata);
  n_shown = MIN (names->len - 1, CG_RECORDS_TABLE_MAX_COLUMNS);
  self->shown_columns = g_new0 (char *, n_shown + 1);
  for (guint i = 0; i < n_shown; i++)
    self->shown_columns[i] = g_strdup (self->columns[i]);

  for (guint i = 0; records != NULL && i < records->len; i++)
    {
      const CgRecord *record = g_ptr_array_index (records, i);
      CgRecordRow *row = g_object_new (CG_TYPE_RECORD_ROW, NULL);

      row->record = cg_record_copy (record);
      row->n_fields = names->len - 1;
      row->fields = g_new0 (const char *, MAX (row->n_fields, 1));
      for (guint j = 0; row->record->columns != NULL && row->record->columns[j] != NULL; j++)
        {
          gpointer at;

          if (row->record->values == NULL || row->record->values[j] == NULL)
            break;
          if (g_hash_table_lookup_extended (index, row->record->columns[j], NULL, &at))
            row->fields[GPOINTER_TO_UINT (at)] = row->record->values[j];
        }
      g_ptr_array_add (rows, row);
    }

  /* The columns go before the rows change, so that no cell is bound to a
   * row of another shape. */
  remove_columns (self);
  g_list_store_remove_all (self->store);
  add_columns (self, rows);
  g_list_store_splice (self->store, 0, 0, rows->pdata, rows->len);
  update_state (self);
}

static void region_selected_cb (CgRecordsTable *self,
                                GParamSpec     *pspec,
                                GtkDropDown    *chooser);

static void
clear_regions (CgRecordsTable *self)
{
  g_clear_pointer (&self->regions, cg_record_regions_free);
  g_clear_pointer (&self->class_records, g_ptr_array_unref);
  g_array_set_size (self->region_entries, 0);
  self->region = -1;
  /* The chooser's model goes with the regions; its signal must not see
   * the change. */
  g_signal_handlers_block_by_func (self->region_chooser, region_selected_cb, self);
  gtk_drop_down_set_model (self->region_chooser, NULL);
  g_signal_handlers_unblock_by_func (self->region_chooser, region_selected_cb, self);
  gtk_widget_set_visible (GTK_WIDGET (self->region_chooser), FALSE);
}

void
cg_records_table_set_records (CgRecordsTable     *self,
                              const char * const *columns,
                              GPtrArray          *records)
{
  g_return_if_fail (CG_IS_RECORDS_TABLE (self));

  clear_regions (self);
  show_records (self, columns, records);
}

static void
show_region (CgRecordsTable *self,
             guint           index)
{
  const CgRecordRegion *region = cg_record_regions_get_region (self->regions, index);
  g_autoptr(GPtrArray) records = cg_record_regions_select (self->regions, self->class_records, index);

  self->region = (int) index;
  show_records (self, (const char * const *) region->columns, records);
}

static void
region_selected_cb (CgRecordsTable *self,
                    GParamSpec     *pspec,
                    GtkDropDown    *chooser)
{
  guint selected = gtk_drop_down_get_selected (chooser);

  if (self->regions == NULL || selected >= self->region_entries->len)
    return;
  if ((int) g_array_index (self->region_entries, guint, selected) != self->region)
    show_region (self, g_array_index (self->region_entries, guint, selected));
}

void
cg_records_table_set_class_records (CgRecordsTable *self,
                                    const char     *definition,
                                    GPtrArray      *records)
{
  g_autoptr(GtkStringList) names = gtk_string_list_new (NULL);
  guint n_regions;
  int main_region;

  g_return_if_fail (CG_IS_RECORDS_TABLE (self));

  clear_regions (self);
  self->class_records = g_ptr_array_new_with_free_func ((GDestroyNotify) cg_record_free);
  for (guint i = 0; records != NULL && i < records->len; i++)
    g_ptr_array_add (self->class_records, cg_record_copy (g_ptr_array_index (records, i)));
  self->regions = cg_record_regions_new (definition, self->class_records);
  n_regions = cg_record_regions_get_n_regions (self->regions);
  main_region = cg_record_regions_get_main (self->regions);

  /* The chooser names each region with records by the end of its XPath,
   * which is what tells regions apart on the page, and its count. */
  for (guint r = 0; r < n_regions; r++)
    {
      const CgRecordRegion *region = cg_record_regions_get_region (self->regions, r);
      g_autofree char *tail = NULL;
      g_autofree char *name = NULL;

      if (region->n_records == 0)
        continue;
      tail = cg_record_regions_describe (self->regions, r);
      name = g_strdup_printf (ngettext ("%s (%u record)", "%s (%u records)", region->n_records),
                              tail, region->n_records);
      gtk_string_list_append (names, name);
      g_array_append_val (self->region_entries, r);
    }
  g_signal_handlers_block_by_func (self->region_chooser, region_selected_cb, self);
  gtk_drop_down_set_model (self->region_chooser, G_LIST_MODEL (names));
  /* The main region is the first with records. */
  gtk_drop_down_set_selected (self->region_chooser, 0);
  g_signal_handlers_unblock_by_func (self->region_chooser, region_selected_cb, self);
  gtk_widget_set_visible (GTK_WIDGET (self->region_chooser), self->region_entries->len > 1);

  if (main_region < 0)
    show_records (self, NULL, NULL);
  else
    show_region (self, (guint) main_region);
}

int
cg_records_table_get_region (CgRecordsTable *self)
{
  g_return_val_if_fail (CG_IS_RECORDS_TABLE (self), -1);
  return self->region;
}

gboolean
cg_records_table_set_region (CgRecordsTable *self,
                             guint           index)
{
  g_return_val_if_fail (CG_IS_RECORDS_TABLE (self), FALSE);

  for (guint i = 0; i < self->region_entries->len; i++)
    if (g_array_index (self->region_entries, guint, i) == index)
      {
        /* Through the chooser, so that it shows the region too. */
        gtk_drop_down_set_selected (self->region_chooser, i);
        return TRUE;
      }
  return FALSE;
}

CgRecordRegions *
cg_records_table_get_regions (CgRecordsTable *self)
{
  g_return_val_if_fail (CG_IS_RECORDS_TABLE (self), NULL);
  return self->regions;
}

GtkDropDown *
cg_records_table_get_region_chooser (CgRecordsTable *self)
{
  g_return_val_if_fail (CG_IS_RECORDS_TABLE (self), NULL);
  return self->region_chooser;
}

const char * const *
cg_records_table_get_columns (CgRecordsTable *self)
{
  g_return_val_if_fail (CG_IS_RECORDS_TABLE (self), NULL);
  return (const char * const *) self->shown_columns;
}

guint
cg_records_table_get_n_records (CgRecordsTable *self)
{
  g_return_val_if_fail (CG_IS_RECORDS_TABLE (self), 0);
  return g_list_model_get_n_items (G_LIST_MODEL (self->store));
}

GListModel *
cg_records_table_get_rows (CgRecordsTable *self)
{
  g_return_val_if_fail (CG_IS_RECORDS_TABLE (self), NULL);
  return G_LIST_MODEL (self->sort_model);
}

GtkColumnView *
cg_records_table_get_column_view (CgRecordsTable *self)
{
  g_return_val_if_fail (CG_IS_RECORDS_TABLE (self), NULL);
  return self->column_view;
}

void
cg_records_table_set_export_name (CgRecordsTable *self,
                                  const char     *name)
{
  g_return_if_fail (CG_IS_RECORDS_TABLE (self));
  g_free (self->export_name);
  self->export_name = g_strdup (name);
}

/* Export. */

typedef struct {
  GFile          *file;
  CgExportFormat  format;
  GStrv           header;   /* url, region, position, then the fields */
  GPtrArray      *rows;     /* CgRecordRow, as shown */
} ExportJob;

static void
export_job_free (ExportJob *job)
{
  g_clear_object (&job->file);
  g_strfreev (job->header);
  g_clear_pointer (&job->rows, g_ptr_array_unref);
  g_free (job);
}

/* Field names as export columns: one named like a fixed column, or like
 * an earlier renamed one, gets a prefix until it is unique. */
static GStrv
make_export_header (const char * const *fields)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_autoptr(GHashTable) used = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (export_fixed_columns); i++)
    {
      g_strv_builder_add (builder, export_fixed_columns[i]);
      g_hash_table_add (used, g_strdup (export_fixed_columns[i]));
    }
  for (guint i = 0; fields != NULL && fields[i] != NULL; i++)
    {
      char *name = g_strdup (fields[i]);

      while (g_hash_table_contains (used, name))
        {
          char *prefixed = g_strconcat ("field_", name, NULL);

          g_free (name);
          name = prefixed;
        }
      g_strv_builder_add (builder, name);
      g_hash_table_add (used, name);
    }
  return g_strv_builder_end (builder);
}

static gboolean
write_rows (ExportJob      *job,
            GOutputStream  *out,
            GCancellable   *cancellable,
            GError        **error)
{
  g_autoptr(CgTableWriter) writer = cg_table_writer_new (out, job->format, (const char * const *) job->header, error);
  guint n_columns = g_strv_length (job->header);
  g_autofree const char **values = g_new0 (const char *, n_columns + 1);

  if (writer == NULL)
    return FALSE;
  cg_table_writer_set_numeric (writer, "position");
  for (guint i = 0; i < job->rows->len; i++)
    {
      CgRecordRow *row = g_ptr_array_index (job->rows, i);
      g_autofree char *position = g_strdup_printf ("%u", row->record->position);

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;
      values[0] = row->record->url;
      values[1] = row->record->region;
      values[2] = position;
      for (guint j = G_N_ELEMENTS (export_fixed_columns); j < n_columns; j++)
        values[j] = row->fields[j - G_N_ELEMENTS (export_fixed_columns)];
      if (!cg_table_writer_write_row (writer, values, error))
        return FALSE;
    }
  return TRUE;
}

static void
export_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  ExportJob *job = task_data;
  g_autoptr(GFileOutputStream) file_out = NULL;
  g_autoptr(GOutputStream) out = NULL;
  GError *error = NULL;

  file_out = g_file_replace (job->file, NULL, FALSE, G_FILE_CREATE_REPLACE_DESTINATION, cancellable, &error);
  if (file_out == NULL)
    {
      g_autofree char *name = g_file_get_parse_name (job->file);

      /* GIO's message says what failed ("Error opening file"), not that
       * the export did. */
      g_prefix_error (&error, _("Could not export the records to “%s”: "), name);
      g_task_return_error (task, error);
      return;
    }
  out = g_buffered_output_stream_new (G_OUTPUT_STREAM (file_out));
  if (!write_rows (job, out, cancellable, &error) ||
      !g_output_stream_close (out, cancellable, &error))
    {
      g_autoptr(GCancellable) abandon = g_cancellable_new ();
      g_autofree char *name = g_file_get_parse_name (job->file);

      /* Closing a replacing stream with a cancelled cancellable keeps the
       * file as it was instead of leaving half an export in it. */
      g_cancellable_cancel (abandon);
      g_output_stream_close (G_OUTPUT_STREAM (file_out), abandon, NULL);
      g_prefix_error (&error, _("Could not export the records to “%s”: "), name);
      g_task_return_error (task, error);
      return;
    }
  g_task_return_int (task, job->rows->len);
}

void
cg_records_table_export_async (CgRecordsTable     *self,
                               GFile              *file,
                               CgExportFormat      format,
                               GCancellable       *cancellable,
                               GAsyncReadyCallback callback,
                               gpointer            user_data)
{
  g_autoptr(GTask) task = NULL;
  ExportJob *job;
  guint n_rows;

  g_return_if_fail (CG_IS_RECORDS_TABLE (self));
  g_return_if_fail (G_IS_FILE (file));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, cg_records_table_export_async);
  if (format != CG_EXPORT_CSV && format != CG_EXPORT_JSONL)
    {
      g_task_return_new_error (task, CG_EXPORT_ERROR, CG_EXPORT_ERROR_FORMAT,
                               _("Records can be exported as csv or jsonl, not %s"),
                               cg_export_format_to_string (format));
      return;
    }
  n_rows = g_list_model_get_n_items (G_LIST_MODEL (self->sort_model));
  if (n_rows == 0)
    {
      g_task_return_new_error (task, CG_EXPORT_ERROR, CG_EXPORT_ERROR_EMPTY,
                               _("There are no records to export"));
      return;
    }

  /* The rows as shown now: searching or sorting during the export does
   * not change what it writes. */
  job = g_new0 (ExportJob, 1);
  job->file = g_object_ref (file);
  job->format = format;
  job->header = make_export_header ((const char * const *) self->columns);
  job->rows = g_ptr_array_new_full (n_rows, g_object_unref);
  for (guint i = 0; i < n_rows; i++)
    g_ptr_array_add (job->rows, g_list_model_get_item (G_LIST_MODEL (self->sort_model), i));
  g_task_set_task_data (task, job, (GDestroyNotify) export_job_free);
  g_task_run_in_thread (task, export_thread);
}

guint
cg_records_table_export_finish (CgRecordsTable  *self,
                                GAsyncResult    *result,
                                GError         **error)
{
  gssize written;

  g_return_val_if_fail (g_task_is_valid (result, self), 0);
  written = g_task_propagate_int (G_TASK (result), error);
  return written > 0 ? (guint) written : 0;
}

typedef struct {
  CgRecordsTable *self;
  char           *display_name;
} ExportDone;

static void
export_done_cb (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  ExportDone *done = user_data;
  g_autoptr(GError) error = NULL;
  guint written = cg_records_table_export_finish (CG_RECORDS_TABLE (source), result, &error);

  if (written == 0)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        show_toast (done->self, error->message);
    }
  else
    {
      g_autofree char *message = g_strdup_printf (ngettext ("Exported %u record to “%s”",
                                                            "Exported %u records to “%s”", written),
                                                  written, done->display_name);

      show_toast (done->self, message);
    }
  g_object_unref (done->self);
  g_free (done->display_name);
  g_free (done);
}

static void
chooser_response_cb (GtkNativeDialog *chooser,
                     int              response,
                     CgRecordsTable  *self)
{
  CgExportFormat format = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (chooser), "cg-export-format"));
  g_autoptr(GFile) file = NULL;

  if (response == GTK_RESPONSE_ACCEPT)
    file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
  if (file != NULL)
    {
      ExportDone *done = g_new0 (ExportDone, 1);

      done->self = g_object_ref (self);
      done->display_name = g_file_get_basename (file);
      cg_records_table_export_async (self, file, format, self->cancellable, export_done_cb, done);
    }
  if (self->chooser == chooser)
    g_clear_object (&self->chooser);
}

static void
export_action_cb (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  CgRecordsTable *self = CG_RECORDS_TABLE (widget);
  gboolean csv = g_str_equal (action_name, "records.export-csv");
  CgExportFormat format = csv ? CG_EXPORT_CSV : CG_EXPORT_JSONL;
  GtkRoot *root = gtk_widget_get_root (widget);
  g_autoptr(GtkFileFilter) filter = gtk_file_filter_new ();
  g_autofree char *name = NULL;
  GtkFileChooserNative *chooser;

  /* GTK 4.8 has no GtkFileDialog; the native chooser uses the portal
   * inside a sandbox. */
  chooser = gtk_file_chooser_native_new (_("Export Records"),
                                         GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                         GTK_FILE_CHOOSER_ACTION_SAVE,
                                         _("_Export"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  /* A region other than the main one says which in the file's name. */
  if (self->regions != NULL && self->region >= 0 && self->region != cg_record_regions_get_main (self->regions))
    name = g_strdup_printf ("%s-region-%d%s", self->export_name != NULL ? self->export_name : _("records"),
                            self->region, csv ? ".csv" : ".jsonl");
  else
    name = g_strconcat (self->export_name != NULL ? self->export_name : _("records"),
                        csv ? ".csv" : ".jsonl", NULL);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), name);
  if (csv)
    {
      gtk_file_filter_set_name (filter, _("CSV"));
      gtk_file_filter_add_mime_type (filter, "text/csv");
      gtk_file_filter_add_pattern (filter, "*.csv");
    }
  else
    {
      gtk_file_filter_set_name (filter, _("JSON Lines"));
      gtk_file_filter_add_pattern (filter, "*.jsonl");
    }
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), filter);
  g_object_set_data (G_OBJECT (chooser), "cg-export-format", GINT_TO_POINTER (format));
  g_signal_connect (chooser, "response", G_CALLBACK (chooser_response_cb), self);

  g_clear_object (&self->chooser);
  self->chooser = GTK_NATIVE_DIALOG (chooser);
  gtk_native_dialog_show (self->chooser);
}

static void
focus_search_action_cb (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *parameter)
{
  CgRecordsTable *self = CG_RECORDS_TABLE (widget);

  gtk_widget_grab_focus (GTK_WIDGET (self->search_entry));
}

static void
cg_records_table_dispose (GObject *object)
{
  CgRecordsTable *self = CG_RECORDS_TABLE (object);

  g_cancellable_cancel (self->cancellable);
  if (self->chooser != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->chooser, self);
      gtk_native_dialog_destroy (self->chooser);
      g_clear_object (&self->chooser);
    }
  gtk_widget_dispose_template (GTK_WIDGET (self), CG_TYPE_RECORDS_TABLE);
  G_OBJECT_CLASS (cg_records_table_parent_class)->dispose (object);
}

static void
cg_records_table_finalize (GObject *object)
{
  CgRecordsTable *self = CG_RECORDS_TABLE (object);

  g_clear_object (&self->store);
  g_clear_object (&self->filter_model);
  g_clear_object (&self->sort_model);
  g_clear_object (&self->filter);
  g_clear_object (&self->cancellable);
  g_free (self->needle);
  g_strfreev (self->columns);
  g_strfreev (self->shown_columns);
  g_free (self->export_name);
  g_clear_pointer (&self->regions, cg_record_regions_free);
  g_clear_pointer (&self->class_records, g_ptr_array_unref);
  g_array_unref (self->region_entries);
  G_OBJECT_CLASS (cg_records_table_parent_class)->finalize (object);
}

static void
cg_records_table_class_init (CgRecordsTableClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = cg_records_table_dispose;
  object_class->finalize = cg_records_table_finalize;

  signals[SIGNAL_TOAST] = g_signal_new ("toast", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                        0, g_signal_accumulator_true_handled, NULL, NULL,
                                        G_TYPE_BOOLEAN, 1, G_TYPE_STRING);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/cartograph/Cartograph/cg-records-table.ui");
  gtk_widget_class_bind_template_child (widget_class, CgRecordsTable, region_chooser);
  gtk_widget_class_bind_template_child (widget_class, CgRecordsTable, search_entry);
  gtk_widget_class_bind_template_child (widget_class, CgRecordsTable, count_label);
  gtk_widget_class_bind_template_child (widget_class, CgRecordsTable, export_button);
  gtk_widget_class_bind_template_child (widget_class, CgRecordsTable, stack);
  gtk_widget_class_bind_template_child (widget_class, CgRecordsTable, column_view);
  gtk_widget_class_bind_template_callback (widget_class, search_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, stop_search_cb);
  gtk_widget_class_bind_template_callback (widget_class, region_selected_cb);

  gtk_widget_class_install_action (widget_class, "records.export-csv", NULL, export_action_cb);
  gtk_widget_class_install_action (widget_class, "records.export-jsonl", NULL, export_action_cb);
  gtk_widget_class_install_action (widget_class, "records.search", NULL, focus_search_action_cb);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_f, GDK_CONTROL_MASK, "records.search", NULL);
}

static void
cg_records_table_init (CgRecordsTable *self)
{
  g_autoptr(GtkSingleSelection) selection = NULL;
  GtkSorter *sorter;

  gtk_widget_init_template (GTK_WIDGET (self));

  self->cancellable = g_cancellable_new ();
  self->region_entries = g_array_new (FALSE, FALSE, sizeof (guint));
  self->region = -1;
  self->columns = g_new0 (char *, 1);
  self->shown_columns = g_new0 (char *, 1);
  self->store = g_list_store_new (CG_TYPE_RECORD_ROW);
  self->filter = gtk_custom_filter_new (filter_row_cb, self, NULL);
  self->filter_model = gtk_filter_list_model_new (g_object_ref (G_LIST_MODEL (self->store)),
                                                  g_object_ref (GTK_FILTER (self->filter)));
  sorter = gtk_column_view_get_sorter (self->column_view);
  self->sort_model = gtk_sort_list_model_new (g_object_ref (G_LIST_MODEL (self->filter_model)),
                                              sorter != NULL ? g_object_ref (sorter) : NULL);
  selection = gtk_single_selection_new (g_object_ref (G_LIST_MODEL (self->sort_model)));
  gtk_single_selection_set_autoselect (selection, FALSE);
  gtk_single_selection_set_can_unselect (selection, TRUE);
  gtk_column_view_set_model (self->column_view, GTK_SELECTION_MODEL (selection));
  g_signal_connect_swapped (self->sort_model, "items-changed", G_CALLBACK (rows_changed_cb), self);
  gtk_search_entry_set_key_capture_widget (self->search_entry, GTK_WIDGET (self->column_view));
  update_state (self);
}

GtkWidget *
cg_records_table_new (void)
{
  return g_object_new (CG_TYPE_RECORDS_TABLE, NULL);
}
