/* test-format.c: the hand-made formatting agrees with printf() and
 * GDateTime, which it replaces on the crawl's per-URL lines.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "cg-format.h"

static void
check_decimal (gint64 value)
{
  static const guint widths[] = { 0, 1, 3, 5, 10, 22 };

  for (guint i = 0; i < G_N_ELEMENTS (widths); i++)
    {
      g_autoptr(GString) spaces = g_string_new ("x");
      g_autoptr(GString) zeros = g_string_new ("x");
      g_autofree char *expected_spaces = g_strdup_printf ("x%*" G_GINT64_FORMAT, (int) widths[i], value);
      g_autofree char *expected_zeros = g_strdup_printf ("x%0*" G_GINT64_FORMAT, (int) widths[i], value);

      cg_format_append_decimal (spaces, value, widths[i], ' ');
      cg_format_append_decimal (zeros, value, widths[i], '0');
      g_assert_cmpstr (spaces->str, ==, expected_spaces);
      g_assert_cmpstr (zeros->str, ==, expected_zeros);
    }
}

static void
test_decimal_as_printf (void)
{
  static const gint64 values[] = {
    0, 1, 9, 10, 99, 100, 200, 404, 35345, -1, -9, -10, -9998, -61,
    G_GINT64_CONSTANT (1297204412574), G_MAXINT64, G_MININT64, G_MININT64 + 1,
  };
  g_autoptr(GRand) rand = g_rand_new_with_seed (20261123);

  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    check_decimal (values[i]);
  for (guint i = 0; i < 2000; i++)
    {
      /* Every magnitude, both signs. */
      gint64 value = (gint64) ((guint64) g_rand_int (rand) << 32 | g_rand_int (rand)) >> g_rand_int_range (rand, 0, 63);

      check_decimal (value);
    }
}

static void
check_utc (gint64 time_us)
{
  g_autoptr(GDateTime) time = g_date_time_new_from_unix_utc (time_us / G_USEC_PER_SEC);
  g_autofree char *expected = g_date_time_format (time, "%Y-%m-%dT%H:%M:%S");
  g_autofree char *expected_compact = g_date_time_format (time, "%Y%m%d%H%M%S");
  g_autoptr(GString) iso = g_string_new (NULL);
  g_autoptr(GString) compact = g_string_new (NULL);

  cg_format_append_utc (iso, time_us, FALSE);
  cg_format_append_utc (compact, time_us, TRUE);
  g_assert_cmpstr (iso->str, ==, expected);
  g_assert_cmpstr (compact->str, ==, expected_compact);
}

static void
test_utc_as_gdatetime (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (11);

  /* The epoch, Heritrix's example, a leap day, the last second of a
   * year, and times up to the year 9999. */
  check_utc (0);
  check_utc (G_GINT64_CONSTANT (1297204412574000));
  check_utc (G_GINT64_CONSTANT (1709164800) * G_USEC_PER_SEC);
  check_utc (G_GINT64_CONSTANT (1798761599) * G_USEC_PER_SEC + 999999);
  for (guint i = 0; i < 2000; i++)
    check_utc ((gint64) g_rand_double_range (rand, 0, 253402300799.0) * G_USEC_PER_SEC);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/format/decimal-as-printf", test_decimal_as_printf);
  g_test_add_func ("/format/utc-as-gdatetime", test_utc_as_gdatetime);
  return g_test_run ();
}
