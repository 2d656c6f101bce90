/* cg-cli-clustvx.c: `cartograph-cli clustvx`, the data records of one saved page.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "cg-cli.h"
#include "cg-clustvx.h"
#include "cg-page-features.h"

/* Saved pages are read whole; a list page is at most a few megabytes. */
#define MAX_PAGE_SIZE (64 * 1024 * 1024)

/* A character set name as IANA registers them: letters, digits and a few
 * punctuation marks. Anything else (a ';', quotes, iconv's "//" suffixes)
 * would change the Content-Type it is put in, or what iconv does. */
static gboolean
charset_name_is_valid (const char *name)
{
  if (*name == '\0' || strlen (name) > 40)
    return FALSE;
  for (const char *p = name; *p != '\0'; p++)
    if (!g_ascii_isalnum (*p) && strchr ("-_.:+", *p) == NULL)
      return FALSE;
  return TRUE;
}

/* --charset names the page's character set when the page does not; one
 * that cannot be converted from would be ignored by the parser, and the
 * page read in another, so it is refused. */
static gboolean
check_charset (const char  *charset,
               GError     **error)
{
  GIConv cd;

  if (charset_name_is_valid (charset))
    {
      cd = g_iconv_open ("UTF-8", charset);
      if (cd != (GIConv) -1)
        {
          g_iconv_close (cd);
          return TRUE;
        }
    }
  {
    g_autofree char *shown = g_strescape (charset, NULL);

    g_set_error (error, G_CONVERT_ERROR, G_CONVERT_ERROR_NO_CONVERSION,
                 _("--charset “%s” is not a character set this system can convert from"), shown);
  }
  return FALSE;
}

/* --url is the base the page's links are resolved against: an absolute
 * http or https URL with a host, or a file URL for a page on disk. */
static gboolean
check_base_url (const char  *url,
                GError     **error)
{
  g_autoptr(GUri) uri = cg_cli_parse_url (url, error);
  const char *scheme;

  if (uri == NULL)
    {
      /* The option is named: the file is the command's other argument. */
      g_prefix_error (error, "--url: ");
      return FALSE;
    }
  scheme = g_uri_get_scheme (uri);
  if (g_ascii_strcasecmp (scheme, "http") != 0 && g_ascii_strcasecmp (scheme, "https") != 0 &&
      g_ascii_strcasecmp (scheme, "file") != 0)
    {
      g_set_error (error, G_URI_ERROR, G_URI_ERROR_BAD_SCHEME,
                   _("--url “%s” is not an absolute http, https or file URL"), url);
      return FALSE;
    }
  return TRUE;
}

/* Regions are numbered by rank from 0, the main region, as the class
 * view and `export --region N` number them. */
static void
print_region (const CgClustvxRegion *region,
              guint                  index)
{
  /* Translators: a data region: its index by rank (0 is the main one),
   * the XPath of its element, its record layout (A or B), its number of
   * records and its score. */
  g_print (_("Region %u: %s (type %s, %u records, score %.3f)\n"),
           index, region->xpath, cg_clustvx_records_type_to_string (region->type),
           region->records->len, region->score);
  for (guint r = 0; r < region->records->len; r++)
    {
      const CgClustvxRecord *record = g_ptr_array_index (region->records, r);

      g_print ("  %u.", r + 1);
      for (guint i = 0; i < record->items->len; i++)
        {
          const CgClustvxItem *item = g_ptr_array_index (record->items, i);
          const char *text = *item->text != '\0' ? item->text
                             : item->src != NULL ? item->src : "";

          g_print ("%s%s", i == 0 ? " " : " | ", text);
        }
      g_print ("\n");
    }
}

int
cg_cli_clustvx (int    argc,
                char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *url = NULL;
  g_autofree char *charset = NULL;
  g_autofree char *contents = NULL;
  g_autofree char *content_type = NULL;
  g_autofree char *uri = NULL;
  gboolean json = FALSE, plain = FALSE, rendered = FALSE, all = FALSE;
  int max_elements = CG_CLUSTVX_DEFAULT_MAX_ELEMENTS;
  int exit_code = CG_CLI_EXIT_OK;
  gsize length = 0;
  htmlDocPtr doc;
  g_autoptr(CgClustvxResult) result = NULL;
  CgClustvxOptions options;
  const GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json,
      N_("Print every region, record and item as JSON"), NULL },
    { "all", 'a', 0, G_OPTION_ARG_NONE, &all,
      N_("Print every region, not only the best one"), NULL },
    { "plain", 0, 0, G_OPTION_ARG_NONE, &plain,
      N_("Ignore the renderer’s visual features even when the page has them"), NULL },
    { "rendered", 0, 0, G_OPTION_ARG_NONE, &rendered,
      N_("Read the renderer’s visual features (the default when the page has them)"), NULL },
    { "url", 'u', 0, G_OPTION_ARG_STRING, &url,
      N_("The page’s address, to resolve its links against"), N_("URL") },
    { "charset", 0, 0, G_OPTION_ARG_STRING, &charset,
      N_("The page’s character set when the page does not declare it"), N_("NAME") },
    { "max-elements", 0, 0, G_OPTION_ARG_INT, &max_elements,
      N_("Read at most this many elements of the page"), N_("N") },
    { NULL }
  };

  context = g_option_context_new (_("FILE.html"));
  g_option_context_set_summary (context,
    _("Find the data records of a list page with ClustVX (seed 003): the page’s regions of "
      "repeated records, best first, and each record’s items. FILE is a page as fetched, or "
      "the decorated page that “cartograph-cli render --html” writes, whose boxes and fonts "
      "are then used."));
  cg_cli_add_options (context, entries);
  if (!cg_cli_parse_options (context, &argc, &argv, &exit_code))
    return exit_code;

  if (argc != 2)
    {
      cg_cli_print_error (argc < 2 ? _("clustvx needs one FILE.html")
                                   : _("clustvx takes one FILE.html"));
      return CG_CLI_EXIT_USAGE;
    }
  if (plain && rendered)
    {
      cg_cli_print_error (_("--plain and --rendered exclude each other"));
      return CG_CLI_EXIT_USAGE;
    }
  if (max_elements < 1 || max_elements > CG_CLUSTVX_MAX_ELEMENTS)
    {
      cg_cli_print_error (_("--max-elements must be between 1 and %d, not %d"),
                          CG_CLUSTVX_MAX_ELEMENTS, max_elements);
      return CG_CLI_EXIT_USAGE;
    }

  if (charset != NULL && !check_charset (charset, &error))
    {
      cg_cli_print_error ("%s", error->message);
      return CG_CLI_EXIT_USAGE;
    }
  if (url != NULL && !check_base_url (url, &error))
    {
      cg_cli_print_error ("%s", error->message);
      return CG_CLI_EXIT_USAGE;
    }

  /* Read with the cap checked as the bytes arrive: a FIFO or a device
   * (/dev/zero) has no size to check first and may never end. */
  if (!cg_cli_read_file (argv[1], MAX_PAGE_SIZE, &contents, &length, &error))
    {
      cg_cli_print_error ("%s", error->message);
      return CG_CLI_EXIT_FAILED;
    }

  if (url == NULL)
    {
      uri = g_filename_to_uri (argv[1], NULL, NULL);
      if (uri == NULL)
        {
          g_autofree char *absolute = g_canonicalize_filename (argv[1], NULL);

          uri = g_filename_to_uri (absolute, NULL, NULL);
        }
    }
  if (charset != NULL)
    content_type = g_strdup_printf ("text/html; charset=%s", charset);
  doc = cg_page_parse (contents, length, url != NULL ? url : uri, content_type, &error);
  if (doc == NULL)
    {
      cg_cli_print_error ("%s", error->message);
      return CG_CLI_EXIT_FAILED;
    }

  cg_clustvx_options_init (&options);
  options.features = plain ? CG_CLUSTVX_FEATURES_PLAIN
                   : rendered ? CG_CLUSTVX_FEATURES_RENDERED
                   : CG_CLUSTVX_FEATURES_AUTO;
  options.max_elements = (guint) max_elements;
  result = cg_clustvx_extract (doc, &options, &error);
  if (result == NULL)
    {
      cg_cli_print_error ("%s", error->message);
      xmlFreeDoc (doc);
      return CG_CLI_EXIT_FAILED;
    }

  if (json)
    {
      g_autoptr(JsonNode) node = cg_clustvx_result_to_json (result);
      g_autoptr(JsonGenerator) generator = json_generator_new ();
      g_autofree char *text = NULL;

      json_generator_set_root (generator, node);
      json_generator_set_pretty (generator, TRUE);
      text = json_generator_to_data (generator, NULL);
      g_print ("%s\n", text);
    }
  else
    {
      g_print ("%s\n", result->message);
      for (guint i = 0; i < result->regions->len && (all || i == 0); i++)
        print_region (g_ptr_array_index (result->regions, i), i);
    }

  g_clear_pointer (&result, cg_clustvx_result_free);
  xmlFreeDoc (doc);
  return CG_CLI_EXIT_OK;
}
