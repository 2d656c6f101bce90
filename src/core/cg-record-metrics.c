/* cg-record-metrics.c: record-level precision and recall of an extraction against ground truth.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include <libxml/tree.h>

#include "cg-record-metrics.h"

void
cg_record_metrics_options_init (CgRecordMetricsOptions *options)
{
  g_return_if_fail (options != NULL);

  options->item_share = CG_RECORD_METRICS_DEFAULT_ITEM_SHARE;
  options->fuzzy_overlap = CG_RECORD_METRICS_DEFAULT_FUZZY_OVERLAP;
}

void
cg_record_score_init (CgRecordScore *score)
{
  g_return_if_fail (score != NULL);

  memset (score, 0, sizeof *score);
}

static double
ratio (guint a,
       guint b)
{
  return b > 0 ? (double) a / b : 0;
}

static double
harmonic (double p,
          double r)
{
  return p + r > 0 ? 2 * p * r / (p + r) : 0;
}

void
cg_record_score_update (CgRecordScore *score)
{
  g_return_if_fail (score != NULL);

  score->precision = ratio (score->n_correct, score->n_extracted);
  score->recall = ratio (score->n_extracted, score->n_actual);
  score->recall_correct = ratio (score->n_correct, score->n_actual);
  score->f1 = harmonic (score->precision, score->recall);
  score->f1_correct = harmonic (score->precision, score->recall_correct);
}

void
cg_record_score_add (CgRecordScore       *total,
                     const CgRecordScore *page)
{
  g_return_if_fail (total != NULL);
  g_return_if_fail (page != NULL);

  total->n_actual += page->n_actual;
  total->n_extracted += page->n_extracted;
  total->n_aligned += page->n_aligned;
  total->n_correct += page->n_correct;
  cg_record_score_update (total);
}

/* Words */

/* Calls @func for each word of @text, normalised (NFKC, case-folded). */
static void
foreach_word (const char *text,
              void      (*func) (const char *word, gpointer data),
              gpointer    data)
{
  g_autofree char *valid = NULL;
  g_autofree char *normal = NULL;
  g_autofree char *folded = NULL;
  GString *word;
  guint n = 0;

  if (text == NULL)
    return;
  if (!g_utf8_validate (text, -1, NULL))
    text = valid = g_utf8_make_valid (text, -1);
  normal = g_utf8_normalize (text, -1, G_NORMALIZE_ALL_COMPOSE);
  folded = g_utf8_casefold (normal != NULL ? normal : text, -1);

  word = g_string_new (NULL);
  for (const char *p = folded; ; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (c != 0 && (g_unichar_isalnum (c) || g_unichar_ismark (c)))
        {
          g_string_append_unichar (word, c);
          continue;
        }
      if (word->len > 0 && n < CG_RECORD_METRICS_MAX_WORDS)
        {
          func (word->str, data);
          n++;
        }
      g_string_truncate (word, 0);
      if (c == 0)
        break;
    }
  g_string_free (word, TRUE);
}

static void
append_word_cb (const char *word,
                gpointer    data)
{
  GString *out = data;

  if (out->len > 0)
    g_string_append_c (out, ' ');
  g_string_append (out, word);
}

char *
cg_record_metrics_normalize (const char *text)
{
  GString *out = g_string_new (NULL);

  foreach_word (text, append_word_cb, out);
  return g_string_free (out, FALSE);
}

/* Alignment */

typedef struct {
  GHashTable *ids;    /* word → id + 1 */
  GPtrArray  *words;  /* id → word */
} Words;

typedef struct {
  Words  *words;
  GArray *ids;
} Collect;

static void
collect_word_cb (const char *word,
                 gpointer    data)
{
  Collect *collect = data;
  gpointer known = g_hash_table_lookup (collect->words->ids, word);
  guint id;

  if (known != NULL)
    id = GPOINTER_TO_UINT (known) - 1;
  else
    {
      char *copy = g_strdup (word);

      id = collect->words->words->len;
      g_ptr_array_add (collect->words->words, copy);
      g_hash_table_insert (collect->words->ids, copy, GUINT_TO_POINTER (id + 1));
    }
  g_array_append_val (collect->ids, id);
}

static GArray *
words_of (Words      *words,
          const char *text)
{
  Collect collect = { words, g_array_new (FALSE, FALSE, sizeof (guint)) };

  foreach_word (text, collect_word_cb, &collect);
  return collect.ids;
}

typedef struct {
  GArray   *ids;
  gboolean  cut;          /* ends with an ellipsis: the last word may be a prefix */
  guint     n_chars;      /* letters and digits */
} Value;

typedef struct {
  GArray     *values;     /* Value */
  GArray     *stream;     /* all values' words, a separator between values */
} Actual;

typedef struct {
  GArray     *stream;     /* the items' words in order */
  GHashTable *present;    /* word id set */
} Extracted;

#define SEPARATOR G_MAXUINT

static gboolean
ends_with_ellipsis (const char *text)
{
  g_autofree char *trimmed = g_strstrip (g_strdup (text));

  return g_str_has_suffix (trimmed, "…") || g_str_has_suffix (trimmed, "...");
}

static gboolean
word_is_prefix (Words *words,
                guint  prefix,
                guint  word)
{
  if (prefix == word)
    return TRUE;
  if (prefix == SEPARATOR || word == SEPARATOR)
    return FALSE;
  return g_str_has_prefix (g_ptr_array_index (words->words, word),
                           g_ptr_array_index (words->words, prefix));
}

/* Whether @value's words appear contiguous in @stream. */
static gboolean
contained (Words       *words,
           const Value *value,
           GArray      *stream)
{
  guint n = value->ids->len;
  const guint *v = (const guint *) value->ids->data;
  const guint *s = (const guint *) stream->data;

  if (n == 0 || stream->len < n)
    return FALSE;
  for (guint start = 0; start + n <= stream->len; start++)
    {
      guint i;

      for (i = 0; i < n; i++)
        {
          if (s[start + i] == v[i])
            continue;
          if (value->cut && i == n - 1 && word_is_prefix (words, v[i], s[start + i]))
            continue;
          break;
        }
      if (i == n)
        return TRUE;
    }
  return FALSE;
}

static gboolean
value_found (Words                        *words,
             const Value                  *value,
             const Extracted              *extracted,
             const CgRecordMetricsOptions *options)
{
  guint n = value->ids->len;
  guint present = 0;

  if (n == 0)
    return FALSE;
  /* Cheap refusal: the first word must be there, unless the value is long
   * enough to match fuzzily. */
  if (n < 4 && !(value->cut && n == 1) &&
      !g_hash_table_contains (extracted->present,
                                       GUINT_TO_POINTER (g_array_index (value->ids, guint, 0) + 1)))
    return FALSE;
  if (contained (words, value, extracted->stream))
    return TRUE;
  if (n < 4)
    return FALSE;
  for (guint i = 0; i < n; i++)
    if (g_hash_table_contains (extracted->present, GUINT_TO_POINTER (g_array_index (value->ids, guint, i) + 1)))
      present++;
  return present >= options->fuzzy_overlap * n;
}

/* Whether @value is also one of @actual's own values (or inside one). */
static gboolean
value_in_actual (Words        *words,
                 const Value  *value,
                 const Actual *actual)
{
  return contained (words, value, actual->stream);
}

static void
actual_clear (Actual *actual)
{
  if (actual->values != NULL)
    for (guint v = 0; v < actual->values->len; v++)
      g_array_unref (g_array_index (actual->values, Value, v).ids);
  g_clear_pointer (&actual->values, g_array_unref);
  g_clear_pointer (&actual->stream, g_array_unref);
}

static void
extracted_clear (Extracted *extracted)
{
  g_clear_pointer (&extracted->stream, g_array_unref);
  g_clear_pointer (&extracted->present, g_hash_table_unref);
}

static guint
count_chars (const char *text)
{
  guint n = 0;

  for (const char *p = text; p != NULL && *p != '\0'; p = g_utf8_next_char (p))
    if (g_unichar_isalnum (g_utf8_get_char (p)))
      n++;
  return n;
}

typedef struct {
  guint actual;
  guint extracted;
  guint found;
  guint n_values;
} Pair;

static int
compare_pairs (gconstpointer a,
               gconstpointer b)
{
  const Pair *x = a, *y = b;
  /* found / n_values, compared without division. */
  guint64 lx = (guint64) x->found * y->n_values, ly = (guint64) y->found * x->n_values;
  guint dx, dy;

  if (lx != ly)
    return lx > ly ? -1 : 1;
  if (x->found != y->found)
    return x->found > y->found ? -1 : 1;
  dx = x->actual > x->extracted ? x->actual - x->extracted : x->extracted - x->actual;
  dy = y->actual > y->extracted ? y->actual - y->extracted : y->extracted - y->actual;
  if (dx != dy)
    return dx < dy ? -1 : 1;
  if (x->actual != y->actual)
    return x->actual < y->actual ? -1 : 1;
  return x->extracted < y->extracted ? -1 : (x->extracted > y->extracted);
}

GArray *
cg_record_metrics_align (GPtrArray                    *actual,
                         GPtrArray                    *extracted,
                         const CgRecordMetricsOptions *options,
                         CgRecordScore                *score)
{
  CgRecordMetricsOptions defaults;
  Words words;
  guint n_actual_in, n_extracted;
  g_autoptr(GArray) actuals = g_array_new (FALSE, TRUE, sizeof (Actual));
  g_autoptr(GArray) actual_index = g_array_new (FALSE, FALSE, sizeof (guint));  /* kept → input index */
  g_autoptr(GArray) extracteds = g_array_new (FALSE, TRUE, sizeof (Extracted));
  g_autofree guint *found = NULL;
  g_autoptr(GArray) pairs = g_array_new (FALSE, FALSE, sizeof (Pair));
  g_autofree int *aligned_to = NULL;     /* extracted → kept actual, or -1 */
  g_autofree int *aligned_from = NULL;   /* kept actual → extracted, or -1 */
  g_autofree gboolean *wrong = NULL;
  GArray *matches;
  guint n_actual;

  g_return_val_if_fail (actual != NULL, NULL);
  g_return_val_if_fail (extracted != NULL, NULL);

  if (options == NULL)
    {
      cg_record_metrics_options_init (&defaults);
      options = &defaults;
    }

  words.ids = g_hash_table_new (g_str_hash, g_str_equal);
  words.words = g_ptr_array_new_with_free_func (g_free);

  n_actual_in = MIN (actual->len, CG_RECORD_METRICS_MAX_RECORDS);
  n_extracted = MIN (extracted->len, CG_RECORD_METRICS_MAX_RECORDS);

  for (guint i = 0; i < n_actual_in; i++)
    {
      const char * const *values = g_ptr_array_index (actual, i);
      Actual record = { g_array_new (FALSE, FALSE, sizeof (Value)),
                        g_array_new (FALSE, FALSE, sizeof (guint)) };

      for (guint v = 0; values != NULL && values[v] != NULL; v++)
        {
          Value value = { words_of (&words, values[v]), ends_with_ellipsis (values[v]),
                          count_chars (values[v]) };
          guint separator = SEPARATOR;

          if (value.ids->len == 0)
            {
              g_array_unref (value.ids);
              continue;
            }
          g_array_append_val (record.values, value);
          g_array_append_vals (record.stream, value.ids->data, value.ids->len);
          g_array_append_val (record.stream, separator);
        }
      if (record.values->len == 0)
        {
          actual_clear (&record);
          continue;
        }
      g_array_append_val (actuals, record);
      g_array_append_val (actual_index, i);
    }
  n_actual = actuals->len;

  for (guint j = 0; j < n_extracted; j++)
    {
      const char * const *texts = g_ptr_array_index (extracted, j);
      Extracted record = { g_array_new (FALSE, FALSE, sizeof (guint)),
                           g_hash_table_new (NULL, NULL) };

      for (guint t = 0; texts != NULL && texts[t] != NULL; t++)
        {
          g_autoptr(GArray) ids = words_of (&words, texts[t]);

          g_array_append_vals (record.stream, ids->data, ids->len);
          for (guint w = 0; w < ids->len; w++)
            g_hash_table_add (record.present, GUINT_TO_POINTER (g_array_index (ids, guint, w) + 1));
        }
      g_array_append_val (extracteds, record);
    }

  /* How many values of each actual record each extracted record holds. */
  found = g_new0 (guint, (gsize) MAX (n_actual, 1) * MAX (n_extracted, 1));
  for (guint i = 0; i < n_actual; i++)
    {
      const Actual *a = &g_array_index (actuals, Actual, i);

      for (guint j = 0; j < n_extracted; j++)
        {
          const Extracted *e = &g_array_index (extracteds, Extracted, j);
          guint n = 0;

          for (guint v = 0; v < a->values->len; v++)
            if (value_found (&words, &g_array_index (a->values, Value, v), e, options))
              n++;
          found[(gsize) i * n_extracted + j] = n;
          if (n > 0)
            {
              Pair pair = { i, j, n, a->values->len };

              g_array_append_val (pairs, pair);
            }
        }
    }

  g_array_sort (pairs, compare_pairs);
  aligned_to = g_new (int, MAX (n_extracted, 1));
  aligned_from = g_new (int, MAX (n_actual, 1));
  wrong = g_new0 (gboolean, MAX (n_extracted, 1));
  for (guint j = 0; j < n_extracted; j++)
    aligned_to[j] = -1;
  for (guint i = 0; i < n_actual; i++)
    aligned_from[i] = -1;
  for (guint p = 0; p < pairs->len; p++)
    {
      const Pair *pair = &g_array_index (pairs, Pair, p);

      if (aligned_to[pair->extracted] >= 0 || aligned_from[pair->actual] >= 0)
        continue;
      aligned_to[pair->extracted] = (int) pair->actual;
      aligned_from[pair->actual] = (int) pair->extracted;
    }

  /* Segmentation: values that went to the wrong record. */
  for (guint j = 0; j < n_extracted; j++)
    {
      const Extracted *e = &g_array_index (extracteds, Extracted, j);
      const Actual *own = aligned_to[j] >= 0 ? &g_array_index (actuals, Actual, aligned_to[j]) : NULL;

      for (guint k = 0; k < n_actual; k++)
        {
          const Actual *other = &g_array_index (actuals, Actual, k);
          int other_j = aligned_from[k];
          guint distinct = 0, distinct_found = 0, misplaced = 0;

          if ((int) k == aligned_to[j] || found[(gsize) k * n_extracted + j] == 0)
            continue;
          for (guint v = 0; v < other->values->len; v++)
            {
              const Value *value = &g_array_index (other->values, Value, v);

              if (value->n_chars < CG_RECORD_METRICS_MIN_DISTINCT_CHARS ||
                  (own != NULL && value_in_actual (&words, value, own)))
                continue;
              distinct++;
              if (!value_found (&words, value, e, options))
                continue;
              distinct_found++;
              if (other_j >= 0 &&
                  !value_found (&words, value, &g_array_index (extracteds, Extracted, other_j), options))
                misplaced++;
            }
          if (misplaced > 0)
            {
              wrong[j] = TRUE;
              wrong[other_j] = TRUE;
            }
          else if (other_j < 0 && distinct > 0 && distinct_found > options->item_share * distinct)
            wrong[j] = TRUE;
        }
    }

  matches = g_array_sized_new (FALSE, TRUE, sizeof (CgRecordMatch), extracted->len);
  if (score != NULL)
    {
      cg_record_score_init (score);
      score->n_actual = n_actual;
      score->n_extracted = extracted->len;
    }
  for (guint j = 0; j < extracted->len; j++)
    {
      CgRecordMatch match = { -1, 0, 0, TRUE, FALSE };

      if (j < n_extracted && aligned_to[j] >= 0)
        {
          guint i = (guint) aligned_to[j];

          match.actual = (int) g_array_index (actual_index, guint, i);
          match.n_values = g_array_index (actuals, Actual, i).values->len;
          match.n_found = found[(gsize) i * n_extracted + j];
          match.segmented = !wrong[j];
          match.correct = match.segmented && match.n_found > options->item_share * match.n_values;
        }
      else if (j < n_extracted)
        match.segmented = !wrong[j];
      if (score != NULL)
        {
          score->n_aligned += match.actual >= 0;
          score->n_correct += match.correct;
        }
      g_array_append_val (matches, match);
    }
  if (score != NULL)
    cg_record_score_update (score);

  for (guint i = 0; i < actuals->len; i++)
    actual_clear (&g_array_index (actuals, Actual, i));
  for (guint j = 0; j < extracteds->len; j++)
    extracted_clear (&g_array_index (extracteds, Extracted, j));
  g_hash_table_unref (words.ids);
  g_ptr_array_unref (words.words);
  return matches;
}

GPtrArray *
cg_record_metrics_region_texts (const CgClustvxRegion *region)
{
  GPtrArray *out = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);

  g_return_val_if_fail (region != NULL, out);

  for (guint r = 0; r < region->records->len; r++)
    {
      const CgClustvxRecord *record = g_ptr_array_index (region->records, r);
      GStrv texts = g_new0 (char *, record->items->len + 1);

      for (guint i = 0; i < record->items->len; i++)
        texts[i] = g_strdup (((const CgClustvxItem *) g_ptr_array_index (record->items, i))->text);
      g_ptr_array_add (out, texts);
    }
  return out;
}

/* An element whose only content is one element stands for that element:
 * wrappers around a record are the same record. */
static xmlNodePtr
only_element_child (xmlNodePtr node)
{
  xmlNodePtr only = NULL;

  for (xmlNodePtr child = node->children; child != NULL; child = child->next)
    {
      if (child->type == XML_ELEMENT_NODE)
        {
          if (only != NULL)
            return NULL;
          only = child;
        }
      else if (child->type == XML_TEXT_NODE || child->type == XML_CDATA_SECTION_NODE)
        {
          for (const xmlChar *p = child->content; p != NULL && *p != '\0'; p++)
            if (!g_ascii_isspace (*p))
              return NULL;
        }
    }
  return only;
}

void
cg_record_metrics_score_nodes (GPtrArray     *actual,
                               GPtrArray     *extracted,
                               CgRecordScore *score)
{
  g_autoptr(GHashTable) truth = g_hash_table_new (NULL, NULL);
  g_autoptr(GHashTable) seen = g_hash_table_new (NULL, NULL);

  g_return_if_fail (actual != NULL);
  g_return_if_fail (extracted != NULL);
  g_return_if_fail (score != NULL);

  cg_record_score_init (score);
  for (guint i = 0; i < actual->len; i++)
    g_hash_table_add (truth, g_ptr_array_index (actual, i));
  score->n_actual = g_hash_table_size (truth);
  for (guint j = 0; j < extracted->len; j++)
    {
      gpointer node = g_ptr_array_index (extracted, j);

      /* An element extracted twice is one record. */
      if (!g_hash_table_add (seen, node))
        continue;
      score->n_extracted++;
      for (guint depth = 0; node != NULL && depth < 256; depth++, node = only_element_child (node))
        if (g_hash_table_contains (truth, node))
          {
            score->n_correct++;
            break;
          }
    }
  score->n_aligned = score->n_correct;
  cg_record_score_update (score);
}
