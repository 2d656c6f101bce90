/* cg-cli.h: the subcommands of cartograph-cli and cartograph-cli-web.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Exit codes: 0 success, 1 the work failed, 2 the command line was wrong. */
#define CG_CLI_EXIT_OK      0
#define CG_CLI_EXIT_FAILED  1
#define CG_CLI_EXIT_USAGE   2
/* Stopped by Ctrl+C or SIGTERM before the end: what was done is kept,
 * and --resume (or the same command again) goes on. */
#define CG_CLI_EXIT_STOPPED 3

/* Each subcommand gets its own name as argv[0] and parses the rest. */
typedef int (*CgCliCommandFunc) (int argc, char **argv);

typedef struct {
  const char       *name;
  const char       *summary;
  /* NULL in cartograph-cli for the commands cartograph-cli-web runs. */
  CgCliCommandFunc  run;
} CgCliCommand;


int  cg_cli_clustvx     (int argc, char **argv);
int  cg_cli_crawl       (int argc, char **argv);
int  cg_cli_export      (int argc, char **argv);
int  cg_cli_extract     (int argc, char **argv);
int  cg_cli_harvest     (int argc, char **argv);
int  cg_cli_compare     (int argc, char **argv);
int  cg_cli_import      (int argc, char **argv);
int  cg_cli_info        (int argc, char **argv);
int  cg_cli_model       (int argc, char **argv);
int  cg_cli_render      (int argc, char **argv);
int  cg_cli_serve_demo  (int argc, char **argv);

/* The locale, the translations and the program name. */
void     cg_cli_init          (void);
const CgCliCommand *
         cg_cli_find_command  (const CgCliCommand  *commands,
                               gsize                n_commands,
                               const char          *name);
/* Runs @command with the command line of main(), argv[1] its name. */
int      cg_cli_run_command   (const CgCliCommand  *command,
                               int                  argc,
                               char               **argv);

/* Adds the options @entries (ending with an entry whose long name is NULL)
 * to @context's main group, as g_option_context_add_main_entries() does,
 * but reads integer options in decimal only (see cg-cli-common.c). */
void     cg_cli_add_options   (GOptionContext      *context,
                               const GOptionEntry  *entries);

/* Parses a subcommand's options and reports a usage error the same way for
 * every subcommand. Returns FALSE when the caller should exit with the code
 * stored in @exit_code. */
gboolean cg_cli_parse_options (GOptionContext  *context,
                               int             *argc,
                               char          ***argv,
                               int             *exit_code);
void     cg_cli_print_error   (const char      *format,
                               ...) G_GNUC_PRINTF (1, 2);

/* The first option of @args, a copy of the command line taken before
 * parsing, that is not one of @allowed (NULL-terminated, each "--name" or
 * "-n"), as "--name" without its value; NULL when there is none. For
 * --resume, which takes the settings the work was started with, so that an
 * option given with it is refused instead of quietly ignored. */
char    *cg_cli_find_option_besides (char               **args,
                                     const char * const  *allowed);

/* Parses a URL given on the command line, failing with an error that
 * names it when it is not UTF-8, not absolute or not a URL (http and
 * https ones as the crawler takes them). Its scheme is the caller's to
 * check. */
GUri    *cg_cli_parse_url     (const char      *url,
                               GError         **error);

/* Reads @text, the value of @option, as a finite decimal number of 0 or
 * more; prints the usage error naming @option and returns FALSE if it is
 * not one. */
gboolean cg_cli_parse_seconds (const char      *option,
                               const char      *text,
                               double          *out_seconds);

/* Whether @value, given for @option (or @not_given when it was not),
 * is a count of at least 1; prints the usage error naming @option if it
 * is not. 0 is no count a user means ("--max-pages 0" once meant "no
 * limit"). */
gboolean cg_cli_check_count   (const char      *option,
                               gint64           value,
                               gint64           not_given);

/* Reads the whole file @path (a path, never a URI) into a
 * NUL-terminated buffer, failing with an error that names it when it
 * cannot be read or holds more than @max_size bytes. */
gboolean cg_cli_read_file     (const char      *path,
                               gsize            max_size,
                               char           **out_contents,
                               gsize           *out_length,
                               GError         **error);

G_END_DECLS
