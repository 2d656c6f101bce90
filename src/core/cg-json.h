/* cg-json.h: the few JSON members every saved file of Cartograph writes
 * and reads the same way (json-glib has no call for "a string, or null"
 * or for a list of strings), and a parser for JSON that comes from outside.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

#define CG_JSON_ERROR (cg_json_error_quark ())

typedef enum {
  CG_JSON_ERROR_MEMBER,   /* a member of the wrong type, or out of range */
} CgJsonError;

GQuark      cg_json_error_quark        (void);

/* Arrays and objects nested deeper than this are refused before json-glib
 * reads them. Its parser (and json_node_free(), and the generator) recurse
 * once per level, so a file of a hundred thousand "[" overflows the stack
 * and kills the program. No file that Cartograph writes nests more than a
 * few levels, so 512 leaves hand-written files all the room they could
 * need, while a 1 MiB stack was measured to hold some 5,000 levels: the
 * limit is safe in any thread. */
#define CG_JSON_MAX_DEPTH 512

/* Parses @text (@length bytes, or up to its NUL when @length is -1) with
 * json-glib after checking, in one pass over the text, that its arrays and
 * objects nest no deeper than CG_JSON_MAX_DEPTH. For every JSON that comes
 * from outside: imported files, project files, anything a user can edit.
 * Returns the root (never NULL on success: empty text is an error), or
 * NULL with @error set in JSON_PARSER_ERROR. */
JsonNode   *cg_json_parse              (const char  *text,
                                        gssize       length,
                                        GError     **error);

/* Adds the member @name: @value, or null when @value is NULL. */
void        cg_json_add_string_or_null (JsonBuilder *builder,
                                        const char  *name,
                                        const char  *value);

/* Adds the member @name: an array of the strings of @values (an empty
 * array when @values is NULL). */
void        cg_json_add_strv           (JsonBuilder *builder,
                                        const char  *name,
                                        GStrv        values);

/* The string value of the member @name, or NULL when @object has no such
 * member or it is not a string (null, a number, an array…). */
const char *cg_json_get_string         (JsonObject  *object,
                                        const char  *name);

/* Typed members of an object read from outside (a file, a project). Each
 * reads the member @name of @object into *@inout, which keeps its value
 * when the member is missing or null. A member of another type fails
 * with CG_JSON_ERROR_MEMBER and a message naming @where (for example
 * "Class 2 of the model file"), @name and what the member holds instead.
 * json-glib's json_object_get_*_member() calls would instead log a
 * critical or quietly give a default. Strings and containers are
 * borrowed from @object. */
gboolean    cg_json_read_string        (JsonObject  *object,
                                        const char  *where,
                                        const char  *name,
                                        const char **inout,
                                        GError     **error);
gboolean    cg_json_read_boolean       (JsonObject  *object,
                                        const char  *where,
                                        const char  *name,
                                        gboolean    *inout,
                                        GError     **error);
/* A whole number from @min to @max. One written with a fraction part of
 * zero (3.0) is taken too, as some JSON writers write them so. */
gboolean    cg_json_read_int           (JsonObject  *object,
                                        const char  *where,
                                        const char  *name,
                                        gint64       min,
                                        gint64       max,
                                        gint64      *inout,
                                        GError     **error);
/* A finite number. */
gboolean    cg_json_read_double        (JsonObject  *object,
                                        const char  *where,
                                        const char  *name,
                                        double      *inout,
                                        GError     **error);
gboolean    cg_json_read_array         (JsonObject  *object,
                                        const char  *where,
                                        const char  *name,
                                        JsonArray  **inout,
                                        GError     **error);
/* An array of strings, which replaces *@inout (freed with g_strfreev()). */
gboolean    cg_json_read_strv          (JsonObject  *object,
                                        const char  *where,
                                        const char  *name,
                                        GStrv       *inout,
                                        GError     **error);
gboolean    cg_json_read_object        (JsonObject  *object,
                                        const char  *where,
                                        const char  *name,
                                        JsonObject **inout,
                                        GError     **error);

/* What @node holds, for messages: "a string", "an array", "null"… */
const char *cg_json_describe_node      (JsonNode    *node);

/* Appends @value to @out as a quoted JSON string, for lines written many
 * times a second (the CDXJ index) where building a JsonNode tree for each
 * would cost more than the rest of the line. Invalid UTF-8 is replaced
 * with U+FFFD, as JSON must be UTF-8. */
void        cg_json_append_string      (GString     *out,
                                        const char  *value);

G_END_DECLS
