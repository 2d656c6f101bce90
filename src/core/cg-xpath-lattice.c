/* cg-xpath-lattice.c: seed 000's lattice of path expressiveness.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "cg-xpath-lattice.h"

struct _CgLatticePath {
  CgDomPath *path;
  guint      n_steps;
  guint     *offsets;   /* n_steps + 1 entries: the step's first level */
  guint8    *levels;    /* one CgXPathAttributeLevel per recorded attribute */
  guint8    *dropped;   /* one flag per step */
};

G_DEFINE_BOXED_TYPE (CgLatticePath, cg_lattice_path, cg_lattice_path_copy, cg_lattice_path_free)

static CgLatticePath *
lattice_path_new (CgDomPath *path)
{
  CgLatticePath *self = g_new0 (CgLatticePath, 1);
  guint total = 0;

  self->path = cg_dom_path_ref (path);
  self->n_steps = cg_dom_path_get_length (path);
  self->offsets = g_new0 (guint, self->n_steps + 1);
  for (guint i = 0; i < self->n_steps; i++)
    {
      self->offsets[i] = total;
      total += cg_dom_path_get_n_attributes (path, i);
    }
  self->offsets[self->n_steps] = total;
  self->levels = g_new0 (guint8, MAX (total, 1));
  self->dropped = g_new0 (guint8, MAX (self->n_steps, 1));
  return self;
}

CgLatticePath *
cg_lattice_path_copy (const CgLatticePath *self)
{
  CgLatticePath *copy;

  g_return_val_if_fail (self != NULL, NULL);

  copy = lattice_path_new (self->path);
  memcpy (copy->levels, self->levels, self->offsets[self->n_steps]);
  memcpy (copy->dropped, self->dropped, self->n_steps);
  return copy;
}

void
cg_lattice_path_free (CgLatticePath *self)
{
  if (self == NULL)
    return;
  cg_dom_path_unref (self->path);
  g_free (self->offsets);
  g_free (self->levels);
  g_free (self->dropped);
  g_free (self);
}

static guint
n_attributes (const CgLatticePath *self,
              guint                step)
{
  return self->offsets[step + 1] - self->offsets[step];
}

gboolean
cg_lattice_path_is_tunable (const CgLatticePath *self,
                            guint                step,
                            guint                attribute)
{
  const char *tag;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (step < self->n_steps && attribute < n_attributes (self, step), FALSE);

  if (step + 1 < self->n_steps)
    return TRUE;
  tag = cg_dom_path_get_tag (self->path, step);
  return !((g_str_equal (tag, "a") || g_str_equal (tag, "area")) &&
           g_str_equal (cg_dom_path_get_attribute_name (self->path, step, attribute), "href"));
}

/* The first attribute of a step that the lattice may test, or -1. */
static int
first_tunable (const CgLatticePath *self,
               guint                step)
{
  for (guint j = 0; j < n_attributes (self, step); j++)
    if (cg_lattice_path_is_tunable (self, step, j))
      return (int) j;
  return -1;
}

static gboolean
value_known (const CgLatticePath *self,
             guint                step,
             guint                attribute)
{
  return cg_dom_path_get_attribute_value (self->path, step, attribute) != NULL;
}

CgLatticePath *
cg_lattice_path_new_bare (CgDomPath *path)
{
  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (cg_dom_path_get_length (path) > 0, NULL);

  return lattice_path_new (path);
}

CgLatticePath *
cg_lattice_path_new_default (CgDomPath *path)
{
  CgLatticePath *self;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (cg_dom_path_get_length (path) > 0, NULL);

  self = lattice_path_new (path);
  for (guint i = 0; i < self->n_steps; i++)
    {
      int first = first_tunable (self, i);

      if (first >= 0)
        self->levels[self->offsets[i] + first] = CG_XPATH_ATTRIBUTE_NAME;
    }
  return self;
}

CgLatticePath *
cg_lattice_path_new_exact (CgDomPath *path)
{
  CgLatticePath *self;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (cg_dom_path_get_length (path) > 0, NULL);

  self = lattice_path_new (path);
  for (guint i = 0; i < self->n_steps; i++)
    for (guint j = 0; j < n_attributes (self, i); j++)
      if (cg_lattice_path_is_tunable (self, i, j))
        self->levels[self->offsets[i] + j] = value_known (self, i, j) ? CG_XPATH_ATTRIBUTE_VALUE
                                                                       : CG_XPATH_ATTRIBUTE_NAME;
  return self;
}

CgDomPath *
cg_lattice_path_get_dom_path (const CgLatticePath *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->path;
}

CgXPathAttributeLevel
cg_lattice_path_get_level (const CgLatticePath *self,
                           guint                step,
                           guint                attribute)
{
  g_return_val_if_fail (self != NULL, CG_XPATH_ATTRIBUTE_NONE);
  g_return_val_if_fail (step < self->n_steps && attribute < n_attributes (self, step),
                        CG_XPATH_ATTRIBUTE_NONE);
  return self->levels[self->offsets[step] + attribute];
}

gboolean
cg_lattice_path_is_dropped (const CgLatticePath *self,
                            guint                step)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (step < self->n_steps, FALSE);
  return self->dropped[step];
}

guint
cg_lattice_path_get_rank (const CgLatticePath *self)
{
  guint rank = 0;

  g_return_val_if_fail (self != NULL, 0);

  for (guint i = 0; i < self->n_steps; i++)
    if (!self->dropped[i])
      rank++;
  for (guint k = 0; k < self->offsets[self->n_steps]; k++)
    rank += self->levels[k];
  return rank;
}

static gboolean
has_tested_attribute (const CgLatticePath *self,
                      guint                step)
{
  for (guint j = 0; j < n_attributes (self, step); j++)
    if (self->levels[self->offsets[step] + j] != CG_XPATH_ATTRIBUTE_NONE)
      return TRUE;
  return FALSE;
}

CgLatticePath *
cg_lattice_path_with_level (const CgLatticePath   *self,
                            guint                  step,
                            guint                  attribute,
                            CgXPathAttributeLevel  level)
{
  CgLatticePath *copy;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (step < self->n_steps && attribute < n_attributes (self, step), NULL);
  g_return_val_if_fail (level <= CG_XPATH_ATTRIBUTE_VALUE, NULL);

  if (level != CG_XPATH_ATTRIBUTE_NONE &&
      (self->dropped[step] || !cg_lattice_path_is_tunable (self, step, attribute) ||
       (level == CG_XPATH_ATTRIBUTE_VALUE && !value_known (self, step, attribute))))
    return NULL;
  copy = cg_lattice_path_copy (self);
  copy->levels[copy->offsets[step] + attribute] = level;
  return copy;
}

CgLatticePath *
cg_lattice_path_with_dropped (const CgLatticePath *self,
                              guint                step,
                              gboolean             dropped)
{
  CgLatticePath *copy;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (step < self->n_steps, NULL);

  if (dropped && (step + 1 == self->n_steps || has_tested_attribute (self, step)))
    return NULL;
  copy = cg_lattice_path_copy (self);
  copy->dropped[step] = dropped ? 1 : 0;
  return copy;
}

GPtrArray *
cg_lattice_path_refinements (const CgLatticePath *self)
{
  GPtrArray *out = g_ptr_array_new_with_free_func ((GDestroyNotify) cg_lattice_path_free);

  g_return_val_if_fail (self != NULL, out);

  for (guint i = 0; i < self->n_steps; i++)
    {
      if (self->dropped[i])
        {
          g_ptr_array_add (out, cg_lattice_path_with_dropped (self, i, FALSE));
          continue;
        }
      for (guint j = 0; j < n_attributes (self, i); j++)
        {
          CgXPathAttributeLevel level = self->levels[self->offsets[i] + j];
          CgLatticePath *next;

          if (level == CG_XPATH_ATTRIBUTE_VALUE)
            continue;
          next = cg_lattice_path_with_level (self, i, j, level + 1);
          if (next != NULL)
            g_ptr_array_add (out, next);
        }
    }
  return out;
}

GPtrArray *
cg_lattice_path_generalizations (const CgLatticePath *self)
{
  GPtrArray *out = g_ptr_array_new_with_free_func ((GDestroyNotify) cg_lattice_path_free);

  g_return_val_if_fail (self != NULL, out);

  for (guint i = 0; i < self->n_steps; i++)
    {
      if (self->dropped[i])
        continue;
      if (!has_tested_attribute (self, i))
        {
          CgLatticePath *next = cg_lattice_path_with_dropped (self, i, TRUE);

          if (next != NULL)
            g_ptr_array_add (out, next);
          continue;
        }
      for (guint j = 0; j < n_attributes (self, i); j++)
        {
          CgXPathAttributeLevel level = self->levels[self->offsets[i] + j];

          if (level != CG_XPATH_ATTRIBUTE_NONE)
            g_ptr_array_add (out, cg_lattice_path_with_level (self, i, j, level - 1));
        }
    }
  return out;
}

/* Appends to @chain the point one level above its last one, with one
 * attribute raised to @level, if the lattice has that point. */
static void
chain_raise (GPtrArray             *chain,
             guint                  step,
             guint                  attribute,
             CgXPathAttributeLevel  level)
{
  const CgLatticePath *last = chain->pdata[chain->len - 1];
  CgLatticePath *next;

  if (last->levels[last->offsets[step] + attribute] >= level)
    return;
  next = cg_lattice_path_with_level (last, step, attribute, level);
  if (next != NULL)
    g_ptr_array_add (chain, next);
}

GPtrArray *
cg_lattice_path_chain (CgDomPath *path)
{
  GPtrArray *chain = g_ptr_array_new_with_free_func ((GDestroyNotify) cg_lattice_path_free);
  const CgLatticePath *bare;

  g_return_val_if_fail (path != NULL, chain);
  g_return_val_if_fail (cg_dom_path_get_length (path) > 0, chain);

  g_ptr_array_add (chain, cg_lattice_path_new_bare (path));
  bare = chain->pdata[0];

  for (guint i = 0; i < bare->n_steps; i++)
    {
      int first = first_tunable (bare, i);

      if (first >= 0)
        chain_raise (chain, i, first, CG_XPATH_ATTRIBUTE_NAME);
    }
  for (guint i = 0; i < bare->n_steps; i++)
    {
      int first = first_tunable (bare, i);

      if (first >= 0)
        chain_raise (chain, i, first, CG_XPATH_ATTRIBUTE_VALUE);
    }
  for (CgXPathAttributeLevel level = CG_XPATH_ATTRIBUTE_NAME; level <= CG_XPATH_ATTRIBUTE_VALUE; level++)
    for (guint i = 0; i < bare->n_steps; i++)
      for (guint j = 0; j < n_attributes (bare, i); j++)
        if ((int) j != first_tunable (bare, i))
          chain_raise (chain, i, j, level);
  return chain;
}

char *
cg_lattice_path_to_xpath (const CgLatticePath *self)
{
  GString *out = g_string_new (NULL);
  gboolean gap = FALSE;

  g_return_val_if_fail (self != NULL, NULL);

  for (guint i = 0; i < self->n_steps; i++)
    {
      if (self->dropped[i])
        {
          gap = TRUE;
          continue;
        }
      g_string_append (out, gap ? "//" : "/");
      gap = FALSE;
      g_string_append (out, cg_dom_path_get_tag (self->path, i));
      for (guint j = 0; j < n_attributes (self, i); j++)
        {
          CgXPathAttributeLevel level = self->levels[self->offsets[i] + j];
          const char *name = cg_dom_path_get_attribute_name (self->path, i, j);

          if (level == CG_XPATH_ATTRIBUTE_NAME)
            g_string_append_printf (out, "[@%s]", name);
          else if (level == CG_XPATH_ATTRIBUTE_VALUE)
            {
              g_autofree char *literal =
                cg_dom_xpath_literal (cg_dom_path_get_attribute_value (self->path, i, j));

              g_string_append_printf (out, "[@%s=%s]", name, literal);
            }
        }
    }
  return g_string_free (out, FALSE);
}

/* Whether step @i of @self, with its tests, matches step @k of @other. */
static gboolean
step_matches (const CgLatticePath *self,
              guint                i,
              const CgDomPath     *other,
              guint                k)
{
  if (!g_str_equal (cg_dom_path_get_tag (self->path, i), cg_dom_path_get_tag (other, k)))
    return FALSE;
  for (guint j = 0; j < n_attributes (self, i); j++)
    {
      CgXPathAttributeLevel level = self->levels[self->offsets[i] + j];
      const char *name;
      int found;

      if (level == CG_XPATH_ATTRIBUTE_NONE)
        continue;
      name = cg_dom_path_get_attribute_name (self->path, i, j);
      found = cg_dom_path_find_attribute (other, k, name);
      if (found < 0)
        return FALSE;
      if (level == CG_XPATH_ATTRIBUTE_VALUE)
        {
          /* A value too long to record cannot equal a recorded one. */
          const char *theirs = cg_dom_path_get_attribute_value (other, k, found);

          if (theirs == NULL ||
              !g_str_equal (cg_dom_path_get_attribute_value (self->path, i, j), theirs))
            return FALSE;
        }
    }
  return TRUE;
}

/* Whether the kept steps first..last (a run with no dropped step inside)
 * match @other's steps from @at on. */
static gboolean
segment_matches_at (const CgLatticePath *self,
                    guint                first,
                    guint                last,
                    const CgDomPath     *other,
                    guint                at)
{
  for (guint i = first; i <= last; i++)
    if (!step_matches (self, i, other, at + (i - first)))
      return FALSE;
  return TRUE;
}

/* The kept steps form runs separated by dropped ones; in XPath each run is
 * a chain of child steps and each gap a descendant step. A run may sit
 * anywhere after the previous one, so placing every run at its earliest
 * possible position leaves the most room for the rest and finds a match
 * whenever there is one. The first run is anchored at the root unless
 * steps before it are dropped; the last run ends at the element itself. */
gboolean
cg_lattice_path_matches (const CgLatticePath *self,
                         const CgDomPath     *other)
{
  guint other_length;
  guint next_free = 0;
  guint i = 0;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (other != NULL, FALSE);

  other_length = cg_dom_path_get_length (other);
  while (i < self->n_steps)
    {
      gboolean anchored_start = (i == 0);
      guint first;
      guint last;
      guint run;

      while (i < self->n_steps && self->dropped[i])
        {
          anchored_start = FALSE;
          i++;
        }
      if (i == self->n_steps)
        break;
      first = i;
      while (i + 1 < self->n_steps && !self->dropped[i + 1])
        i++;
      last = i;
      i++;
      run = last - first + 1;

      if (run > other_length - MIN (next_free, other_length))
        return FALSE;
      if (last + 1 == self->n_steps)
        {
          guint at = other_length - run;

          if (at < next_free || (anchored_start && at != 0))
            return FALSE;
          return segment_matches_at (self, first, last, other, at);
        }
      if (anchored_start)
        {
          if (next_free != 0 || !segment_matches_at (self, first, last, other, 0))
            return FALSE;
          next_free = run;
        }
      else
        {
          guint at;

          for (at = next_free; at + run <= other_length; at++)
            if (segment_matches_at (self, first, last, other, at))
              break;
          if (at + run > other_length)
            return FALSE;
          next_free = at + run;
        }
    }
  /* Unreachable: the last step is never dropped. */
  return FALSE;
}

guint
cg_lattice_path_count_matches (const CgLatticePath *self,
                               GPtrArray           *paths)
{
  guint count = 0;

  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (paths != NULL, 0);

  for (guint i = 0; i < paths->len; i++)
    if (cg_lattice_path_matches (self, paths->pdata[i]))
      count++;
  return count;
}
