/* fail-warc-flush.c: a disk that cannot flush WARC files, for tests.
 *
 * Loaded with LD_PRELOAD into cartograph-cli, it makes fdatasync() fail
 * with EIO for every open file whose name ends in ".warc.gz" and leaves
 * every other file (the project database above all) alone: the crawl
 * then meets, at the end, the failure a failing disk gives it.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int
is_warc_file (int fd)
{
  char link[64];
  char path[4096];
  ssize_t length;

  snprintf (link, sizeof link, "/proc/self/fd/%d", fd);
  length = readlink (link, path, sizeof path - 1);
  if (length <= 0)
    return 0;
  path[length] = '\0';
  return length > 8 && strcmp (path + length - 8, ".warc.gz") == 0;
}

int
fdatasync (int fd)
{
  static int (*real_fdatasync) (int);

  if (is_warc_file (fd))
    {
      errno = EIO;
      return -1;
    }
  if (real_fdatasync == NULL)
    real_fdatasync = (int (*) (int)) dlsym (RTLD_NEXT, "fdatasync");
  return real_fdatasync (fd);
}
