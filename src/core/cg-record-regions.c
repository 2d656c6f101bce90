/* cg-record-regions.c: the regions a page class's records come from, the main one first.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "cg-record-regions.h"
#include "cg-record-store.h"
#include "cg-wrapper.h"

/* One step of an XPath made of child steps only ("/html[1]/body/ul[@id]").
 * libxml2 compiles XPaths but gives no access to their steps, and what is
 * needed here is only to compare two paths step by step without a page to
 * evaluate them on, so the steps are read by hand. */
typedef struct {
  char    *text;       /* the step as written, "ul[2]" */
  char    *name;       /* "ul" */
  guint    position;   /* from a predicate "[N]" alone; 0 when there is none */
  gboolean other;      /* it has a predicate other than a position */
} Step;

static void
step_clear (Step *step)
{
  g_free (step->text);
  g_free (step->name);
}

/* The steps of @xpath, or NULL when it is not an absolute path of child
 * steps (a "//", a union, an axis: what a wrapper could hold but a record's
 * region never does). */
static GArray *
parse_steps (const char *xpath)
{
  g_autoptr(GArray) steps = g_array_new (FALSE, TRUE, sizeof (Step));
  const char *p;

  g_array_set_clear_func (steps, (GDestroyNotify) step_clear);
  if (xpath == NULL || xpath[0] != '/')
    return NULL;
  p = xpath + 1;
  while (TRUE)
    {
      const char *start = p;
      const char *bracket = NULL;
      guint depth = 0;
      char quote = '\0';
      Step step = { 0 };

      for (; *p != '\0'; p++)
        {
          if (quote != '\0')
            {
              if (*p == quote)
                quote = '\0';
            }
          else if (*p == '"' || *p == '\'')
            quote = *p;
          else if (*p == '[')
            {
              if (depth++ == 0 && bracket == NULL)
                bracket = p;
            }
          else if (*p == ']' && depth > 0)
            depth--;
          else if (*p == '/' && depth == 0)
            break;
          else if (depth == 0 && (*p == '|' || *p == ':' || *p == '(' || g_ascii_isspace (*p)))
            return NULL;
        }
      if (p == start || quote != '\0' || depth != 0)
        return NULL;
      step.text = g_strndup (start, p - start);
      step.name = g_strndup (start, (bracket != NULL ? bracket : p) - start);
      if (bracket != NULL)
        {
          const char *digits = bracket + 1;
          const char *end = digits;

          while (g_ascii_isdigit (*end))
            end++;
          if (end > digits && end[0] == ']' && end + 1 == p && end - digits < 9)
            step.position = (guint) g_ascii_strtoull (digits, NULL, 10);
          else
            step.other = TRUE;
        }
      g_array_append_val (steps, step);
      if (*p == '\0')
        break;
      p++;
    }
  return g_steal_pointer (&steps);
}

/* Whether a record's region at @concrete can be the wrapper's region
 * @general: the same elements, at the same place where the wrapper says
 * which. A predicate other than a position cannot be checked without the
 * page, so it matches. */
static gboolean
steps_match (GArray *general,
             GArray *concrete)
{
  if (general == NULL || concrete == NULL || general->len != concrete->len)
    return FALSE;
  for (guint i = 0; i < general->len; i++)
    {
      Step *g = &g_array_index (general, Step, i);
      Step *c = &g_array_index (concrete, Step, i);

      if (!g_str_equal (g->name, "*") && g_ascii_strcasecmp (g->name, c->name) != 0)
        return FALSE;
      if (g->position > 0 && !g->other && g->position != MAX (c->position, 1))
        return FALSE;
    }
  return TRUE;
}

typedef struct {
  CgRecordRegion  public;
  GArray         *steps;      /* Step, or NULL */
  GPtrArray      *names;      /* char *, owned: the columns while they are collected */
  GHashTable     *has_name;   /* the same names */
  guint           first;      /* the first record in it, to keep ties in their order */
} Region;

static void
region_free (Region *region)
{
  g_free (region->public.xpath);
  g_strfreev (region->public.columns);
  g_clear_pointer (&region->steps, g_array_unref);
  g_clear_pointer (&region->names, g_ptr_array_unref);
  g_clear_pointer (&region->has_name, g_hash_table_unref);
  g_free (region);
}

/* Adds the column names of @columns the region does not have yet, in
 * their order. */
static void
region_add_names (Region             *region,
                  const char * const *columns)
{
  for (guint i = 0; columns != NULL && columns[i] != NULL; i++)
    if (!g_hash_table_contains (region->has_name, columns[i]))
      {
        char *name = g_strdup (columns[i]);

        g_ptr_array_add (region->names, name);
        g_hash_table_add (region->has_name, name);
      }
}

static Region *
region_new (const char         *xpath,
            const char * const *columns,
            gboolean            in_wrapper)
{
  Region *region = g_new0 (Region, 1);

  region->public.xpath = g_strdup (xpath != NULL ? xpath : "");
  region->public.in_wrapper = in_wrapper;
  region->steps = parse_steps (xpath);
  region->names = g_ptr_array_new_with_free_func (g_free);
  region->has_name = g_hash_table_new (g_str_hash, g_str_equal);
  region->first = G_MAXUINT;
  region_add_names (region, columns);
  return region;
}

static void
region_add_record (Region         *region,
                   const CgRecord *record,
                   guint           index)
{
  region->public.n_records++;
  region->first = MIN (region->first, index);
  region_add_names (region, (const char * const *) record->columns);
}

static gboolean
same_columns (Region         *region,
              const CgRecord *record)
{
  guint n = record->columns != NULL ? g_strv_length (record->columns) : 0;

  if (n != region->names->len)
    return FALSE;
  for (guint i = 0; i < n; i++)
    if (!g_str_equal (record->columns[i], g_ptr_array_index (region->names, i)))
      return FALSE;
  return TRUE;
}

static gboolean
shares_a_column (Region         *region,
                 const CgRecord *record)
{
  for (guint i = 0; record->columns != NULL && record->columns[i] != NULL; i++)
    if (g_hash_table_contains (region->has_name, record->columns[i]))
      return TRUE;
  return FALSE;
}

/* Where records no region of the wrapper takes are grouped: their
 * region's element names (its positions change from page to page when
 * the region moves) and their columns. */
static char *
group_key (const CgRecord *record,
           GArray         *steps,
           char          **out_xpath)
{
  g_autoptr(GString) xpath = g_string_new (NULL);
  GString *key;

  if (steps != NULL)
    for (guint i = 0; i < steps->len; i++)
      {
        g_string_append_c (xpath, '/');
        g_string_append (xpath, g_array_index (steps, Step, i).name);
      }
  else
    g_string_append (xpath, record->region != NULL ? record->region : "");
  key = g_string_new (xpath->str);
  for (guint i = 0; record->columns != NULL && record->columns[i] != NULL; i++)
    {
      /* A unit separator: neither XPaths nor column names hold one. */
      g_string_append_c (key, '\x1f');
      g_string_append (key, record->columns[i]);
    }
  *out_xpath = g_string_free (g_steal_pointer (&xpath), FALSE);
  return g_string_free (key, FALSE);
}

struct _CgRecordRegions
{
  GPtrArray *regions;      /* Region */
  GArray    *assignment;   /* guint: the region of each record */
  int        main;
};

static int
compare_groups_cb (gconstpointer a,
                   gconstpointer b)
{
  const Region *ra = *(Region * const *) a;
  const Region *rb = *(Region * const *) b;
  guint64 wa = (guint64) ra->public.n_records * MAX (ra->names->len, 1);
  guint64 wb = (guint64) rb->public.n_records * MAX (rb->names->len, 1);

  if (wa != wb)
    return wa > wb ? -1 : 1;
  return ra->first < rb->first ? -1 : ra->first > rb->first ? 1 : 0;
}

CgRecordRegions *
cg_record_regions_new (const char *definition,
                       GPtrArray  *records)
{
  g_autoptr(CgWrapper) wrapper = definition != NULL ? cg_wrapper_new_from_json (definition, NULL) : NULL;
  g_autoptr(GHashTable) groups = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  CgRecordRegions *self = g_new0 (CgRecordRegions, 1);
  guint n_wrapper = 0;

  self->regions = g_ptr_array_new_with_free_func ((GDestroyNotify) region_free);
  self->assignment = g_array_new (FALSE, TRUE, sizeof (guint));
  self->main = -1;

  for (guint r = 0; wrapper != NULL && r < cg_wrapper_get_n_regions (wrapper); r++)
    g_ptr_array_add (self->regions, region_new (cg_wrapper_get_region_xpath (wrapper, r),
                                                cg_wrapper_get_columns (wrapper, r), TRUE));
  n_wrapper = self->regions->len;

  for (guint i = 0; records != NULL && i < records->len; i++)
    {
      const CgRecord *record = g_ptr_array_index (records, i);
      g_autoptr(GArray) steps = parse_steps (record->region);
      guint best = G_MAXUINT, best_score = 0;

      /* The wrapper's region at the record's place with the record's
       * columns; else one at its place sharing some of them (the wrapper
       * lost a column since); else one with its columns elsewhere (the
       * region moved). */
      for (guint r = 0; r < n_wrapper && best_score < 3; r++)
        {
          Region *region = g_ptr_array_index (self->regions, r);
          gboolean at_place = steps_match (region->steps, steps);
          gboolean same = same_columns (region, record);
          guint score = at_place && same ? 3 : at_place && shares_a_column (region, record) ? 2 : same ? 1 : 0;

          if (score > best_score)
            {
              best = r;
              best_score = score;
            }
        }
      if (best == G_MAXUINT)
        {
          g_autofree char *xpath = NULL;
          char *key = group_key (record, steps, &xpath);
          gpointer at;

          if (g_hash_table_lookup_extended (groups, key, NULL, &at))
            {
              best = GPOINTER_TO_UINT (at);
              g_free (key);
            }
          else if (self->regions->len < CG_RECORD_REGIONS_MAX)
            {
              best = self->regions->len;
              g_ptr_array_add (self->regions, region_new (xpath, (const char * const *) record->columns, FALSE));
              g_hash_table_insert (groups, key, GUINT_TO_POINTER (best));
            }
          else
            {
              /* Bounded: a project whose records name thousands of
               * regions still shows and exports all of them. */
              best = self->regions->len - 1;
              g_free (key);
            }
        }
      region_add_record (g_ptr_array_index (self->regions, best), record, i);
      g_array_append_val (self->assignment, best);
    }

  /* The groups outside the wrapper, the largest first; the records follow
   * their group to its new index. */
  if (self->regions->len > n_wrapper + 1)
    {
      guint n = self->regions->len;
      g_autofree guint *moved_to = g_new (guint, n);
      g_autoptr(GHashTable) new_index = g_hash_table_new (NULL, NULL);
      g_autofree Region **before = g_memdup2 (self->regions->pdata, n * sizeof (Region *));

      qsort (self->regions->pdata + n_wrapper, n - n_wrapper, sizeof (Region *), compare_groups_cb);
      for (guint r = 0; r < n; r++)
        g_hash_table_insert (new_index, g_ptr_array_index (self->regions, r), GUINT_TO_POINTER (r));
      for (guint r = 0; r < n; r++)
        moved_to[r] = GPOINTER_TO_UINT (g_hash_table_lookup (new_index, before[r]));
      for (guint i = 0; i < self->assignment->len; i++)
        g_array_index (self->assignment, guint, i) = moved_to[g_array_index (self->assignment, guint, i)];
    }

  for (guint r = 0; r < self->regions->len; r++)
    {
      Region *region = g_ptr_array_index (self->regions, r);

      g_ptr_array_add (region->names, NULL);
      region->public.columns = g_strdupv ((char **) region->names->pdata);
      g_clear_pointer (&region->names, g_ptr_array_unref);
      g_clear_pointer (&region->has_name, g_hash_table_unref);
      if (self->main < 0 && region->public.n_records > 0)
        self->main = (int) r;
    }
  return self;
}

void
cg_record_regions_free (CgRecordRegions *self)
{
  if (self == NULL)
    return;
  g_ptr_array_unref (self->regions);
  g_array_unref (self->assignment);
  g_free (self);
}

guint
cg_record_regions_get_n_regions (CgRecordRegions *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->regions->len;
}

const CgRecordRegion *
cg_record_regions_get_region (CgRecordRegions *self,
                              guint            index)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (index < self->regions->len, NULL);
  return &((Region *) g_ptr_array_index (self->regions, index))->public;
}

int
cg_record_regions_get_main (CgRecordRegions *self)
{
  g_return_val_if_fail (self != NULL, -1);
  return self->main;
}

guint
cg_record_regions_get_record_region (CgRecordRegions *self,
                                     guint            record)
{
  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (record < self->assignment->len, 0);
  return g_array_index (self->assignment, guint, record);
}

GPtrArray *
cg_record_regions_select (CgRecordRegions *self,
                          GPtrArray       *records,
                          guint            index)
{
  GPtrArray *selected;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (records != NULL && records->len == self->assignment->len, NULL);

  selected = g_ptr_array_new ();
  for (guint i = 0; i < records->len; i++)
    if (g_array_index (self->assignment, guint, i) == index)
      g_ptr_array_add (selected, g_ptr_array_index (records, i));
  return selected;
}

/* The last @n steps of @steps, joined; all of them with the leading "/". */
static char *
join_tail (GArray *steps,
           guint   n)
{
  g_autoptr(GString) tail = g_string_new (NULL);

  for (guint i = steps->len - MIN (n, steps->len); i < steps->len; i++)
    {
      if (tail->len > 0 || n >= steps->len)
        g_string_append_c (tail, '/');
      g_string_append (tail, g_array_index (steps, Step, i).text);
    }
  return g_string_free (g_steal_pointer (&tail), FALSE);
}

char *
cg_record_regions_describe (CgRecordRegions *self,
                            guint            index)
{
  Region *region;
  guint n;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (index < self->regions->len, NULL);

  region = g_ptr_array_index (self->regions, index);
  if (region->steps == NULL)
    return g_strdup (region->public.xpath);
  for (n = MIN (2, region->steps->len); n < region->steps->len; n++)
    {
      g_autofree char *tail = join_tail (region->steps, n);
      gboolean unique = TRUE;

      for (guint r = 0; r < self->regions->len && unique; r++)
        {
          Region *other = g_ptr_array_index (self->regions, r);
          g_autofree char *other_tail = NULL;

          if (r == index)
            continue;
          other_tail = other->steps != NULL ? join_tail (other->steps, n) : g_strdup (other->public.xpath);
          unique = !g_str_equal (tail, other_tail);
        }
      if (unique)
        return g_steal_pointer (&tail);
    }
  return join_tail (region->steps, n);
}
