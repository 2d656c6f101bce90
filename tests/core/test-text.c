/* test-text.c: white space collapsing shared by ClustVX and the wrappers.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "cg-text.h"

static void
assert_collapsed (const char *raw,
                  const char *expected)
{
  g_autofree char *text = cg_text_collapse (raw, 1024);

  g_assert_cmpstr (text, ==, expected);
  g_assert_true (g_utf8_validate (text, -1, NULL));
}

static void
test_white_space (void)
{
  assert_collapsed ("", "");
  assert_collapsed (NULL, "");
  assert_collapsed (" \t\r\n ", "");
  assert_collapsed ("  One\n\tthing  ", "One thing");
  /* No-break, em and ideographic spaces are white space a page shows. */
  assert_collapsed ("12\xc2\xa0" "500\xe2\x80\x83" "km\xe3\x80\x80" "away", "12 500 km away");
  assert_collapsed ("a\r\n\r\nb", "a b");
}

static void
test_invisible (void)
{
  /* A byte order mark left at the start of a saved page's text, a
   * zero-width space inside a word, a soft hyphen and a word joiner: all
   * dropped, and none makes a space. */
  assert_collapsed ("\xef\xbb\xbf" "Price", "Price");
  assert_collapsed ("Dau\xe2\x80\x8bphin", "Dauphin");
  assert_collapsed ("Uni\xc2\xad" "versity", "University");
  assert_collapsed ("A\xe2\x81\xa0" "B", "AB");
  assert_collapsed ("  \xef\xbb\xbf  x \xe2\x80\x8b ", "x");
  /* Joiners that shape text stay. */
  assert_collapsed ("\xe0\xa4\x95\xe2\x80\x8d", "\xe0\xa4\x95\xe2\x80\x8d");
}

static void
test_bad_bytes (void)
{
  /* Bytes that are no UTF-8 become U+FFFD and the text after them stays. */
  assert_collapsed ("ab\xff" "cd", "ab\xef\xbf\xbd" "cd");
  assert_collapsed ("\xc3", "\xef\xbf\xbd");
  /* GLib replaces each byte of a cut sequence. */
  assert_collapsed ("x \xe2\x82 y", "x \xef\xbf\xbd\xef\xbf\xbd y");
}

static void
test_cap (void)
{
  g_autoptr(GString) out = g_string_new (NULL);
  g_autofree char *long_text = NULL;
  g_autofree char *text = NULL;
  gboolean space = FALSE;

  /* "é" is two bytes: five bytes hold two of them, never half of one. */
  text = cg_text_collapse ("ééé", 5);
  g_assert_cmpstr (text, ==, "éé");
  g_clear_pointer (&text, g_free);
  text = cg_text_collapse ("ééé", 0);
  g_assert_cmpstr (text, ==, "");
  g_clear_pointer (&text, g_free);
  /* A space is not kept at the end of a cut text. */
  text = cg_text_collapse ("ab cd", 3);
  g_assert_cmpstr (text, ==, "ab");
  g_clear_pointer (&text, g_free);

  g_assert_true (cg_text_append_collapsed (out, "abc", &space, 4));
  g_assert_false (cg_text_append_collapsed (out, "de", &space, 4));
  g_assert_cmpstr (out->str, ==, "abcd");

  long_text = g_strnfill (100000, 'x');
  text = cg_text_collapse (long_text, 65536);
  g_assert_cmpuint (strlen (text), ==, 65536);
}

static void
test_across_calls (void)
{
  g_autoptr(GString) out = g_string_new (NULL);
  gboolean space = FALSE;

  /* Text nodes one after another: a run of white space spanning them is
   * one space, and none is written before the first character or after
   * the last. */
  g_assert_true (cg_text_append_collapsed (out, "  ", &space, 100));
  g_assert_cmpstr (out->str, ==, "");
  g_assert_true (cg_text_append_collapsed (out, "Price: ", &space, 100));
  g_assert_true (cg_text_append_collapsed (out, " \n", &space, 100));
  g_assert_true (cg_text_append_collapsed (out, "£5", &space, 100));
  g_assert_true (cg_text_append_collapsed (out, "0 ", &space, 100));
  g_assert_true (cg_text_append_collapsed (out, NULL, &space, 100));
  g_assert_cmpstr (out->str, ==, "Price: £50");
  g_assert_true (space);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/text/white-space", test_white_space);
  g_test_add_func ("/text/invisible", test_invisible);
  g_test_add_func ("/text/bad-bytes", test_bad_bytes);
  g_test_add_func ("/text/cap", test_cap);
  g_test_add_func ("/text/across-calls", test_across_calls);

  return g_test_run ();
}
