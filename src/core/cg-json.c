/* cg-json.c: JSON members written and read the same way everywhere, and
 * JSON from outside parsed safely.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>
#include <glib/gi18n-lib.h>

#include "cg-json.h"

G_DEFINE_QUARK (cg-json-error-quark, cg_json_error)

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

const char *
cg_json_describe_node (JsonNode *node)
{
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return _("null");
  if (JSON_NODE_HOLDS_OBJECT (node))
    return _("an object");
  if (JSON_NODE_HOLDS_ARRAY (node))
    return _("an array");
  if (json_node_get_value_type (node) == G_TYPE_STRING)
    return _("a string");
  if (json_node_get_value_type (node) == G_TYPE_BOOLEAN)
    return _("true or false");
  return _("a number");
}

static gboolean
member_error (GError     **error,
              const char  *where,
              const char  *name,
              const char  *expected,
              JsonNode    *node)
{
  g_set_error (error, CG_JSON_ERROR, CG_JSON_ERROR_MEMBER,
               /* Translators: e.g. "Class 2 of the model file: “depth” should be a whole number, not a string". */
               _("%s: “%s” should be %s, not %s"), where, name, expected, cg_json_describe_node (node));
  return FALSE;
}

/* The member @name, or NULL when it is missing or null. */
static JsonNode *
get_member (JsonObject *object,
            const char *name)
{
  JsonNode *node = json_object_get_member (object, name);

  return node != NULL && !JSON_NODE_HOLDS_NULL (node) ? node : NULL;
}

static gboolean
holds_value_of_type (JsonNode *node,
                     GType     type)
{
  return JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == type;
}

static gboolean
holds_number (JsonNode *node)
{
  return holds_value_of_type (node, G_TYPE_INT64) || holds_value_of_type (node, G_TYPE_DOUBLE);
}

gboolean
cg_json_read_string (JsonObject  *object,
                     const char  *where,
                     const char  *name,
                     const char **inout,
                     GError     **error)
{
  JsonNode *node = get_member (object, name);

  if (node == NULL)
    return TRUE;
  if (!holds_value_of_type (node, G_TYPE_STRING))
    return member_error (error, where, name, _("a string"), node);
  *inout = json_node_get_string (node);
  return TRUE;
}

gboolean
cg_json_read_boolean (JsonObject  *object,
                      const char  *where,
                      const char  *name,
                      gboolean    *inout,
                      GError     **error)
{
  JsonNode *node = get_member (object, name);

  if (node == NULL)
    return TRUE;
  if (!holds_value_of_type (node, G_TYPE_BOOLEAN))
    return member_error (error, where, name, _("true or false"), node);
  *inout = json_node_get_boolean (node);
  return TRUE;
}

gboolean
cg_json_read_int (JsonObject  *object,
                  const char  *where,
                  const char  *name,
                  gint64       min,
                  gint64       max,
                  gint64      *inout,
                  GError     **error)
{
  JsonNode *node = get_member (object, name);
  g_autofree char *shown = NULL;
  gboolean whole = TRUE;
  gint64 value = 0;

  if (node == NULL)
    return TRUE;
  if (!holds_number (node))
    return member_error (error, where, name, _("a whole number"), node);
  if (json_node_get_value_type (node) == G_TYPE_INT64)
    value = json_node_get_int (node);
  else
    {
      double number = json_node_get_double (node);

      /* Only a double that holds an integer exactly (up to 2^53) converts
       * without loss, and without undefined behaviour; any other is
       * refused below as out of range. */
      if (fabs (number) <= 9007199254740992.0 && number == (double) (gint64) number)
        value = (gint64) number;
      else
        whole = FALSE;
    }
  if (!whole || value < min || value > max)
    {
      shown = json_to_string (node, FALSE);
      g_set_error (error, CG_JSON_ERROR, CG_JSON_ERROR_MEMBER,
                   /* Translators: e.g. "Class 2 of the model file: “pages” should be a whole number from 0 to
                    * 2147483647, not -3". */
                   _("%s: “%s” should be a whole number from %" PRId64 " to %" PRId64 ", not %s"),
                   where, name, min, max, shown);
      return FALSE;
    }
  *inout = value;
  return TRUE;
}

gboolean
cg_json_read_double (JsonObject  *object,
                     const char  *where,
                     const char  *name,
                     double      *inout,
                     GError     **error)
{
  JsonNode *node = get_member (object, name);
  double value;

  if (node == NULL)
    return TRUE;
  if (!holds_number (node))
    return member_error (error, where, name, _("a number"), node);
  value = json_node_get_value_type (node) == G_TYPE_INT64 ? (double) json_node_get_int (node)
                                                          : json_node_get_double (node);
  /* 1e999 parses as infinity, which SQLite would store as NULL. */
  if (!isfinite (value))
    return member_error (error, where, name, _("a finite number"), node);
  *inout = value;
  return TRUE;
}

gboolean
cg_json_read_array (JsonObject  *object,
                    const char  *where,
                    const char  *name,
                    JsonArray  **inout,
                    GError     **error)
{
  JsonNode *node = get_member (object, name);

  if (node == NULL)
    return TRUE;
  if (!JSON_NODE_HOLDS_ARRAY (node))
    return member_error (error, where, name, _("an array"), node);
  *inout = json_node_get_array (node);
  return TRUE;
}

gboolean
cg_json_read_strv (JsonObject  *object,
                   const char  *where,
                   const char  *name,
                   GStrv       *inout,
                   GError     **error)
{
  g_autoptr(GStrvBuilder) builder = NULL;
  JsonArray *array = NULL;

  if (!cg_json_read_array (object, where, name, &array, error))
    return FALSE;
  if (array == NULL)
    return TRUE;
  builder = g_strv_builder_new ();
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *node = json_array_get_element (array, i);

      if (!holds_value_of_type (node, G_TYPE_STRING))
        {
          g_set_error (error, CG_JSON_ERROR, CG_JSON_ERROR_MEMBER,
                       /* Translators: e.g. "Class 2 of the model file: item 3 of “samples” should be a string, not null". */
                       _("%s: item %u of “%s” should be a string, not %s"), where, i + 1, name,
                       cg_json_describe_node (node));
          return FALSE;
        }
      g_strv_builder_add (builder, json_node_get_string (node));
    }
  g_strfreev (*inout);
  *inout = g_strv_builder_end (builder);
  return TRUE;
}

gboolean
cg_json_read_object (JsonObject  *object,
                     const char  *where,
                     const char  *name,
                     JsonObject **inout,
                     GError     **error)
{
  JsonNode *node = get_member (object, name);

  if (node == NULL)
    return TRUE;
  if (!JSON_NODE_HOLDS_OBJECT (node))
    return member_error (error, where, name, _("an object"), node);
  *inout = json_node_get_object (node);
  return TRUE;
}
