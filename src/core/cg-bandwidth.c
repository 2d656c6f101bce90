/* cg-bandwidth.c: a crawl's bandwidth cap and its weekly schedule.
 *
 * Seed 002 found that capping a crawler on its measured average gives
 * stop-and-go traffic, and shaped the link instead, with caps that change
 * for weekday daytime, nights and weekends. Here the cap is a token bucket
 * refilled at the rate the schedule gives for the current local time: a
 * request may start while the bucket is not in debt, and the bytes it
 * brought are taken out when it ends. The bucket holds at most one second
 * of traffic, so bursts stay short and the rate holds over a few seconds.
 *
 * A schedule is a list of rules separated by ';', the first that matches
 * the time wins, and no match means no cap:
 *
 *   mon-fri 08:00-19:00 = 200K; mon-fri = 1M; sat,sun = 800K
 *
 * Days are mon…sun, ranges (mon-fri), lists (sat,sun) or '*'; a time range
 * may wrap past midnight (22:00-06:00); rates are bytes per second with an
 * optional K, M or G (powers of 1024), or 'unlimited'.
 *
 * The schedule can be replaced while a crawl runs; the object is locked so
 * the window may do that from the main thread.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <glib/gi18n-lib.h>

#include "cg-bandwidth.h"

typedef struct {
  guint8  days;          /* bit 0 Monday … bit 6 Sunday */
  int     start_minute;  /* inclusive; -1 for the whole day */
  int     end_minute;    /* exclusive */
  guint64 rate;          /* bytes per second, 0 for no cap */
} Rule;

struct _CgBandwidth
{
  GObject  parent_instance;

  GMutex   lock;
  GArray  *rules;
  char    *schedule;
  double   tokens;
  gint64   last_refill_us;
};

G_DEFINE_FINAL_TYPE (CgBandwidth, cg_bandwidth, G_TYPE_OBJECT)
G_DEFINE_QUARK (cg-bandwidth-error-quark, cg_bandwidth_error)

static const char * const day_names[] = { "mon", "tue", "wed", "thu", "fri", "sat", "sun" };

static void
cg_bandwidth_finalize (GObject *object)
{
  CgBandwidth *self = CG_BANDWIDTH (object);

  g_array_unref (self->rules);
  g_free (self->schedule);
  g_mutex_clear (&self->lock);

  G_OBJECT_CLASS (cg_bandwidth_parent_class)->finalize (object);
}

static void
cg_bandwidth_class_init (CgBandwidthClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = cg_bandwidth_finalize;
}

static void
cg_bandwidth_init (CgBandwidth *self)
{
  g_mutex_init (&self->lock);
  self->rules = g_array_new (FALSE, FALSE, sizeof (Rule));
  self->schedule = g_strdup ("");
}

CgBandwidth *
cg_bandwidth_new (void)
{
  return g_object_new (CG_TYPE_BANDWIDTH, NULL);
}

static int
parse_day (const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (day_names); i++)
    if (g_ascii_strcasecmp (name, day_names[i]) == 0)
      return (int) i;
  return -1;
}

static gboolean
parse_days (const char *text,
            guint8     *out_days)
{
  g_auto(GStrv) items = g_strsplit (text, ",", -1);
  guint8 days = 0;

  if (g_str_equal (text, "*"))
    {
      *out_days = 0x7f;
      return TRUE;
    }
  for (guint i = 0; items[i] != NULL; i++)
    {
      g_auto(GStrv) range = g_strsplit (g_strstrip (items[i]), "-", 2);
      int first = parse_day (range[0]);
      int last = range[1] != NULL ? parse_day (range[1]) : first;

      if (first < 0 || last < 0)
        return FALSE;
      /* A range may wrap over the week's end, as in fri-mon. */
      for (int d = first;; d = (d + 1) % 7)
        {
          days |= (guint8) (1u << d);
          if (d == last)
            break;
        }
    }
  *out_days = days;
  return days != 0;
}

static gboolean
parse_clock (const char *text,
             int        *out_minute)
{
  guint hours, minutes;
  char extra;

  if (sscanf (text, "%2u:%2u%c", &hours, &minutes, &extra) != 2 || hours > 24 || minutes > 59 ||
      (hours == 24 && minutes != 0))
    return FALSE;
  *out_minute = (int) (hours * 60 + minutes);
  return TRUE;
}

static gboolean
parse_rate (const char *text,
            guint64    *out_rate)
{
  char *end = NULL;
  guint64 value;
  guint64 unit = 1;

  if (g_ascii_strcasecmp (text, "unlimited") == 0)
    {
      *out_rate = 0;
      return TRUE;
    }
  value = g_ascii_strtoull (text, &end, 10);
  if (end == text)
    return FALSE;
  switch (g_ascii_toupper (*end))
    {
    case '\0': break;
    case 'K': unit = 1024; end++; break;
    case 'M': unit = 1024 * 1024; end++; break;
    case 'G': unit = 1024 * 1024 * 1024; end++; break;
    default: return FALSE;
    }
  if (g_ascii_toupper (*end) == 'B')
    end++;
  if (*end != '\0' || value > G_MAXUINT64 / unit)
    return FALSE;
  *out_rate = value * unit;
  return TRUE;
}

static gboolean
parse_rule (const char  *text,
            Rule        *rule,
            GError     **error)
{
  g_auto(GStrv) sides = g_strsplit (text, "=", 2);
  g_auto(GStrv) words = NULL;
  g_autofree char *when = NULL;
  g_autofree char *rate = NULL;

  if (sides[1] == NULL)
    {
      g_set_error (error, CG_BANDWIDTH_ERROR, CG_BANDWIDTH_ERROR_SYNTAX,
                   _("Bandwidth rule “%s” has no “= RATE”"), text);
      return FALSE;
    }
  when = g_strstrip (g_strdup (sides[0]));
  rate = g_strstrip (g_strdup (sides[1]));
  if (!parse_rate (rate, &rule->rate))
    {
      g_set_error (error, CG_BANDWIDTH_ERROR, CG_BANDWIDTH_ERROR_SYNTAX,
                   _("Bandwidth rule “%s”: “%s” is not a rate (bytes per second, "
                     "with K, M or G, or “unlimited”)"), text, rate);
      return FALSE;
    }

  words = g_strsplit_set (when, " \t", -1);
  rule->days = 0x7f;
  rule->start_minute = -1;
  rule->end_minute = -1;
  for (guint i = 0; words[i] != NULL; i++)
    {
      g_auto(GStrv) clock = NULL;

      if (*words[i] == '\0')
        continue;
      if (g_ascii_isdigit (*words[i]))
        {
          clock = g_strsplit (words[i], "-", 2);
          if (clock[1] == NULL || !parse_clock (clock[0], &rule->start_minute) ||
              !parse_clock (clock[1], &rule->end_minute))
            {
              g_set_error (error, CG_BANDWIDTH_ERROR, CG_BANDWIDTH_ERROR_SYNTAX,
                           _("Bandwidth rule “%s”: “%s” is not a time range such as 08:00-19:00"),
                           text, words[i]);
              return FALSE;
            }
        }
      else if (!parse_days (words[i], &rule->days))
        {
          g_set_error (error, CG_BANDWIDTH_ERROR, CG_BANDWIDTH_ERROR_SYNTAX,
                       _("Bandwidth rule “%s”: “%s” is not a list of days such as mon-fri or sat,sun"),
                       text, words[i]);
          return FALSE;
        }
    }
  return TRUE;
}

/**
 * cg_bandwidth_set_schedule:
 * @schedule: rules as described above; an empty string removes the cap
 *
 * Replaces the schedule. On error the previous schedule stays in force.
 */
gboolean
cg_bandwidth_set_schedule (CgBandwidth  *self,
                           const char   *schedule,
                           GError      **error)
{
  g_autoptr(GArray) rules = g_array_new (FALSE, FALSE, sizeof (Rule));
  g_auto(GStrv) parts = NULL;

  g_return_val_if_fail (CG_IS_BANDWIDTH (self), FALSE);

  parts = g_strsplit (schedule != NULL ? schedule : "", ";", -1);
  for (guint i = 0; parts[i] != NULL; i++)
    {
      g_autofree char *text = g_strstrip (g_strdup (parts[i]));
      Rule rule;

      if (*text == '\0')
        continue;
      if (!parse_rule (text, &rule, error))
        return FALSE;
      g_array_append_val (rules, rule);
    }

  g_mutex_lock (&self->lock);
  g_array_unref (self->rules);
  self->rules = g_steal_pointer (&rules);
  g_free (self->schedule);
  self->schedule = g_strdup (schedule != NULL ? schedule : "");
  g_mutex_unlock (&self->lock);
  return TRUE;
}

char *
cg_bandwidth_dup_schedule (CgBandwidth *self)
{
  char *copy;

  g_return_val_if_fail (CG_IS_BANDWIDTH (self), NULL);

  g_mutex_lock (&self->lock);
  copy = g_strdup (self->schedule);
  g_mutex_unlock (&self->lock);
  return copy;
}

static gboolean
rule_matches (const Rule *rule,
              int         day,
              int         minute)
{
  if ((rule->days & (1u << day)) == 0)
    return FALSE;
  if (rule->start_minute < 0)
    return TRUE;
  if (rule->start_minute <= rule->end_minute)
    return minute >= rule->start_minute && minute < rule->end_minute;
  /* A range past midnight, such as 22:00-06:00. */
  return minute >= rule->start_minute || minute < rule->end_minute;
}

static guint64
rate_at_locked (CgBandwidth *self,
                GDateTime   *when)
{
  int day = g_date_time_get_day_of_week (when) - 1;
  int minute = g_date_time_get_hour (when) * 60 + g_date_time_get_minute (when);

  for (guint i = 0; i < self->rules->len; i++)
    {
      const Rule *rule = &g_array_index (self->rules, Rule, i);

      if (rule_matches (rule, day, minute))
        return rule->rate;
    }
  return 0;
}

/* Returns the cap in bytes per second at @when (local time), 0 for none. */
guint64
cg_bandwidth_get_rate_at (CgBandwidth *self,
                          GDateTime   *when)
{
  guint64 rate;

  g_return_val_if_fail (CG_IS_BANDWIDTH (self), 0);

  g_mutex_lock (&self->lock);
  rate = rate_at_locked (self, when);
  g_mutex_unlock (&self->lock);
  return rate;
}

static guint64
refill_locked (CgBandwidth *self,
               gint64       now_us)
{
  g_autoptr(GDateTime) when = NULL;
  guint64 rate;

  /* No schedule, no cap: skip the local-time lookup, which reads the time
   * zone and is asked for on every fetch. */
  if (self->rules->len == 0)
    {
      self->tokens = 0;
      self->last_refill_us = now_us;
      return 0;
    }
  when = g_date_time_new_from_unix_local (now_us / G_USEC_PER_SEC);
  rate = rate_at_locked (self, when);

  if (rate == 0)
    {
      self->tokens = 0;
    }
  else
    {
      if (self->last_refill_us != 0 && now_us > self->last_refill_us)
        self->tokens += (double) rate * (double) (now_us - self->last_refill_us) / G_USEC_PER_SEC;
      self->tokens = MIN (self->tokens, (double) rate);
    }
  self->last_refill_us = now_us;
  return rate;
}

/* Takes the bytes a request brought out of the bucket. */
void
cg_bandwidth_consume (CgBandwidth *self,
                      guint64      bytes,
                      gint64       now_us)
{
  g_return_if_fail (CG_IS_BANDWIDTH (self));

  g_mutex_lock (&self->lock);
  if (refill_locked (self, now_us) != 0)
    self->tokens -= (double) bytes;
  g_mutex_unlock (&self->lock);
}

/* Returns how long to wait before the next request may start: 0 when the
 * bucket is not in debt or there is no cap now. */
gint64
cg_bandwidth_get_wait (CgBandwidth *self,
                       gint64       now_us)
{
  gint64 wait = 0;
  guint64 rate;

  g_return_val_if_fail (CG_IS_BANDWIDTH (self), 0);

  g_mutex_lock (&self->lock);
  rate = refill_locked (self, now_us);
  if (rate != 0 && self->tokens < 0)
    wait = (gint64) (-self->tokens * G_USEC_PER_SEC / (double) rate) + 1;
  g_mutex_unlock (&self->lock);
  return wait;
}
