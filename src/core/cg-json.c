/* cg-json.c: JSON members written and read the same way everywhere.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

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
