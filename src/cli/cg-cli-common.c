/* cg-cli-common.c: what cartograph-cli and its WebKit helper,
 * cartograph-cli-web, both do: set up the locale, report errors, parse a
 * command's options and run a command of a table.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include <locale.h>
#include <math.h>
#include <gio/gio.h>
#include <glib/gi18n.h>

#include "cg-cli.h"
#include "cg-url.h"

void
cg_cli_init (void)
{
  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
  g_set_prgname ("cartograph-cli");
}

void
cg_cli_print_error (const char *format,
                    ...)
{
  va_list args;
  g_autofree char *message = NULL;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  /* Translators: the prefix of every error cartograph-cli prints. */
  g_printerr (_("cartograph-cli: %s\n"), message);
}

/* Integer options are read here rather than by GOption, which reads them
 * with strtol() in base 0: "--max-depth 010" would be 8 and "0x10" 16,
 * where a user means ten and ten is what every other tool reads. One
 * command runs per process, so its options can be kept in a list of the
 * process. */
typedef struct {
  char        short_name;
  const char *long_name;
  GOptionArg  arg;
  gpointer    arg_data;
} IntegerOption;

static GArray *integer_options;

static gboolean
parse_integer_cb (const char  *option_name,
                  const char  *value,
                  gpointer     user_data,
                  GError     **error)
{
  const IntegerOption *option = NULL;
  g_autoptr(GError) parse_error = NULL;
  gint64 min, max, number;

  for (guint i = 0; integer_options != NULL && i < integer_options->len && option == NULL; i++)
    {
      const IntegerOption *candidate = &g_array_index (integer_options, IntegerOption, i);

      if (g_str_has_prefix (option_name, "--") ? g_strcmp0 (option_name + 2, candidate->long_name) == 0
                                               : option_name[1] == candidate->short_name)
        option = candidate;
    }
  g_return_val_if_fail (option != NULL, FALSE);

  min = option->arg == G_OPTION_ARG_INT ? G_MININT : G_MININT64;
  max = option->arg == G_OPTION_ARG_INT ? G_MAXINT : G_MAXINT64;
  if (!g_ascii_string_to_signed (value, 10, min, max, &number, &parse_error))
    {
      if (g_error_matches (parse_error, G_NUMBER_PARSER_ERROR, G_NUMBER_PARSER_ERROR_OUT_OF_BOUNDS))
        g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                     /* Translators: e.g. "--port: 99999999999 is out of range". */
                     _("%s: %s is out of range"), option_name, value);
      else
        g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                     /* Translators: e.g. "--max-depth wants a whole number written in decimal, not “0x10”". */
                     _("%s wants a whole number written in decimal, not “%s”"), option_name, value);
      return FALSE;
    }
  if (option->arg == G_OPTION_ARG_INT)
    *(int *) option->arg_data = (int) number;
  else
    *(gint64 *) option->arg_data = number;
  return TRUE;
}

void
cg_cli_add_options (GOptionContext     *context,
                    const GOptionEntry *entries)
{
  g_autoptr(GArray) copies = g_array_new (TRUE, TRUE, sizeof (GOptionEntry));

  if (integer_options == NULL)
    integer_options = g_array_new (FALSE, FALSE, sizeof (IntegerOption));
  for (const GOptionEntry *entry = entries; entry->long_name != NULL; entry++)
    {
      GOptionEntry copy = *entry;

      if (entry->arg == G_OPTION_ARG_INT || entry->arg == G_OPTION_ARG_INT64)
        {
          IntegerOption option = { entry->short_name, entry->long_name, entry->arg, entry->arg_data };

          g_array_append_val (integer_options, option);
          copy.arg = G_OPTION_ARG_CALLBACK;
          copy.arg_data = (gpointer) parse_integer_cb;
        }
      g_array_append_val (copies, copy);
    }
  /* GOption keeps a copy of the entries (their strings stay the caller's). */
  g_option_context_add_main_entries (context, (const GOptionEntry *) copies->data, GETTEXT_PACKAGE);
}

gboolean
cg_cli_parse_options (GOptionContext  *context,
                      int             *argc,
                      char          ***argv,
                      int             *exit_code)
{
  g_autoptr(GError) error = NULL;

  if (!g_option_context_parse (context, argc, argv, &error))
    {
      const char *unreadable = NULL;

      /* GOption says only that a conversion failed, not of which option:
       * the argument that is not text is named instead. */
      if (error->domain == G_CONVERT_ERROR)
        {
          for (int i = 1; i < *argc && unreadable == NULL; i++)
            if (!g_utf8_validate ((*argv)[i], -1, NULL))
              unreadable = (*argv)[i];
        }
      if (unreadable != NULL)
        {
          g_autofree char *shown = g_utf8_make_valid (unreadable, -1);

          cg_cli_print_error (_("The argument “%s” is not text in the encoding of the locale"), shown);
        }
      else
        cg_cli_print_error ("%s", error->message);
      g_printerr (_("Run “%s --help” to see its options.\n"), (*argv)[0]);
      *exit_code = CG_CLI_EXIT_USAGE;
      return FALSE;
    }
  return TRUE;
}

const CgCliCommand *
cg_cli_find_command (const CgCliCommand *commands,
                     gsize               n_commands,
                     const char         *name)
{
  for (gsize i = 0; i < n_commands; i++)
    if (g_str_equal (name, commands[i].name))
      return &commands[i];
  return NULL;
}

int
cg_cli_run_command (const CgCliCommand  *command,
                    int                  argc,
                    char               **argv)
{
  g_autofree char *prgname = g_strdup_printf ("cartograph-cli %s", command->name);

  /* The command sees itself as argv[0], named as the user typed it. */
  argv[1] = prgname;
  return command->run (argc - 1, argv + 1);
}

gboolean
cg_cli_read_file (const char  *path,
                  gsize        max_size,
                  char       **out_contents,
                  gsize       *out_length,
                  GError     **error)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFileInputStream) stream = NULL;
  g_autoptr(GByteArray) contents = g_byte_array_new ();
  g_autoptr(GError) local_error = NULL;
  guint8 buffer[65536];

  stream = g_file_read (file, NULL, &local_error);
  if (stream == NULL)
    {
      g_set_error (error, local_error->domain, local_error->code,
                   _("Cannot read “%s”: %s"), path, local_error->message);
      return FALSE;
    }

  /* The size stat() gives cannot be trusted to bound the reading: a pipe
   * or a device has none (/dev/zero says 0 and never ends), so the cap is
   * checked on what arrives. */
  for (;;)
    {
      gssize n = g_input_stream_read (G_INPUT_STREAM (stream), buffer, sizeof buffer, NULL, &local_error);

      if (n < 0)
        {
          g_set_error (error, local_error->domain, local_error->code,
                       _("Cannot read “%s”: %s"), path, local_error->message);
          return FALSE;
        }
      if (n == 0)
        break;
      if ((gsize) n > max_size - contents->len)
        {
          g_autofree char *limit = g_format_size_full (max_size, G_FORMAT_SIZE_IEC_UNITS);

          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       _("“%s” is larger than %s"), path, limit);
          return FALSE;
        }
      g_byte_array_append (contents, buffer, (guint) n);
    }

  if (out_length != NULL)
    *out_length = contents->len;
  /* NUL-terminated, as g_file_get_contents() leaves it. */
  g_byte_array_append (contents, (const guint8 *) "", 1);
  *out_contents = (char *) g_byte_array_free (g_steal_pointer (&contents), FALSE);
  return TRUE;
}

gboolean
cg_cli_check_count (const char *option,
                    gint64      value,
                    gint64      not_given)
{
  g_autofree char *given = NULL;

  if (value == not_given || value >= 1)
    return TRUE;
  given = g_strdup_printf ("%" G_GINT64_FORMAT, value);
  cg_cli_print_error (_("%s must be at least 1, not %s"), option, given);
  return FALSE;
}

gboolean
cg_cli_parse_seconds (const char *option,
                      const char *text,
                      double     *out_seconds)
{
  char *end = NULL;
  double value;

  /* GOption's own double parser takes "inf" and "nan", which would pass
   * every later comparison or could not be stored; this takes finite
   * numbers only. */
  value = text != NULL && *text != '\0' ? g_ascii_strtod (text, &end) : NAN;
  if (end == NULL || *end != '\0' || !isfinite (value) || value < 0)
    {
      g_autofree char *shown = g_utf8_make_valid (text != NULL ? text : "", -1);

      cg_cli_print_error (_("%s takes a number of 0 or more, not “%s”"), option, shown);
      return FALSE;
    }
  *out_seconds = value;
  return TRUE;
}

GUri *
cg_cli_parse_url (const char  *url,
                  GError     **error)
{
  g_autofree char *scheme = NULL;
  g_autoptr(GError) local_error = NULL;
  GUri *uri;

  if (!g_utf8_validate (url, -1, NULL))
    {
      g_autofree char *shown = g_strescape (url, NULL);

      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("The URL “%s” is not valid UTF-8 (its bytes are shown escaped)"), shown);
      return NULL;
    }
  scheme = g_uri_parse_scheme (url);
  if (scheme == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("“%s” is not an absolute URL such as https://example.org/"), url);
      return NULL;
    }
  /* http(s) URLs as the crawler takes them (a host, a sane length). */
  if (g_ascii_strcasecmp (scheme, "http") == 0 || g_ascii_strcasecmp (scheme, "https") == 0)
    uri = cg_url_parse (url, CG_URL_NORMALIZE_SYNTAX, &local_error);
  else
    uri = g_uri_parse (url, G_URI_FLAGS_NONE, &local_error);
  if (uri == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("The URL “%s” cannot be parsed: %s"), url, local_error->message);
      return NULL;
    }
  return uri;
}

char *
cg_cli_find_option_besides (char               **args,
                            const char * const  *allowed)
{
  for (guint i = 1; args[i] != NULL; i++)
    {
      g_autofree char *name = NULL;

      /* Everything after "--" is an argument. */
      if (g_str_equal (args[i], "--"))
        break;
      /* An option's value is only mistaken for an option when it starts
       * with "-", which the options refused here never need. */
      if (args[i][0] != '-' || args[i][1] == '\0')
        continue;
      /* No option is named by a digit: "-2" is the value of the option
       * before it (--delay -2), refused by that option's own check. */
      if (g_ascii_isdigit (args[i][1]))
        continue;
      /* "--name=value" and "--name value"; "-nVALUE" and "-n VALUE". */
      name = args[i][1] == '-' ? g_strndup (args[i], strcspn (args[i], "=")) : g_strndup (args[i], 2);
      if (!g_strv_contains (allowed, name))
        return g_steal_pointer (&name);
    }
  return NULL;
}
