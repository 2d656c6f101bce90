#!/usr/bin/python3
# chromium-capture.py: renders pages with headless Chromium and runs
# Cartograph's capture script (src/render/cg-capture.js) on each, as
# cartograph-cli render does with WebKitGTK: the same script, the same
# arguments, in an isolated world, then a 320 px wide PNG thumbnail of
# the 1280x900 viewport; the decorated DOM and the thumbnail are written
# to OUT_DIR, one line per page to OUT_DIR/pages.jsonl.
#
#   chromium-capture.py --script cg-capture.js --out DIR --jobs N URL_FILE
#
# Chromium is driven over the DevTools protocol on a pipe
# (--remote-debugging-pipe: JSON messages ended by NUL on fds 3 and 4),
# which needs no WebSocket library. It is Debian's /usr/bin/chromium.
#
# Copyright 2026 The Cartograph authors
# SPDX-License-Identifier: GPL-3.0-or-later
import argparse
import base64
import json
import os
import queue
import shutil
import subprocess
import sys
import tempfile
import threading
import time

QUIET_MS = 500          # CG_RENDER_DEFAULT_QUIET_MS
SETTLE_MAX_MS = 5000    # CG_RENDER_DEFAULT_SETTLE_MAX_MS
MAX_ELEMENTS = 100000   # CG_RENDER_DEFAULT_MAX_ELEMENTS
VIEWPORT = (1280, 900)  # CG_RENDER_DEFAULT_VIEWPORT_*
THUMBNAIL_WIDTH = 320   # CG_RENDER_DEFAULT_THUMBNAIL_WIDTH
TIMEOUT_S = 30          # CG_RENDER_DEFAULT_TIMEOUT_MS


class Browser:
    """One Chromium process and its DevTools pipe."""

    def __init__(self, chromium, profile):
        to_browser_r, self.to_browser = os.pipe()
        self.from_browser, from_browser_w = os.pipe()

        def child():
            # The pipes' own numbers may already be 3 or 4, where dup2()
            # does nothing, so inheritance is set explicitly.
            os.dup2(to_browser_r, 3)
            os.dup2(from_browser_w, 4)
            os.set_inheritable(3, True)
            os.set_inheritable(4, True)

        self.process = subprocess.Popen(
            [chromium, '--headless=new', '--remote-debugging-pipe', '--no-sandbox', '--disable-gpu',
             '--disable-background-networking', '--no-first-run', '--disable-component-update',
             '--disable-sync', '--disable-default-apps', '--disable-extensions', '--mute-audio',
             '--user-data-dir=' + profile, '--window-size=%d,%d' % VIEWPORT, 'about:blank'],
            # dup2() makes fds 3 and 4 inheritable; every other fd Python
            # opened is not (PEP 446), so nothing else leaks to Chromium.
            close_fds=False, preexec_fn=child,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_browser_r)
        os.close(from_browser_w)
        self.lock = threading.Lock()
        self.next_id = 0
        self.waiting = {}        # id → Queue for the response
        self.events = {}         # session id → Queue of events
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        buffer = b''
        while True:
            chunk = os.read(self.from_browser, 1 << 20)
            if not chunk:
                break
            buffer += chunk
            while b'\0' in buffer:
                raw, buffer = buffer.split(b'\0', 1)
                message = json.loads(raw)
                if 'id' in message:
                    with self.lock:
                        box = self.waiting.pop(message['id'], None)
                    if box is not None:
                        box.put(message)
                else:
                    with self.lock:
                        box = self.events.get(message.get('sessionId'))
                    if box is not None:
                        box.put(message)

    def send(self, method, params=None, session=None, timeout=TIMEOUT_S):
        box = queue.Queue()
        with self.lock:
            self.next_id += 1
            message = {'id': self.next_id, 'method': method, 'params': params or {}}
            if session is not None:
                message['sessionId'] = session
            self.waiting[self.next_id] = box
            os.write(self.to_browser, json.dumps(message).encode() + b'\0')
        try:
            reply = box.get(timeout=timeout)
        except queue.Empty:
            with self.lock:
                self.waiting.pop(message['id'], None)
            raise RuntimeError('Chromium did not answer %s within %.0f s' % (method, timeout)) from None
        if 'error' in reply:
            raise RuntimeError('%s: %s' % (method, reply['error'].get('message')))
        return reply.get('result', {})

    def new_tab(self):
        target = self.send('Target.createTarget', {'url': 'about:blank'})['targetId']
        session = self.send('Target.attachToTarget', {'targetId': target, 'flatten': True})['sessionId']
        with self.lock:
            self.events[session] = queue.Queue()
        self.send('Page.enable', session=session)
        self.send('Emulation.setDeviceMetricsOverride',
                  {'width': VIEWPORT[0], 'height': VIEWPORT[1], 'deviceScaleFactor': 1, 'mobile': False},
                  session=session)
        return session

    def close(self):
        try:
            self.send('Browser.close', timeout=5)
        except Exception:
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def render(browser, session, url, expression):
    events = browser.events[session]
    while not events.empty():
        events.get_nowait()
    started = time.monotonic()
    deadline = started + TIMEOUT_S
    navigation = browser.send('Page.navigate', {'url': url}, session=session)
    if navigation.get('errorText'):
        raise RuntimeError('cannot load %s: %s' % (url, navigation['errorText']))
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise RuntimeError('rendering %s took longer than %d s' % (url, TIMEOUT_S))
        try:
            event = events.get(timeout=left)
        except queue.Empty:
            continue
        if event.get('method') == 'Page.loadEventFired':
            break
    frame = browser.send('Page.getFrameTree', session=session)['frameTree']['frame']['id']
    world = browser.send('Page.createIsolatedWorld', {'frameId': frame, 'worldName': 'cartograph-capture'},
                         session=session)['executionContextId']
    left = max(1, deadline - time.monotonic())
    value = browser.send('Runtime.evaluate',
                         {'expression': expression, 'contextId': world, 'awaitPromise': True,
                          'returnByValue': True, 'timeout': int(left * 1000)},
                         session=session, timeout=left)
    if 'exceptionDetails' in value:
        raise RuntimeError('the capture script failed on %s: %s' % (url, value['exceptionDetails'].get('text')))
    captured = value['result']['value']
    shot = browser.send('Page.captureScreenshot',
                        {'format': 'png',
                         'clip': {'x': 0, 'y': 0, 'width': VIEWPORT[0], 'height': VIEWPORT[1],
                                  'scale': THUMBNAIL_WIDTH / VIEWPORT[0]}},
                        session=session)
    captured['png'] = base64.b64decode(shot['data'])
    captured['ms'] = int((time.monotonic() - started) * 1000)
    return captured


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--script', required=True)
    parser.add_argument('--out', required=True)
    parser.add_argument('--jobs', type=int, default=2)
    parser.add_argument('--chromium', default='/usr/bin/chromium')
    parser.add_argument('urls')
    args = parser.parse_args()

    with open(args.script, encoding='utf-8') as f:
        body = f.read()
    expression = '(async (quietMs, settleMaxMs, maxElements) => {\n%s\n})(%d, %d, %d)' % (
        body, QUIET_MS, SETTLE_MAX_MS, MAX_ELEMENTS)
    with open(args.urls, encoding='utf-8') as f:
        urls = [line.strip() for line in f if line.strip()]
    os.makedirs(args.out, exist_ok=True)

    profile = tempfile.mkdtemp(prefix='cg-bench-chromium-')
    browser = Browser(args.chromium, profile)
    work = queue.Queue()
    for number, url in enumerate(urls):
        work.put((number, url))
    index_lock = threading.Lock()
    index = open(os.path.join(args.out, 'pages.jsonl'), 'w', encoding='utf-8')
    counts = {'done': 0, 'failed': 0}
    started = time.monotonic()

    def worker():
        session = browser.new_tab()
        while True:
            try:
                number, url = work.get_nowait()
            except queue.Empty:
                return
            line = {'n': number + 1, 'url': url}
            try:
                captured = render(browser, session, url, expression)
                name = '%05d' % (number + 1)
                with open(os.path.join(args.out, name + '.html'), 'w', encoding='utf-8') as f:
                    f.write(captured['html'])
                with open(os.path.join(args.out, name + '.png'), 'wb') as f:
                    f.write(captured['png'])
                line.update({k: captured[k] for k in ('url', 'title', 'elements', 'visible', 'settled', 'ms')})
                counts['done'] += 1
            except Exception as error:  # a page that fails is reported, the run goes on
                line['error'] = str(error)
                counts['failed'] += 1
                print('chromium-capture.py: %s' % error, file=sys.stderr)
            with index_lock:
                index.write(json.dumps(line) + '\n')

    threads = [threading.Thread(target=worker) for _ in range(args.jobs)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    seconds = time.monotonic() - started
    index.close()
    browser.close()
    shutil.rmtree(profile, ignore_errors=True)
    print('%d pages rendered, %d failed, in %.1f s (%.2f pages/s)' % (
        counts['done'], counts['failed'], seconds, counts['done'] / seconds if seconds else 0))
    return 0 if counts['failed'] == 0 else 1


if __name__ == '__main__':
    sys.exit(main())
