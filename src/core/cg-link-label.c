/* cg-link-label.c: seed 004's root-to-link edge labels.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "cg-link-label.h"

char *
cg_link_label_id_stem (const char *id)
{
  const char *start;
  const char *end;

  g_return_val_if_fail (id != NULL, NULL);

  start = id;
  while (*start != '\0' && g_ascii_isdigit (*start))
    start++;
  end = start;
  while (*end != '\0' && !g_ascii_isdigit (*end))
    end++;
  if (end == start)
    return NULL;
  return g_strndup (start, end - start);
}

char *
cg_link_label_for_path (const CgDomPath       *path,
                        CgLinkLabelAttributes  attributes)
{
  GString *out = g_string_new (NULL);

  g_return_val_if_fail (path != NULL, NULL);

  for (guint i = 0; i < cg_dom_path_get_length (path); i++)
    {
      g_string_append_c (out, '/');
      g_string_append (out, cg_dom_path_get_tag (path, i));

      if (attributes & CG_LINK_LABEL_ID)
        {
          int found = cg_dom_path_find_attribute (path, i, "id");

          if (found >= 0)
            {
              const char *id = cg_dom_path_get_attribute_value (path, i, found);
              g_autofree char *stem = id != NULL ? cg_link_label_id_stem (id) : NULL;

              /* An id too long to record is tested for presence only. */
              if (stem != NULL)
                {
                  g_autofree char *literal = cg_dom_xpath_literal (stem);

                  g_string_append_printf (out, "[contains(@id,%s)]", literal);
                }
              else
                g_string_append (out, "[@id]");
            }
        }
      if ((attributes & CG_LINK_LABEL_CLASS) && cg_dom_path_find_attribute (path, i, "class") >= 0)
        g_string_append (out, "[@class]");
    }
  return g_string_free (out, FALSE);
}
