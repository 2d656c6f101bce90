#!/usr/bin/python3
# measure.py: runs a command and reports its wall time and the peak memory
# of its whole process tree, as JSON on the last line of stdout.
#
#   measure.py OUTPUT_JSON -- COMMAND [ARG…]
#
# Browsers are many processes (WebKit: UI, network, web processes inside
# bubblewrap, and the Xvfb cartograph-cli starts; Chromium: browser, GPU,
# network, renderers), so /usr/bin/time's peak RSS of the largest one says
# little. The tree is sampled every 50 ms; a sample is the sum of the
# processes' proportional set size (Pss in /proc/PID/smaps_rollup), which
# counts shared libraries once across the tree rather than once per
# process. Peak RSS summed the same way is given too, and the CPU time of
# the tree (user + system, each process's last sampled value, plus what
# the command's own rusage says of the children it reaped), which a busy
# machine disturbs less than wall time.
#
# Copyright 2026 The Cartograph authors
# SPDX-License-Identifier: GPL-3.0-or-later
import json
import os
import resource
import subprocess
import sys
import time

INTERVAL_S = 0.05


def children_map():
    parents = {}
    for name in os.listdir('/proc'):
        if not name.isdigit():
            continue
        try:
            with open('/proc/%s/stat' % name, encoding='utf-8', errors='replace') as f:
                stat = f.read()
        except OSError:
            continue
        ppid = int(stat[stat.rindex(')') + 2:].split()[1])
        parents.setdefault(ppid, []).append(int(name))
    return parents


def tree(root):
    parents = children_map()
    out, todo = [], [root]
    while todo:
        pid = todo.pop()
        out.append(pid)
        todo.extend(parents.get(pid, []))
    return out


TICKS = os.sysconf('SC_CLK_TCK')


def cpu_seconds(pid):
    try:
        with open('/proc/%d/stat' % pid, encoding='utf-8', errors='replace') as f:
            stat = f.read()
    except OSError:
        return None
    fields = stat[stat.rindex(')') + 2:].split()
    # utime and stime are fields 14 and 15 of stat(5), 12 and 13 here.
    return (int(fields[11]) + int(fields[12])) / TICKS


def memory_kib(pid):
    pss = rss = 0
    try:
        with open('/proc/%d/smaps_rollup' % pid, encoding='utf-8') as f:
            for line in f:
                if line.startswith('Pss:'):
                    pss = int(line.split()[1])
                elif line.startswith('Rss:'):
                    rss = int(line.split()[1])
    except OSError:
        pass
    return pss, rss


def main():
    if len(sys.argv) < 4 or sys.argv[2] != '--':
        print('usage: measure.py OUTPUT_JSON -- COMMAND [ARG…]', file=sys.stderr)
        return 2
    output, command = sys.argv[1], sys.argv[3:]
    started = time.monotonic()
    process = subprocess.Popen(command)
    peak_pss = peak_rss = 0
    peak_processes = 0
    cpu = {}
    while process.poll() is None:
        pids = tree(process.pid)
        pss = rss = 0
        for pid in pids:
            p, r = memory_kib(pid)
            pss += p
            rss += r
            c = cpu_seconds(pid)
            if c is not None:
                cpu[pid] = max(cpu.get(pid, 0.0), c)
        peak_pss = max(peak_pss, pss)
        peak_rss = max(peak_rss, rss)
        peak_processes = max(peak_processes, len(pids))
        time.sleep(INTERVAL_S)
    seconds = time.monotonic() - started
    # Processes that ended between two samples are missed by the sum; the
    # children the command reaped are in our rusage of it, taken when the
    # count of the tree is the smaller.
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    sampled = sum(cpu.values())
    reaped = children.ru_utime + children.ru_stime
    result = {'status': process.returncode, 'seconds': seconds, 'peak_pss_kib': peak_pss,
              'peak_rss_kib': peak_rss, 'peak_processes': peak_processes,
              'cpu_seconds': max(sampled, reaped)}
    with open(output, 'w', encoding='utf-8') as f:
        json.dump(result, f)
    return 0


if __name__ == '__main__':
    sys.exit(main())
