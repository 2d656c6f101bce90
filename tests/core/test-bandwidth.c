/* test-bandwidth.c: bandwidth schedules and the token bucket.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "cg-bandwidth.h"

#define SCHEDULE "mon-fri 08:00-19:00 = 200K; mon-fri 22:00-06:00 = 4M; mon-fri = 1M; sat,sun = 800K"

static guint64
rate_on (CgBandwidth *bw, int year, int month, int day, int hour, int minute)
{
  g_autoptr(GDateTime) when = g_date_time_new_local (year, month, day, hour, minute, 0);

  return cg_bandwidth_get_rate_at (bw, when);
}

static void
test_schedule (void)
{
  g_autoptr(CgBandwidth) bw = cg_bandwidth_new ();
  g_autoptr(GError) error = NULL;

  g_assert_true (cg_bandwidth_set_schedule (bw, SCHEDULE, &error));
  g_assert_no_error (error);
  /* 2026-11-23 is a Monday, 2026-11-28 a Saturday. */
  g_assert_cmpuint (rate_on (bw, 2026, 11, 23, 10, 0), ==, 200 * 1024);
  g_assert_cmpuint (rate_on (bw, 2026, 11, 23, 18, 59), ==, 200 * 1024);
  g_assert_cmpuint (rate_on (bw, 2026, 11, 23, 19, 0), ==, 1024 * 1024);
  g_assert_cmpuint (rate_on (bw, 2026, 11, 23, 23, 30), ==, 4 * 1024 * 1024);
  g_assert_cmpuint (rate_on (bw, 2026, 11, 24, 5, 59), ==, 4 * 1024 * 1024);
  g_assert_cmpuint (rate_on (bw, 2026, 11, 28, 10, 0), ==, 800 * 1024);
  g_assert_cmpuint (rate_on (bw, 2026, 11, 29, 23, 0), ==, 800 * 1024);
}

static void
test_no_schedule_no_cap (void)
{
  g_autoptr(CgBandwidth) bw = cg_bandwidth_new ();

  g_assert_cmpuint (rate_on (bw, 2026, 11, 23, 10, 0), ==, 0);
  cg_bandwidth_consume (bw, 100 * 1024 * 1024, 1000);
  g_assert_cmpint (cg_bandwidth_get_wait (bw, 1001), ==, 0);
}

static void
test_bad_schedules (void)
{
  const char *bad[][2] = {
    { "mon-fri 08:00-19:00", "no “= RATE”" },
    { "mon-fri = fast", "“fast” is not a rate" },
    { "funday = 1M", "“funday” is not a list of days" },
    { "mon 25:00-26:00 = 1M", "“25:00-26:00” is not a time range" },
    { "mon 08:00 = 1M", "“08:00” is not a time range" },
    { "* = 12Q", "“12Q” is not a rate" },
  };
  g_autoptr(CgBandwidth) bw = cg_bandwidth_new ();
  g_autoptr(GError) error = NULL;

  g_assert_true (cg_bandwidth_set_schedule (bw, "* = 1M", &error));
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autofree char *kept = NULL;

      g_assert_false (cg_bandwidth_set_schedule (bw, bad[i][0], &error));
      g_assert_error (error, CG_BANDWIDTH_ERROR, CG_BANDWIDTH_ERROR_SYNTAX);
      if (strstr (error->message, bad[i][1]) == NULL)
        g_error ("“%s” gave “%s”, expected it to mention %s", bad[i][0], error->message, bad[i][1]);
      g_clear_error (&error);
      /* The schedule in force is kept. */
      kept = cg_bandwidth_dup_schedule (bw);
      g_assert_cmpstr (kept, ==, "* = 1M");
    }
}

/* A greedy crawler that starts a 10 KiB request whenever it may, over
 * twenty simulated seconds, moves what the cap allows and no more. */
static void
test_bucket_holds_rate (void)
{
  g_autoptr(CgBandwidth) bw = cg_bandwidth_new ();
  g_autoptr(GError) error = NULL;
  const guint64 rate = 100 * 1024;
  gint64 now = g_get_real_time ();
  gint64 end = now + 20 * G_USEC_PER_SEC;
  guint64 moved = 0;

  g_assert_true (cg_bandwidth_set_schedule (bw, "* = 100K", &error));
  while (now < end)
    {
      gint64 wait = cg_bandwidth_get_wait (bw, now);

      if (wait > 0)
        {
          now += wait;
          continue;
        }
      cg_bandwidth_consume (bw, 10 * 1024, now);
      moved += 10 * 1024;
      now += 1000;
    }
  /* Twenty seconds at the rate, plus at most the one-second burst and the
   * request that was let through last. */
  g_assert_cmpuint (moved, >=, 19 * rate);
  g_assert_cmpuint (moved, <=, 21 * rate + 10 * 1024);
}

static void
test_change_during_crawl (void)
{
  g_autoptr(CgBandwidth) bw = cg_bandwidth_new ();
  g_autoptr(GError) error = NULL;
  gint64 now = g_get_real_time ();

  g_assert_true (cg_bandwidth_set_schedule (bw, "* = 10K", &error));
  cg_bandwidth_consume (bw, 0, now);
  cg_bandwidth_consume (bw, 100 * 1024, now);
  g_assert_cmpint (cg_bandwidth_get_wait (bw, now), >, 9 * G_USEC_PER_SEC);
  g_assert_true (cg_bandwidth_set_schedule (bw, "", &error));
  g_assert_cmpint (cg_bandwidth_get_wait (bw, now), ==, 0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/bandwidth/schedule", test_schedule);
  g_test_add_func ("/bandwidth/no-schedule-no-cap", test_no_schedule_no_cap);
  g_test_add_func ("/bandwidth/bad-schedules", test_bad_schedules);
  g_test_add_func ("/bandwidth/bucket-holds-rate", test_bucket_holds_rate);
  g_test_add_func ("/bandwidth/change-during-crawl", test_change_during_crawl);

  return g_test_run ();
}
