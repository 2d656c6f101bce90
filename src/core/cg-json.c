/* cg-json.c: JSON members written and read the same way everywhere, and
 * JSON from outside parsed safely.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "cg-json.h"

void
cg_json_add_string_or_null (JsonBuilder *builder,
                            const char  *name,
                            const char  *value)
{
  json_builder_set_member_name (builder, name);
  if (value != NULL)
    json_builder_add_string_value (builder, value);
  else
    json_builder_add_null_value (builder);
}

void
cg_json_add_strv (JsonBuilder *builder,
                  const char  *name,
                  GStrv        values)
{
  json_builder_set_member_name (builder, name);
  json_builder_begin_array (builder);
  for (guint i = 0; values != NULL && values[i] != NULL; i++)
    json_builder_add_string_value (builder, values[i]);
  json_builder_end_array (builder);
}

const char *
cg_json_get_string (JsonObject *object,
                    const char *name)
{
  JsonNode *node = json_object_get_member (object, name);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;
  return json_node_get_string (node);
}

void
cg_json_append_string (GString    *out,
                       const char *value)
{
  g_autofree char *valid = NULL;
  const char *run = value;
  const char *p;

  if (!g_utf8_validate (value, -1, NULL))
    run = valid = g_utf8_make_valid (value, -1);

  g_string_append_c (out, '"');
  for (p = run; *p != '\0'; p++)
    {
      guchar c = (guchar) *p;
      const char *escape;
      char control[8];

      switch (c)
        {
        case '"': escape = "\\\""; break;
        case '\\': escape = "\\\\"; break;
        case '\b': escape = "\\b"; break;
        case '\f': escape = "\\f"; break;
        case '\n': escape = "\\n"; break;
        case '\r': escape = "\\r"; break;
        case '\t': escape = "\\t"; break;
        default:
          if (c >= 0x20)
            continue;
          g_snprintf (control, sizeof control, "\\u%04x", c);
          escape = control;
          break;
        }
      /* Characters that need no escape are copied in runs. */
      g_string_append_len (out, run, p - run);
      g_string_append (out, escape);
      run = p + 1;
    }
  g_string_append_len (out, run, p - run);
  g_string_append_c (out, '"');
}

JsonNode *
cg_json_parse (const char  *text,
               gssize       length,
               GError     **error)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  const char *end;
  gboolean in_string = FALSE;
  guint depth = 0;
  guint line = 1;
  JsonNode *root;

  g_return_val_if_fail (text != NULL, NULL);

  end = length < 0 ? text + strlen (text) : text + length;

  /* Brackets inside strings do not nest, and a quote after a backslash
   * does not end a string, so the scan follows strings and their escapes;
   * anything else malformed is left for json-glib to report. */
  for (const char *p = text; p < end; p++)
    {
      if (in_string)
        {
          if (*p == '\\' && p + 1 < end)
            p++;
          else if (*p == '"')
            in_string = FALSE;
          else if (*p == '\n')
            line++;
          continue;
        }
      switch (*p)
        {
        case '"':
          in_string = TRUE;
          break;
        case '[':
        case '{':
          if (++depth > CG_JSON_MAX_DEPTH)
            {
              g_set_error (error, JSON_PARSER_ERROR, JSON_PARSER_ERROR_INVALID_DATA,
                           /* Translators: %u is a line number, %d a number of levels. */
                           _("The JSON on line %u nests arrays and objects more than %d levels deep"),
                           line, CG_JSON_MAX_DEPTH);
              return NULL;
            }
          break;
        case ']':
        case '}':
          if (depth > 0)
            depth--;
          break;
        case '\n':
          line++;
          break;
        default:
          break;
        }
    }

  if (!json_parser_load_from_data (parser, text, end - text, error))
    return NULL;
  root = json_parser_steal_root (parser);
  if (root == NULL)
    {
      g_set_error_literal (error, JSON_PARSER_ERROR, JSON_PARSER_ERROR_INVALID_DATA,
                           _("The text is empty: there is no JSON value in it"));
      return NULL;
    }
  return root;
}
